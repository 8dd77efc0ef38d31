"""Factories for the rule tests: the legal plays of a roll as texts or as results.

Plays are compared by their resulting positions (BF-9: a play *is* its result),
because RULES.md writes ``13/8/5`` where our formatter writes ``13/5``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.race import Position

Dice = tuple[int, int]


@pytest.fixture
def notations() -> Callable[[Position, Dice], set[str]]:
    """``notations(position, dice)``: the gnubg-style texts of every legal play."""

    def texts(position: Position, dice: Dice) -> set[str]:
        return {play.notation() for play in position.legal_plays(dice)}

    return texts


@pytest.fixture
def results() -> Callable[[Position, Dice], set[Position]]:
    """``results(position, dice)``: the resulting positions of every legal play."""

    def afters(position: Position, dice: Dice) -> set[Position]:
        return {play.after for play in position.legal_plays(dice)}

    return afters


@pytest.fixture
def results_of() -> Callable[..., set[Position]]:
    """``results_of(position, dice, *texts)``: the results of the named plays (each legal)."""

    def afters(position: Position, dice: Dice, *texts: str) -> set[Position]:
        return {position.play(dice, text).after for text in texts}

    return afters
