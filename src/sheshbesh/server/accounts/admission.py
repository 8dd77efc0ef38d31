"""What every socket of the club passes when it opens, and gives back when it ends.

The game's, the lobby's and a player's own socket each check the same three things
in the same order: the page is the club's own (``accounts.csrf``: a socket carries
the cookies, so a cross-site page must not open one), the address may open one more
(``limits``: refused before the session is even read), and the cookie's session is
bound to it (``accounts.bindings``: a guest's is None). Both are released together
however the socket ends. A database that cannot be reached while the socket is served
(its session, its first frames) closes it with "try again later", never an error.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import WebSocket

from sheshbesh.server import limits
from sheshbesh.server.accounts import bindings
from sheshbesh.server.accounts.bindings import Binding
from sheshbesh.server.accounts.csrf import same_origin
from sheshbesh.server.club import Club
from sheshbesh.server.errors import UNREACHABLE, database_unreachable
from sheshbesh.server.limits import Guard
from sheshbesh.server.protocol import error_frame

log = logging.getLogger(__name__)
CROSS_SITE = 1008
"""Close code for a socket opened by another site's page (policy violation)."""
TRY_AGAIN = 1013
"""Close code for "try again later": the page opens the socket again (a game's with
``?v=``) and misses nothing."""


@dataclass(frozen=True, slots=True)
class Admitted:
    binding: Binding | None
    """The session the socket holds (None: a guest)."""
    guard: Guard
    """The address's budget of sockets and frames."""


@asynccontextmanager
async def admitted(club: Club, ws: WebSocket) -> AsyncIterator[Admitted | None]:
    """The socket admitted, or None when it was refused and has been answered (closed as
    cross-site, or refused for its address). Reading the session may raise what the
    database raises; whatever was taken is given back all the same."""
    if not same_origin(ws):
        await ws.close(code=CROSS_SITE, reason="cross-site socket refused")
        yield None
        return
    guard = await limits.admit(club, ws)
    if guard is None:
        yield None
        return
    bound = bindings.bindings_of(club)
    binding: Binding | None = None
    try:
        binding = await bound.bind(ws)
        yield Admitted(binding, guard)
    finally:
        bound.release(binding)
        guard.release()


async def serve_admitted(
    club: Club, ws: WebSocket, serve: Callable[[Admitted], Awaitable[None]]
) -> None:
    """``serve`` the socket once :func:`admitted`; the database unreachable meanwhile where
    the socket cannot wait for it (its session, what it opens with; a game's chat line)
    is said to the page (``unavailable``) and the socket closed with :data:`TRY_AGAIN`
    (issue 20)."""
    try:
        async with admitted(club, ws) as admission:
            if admission is not None:
                await serve(admission)
    except Exception as error:
        if not database_unreachable(error):
            raise
        log.warning("%s: a socket closed, the database is unreachable (%r)", ws.url.path, error)
        with contextlib.suppress(Exception):  # the client may be gone already
            await ws.send_text(error_frame("unavailable", UNREACHABLE, "socket"))
            await ws.close(code=TRY_AGAIN, reason="the database is unreachable")


__all__ = ["TRY_AGAIN", "Admitted", "admitted", "serve_admitted"]
