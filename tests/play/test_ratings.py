"""Ratings: FIBS for the backgammon family, Glicko-2 for draughts, one pool per variant.

Sources of the formulas:

- FIBS: the server's own ``help formula`` page, reprinted in the rec.games.backgammon
  FAQ (stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html)
  and the MacFIBS glossary page "Ratings" (fibs.com/macfibs/help/glossary/pages/Ratings.html),
  which points to Kevin Bastian's article "The FIBS Rating System":
  P_upset = 1/(10^(D·√N/2000) + 1), change 4·K·√N·P, K = max(1, 5 − experience/100).
  The expected numbers below are worked out by hand in the comments.
- Glicko-2: Mark Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf),
  whose worked example is reproduced in ``test_glickman_worked_example``.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sheshbesh.games import VARIANTS
from sheshbesh.play.ratings import (
    FibsRating,
    Glicko2Rating,
    InvalidRating,
    fibs_money_game,
    fibs_update,
    fibs_win_probability,
    glicko2_game,
    glicko2_idle,
    glicko2_update,
    rating_family,
    rating_periods,
    rating_pool,
)
from sheshbesh.play.ratings.glicko2 import MAX_DEVIATION, MIN_DEVIATION

# --- FIBS: hand-computed examples -------------------------------------------------


def test_fibs_two_newcomers_one_point_match() -> None:
    # D = 0, so 10^0 = 1 and P_upset = 1/(1 + 1) = 0.5.
    # change = 4·√1·0.5 = 2; both have experience 0, K = max(1, 5 − 0) = 5 → ±10.
    winner, loser = fibs_update(FibsRating(1500, 0), FibsRating(1500, 0), 1)
    assert winner == FibsRating(1510.0, 1)
    assert loser == FibsRating(1490.0, 1)


def test_fibs_favourite_wins_five_point_match() -> None:
    # D = 1600 − 1500 = 100, N = 5, √5 = 2.236068.
    # D·√N/2000 = 100·2.236068/2000 = 0.1118034; 10^0.1118034 = 1.293610.
    # P_upset = 1/(1.293610 + 1) = 0.435994; the favourite won, so P = P_upset.
    # change = 4·2.236068·0.435994 = 3.899648; both experienced, K = 1.
    winner, loser = fibs_update(FibsRating(1600, 500), FibsRating(1500, 600), 5)
    assert winner.rating == pytest.approx(1603.899648, abs=1e-5)
    assert loser.rating == pytest.approx(1496.100352, abs=1e-5)
    assert (winner.experience, loser.experience) == (505, 605)


def test_fibs_newcomer_upsets_experienced_player_in_seven_point_match() -> None:
    # D = 1700 − 1500 = 200, N = 7, √7 = 2.645751.
    # D·√N/2000 = 0.2645751; 10^0.2645751 = 1.838972; P_upset = 1/2.838972 = 0.352240.
    # The underdog won, so P = 1 − 0.352240 = 0.647760; 4·√7·P = 10.583005·0.647760 = 6.855246.
    # Winner's K = max(1, 5 − 150/100) = 3.5 → +23.993360; loser's K = 1 → −6.855246.
    winner, loser = fibs_update(FibsRating(1500, 150), FibsRating(1700, 1000), 7)
    assert winner.rating == pytest.approx(1523.993360, abs=1e-5)
    assert loser.rating == pytest.approx(1693.144754, abs=1e-5)
    assert (winner.experience, loser.experience) == (157, 1007)


def test_fibs_money_game_counts_as_one_point_match() -> None:
    # D = 50, N = 1: 10^(50/2000) = 10^0.025 = 1.059254; P_upset = 1/2.059254 = 0.485613.
    # The underdog won: P = 0.514387; 4·√1·P = 2.057549.
    # Winner's K = max(1, 5 − 399/100) = 1.01 → +2.078124; loser's K = 1 → −2.057549.
    winner, loser = fibs_money_game(FibsRating(1500, 399), FibsRating(1550, 400))
    assert winner.rating == pytest.approx(1502.078124, abs=1e-5)
    assert loser.rating == pytest.approx(1547.942451, abs=1e-5)
    assert winner.experience == 400 and not winner.provisional
    assert fibs_money_game(FibsRating(1500, 0), FibsRating(1550, 0)) == fibs_update(
        FibsRating(1500, 0), FibsRating(1550, 0), 1
    )


@pytest.mark.parametrize(
    ("difference", "length", "favourite"),
    [(100, 3, 0.550), (100, 5, 0.564), (200, 7, 0.648), (300, 1, 0.585), (700, 11, 0.935)],
)
def test_fibs_win_probability_matches_published_table(
    difference: int, length: int, favourite: float
) -> None:
    """The favourite's share a rating difference predicts, as tabulated on
    rec.games.backgammon (bkgm.com/rgb/rgb.cgi?view+45) from the same formula."""
    assert round(fibs_win_probability(1500 + difference, 1500, length), 3) == favourite


def test_fibs_experience_factor_and_provisional() -> None:
    assert FibsRating(1500, 0).factor == 5.0
    assert FibsRating(1500, 250).factor == 2.5
    assert FibsRating(1500, 400).factor == FibsRating(1500, 9000).factor == 1.0
    assert FibsRating.initial() == FibsRating(1500.0, 0)
    assert FibsRating(1500, 399).provisional and not FibsRating(1500, 400).provisional
    assert FibsRating(1523.456, 12).shown() == "1523.46?"
    assert FibsRating(1523.0, 400).shown() == "1523.00"


def test_fibs_json_round_trip_and_bad_data() -> None:
    rating = FibsRating(1612.25, 731)
    assert FibsRating.from_json(rating.to_json()) == rating
    bad: object
    for bad in (
        {"rating": 1500},
        {"rating": "1500", "experience": 0},
        {"rating": 1500, "experience": 1.5},
        [],
    ):
        with pytest.raises(InvalidRating):
            FibsRating.from_json(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidRating, match="experience"):
        FibsRating(1500, -1)
    with pytest.raises(InvalidRating, match="rating"):
        FibsRating(math.nan, 0)


@pytest.mark.parametrize("length", [0, -3, True, 2.5])
def test_fibs_refuses_bad_match_lengths(length: int) -> None:
    with pytest.raises(InvalidRating, match="match length"):
        fibs_update(FibsRating.initial(), FibsRating.initial(), length)


# --- FIBS: properties ---------------------------------------------------------------

ratings = st.floats(min_value=0, max_value=4000)
experiences = st.integers(min_value=0, max_value=5000)
lengths = st.integers(min_value=1, max_value=25)
fibs_ratings = st.builds(FibsRating, ratings, experiences)


@given(fibs_ratings, fibs_ratings, lengths)
def test_fibs_winner_never_loses_and_loser_never_gains(
    winner: FibsRating, loser: FibsRating, length: int
) -> None:
    new_winner, new_loser = fibs_update(winner, loser, length)
    assert new_winner.rating >= winner.rating and new_loser.rating <= loser.rating
    assert new_winner.experience == winner.experience + length
    assert new_loser.experience == loser.experience + length


@given(ratings, ratings, experiences, lengths)
def test_fibs_conserves_rating_points_when_factors_are_equal(
    a: float, b: float, experience: int, length: int
) -> None:
    """Equal experience means equal K, so the winner gains what the loser loses.
    (With unequal K below 400 experience the sum is not conserved, by design.)"""
    winner, loser = fibs_update(FibsRating(a, experience), FibsRating(b, experience), length)
    assert winner.rating + loser.rating == pytest.approx(a + b, abs=1e-9)


@given(ratings, ratings, st.integers(min_value=400, max_value=5000), lengths)
def test_fibs_expected_change_is_zero_for_experienced_players(
    a: float, b: float, experience: int, length: int
) -> None:
    """If A wins with the formula's own probability P, A's expected change is 0."""
    p = fibs_win_probability(a, b, length)
    won = fibs_update(FibsRating(a, experience), FibsRating(b, experience), length)[0]
    lost = fibs_update(FibsRating(b, experience), FibsRating(a, experience), length)[1]
    expected = p * (won.rating - a) + (1 - p) * (lost.rating - a)
    assert expected == pytest.approx(0.0, abs=1e-9)


@given(ratings, ratings, lengths)
def test_fibs_probabilities_are_complementary(a: float, b: float, length: int) -> None:
    p = fibs_win_probability(a, b, length)
    assert 0.0 <= p <= 1.0
    assert p + fibs_win_probability(b, a, length) == pytest.approx(1.0)


# --- Glicko-2 -----------------------------------------------------------------------


def test_glickman_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system", steps 1–8: a 1500/200/0.06 player
    beats 1400/30 and loses to 1550/100 and 1700/300, τ = 0.5.

    Hand steps from the paper: μ = −0.5756, φ = 1.1513; g = 0.9955, 0.9531, 0.7242;
    E = 0.639, 0.432, 0.303; v = 1.7785; Δ = −0.4834; σ' = 0.05999;
    φ* = 1.152862; φ' = 0.8722; μ' = −0.2069 → r' = 1464.06, RD' = 151.52.
    The paper rounds μ' to four places before scaling (−0.2069·173.7178 + 1500 =
    1464.06); unrounded, r' is 1464.0507, so the rating is checked to ±0.02.
    """
    player = Glicko2Rating(1500, 200, 0.06)
    results = [
        (Glicko2Rating(1400, 30, 0.06), 1.0),
        (Glicko2Rating(1550, 100, 0.06), 0.0),
        (Glicko2Rating(1700, 300, 0.06), 0.0),
    ]
    after = glicko2_update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_newcomers_one_game() -> None:
    first, second = glicko2_game(Glicko2Rating.initial(), Glicko2Rating.initial(), 1.0)
    assert first.rating > 1500 > second.rating
    assert first.rating - 1500 == pytest.approx(1500 - second.rating)
    assert first.deviation == second.deviation < 350
    drawn = glicko2_game(Glicko2Rating.initial(), Glicko2Rating.initial(), 0.5)
    assert drawn[0].rating == pytest.approx(1500) and drawn[1].rating == pytest.approx(1500)


def test_glicko2_idle_widens_deviation_up_to_the_newcomers() -> None:
    # φ = 50/173.7178 = 0.287825; 69 periods at σ = 0.06 add 69·0.0036 = 0.2484 to φ²:
    # √(0.082843 + 0.2484) = 0.575537 → RD 99.98.
    settled = Glicko2Rating(1800, 50, 0.06)
    assert glicko2_idle(settled, 69).deviation == pytest.approx(99.98, abs=0.01)
    assert glicko2_idle(settled, 0) == settled
    assert glicko2_idle(settled, 1e6).deviation == MAX_DEVIATION
    assert glicko2_idle(settled, 69).rating == 1800
    assert glicko2_update(settled, []) == glicko2_idle(settled, 1)
    assert rating_periods(3 * 86_400.0) == 3.0 and rating_periods(-5.0) == 0.0
    with pytest.raises(InvalidRating, match="idle"):
        glicko2_idle(settled, -1)


def test_glicko2_provisional_json_and_bad_data() -> None:
    assert Glicko2Rating.initial() == Glicko2Rating(1500.0, 350.0, 0.06)
    assert Glicko2Rating.initial().shown() == "1500?"
    assert Glicko2Rating(1723.6, 110, 0.06).shown() == "1724"
    assert Glicko2Rating(1500, 110.01, 0.06).provisional
    rating = Glicko2Rating(1650.5, 80.25, 0.0599)
    assert Glicko2Rating.from_json(rating.to_json()) == rating
    for bad in (
        {"rating": 1500, "deviation": 350},
        {"rating": 1500, "deviation": "x", "volatility": 0.06},
    ):
        with pytest.raises(InvalidRating):
            Glicko2Rating.from_json(bad)
    with pytest.raises(InvalidRating, match="deviation"):
        Glicko2Rating(1500, 0, 0.06)
    for score in (1.5, -0.1, True):
        with pytest.raises(InvalidRating, match="score"):
            glicko2_game(Glicko2Rating.initial(), Glicko2Rating.initial(), score)


glicko_ratings = st.builds(
    Glicko2Rating,
    st.floats(min_value=500, max_value=3000),
    st.floats(min_value=MIN_DEVIATION, max_value=MAX_DEVIATION),
    st.floats(min_value=0.03, max_value=0.1),
)
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(glicko_ratings, glicko_ratings, scores)
def test_glicko2_moves_towards_the_result(
    player: Glicko2Rating, opponent: Glicko2Rating, score: float
) -> None:
    """A win never lowers a rating, a loss never raises it, and RD stays in bounds."""
    after = glicko2_update(player, [(opponent, score)])
    if score == 1.0:
        assert after.rating >= player.rating
    if score == 0.0:
        assert after.rating <= player.rating
    assert MIN_DEVIATION <= after.deviation <= MAX_DEVIATION
    assert math.isfinite(after.volatility) and after.volatility > 0


@given(glicko_ratings, glicko_ratings, scores)
def test_glicko2_game_rates_each_side_against_the_others_old_rating(
    first: Glicko2Rating, second: Glicko2Rating, score: float
) -> None:
    new_first, new_second = glicko2_game(first, second, score)
    assert new_first == glicko2_update(first, [(second, score)])
    assert new_second == glicko2_update(second, [(first, 1.0 - score)])


@given(glicko_ratings, st.floats(min_value=0, max_value=10_000))
@example(Glicko2Rating(1500, 123.9375, 0.06), 0.0)  # scaling to φ and back rounded it down
def test_glicko2_idle_never_narrows_deviation(player: Glicko2Rating, periods: float) -> None:
    idle = glicko2_idle(player, periods)
    assert player.deviation <= idle.deviation <= MAX_DEVIATION
    assert (idle.rating, idle.volatility) == (player.rating, player.volatility)


# --- pools --------------------------------------------------------------------------


def test_every_variant_has_a_family_and_its_own_pool() -> None:
    assert rating_family("draughts") == "draughts"
    assert {rating_family(v) for v in VARIANTS if v != "draughts"} == {"backgammon"}
    assert [rating_pool(v) for v in VARIANTS] == list(VARIANTS)
    with pytest.raises(InvalidRating, match="unknown variant 'chess'"):
        rating_family("chess")
    with pytest.raises(InvalidRating):
        rating_pool("chess")
