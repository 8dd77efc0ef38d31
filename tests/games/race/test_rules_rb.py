"""RULES.md §8, Russian backgammon: the engine's part (RB-1 … RB-11, RB-E1 … RB-E5).

Both sides share one numbering (A = own number). ``25`` in ``Position.from_own``
means "not yet entered" here; in notation ``bar/`` stands for unentered and bar
checkers alike. A first-turn double raises ``InvalidDice``: the server rolls
again (RB-8). After a full double ``play.after`` keeps the mover on roll with the
complement owed (``owed``); after a full complement he rolls again (owed 0).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.errors import IllegalPlay, InvalidDice
from sheshbesh.games.race import RACE_VARIANTS, Position, Side

Dice = tuple[int, int]
Results = Callable[[Position, Dice], set[Position]]
ResultsOf = Callable[..., set[Position]]
Notations = Callable[[Position, Dice], set[str]]

RULES = RACE_VARIANTS["russian_backgammon"]
START = Position.start("russian_backgammon")
DOUBLES = [(d, d) for d in range(1, 7)]


def rb(
    white: dict[int | str, int], black: dict[int | str, int], turn: Side = Side.WHITE
) -> Position:
    return Position.from_own("russian_backgammon", white=white, black=black, turn=turn)


E2 = rb({20: 1, 25: 14}, {25: 15})
"""RB-E2: one White checker entered, on 20; Black's 15 not yet entered."""


def level(position: Position) -> tuple[Side | None, int]:
    outcome = position.outcome()
    assert outcome is not None
    return outcome.winner, outcome.level


# --- RB-1 … RB-7 --------------------------------------------------------------------


def test_rb_1_shared_numbering() -> None:
    assert RULES.mapping == "shared"
    position = rb({20: 1, 3: 1, 25: 13}, {21: 1, 4: 1, 25: 13})
    assert position.text() == "W:Wnewx13,3,20:Bnewx13,4,21"


def test_rb_1_both_enter_on_24_to_19_and_bear_off_from_1_to_6() -> None:
    for side in Side:
        start = Position.start("russian_backgammon", turn=side)
        assert start.play((6, 1), "bar/19 bar/24")
    black_home = rb({20: 15}, {6: 1, 1: 1}, turn=Side.BLACK)
    assert black_home.play((6, 1), "6/off 1/off").after.borne_off(Side.BLACK) == 15


def test_rb_2_start_off_the_board() -> None:
    assert START.text() == "W:Wnewx15:Bnewx15"
    assert START.pips(Side.WHITE) == START.pips(Side.BLACK) == 15 * 25
    assert START.is_first_turn() and START.is_first_turn(Side.BLACK)


def test_rb_3_opening_dice_are_the_first_roll() -> None:
    assert RULES.opening == "U"


def test_rb_4_entering_hits_a_blot() -> None:
    position = rb({24: 1, 23: 1, 25: 13}, {20: 1, 25: 14})
    play = position.play((5, 1), "bar/20* 24/23")
    assert play.after.bar == (0, 1)
    assert play.after.waiting == (12, 14)


def test_rb_4_two_opposing_checkers_close_the_entry_point() -> None:
    position = rb({24: 1, 23: 1, 25: 13}, {20: 2, 25: 13})
    assert all(play.after.own(Side.WHITE, 20) == 0 for play in position.legal_plays((5, 1)))


def test_rb_5_every_step_enters_until_two_have_entered() -> None:
    # Nothing entered yet: the first checker may not go on with the second die.
    for dice in [(d1, d2) for d1 in range(1, 7) for d2 in range(d1 + 1, 7)]:
        (play,) = START.legal_plays(dice)
        assert [step.src for step in play.steps] == [25, 25]


def test_rb_5_afterwards_a_step_may_enter_or_move() -> None:
    # RB-E2 in short: one entered, the second entry frees the other die.
    assert E2.play((6, 1), "bar/19 20/19")
    assert E2.play((6, 1), "bar/19 bar/24")


def test_rb_5_a_later_hit_does_not_undo_it() -> None:
    # Two entered, one of them since hit: enter it (RB-6), then any checker moves.
    position = rb({"bar": 1, 20: 1, 25: 13}, {25: 15})
    assert position.play((6, 1), "bar/24 20/14")


def test_rb_6_bar_checkers_first() -> None:
    # Black holds 19 and 20: the bar checker cannot enter, so nothing moves at all,
    # neither a new checker nor the two on 10.
    blocked = rb({"bar": 1, 10: 2, 25: 12}, {19: 2, 20: 2, 25: 11})
    assert blocked.legal_plays((6, 5)) == ()
    free = rb({"bar": 1, 10: 2, 25: 12}, {25: 15})
    assert all(play.after.bar[Side.WHITE] == 0 for play in free.legal_plays((4, 4)))


def test_rb_7_hit_checker_re_enters_on_24_to_19() -> None:
    position = rb({20: 1, 10: 1, 25: 13}, {15: 1, 25: 14})
    hit = position.play((5, 1), "20/15* 10/9").after
    assert hit.turn is Side.BLACK and hit.bar == (0, 1)
    for play in hit.legal_plays((6, 5)):
        assert (play.steps[0].src, play.steps[0].dst) in {(25, 19), (25, 20)}
        assert play.after.bar == (0, 0)


# --- RB-8 doubles -------------------------------------------------------------------


@pytest.mark.parametrize("dice", DOUBLES)
def test_rb_8_first_turn_double_is_rolled_again(dice: Dice) -> None:
    with pytest.raises(InvalidDice):
        START.legal_plays(dice)


def test_rb_8_full_double_earns_the_complement() -> None:
    position = rb({3: 14, 10: 1}, {20: 15})
    after = position.play((2, 2), "10/2").after
    assert (after.turn, after.owed) == (Side.WHITE, 5)
    assert after.text().endswith(":c5")


def test_rb_8_only_the_owed_complement_may_be_played() -> None:
    owed = rb({3: 14, 10: 1}, {20: 15}).play((2, 2), "10/2").after
    with pytest.raises(InvalidDice):
        owed.legal_plays((6, 1))
    with pytest.raises(InvalidDice):
        owed.legal_plays((2, 2))


def test_rb_8_full_complement_earns_a_new_roll() -> None:
    owed = rb({3: 14, 10: 1}, {20: 15}).play((2, 2), "10/2").after
    again = owed.play((5, 5), "3/off(4)").after
    assert (again.turn, again.owed) == (Side.WHITE, 0)
    assert again.legal_plays((6, 6))  # the new roll follows the same rules and may chain


def test_rb_8_partial_complement_ends_the_turn() -> None:
    # After 1-1 the 6-6 can move only the checker from 20 twice (13 and 7 are open,
    # then 7 -> 1 is closed, and the 3s cannot bear off).
    position = rb({20: 1, 3: 14}, {1: 2, 12: 13})
    owed = position.play((1, 1), "20/19 3/2(3)").after
    assert owed.owed == 6
    (play,) = owed.legal_plays((6, 6))
    assert len(play.steps) == 2
    assert (play.after.turn, play.after.owed) == (Side.BLACK, 0)


def test_rb_8_non_double_ends_the_turn() -> None:
    position = rb({3: 14, 10: 1}, {20: 15})
    after = position.play((2, 1), "10/7").after
    assert (after.turn, after.owed) == (Side.BLACK, 0)


# --- RB-9 … RB-11 -------------------------------------------------------------------


def test_rb_9_bearing_off_needs_all_fifteen_entered_and_home() -> None:
    unentered = rb({2: 14, 25: 1}, {20: 15})
    assert all(p.after.borne_off(Side.WHITE) == 0 for p in unentered.legal_plays((2, 1)))
    entered = rb({2: 14, 24: 1}, {20: 15})
    assert all(p.after.borne_off(Side.WHITE) == 0 for p in entered.legal_plays((2, 1)))
    home = rb({2: 14, 6: 1}, {20: 15})
    assert home.play((2, 1), "2/off 6/5")


def test_rb_10_levels() -> None:
    assert RULES.levels == (1, 2, 3)
    assert level(rb({}, {19: 1, 1: 13})) == (Side.WHITE, 1)
    assert level(rb({}, {18: 1, 1: 14})) == (Side.WHITE, 2)
    assert level(rb({}, {19: 1, 1: 14})) == (Side.WHITE, 3)
    assert level(rb({}, {"bar": 1, 1: 14})) == (Side.WHITE, 3)
    assert level(rb({}, {25: 1, 1: 14})) == (Side.WHITE, 3)  # not yet entered
    assert level(rb({24: 1, 6: 14}, {})) == (Side.BLACK, 3)


def test_rb_11_no_cube_and_resignation_levels() -> None:
    assert not RULES.cube
    assert RULES.resign_levels == (1, 2, 3)


# --- Worked examples ----------------------------------------------------------------


def test_rb_e1_first_turn_enters_two(results: Results, results_of: ResultsOf) -> None:
    assert results(START, (5, 2)) == results_of(START, (5, 2), "bar/20 bar/23")


def test_rb_e2_one_checker_entered(results: Results, results_of: ResultsOf) -> None:
    legal = ["bar/19 bar/24", "bar/19 20/19", "bar/24 20/14", "bar/24/18"]
    assert results(E2, (6, 1)) == results_of(E2, (6, 1), *legal)


def test_rb_e2_a_first_step_must_enter() -> None:
    with pytest.raises(IllegalPlay):
        E2.play((6, 1), "20/13")
    assert all(play.steps[0].src == 25 for play in E2.legal_plays((6, 1)))


E3 = rb({3: 14, 10: 1}, {6: 2, 1: 2, 20: 11})


def test_rb_e3_interrupted_double(notations: Notations) -> None:
    assert notations(E3, (2, 2)) == {"10/8"}
    (play,) = E3.legal_plays((2, 2))
    assert (play.after.turn, play.after.owed) == (Side.BLACK, 0)


E4 = rb({3: 14, 10: 1}, {20: 15})


def test_rb_e4_full_double_then_complement_then_roll_again(notations: Notations) -> None:
    owed = E4.play((2, 2), "10/2").after
    assert (owed.turn, owed.owed) == (Side.WHITE, 5)
    assert notations(owed, (5, 5)) == {"3/off(4)"}
    again = owed.play((5, 5), "3/off(4)").after
    assert (again.turn, again.owed, again.borne_off(Side.WHITE)) == (Side.WHITE, 0, 4)


def test_rb_e5_blacks_first_turn() -> None:
    position = START.play((5, 2), "bar/20 bar/23").after
    assert position.turn is Side.BLACK and position.is_first_turn()
    with pytest.raises(InvalidDice):
        position.legal_plays((4, 4))
    assert {play.notation() for play in position.legal_plays((6, 3))} == {"bar/22 bar/19"}
