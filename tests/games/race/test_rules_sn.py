"""RULES.md §3, short nardy: the engine's part (SN-1 … SN-6, SN-E1 … SN-E4).

The opening roll and the stake payouts (SN-2's roll, SN-E4's money) belong to the
game flow; the engine gives the first position, the plays and the result level.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.errors import IllegalPlay
from sheshbesh.games.race import RACE_VARIANTS, Position, Side

Dice = tuple[int, int]
Results = Callable[[Position, Dice], set[Position]]
ResultsOf = Callable[..., set[Position]]
Notations = Callable[[Position, Dice], set[str]]

RULES = RACE_VARIANTS["short_nardy"]
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def sn(
    white: dict[int | str, int], black: dict[int | str, int], turn: Side = Side.WHITE
) -> Position:
    return Position.from_own("short_nardy", white=white, black=black, turn=turn)


def test_sn_1_board_and_start_are_backgammons() -> None:
    assert RULES.mapping == "opposite"
    start = Position.start("short_nardy")
    assert start.text() == Position.start("backgammon").text()
    assert start.text() == "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5"


def test_sn_2_opening_dice_are_the_first_roll() -> None:
    assert RULES.opening == "U"


@pytest.mark.parametrize(
    "text",
    [
        "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5",
        "B:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5",
        "W:Wbar,4,6x4,8x3,13x4,24x2:B1x2,5,12x4,17x3,19x5",
        "B:W3,5x4,6x4,18,21:Bbar,9,12x5,17x3,19x2,20",
        "W:W1x3,2x3,4x4,5x2:Bbar,3,19x5,20x3",
    ],
)
def test_sn_3_moves_hits_entering_bearing_off_as_in_backgammon(
    text: str, notations: Notations
) -> None:
    short = Position.from_text("short_nardy", text)
    backgammon = Position.from_text("backgammon", text)
    for dice in ROLLS:
        assert notations(short, dice) == notations(backgammon, dice)


def test_sn_4_no_cube_and_no_triple() -> None:
    assert not RULES.cube
    assert RULES.levels == (1, 2)
    # A backgammon in BG is a mars in SN.
    outcome = sn({}, {"bar": 1, 19: 1, 6: 13}).outcome()
    assert outcome is not None and (outcome.winner, outcome.level) == (Side.WHITE, 2)


def test_sn_5_die_naming_an_empty_point_bears_off_only_from_the_highest(
    results: Results, results_of: ResultsOf
) -> None:
    # The 4 names an empty point while 5 is occupied: it may not bear off the 2.
    position = sn({5: 1, 2: 1}, {6: 15})
    assert results(position, (4, 1)) == results_of(position, (4, 1), "5/1 2/1", "5/off")
    with pytest.raises(IllegalPlay):
        position.play((4, 1), "5/4 2/off")


def test_sn_6_resignation_levels() -> None:
    assert RULES.resign_levels == (1, 2)


# --- Worked examples ----------------------------------------------------------------

START = Position.start("short_nardy")


@pytest.mark.parametrize("text", ["8/3 6/3", "13/8 13/10", "13/8/5", "13/10/5", "24/21/16"])
def test_sn_e1_opening_5_3_legal(text: str) -> None:
    assert START.play((5, 3), text)


def test_sn_e1_one_checker_13_to_5_via_8_or_10(results_of: ResultsOf) -> None:
    assert len(results_of(START, (5, 3), "13/8/5", "13/10/5", "13/5")) == 1


@pytest.mark.parametrize("text", ["24/19 24/21", "24/19 13/10", "24/19 6/3", "13/8", "24/19"])
def test_sn_e1_opening_5_3_illegal(text: str) -> None:
    with pytest.raises(IllegalPlay):
        START.play((5, 3), text)


def test_sn_e1_black_six_point_is_closed() -> None:
    assert all(play.after.own(Side.WHITE, 19) == 0 for play in START.legal_plays((5, 3)))


E2 = sn({6: 1, 2: 2}, {6: 15})


def test_sn_e2_bearing_off(results: Results, results_of: ResultsOf) -> None:
    assert results(E2, (5, 4)) == results_of(E2, (5, 4), "6/1 2/off", "6/2 2/off")


def test_sn_e2_both_twos_off_is_illegal() -> None:
    with pytest.raises(IllegalPlay):
        E2.play((5, 4), "2/off(2)")


def test_sn_e2_the_five_never_bears_off_the_two_while_six_is_occupied() -> None:
    # With 5-4 a 5 off the 2 gives the same results as a legal order, so the step
    # rule shows with 5-1: were it legal, "2/off 2/1" would leave the 6 standing.
    assert all(play.after.own(Side.WHITE, 6) == 0 for play in E2.legal_plays((5, 1)))
    with pytest.raises(IllegalPlay):
        E2.play((5, 1), "2/off 2/1")


def test_sn_e2_black_holding_white_1_point(results: Results, results_of: ResultsOf) -> None:
    position = sn({6: 1, 2: 2}, {24: 2, 6: 13})
    assert results(position, (5, 4)) == results_of(position, (5, 4), "6/2 2/off")


E3 = Position.from_own(
    "short_nardy",
    white={24: 2, 13: 5, 8: 3, 6: 5},
    black={"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5},
    turn=Side.BLACK,
)


def test_sn_e3_all_four_sixes_lost_on_the_bar() -> None:
    assert E3.legal_plays((6, 6)) == ()
    assert E3.pass_turn().turn is Side.WHITE


def test_sn_e3_enter_with_the_4_then_any_six() -> None:
    plays = E3.legal_plays((6, 4))
    assert plays
    assert all((play.steps[0].src, play.steps[0].dst) == (25, 21) for play in plays)
    assert E3.play((6, 4), "bar/21 13/7")
    assert E3.play((6, 4), "bar/15")
    assert E3.play((6, 4), "bar/21 13/7").after.own(Side.BLACK, 21) == 1


@pytest.mark.parametrize(("black", "level"), [({6: 15}, 2), ({6: 12}, 1)])
def test_sn_e4_mars_when_the_loser_has_borne_off_none(
    black: dict[int | str, int], level: int
) -> None:
    # White has borne off its last checker; Black has borne off none, or three.
    position = sn({1: 1}, black)
    (play,) = position.legal_plays((2, 1))
    outcome = play.after.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.level) == (Side.WHITE, level)
