"""A socket lives no longer than the session it was opened with (issue 16, item 8).

Each socket a logged-in player opens (the game's, the lobby's, ``/ws/me``) is
bound to his session, the hash of its cookie: a :class:`Binding`. Whoever ends
sessions (a logout, a password change ending the others, ``sheshbesh moderate
--close``) commits, then calls :func:`sessions_ended`, which publishes the
player's id on the bus channel ``sessions``. Every process then checks the
sessions of that player's sockets against the database, one query, and ends
those whose session is gone: the socket is told ``session_ended`` and closed
with :data:`CLOSE_CODE`. The message names no session, only whose to check, so
it carries no secret and cannot be out of date.

A message may never come: ``moderate`` runs in a process of its own, which
reaches the servers only through Redis; without Redis, or if Redis drops it,
nobody hears it. So a socket also checks its session again before anything it
does or receives as its player (an action, a chat line, a frame of his own
channel) when its last check is older than ``session_check`` seconds (5), and
each process checks every bound session every ``session_sweep`` seconds (60).
An ended session's socket thus acts, chats or hears what is his for at most
5 s, and is closed within 60 s even when it only listens. A check is a
primary-key lookup; a bus message makes the next one due at once.

A socket that was closed may open again: with a dead cookie it is a guest's,
who may watch a game or the lobby but never act or chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect

from sheshbesh.server.club import Club
from sheshbesh.server.errors import log_failure
from sheshbesh.server.protocol import error_frame
from sheshbesh.server.pubsub import CATCH_UP, Bus
from sheshbesh.store.models import User

from .sessions import live_sessions, session_of

log = logging.getLogger(__name__)
CHANNEL = "sessions"
CLOSE_CODE = 4401
"""The close code of a socket whose session ended (4000 + HTTP's 401)."""
REASON = "session ended"
MESSAGE = "your session ended (a logout, a new password or a closed account): log in again"
NOTICE = error_frame("session_ended", MESSAGE, "socket")
"""The frame a socket gets before it is closed for its ended session."""


class Binding:
    """One socket's session: whether it still holds, and what to do when it ends."""

    def __init__(self, owner: Bindings, user: User, session: str, valid_until: float) -> None:
        self.owner = owner
        self.user = user
        self.session = session
        """The session's token hash."""
        self.valid_until = valid_until
        """Trusted without a query until then (the owner's clock)."""
        self.version = 0
        """Bumped by each bus message about this player: a check begun before it proves nothing."""
        self.ended = False
        self.on_end: Callable[[], None] | None = None

    async def alive(self) -> bool:
        """Whether the session still holds, checked again if the last check is stale.
        Once ended it stays ended (and the socket's ``on_end`` has been called)."""
        if not self.ended and self.owner.clock() >= self.valid_until:
            await self.owner.check_due(self)
        return not self.ended

    def when_ended(self, on_end: Callable[[], None]) -> None:
        """Call ``on_end`` (which must not block) when the session ends; at once if it has."""
        self.on_end = on_end
        if self.ended:
            on_end()

    def end(self) -> None:
        if not self.ended:
            self.ended = True
            if self.on_end is not None:
                self.on_end()


class Bindings:
    """This process's sockets by player, each bound to its session."""

    def __init__(self, club: Club, clock: Callable[[], float] = time.monotonic) -> None:
        self.club = club
        self.clock = clock
        self.by_user: dict[int, set[Binding]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.sweeper: asyncio.Task[None] | None = None
        self.batch: asyncio.Task[None] | None = None
        """The check under way for the sockets due (:meth:`check_due`)."""

    async def start(self) -> None:
        await self.club.bus.subscribe(CHANNEL, self.on_message)
        if self.club.settings.session_sweep > 0:
            self.sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        for task in [*self.tasks, *([self.sweeper] if self.sweeper else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.club.bus.unsubscribe(CHANNEL, self.on_message)

    async def bind(self, connection: HTTPConnection) -> Binding | None:
        """The binding of a socket to its cookie's session; None for a guest."""
        read_at = self.clock()
        found = await session_of(self.club, connection)
        if found is None:
            return None
        user, session = found
        binding = Binding(self, user, session, read_at + self.club.settings.session_check)
        self.by_user.setdefault(user.id, set()).add(binding)
        return binding

    def release(self, binding: Binding | None) -> None:
        """The socket is gone: forget its binding."""
        if binding is None:
            return
        bound = self.by_user.get(binding.user.id)
        if bound is not None:
            bound.discard(binding)
            if not bound:
                del self.by_user[binding.user.id]

    def on_message(self, text: str | dict[str, Any]) -> None:
        """Sessions of a player ended somewhere: check his sockets here now (every socket,
        after a catch-up: whose sessions ended is what was lost)."""
        if text == CATCH_UP:
            bound = {binding for bindings in self.by_user.values() for binding in bindings}
        else:
            message = json.loads(text) if isinstance(text, str) else text
            user_id = message.get("user") if isinstance(message, dict) else None
            bound = self.by_user.get(user_id, set()) if type(user_id) is int else set()
        if not bound:
            return
        for binding in bound:
            binding.version += 1
            binding.valid_until = -math.inf
        task = asyncio.get_running_loop().create_task(self._check_now(list(bound)))
        self.tasks.add(task)  # held until done, so it is not collected half-way
        task.add_done_callback(self.tasks.discard)

    async def check(self, bindings: list[Binding]) -> None:
        """Read whether these sockets' sessions hold (one query); end those that do not."""
        pending = [(binding, binding.version) for binding in bindings if not binding.ended]
        if not pending:
            return
        read_at = self.clock()
        live = await live_sessions(self.club, {binding.session for binding, _ in pending})
        for binding, version in pending:
            if binding.session not in live:
                binding.end()
            elif binding.version == version:
                until = read_at + self.club.settings.session_check
                binding.valid_until = max(binding.valid_until, until)

    async def check_due(self, binding: Binding) -> None:
        """Check ``binding``'s session, and in the same query every other socket's here that
        is due within half a period: at 1 000 sockets each checked every 5 s, one query
        every few seconds instead of 200 a second (``bench/load.py``). A check already
        under way is waited for first, since it may have checked this one."""
        if self.batch is not None:
            with contextlib.suppress(Exception):  # it failed: this one tries again
                await asyncio.shield(self.batch)
        now = self.clock()
        if binding.ended or now < binding.valid_until:
            return
        soon = now + self.club.settings.session_check / 2
        due = [b for bound in self.by_user.values() for b in bound
               if not b.ended and b.valid_until <= soon and b is not binding]  # fmt: skip
        batch = asyncio.get_running_loop().create_task(self.check([binding, *due]))
        batch.add_done_callback(lambda done: done.cancelled() or done.exception())  # read
        self.batch = batch
        try:
            await asyncio.shield(batch)
        finally:
            if self.batch is batch and batch.done():
                self.batch = None

    async def _check_now(self, bindings: list[Binding]) -> None:
        try:
            await self.check(bindings)
        except Exception as error:  # the next action's check or the sweep will try again
            log_failure(log, f"checking {len(bindings)} sockets' sessions", error)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.club.settings.session_sweep)
            await self._check_now([b for bound in self.by_user.values() for b in bound])


def bindings_of(club: Club) -> Bindings:
    """The club's bindings (made on first use, so a club without :func:`start` works too)."""
    found = club.extras.get("bindings")
    if found is None:
        found = club.extras["bindings"] = Bindings(club)
    assert isinstance(found, Bindings)
    return found


async def start(club: Club) -> None:
    """Hear of ended sessions and sweep (the app's start)."""
    await bindings_of(club).start()


async def stop(club: Club) -> None:
    await bindings_of(club).stop()


async def sessions_ended(bus: Bus, user_id: int) -> None:
    """Tell every process that sessions of this player ended (call after the commit).

    A failure is logged, not raised: the sessions are gone from the database
    already, and the checks before acting and the sweep close their sockets anyway.
    """
    try:
        await bus.publish_data(CHANNEL, {"user": user_id})
    except Exception:
        log.exception("could not announce the end of user %d's sessions", user_id)


async def close_ended(ws: WebSocket) -> None:
    """Tell a socket its session ended, and close it with :data:`CLOSE_CODE`."""
    with contextlib.suppress(RuntimeError, WebSocketDisconnect, ConnectionError):
        await ws.send_text(NOTICE)
        await ws.close(code=CLOSE_CODE, reason=REASON)
