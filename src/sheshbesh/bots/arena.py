"""Bot against bot at the play layer, without a server: for tests and ``bench/bots.py``.

A game here goes through the same ``apply`` as on the server, so an illegal
action from a bot fails loudly instead of being skipped.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play.draughts import DraughtsGame, DraughtsOptions
from sheshbesh.play.match import Match
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import RaceGame

from .base import Bot, GameState


class RandomDice:
    """Dice from a seeded generator: arena games are reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def roll(self, nonce: str | None, count: int) -> act.Rolled:
        return act.Rolled(tuple(self.rng.randint(1, 6) for _ in range(count)))


@dataclass
class Bout:
    """How one game or match ended, seen from ``Side.WHITE``'s bot (``bots[0]``)."""

    winner: int | None
    """Index into ``bots`` of the winner; None for a draw."""
    points: int
    """Points won by the winner (cube × level in money play, 1 in a match or draughts)."""
    actions: int
    think: list[list[float]] = field(default_factory=lambda: [[], []])
    """Seconds each bot spent per decision."""


def new_game(
    variant: str, *, cube: bool = False, match_length: int = 0, seed: int | None = None
) -> GameState:
    """A started game or match of ``variant`` (draughts: the FMJD start)."""
    if variant == "draughts":
        game, _ = DraughtsGame.create(DraughtsOptions())
        return game
    if match_length:
        match, _ = Match.create(variant, match_length)
        return match.apply(act.Start(), RandomDice(seed)).match
    options = RaceOptions.defaults(variant, cube=cube) if cube else RaceOptions.defaults(variant)
    race, _ = RaceGame.create(variant, options)
    return race.apply(act.Start(), RandomDice(seed)).game


def play_bout(
    bots: tuple[Bot, Bot],
    variant: str,
    *,
    seed: int | None = None,
    budget: float | None = None,
    cube: bool = False,
    match_length: int = 0,
    max_actions: int = 5000,
    start: GameState | None = None,
) -> Bout:
    """Play one game (or match) of ``bots[0]`` (the side the opening gives White) vs ``bots[1]``.

    Seats follow colour: for nardy the opening winner takes White, so seat 0
    is whoever ends up with White; a bout counts per bot either way. ``start``
    is a game already under way (a bench's varied openings) instead of a new one.
    """
    dice = RandomDice(seed)
    state = start or new_game(variant, cube=cube, match_length=match_length, seed=seed)
    think: list[list[float]] = [[], []]
    for count in range(max_actions):
        if state.finished:
            return _bout(state, count, think)
        if isinstance(state, Match) and state.to_act is None:
            state = state.apply(act.Start(), dice).match  # the server rolls each opening
            continue
        side = _acting(state)
        bot = bots[side]
        started = time.perf_counter()
        action = bot.choose(state, side, budget=budget)
        think[side].append(time.perf_counter() - started)
        if isinstance(state, DraughtsGame):
            state = state.apply(action).game  # type: ignore[arg-type]
        elif isinstance(state, Match):
            state = state.apply(action, dice).match  # type: ignore[arg-type]
        else:
            state = state.apply(action, dice).game  # type: ignore[arg-type]
    raise RuntimeError(f"{variant}: no result after {max_actions} actions")


def _acting(state: GameState) -> Side:
    if isinstance(state, DraughtsGame) and state.draw_offer is not None:
        return state.draw_offer.other
    side = state.to_act
    if side is None:
        raise RuntimeError("the game waits for the server")
    return side


def _bout(state: GameState, count: int, think: list[list[float]]) -> Bout:
    if isinstance(state, Match):
        assert state.result is not None
        return Bout(int(state.result.winner), 1, count, think)
    result = state.result
    assert result is not None
    if result.winner is None:
        return Bout(None, 0, count, think)
    return Bout(int(result.winner), result.points, count, think)
