"""Profiles: a player's page (record of results, ratings, play-ban, how the viewer stands
toward him, his games a page at a time: ``history``); his balance only for himself (and
for bots)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.sessions import require_user, user_json
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import NotFound
from sheshbesh.server.relations import history
from sheshbesh.server.standings import playbans
from sheshbesh.server.standings import ratings as standings
from sheshbesh.store import ledger
from sheshbesh.store.models import FriendRequest, Relation, User, user_named

router = APIRouter(prefix="/api", tags=["profiles"])


@router.get("/users/{username}")
async def profile(username: str, request: Request) -> dict[str, Any]:
    """His record and his latest games; the balance only for the player himself (and bots)."""
    club = club_of(request)
    viewer = None
    try:
        viewer = await require_user(request)
    except Exception:
        viewer = None
    async with club.db.read() as session:
        user = await user_named(session, username)
        if user is None:
            raise NotFound(f"no player {username!r}")
        out = user_json(user) | {"created_at": user.created_at}
        out |= await history.record(session, user.id)
        out["closed"] = user.closed_at is not None  # by the club's operators (moderation.py)
        if user.is_bot or (viewer is not None and viewer.id == user.id):
            out["balance"] = await ledger.balance_of(session, user.id)  # a bot's is public
        if user.is_bot:
            out["bot"] = {"engine": user.bot_engine} | (user.bot_policy or {})
        out["ratings"] = await standings.all_ratings(session, user.id)
        now = club.now()
        if viewer is not None and viewer.id == user.id:
            out["playban"] = await playbans.standing(session, user.id, now)
        out["relation"] = await relation_between(session, viewer, user)
        page = await history.games_page(session, user.id)
        out["recent"], out["more"] = page.games, page.next
    return out


@router.get("/users/{username}/games")
async def games(
    username: str,
    request: Request,
    before: str | None = Query(default=None, max_length=20,
                               description="only games older than this one (a page's more)"),
    limit: int = Query(default=history.PAGE, ge=1, le=history.MAX_PAGE),
    variant: str | None = Query(default=None, max_length=20,
                                description="one game's only (chouette: his tables)"),
) -> dict[str, Any]:  # fmt: skip
    """His games older than ``before`` (the ``more`` of the page before), newest first."""
    club = club_of(request)
    async with club.db.read() as session:
        user = await user_named(session, username)
        if user is None:
            raise NotFound(f"no player {username!r}")
        page = await history.games_page(session, user.id, before, limit, variant)
    return {"games": page.games, "more": page.next}


async def relation_between(session: AsyncSession, viewer: User | None, user: User) -> str | None:
    """How the viewer stands toward the player: ``self``, ``friend``, ``blocked``,
    ``request_sent``, ``request_received`` or None (strangers, or nobody logged in)."""
    if viewer is None:
        return None
    if viewer.id == user.id:
        return "self"
    kind = await session.scalar(
        select(Relation.kind).where(Relation.user_id == viewer.id, Relation.other_id == user.id)
    )
    if kind == "block":
        return "blocked"
    if kind == "friend":
        return "friend"
    pending = await session.scalar(
        select(FriendRequest.sender_id).where(
            FriendRequest.status == "open",
            or_(
                (FriendRequest.sender_id == viewer.id) & (FriendRequest.recipient_id == user.id),
                (FriendRequest.sender_id == user.id) & (FriendRequest.recipient_id == viewer.id),
            ),
        )
    )
    if pending is None:
        return None
    return "request_sent" if pending == viewer.id else "request_received"
