"""Chat flood control: how fast one user may talk in one room (lila's ``Flood``, smaller).

Three rules, all per process and in memory, since they look back at most a
minute and a restart that forgets them costs nothing:

* **rate**: at most :data:`RATE_LINES` lines per :data:`RATE_WINDOW` seconds per
  user per room, and :data:`ALL_ROOMS_LINES` in all rooms together (a count per room
  alone let one account post five lines every ten seconds into each of thousands of
  rooms: a finished game's spectators' room is open to anyone logged in);
* **repeats**: a line equal (ignoring case and spacing) to one of the user's last
  :data:`REPEAT_LOOKBACK` lines in the room within :data:`REPEAT_WINDOW` seconds
  is refused;
* **strikes**: each refusal above is a strike, and :data:`STRIKES` strikes within
  :data:`STRIKE_WINDOW` seconds mean the user keeps flooding: the caller then
  mutes him for :data:`MUTE_FOR` seconds, and that mute *is* stored
  (``User.chat_muted_until``), so it holds across reconnects, rooms and processes.

With several processes a user who spreads his sockets over them gets each
process's allowance; the stored mute still catches him after a few strikes.

>>> flood = Flood()
>>> for n in range(RATE_LINES):
...     flood.check(1, "lobby", f"line {n}", now=0.0)
...     flood.record(1, "lobby", f"line {n}", now=0.0)
>>> flood.check(1, "lobby", "one more", now=1.0)
Traceback (most recent call last):
...
sheshbesh.server.chat.flood.TooFast: at most 5 lines in 10 s; wait 9 s
>>> flood.check(1, "lobby", "one more", now=10.5)
>>> flood.check(1, "lobby", "LINE  4", now=10.5)
Traceback (most recent call last):
...
sheshbesh.server.chat.flood.Repeated: you just said that
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable

RATE_LINES = 5
RATE_WINDOW = 10.0
ALL_ROOMS_LINES = 2 * RATE_LINES
"""A player may talk at full speed in his game and in the lobby, and no faster."""
REPEAT_LOOKBACK = 3
REPEAT_WINDOW = 60.0
STRIKES = 3
STRIKE_WINDOW = 60.0
MUTE_FOR = 15 * 60.0
"""Fifteen minutes, lichess's chat timeout."""
SWEEP_EVERY = 1000
"""Checks between sweeps that forget users who went quiet (memory stays bounded)."""


class Flooding(ValueError):
    """A line refused by the flood rules; ``retry`` is how many seconds until it may pass."""

    def __init__(self, message: str, retry: float) -> None:
        super().__init__(message)
        self.retry = retry


class TooFast(Flooding):
    pass


class Repeated(Flooding):
    pass


def _rate(times: Iterable[float], lines: int, now: float, where: str) -> None:
    """Raise :class:`TooFast` when ``lines`` of these were said within the window."""
    recent = [at for at in times if at > now - RATE_WINDOW]
    if len(recent) >= lines:
        wait = recent[-lines] + RATE_WINDOW - now
        raise TooFast(f"at most {lines} lines in {RATE_WINDOW:g} s{where}; wait "
                      f"{math.ceil(wait)} s", wait)  # fmt: skip


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


class Flood:
    """What each user said lately, per room, and when he was refused."""

    def __init__(self) -> None:
        self.lines: dict[tuple[int, str], deque[tuple[float, str]]] = {}
        self.everywhere: dict[int, deque[float]] = {}
        """When each user said his last :data:`ALL_ROOMS_LINES` lines, in any room."""
        self.strikes: dict[int, deque[float]] = {}
        self.checks = 0

    def check(self, user_id: int, room: str, text: str, now: float) -> None:
        """Raise :class:`TooFast` or :class:`Repeated` if this line may not be said now."""
        self.checks += 1
        if self.checks % SWEEP_EVERY == 0:
            self.sweep(now)
        _rate(self.everywhere.get(user_id, ()), ALL_ROOMS_LINES, now, " in all rooms")
        said = self.lines.get((user_id, room))
        if not said:
            return
        _rate([at for at, _ in said], RATE_LINES, now, "")
        folded = _fold(text)
        for at, earlier in list(said)[-REPEAT_LOOKBACK:]:
            if at > now - REPEAT_WINDOW and earlier == folded:
                raise Repeated("you just said that", at + REPEAT_WINDOW - now)

    def record(self, user_id: int, room: str, text: str, now: float) -> None:
        """Remember an accepted line (at once, before any ``await``: lines sent together
        each count those checked before them)."""
        said = self.lines.setdefault(
            (user_id, room), deque(maxlen=max(RATE_LINES, REPEAT_LOOKBACK))
        )
        said.append((now, _fold(text)))
        self.everywhere.setdefault(user_id, deque(maxlen=ALL_ROOMS_LINES)).append(now)

    def strike(self, user_id: int, now: float) -> bool:
        """Count a refusal; True when the user has now earned a mute (his strikes start over)."""
        strikes = self.strikes.setdefault(user_id, deque())
        strikes.append(now)
        while strikes and strikes[0] <= now - STRIKE_WINDOW:
            strikes.popleft()
        if len(strikes) >= STRIKES:
            del self.strikes[user_id]
            return True
        return False

    def sweep(self, now: float) -> None:
        """Forget users whose every line and strike is older than any rule looks back."""
        horizon = now - max(RATE_WINDOW, REPEAT_WINDOW, STRIKE_WINDOW)
        for key in [k for k, said in self.lines.items() if not said or said[-1][0] <= horizon]:
            del self.lines[key]
        for user in [u for u, at in self.everywhere.items() if not at or at[-1] <= horizon]:
            del self.everywhere[user]
        for user in [u for u, s in self.strikes.items() if not s or s[-1] <= horizon]:
            del self.strikes[user]
