"""RULES.md §4, Persian takhte nard: the engine's part (TN-1, TN-E1, TN-E4).

TN-2 … TN-4 and TN-E2, TN-E3 are option defaults, the cube and the server's
handling of irregularities: game-flow rules, tested there.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.race import RACE_VARIANTS, Position, Side

Dice = tuple[int, int]
Results = Callable[[Position, Dice], set[Position]]
ResultsOf = Callable[..., set[Position]]
Notations = Callable[[Position, Dice], set[str]]

RULES = RACE_VARIANTS["takhte_nard"]
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def tn(
    white: dict[int | str, int], black: dict[int | str, int], turn: Side = Side.WHITE
) -> Position:
    return Position.from_own("takhte_nard", white=white, black=black, turn=turn)


def test_tn_1_board_start_opening_levels_as_backgammon() -> None:
    backgammon = RACE_VARIANTS["backgammon"]
    assert RULES.mapping == backgammon.mapping == "opposite"
    assert Position.start("takhte_nard").text() == Position.start("backgammon").text()
    assert RULES.opening == "U"
    assert RULES.levels == RULES.resign_levels == (1, 2, 3)
    assert RULES.cube


@pytest.mark.parametrize(
    "text",
    [
        "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5",
        "W:Wbarx2,13x13:B19x2,22x2,24x11",
        "B:W2,4x4,5x4,6x3:Bbar,12x14",
        "W:W1x3,2x3,4x4,5x2:Bbar,3,19x5,20x3",
    ],
)
def test_tn_1_plays_as_in_backgammon(text: str, notations: Notations) -> None:
    takhte = Position.from_text("takhte_nard", text)
    backgammon = Position.from_text("backgammon", text)
    for dice in ROLLS:
        assert notations(takhte, dice) == notations(backgammon, dice)


def test_tn_1_backgammon_scores_triple() -> None:
    outcome = tn({}, {"bar": 1, 6: 14}).outcome()
    assert outcome is not None and (outcome.winner, outcome.level) == (Side.WHITE, 3)


E1 = tn({"bar": 2, 13: 13}, {6: 2, 3: 2, 1: 11})


def test_tn_e1_partial_entering(notations: Notations) -> None:
    assert notations(E1, (4, 3)) == {"bar/21"}
    (play,) = E1.legal_plays((4, 3))
    assert play.after.bar[Side.WHITE] == 1
    assert play.after.turn is Side.BLACK


def test_tn_e1_both_enter_then_two_fours_by_any_checkers(
    results: Results, results_of: ResultsOf
) -> None:
    plays = E1.legal_plays((4, 4))
    assert all([step.src for step in play.steps[:2]] == [25, 25] for play in plays)
    assert all(len(play.steps) == 4 for play in plays)
    expected = ["bar/21(2) 13/9(2)", "bar/21(2) 13/5", "bar/21 bar/17 13/9", "bar/21 bar/13"]
    assert results(E1, (4, 4)) == results_of(E1, (4, 4), *expected, "bar/17(2)")


E4 = tn({6: 3, 5: 4, 4: 4, 2: 1}, {"bar": 1, 13: 14}, turn=Side.BLACK)


def test_tn_e4_black_enters_with_a_hit() -> None:
    play = E4.play((2, 6), "bar/23* 23/17")
    assert play.notation() == "bar/23*/17"
    assert play.after.bar == (1, 0)
    assert E4.play((2, 6), "bar/23* 13/7").after.bar == (1, 0)


def test_tn_e4_white_must_bring_the_hit_checker_home_before_bearing_off() -> None:
    after = E4.play((2, 6), "bar/23* 23/17").after
    assert after.turn is Side.WHITE and after.borne_off(Side.WHITE) == 3
    for dice in ROLLS:
        for play in after.legal_plays(dice):
            assert play.steps[0].src == 25
            assert play.after.borne_off(Side.WHITE) == 3
