"""Invariants of every race variant, checked over hypothesis-driven random games.

Each example plays one whole game with random dice and random legal plays and
checks, at every play: the text form round-trips (and so re-validates the
position: 15 checkers a side at most, no point held by two colours, pins only
under the other colour), the mover's pips drop by exactly the pips moved, the
opponent's rise only by hits, nobody's checkers appear or vanish, and the game
ends with a valid result.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheshbesh.games.race import RACE_VARIANTS, Play, Position, Side
from sheshbesh.games.race.position import CHECKERS
from sheshbesh.games.race.rules import to_absolute, to_own

MAX_TURNS = 3000


def roll(rng: random.Random, position: Position) -> tuple[int, int]:
    """Random dice the way the game flow will roll them (RB-8 owed and first-turn rules)."""
    if position.owed:
        return position.owed, position.owed
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        first_double = dice[0] == dice[1] and position.is_first_turn()
        if not (position.rules.doubles_chain and first_double):
            return dice


def total(position: Position, side: Side) -> int:
    return (
        position.on_board(side)
        + position.bar[side]
        + position.waiting[side]
        + position.borne_off(side)
    )


def check_play(play: Play) -> None:
    before, after = play.before, play.after
    mover = before.turn
    assert Position.from_text(after.variant, after.text()) == after
    for side in Side:
        assert total(after, side) == CHECKERS
        assert 0 <= after.borne_off(side) <= CHECKERS
    moved = sum(step.src - step.dst for step in play.steps)
    assert before.pips(mover) - after.pips(mover) == moved
    opponent_gain = after.pips(mover.other) - before.pips(mover.other)
    if before.rules.lone_checker == "hit":
        hits = [step for step in play.steps if step.hit]
        assert after.bar[mover.other] - before.bar[mover.other] == len(hits)
        mapping = before.rules.mapping
        lost = [
            to_own(mapping, mover is Side.WHITE, to_absolute(mapping, mover is Side.BLACK, s.dst))
            for s in hits
        ]
        assert opponent_gain == sum(25 - point for point in lost)
    else:
        assert opponent_gain == 0
    assert len(play.steps) <= 4
    assert all(1 <= step.die <= 6 for step in play.steps)


def play_random_game(variant: str, seed: int) -> tuple[Position, int]:
    rng = random.Random(seed)
    position = Position.start(variant, turn=rng.choice(list(Side)))
    for turn in range(MAX_TURNS):
        if position.outcome() is not None:
            return position, turn
        plays = position.legal_plays(roll(rng, position))
        assert len(set(plays)) == len(plays), "plays must be distinct"
        assert len({play.after for play in plays}) == len(plays)
        if not plays:
            position = position.pass_turn()
            continue
        play = rng.choice(plays)
        check_play(play)
        position = play.after
    raise AssertionError(f"{variant} game did not end in {MAX_TURNS} turns: {position.text()}")


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_invariants_and_end_with_a_valid_result(variant: str, seed: int) -> None:
    final, _ = play_random_game(variant, seed)
    outcome = final.outcome()
    assert outcome is not None
    levels = final.rules.levels
    if outcome.winner is None:
        assert variant == "plakoto" and outcome.rule == "PK-9"
    else:
        assert outcome.level in levels
        loser = outcome.winner.other
        if outcome.rule == "BF-13":
            assert final.borne_off(outcome.winner) == CHECKERS
            assert (outcome.level == 1) == (final.borne_off(loser) > 0)


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), moves=st.integers(0, 120))
def test_text_form_round_trips(variant: str, seed: int, moves: int) -> None:
    """Canonical text → parse → the same value, equal hash, same text (GEN positions)."""
    rng = random.Random(seed)
    position = Position.start(variant)
    for _ in range(moves):
        if position.outcome() is not None:
            break
        plays = position.legal_plays(roll(rng, position))
        position = rng.choice(plays).after if plays else position.pass_turn()
    again = Position.from_text(variant, position.text())
    assert again == position
    assert hash(again) == hash(position)
    assert again.text() == position.text()
    assert Position.from_text(variant, f"  {position.text()}  ") == position


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), moves=st.integers(0, 80))
def test_gnubg_position_id_round_trips(seed: int, moves: int) -> None:
    rng = random.Random(seed)
    position = Position.start("backgammon", turn=rng.choice(list(Side)))
    for _ in range(moves):
        if position.outcome() is not None:
            break
        plays = position.legal_plays(roll(rng, position))
        position = rng.choice(plays).after if plays else position.pass_turn()
    assert Position.from_id(position.id(), "backgammon", position.turn) == position
