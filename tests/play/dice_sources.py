"""Factories for game-flow tests: dice that come from a list or a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Iterable

from sheshbesh.play.actions import Rolled


class ListDice:
    """A dice source that hands out the rolls it was given, in order."""

    def __init__(self, rolls: Iterable[tuple[int, ...]]):
        self.rolls = list(rolls)

    def roll(self, nonce: str | None, count: int) -> Rolled:
        if not self.rolls:
            raise AssertionError("the test ran out of dice")
        dice = self.rolls.pop(0)
        assert len(dice) == count
        return Rolled(tuple(dice))


class SeededDice:
    """Random dice from a seeded generator (tests only)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def roll(self, nonce: str | None, count: int) -> Rolled:
        return Rolled(tuple(self.rng.randint(1, 6) for _ in range(count)))
