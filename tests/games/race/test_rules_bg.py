"""RULES.md §2, backgammon: the engine's part (BG-1 … BG-9, BG-23, BG-24, BG-E1 … BG-E6).

The cube, matches and the opening roll (BG-3's tie rule, BG-4, BG-10 … BG-22,
BG-E7, BG-E8) belong to the game flow and are tested there. Black positions are
in Black's own numbers, as RULES.md writes them ([W9] = White's 9).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.errors import IllegalPlay, InvalidPosition
from sheshbesh.games.race import RACE_VARIANTS, Position, Side

Dice = tuple[int, int]
Results = Callable[[Position, Dice], set[Position]]
ResultsOf = Callable[..., set[Position]]

RULES = RACE_VARIANTS["backgammon"]


def bg(
    white: dict[int | str, int], black: dict[int | str, int], turn: Side = Side.WHITE
) -> Position:
    return Position.from_own("backgammon", white=white, black=black, turn=turn)


def level(position: Position) -> tuple[Side | None, int]:
    outcome = position.outcome()
    assert outcome is not None
    return outcome.winner, outcome.level


# --- BG-1 … BG-7 --------------------------------------------------------------------


def test_bg_1_white_point_n_is_black_point_25_minus_n() -> None:
    assert RULES.mapping == "opposite"
    assert bg({}, {19: 1}).text() == "W:W:B6"
    with pytest.raises(InvalidPosition):
        bg({6: 1}, {19: 1})  # one point, two colours


def test_bg_1_homes_and_direction() -> None:
    # White bears off from A1-A6, Black from A19-A24 (its own 1-6).
    black_home = bg({12: 15}, {6: 1, 1: 1}, turn=Side.BLACK)
    assert black_home.text() == "B:W12x15:B19,24"
    assert black_home.play((6, 1), "6/off 1/off").after.borne_off(Side.BLACK) == 15


def test_bg_2_start() -> None:
    start = Position.start("backgammon")
    assert start.text() == "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5"
    for side in Side:
        assert {p: start.own(side, p) for p in (24, 13, 8, 6)} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert Position.from_id("4HPwATDgc/ABMA") == start


def test_bg_3_opening_dice_are_the_first_roll() -> None:
    assert RULES.opening == "U"


def test_bg_5_hit_on_landing() -> None:
    position = bg({13: 1, 1: 14}, {16: 1, 23: 14})  # Black blot on W9
    play = position.play((4, 3), "13/9*/6")
    assert play.after.bar == (0, 1)
    assert play.after.own(Side.BLACK, 16) == 0


def test_bg_5_hit_on_an_intermediate_point() -> None:
    # BG-E1's 13/9*/8: the checker lands on 9 on the way and hits.
    position = Position.from_own(
        "backgammon",
        white={24: 2, 13: 5, 8: 3, 6: 5},
        black={24: 2, 16: 1, 13: 4, 8: 3, 6: 5},
    )
    assert position.play((4, 1), "13/9*/8").after.bar == (0, 1)


def test_bg_5_black_hits_too() -> None:
    position = bg({19: 1, 12: 14}, {8: 1, 24: 14}, turn=Side.BLACK)  # White blot on Black's 6
    play = position.play((2, 1), "8/6*/5")
    assert play.after.bar == (1, 0)
    assert play.after.turn is Side.WHITE


@pytest.mark.parametrize("die", range(1, 7))
def test_bg_6_entering_into_the_opponents_home(die: int) -> None:
    position = bg({"bar": 2, 1: 13}, {12: 15})
    plays = position.legal_plays((die, die))
    assert plays
    for play in plays:
        assert [(step.src, step.dst) for step in play.steps[:2]] == [(25, 25 - die)] * 2


def test_bg_7_bearing_off_follows_bf_12() -> None:
    position = bg({5: 1, 3: 1}, {6: 15})
    assert position.play((6, 1), "5/off 3/2")
    with pytest.raises(IllegalPlay):
        position.play((6, 1), "3/off 5/4")


# --- BG-8 result levels -------------------------------------------------------------


def test_bg_8_single_when_the_loser_has_borne_off() -> None:
    assert level(bg({}, {19: 1, 6: 13})) == (Side.WHITE, 1)


def test_bg_8_gammon_when_the_loser_has_borne_off_none() -> None:
    assert level(bg({}, {18: 1, 6: 14})) == (Side.WHITE, 2)


def test_bg_8_backgammon_needs_a_straggler_in_the_winners_home() -> None:
    assert level(bg({}, {19: 1, 6: 14})) == (Side.WHITE, 3)
    assert level(bg({}, {24: 1, 6: 14})) == (Side.WHITE, 3)


def test_bg_8_backgammon_with_a_checker_on_the_bar() -> None:
    assert level(bg({}, {"bar": 1, 6: 14})) == (Side.WHITE, 3)


def test_bg_8_straggler_but_something_borne_off_is_single() -> None:
    # DECISION: the triple also needs nothing borne off.
    assert level(bg({}, {"bar": 1, 19: 1, 6: 12})) == (Side.WHITE, 1)


def test_bg_8_levels_for_black_winning() -> None:
    assert level(bg({6: 15}, {})) == (Side.BLACK, 2)
    assert level(bg({20: 1, 6: 14}, {})) == (Side.BLACK, 3)
    assert level(bg({6: 14}, {})) == (Side.BLACK, 1)


def test_bg_8_bearing_off_the_last_checker_ends_with_its_level() -> None:
    position = bg({2: 1, 1: 1}, {"bar": 1, 6: 14})
    play = position.play((2, 1), "2/off 1/off")
    outcome = play.after.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.level, outcome.rule) == (Side.WHITE, 3, "BF-13")


def test_bg_9_levels_are_1_2_3() -> None:
    # The value is level x cube (BG-9); the engine gives the level.
    assert RULES.levels == (1, 2, 3)
    assert RULES.cube


def test_bg_23_resignation_levels() -> None:
    assert RULES.resign_levels == (1, 2, 3)


# --- Worked examples ----------------------------------------------------------------

E1 = Position.from_own(
    "backgammon",
    white={24: 2, 13: 5, 8: 3, 6: 5},
    black={24: 2, 16: 1, 13: 4, 8: 3, 6: 5},
)


@pytest.mark.parametrize("text", ["13/9*/8", "13/9* 6/5", "24/20 24/23", "8/4 6/5"])
def test_bg_e1_legal(text: str) -> None:
    assert E1.play((4, 1), text)


def test_bg_e1_13_to_8_goes_via_9_and_hits() -> None:
    play = E1.play((4, 1), "13/8")
    assert play.notation() == "13/9*/8"
    assert play.after.bar[Side.BLACK] == 1


@pytest.mark.parametrize("text", ["13/12 6/2", "13/12 13/9*", "13/9*"])
def test_bg_e1_illegal(text: str) -> None:
    with pytest.raises(IllegalPlay):
        E1.play((4, 1), text)


def test_bg_e1_no_play_lands_on_12() -> None:
    assert all(step.dst != 12 for play in E1.legal_plays((4, 1)) for step in play.steps)
    assert all(play.after.own(Side.BLACK, 13) == 4 for play in E1.legal_plays((4, 1)))


def test_bg_e2_intermediate_point_must_be_open(results: Results, results_of: ResultsOf) -> None:
    position = bg({13: 1, 1: 14}, {15: 2, 1: 13})
    assert results(position, (5, 3)) == results_of(position, (5, 3), "13/8/5")
    (play,) = position.legal_plays((5, 3))
    assert [(step.src, step.dst) for step in play.steps] == [(13, 8), (8, 5)]  # never via 10
    for text in ("13/8", "13/8 1/off", "13/10"):
        with pytest.raises(IllegalPlay):
            position.play((5, 3), text)


def test_bg_e3_larger_die(results: Results, results_of: ResultsOf) -> None:
    position = bg({20: 1, 10: 1, 1: 13}, {10: 2, 11: 2, 1: 11})
    assert results(position, (6, 5)) == results_of(position, (6, 5), "10/4")
    with pytest.raises(IllegalPlay):
        position.play((6, 5), "10/5")


E4 = bg({"bar": 1, 13: 14}, {6: 2, 5: 2, 3: 2, 1: 9})


@pytest.mark.parametrize("dice", [(6, 3), (5, 3)])
def test_bg_e4_no_entry_no_play(dice: Dice) -> None:
    assert E4.legal_plays(dice) == ()
    with pytest.raises(IllegalPlay):
        E4.play(dice, "13/7" if dice == (6, 3) else "13/8")
    assert E4.pass_turn().turn is Side.BLACK


def test_bg_e4_enter_then_any_checker() -> None:
    plays = E4.legal_plays((4, 4))
    assert plays
    assert all(play.steps[0].src == 25 and len(play.steps) == 4 for play in plays)
    assert E4.play((4, 4), "bar/21/17/13/9")
    assert E4.play((4, 4), "bar/21 13/9(3)")
    with pytest.raises(IllegalPlay):
        E4.play((4, 4), "13/9(4)")


E5 = bg({5: 3, 3: 3}, {6: 15})


def test_bg_e5_high_die_bears_off_from_the_highest_point(
    results: Results, results_of: ResultsOf
) -> None:
    assert results(E5, (6, 3)) == results_of(E5, (6, 3), "5/off 3/off", "5/off 5/2")


@pytest.mark.parametrize("text", ["3/off(2)", "3/off 5/2"])
def test_bg_e5_no_six_from_the_three_while_five_is_occupied(text: str) -> None:
    with pytest.raises(IllegalPlay):
        E5.play((6, 3), text)


E6 = bg({6: 2, 4: 2, 2: 2}, {6: 15})


@pytest.mark.parametrize("text", ["6/5 6/3", "6/3 4/3", "6/5/2", "4/3/off"])
def test_bg_e6_legal(text: str) -> None:
    assert E6.play((3, 1), text)


@pytest.mark.parametrize("text", ["2/off 6/5", "2/off 4/3", "2/off 2/1"])
def test_bg_e6_no_three_off_the_two_while_higher_points_are_occupied(text: str) -> None:
    with pytest.raises(IllegalPlay):
        E6.play((3, 1), text)


def test_bg_24_free_choice_when_nothing_can_be_borne_off() -> None:
    # BG-E6: nothing forces a move from the 6-point.
    assert E6.play((3, 1), "4/3/off").after.own(Side.WHITE, 6) == 2
    assert E6.play((3, 1), "4/1 2/1").after.own(Side.WHITE, 6) == 2
