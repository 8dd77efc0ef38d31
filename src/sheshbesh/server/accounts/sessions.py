"""Who is asking: the session cookie, the logged-in user, and how a player is shown.

A session is a random token in an HttpOnly, SameSite=Lax cookie; the database
keeps only its SHA-256, so a leaked table logs nobody in. :func:`user_json` is
a player as every endpoint shows him. :func:`me_json` is the logged-in player
for the header: packages above this one add their part of it (the unread
count is notify's) with :func:`add_me_part`, so accounts imports none of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import Unauthorized
from sheshbesh.store import ledger
from sheshbesh.store.models import Session, User

from .avatars import avatar_url, theme_of
from .preferences import prefs_of

SESSION_COOKIE = "sid"
CHUNK = 500
"""Sessions asked about in one query by :func:`live_sessions`."""
MePart = Callable[[AsyncSession, User], Awaitable[dict[str, Any]]]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def add_me_part(club: Club, part: MePart) -> None:
    """Let another package add fields to :func:`me_json` (called when the app is wired)."""
    club.extras.setdefault("me_parts", []).append(part)


def user_json(user: User) -> dict[str, Any]:
    """A player as every endpoint shows him: avatar URL (versioned) and board theme included."""
    return {"id": user.id, "username": user.username, "is_bot": user.is_bot,
            "avatar": avatar_url(user), "theme": theme_of(user)}  # fmt: skip


async def me_json(club: Club, session: AsyncSession, user: User) -> dict[str, Any]:
    """The logged-in player: his balance and what other packages add (the unread count)."""
    found = user_json(user) | {
        "balance": await ledger.balance_of(session, user.id),
        "prefs": prefs_of(user),
    }
    for part in club.extras.get("me_parts", ()):
        found |= await part(session, user)
    return found


async def user_of(club: Club, connection: HTTPConnection) -> User | None:
    """The logged-in user of a request or websocket, or None."""
    found = await session_of(club, connection)
    return None if found is None else found[0]


async def session_of(club: Club, connection: HTTPConnection) -> tuple[User, str] | None:
    """The logged-in user of a request or websocket and his session (its token's hash),
    or None: no cookie, no such session, an expired one, or a closed account's."""
    token = connection.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    digest = token_hash(token)
    async with club.db.read() as session:
        row = await session.execute(
            select(User, Session.expires_at)
            .join(Session, Session.user_id == User.id)
            .where(Session.token_hash == digest)
        )
        found = row.first()
    if found is None or found[1] < club.now():
        return None
    user: User = found[0]
    if user.closed_at is not None:  # closed: its sessions count for nothing
        return None
    return user, digest


async def live_sessions(club: Club, digests: Collection[str]) -> set[str]:
    """Those of these sessions (token hashes) that still log someone in, as :func:`session_of`
    reads them: stored, not expired, of an account that is not closed."""
    live: set[str] = set()
    wanted = sorted(digests)
    async with club.db.read() as session:
        for start in range(0, len(wanted), CHUNK):
            rows = await session.scalars(
                select(Session.token_hash)
                .join(User, User.id == Session.user_id)
                .where(Session.token_hash.in_(wanted[start : start + CHUNK]))
                .where(Session.expires_at >= club.now(), User.closed_at.is_(None))
            )
            live.update(rows)
    return live


async def require_user(request: Request) -> User:
    user = await user_of(club_of(request), request)
    if user is None:
        raise Unauthorized("log in first")
    return user
