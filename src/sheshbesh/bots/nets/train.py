"""Self-play TD(λ) training, deterministic for a seed.

The net plays both sides greedily (ε = 0: the dice explore), straight on
:class:`Position` values rather than through the play layer, which would cost
more than the learning. After every play, and after a roll that cannot be played,
the value of the previous position moves towards the value of the new one, or
towards the game's outcome at the end.

Every ``checkpoint`` games the net plays ``checkpoint_games`` games against the
expectimax bot through :mod:`sheshbesh.bots.arena`, on seeds from
:data:`CHECKPOINT_SEEDS` (training's own dice come from ``random.Random(seed)``,
so no arena seed is ever a training game; ``bench/bots.py`` uses 1, 2, 3 …).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.moves import Play

from .encode import encode, view_of, views_after
from .net import Learner, Net

if TYPE_CHECKING:
    from sheshbesh.bots.base import Bot

MAX_PLIES = 3000
"""A self-play game this long is dropped unfinished (none came near it; a guard only)."""
CHECKPOINT_SEEDS = 7_000_000
"""First arena seed of the checkpoint games (seeds never used by the bench)."""


@dataclass(frozen=True)
class Schedule:
    """How fast to learn: α from ``alpha`` halving every ``half_life`` games, down to ``floor``."""

    alpha: float = 0.1
    half_life: int = 20_000
    floor: float = 0.01
    lam: float = 0.7

    def at(self, games: int) -> float:
        return float(max(self.floor, self.alpha * 0.5 ** (games / self.half_life)))


def roll(rng: random.Random, position: Position, opening: bool) -> tuple[int, int]:
    """Dice for the side to move: the owed complement (RB-8), no double on an opening
    roll of the U games (BF-14) or on a Russian backgammon first turn (RB-8)."""
    if position.owed:
        return position.owed, position.owed
    while True:
        dice = rng.randint(1, 6), rng.randint(1, 6)
        if dice[0] != dice[1]:
            return dice
        if opening and position.rules.opening == "U":
            continue
        if position.rules.doubles_chain and position.is_first_turn():
            continue
        return dice


@dataclass(frozen=True, slots=True)
class Choice:
    """What :func:`best_play` saw of every candidate, so nothing is worked out twice."""

    index: int
    """The candidate with the best 0-ply equity for the mover."""
    equity: np.ndarray
    inputs: np.ndarray
    """Every candidate's inputs (the learner reuses the chosen one's)."""
    over: np.ndarray
    """Which candidates end the game …"""
    exact: np.ndarray
    """… and their outcomes, for whoever moves next."""


def best_play(net: Net, position: Position, plays: tuple[Play, ...], weights: np.ndarray) -> Choice:
    """The play with the best 0-ply equity for the mover, and every play's equity."""
    views, keeps = views_after(position, plays)
    x = encode(views, net.rules)
    _, outputs = net.forward(x)
    done, exact = net.exact(views)
    if done.any():
        outputs[done] = exact[done]
    equity = net.equity(outputs, weights)
    if not keeps:
        equity = -equity
    return Choice(int(np.argmax(equity)), equity, x, done, exact)


@dataclass
class Checkpoint:
    games: int
    seconds: float
    score: float
    """Share of checkpoint games the net won (draws count half)."""
    points: float
    """Points per game for the net."""


def train(
    net: Net,
    games: int,
    seed: int,
    *,
    schedule: Schedule = Schedule(),
    checkpoint: int = 1000,
    checkpoint_games: int = 200,
    opponent: str = "expectimax:medium",
    log: Callable[[str], None] = print,
    save: Callable[[Net], None] | None = None,
    complement: bool = False,
) -> list[Checkpoint]:
    """Play ``games`` self-play games from ``seed`` and learn from each; ``log`` gets a
    line every ``checkpoint`` games (and a checkpoint score when ``checkpoint_games``).
    Its ``seconds`` (wall) and ``cpu`` are self-play only, without the checkpoint
    games. ``save`` gets the net at each checkpoint: a run stopped later leaves the
    weights that a run of that many games makes (the dice and α depend on the games
    played, never on ``games``). ``complement`` (RB-8) has self-play choose a double's
    first four moves by the complement after them, as the 0-ply bot plays them."""
    rng = random.Random(seed)
    learner = Learner(net, schedule.lam)
    weights = net.level_weights()
    learning = cpu = 0.0
    scores: list[Checkpoint] = []
    chooser = complement_chooser() if complement else None
    for _ in range(games):
        began, began_cpu = time.perf_counter(), time.process_time()
        self_play(net, learner, rng, weights, schedule.at(net.games), chooser)
        learning += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        net.games += 1
        if checkpoint and net.games % checkpoint == 0:
            seconds = learning
            line = f"games {net.games} seconds {seconds:.0f} cpu {cpu:.0f}"
            line += f" alpha {schedule.at(net.games):.4f}"
            if save is not None:
                save(net)
            if checkpoint_games:
                score, points = strength(net, opponent, checkpoint_games)
                scores.append(Checkpoint(net.games, seconds, score, points))
                line += f" vs {opponent}: score {score:.3f} points {points:+.3f}"
                line += f" ({checkpoint_games} games)"
            log(line)
    return scores


Chooser = Callable[[Net, tuple[Play, ...], Choice, np.ndarray], int]
"""Which play self-play makes, given what :func:`best_play` saw."""


def complement_chooser() -> Chooser:
    """RB-8: a double's first four moves by the best complement after them (the 0-ply
    bot's :func:`~.bot.through_complement`), every other play by the net alone."""
    from .bot import leaves_complement, through_complement

    def choose(net: Net, plays: tuple[Play, ...], choice: Choice, weights: np.ndarray) -> int:
        if leaves_complement(plays):
            return through_complement(net, plays, choice.equity, weights)
        return choice.index

    return choose


def self_play(
    net: Net,
    learner: Learner,
    rng: random.Random,
    weights: np.ndarray,
    alpha: float,
    chooser: Chooser | None = None,
) -> None:
    """One game of the net against itself, learning after every new position."""
    position = Position.start(net.rules, Side.WHITE)
    learner.start()
    learner.observe(encode(view_of(position)[None, :], net.rules)[0], True)
    opening = True
    for _ in range(MAX_PLIES):
        dice = roll(rng, position, opening)
        opening = False
        plays = position.legal_plays(dice)
        if not plays:
            position = position.pass_turn()
            x = encode(view_of(position)[None, :], net.rules)[0]
            _, outputs = net.forward(x[None, :])
            learner.learn(outputs[0], position.turn is Side.WHITE, alpha)
            learner.observe(x, position.turn is Side.WHITE)
            continue
        choice = best_play(net, position, plays, weights)
        index = choice.index if chooser is None else chooser(net, plays, choice, weights)
        position = plays[index].after
        white = position.turn is Side.WHITE
        if choice.over[index]:
            learner.learn(choice.exact[index], white, alpha)
            return
        x = choice.inputs[index]
        _, outputs = net.forward(x[None, :])
        learner.learn(outputs[0], white, alpha)
        learner.observe(x, white)


def duel(
    variant: str,
    mine: Callable[[int], Bot],
    theirs: Callable[[int], Bot],
    games: int,
    first_seed: int,
) -> list[tuple[float, int]]:
    """Each game's score (1, ½ for a draw, 0) and points for the bot ``mine`` makes,
    against the one ``theirs`` makes (both given the game's arena seed), colours
    alternating, on arena seeds from ``first_seed``."""
    from sheshbesh.bots.arena import play_bout

    results = []
    for game in range(games):
        seed = first_seed + game
        flip = game % 2 == 1
        bots = (theirs(seed), mine(seed)) if flip else (mine(seed), theirs(seed))
        bout = play_bout(bots, variant, seed=seed)
        me = 1 if flip else 0
        if bout.winner is None:
            results.append((0.5, 0))
        elif bout.winner == me:
            results.append((1.0, bout.points))
        else:
            results.append((0.0, -bout.points))
    return results


def strength(net: Net, opponent: str, games: int) -> tuple[float, float]:
    """Score and points per game of ``net`` at 0-ply against ``opponent``, colours
    alternating, on arena seeds from :data:`CHECKPOINT_SEEDS`."""
    from sheshbesh.bots.registry import make_bot

    from .bot import NetBot

    results = duel(
        net.variant,
        lambda seed: NetBot("hard", seed=seed, nets={net.variant: net}),
        lambda seed: make_bot(opponent, seed=seed + 1),
        games,
        CHECKPOINT_SEEDS,
    )
    return sum(r[0] for r in results) / games, sum(r[1] for r in results) / games


__all__ = [
    "CHECKPOINT_SEEDS", "Checkpoint", "Choice", "Chooser", "Schedule", "best_play",
    "complement_chooser", "duel", "roll", "train",
]  # fmt: skip
