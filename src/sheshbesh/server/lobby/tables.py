"""Chouette tables in the lobby (issue 18): take a seat, leave it, start, close.

A chouette request opens its table at once (``requests.post_request``); its
lobby row then takes people one seat at a time until the table is full or its
owner starts it (at least three seated, CH-1). Each route goes through the
table's round (``rounds.chouette``), so a join, a leave and a start are handled
one at a time and never race. :func:`can_join` is the lobby's one rule for who
may sit down.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.chouette import LARGEST_LEVEL
from sheshbesh.server.accounts import trust
from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError, Conflict, Forbidden, NotFound
from sheshbesh.server.relations import friends as social
from sheshbesh.server.relations import presence
from sheshbesh.server.rounds.chouette import ChouetteRound
from sheshbesh.server.rounds.round import rounds_of
from sheshbesh.server.standings import playbans
from sheshbesh.store import ledger
from sheshbesh.store.models import Request as GameRequest
from sheshbesh.store.models import User

from .requests import playing, publish_request

router = APIRouter(prefix="/api/requests", tags=["lobby"])


def can_join(found: GameRequest, balance: int) -> str | None:
    """Why a person may not sit down at ``found``'s table (None: he may); the round
    checks the rest (full, seated already, a game running) under its lock."""
    if found.seats is None or found.game_id is None:
        return "this request is not a chouette table"
    if found.status != "open":
        return "the table is closed"
    if balance < found.stake * LARGEST_LEVEL:
        return (f"a seat at this table holds {found.stake * LARGEST_LEVEL} FUN in escrow"
                " (CH-10), more than you can cover")  # fmt: skip
    return None


async def table_of(club: Club, request_id: str) -> tuple[GameRequest, ChouetteRound]:
    async with club.db.read() as session:
        found = await session.get(GameRequest, request_id[:20])
    if found is None or found.seats is None or found.game_id is None:
        raise NotFound(f"no chouette table {request_id!r}")
    round_ = await rounds_of(club).get(found.game_id)
    assert isinstance(round_, ChouetteRound)
    if not club.db.is_sqlite:
        await round_.refresh()
    return found, round_


async def _check_may_sit(club: Club, session: AsyncSession, found: GameRequest, user: User) -> None:
    balance = await ledger.balance_of(session, user.id)
    why = can_join(found, balance)
    if why is not None:
        code = "insufficient_funds" if "escrow" in why else "cannot_join"
        raise ApiError(why, status=409, code=code)
    if found.options.get("friends_only") and not await social.are_friends(
        session, found.owner_id, user.id
    ):
        raise Forbidden("this table is for its owner's friends", code="friends_only")
    if await social.blocked_between(session, found.owner_id, user.id):
        raise Forbidden("you cannot play at this table", code="cannot_send")
    elsewhere = await playing(session, user.id)
    if elsewhere == found.game_id:
        raise Conflict("you already have a seat at this table", code="already_seated")
    if elsewhere is not None and not user.is_bot:
        raise Conflict(f"finish your game {elsewhere} before taking a seat", code="playing")
    if not user.is_bot:
        await playbans.check_not_banned(session, user.id, club.now())
    await trust.check_stake(club, session, user, found.stake * LARGEST_LEVEL, club.now())


@router.post("/{request_id}/join", status_code=201)
async def join_table(request_id: str, request: Request) -> dict[str, Any]:
    """Take the next free seat: 3 × S goes into escrow (CH-10)."""
    club = club_of(request)
    user = await require_user(request)
    found, round_ = await table_of(club, request_id)
    async with club.db.read() as session:
        await _check_may_sit(club, session, found, user)
    seat = await round_.join(user)
    await announce(club, found, round_)
    await presence.refresh(club, [user.id])
    return {"seat": seat, "game": round_.id} | round_.summary()


@router.post("/{request_id}/leave")
async def leave_table(request_id: str, request: Request) -> dict[str, Any]:
    """Give up one's seat between games: the hold comes back."""
    club = club_of(request)
    user = await require_user(request)
    found, round_ = await table_of(club, request_id)
    await round_.leave_table(user)
    await announce(club, found, round_)
    await presence.refresh(club, [user.id])
    return {"ok": True}


@router.post("/{request_id}/start")
async def start_table(request_id: str, request: Request) -> dict[str, Any]:
    """The owner starts the next game now (at least three seated, CH-1)."""
    club = club_of(request)
    user = await require_user(request)
    found, round_ = await table_of(club, request_id)
    await round_.start_next(user)
    await announce(club, found, round_)
    return round_.summary()


@router.post("/{request_id}/close")
async def close_table(request_id: str, request: Request) -> dict[str, Any]:
    """The owner ends the table between games: every hold comes back."""
    club = club_of(request)
    user = await require_user(request)
    found, round_ = await table_of(club, request_id)
    seated = list(round_.seats)
    await round_.close(user)
    await announce(club, found, round_)
    await presence.refresh(club, seated)
    return {"ok": True}


async def announce(club: Club, found: GameRequest, round_: ChouetteRound) -> None:
    """The lobby row follows the table: its seats, or its end (the request closes)."""
    game = round_.game
    if game is not None and game.status == "finished":
        async with club.db.transaction() as session:
            await session.execute(
                update(GameRequest)
                .where(GameRequest.id == found.id, GameRequest.status == "open")
                .values(status="accepted")
            )
        await publish_request(club, found, "request_removed", {"id": found.id})
        return
    summary = round_.summary()
    await club.bus.publish("lobby", json.dumps({"t": "table_updated", "d": {
        "request": found.id, "table": summary}}))  # fmt: skip
