"""Game clocks for two sides, as values: time is an argument, never read here (PL-6, PL-7).

A :class:`TimeControl` is the request option of PL-6: backgammon's *simple delay*
(each turn the first ``delay`` seconds are free, then the reserve runs) or
draughts' *Fischer increment* (the mover gains ``increment`` seconds when he
completes a move), or no clock at all. A :class:`Clock` is the state of both
sides' time at one moment; every event (``run``, ``press``, ``pause``,
``resume``) and every question (``remaining``, ``flagged``…) takes ``now``, in
seconds from any monotonic origin the caller chooses, and events return a new
clock. So the server, the bots and the tests drive the same code without
sleeping, and a failed event cannot leave a half-changed clock behind.

Only the side whose turn it is can lose time, and its flag falls when the
delay and the reserve are both used up: at that instant, not a moment later, so
``remaining == 0`` *is* a fallen flag (for a control with no reserve, once the
delay is gone too). A press at or after that instant raises :class:`FlagFell`;
the game flow turns it into a timeout (PL-7, BG-20).

Errors::

    ValueError
     ├── InvalidTimeControl   a control that cannot be played (names the field)
     └── ClockError           an event that makes no sense now (time going backwards…)
          └── FlagFell        a press or switch after the running side's time ran out

>>> tc = TimeControl.parse("delay 12s + 5m")
>>> clock = Clock.start(tc).run(0, now=100.0)
>>> clock = clock.press(now=110.0)      # 10 s: all inside White's delay
>>> clock.remaining(0, now=110.0), clock.running
(300.0, 1)
>>> clock.press(now=130.0).remaining(1, now=130.0)  # Black: 12 s free, 8 s from the reserve
292.0
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal, TypeAlias

Kind: TypeAlias = Literal["untimed", "delay", "fischer"]

SIDE_NAMES = ("White", "Black")
MAX_SECONDS = 24 * 3600.0
"""Anything longer is a typo, not a time control: a day per side per game."""


class InvalidTimeControl(ValueError):
    """A time control that cannot be played; ``field`` names the bad part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class ClockError(ValueError):
    """An event the clock cannot take now: time going backwards, a stopped clock…"""


class FlagFell(ClockError):
    """The running side's time ran out before this event; the flow makes it a timeout (PL-7)."""

    def __init__(self, side: int, fell_at: float, now: float) -> None:
        super().__init__(
            f"{SIDE_NAMES[side]}'s flag fell at {fell_at!r}, {now - fell_at!r} s before this event"
        )
        self.side = side
        self.fell_at = fell_at


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time each side has (PL-6); ``str`` and :meth:`parse` are inverses.

    >>> TimeControl("fischer", reserve=300, increment=3)
    TimeControl(kind='fischer', reserve=300.0, delay=0.0, increment=3.0)
    >>> str(TimeControl.parse("fischer 5m + 3s")), str(TimeControl.untimed())
    ('fischer 5m + 3s', 'untimed')
    >>> TimeControl("delay", reserve=-5, delay=12)
    Traceback (most recent call last):
    ...
    sheshbesh.play.clock.InvalidTimeControl: reserve: must not be negative, got -5
    """

    kind: Kind
    reserve: float = 0.0
    delay: float = 0.0
    increment: float = 0.0

    _TEXT: ClassVar[re.Pattern[str]] = re.compile(r"(delay|fischer)\s+(\S+)\s*\+\s*(\S+)")
    _DURATION: ClassVar[re.Pattern[str]] = re.compile(r"(\d+(?:\.\d*)?(?:e[-+]?\d+)?)([hms])")
    _UNIT: ClassVar[dict[str, float]] = {"h": 3600.0, "m": 60.0, "s": 1.0}

    def __post_init__(self) -> None:
        if self.kind not in ("untimed", "delay", "fischer"):
            raise InvalidTimeControl(
                "kind", f"must be delay, fischer or untimed, not {self.kind!r}"
            )
        for name in ("reserve", "delay", "increment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidTimeControl(name, f"must be a number of seconds, not {value!r}")
            if not math.isfinite(value):
                raise InvalidTimeControl(name, f"must be finite, got {value!r}")
            if value < 0:
                raise InvalidTimeControl(name, f"must not be negative, got {value!r}")
            if value > MAX_SECONDS:
                raise InvalidTimeControl(name, f"must be at most 24h, got {value!r} s")
            object.__setattr__(self, name, float(value))
        # Each kind has exactly two numbers, as its text form does.
        unused = {"untimed": ("reserve", "delay", "increment"), "delay": ("increment",)}
        for name in unused.get(self.kind, ("delay",)):
            if getattr(self, name):
                raise InvalidTimeControl(name, f"a {self.kind} control has none")
        if self.kind == "delay" and self.reserve == 0 and self.delay == 0:
            raise InvalidTimeControl("reserve", "0 with no delay would flag every first move")
        if self.kind == "fischer" and self.reserve == 0:
            # The increment is earned by completing a move, so with no reserve the
            # first move could never be completed.
            raise InvalidTimeControl("reserve", "a fischer control needs a reserve above 0")

    @classmethod
    def untimed(cls) -> TimeControl:
        """No clock at all: a game may be played without one (PL-6); it never flags."""
        return cls("untimed")

    @property
    def timed(self) -> bool:
        return self.kind != "untimed"

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``untimed``, ``delay DELAY + RESERVE`` or ``fischer RESERVE + INCREMENT``.

        Durations are a number and a unit: ``12s``, ``5m``, ``1h``, ``0.5s``.

        >>> TimeControl.parse("delay 12s + 5m")
        TimeControl(kind='delay', reserve=300.0, delay=12.0, increment=0.0)
        >>> TimeControl.parse("delay 12 + 5m")
        Traceback (most recent call last):
        ...
        sheshbesh.play.clock.InvalidTimeControl: text: '12' is not a duration like 12s, 5m or 1h
        """
        words = text.strip().lower()
        if words == "untimed":
            return cls.untimed()
        match = cls._TEXT.fullmatch(words)
        if match is None:
            raise InvalidTimeControl(
                "text", f"{text!r} is not 'delay 12s + 5m', 'fischer 5m + 3s' or 'untimed'"
            )
        kind, first, second = match.groups()
        if kind == "delay":
            return cls("delay", delay=cls._seconds(first), reserve=cls._seconds(second))
        return cls("fischer", reserve=cls._seconds(first), increment=cls._seconds(second))

    @classmethod
    def _seconds(cls, token: str) -> float:
        match = cls._DURATION.fullmatch(token)
        if match is None:
            raise InvalidTimeControl("text", f"{token!r} is not a duration like 12s, 5m or 1h")
        return float(match[1]) * cls._UNIT[match[2]]

    def __str__(self) -> str:
        if self.kind == "delay":
            return f"delay {_duration(self.delay)} + {_duration(self.reserve)}"
        if self.kind == "fischer":
            return f"fischer {_duration(self.reserve)} + {_duration(self.increment)}"
        return "untimed"


def _duration(seconds: float) -> str:
    """The largest unit that says ``seconds`` exactly; ``repr`` keeps fractions exact."""
    for unit in ("h", "m"):
        size = TimeControl._UNIT[unit]
        if seconds > 0 and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    if seconds == int(seconds):
        return f"{int(seconds)}s"
    return f"{seconds!r}s"


@dataclass(frozen=True, slots=True)
class Clock:
    """Both sides' time at the last event; the methods answer for any later ``now``.

    ``reserves`` are as of ``at``; ``turn`` is the side whose clock it is (``None``
    before the first :meth:`run`), ``ticking`` whether its clock runs since ``at``
    (else it was paused at ``at``), ``turn_delay`` the delay it had left at ``at``.
    ``held`` is the turn an offer interrupted, ``(side, delay left)``, while the
    other side answers (``None`` otherwise).

    The delay belongs to a *turn*, not to a stretch of running: :meth:`resume`
    continues the paused turn with the delay it had left. If a resume refreshed
    it, a player could farm free time by getting the clock paused and resumed
    (a double offered and taken costs two events and would buy a whole new
    delay); only :meth:`run` and :meth:`press`, which start a turn, grant one.
    An answer to an offer is timed the same way (PL-6): :meth:`interrupt` holds
    the offerer's turn and runs the answerer's clock with a delay of its own, and
    :meth:`give_back` continues the held turn with the delay it had left.

    >>> clock = Clock.start(TimeControl.parse("delay 12s + 5m")).run(0, now=0.0)
    >>> clock = clock.pause(now=10.0).resume(0, now=50.0)   # e.g. a server restart
    >>> clock.delay_left(now=50.0), clock.remaining(0, now=55.0)
    (2.0, 297.0)
    >>> doubled = clock.interrupt(1, now=51.0)              # a double: Black answers
    >>> doubled.running, doubled.delay_left(now=51.0)
    (1, 12.0)
    >>> taken = doubled.give_back(now=70.0)                 # the take: White's turn again
    >>> taken.running, taken.delay_left(now=70.0), taken.remaining(1, now=70.0)
    (0, 1.0, 293.0)
    """

    control: TimeControl
    reserves: tuple[float, float]
    turn: int | None = None
    ticking: bool = False
    at: float | None = None
    turn_delay: float = 0.0
    held: tuple[int, float] | None = None

    def __post_init__(self) -> None:
        if len(self.reserves) != 2 or not all(math.isfinite(r) and r >= 0 for r in self.reserves):
            raise ClockError(f"reserves must be two finite seconds >= 0, not {self.reserves!r}")
        if self.turn not in (None, 0, 1):
            raise ClockError(f"turn must be 0 (White), 1 (Black) or None, not {self.turn!r}")
        if self.at is not None and not math.isfinite(self.at):
            raise ClockError(f"at must be a finite time, not {self.at!r}")
        if self.ticking and (self.turn is None or self.at is None):
            raise ClockError("a ticking clock needs a turn and a start time")
        if not 0 <= self.turn_delay <= self.control.delay:
            raise ClockError(f"turn_delay must be within 0…{self.control.delay!r}")
        if self.held is not None:
            if len(self.held) != 2 or self.held[0] not in (0, 1) or self.turn is None:
                raise ClockError(f"held must be a side and its delay, not {self.held!r}")
            if not 0 <= self.held[1] <= self.control.delay:
                raise ClockError(f"a held delay must be within 0…{self.control.delay!r}")

    @classmethod
    def start(cls, control: TimeControl) -> Clock:
        """Both sides with a full reserve, nothing running yet."""
        return cls(control, (control.reserve, control.reserve))

    @property
    def running(self) -> int | None:
        """The side whose time is running, or ``None`` while stopped."""
        return self.turn if self.ticking else None

    # Events ----------------------------------------------------------------

    def run(self, side: int, now: float) -> Clock:
        """Start ``side``'s turn with a full delay: at game start, or after a switch.

        A running clock is stopped first (charged, without increment); if its flag
        has fallen this raises :class:`FlagFell`, as a press does.
        """
        side = _side(side)
        clock = self._stop(now, flag_may_fall=False) if self.ticking else self._check(now)
        return replace(
            clock, turn=side, ticking=True, at=now, turn_delay=self.control.delay, held=None
        )

    def press(self, now: float) -> Clock:
        """The running side completed its turn: charge it, add the increment, start the other.

        >>> clock = Clock.start(TimeControl.parse("fischer 5m + 3s")).run(1, now=0.0)
        >>> clock = clock.press(now=20.0)
        >>> clock.remaining(1, now=20.0), clock.running
        (283.0, 0)
        """
        if not self.ticking:
            raise ClockError("the clock is stopped; there is no running side to press")
        clock = self._stop(now, flag_may_fall=False)
        mover = _side(clock.turn)
        reserves = _with(clock.reserves, mover, clock.reserves[mover] + self.control.increment)
        return replace(
            clock,
            reserves=reserves,
            turn=1 - mover,
            ticking=True,
            turn_delay=self.control.delay,
            held=None,
        )

    def interrupt(self, side: int, now: float) -> Clock:
        """An offer in the middle of a turn: ``side`` answers on his own clock (PL-6).

        The running side is charged (no increment: his turn is not over) and the
        delay his turn had left is held for :meth:`give_back`; ``side`` runs with
        a full delay of its own. An offer made while answering (a beaver) keeps the
        turn already held: that is the turn the answers come back to.

        >>> clock = Clock.start(TimeControl.parse("delay 12s + 5m")).run(0, now=0.0)
        >>> clock.interrupt(1, now=5.0).held
        (0, 7.0)
        """
        side = _side(side)
        if not self.ticking:
            raise ClockError("the clock is stopped; there is no turn to interrupt")
        clock = self._stop(now, flag_may_fall=False)
        held = self.held if self.held is not None else (_side(clock.turn), clock.turn_delay)
        return replace(
            clock, turn=side, ticking=True, at=now, turn_delay=self.control.delay, held=held
        )

    def give_back(self, now: float) -> Clock:
        """The answers are in: charge the answerer and go on with the held turn, on the
        delay it had left when the offer interrupted it (never a fresh one, PL-6)."""
        if self.held is None:
            raise ClockError("no turn is held; there is nothing to give back")
        if not self.ticking:
            raise ClockError("the clock is stopped; resume it first")
        clock = self._stop(now, flag_may_fall=False)
        side, delay = self.held
        return replace(clock, turn=side, ticking=True, at=now, turn_delay=delay, held=None)

    def pause(self, now: float) -> Clock:
        """Stop the running side's clock, keeping what is left of its delay for :meth:`resume`.

        Pausing after the flag fell is allowed, since the game is ending (PL-7): the
        clock stops at zero and still reports the fallen flag.
        """
        if not self.ticking:
            raise ClockError("the clock is already stopped")
        return self._stop(now, flag_may_fall=True)

    def resume(self, side: int, now: float) -> Clock:
        """Continue the paused turn of ``side`` with the delay it had left (never a fresh one)."""
        side = _side(side)
        if self.ticking:
            raise ClockError("the clock is already running")
        if self.turn is None:
            raise ClockError("no turn has started; use run")
        if side != self.turn:
            raise ClockError(
                f"the paused turn is {SIDE_NAMES[self.turn]}'s, not {SIDE_NAMES[side]}'s;"
                " use run to start a new turn"
            )
        self._check(now)
        return replace(self, ticking=True, at=now)

    def stood_still(self, since: float, now: float) -> Clock:
        """The clock as if it had stopped at ``since`` and gone on at ``now``: the club was
        down meanwhile and nobody could act. A running turn keeps the time and delay it had
        at ``since`` (or at its last event, if that came later); a fallen flag stays fallen.

        >>> clock = Clock.start(TimeControl.parse("delay 12s + 5m")).run(0, now=0.0)
        >>> back = clock.stood_still(since=20.0, now=3600.0)    # down for an hour
        >>> back.remaining(0, now=3600.0), back.delay_left(now=3600.0)
        (292.0, 0.0)
        """
        if not self.ticking or self.at is None or now <= self.at:
            return self
        return replace(self, at=self.at + (now - max(since, self.at)))

    def before_offer(self) -> Clock:
        """The clock as it would stand had no offer interrupted the held turn: that turn
        going on since the last event, with the delay it had left (itself if none is held).

        A view for those who are not shown a pending offer (spectators, PL-3): what
        they see is the offerer still thinking, as they saw him before the offer.

        >>> clock = Clock.start(TimeControl.parse("delay 12s + 5m")).run(0, now=0.0)
        >>> clock.interrupt(1, now=5.0).before_offer().to_json(now=20.0)
        {'white': 292.0, 'black': 300.0, 'running': 0, 'delay_left': 0.0}
        """
        if self.held is None:
            return self
        side, delay = self.held
        return replace(self, turn=side, turn_delay=delay, held=None)

    # Questions -------------------------------------------------------------

    def remaining(self, side: int, now: float) -> float:
        """Reserve ``side`` has left at ``now``, never below 0 (infinite when untimed)."""
        side = _side(side)
        self._check(now)
        return self._left(side, now) if self.control.timed else math.inf

    def delay_left(self, now: float) -> float:
        """Free time left in the current turn at ``now`` (0 with no turn or no delay)."""
        self._check(now)
        if not self.ticking:
            return self.turn_delay
        assert self.at is not None
        return min(self.turn_delay, max(self.at + self.turn_delay - now, 0.0))

    def flagged(self, now: float) -> int | None:
        """The side whose time has run out at ``now``, if any; exactly at the boundary counts."""
        self._check(now)
        if not self.control.timed or self.turn is None:
            return None
        if self.ticking:
            return self.turn if now >= self._deadline() else None
        stopped_at_zero = self.reserves[self.turn] == 0 and self.turn_delay == 0
        return self.turn if stopped_at_zero else None

    def time_to_flag(self, now: float) -> float | None:
        """Seconds until the running side flags (0 if it has); ``None`` when nothing runs.

        The server schedules its timeout check at ``now + time_to_flag(now)``; the
        result is rounded up so that ``flagged`` is already true at that moment.

        >>> clock = Clock.start(TimeControl.parse("delay 12s + 5m")).run(0, now=0.0)
        >>> clock.time_to_flag(now=100.0), clock.flagged(now=312.0)
        (212.0, 0)
        """
        self._check(now)
        if not self.control.timed or not self.ticking:
            return None
        deadline = self._deadline()
        wait = max(deadline - now, 0.0)
        while now + wait < deadline:  # float rounding; at most a few steps
            wait = math.nextafter(wait, math.inf)
        return wait

    # Views -----------------------------------------------------------------

    def to_json(self, now: float) -> dict[str, Any]:
        """What the protocol shows at ``now``; times are ``null`` in an untimed game.

        >>> Clock.start(TimeControl.parse("fischer 5m + 3s")).run(0, now=0.0).to_json(now=1.5)
        {'white': 298.5, 'black': 300.0, 'running': 0, 'delay_left': 0.0}
        """
        timed = self.control.timed
        return {
            "white": self.remaining(0, now) if timed else None,
            "black": self.remaining(1, now) if timed else None,
            "running": self.running,
            "delay_left": self.delay_left(now) if timed else None,
        }

    def to_state(self) -> dict[str, Any]:
        """Everything, exactly (floats survive JSON), for storing; :meth:`from_state` reverses it.

        ``at`` is in the caller's time base, so a restored clock loses and gains
        nothing as long as the restarted server keeps that base (e.g. epoch seconds).
        Across a change of base, store ``clock.pause(now)`` and ``resume`` it after.

        >>> clock = Clock.start(TimeControl.parse("delay 12s + 5m")).run(1, now=7.25)
        >>> Clock.from_state(clock.to_state()) == clock
        True
        """
        return {
            "control": str(self.control),
            "reserves": list(self.reserves),
            "turn": self.turn,
            "ticking": self.ticking,
            "at": self.at,
            "turn_delay": self.turn_delay,
            "held": None if self.held is None else list(self.held),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Clock:
        """The clock :meth:`to_state` stored; a state no clock could have is a ClockError."""
        try:
            white, black = state["reserves"]
            held = state.get("held")  # clocks stored before PL-6's held turn have none
            return cls(
                control=TimeControl.parse(state["control"]),
                reserves=(float(white), float(black)),
                turn=state["turn"],
                ticking=bool(state["ticking"]),
                at=None if state["at"] is None else float(state["at"]),
                turn_delay=float(state["turn_delay"]),
                held=None if held is None else (held[0], float(held[1])),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, ClockError):
                raise
            raise ClockError(f"not a stored clock: {error}") from error

    # Helpers ---------------------------------------------------------------

    def _left(self, side: int, now: float) -> float:
        reserve = self.reserves[side]
        if side != self.running:
            return reserve
        return min(reserve, max(self._deadline() - now, 0.0))

    def _stop(self, now: float, *, flag_may_fall: bool) -> Clock:
        """Charge the running side for the time since ``at`` and stop its clock."""
        self._check(now)
        side = _side(self.turn)
        if not flag_may_fall and self.flagged(now) is not None:
            raise FlagFell(side, self._deadline(), now)
        return replace(
            self,
            reserves=_with(self.reserves, side, self._left(side, now)),
            ticking=False,
            at=now,
            turn_delay=self.delay_left(now),
        )

    def _deadline(self) -> float:
        """When the running side's flag falls: its delay, then its reserve, from ``at``.

        Summed in the same order as :meth:`delay_left`'s end, so with no reserve the
        flag falls exactly when the delay ends, and ``flagged``, ``remaining`` and
        ``time_to_flag`` all compare ``now`` against this one float.
        """
        assert self.at is not None and self.turn is not None
        return self.at + self.turn_delay + self.reserves[self.turn]

    def _check(self, now: float) -> Clock:
        if not math.isfinite(now):
            raise ClockError(f"now must be a finite time, not {now!r}")
        if self.at is not None and now < self.at:
            raise ClockError(
                f"time went backwards: {now!r} is before the last event at {self.at!r}"
            )
        return self


def _side(side: int | None) -> int:
    if side not in (0, 1):
        raise ClockError(f"side must be 0 (White) or 1 (Black), not {side!r}")
    return int(side)


def _with(pair: tuple[float, float], index: int, value: float) -> tuple[float, float]:
    return (value, pair[1]) if index == 0 else (pair[0], value)
