"""Who is at a game in this process, and telling every process when a seat comes or goes.

A round (two-player or chouette) counts the sockets of each seat it holds here. The
first to open marks the seat present in the database; the last to close marks it
away from that moment, when PL-7's grace starts to run. Each change is published on
the game's channel, so every page on every process shows the seat's dot and the
deadline of an absent player. Where the mark is stored differs (a game row's
``away0``/``away1``, a table seat's row): each round says in :meth:`_store_mark`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from sheshbesh.server.club import Club


class Attendance:
    """Presence for a round: it provides ``club``, ``id``, ``lock``, ``here``, ``live``,
    ``schedule`` and :meth:`_store_mark`."""

    club: Club
    id: str
    lock: asyncio.Lock
    here: dict[int, int]
    """Connections per seat in this process."""
    on_advanced: Callable[[], None] | None = None
    """Called when a reload from the database moved the game on (events this process
    never had as a message: a process killed between storing a move and publishing it,
    or a message lost): the game's hub then sends each socket what it missed."""

    def advanced(self, before: int, after: int) -> None:
        """Tell the hub, if the reload found events beyond ``before``."""
        if after > before and self.on_advanced is not None:
            self.on_advanced()

    @property
    def live(self) -> bool:
        raise NotImplementedError

    def schedule(self) -> None:
        raise NotImplementedError

    async def _store_mark(self, seat: int, away: float | None) -> float:
        """Store the seat as present (``away`` None) or away since ``away``, under the
        round's lock; the grace that seat has while away (seconds)."""
        raise NotImplementedError

    def _remember_mark(self, seat: int, away: float | None) -> bool:
        """Hold a seat's stored mark in memory; False when this round holds no such seat
        (a chouette seat since left), so nothing is said about it."""
        raise NotImplementedError

    async def heard_presence(self, presence: dict[str, Any]) -> None:
        """A process stored a seat's mark and published it (this one too: Redis's echo).
        The message holds everything the mark changed, so the round takes it as it is,
        without reading the game back (every socket's arrival cost each other process
        serving the game a reload). While a socket of that seat is open here the player
        is not away, whatever another page of his did: this process says so again."""
        seat = int(presence["seat"])
        away = None if presence["online"] else float(presence["since"])
        if not self._remember_mark(seat, away):
            return
        await self._present_again(seat, away)
        self.schedule()

    async def _present_again(self, seat: int, away: float | None) -> None:
        """A seat stored as away (since ``away``) while one of its sockets is open here:
        another page of the player closed, or another process marked it; he is here, so
        this process marks him present again (a reload, a presence message)."""
        if away is not None and self.live and self.here[seat] > 0:
            await self._mark(seat, None)

    async def arrive(self, seat: int) -> None:
        self.here[seat] += 1
        if self.here[seat] == 1 and self.live:
            await self._mark(seat, None)

    async def leave(self, seat: int) -> None:
        self.here[seat] -= 1
        if self.here[seat] == 0 and self.live:
            await self._mark(seat, self.club.now())

    async def gone(self, seat: int) -> None:
        """A seat whose player will not come back (a bot that cannot answer), away from
        now: PL-7's grace runs for him as for anyone who left."""
        if self.live:
            await self._mark(seat, self.club.now())

    async def _mark(self, seat: int, away: float | None) -> None:
        async with self.lock:
            grace = await self._store_mark(seat, away)
        presence: dict[str, Any] = {
            "seat": seat, "online": away is None, "since": away,
            "deadline": None if away is None else away + grace, "now": self.club.now(),
        }  # fmt: skip
        await self.club.bus.publish(f"game:{self.id}", json.dumps({"presence": presence}))
        self.schedule()
