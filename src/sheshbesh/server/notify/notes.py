"""Notifications: what a player must learn even while away (lichess's ``notify``).

A note is stored first, in the transaction of the event that caused it
(:func:`add`), and pushed on the player's ``user:{id}`` channel only after the
commit (:func:`push`): nothing is lost while he is offline, and nothing is
announced that a rollback took back. A client that connects later reads the
stored notes (``GET /api/notifications``) and the unread count.

Kinds: ``friend_request``, ``friend_accepted`` (``relations``), ``challenge``,
``request_accepted`` (``lobby``), ``your_turn``, ``double_offered`` and
``draw_offered`` (:func:`tell_turn`, on the rounds' :class:`TurnAwaits`, PL-8),
``game_result`` and ``table_result`` (``standings.aftermath``),
``purchase`` (``money.shop``, stored read: the buyer did it himself). ``data`` is the
kind's own small JSON object; the client renders it and links to its subject.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.sessions import add_me_part, require_user
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError
from sheshbesh.server.events import RoundMoved, TurnAwaits
from sheshbesh.store.models import Notification, User

router = APIRouter(prefix="/api/notifications", tags=["notifications"])

PAGE = 50
"""Notes per page unless the client asks for fewer (at most :data:`PAGE_MAX`)."""
PAGE_MAX = 100
MAX_NOTE_ID = 2**31 - 1
"""The largest id a note can have (the database's integer)."""


def note_json(note: Notification) -> dict[str, Any]:
    """A note as the client shows it."""
    return {"id": note.id, "kind": note.kind, "data": note.data,
            "created_at": note.created_at, "read": note.read_at is not None}  # fmt: skip


async def add(
    session: AsyncSession, now: float, user_id: int, kind: str, data: dict[str, Any],
    *, read: bool = False,
) -> Notification:  # fmt: skip
    """Store one note in the caller's transaction (flushed, so it has its id).

    ``read``: a note of the player's own doing (a purchase) is his record and tells
    his other tabs, but is nothing he has still to learn, so it never counts unread.
    Call :func:`push` with it after the commit.
    """
    read_at = now if read else None
    note = Notification(user_id=user_id, kind=kind, data=data, created_at=now, read_at=read_at)
    session.add(note)
    await session.flush()
    return note


async def unread_count(session: AsyncSession, user_id: int) -> int:
    """How many of the user's notes are unread (the header's bell)."""
    count = await session.scalar(
        select(func.count())
        .select_from(Notification)
        .where(Notification.user_id == user_id, Notification.read_at.is_(None))
    )
    return int(count or 0)


async def push(club: Club, notes: list[Notification]) -> None:
    """Publish committed notes on their owners' ``user:{id}`` channels.

    Each frame carries the owner's unread count as it is now, so every open tab
    sets its bell from the frame alone.
    """
    if not notes:
        return
    owners = {note.user_id for note in notes}
    async with club.db.read() as session:
        counts = {uid: await unread_count(session, uid) for uid in owners}
    for note in notes:
        frame = {"t": "notification", "d": note_json(note) | {"unread": counts[note.user_id]}}
        await club.bus.publish_data(f"user:{note.user_id}", frame)


async def publish_unread(club: Club, user_id: int) -> int:
    """Tell the user's open tabs his unread count (after he read some elsewhere)."""
    async with club.db.read() as session:
        count = await unread_count(session, user_id)
    await club.bus.publish_data(f"user:{user_id}", {"t": "unread", "d": {"unread": count}})
    return count


async def tell_turn(club: Club, waits: TurnAwaits) -> None:
    """A note for a player away from his game (PL-8). An offer to answer is noted each
    time: ``double_offered`` (a beaver too, with the cube it asks for) or
    ``draw_offered``. A plain "your turn" comes once per absence: none while an unread
    one for the same game is waiting."""
    data: dict[str, Any] = {
        "game_id": waits.game_id, "variant": waits.variant, "opponent": waits.opponent
    }  # fmt: skip
    if waits.offer in ("double", "beaver"):
        kind = "double_offered"
        data |= {"cube": waits.cube, "beaver": waits.offer == "beaver"}
    elif waits.offer == "draw":
        kind = "draw_offered"
    else:
        kind = "your_turn"
    async with club.db.transaction() as session:
        if kind == "your_turn":
            waiting = await session.scalar(
                select(Notification.id).where(
                    Notification.user_id == waits.user_id,
                    Notification.kind == "your_turn",
                    Notification.read_at.is_(None),
                    Notification.data["game_id"].as_string() == waits.game_id,
                )
            )
            if waiting is not None:
                return
        note = await add(session, club.now(), waits.user_id, kind, data)
    await push(club, [note])


def subscribe(club: Club) -> None:
    """Push what a round's action noted, note a turn that waits, count unread for the header."""

    async def unread_part(session: AsyncSession, user: User) -> dict[str, Any]:
        return {"unread": await unread_count(session, user.id)}

    async def on_round_moved(moved: RoundMoved) -> None:
        await push(club, list(moved.notes))

    async def on_turn(waits: TurnAwaits) -> None:
        await tell_turn(club, waits)

    add_me_part(club, unread_part)
    club.events.on(RoundMoved, on_round_moved)
    club.events.on(TurnAwaits, on_turn)


# --- routes -------------------------------------------------------------------------


class ReadIn(BaseModel):
    """Which notes to mark read: some by id, or all of them."""

    model_config = ConfigDict(extra="forbid")

    ids: list[Annotated[StrictInt, Field(ge=1, le=MAX_NOTE_ID)]] = Field(
        default_factory=list, max_length=PAGE_MAX
    )
    """Note ids, bounded as the database stores them (a larger one overflowed it: a 500)."""
    all: StrictBool = False


@router.get("")
async def list_notes(
    request: Request,
    before: int | None = Query(
        default=None, ge=1, le=2**31 - 1, description="only notes older than this id"
    ),
    limit: int = Query(default=PAGE, ge=1, le=PAGE_MAX),
) -> dict[str, Any]:
    """The player's notes, newest first; page on with ``before`` = the last id seen."""
    club = club_of(request)
    user = await require_user(request)
    query = select(Notification).where(Notification.user_id == user.id)
    if before is not None:
        query = query.where(Notification.id < before)
    async with club.db.read() as session:
        notes = list(await session.scalars(query.order_by(Notification.id.desc()).limit(limit + 1)))
        unread = await unread_count(session, user.id)
    more = len(notes) > limit
    return {"notes": [note_json(n) for n in notes[:limit]], "more": more, "unread": unread}


@router.get("/unread")
async def unread(request: Request) -> dict[str, int]:
    club = club_of(request)
    user = await require_user(request)
    async with club.db.read() as session:
        return {"unread": await unread_count(session, user.id)}


@router.post("/read")
async def mark_read(body: ReadIn, request: Request) -> dict[str, int]:
    """Mark the player's own notes read; ids of other players' notes change nothing."""
    club = club_of(request)
    user = await require_user(request)
    if not body.all and not body.ids:
        raise ApiError(
            "send the ids to mark read, or all: true", status=422, code="nothing_to_read"
        )
    query = update(Notification).where(
        Notification.user_id == user.id, Notification.read_at.is_(None)
    )
    if not body.all:
        query = query.where(Notification.id.in_(body.ids))
    async with club.db.transaction() as session:
        changed = await session.execute(query.values(read_at=club.now()))
    marked = int(changed.rowcount or 0)  # type: ignore[attr-defined]
    count = await publish_unread(club, user.id) if marked else None
    if count is None:
        async with club.db.read() as session:
            count = await unread_count(session, user.id)
    return {"marked": marked, "unread": count}
