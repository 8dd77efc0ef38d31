"""RULES.md §7, Plakoto: the engine's part (PK-1 … PK-11, PK-E1 … PK-E4).

Positions are in each side's own numbers (Black's own n is White's 25 - n);
pinned checkers are listed by their owner's own point in ``white_pinned`` /
``black_pinned`` and sit under one opposing checker. The opening roll (PK-3)
and stake payouts (PK-11) belong to the game flow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from sheshbesh.games.errors import IllegalPlay, InvalidPosition
from sheshbesh.games.race import RACE_VARIANTS, Outcome, Position, Side

Dice = tuple[int, int]
Results = Callable[[Position, Dice], set[Position]]
ResultsOf = Callable[..., set[Position]]
Notations = Callable[[Position, Dice], set[str]]

RULES = RACE_VARIANTS["plakoto"]


def pk(
    white: dict[int | str, int],
    black: dict[int | str, int],
    *,
    turn: Side = Side.WHITE,
    white_pinned: Iterable[int] = (),
    black_pinned: Iterable[int] = (),
) -> Position:
    return Position.from_own(
        "plakoto", white=white, black=black, turn=turn,
        white_pinned=white_pinned, black_pinned=black_pinned,
    )  # fmt: skip


# --- PK-1 … PK-3 --------------------------------------------------------------------


def test_pk_1_opposite_mapping_start_and_home() -> None:
    assert RULES.mapping == "opposite"
    assert pk({24: 1, 6: 1}, {24: 1, 6: 1}).text() == "W:W6,24:B1,19"


def test_pk_1_black_bears_off_from_a19_a24() -> None:
    position = pk({13: 15}, {6: 1, 1: 1}, turn=Side.BLACK)
    assert position.play((6, 1), "6/off 1/off").after.borne_off(Side.BLACK) == 15


def test_pk_2_start() -> None:
    assert Position.start("plakoto").text() == "W:W24x15:B1x15"


def test_pk_3_fresh_roll_after_the_opening() -> None:
    assert RULES.opening == "F"


# --- PK-4 … PK-7 --------------------------------------------------------------------


def test_pk_4_two_opposing_checkers_close_a_point() -> None:
    position = pk({13: 1, 24: 14}, {17: 2, 10: 13})  # Black holds White's 8
    assert all(play.after.own(Side.WHITE, 8) == 0 for play in position.legal_plays((5, 1)))


def test_pk_4_a_pinning_opposing_checker_closes_a_point() -> None:
    # Black's lone checker on White's 8 pins a White checker there.
    position = pk({13: 1, 24: 13}, {17: 1, 10: 14}, white_pinned=[8])
    with pytest.raises(IllegalPlay):
        position.play((5, 1), "13/8 24/23")


def test_pk_4_own_pinning_point_is_open() -> None:
    # White pins on its 8 and may add checkers there (PK-5).
    position = pk({13: 1, 8: 1, 24: 13}, {10: 14}, black_pinned=[17])
    play = position.play((5, 1), "13/8 24/23")
    assert play.after.own(Side.WHITE, 8) == 2
    assert play.after.pinned(Side.BLACK, 17)


def test_pk_5_landing_on_a_free_blot_pins_it() -> None:
    position = pk({13: 1, 24: 14}, {17: 1, 10: 14})
    play = position.play((5, 1), "13/8^ 24/23")
    assert play.notation() == "24/23 13/8^"
    assert play.after.pinned(Side.BLACK, 17)
    assert play.after.own(Side.WHITE, 8) == 1
    assert play.after.bar == (0, 0)


def test_pk_5_pinning_on_the_way() -> None:
    # W10 is closed, so 13 -> 5 must land on the blot at W8 on the way; moving on
    # releases it (PK-6) and the result is the plain move.
    position = pk({13: 1, 24: 14}, {17: 1, 15: 2, 10: 12})
    (play,) = (p for p in position.legal_plays((5, 3)) if p.after.own(Side.WHITE, 5))
    assert [(step.dst, step.hit) for step in play.steps] == [(8, True), (5, False)]
    assert not play.after.pinned(Side.BLACK, 17)


def test_pk_5_a_pinned_checker_cannot_move() -> None:
    position = pk({8: 1, 24: 14}, {10: 14}, black_pinned=[17], turn=Side.BLACK)
    assert all(play.after.pinned(Side.BLACK, 17) for play in position.legal_plays((6, 5)))
    assert all(step.src != 17 for play in position.legal_plays((6, 5)) for step in play.steps)


def test_pk_5_the_pinners_lone_checker_cannot_be_pinned() -> None:
    # Black may not land on White's 8, where White's lone checker pins Black's.
    position = pk({8: 1, 24: 14}, {24: 14}, black_pinned=[17], turn=Side.BLACK)
    with pytest.raises(IllegalPlay):
        position.play((4, 3), "24/17")


def test_pk_6_the_pinned_checker_is_free_when_the_last_pinner_leaves() -> None:
    position = pk({8: 1, 24: 14}, {24: 14}, black_pinned=[17])
    after = position.play((6, 2), "8/2 24/22").after
    assert not after.pinned(Side.BLACK, 17)
    assert after.own(Side.BLACK, 17) == 1


def test_pk_6_still_pinned_while_a_pinner_stays() -> None:
    position = pk({8: 2, 24: 13}, {24: 14}, black_pinned=[17])
    assert position.play((6, 2), "8/2 24/22").after.pinned(Side.BLACK, 17)


def test_pk_7_no_hitting_no_bar() -> None:
    assert not RULES.has_bar
    with pytest.raises(InvalidPosition):
        pk({"bar": 1, 24: 14}, {24: 15})


def test_pk_7_doubles_give_four_moves(notations: Notations) -> None:
    start = Position.start("plakoto")
    assert all(len(play.steps) == 4 for play in start.legal_plays((1, 1)))
    assert "24/23(4)" in notations(start, (1, 1))


# --- PK-8 bearing off ---------------------------------------------------------------

E4 = pk({6: 5, 5: 5, 4: 4}, {22: 1, 10: 14}, white_pinned=[3])


def test_pk_8_no_bearing_off_while_pinned(notations: Notations) -> None:
    assert notations(E4, (6, 5)) == {"6/1"}


def test_pk_8_bearing_off_resumes_when_released() -> None:
    released = pk({6: 5, 5: 5, 4: 4, 3: 1}, {10: 15})
    assert released.play((6, 5), "6/off 5/off")


# --- PK-9 mother checker, PK-10 levels ----------------------------------------------


def outcome(position: Position) -> Outcome | None:
    return position.outcome()


def test_pk_9_pinned_mother_while_the_pinner_has_start_checkers_goes_on() -> None:
    position = pk({1: 1, 24: 14}, {10: 14}, black_pinned=[24])
    assert outcome(position) is None


def test_pk_9_pinned_mother_and_no_pinner_checker_on_its_start_wins_double() -> None:
    position = pk({1: 1, 13: 14}, {10: 14}, black_pinned=[24])
    assert outcome(position) == Outcome(Side.WHITE, 2, "PK-9")


def test_pk_9_white_mother_pinned_black_wins() -> None:
    position = pk({20: 14}, {1: 1, 13: 14}, white_pinned=[24])
    assert outcome(position) == Outcome(Side.BLACK, 2, "PK-9")


def test_pk_9_both_mothers_pinned_is_a_draw() -> None:
    position = pk({1: 1, 13: 13}, {1: 1, 10: 13}, white_pinned=[24], black_pinned=[24])
    result = outcome(position)
    assert result == Outcome(None, 0, "PK-9")
    assert result is not None and result.is_draw


def test_pk_9_pinning_back_the_pinners_mother_draws() -> None:
    # Black pins White's mother; Black's mother is still free on its start. White
    # pins it from its 7 with the 6: both mothers pinned after the play.
    position = pk({7: 1, 13: 13}, {1: 1, 24: 1, 10: 12}, white_pinned=[24])
    assert outcome(position) is None
    play = position.play((6, 1), "7/1^ 13/12")
    assert outcome(play.after) == Outcome(None, 0, "PK-9")


def test_pk_9_judged_when_the_play_is_complete() -> None:
    # White pins Black's mother with the 6, then plays its own last start checker
    # away with the 2: both steps belong to the play, then White wins at once.
    position = pk({7: 1, 24: 1, 13: 13}, {24: 1, 10: 14})
    play = position.play((6, 2), "7/1^ 24/22")
    assert len(play.steps) == 2
    assert outcome(play.after) == Outcome(Side.WHITE, 2, "PK-9")
    assert outcome(position.play((6, 2), "7/1^ 13/11").after) is None


def test_pk_10_levels() -> None:
    assert RULES.levels == (1, 2) and not RULES.cube
    assert outcome(pk({}, {1: 14})) == Outcome(Side.WHITE, 1, "BF-13")
    assert outcome(pk({}, {1: 15})) == Outcome(Side.WHITE, 2, "BF-13")
    assert outcome(pk({}, {24: 15})) == Outcome(Side.WHITE, 2, "BF-13")  # no triple


def test_pk_11_resignation_levels() -> None:
    assert RULES.resign_levels == (1, 2)


# --- Worked examples ----------------------------------------------------------------

E1 = pk({24: 13, 19: 1, 13: 1}, {24: 14, 20: 1})


@pytest.mark.parametrize("text", ["13/7/5^", "13/11/5^", "24/18 24/22", "19/13 13/11"])
def test_pk_e1_legal(text: str) -> None:
    assert E1.play((6, 2), text)


def test_pk_e1_13_to_5_pins_the_blot(results_of: ResultsOf) -> None:
    (after,) = results_of(E1, (6, 2), "13/7/5^", "13/11/5^")
    assert after.pinned(Side.BLACK, 20)
    assert after.text() == "B:W5,19,24x13:B1x14,5p"


E2 = pk({24: 12, 19: 1, 13: 1, 8: 1}, {24: 14}, black_pinned=[17], turn=Side.BLACK)


def test_pk_e2_pinned_checker(results: Results, results_of: ResultsOf) -> None:
    assert results(E2, (6, 5)) == results_of(E2, (6, 5), "24/18 24/19", "24/13")


def test_pk_e2_pinned_point_is_closed_to_black() -> None:
    with pytest.raises(IllegalPlay):
        E2.play((4, 3), "24/17")
    assert all(play.after.own(Side.BLACK, 17) == 0 for play in E2.legal_plays((4, 3)))


E3 = pk({24: 10, 13: 2, 6: 3}, {24: 1, 10: 14})


def test_pk_e3_pinning_the_mother_with_start_checkers_left() -> None:
    play = E3.play((5, 3), "6/1^ 13/10")
    assert play.after.pinned(Side.BLACK, 24)
    assert play.after.outcome() is None


def test_pk_e3_without_start_checkers_white_wins_double() -> None:
    position = pk({13: 12, 6: 3}, {24: 1, 10: 14})
    play = position.play((5, 3), "6/1^ 13/10")
    assert play.after.outcome() == Outcome(Side.WHITE, 2, "PK-9")


def test_pk_e4_no_bear_off_while_pinned(notations: Notations) -> None:
    assert E4.text() == "W:W3p,4x4,5x5,6x5:B3,15x14"
    assert notations(E4, (6, 5)) == {"6/1"}
    (play,) = E4.legal_plays((6, 5))
    assert play.after.borne_off(Side.WHITE) == 0
