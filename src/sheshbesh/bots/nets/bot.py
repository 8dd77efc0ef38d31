"""The trained nets as a bot: 0-ply ("hard") and 1-ply ("expert") for the five games
without an engine.

0-ply plays the candidate the net values best. 1-ply takes the :data:`WIDTH` best
0-ply candidates and values each by the opponent's best 0-ply reply averaged over
his 21 rolls (the rolls :func:`~sheshbesh.bots.expectimax.rolls_for` says, so RB-8's
first-turn rerolls count), within the budget like expectimax. A Russian backgammon
double's first four moves are valued a roll beyond the complement that follows them
in the same turn (RB-8): the roll after a play, not the play's own second half.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.moves import Play
from sheshbesh.play.race import RaceGame

from ..base import CannotPlay, MatchContext, RaceBot
from ..expectimax import OWN_VARIANTS, level_values, rolls_for
from .net import Net
from .train import best_play


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    plies: int
    budget: float


LEVELS = {level.name: level for level in (Level("hard", 0, 0.5), Level("expert", 1, 1.0))}
WIDTH = 8
"""Candidates the 1-ply level looks a roll further at."""


@cache
def shipped(variant: str) -> Net:
    """The weights that ship in the package (``bots/nets/weights/VARIANT.npz``)."""
    source = resources.files("sheshbesh.bots.nets").joinpath("weights", f"{variant}.npz")
    if not source.is_file():
        raise CannotPlay(f"no trained net for {variant}")
    with source.open("rb") as stream:
        return Net.load(stream)


class NetBot(RaceBot):
    """A trained net at one of :data:`LEVELS`; ``nets`` overrides the shipped weights."""

    def __init__(
        self,
        level: str = "hard",
        *,
        seed: int | None = None,
        nets: dict[str, Net] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(seed=seed)
        if level not in LEVELS:
            raise CannotPlay(f"net has no level {level!r} (known: {', '.join(LEVELS)})")
        self.level = LEVELS[level]
        self.name = f"net:{level}"
        self.nets = nets
        self.variants = frozenset(nets) if nets else OWN_VARIANTS
        self.clock = clock

    def net(self, variant: str) -> Net:
        if self.nets is not None:
            return self.nets[variant]
        return shipped(variant)

    def choose_play(
        self,
        game: RaceGame,
        plays: tuple[Play, ...],
        context: MatchContext,
        budget: float | None,
    ) -> Play:
        net = self.net(game.rules.name)
        weights = net.level_weights(level_values(game))
        choice = best_play(net, game.position, plays, weights)
        index, equity = choice.index, choice.equity
        if self.level.plies == 0:
            if leaves_complement(plays):
                return plays[through_complement(net, plays, equity, weights)]
            return plays[index]
        limit = self.level.budget if budget is None else min(budget, self.level.budget)
        deadline = self.clock() + limit
        order = leaders(equity)
        best, best_value = plays[index], -np.inf
        for rank, candidate in enumerate(order):
            if rank >= 2 and self.clock() > deadline:
                break
            value = one_ply(net, plays[candidate].after, game.position.turn, weights)
            if value > best_value:
                best, best_value = plays[candidate], value
        return best

    def accepts_resignation(self, game: RaceGame, side: Side, level: int) -> bool:
        """Accept when the offer is worth at least the net's equity of playing on."""
        net = self.net(game.rules.name)
        values = level_values(game)
        outputs = outputs_of(net, game.position)
        equity = float(net.equity(outputs, net.level_weights(values))[0])
        if game.position.turn is not side:
            equity = -equity
        offered = 1.0 + (values[0] if level >= 2 else 0.0) + (values[1] if level >= 3 else 0.0)
        return offered >= equity


def leaders(equity: np.ndarray) -> list[int]:
    """The :data:`WIDTH` plays the net values best, best first (ties in the move
    generator's order): the ones a deeper look is spent on."""
    return [int(i) for i in np.argsort(-equity, kind="stable")[:WIDTH]]


def leaves_complement(plays: tuple[Play, ...]) -> bool:
    """Whether these plays are a double's first four moves, its complement owed (RB-8)."""
    return bool(plays[0].after.owed) and plays[0].after.turn is plays[0].before.turn


def through_complement(net: Net, plays: tuple[Play, ...], equity: np.ndarray,
                       weights: np.ndarray) -> int:  # fmt: skip
    """RB-8: the four moves of a double, each of the :data:`WIDTH` best read on their
    own, valued by the best four moves of the complement that follow in the same
    turn (no dice are rolled between them, so this is still 0-ply). The net alone
    reads a position with a complement owed less well than the positions after it
    (docs/decisions.md)."""
    values = leaders_through_complement(net, plays, equity, weights)
    return max(values, key=values.__getitem__)  # the first of equals, as leaders() ranks them


def leaders_through_complement(net: Net, plays: tuple[Play, ...], equity: np.ndarray,
                               weights: np.ndarray) -> dict[int, float]:  # fmt: skip
    """RB-8: the :func:`leaders` among a double's first parts, best first, each valued by
    the best complement after it: what the 0-ply bot chooses by and the review judges by."""
    return complement_values(net, plays, leaders(equity), equity, weights)


def complement_values(net: Net, plays: tuple[Play, ...], judged: list[int],
                      equity: np.ndarray, weights: np.ndarray) -> dict[int, float]:  # fmt: skip
    """Equity for the mover of each judged first part of a double: the best complement
    play after it; a first part that ends the game keeps its exact ``equity``."""
    mover = plays[0].before.turn
    values = {}
    for candidate in judged:
        after = plays[candidate].after
        if after.outcome() is not None:  # the double bore off the last checker
            values[candidate] = float(equity[candidate])
        elif owed := after.legal_plays((after.owed, after.owed)):
            values[candidate] = float(best_play(net, after, owed, weights).equity.max())
        else:
            passed = after.pass_turn()
            value = float(net.equity(outputs_of(net, passed), weights)[0])
            values[candidate] = value if passed.turn is mover else -value
    return values


def one_ply(net: Net, position: Position, me: Side, weights: np.ndarray) -> float:
    """Equity for ``me`` of ``position``, its mover's best 0-ply reply to each roll.

    A complement still owed (RB-8) is no roll: the mover plays his best 0-ply
    complement first, and the roll looked at is the one after it. A double's first
    four moves are so valued a roll beyond their complement, as every other play
    is valued a roll beyond itself."""
    done, exact = net.exact(_view(position))
    if done[0]:
        value = float(net.equity(exact, weights)[0])
        return value if position.turn is me else -value
    if position.owed and (owed := position.legal_plays((position.owed, position.owed))):
        complement = owed[best_play(net, position, owed, weights).index]
        return one_ply(net, complement.after, me, weights)
    total = 0.0
    for dice, chance in rolls_for(position):
        plays = position.legal_plays(dice)
        if not plays:
            after = position.pass_turn()
            outputs = outputs_of(net, after)
            value = float(net.equity(outputs, weights)[0])
            total += chance * (value if after.turn is me else -value)
            continue
        best = float(best_play(net, position, plays, weights).equity.max())
        total += chance * (best if position.turn is me else -best)
    return total


def _view(position: Position) -> np.ndarray:
    from .encode import view_of

    return view_of(position)[None, :]


def outputs_of(net: Net, position: Position) -> np.ndarray:
    """Outputs of ``position`` for its side to move (exact if the game is over)."""
    from .encode import encode

    views = _view(position)
    done, exact = net.exact(views)
    if done[0]:
        return exact
    return net.forward(encode(views, net.rules))[1]


__all__ = [
    "LEVELS", "NetBot", "complement_values", "leaders", "leaders_through_complement",
    "leaves_complement", "one_ply",
    "outputs_of", "shipped", "through_complement",
]  # fmt: skip
