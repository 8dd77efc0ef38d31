"""The hand-built race evaluation: exact at the end, antisymmetric, and sensible per variant.

Positions are written in each side's own numbers (``Position.from_own``), the
way RULES.md writes its examples.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.bots.eval_nardy import LONG_NARDY
from sheshbesh.bots.race_eval import Evaluator
from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.rules import RACE_VARIANTS

W, B = Side.WHITE, Side.BLACK
OWN = ("long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet")


def evaluator(variant: str, values: tuple[float, float] = (1.0, 1.0)) -> Evaluator:
    return Evaluator(Position.start(variant).rules, values)


def reached(variant: str, seed: int, turns: int) -> Position:
    """A position ``turns`` random plays into a game (the property tests' sample)."""
    rng = random.Random(seed)
    position = Position.start(variant, turn=Side(seed % 2))
    for _ in range(turns):
        if position.outcome() is not None:
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if position.owed:
            dice = (position.owed, position.owed)
        elif position.rules.doubles_chain and dice[0] == dice[1] and position.is_first_turn():
            continue  # RB-8: rolled again
        plays = position.legal_plays(dice)
        position = rng.choice(plays).after if plays else position.pass_turn()
    return position


@settings(max_examples=60)
@given(st.sampled_from(sorted(RACE_VARIANTS)), st.integers(0, 10**6), st.integers(0, 120))
def test_equity_is_antisymmetric_and_bounded(variant, seed, turns):
    """One side's equity is the other's loss; chances are probabilities; levels bound it."""
    position = reached(variant, seed, turns)
    judge = evaluator(variant)
    white_chance, white_equity = judge.chances(position, W)
    black_chance, black_equity = judge.chances(position, B)
    assert 0.0 <= white_chance <= 1.0
    assert white_chance + black_chance == pytest.approx(1.0)
    assert white_equity == pytest.approx(-black_equity)
    assert abs(white_equity) <= 1.0 + judge.double_value + judge.triple_value + 1e-9


def test_bf13_a_finished_game_is_scored_exactly():
    """BF-13 / NS-4: White has borne off all 15, Black none: a double (mars) win."""
    mars = Position.from_own("long_nardy", white={}, black={3: 15}, turn=B)
    assert evaluator("long_nardy").position(mars, W) == pytest.approx(2.0)
    assert evaluator("long_nardy", (0.0, 0.0)).position(mars, W) == pytest.approx(1.0)
    single = Position.from_own("long_nardy", white={}, black={3: 14}, turn=B)
    assert evaluator("long_nardy").position(single, B) == pytest.approx(-1.0)


def test_rb10_a_straggler_in_the_entry_quarter_makes_a_triple():
    """RB-10: nothing borne off and a checker on 19–24 is a backgammon (3)."""
    position = Position.from_own("russian_backgammon", white={}, black={20: 1, 10: 14}, turn=B)
    assert evaluator("russian_backgammon").position(position, W) == pytest.approx(3.0)


def test_pk9_a_pinned_mother_is_a_double_win_once_the_pinner_left_his_start():
    """PK-E3 with White's start empty: 6/1^ pins Black's mother and wins 2 at once."""
    before = Position.from_own("plakoto", white={13: 12, 6: 3}, black={24: 1, 10: 14})
    play = next(p for p in before.legal_plays((5, 3)) if p.notation() == "13/10 6/1^")
    assert play.after.outcome() is not None
    assert evaluator("plakoto").play(play) == pytest.approx(2.0)


def test_pk9_both_mothers_pinned_is_a_draw():
    position = Position.from_own(
        "plakoto",
        white={1: 1, 10: 13},
        black={1: 1, 10: 13},
        white_pinned=[24],
        black_pinned=[24],
    )
    assert evaluator("plakoto").position(position, W) == pytest.approx(0.0)


def test_ln13_black_levelling_on_the_last_roll_is_a_draw():
    position = Position.from_own("long_nardy", white={}, black={}, turn=B)
    assert evaluator("long_nardy").chances(position, B) == pytest.approx((0.5, 0.0))


def test_a_longer_race_is_worse():
    """Pure race (no contact): every extra pip lowers the chances of the side that has it."""
    judge = evaluator("long_nardy", (0.0, 0.0))
    chances = [
        judge.chances(Position.from_own("long_nardy", white={6: 5, 5: 5, n: 5}, black={4: 15}), W)[
            0
        ]
        for n in (1, 2, 3, 4)
    ]
    assert chances == sorted(chances, reverse=True)


def test_being_on_roll_is_worth_something():
    judge = evaluator("jacquet", (0.0, 0.0))
    even = {6: 5, 5: 5, 4: 5}
    on_roll = judge.chances(Position.from_own("jacquet", white=even, black=even, turn=W), W)[0]
    assert 0.5 < on_roll < 0.75


def test_pk5_a_pinned_checker_costs_its_owner():
    """PK-5/PK-8: the same checkers, once with Black's blot on W5 pinned by White."""
    judge = evaluator("plakoto")
    free = Position.from_own("plakoto", white={24: 12, 13: 2, 5: 1}, black={24: 14, 19: 1}, turn=B)
    pinned = Position.from_own(
        "plakoto", white={24: 12, 13: 2, 5: 1}, black={24: 14}, black_pinned=[20], turn=B
    )
    assert judge.position(pinned, W) > judge.position(free, W) + 0.1


def test_bf11_a_blot_in_direct_range_costs_more_than_a_made_point():
    """Caucasian nardy: two checkers on W9 versus one on W9 and one on W3, Black on roll."""
    judge = evaluator("caucasian_nardy")
    black = {24: 2, 13: 5, 8: 3, 6: 5}
    made = Position.from_own(
        "caucasian_nardy", white={13: 5, 9: 2, 6: 6, 24: 2}, black=black, turn=B
    )
    blots = Position.from_own(
        "caucasian_nardy", white={13: 5, 9: 1, 8: 1, 6: 6, 24: 2}, black=black, turn=B
    )
    assert judge.position(made, W) > judge.position(blots, W)


def test_ln5_every_checker_left_on_the_head_costs():
    """LN-5: one checker leaves the head per turn, so a crowded head is a debt of tempi."""
    judge = evaluator("long_nardy", (0.0, 0.0))
    black = {24: 13, 20: 2}
    crowded = Position.from_own("long_nardy", white={24: 12, 18: 2, 17: 1}, black=black, turn=B)
    spread = Position.from_own("long_nardy", white={24: 11, 23: 1, 18: 3}, black=black, turn=B)
    assert crowded.pips(W) == spread.pips(W)
    assert judge.position(spread, W) > judge.position(crowded, W)


def test_ln4_a_wall_in_front_of_the_opponent_is_worth_more_than_scattered_points():
    """LN-4: five points in a row just ahead of Black's head versus the same checkers spread."""
    judge = evaluator("long_nardy", (0.0, 0.0))
    black = {24: 12, 2: 3}
    wall = Position.from_own(
        "long_nardy", white={24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 15: 1}, black=black, turn=B
    )
    scattered = Position.from_own(
        "long_nardy", white={24: 9, 11: 1, 10: 1, 9: 1, 5: 1, 4: 1, 21: 1}, black=black, turn=B
    )
    assert wall.pips(W) == scattered.pips(W)
    assert judge.position(wall, W) > judge.position(scattered, W)


def test_jq8_a_straggler_in_the_opponents_home_costs_more_than_in_long_nardy():
    """JQ-8 / JQ-6: Jacquet's weights run the straggler home; long nardy's keep it as a wall.

    White's 17 stands in Black's home with nine Black checkers on their way. With
    4-3, Jacquet's weights play 17/10; long nardy's (walls dear, stragglers
    cheap) would play 10/3 and leave it there.
    """
    position = Position.from_own(
        "jacquet",
        white={17: 1, 15: 3, 12: 1, 10: 1, 8: 5, 2: 3, 1: 1},
        black={1: 2, 4: 1, 6: 1, 7: 1, 9: 1, 10: 1, 12: 2, 16: 4, 17: 1, 23: 1},
    )
    plays = position.legal_plays((4, 3))
    jacquet = evaluator("jacquet", (1.0, 0.0))
    as_nardy = evaluator("jacquet", (1.0, 0.0))
    as_nardy.blocking = LONG_NARDY
    assert max(plays, key=jacquet.play).notation() == "17/10"
    assert max(plays, key=as_nardy.play).notation() == "10/3"


@pytest.mark.parametrize("variant", OWN)
def test_the_start_is_close_to_even(variant):
    """Nobody is far ahead before anyone moved: the side on roll is a modest favourite."""
    chance, _ = evaluator(variant).chances(Position.start(variant), W)
    assert 0.45 < chance < 0.7


def test_evaluations_are_cached_by_position():
    judge = evaluator("plakoto")
    position = reached("plakoto", 7, 20)
    judge.position(position, W)
    counted = judge.evaluations
    judge.position(position, B)
    assert judge.evaluations == counted
