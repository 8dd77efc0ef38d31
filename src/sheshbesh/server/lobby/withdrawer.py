"""The withdrawer: a request lives only while its owner has the club open (issue 16, item 4).

A request used to wait for ever and for nobody: an attacker accepted the request
of a player who had closed the page, and waited for PL-7 to forfeit him at
backgammon level. Now an owner who has no club tab open, that is no ``/ws/me``
and no lobby socket in any process (``relations.presence`` counts both and hears
the other processes' announcements), for ``request_grace`` seconds (30) has his
open requests, private challenges included, withdrawn: the lobby (for a private
challenge, its two players) hears ``request_removed`` as for a cancel. Nothing
is held for a request, so nothing is released. lichess drops the seek of a
player whose socket went away in the same way. Bots' requests are exempt.

Every process sweeps every few seconds and keeps, per owner, since when it has
seen him without a tab; a crashed process's players count as gone once the
others stop hearing from it. Any process may withdraw: the guarded update lets
exactly one of them tell the lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy import select

from sheshbesh.server.club import Club
from sheshbesh.server.errors import log_failure
from sheshbesh.server.relations.presence import presence_of
from sheshbesh.store.models import Request as GameRequest
from sheshbesh.store.models import User

from .requests import close_request, publish_request

log = logging.getLogger(__name__)
SWEEP = 5.0
"""The longest wait between two sweeps (a quarter of the grace when that is shorter)."""


class Withdrawer:
    """Withdraws the open requests of owners who have had no club tab open for the grace."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.gone: dict[int, float] = {}
        """Owner → since when this process has seen him with no tab open (club time)."""
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        every = min(SWEEP, self.club.settings.request_grace / 4)
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception as error:
                log_failure(log, "withdrawing the requests of absent owners", error)

    async def sweep(self) -> None:
        """Note who has no tab open now, and withdraw the requests of those gone too long."""
        club = self.club
        now, grace = club.now(), club.settings.request_grace
        async with club.db.read() as session:
            owners = set(await session.scalars(
                select(GameRequest.owner_id)
                .join(User, User.id == GameRequest.owner_id)
                .where(GameRequest.status == "open", User.is_bot.is_(False))
                .where(GameRequest.seats.is_(None))  # a table ends by its round's rules
                .distinct()
            ))  # fmt: skip
        presence = presence_of(club)
        self.gone = {uid: since for uid, since in self.gone.items() if uid in owners}
        for uid in owners:
            if presence.online(uid):
                self.gone.pop(uid, None)
            elif now - self.gone.setdefault(uid, now) >= grace:
                del self.gone[uid]
                await withdraw_requests(club, uid)


async def withdraw_requests(club: Club, owner_id: int) -> list[str]:
    """Withdraw every open request of the owner; the ids this call withdrew."""
    async with club.db.transaction() as session:
        found = list(await session.scalars(
            select(GameRequest).where(GameRequest.owner_id == owner_id,
                                      GameRequest.status == "open",
                                      GameRequest.seats.is_(None))
        ))  # fmt: skip
        withdrawn = []
        for request in found:
            if await close_request(session, request, "withdrawn"):
                withdrawn.append(request)
    for request in withdrawn:
        await publish_request(club, request, "request_removed", {"id": request.id})
    if withdrawn:
        log.info("withdrew %d request(s) of user %d: no club tab open", len(withdrawn), owner_id)
    return [request.id for request in withdrawn]
