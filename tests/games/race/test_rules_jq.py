"""RULES.md §9, Jacquet: the engine's part (JQ-1 … JQ-10, JQ-E1 … JQ-E3).

Positions are in each side's own numbers: Black's own n is White's n + 12
(n <= 12) or n - 12, so Black's start (its 24) is White's 12. The opening roll
(JQ-3), stakes (JQ-10) and drawing the courier (JQ-11) are not the engine's.
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

RULES = RACE_VARIANTS["jacquet"]
START = Position.start("jacquet")


def jq(
    white: dict[int | str, int], black: dict[int | str, int], turn: Side = Side.WHITE
) -> Position:
    return Position.from_own("jacquet", white=white, black=black, turn=turn)


# --- JQ-1 … JQ-4 --------------------------------------------------------------------


def test_jq_1_diagonal_mapping() -> None:
    assert RULES.mapping == "diagonal"
    assert jq({24: 1, 1: 1}, {24: 1, 1: 1}).text() == "W:W1,24:B12,13"


def test_jq_1_both_travel_the_same_way() -> None:
    black = Position.start("jacquet", turn=Side.BLACK)
    play = black.play((6, 5), "24/13")  # Black's 13 is White's 1
    assert play.after.text() == "W:W24x15:B1,12x14"


def test_jq_2_start() -> None:
    assert START.text() == "W:W24x15:B12x15"


def test_jq_3_fresh_roll_after_the_opening() -> None:
    assert RULES.opening == "F"


def test_jq_4_one_opposing_checker_closes_a_point() -> None:
    position = jq({8: 1, 24: 14}, {14: 1, 24: 14})  # Black's 14 is White's 2
    with pytest.raises(IllegalPlay):
        position.play((6, 2), "8/2 24/22")
    assert all(play.after.own(Side.WHITE, 2) == 0 for play in position.legal_plays((6, 2)))


def test_jq_4_closed_on_the_way_too() -> None:
    # 8 -> 2 with 4-2 via 4 or 6: both hold a Black checker.
    position = jq({8: 1, 20: 1, 24: 13}, {16: 1, 18: 1, 24: 13})
    assert position.legal_plays((4, 2))
    assert all(play.after.own(Side.WHITE, 2) == 0 for play in position.legal_plays((4, 2)))


def test_jq_4_no_hitting_no_pinning() -> None:
    assert not RULES.has_bar and RULES.lone_checker == "block"


# --- JQ-5 courier -------------------------------------------------------------------


def test_jq_5_only_the_courier_moves_until_it_is_home(notations: Notations) -> None:
    position = jq({16: 1, 24: 14}, {24: 15})
    assert notations(position, (6, 5)) == {"16/5"}
    assert notations(position, (2, 1)) == {"16/13"}


def test_jq_5_dice_the_courier_cannot_use_are_lost(notations: Notations) -> None:
    # 13 -> 12 and 15 -> 12 are closed (Black's start): the 1 is lost.
    assert notations(jq({16: 1, 24: 14}, {24: 15}), (3, 1)) == {"16/13"}
    # 14 -> 12 is closed: all four 2s are lost although head checkers could move.
    assert jq({14: 1, 24: 14}, {24: 15}).legal_plays((2, 2)) == ()


def test_jq_5_remaining_dice_after_arrival_by_any_checker(notations: Notations) -> None:
    position = jq({8: 1, 24: 14}, {24: 15})
    assert position.play((6, 3), "8/2 24/21")
    assert position.play((6, 3), "8/5 24/18")
    assert notations(jq({14: 1, 24: 14}, {24: 15}), (6, 6)) == {"24/18(2) 14/2"}


# --- JQ-6 … JQ-10 -------------------------------------------------------------------


def test_jq_6_a_run_built_legally_may_stay() -> None:
    # White holds 10-5 (built while it also held 2 and 1, say): reinforcing the run
    # is never restricted, lengthening it is.
    position = jq({24: 8, 14: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {24: 13, 3: 2})
    assert position.play((4, 1), "14/10 24/23")
    with pytest.raises(IllegalPlay):
        position.play((3, 1), "14/11 24/23")


def test_jq_7_doubles_give_four_moves() -> None:
    position = jq({8: 1, 24: 14}, {24: 15})
    assert all(len(play.steps) == 4 for play in position.legal_plays((2, 2)))


def test_jq_7_larger_die_when_only_one_can_be_used(notations: Notations) -> None:
    # Courier on 10; Black on White's 19 and 18. 10/4 leaves the 5 unplayable,
    # 10/5 the 6: the larger die is played.
    position = jq({10: 1, 24: 14}, {7: 1, 6: 1, 24: 13})
    assert notations(position, (6, 5)) == {"10/4"}
    with pytest.raises(IllegalPlay):
        position.play((6, 5), "10/5")


def test_jq_8_no_head_rule_after_the_courier_arrives() -> None:
    position = jq({4: 1, 24: 14}, {24: 15})
    assert position.play((3, 3), "24/21(4)")
    assert position.play((3, 3), "24/18(2)")


def test_jq_9_bearing_off_once_all_fifteen_are_home() -> None:
    # Were the 2-point checkers free to bear off, 2/off 9/8 would be legal with 2-1.
    away = jq({9: 1, 2: 14}, {24: 15})
    assert all(p.after.borne_off(Side.WHITE) == 0 for p in away.legal_plays((2, 1)))
    home = jq({6: 1, 2: 14}, {24: 15})
    assert home.play((6, 2), "6/off 2/off")


def test_jq_10_levels_no_cube() -> None:
    assert RULES.levels == RULES.resign_levels == (1, 2)
    assert not RULES.cube
    outcome = jq({}, {24: 15}).outcome()
    assert outcome is not None and (outcome.winner, outcome.level) == (Side.WHITE, 2)
    outcome = jq({}, {1: 14}).outcome()
    assert outcome is not None and (outcome.winner, outcome.level) == (Side.WHITE, 1)


# --- Worked examples ----------------------------------------------------------------


def test_jq_e1_first_turn_6_5(notations: Notations) -> None:
    assert notations(START, (6, 5)) == {"24/13"}
    with pytest.raises(IllegalPlay):
        START.play((6, 5), "24/18 24/19")


def test_jq_e1_first_turn_6_6(notations: Notations) -> None:
    assert notations(START, (6, 6)) == {"24/18"}
    (play,) = START.legal_plays((6, 6))
    assert len(play.steps) == 1


E2 = jq({14: 1, 24: 14}, {22: 1, 24: 14})


def test_jq_e2_courier_blocked() -> None:
    assert E2.text() == "W:W14,24x14:B10,12x14"
    assert E2.legal_plays((4, 2)) == ()


def test_jq_e2_courier_via_13(results: Results, results_of: ResultsOf) -> None:
    assert results(E2, (4, 1)) == results_of(E2, (4, 1), "14/13/9")
    (play,) = E2.legal_plays((4, 1))
    assert [(step.src, step.dst) for step in play.steps] == [(14, 13), (13, 9)]


E3_WHITE = {24: 9, 11: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}
E3 = jq(E3_WHITE, {24: 13, 3: 2})
"""JQ-E3: the courier is home; Black is all behind White's checkers."""


def test_jq_e3_six_in_a_row_illegal() -> None:
    with pytest.raises(IllegalPlay):
        E3.play((2, 1), "11/10 24/22")


def test_jq_e3_vacating_9_first_is_legal() -> None:
    play = E3.play((2, 1), "9/7 11/10")
    assert [(step.src, step.dst) for step in play.steps] == [(9, 7), (11, 10)]


def test_jq_e3_11_9_8_only_via_9() -> None:
    play = E3.play((2, 1), "11/9/8")
    assert [(step.src, step.dst) for step in play.steps] == [(11, 9), (9, 8)]


def test_jq_e3_legal_with_2_and_1_held() -> None:
    position = jq({**E3_WHITE, 24: 7, 2: 1, 1: 1}, {24: 13, 3: 2})
    assert position.play((2, 1), "11/10 24/22")
