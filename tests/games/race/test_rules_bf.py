"""RULES.md §1, the shared model of the backgammon family (BF-2 … BF-16).

Positions are written in each side's own numbering (``Position.from_own``) as
RULES.md writes them, or in absolute points (``Position.from_text``) where a test
is about the board itself.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.errors import GameOver, IllegalPlay
from sheshbesh.games.race import RACE_VARIANTS, Position, Side, parse_play
from sheshbesh.games.race.notation import Path
from sheshbesh.games.race.rules import to_absolute

NON_DOUBLES = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1 + 1, 7)]


Notations = Callable[[Position, tuple[int, int]], set[str]]


def level(position: Position) -> int:
    outcome = position.outcome()
    assert outcome is not None
    return outcome.level


def bg(white: dict[int | str, int], black: dict[int | str, int]) -> Position:
    return Position.from_own("backgammon", white=white, black=black)


# --- BF-2 own numbering -------------------------------------------------------------


@pytest.mark.parametrize("side", list(Side))
@pytest.mark.parametrize("variant", list(RACE_VARIANTS))
def test_bf_2_steps_go_from_higher_to_lower_own_points(variant: str, side: Side) -> None:
    start = Position.start(variant, turn=side)
    for dice in NON_DOUBLES:
        for play in start.legal_plays(dice):
            for step in play.steps:
                assert step.src > step.dst
                assert step.src - step.dst == step.die  # p - d, entering from 25


def test_bf_2_moving_d_pips_lands_on_p_minus_d() -> None:
    position = bg({13: 1, 1: 14}, {1: 15})
    (play,) = position.legal_plays((6, 1))
    assert play.notation() == "13/6"
    assert play.after.own(Side.WHITE, 6) == 1


def test_bf_2_entering_with_die_d_lands_on_25_minus_d() -> None:
    position = bg({"bar": 2, 1: 13}, {1: 15})
    (play,) = position.legal_plays((5, 3))
    assert {(step.src, step.dst, step.die) for step in play.steps} == {(25, 20, 5), (25, 22, 3)}


def test_bf_2_borne_off_is_point_0() -> None:
    position = bg({2: 1, 1: 14}, {1: 15})
    play = position.play((2, 1), "2/1 1/off")
    assert any(step.dst == 0 for step in play.steps)
    assert play.after.borne_off(Side.WHITE) == 1


def test_bf_2_pips_count_own_numbers() -> None:
    start = Position.start("backgammon")
    assert start.pips(Side.WHITE) == start.pips(Side.BLACK) == 2 * 24 + 5 * 13 + 3 * 8 + 5 * 6
    assert Position.start("long_nardy").pips(Side.BLACK) == 15 * 24
    assert Position.start("russian_backgammon").pips(Side.WHITE) == 15 * 25


# --- BF-3 absolute index ------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "own", "absolute"),
    [
        # Opposite: A = 25 - n
        ("backgammon", 24, 1),
        ("backgammon", 13, 12),
        ("backgammon", 1, 24),
        ("plakoto", 6, 19),
        # Diagonal: A = n + 12 if n <= 12 else n - 12
        ("long_nardy", 24, 12),
        ("long_nardy", 13, 1),
        ("long_nardy", 12, 24),
        ("long_nardy", 1, 13),
        ("jacquet", 18, 6),
        # Shared: A = n
        ("russian_backgammon", 24, 24),
        ("russian_backgammon", 7, 7),
        ("russian_backgammon", 1, 1),
    ],
)
def test_bf_3_black_own_point_to_absolute(variant: str, own: int, absolute: int) -> None:
    position = Position.from_own(variant, white={}, black={own: 1})
    assert position.text() == f"W:W:B{absolute}"
    assert to_absolute(RACE_VARIANTS[variant].mapping, True, own) == absolute
    assert position.own(Side.BLACK, own) == 1


@pytest.mark.parametrize("variant", list(RACE_VARIANTS))
def test_bf_3_white_own_number_is_the_absolute_index(variant: str) -> None:
    assert Position.from_own(variant, white={7: 2}, black={}).text() == "W:W7x2:B"


def test_bf_3_opposite_my_point_n_is_the_opponents_25_minus_n() -> None:
    position = Position.from_text("backgammon", "W:W8x2:B17x3")
    assert position.own(Side.WHITE, 8) == 2
    assert position.own(Side.BLACK, 8) == 3  # Black's 8 is White's 17


def test_bf_3_diagonal_the_opponents_start_is_my_point_12() -> None:
    start = Position.start("long_nardy")
    assert start.text() == "W:W24x15:B12x15"
    assert start.points[12 - 1] == -15  # Black's head on White's own 12


def test_bf_3_shared_both_sides_use_the_same_numbers() -> None:
    white = Position.from_own("russian_backgammon", white={20: 1, 25: 14}, black={})
    black = Position.from_own("russian_backgammon", white={}, black={20: 1, 25: 14})
    assert white.text() == "W:Wnewx14,20:B"
    assert black.text() == "W:W:Bnewx14,20"


# --- BF-7 openness ------------------------------------------------------------------

BF7_BOARD = "W:W10,13x14:B{black}"


@pytest.mark.parametrize(
    ("variant", "black", "open_"),
    [
        # hitting games: open unless two or more opposing checkers
        ("backgammon", "6", True),
        ("backgammon", "6x2", False),
        ("short_nardy", "6", True),
        ("takhte_nard", "6x2", False),
        ("caucasian_nardy", "6", True),
        ("russian_backgammon", "6", True),
        ("russian_backgammon", "6x2", False),
        # pinning game: a free blot can be pinned, two checkers close the point
        ("plakoto", "6", True),
        ("plakoto", "6x2", False),
        # blocking games: one opposing checker closes the point
        ("long_nardy", "6", False),
        ("jacquet", "6", False),
        ("long_nardy", "20", True),
        ("jacquet", "20", True),
    ],
)
def test_bf_7_openness_per_family(variant: str, black: str, open_: bool) -> None:
    position = Position.from_text(variant, BF7_BOARD.format(black=black))
    reaches_6 = any(p.after.own(Side.WHITE, 6) for p in position.legal_plays((4, 1)))
    assert reaches_6 is open_


def test_bf_7_plakoto_point_closed_by_a_pinning_checker() -> None:
    # Black's lone checker on A6 pins a White checker there: closed to White.
    position = Position.from_text("plakoto", "W:W6p,10,13x13:B6")
    assert not any(p.after.own(Side.WHITE, 6) for p in position.legal_plays((4, 1)))


def test_bf_7_hitting_a_blot_sends_it_to_the_bar() -> None:
    position = Position.from_text("backgammon", "W:W10,13x14:B6")
    play = position.play((4, 1), "10/6* 13/12")
    assert play.after.bar[Side.BLACK] == 1


def test_bf_7_any_number_of_own_checkers_on_a_point() -> None:
    position = bg({6: 14, 7: 1}, {1: 15})
    assert position.play((1, 2), "7/6 6/4").after.own(Side.WHITE, 6) == 14


# --- BF-8 intermediate points -------------------------------------------------------


@pytest.mark.parametrize(
    ("black", "legal"),
    [
        ({}, True),  # both routes open
        ({17: 2}, True),  # W8 closed: via 10
        ({15: 2}, True),  # W10 closed: via 8
        ({17: 2, 15: 2}, False),  # both closed
    ],
)
def test_bf_8_one_open_route_is_enough(black: dict[int | str, int], legal: bool) -> None:
    position = bg({13: 1, 1: 14}, {**black, 23: 15 - sum(black.values())})
    plays = {p.after for p in position.legal_plays((5, 3))}
    target = bg({5: 1, 1: 14}, {**black, 23: 15 - sum(black.values())}).pass_turn()
    assert (target in plays) is legal


def test_bf_8_intermediate_blot_is_hit() -> None:
    # W8 holds a Black blot, W10 is closed: 13 -> 5 must go via 8 and hit there.
    position = bg({13: 1, 1: 14}, {17: 1, 15: 2, 23: 12})
    (play,) = position.legal_plays((5, 3))
    assert play.notation() == "13/8*/5"
    assert play.after.bar[Side.BLACK] == 1


def test_bf_8_blocking_games_need_an_empty_intermediate_point() -> None:
    # Long nardy: one Black checker on W8 and one on W10 block 13 -> 5 with 5-3.
    open_board = Position.from_text("long_nardy", "W:W1x14,13:B20x15")
    blocked = Position.from_text("long_nardy", "W:W1x14,13:B8,10,20x13")
    assert open_board.play((5, 3), "13/5")
    with pytest.raises(IllegalPlay):
        blocked.play((5, 3), "13/5")


# --- BF-9 dice obligations ----------------------------------------------------------


def test_bf_9_same_result_is_one_play() -> None:
    start = Position.start("backgammon")
    for dice in NON_DOUBLES:
        plays = start.legal_plays(dice)
        assert len(plays) == len({play.after for play in plays})
    assert start.play((6, 5), "24/18 18/13") == start.play((6, 5), "24/13")


def test_bf_9_2_both_dice_when_possible() -> None:
    start = Position.start("backgammon")
    for dice in NON_DOUBLES:
        assert all(len(play.steps) == 2 for play in start.legal_plays(dice))


def test_bf_9_2_as_many_of_a_double_as_possible() -> None:
    # White 9 x1, 1 x14; Black holds W3. With 2-2: 9/7/5, then 5/3 is closed and
    # the 1-point checkers cannot bear off past the 5: two of four 2s are played.
    position = bg({9: 1, 1: 14}, {22: 2, 23: 13})
    (play,) = position.legal_plays((2, 2))
    assert play.notation() == "9/5"
    assert len(play.steps) == 2


def test_bf_9_3_larger_die_when_only_one_can_be_used() -> None:
    # BG-E3: either die from 10, never both; the 6 must be played.
    position = bg({20: 1, 10: 1, 1: 13}, {10: 2, 11: 2, 1: 11})
    assert [play.notation() for play in position.legal_plays((6, 5))] == ["10/4"]


def test_bf_9_3_smaller_die_when_only_it_can_be_used() -> None:
    # White 10 x1, 1 x14; Black holds W4 and W2: 10/4 is closed, 10/8 then 8/2 closed.
    position = bg({10: 1, 1: 14}, {21: 2, 23: 13})
    assert [play.notation() for play in position.legal_plays((6, 2))] == ["10/8"]


def test_bf_9_4_no_usable_die_passes_the_turn() -> None:
    # Black holds all six entry points (White's 19-24); White has a checker on the bar.
    position = bg({"bar": 1, 13: 14}, {1: 3, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 2})
    assert position.legal_plays((6, 5)) == ()
    passed = position.pass_turn()
    assert passed.turn is Side.BLACK
    assert passed.points == position.points


# --- BF-11 entering -----------------------------------------------------------------


def test_bf_11_every_step_enters_while_on_the_bar() -> None:
    # Black's start holds W19 (its 6-point): the 6 cannot enter, the 5 must (bar/20).
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    position = bg({"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, start)
    plays = position.legal_plays((6, 5))
    assert plays
    assert all(play.steps[0].src == 25 and play.steps[0].dst == 20 for play in plays)
    assert position.play((6, 5), "bar/20 13/7")
    assert position.play((6, 5), "bar/14")  # the entered checker may go on


def test_bf_11_dice_that_cannot_enter_are_lost() -> None:
    # Both entry points of 6-5 closed: nothing moves although 13 could.
    position = bg({"bar": 1, 13: 14}, {6: 2, 5: 2, 24: 11})
    assert position.legal_plays((6, 5)) == ()


def test_bf_11_partial_entry_forfeits_the_rest() -> None:
    # Two on the bar, only the 4 enters (W22 closed): bar/21 and nothing else.
    position = bg({"bar": 2, 13: 13}, {6: 2, 3: 2, 1: 11})
    assert [play.notation() for play in position.legal_plays((4, 3))] == ["bar/21"]


def test_bf_11_after_the_last_entry_any_checker_plays() -> None:
    position = bg({"bar": 1, 13: 14}, {6: 2, 24: 13})
    assert position.play((4, 3), "bar/21 13/10")
    assert position.play((4, 3), "bar/18")


# --- BF-12 bearing off --------------------------------------------------------------


def test_bf_12_die_equal_to_point_bears_off() -> None:
    position = bg({4: 1, 3: 1, 2: 1}, {24: 15})
    assert position.play((4, 3), "4/off 3/off").after.borne_off(Side.WHITE) == 14


def test_bf_12_higher_die_bears_off_from_the_highest_point_only() -> None:
    position = bg({5: 1, 3: 1}, {24: 15})
    assert position.play((6, 1), "5/off 3/2")
    with pytest.raises(IllegalPlay):
        position.play((6, 1), "3/off 5/4")


def test_bf_12_lower_die_moves_inside_home(notations: Notations) -> None:
    position = bg({6: 1}, {6: 15})
    assert notations(position, (2, 1)) == {"6/3"}


def test_bf_12_no_bearing_off_with_a_checker_outside_home(notations: Notations) -> None:
    # The 12 cannot reach home with 2-1, so the 1-point checkers may not bear off.
    position = bg({12: 1, 1: 14}, {12: 15})
    assert notations(position, (2, 1)) == {"12/9"}


def test_bf_12_no_bearing_off_with_a_checker_on_the_bar() -> None:
    position = bg({"bar": 1, 5: 14}, {24: 15})
    assert all(play.after.borne_off(Side.WHITE) == 0 for play in position.legal_plays((6, 5)))


def test_bf_12_bearing_off_is_not_compulsory() -> None:
    position = bg({6: 2, 2: 1}, {24: 15})
    assert position.play((2, 1), "2/off 6/5")
    assert position.play((2, 1), "6/4 6/5")


def test_bf_12_die_naming_an_empty_point_with_a_higher_one_occupied(
    notations: Notations,
) -> None:
    # The 4 names an empty point while 6 is occupied: it must be played inside home.
    position = bg({6: 1, 3: 1}, {6: 15})
    assert notations(position, (4, 1)) == {"6/2 3/2", "6/1"}


# --- BF-13 end of game and levels ---------------------------------------------------


def test_bf_13_last_checker_off_wins_at_once() -> None:
    position = bg({1: 1}, {12: 15})
    (play,) = position.legal_plays((6, 6))
    assert play.notation() == "1/off"
    assert len(play.steps) == 1  # the remaining dice are not played
    outcome = play.after.outcome()
    assert outcome is not None and outcome.winner is Side.WHITE


def test_bf_13_a_finished_game_has_no_plays() -> None:
    finished = bg({}, {24: 15})
    with pytest.raises(GameOver):
        finished.legal_plays((3, 1))


@pytest.mark.parametrize(
    ("variant", "levels"),
    [
        ("backgammon", (1, 2, 3)),
        ("short_nardy", (1, 2)),
        ("takhte_nard", (1, 2, 3)),
        ("long_nardy", (1, 2)),
        ("caucasian_nardy", (1, 2)),
        ("plakoto", (1, 2)),
        ("russian_backgammon", (1, 2, 3)),
        ("jacquet", (1, 2)),
    ],
)
def test_bf_13_levels_each_game_defines(variant: str, levels: tuple[int, ...]) -> None:
    assert RACE_VARIANTS[variant].levels == levels


def test_bf_13_single_double_triple() -> None:
    single = bg({}, {6: 14})
    double = bg({}, {6: 15})
    triple = bg({}, {6: 14, 19: 1})
    assert [level(p) for p in (single, double, triple)] == [1, 2, 3]


# --- BF-16 notation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("13/8", (Path((13, 8), (False, False)),)),
        ("13/8/5", (Path((13, 8, 5), (False, False, False)),)),
        ("13/7(2)", (Path((13, 7), (False, False), 2),)),
        ("bar/21", (Path((25, 21), (False, False)),)),
        ("5/off", (Path((5, 0), (False, False)),)),
        ("24/18*", (Path((24, 18), (False, True)),)),
        ("13/5^", (Path((13, 5), (False, True)),)),
    ],
)
def test_bf_16_notation_forms_parse(text: str, paths: tuple[Path, ...]) -> None:
    assert parse_play(text) == paths


def test_bf_16_engine_writes_the_notation() -> None:
    start = Position.start("backgammon")
    assert start.play((6, 6), "24/18(2) 13/7(2)").notation() == "24/18(2) 13/7(2)"
    assert start.play((5, 3), "13/8/5").notation() == "13/5"  # gnubg drops plain stops
    hit = bg({13: 1, 1: 14}, {17: 1, 15: 2, 23: 12})
    assert hit.play((5, 3), "13/8*/5").notation() == "13/8*/5"
    enter = bg({"bar": 1, 5: 14}, {24: 15})
    assert enter.play((4, 1), "bar/21 5/4").notation() == "bar/21 5/4"
    off = bg({5: 2}, {24: 15})
    assert off.play((5, 5), "5/off(2)").notation() == "5/off(2)"
    pin = Position.from_text("plakoto", "W:W10,13x14:B6")
    assert pin.play((4, 1), "13/12 10/6^").notation() == "13/12 10/6^"
