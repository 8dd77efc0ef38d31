"""Clocks for a table of N seats (chouette, issue 18): one reserve per seat, several running.

The two-sided :class:`~sheshbesh.play.clock.Clock` serves two-player games. A
chouette table waits for several seats at once while the crew answers a
banker's double, each answerer on his own answer clock with a delay of its own
(PL-6), so its clock is kept per seat. The rule is PL-6's, written for seats,
and :func:`follow` applies it after each action, given the seats the game now
waits for:

- a seat the game no longer waits for stops: its time past the delay is taken
  from its reserve (plus the increment where the control has one and its turn
  ended);
- a seat the game now waits for starts with a full delay, unless its turn was
  held by an offer (the banker's or captain's turn while the doubles are
  answered): then the turn goes on with the delay it had left (PL-6: the delay
  belongs to the turn; a fresh one on every answer would buy free time);
- a seat the game still waits for runs on;
- a turn's end (``played``, ``passed``) forgets every held turn.

The clock reads no time of its own: ``now`` is given. A seat out of time is
reported by :meth:`SeatClock.flagged`, the lowest seat first when several fell
at once; the server turns it into the game's ``Timeout(seat)`` (PL-7).

>>> from sheshbesh.play.clock import TimeControl
>>> clock = SeatClock.start(TimeControl.parse("delay 10s + 1m"), (0, 1, 2))
>>> clock = follow(clock, (0,), now=0.0)                  # the banker's turn
>>> clock = follow(clock, (1, 2), now=4.0, offer=True)    # he doubles two cubes
>>> clock.held, [round(clock.remaining(s, now=20.0), 1) for s in (0, 1, 2)]
(((0, 6.0),), [60.0, 54.0, 54.0])
>>> clock = follow(clock, (0,), now=20.0)                 # both answered: his turn again
>>> clock.remaining(0, now=30.0)                          # 6 s of delay left, then 4 s
56.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from .clock import ClockError, TimeControl


@dataclass(frozen=True, slots=True)
class Running:
    """A seat's clock running since ``at``, with ``delay`` seconds of its turn's delay left
    at ``at``."""

    seat: int
    at: float
    delay: float


@dataclass(frozen=True, slots=True)
class SeatClock:
    """Every seat's reserve as of its last stop, the clocks running, and the held turns."""

    control: TimeControl
    reserves: tuple[tuple[int, float], ...]
    running: tuple[Running, ...] = ()
    held: tuple[tuple[int, float], ...] = ()
    """Seats whose turn an offer interrupted, with the delay it had left."""

    def __post_init__(self) -> None:
        seats = [seat for seat, _ in self.reserves]
        if len(set(seats)) != len(seats):
            raise ClockError("a seat has one reserve")
        for seat, reserve in self.reserves:
            if not math.isfinite(reserve) or reserve < 0:
                raise ClockError(f"seat {seat}'s reserve must be finite seconds >= 0")
        for run in self.running:
            if run.seat not in seats or not 0 <= run.delay <= self.control.delay:
                raise ClockError(f"a running clock for an unknown seat or delay: {run!r}")

    @classmethod
    def start(cls, control: TimeControl, seats: Iterable[int]) -> SeatClock:
        """Every seat with a full reserve, nothing running."""
        return cls(control, tuple((seat, control.reserve) for seat in sorted(set(seats))))

    def with_seat(self, seat: int) -> SeatClock:
        """A newcomer's full reserve (a seat taken between games)."""
        if seat in dict(self.reserves):
            return self
        return replace(self, reserves=tuple(sorted((*self.reserves, (seat, self.control.reserve)))))

    def stood_still(self, since: float, now: float) -> SeatClock:
        """Every running clock as if it had stopped at ``since`` (or at its start, if that
        came later) and gone on at ``now``: the club was down and nobody could act.

        >>> clock = follow(SeatClock.start(TimeControl.parse("delay 10s + 1m"), (0, 1)), (1,), 0.0)
        >>> clock.stood_still(since=30.0, now=900.0).remaining(1, now=900.0)
        40.0
        """
        running = tuple(
            replace(run, at=run.at + (now - max(since, run.at))) if now > run.at else run
            for run in self.running
        )  # fmt: skip
        return replace(self, running=running)

    # --- reading ------------------------------------------------------------------

    @property
    def seats_running(self) -> tuple[int, ...]:
        return tuple(run.seat for run in self.running)

    def remaining(self, seat: int, now: float) -> float:
        """Seconds of reserve ``seat`` has at ``now`` (its delay not counted)."""
        reserve = dict(self.reserves)[seat]
        for run in self.running:
            if run.seat == seat:
                return max(0.0, reserve - max(0.0, now - run.at - run.delay))
        return reserve

    def delay_left(self, seat: int, now: float) -> float:
        for run in self.running:
            if run.seat == seat:
                return max(0.0, run.delay - max(0.0, now - run.at))
        return 0.0

    def flagged(self, now: float) -> int | None:
        """The lowest running seat out of time at ``now`` (its delay and its reserve both
        spent, as :meth:`time_to_flag` counts), or None. Not ``remaining() <= 0``: with
        no reserve (``delay 30s + 0s``) that holds from a turn's first second."""
        if not self.control.timed:
            return None
        reserves = dict(self.reserves)
        fallen = [
            run.seat for run in self.running if now >= run.at + run.delay + reserves[run.seat]
        ]
        return min(fallen) if fallen else None

    def time_to_flag(self, now: float) -> float | None:
        """Seconds from ``now`` until the first running seat's flag falls (None: never)."""
        if not self.control.timed or not self.running:
            return None
        reserves = dict(self.reserves)
        return max(0.0, min(run.at + run.delay + reserves[run.seat] for run in self.running) - now)

    def to_state(self) -> dict[str, Any]:
        """Everything, exactly, for storing on the table's row; :meth:`from_state` reverses it.

        >>> clock = follow(SeatClock.start(TimeControl.parse("delay 10s + 1m"), (0, 1)), (1,), 3.5)
        >>> SeatClock.from_state(clock.to_state()) == clock
        True
        """
        return {
            "seats": True,
            "control": str(self.control),
            "reserves": [[seat, reserve] for seat, reserve in self.reserves],
            "running": [[run.seat, run.at, run.delay] for run in self.running],
            "held": [[seat, delay] for seat, delay in self.held],
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> SeatClock:
        """The clock :meth:`to_state` stored; a state no clock could have is a ClockError."""
        try:
            return cls(
                TimeControl.parse(state["control"]),
                tuple((int(seat), float(reserve)) for seat, reserve in state["reserves"]),
                tuple(Running(int(s), float(at), float(d)) for s, at, d in state["running"]),
                tuple((int(seat), float(delay)) for seat, delay in state["held"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ClockError(f"not a stored seat clock: {error}") from None

    def to_json(self, now: float) -> dict[str, Any]:
        """What the room shows: each seat's time left and delay left, who is running."""
        return {
            "seats": {str(seat): round(self.remaining(seat, now), 3) for seat, _ in self.reserves},
            "running": list(self.seats_running),
            "delay_left": {
                str(run.seat): round(self.delay_left(run.seat, now), 3) for run in self.running
            },
        }


def follow(
    clock: SeatClock,
    waiting: Iterable[int],
    now: float,
    *,
    offer: bool = False,
    turn_over: bool = False,
) -> SeatClock:
    """The clock after an action that left the game waiting for ``waiting``.

    ``offer``: the action made an offer that interrupts a turn (a banker's double,
    the crew's doubles going to the banker): the turns it stops are held.
    ``turn_over``: a board turn ended (``played``, ``passed``): the held turns are
    forgotten, and a stopping seat earns the increment.
    """
    if not clock.control.timed:
        return clock
    wanted = list(dict.fromkeys(waiting))
    reserves = dict(clock.reserves)
    held = {} if turn_over else dict(clock.held)
    running: list[Running] = []
    for run in clock.running:
        if run.seat in wanted:
            running.append(run)
            continue
        used = max(0.0, now - run.at - run.delay)
        reserves[run.seat] = max(0.0, reserves[run.seat] - used)
        if turn_over:
            reserves[run.seat] += clock.control.increment
        if offer:
            held[run.seat] = max(0.0, run.delay - max(0.0, now - run.at))
    going = {run.seat for run in running}
    for seat in wanted:
        if seat in going:
            continue
        if seat not in reserves:
            reserves[seat] = clock.control.reserve
        delay = held.pop(seat, clock.control.delay)
        running.append(Running(seat, now, delay))
    return SeatClock(
        clock.control,
        tuple(sorted(reserves.items())),
        tuple(sorted(running, key=lambda run: run.seat)),
        tuple(sorted(held.items())),
    )


__all__ = ["Running", "SeatClock", "follow"]
