"""One clock for every table: the clock after an action, for race games, matches and draughts.

The game never reads time (docs/decisions.md, "Clocks beside the game"); a
:class:`~sheshbesh.play.clock.Clock` stays beside it, and this module keeps the
two in step. It owns one rule, :func:`clock_after`, which every kind of table
uses (a money game, a match, a draughts game, and the server's rounds), and the
three calls built on it: :func:`start_clock`, :func:`flag_fall` and
:func:`on_clock`. One rule, so that no kind of table times a turn differently
from another (there were three copies, and they had drifted). Time itself
(delay, increment, when a flag falls) belongs to :mod:`sheshbesh.play.clock`;
what a timeout costs belongs to the game (PL-7).

The clock runs for whoever the game waits for (``to_act``, PL-6). After each action:

- the game is over, or waits for nobody (a match between games, until the
  server's opening roll): the clock stops;
- a clock that is not running (made and not yet run, or stopped between the
  games of a match) starts for the side to act, with a full delay;
- a match's next game began in the same action (the server plays its opening
  roll at once): its first turn starts with a full delay and no turn held, as
  if the clock had stopped between the games (the last turn is charged without
  increment, as a stop charges it);
- the same side is still to act (a step, an undo, a draw answered by the side
  not to move): nothing changes;
- a turn ended (``played``, ``passed``): the clock is pressed, so the mover is
  charged and earns his increment and the other side's turn starts with a full
  delay (if the clock was running for someone other than the mover, so that the
  press lands on the wrong side, the side to act's turn is started instead);
- an offer (a double, a beaver, a resignation) leaves the game waiting for the
  other side in the middle of a turn: the clock is interrupted, so the answerer's
  clock runs with a delay of its own and the turn's delay left is held (PL-6);
- the game waits again for the side whose turn is held, and no offer was made
  (a take, a beaver taken, a resignation declined): the held turn goes on with
  the delay it had left when the offer came, never a fresh one (PL-6);
- the game waits for another side for any other reason: that side's turn starts
  with a full delay.

A fallen flag comes before the action: the action is dropped and the running
side's ``Timeout`` is applied instead, which forfeits (PL-7).

>>> from sheshbesh.games.race import Side
>>> from sheshbesh.play.actions import PlayText, Rolled, Start
>>> from sheshbesh.play.clock import TimeControl
>>> from sheshbesh.play.race import RaceGame
>>> class Dice:
...     def roll(self, nonce, count):
...         return Rolled((3, 1))
>>> game, _ = RaceGame.create("backgammon")
>>> game = game.apply(Start(), Dice()).game
>>> clock = start_clock(game, TimeControl.parse("delay 12s + 1m"), now=0.0)
>>> done = on_clock(game, clock, PlayText(Side.WHITE, "8/5 6/5"), Dice(), now=20.0)
>>> done.clock.remaining(0, now=20.0), done.clock.running
(52.0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sheshbesh.games.race import Side

from .actions import DiceSource, Timeout
from .clock import Clock, ClockError, TimeControl

__all__ = ["OFFERS", "TURN_ENDS", "Clocked", "clock_after", "flag_fall", "on_clock", "start_clock"]

TURN_ENDS = ("played", "passed")
"""Events that end a turn, and so press the clock."""
OFFERS = ("doubled", "beavered", "resign_offered")
"""Events that make the other side answer in the middle of a turn, on his own clock (PL-6)."""
NEXT_GAME = "game_started"
"""A match's next game began: nothing of the last game's turns carries over (PL-6)."""


class Turns(Protocol):
    """What the clock reads of a game (or a server table): who it waits for, and the end."""

    @property
    def to_act(self) -> Side | None: ...

    @property
    def finished(self) -> bool: ...


class Stepped(Protocol):
    """What an action returns: the game after it and the events that led there."""

    @property
    def after(self) -> Turns: ...

    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...


S = TypeVar("S", bound=Stepped)
S_co = TypeVar("S_co", bound=Stepped, covariant=True)


class Playable(Turns, Protocol[S_co]):
    """A game value: :class:`RaceGame`, :class:`Match` (``apply(action, dice)``) or
    :class:`DraughtsGame` (``apply(action)``, no dice)."""

    @property
    def apply(self) -> Callable[..., S_co]: ...


@dataclass(frozen=True, slots=True)
class Clocked(Generic[S]):
    """A step together with the clock after it.

    ``flag_fell`` says the running side's time ran out before the action, so the
    step is that side's ``Timeout`` (PL-7) and the action itself was not applied.
    """

    step: S
    clock: Clock
    flag_fell: bool = False


def clock_after(
    clock: Clock, before: Side | None, after: Turns, events: Iterable[Mapping[str, Any]], now: float
) -> Clock:
    """The clock after an action at ``now``, by the rule in the module text.

    ``before`` is the side the game waited for before the action, ``after`` the
    game (or table) after it, ``events`` everything the action wrote. Pure: the
    clock is a value, so a clock event that cannot happen (a press after the flag
    fell) raises and changes nothing.

    >>> from sheshbesh.play.draughts import DraughtsGame, MoveAction
    >>> game, _ = DraughtsGame.create()
    >>> clock = Clock.start(TimeControl.parse("fischer 1m + 2s")).run(0, now=0.0)
    >>> step = game.apply(MoveAction(Side.WHITE, "32-28"))
    >>> after = clock_after(clock, game.to_act, step.game, step.events, now=5.0)
    >>> after.remaining(0, now=5.0), after.running
    (57.0, 1)
    """
    to_act = after.to_act
    if after.finished or to_act is None:
        return clock.pause(now) if clock.ticking else clock
    if not clock.ticking:
        return clock.run(int(to_act), now)
    kinds = {event["type"] for event in events}
    if NEXT_GAME in kinds:
        return clock.run(int(to_act), now)
    offered = not kinds.isdisjoint(OFFERS)
    if offered and to_act is not before:
        return clock.interrupt(int(to_act), now)
    if clock.held is not None and clock.held[0] == int(to_act) and not offered:
        return clock.give_back(now)
    if to_act is before:
        return clock
    if not kinds.isdisjoint(TURN_ENDS):
        clock = clock.press(now)
        return clock if clock.running == int(to_act) else clock.run(int(to_act), now)
    return clock.run(int(to_act), now)


def start_clock(game: Turns, control: TimeControl, now: float) -> Clock:
    """A full clock for ``control`` running for the side the game waits for.

    >>> from sheshbesh.play.draughts import DraughtsGame
    >>> game, _ = DraughtsGame.create()
    >>> start_clock(game, TimeControl.parse("fischer 5m + 3s"), now=0.0).running
    0
    """
    if game.to_act is None:
        if game.finished:
            raise ClockError("the game is over; there is no side to run a clock for")
        raise ClockError("start the game (the opening roll) before its clock")
    return Clock.start(control).run(int(game.to_act), now)


def flag_fall(game: Playable[S], clock: Clock, now: float) -> Clocked[S] | None:
    """If the running side's flag has fallen at ``now``, its ``Timeout`` (PL-7); else ``None``.

    The server calls this when ``clock.time_to_flag`` says the flag is due.
    """
    flagged = clock.flagged(now)
    if flagged is None or game.finished:
        return None
    step = game.apply(Timeout(Side(flagged)))
    after = clock_after(clock, game.to_act, step.after, step.events, now)
    return Clocked(step, after, flag_fell=True)


def on_clock(
    game: Playable[S],
    clock: Clock,
    action: Any,
    dice: DiceSource | None = None,
    *,
    now: float,
) -> Clocked[S]:
    """Apply ``action`` at ``now`` (with ``dice``, for the games that roll) and move the clock.

    A fallen flag comes first (:func:`flag_fall`); then the game applies the
    action and :func:`clock_after` moves the clock. The clock must be running for
    the side the game waits for, if both are known. An illegal action raises and
    changes neither.

    >>> from sheshbesh.play.draughts import DraughtsGame, MoveAction
    >>> game, _ = DraughtsGame.create()
    >>> clock = start_clock(game, TimeControl.parse("fischer 1m + 2s"), now=0.0)
    >>> done = on_clock(game, clock, MoveAction(Side.WHITE, "32-28"), now=5.0)
    >>> done.clock.remaining(0, now=5.0), done.clock.running
    (57.0, 1)
    >>> on_clock(done.step.game, done.clock, MoveAction(Side.BLACK, "19-23"), now=65.0).flag_fell
    True
    """
    before = game.to_act
    if before is not None and clock.running is not None and clock.running != int(before):
        raise ClockError(f"the clock runs for side {clock.running}, but {before.name} is to move")
    fallen = flag_fall(game, clock, now)
    if fallen is not None:
        return fallen
    step = game.apply(action) if dice is None else game.apply(action, dice)
    return Clocked(step, clock_after(clock, before, step.after, step.events, now))
