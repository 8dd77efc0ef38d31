"""BF-10: a turn entered step by step reaches exactly the legal plays, and nothing else."""

from __future__ import annotations

import random

import pytest

from sheshbesh.games.errors import IllegalPlay
from sheshbesh.games.race import RACE_VARIANTS, Play, Position, Side
from sheshbesh.games.race.turn import Turn


def walk(turn: Turn) -> set[Play]:
    """Every play reachable by entering legal steps one at a time."""
    if not turn.plays:
        assert turn.complete and turn.legal_steps() == ()
        return set()
    if turn.complete:
        return {turn.play()}
    reached: set[Play] = set()
    for step in turn.legal_steps():
        reached |= walk(turn.step(step.src, step.dst, step.die))
    assert turn.legal_steps(), "an incomplete turn always has a next step"
    return reached


def sample(variant: str, seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    cases = []
    position = Position.start(variant, turn=rng.choice(list(Side)))
    while len(cases) < count:
        if position.outcome() is not None:
            position = Position.start(variant)
        dice = (position.owed, position.owed) if position.owed else (rng.randint(1, 6),) * 2
        if rng.random() < 0.7 and not position.owed:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        if position.rules.doubles_chain and dice[0] == dice[1] and position.is_first_turn():
            dice = (1, 2)
        cases.append((position, dice))
        plays = position.legal_plays(dice)
        position = rng.choice(plays).after if plays else position.pass_turn()
    return cases


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
def test_bf_10_stepwise_entry_reaches_exactly_the_legal_plays(variant: str) -> None:
    for position, dice in sample(variant, seed=len(variant), count=40):
        turn = Turn.begin(position, dice)
        assert walk(turn) == set(turn.plays), (position.text(), dice)


def test_bf_10_a_step_that_starts_no_kept_sequence_is_refused() -> None:
    """BG-E3: 10/5 would leave the 6 unplayable while 10/4 uses the larger die."""
    position = Position.from_own(
        "backgammon", white={20: 1, 10: 1, 1: 13}, black={10: 2, 11: 2, 1: 11}
    )
    turn = Turn.begin(position, (6, 5))
    with pytest.raises(IllegalPlay, match="legal steps: 10/4"):
        turn.step(10, 5)
    assert turn.step(10, 4).complete


def test_bf_10_undo_and_confirm_only_when_complete() -> None:
    turn = Turn.begin(Position.start("backgammon"), (3, 1))
    with pytest.raises(IllegalPlay, match="no step to undo"):
        turn.undo()
    half = turn.step(8, 5)
    with pytest.raises(IllegalPlay, match="not complete: 1 of 2"):
        half.play()
    assert half.undo() == turn
    assert half.step(6, 5).play() == Position.start("backgammon").play((3, 1), "8/5 6/5")
    with pytest.raises(IllegalPlay):
        half.step(6, 5).step(24, 23)


def test_no_play_means_an_empty_complete_turn() -> None:
    """BG-E4: the bar checker cannot enter; the turn is complete at once (it passes)."""
    position = Position.from_own(
        "backgammon", white={"bar": 1, 13: 14}, black={6: 2, 5: 2, 3: 2, 1: 9}
    )
    turn = Turn.begin(position, (6, 3))
    assert turn.used == 0 and turn.complete and turn.legal_steps() == ()
