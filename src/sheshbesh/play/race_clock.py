"""Keeping a race game's clock in step with the game (PL-6, PL-7).

The clock runs for whoever the game waits for (:attr:`RaceGame.to_act`). When a
player ends his turn (a play, a pass) the clock is pressed; when the game waits
for the other side in the middle of a turn (a double to answer, a resignation
offer) that side's clock runs with its own delay, and the mover's clock runs
again, with a fresh delay, when the answer comes, as backgammon servers time
cube decisions. A fallen flag is the running side's ``Timeout``: he forfeits at
the level the position gives (PL-7). The end of the game stops the clock.

>>> from sheshbesh.play.actions import Start, Double
>>> from sheshbesh.play.clock import TimeControl
>>> from sheshbesh.play.options import RaceOptions
>>> class Dice:
...     def roll(self, nonce, count):
...         return Rolled((3, 1))
>>> game, _ = RaceGame.create("backgammon", RaceOptions(cube=True))
>>> game = game.apply(Start(), Dice()).game
>>> clock = start_clock(game, TimeControl.parse("delay 12s + 1m"), now=0.0)
>>> done = on_clock(game, clock, PlayText(Side.WHITE, "8/5 6/5"), Dice(), now=20.0)
>>> done.clock.remaining(0, now=20.0), done.clock.running
(52.0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from sheshbesh.games.race import Side

from .actions import Action, DiceSource, PlayText, Rolled, Timeout
from .clock import Clock, ClockError, TimeControl
from .race import RaceGame, Step

__all__ = ["Clocked", "PlayText", "Rolled", "flag_fall", "on_clock", "start_clock"]

TURN_ENDS = ("played", "passed")


@dataclass(frozen=True, slots=True)
class Clocked:
    """A step with the clock after it; ``flag_fell``: the action was a timeout instead."""

    step: Step
    clock: Clock
    flag_fell: bool = False


def start_clock(game: RaceGame, control: TimeControl, now: float) -> Clock:
    """A full clock running for the side the started game waits for."""
    if game.to_act is None:
        raise ClockError("start the game (the opening roll) before its clock")
    return Clock.start(control).run(int(game.to_act), now)


def flag_fall(game: RaceGame, clock: Clock, now: float) -> Clocked | None:
    """The running side's forfeit if its flag has fallen at ``now``, else None."""
    flagged = clock.flagged(now)
    if flagged is None or game.finished:
        return None
    step = game.apply(Timeout(Side(flagged)))
    return Clocked(step, clock.pause(now), flag_fell=True)


def on_clock(
    game: RaceGame, clock: Clock, action: Action, dice: DiceSource | None, now: float
) -> Clocked:
    """Apply ``action`` at ``now`` and move the clock with the game (see the module text)."""
    actor = game.to_act
    if actor is not None and clock.running is not None and clock.running != int(actor):
        raise ClockError(f"the clock runs for side {clock.running}, but {actor.name} acts")
    fallen = flag_fall(game, clock, now)
    if fallen is not None:
        return fallen
    step = game.apply(action, dice)
    after = step.game
    if after.finished:
        return Clocked(step, clock.pause(now) if clock.ticking else clock)
    next_actor = after.to_act
    if next_actor is None or next_actor is actor:
        return Clocked(step, clock)
    if any(event["type"] in TURN_ENDS for event in step.events):
        return Clocked(step, clock.press(now))
    return Clocked(step, clock.run(int(next_actor), now))
