"""RULES.md §5, long nardy: the engine's part (LN-1 … LN-12, LN-E1 … LN-E7).

Positions are in each side's own numbers: Black's own n is White's n + 12
(n <= 12) or n - 12, so Black's head (its 24) is White's 12. The opening roll
(LN-3), the stakes (LN-12) and the flow of the last roll (LN-13) belong to the
game flow; LN-E7 here checks the engine's primitive, Black's plays on a position
where White has already finished.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.errors import GameOver, IllegalPlay, InvalidPosition
from sheshbesh.games.race import RACE_VARIANTS, Position, Side

Dice = tuple[int, int]
Results = Callable[[Position, Dice], set[Position]]
ResultsOf = Callable[..., set[Position]]
Notations = Callable[[Position, Dice], set[str]]

RULES = RACE_VARIANTS["long_nardy"]
START = Position.start("long_nardy")


def ln(
    white: dict[int | str, int], black: dict[int | str, int], turn: Side = Side.WHITE
) -> Position:
    return Position.from_own("long_nardy", white=white, black=black, turn=turn)


def outcome_of(position: Position) -> tuple[Side | None, int]:
    outcome = position.outcome()
    assert outcome is not None
    return outcome.winner, outcome.level


# --- 5.1 board, start, turn ---------------------------------------------------------


def test_ln_1_diagonal_mapping_head_and_home() -> None:
    assert RULES.mapping == "diagonal"
    # Black's head (own 24) is White's 12; Black's home (own 1-6) is White's 13-18.
    assert ln({}, {24: 1, 1: 1, 6: 1}).text() == "W:W:B12,13,18"
    assert ln({24: 1, 1: 1, 6: 1}, {}).text() == "W:W1,6,24:B"


def test_ln_1_both_sides_travel_the_same_way() -> None:
    black = Position.start("long_nardy", turn=Side.BLACK)
    play = black.play((6, 5), "24/13")  # Black's 13 is White's 1
    assert play.after.text() == "W:W24x15:B1,12x14"


def test_ln_2_start() -> None:
    assert START.text() == "W:W24x15:B12x15"
    assert START.is_first_turn() and START.is_first_turn(Side.BLACK)


def test_ln_3_fresh_roll_after_the_opening() -> None:
    assert RULES.opening == "F"


def test_ln_4_one_opposing_checker_blocks_landing() -> None:
    position = ln({24: 14, 13: 1}, {4: 1, 24: 14})  # Black's 4 is White's 16
    with pytest.raises(IllegalPlay):
        position.play((6, 2), "24/16")
    assert all(play.after.own(Side.WHITE, 16) == 0 for play in position.legal_plays((6, 2)))


def test_ln_4_blocked_on_the_way() -> None:
    # 24 -> 16 with 5-3 via 19 or 21: both hold a Black checker.
    position = ln({24: 14, 13: 1}, {7: 1, 9: 1, 24: 13})
    assert not any(play.after.own(Side.WHITE, 16) for play in position.legal_plays((5, 3)))


def test_ln_4_no_hitting_and_no_bar() -> None:
    assert not RULES.has_bar
    with pytest.raises(InvalidPosition):
        ln({"bar": 1, 24: 14}, {24: 15})


# --- 5.2 movement restrictions ------------------------------------------------------


def test_ln_5_one_checker_off_the_head_per_turn() -> None:
    position = ln({24: 14, 18: 1}, {24: 15})
    with pytest.raises(IllegalPlay):
        position.play((5, 3), "24/19 24/21")
    assert position.play((5, 3), "24/16")
    assert position.play((5, 3), "24/19 18/15")
    assert all(play.after.own(Side.WHITE, 24) >= 13 for play in position.legal_plays((2, 2)))


def test_ln_5_larger_die_when_the_head_rule_stops_the_other(notations: Notations) -> None:
    # Only head checkers and a 3-point checker that cannot bear off; White's 13 is
    # held by Black, so the head checker cannot use both dice: the 6 is played.
    position = ln({24: 14, 3: 1}, {1: 1, 24: 14})
    assert notations(position, (6, 5)) == {"24/18"}


@pytest.mark.parametrize(
    ("dice", "only"),
    [
        ((6, 6), "24/18(2)"),
        ((4, 4), "24/16(2)"),
        ((5, 5), "24/4"),
        ((2, 2), "24/16"),
        ((1, 1), "24/20"),
    ],
)
def test_ln_6_first_turn_doubles(dice: Dice, only: str, notations: Notations) -> None:
    assert notations(START, dice) == {only}


def test_ln_6_exception_only_in_the_first_turn(notations: Notations) -> None:
    # Not the first turn any more: 6-6 moves one head checker (18 -> 12 is blocked).
    later = ln({24: 14, 1: 1}, {24: 15})
    assert notations(later, (6, 6)) == {"24/18"}


E5_WHITE = {24: 9, 22: 1, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1}
E5 = ln(E5_WHITE, {24: 13, 23: 2})


@pytest.mark.parametrize("text", ["24/18 22/21", "22/16/15"])  # 22/15 via 21 too
def test_ln_e5_six_point_block(text: str) -> None:
    with pytest.raises(IllegalPlay):
        E5.play((6, 1), text)


RUN = ln({24: 9, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1}, {24: 13, 23: 2})
"""A six-point run built while a Black checker was ahead; that checker has passed."""


def test_ln_7_a_run_built_legally_may_stay_and_be_reinforced() -> None:
    assert RUN.play((6, 3), "24/18 21/18")
    assert RUN.play((5, 1), "21/16 17/16")


def test_ln_7_lengthening_a_run_is_blocked() -> None:
    # 24/22 would make 22-16 seven in a row; it is legal only after 21/20 breaks the run.
    play = RUN.play((2, 1), "24/22 21/20")
    assert [(step.src, step.dst) for step in play.steps] == [(21, 20), (24, 22)]
    with pytest.raises(IllegalPlay):
        RUN.play((6, 3), "24/18 18/15")


def test_ln_7_lifted_by_an_opposing_checker_ahead_of_the_run() -> None:
    # LN-E5's last line: a Black checker on Black's 2 (White's 14) is ahead.
    position = ln(E5_WHITE, {24: 12, 23: 2, 2: 1})
    assert position.play((6, 1), "24/18 22/21")


def test_ln_7_checked_after_every_step() -> None:
    # 20/14 22/21 is legal only in that order: 22/21 first makes 21-16.
    play = E5.play((6, 1), "20/14 22/21")
    assert [(step.src, step.dst) for step in play.steps] == [(20, 14), (22, 21)]


def test_ln_8_single_checker_both_dice_needs_an_open_intermediate_point() -> None:
    # LN-E4's 24/16 goes via 19 or 21; with both held by Black it is impossible.
    open_ = ln({24: 10, 18: 2, 17: 1, 13: 2}, {24: 13, 20: 2})
    blocked = ln({24: 10, 18: 2, 17: 1, 13: 2}, {24: 11, 7: 2, 9: 2})
    assert open_.play((5, 3), "24/16")
    with pytest.raises(IllegalPlay):
        blocked.play((5, 3), "24/16")


# --- 5.3 bearing off, result ----------------------------------------------------------


def test_ln_9_bearing_off_needs_all_fifteen_home() -> None:
    # Were the 3-point checkers free to bear off, 3/2/off would be legal with 2-1.
    outside = ln({9: 1, 3: 14}, {24: 15})
    assert all(play.after.borne_off(Side.WHITE) == 0 for play in outside.legal_plays((2, 1)))
    home = ln({6: 1, 3: 14}, {24: 15})
    assert home.play((6, 3), "6/off 3/off")


def test_ln_9_bearing_off_or_moving_inside_home_freely() -> None:
    position = ln({6: 2, 2: 1}, {24: 15})
    assert position.play((2, 1), "2/off 6/5")
    assert position.play((2, 1), "6/4 6/5")


def test_ln_10_first_to_bear_off_all_fifteen_wins() -> None:
    position = ln({1: 1}, {1: 14})
    (play,) = position.legal_plays((4, 2))
    assert outcome_of(play.after) == (Side.WHITE, 1)
    with pytest.raises(GameOver):
        play.after.legal_plays((3, 1))


def test_ln_11_mars_when_the_loser_has_borne_off_none() -> None:
    assert RULES.levels == (1, 2)
    assert outcome_of(ln({}, {1: 14})) == (Side.WHITE, 1)
    assert outcome_of(ln({}, {1: 15})) == (Side.WHITE, 2)
    assert outcome_of(ln({}, {24: 15})) == (Side.WHITE, 2)  # no triple ("koks")
    assert outcome_of(ln({24: 1, 6: 14}, {})) == (Side.BLACK, 2)


def test_ln_12_resignation_levels() -> None:
    assert RULES.resign_levels == (1, 2)


# --- 5.4 worked examples --------------------------------------------------------------


def test_ln_e1_first_turn_6_6(notations: Notations) -> None:
    assert notations(START, (6, 6)) == {"24/18(2)"}
    (play,) = START.legal_plays((6, 6))
    assert len(play.steps) == 2  # 18 -> 12 is Black's head: the other 6s are lost


def test_ln_e2_first_turn_3_3(results: Results, results_of: ResultsOf) -> None:
    assert results(START, (3, 3)) == results_of(START, (3, 3), "24/18(2)", "24/15 24/21")
    with pytest.raises(IllegalPlay):
        START.play((3, 3), "24/21(3) 21/18")


def test_ln_e2_first_turn_4_4(notations: Notations) -> None:
    assert notations(START, (4, 4)) == {"24/16(2)"}
    with pytest.raises(IllegalPlay):
        START.play((4, 4), "24/12")


def test_ln_e3_blacks_first_turn(notations: Notations) -> None:
    opened = START.play((5, 5), "24/4").after
    assert opened.turn is Side.BLACK
    assert opened == ln({24: 14, 4: 1}, {24: 15}, turn=Side.BLACK)
    assert opened.own(Side.WHITE, 4) == 1 and opened.text() == "B:W4,24x14:B12x15"
    assert notations(opened, (4, 4)) == {"24/20(2)"}


E4 = ln({24: 10, 18: 2, 17: 1, 13: 2}, {24: 13, 20: 2})


@pytest.mark.parametrize("text", ["24/16", "24/19/16", "24/21/16", "24/21 18/13", "13/10/5"])
def test_ln_e4_legal(text: str) -> None:
    assert E4.play((5, 3), text)


@pytest.mark.parametrize("text", ["24/19 24/21", "13/8 24/21", "13/8 13/10", "13/8 18/15"])
def test_ln_e4_illegal(text: str) -> None:
    with pytest.raises(IllegalPlay):
        E4.play((5, 3), text)


def test_ln_e4_nothing_lands_on_8() -> None:
    assert all(play.after.own(Side.WHITE, 8) == 0 for play in E4.legal_plays((5, 3)))


@pytest.mark.parametrize("text", ["24/18 20/19", "22/16 24/23", "20/14 22/21"])
def test_ln_e5_legal(text: str) -> None:
    assert E5.play((6, 1), text)


def test_ln_e6_bearing_off_blocked() -> None:
    position = ln({6: 1, 3: 2}, {13: 1, 14: 1, 1: 13})
    assert position.text() == "W:W3x2,6:B1,2,13x13"
    assert position.legal_plays((5, 4)) == ()


def test_ln_e6_without_black_in_white_home(results: Results, results_of: ResultsOf) -> None:
    position = ln({6: 1, 2: 2}, {1: 15})
    assert results(position, (5, 4)) == results_of(position, (5, 4), "6/1 2/off", "6/2 2/off")


def final_roll(position: Position, dice: Dice) -> set[Position]:
    """LN-13's primitive: Black's plays after White has borne off its 15th checker."""
    return {play.after for play in position.legal_plays(dice, last_roll=True)}


E7A = ln({}, {3: 1, 1: 1}, turn=Side.BLACK)


def test_ln_e7_white_has_finished() -> None:
    assert outcome_of(E7A) == (Side.WHITE, 1)
    with pytest.raises(GameOver):
        E7A.legal_plays((3, 1))


def test_ln_e7_a_final_3_1_bears_off_both() -> None:
    afters = final_roll(E7A, (3, 1))
    # 3/off 1/off takes both: a draw (LN-13, NS-5); 3/2/off is also legal.
    assert {after.borne_off(Side.BLACK) for after in afters} == {15, 14}
    (draw,) = [after for after in afters if after.borne_off(Side.BLACK) == 15]
    outcome = draw.outcome()
    assert outcome is not None and outcome.is_draw and outcome.rule == "LN-13"
    assert Position.from_text("long_nardy", draw.text()) == draw


def test_ln_13_last_roll_only_for_black_after_white_finished() -> None:
    with pytest.raises(GameOver, match="LN-13"):
        ln({6: 1}, {1: 1}, turn=Side.BLACK).legal_plays((3, 1), last_roll=True)
    white_to_play = ln({}, {3: 1, 1: 1}, turn=Side.WHITE)
    with pytest.raises(GameOver, match="LN-13"):
        white_to_play.legal_plays((3, 1), last_roll=True)
    bg = Position.from_own("backgammon", white={}, black={1: 2}, turn=Side.BLACK)
    with pytest.raises(GameOver, match="no last roll"):
        bg.legal_plays((3, 1), last_roll=True)


def test_ln_e7_a_final_2_1_leaves_one() -> None:
    (after,) = final_roll(E7A, (2, 1))
    assert after.own(Side.BLACK, 1) == 1
    assert outcome_of(after) == (Side.WHITE, 1)


def test_ln_e7_b_final_roll_turns_a_mars_into_a_single() -> None:
    # Black has all 15 at home, none borne off (the example leaves the points open:
    # two can come off with 6-5 only if something stands on its 5-point).
    position = ln({}, {6: 5, 5: 5, 4: 5}, turn=Side.BLACK)
    assert outcome_of(position) == (Side.WHITE, 2)  # without the option: mars
    two_off = position.legal_plays((6, 5), last_roll=True)
    assert any(play.notation() == "6/off 5/off" for play in two_off)
    for after in final_roll(position, (6, 5)):
        assert after.borne_off(Side.BLACK) >= 1
        assert outcome_of(after) == (Side.WHITE, 1)
