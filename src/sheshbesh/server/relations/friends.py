"""Friends and blocks (lichess's ``relation``): find players, ask, answer, unfriend, block.

A friendship starts as a :class:`FriendRequest` that only its recipient may
accept or decline and only its sender cancel; accepting writes the two
``friend`` relations (one per direction). A block is one-sided: it ends any
friendship and open request between the two, and the blocked player can no
longer ask (he is told only that he cannot). Bots can be blocked, never
befriended.

Every change runs in one transaction that first locks the two players' rows
(``SELECT … FOR NO KEY UPDATE`` on PostgreSQL; SQLite's single writer does the
same), so crossing requests, double clicks and two accepts at once see each
other's result: exactly one wins, the other gets a clear 409. Notifications
are stored in that transaction and pushed after the commit; both players' open
pages hear ``friends_changed`` so they reload their lists.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.sessions import require_user, user_json
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError, Conflict, Forbidden, NotFound
from sheshbesh.server.notify import notes as notify
from sheshbesh.store.models import FriendRequest, Notification, Relation, User, user_named

from . import presence

router = APIRouter(prefix="/api", tags=["friends"])

SEARCH = re.compile(r"[A-Za-z0-9_-]{1,20}")
SEARCH_LIMIT = 20
MAX_OUTGOING = 50
"""Open requests one player may have waiting at once (no spamming the whole club)."""


class NameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=1, max_length=20)


# --- what others may ask ------------------------------------------------------------------


async def blocked_between(session: AsyncSession, a: int, b: int) -> bool:
    """Whether either of the two blocked the other."""
    found = await session.scalar(
        select(Relation.id).where(
            Relation.kind == "block",
            or_(
                (Relation.user_id == a) & (Relation.other_id == b),
                (Relation.user_id == b) & (Relation.other_id == a),
            ),
        )
    )
    return found is not None


async def blocked_by(session: AsyncSession, user_id: int) -> set[int]:
    """The ids of the players this user blocked (his chat hides them)."""
    rows = await session.scalars(
        select(Relation.other_id).where(Relation.user_id == user_id, Relation.kind == "block")
    )
    return set(rows)


async def are_friends(session: AsyncSession, a: int, b: int) -> bool:
    kind = await session.scalar(
        select(Relation.kind).where(Relation.user_id == a, Relation.other_id == b)
    )
    return kind == "friend"


# --- views --------------------------------------------------------------------------------


def request_json(found: FriendRequest, sender: User, recipient: User) -> dict[str, Any]:
    return {"id": found.id, "from": user_json(sender), "to": user_json(recipient),
            "status": found.status, "created_at": found.created_at}  # fmt: skip


@router.get("/players")
async def search_players(
    request: Request, q: str = Query(description="the start of a username (1-20 characters)")
) -> list[dict[str, Any]]:
    """Players whose name starts with ``q`` (any case), people and bots, yourself left out.

    Blocked players are still found (you may want to unblock them); each result
    says how you stand toward him: ``friend``, ``blocked``, ``request_sent``,
    ``request_received`` or null.
    """
    club = club_of(request)
    me = await require_user(request)
    if not SEARCH.fullmatch(q):
        raise ApiError("search with 1-20 letters, digits, '_' or '-'", status=422,
                       code="invalid_search")  # fmt: skip
    async with club.db.read() as session:
        found = list(
            await session.scalars(
                select(User)
                .where(User.username_key.startswith(q.lower(), autoescape=True), User.id != me.id)
                .order_by(User.username_key)
                .limit(SEARCH_LIMIT)
            )
        )
        relations = await _relations(session, me.id, [u.id for u in found])
    return [user_json(u) | {"relation": relations.get(u.id)} for u in found]


async def _relations(session: AsyncSession, me: int, others: list[int]) -> dict[int, str]:
    """How ``me`` stands toward each of ``others`` (absent: strangers)."""
    out: dict[int, str] = {}
    rows = await session.execute(
        select(FriendRequest.sender_id, FriendRequest.recipient_id).where(
            FriendRequest.status == "open",
            or_(
                (FriendRequest.sender_id == me) & FriendRequest.recipient_id.in_(others),
                (FriendRequest.recipient_id == me) & FriendRequest.sender_id.in_(others),
            ),
        )
    )
    for sender, recipient in rows.all():
        out[recipient if sender == me else sender] = (
            "request_sent" if sender == me else "request_received"
        )
    kinds = await session.execute(
        select(Relation.other_id, Relation.kind).where(
            Relation.user_id == me, Relation.other_id.in_(others)
        )
    )
    for other, kind in kinds.all():
        out[other] = "blocked" if kind == "block" else "friend"
    return out


@router.get("/friends")
async def my_friends(request: Request) -> dict[str, Any]:
    """Friends with their status now, open requests both ways, and the players you blocked."""
    club = club_of(request)
    me = await require_user(request)
    async with club.db.read() as session:
        rows = (
            await session.execute(
                select(Relation, User)
                .join(User, User.id == Relation.other_id)
                .where(Relation.user_id == me.id)
                .order_by(User.username_key)
            )
        ).all()
        friends = [(r, u) for r, u in rows if r.kind == "friend"]
        now = await presence.statuses(club, session, [u.id for _, u in friends])
        incoming = await _open_requests(session, FriendRequest.recipient_id == me.id, me)
        outgoing = await _open_requests(session, FriendRequest.sender_id == me.id, me)
    return {
        "friends": [user_json(u) | {"status": now[u.id], "since": r.since} for r, u in friends],
        "incoming": incoming,
        "outgoing": outgoing,
        "blocked": [user_json(u) | {"since": r.since} for r, u in rows if r.kind == "block"],
    }


async def _open_requests(session: AsyncSession, side: Any, me: User) -> list[dict[str, Any]]:
    found = list(
        await session.scalars(
            select(FriendRequest)
            .where(side, FriendRequest.status == "open")
            .order_by(FriendRequest.id.desc())
        )
    )
    others = {r.sender_id if r.sender_id != me.id else r.recipient_id for r in found}
    users = {u.id: u for u in await session.scalars(select(User).where(User.id.in_(others)))}
    users[me.id] = me
    return [request_json(r, users[r.sender_id], users[r.recipient_id]) for r in found]


# --- asking and answering ------------------------------------------------------------------


async def _lock_pair(session: AsyncSession, a: int, b: int) -> None:
    """Hold both players' rows until the commit: their relations change one at a time.

    ``FOR NO KEY UPDATE`` so rows that merely reference the users (a move's
    ledger entries, a notification) are not held up.
    """
    await session.execute(
        select(User.id).where(User.id.in_({a, b})).order_by(User.id).with_for_update(key_share=True)
    )


async def _player(session: AsyncSession, name: str) -> User:
    user = await user_named(session, name)
    if user is None:
        raise NotFound(f"no player {name!r}", code="unknown_player")
    return user


async def _open_between(session: AsyncSession, sender: int, recipient: int) -> FriendRequest | None:
    found: FriendRequest | None = await session.scalar(
        select(FriendRequest).where(
            FriendRequest.sender_id == sender,
            FriendRequest.recipient_id == recipient,
            FriendRequest.status == "open",
        )
    )
    return found


@router.post("/friends/requests", status_code=201)
async def send_request(body: NameIn, request: Request) -> dict[str, Any]:
    """Ask a player to be friends; he is notified (stored, then pushed)."""
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        other = await _player(session, body.username)
        if other.id == me.id:
            raise ApiError("you cannot befriend yourself", status=422, code="self")
        if other.is_bot:
            raise ApiError(f"{other.username} is a bot: bots cannot be friends", status=422,
                           code="bot")  # fmt: skip
        if other.closed_at is not None:
            raise ApiError(f"{other.username}'s account is closed", status=422, code="closed")
        await _lock_pair(session, me.id, other.id)
        mine = await session.scalar(
            select(Relation.kind).where(Relation.user_id == me.id, Relation.other_id == other.id)
        )
        if mine == "block":
            raise Conflict(f"you blocked {other.username}: unblock first", code="you_blocked")
        if await blocked_between(session, me.id, other.id):
            raise Forbidden(f"you cannot send {other.username} a friend request",
                            code="cannot_send")  # fmt: skip
        if mine == "friend":
            raise Conflict(f"you and {other.username} are already friends", code="already_friends")
        if await _open_between(session, me.id, other.id) is not None:
            raise Conflict(f"you already asked {other.username}", code="already_asked")
        theirs = await _open_between(session, other.id, me.id)
        if theirs is not None:
            raise Conflict(f"{other.username} already asked you: accept their request",
                           code="they_asked")  # fmt: skip
        waiting = await session.scalars(
            select(FriendRequest.id).where(
                FriendRequest.sender_id == me.id, FriendRequest.status == "open"
            )
        )
        if len(list(waiting)) >= MAX_OUTGOING:
            raise Conflict(f"you have {MAX_OUTGOING} requests waiting; wait for some answers",
                           code="too_many_requests")  # fmt: skip
        found = FriendRequest(sender_id=me.id, recipient_id=other.id, status="open",
                              created_at=club.now(), answered_at=None)  # fmt: skip
        session.add(found)
        await session.flush()
        note = await notify.add(session, club.now(), other.id, "friend_request",
                                {"request_id": found.id, "from": me.username})  # fmt: skip
    await notify.push(club, [note])
    await _changed(club, me, other)
    return request_json(found, me, other)


MAX_ID = 2**31 - 1
"""The largest id an ``Integer`` column holds (PostgreSQL's): a larger one is no request."""


async def _answerable(session: AsyncSession, request_id: int, me: User, role: str) -> FriendRequest:
    """The open request ``me`` may answer as its ``role`` (``recipient`` or ``sender``), locked."""
    if not 1 <= request_id <= MAX_ID:  # never sent to the database: it would overflow
        raise NotFound(f"no friend request {request_id}")
    found = await session.get(FriendRequest, request_id)
    if found is None or me.id not in (found.sender_id, found.recipient_id):
        raise NotFound(f"no friend request {request_id}")
    await _lock_pair(session, found.sender_id, found.recipient_id)
    await session.refresh(found)  # as the lock holder sees it
    if role == "recipient" and found.recipient_id != me.id:
        raise Forbidden("only the player you asked can answer your request")
    if role == "sender" and found.sender_id != me.id:
        raise Forbidden("only its sender can cancel a request; decline it instead")
    if found.status != "open":
        raise Conflict(f"this request was already {found.status}", code="request_closed")
    return found


async def _close(session: AsyncSession, club: Club, found: FriendRequest, status: str) -> None:
    """Answer the request (guarded: only an open one changes) and read its notification."""
    closed = await session.execute(
        update(FriendRequest)
        .where(FriendRequest.id == found.id, FriendRequest.status == "open")
        .values(status=status, answered_at=club.now())
    )
    if closed.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict("this request was already answered", code="request_closed")
    await session.execute(
        update(Notification)
        .where(
            Notification.user_id == found.recipient_id,
            Notification.kind == "friend_request",
            Notification.read_at.is_(None),
            Notification.data["request_id"].as_integer() == found.id,
        )
        .values(read_at=club.now())
    )


@router.post("/friends/requests/{request_id}/accept")
async def accept_request(request_id: int, request: Request) -> dict[str, Any]:
    """Become friends: both relations, and the sender is notified."""
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        found = await _answerable(session, request_id, me, "recipient")
        await _close(session, club, found, "accepted")
        now = club.now()
        session.add_all([
            Relation(user_id=found.sender_id, other_id=me.id, kind="friend", since=now),
            Relation(user_id=me.id, other_id=found.sender_id, kind="friend", since=now),
        ])  # fmt: skip
        await session.flush()
        sender = await session.get(User, found.sender_id)
        assert sender is not None
        note = await notify.add(session, now, sender.id, "friend_accepted", {"by": me.username})
    await notify.push(club, [note])
    await notify.publish_unread(club, me.id)
    await _changed(club, me, sender)
    async with club.db.read() as session:
        now_status = await presence.statuses(club, session, [me.id, sender.id])
    for who, friend in ((me, sender), (sender, me)):
        frame = {"t": "friend_status",
                 "d": {"username": friend.username, "status": now_status[friend.id]}}  # fmt: skip
        await club.bus.publish_data(f"user:{who.id}", frame)
    return user_json(sender) | {"status": now_status[sender.id], "since": now}


@router.post("/friends/requests/{request_id}/decline")
async def decline_request(request_id: int, request: Request) -> dict[str, bool]:
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        found = await _answerable(session, request_id, me, "recipient")
        await _close(session, club, found, "declined")
        sender = await session.get(User, found.sender_id)
    await notify.publish_unread(club, me.id)
    if sender is not None:
        await _changed(club, me, sender)
    return {"ok": True}


@router.delete("/friends/requests/{request_id}")
async def cancel_request(request_id: int, request: Request) -> dict[str, bool]:
    """Take back a request you sent (its notification counts as read for the recipient)."""
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        found = await _answerable(session, request_id, me, "sender")
        await _close(session, club, found, "cancelled")
        recipient = await session.get(User, found.recipient_id)
    if recipient is not None:
        await notify.publish_unread(club, recipient.id)
        await _changed(club, me, recipient)
    return {"ok": True}


@router.delete("/friends/{username}")
async def unfriend(username: str, request: Request) -> dict[str, bool]:
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        other = await _player(session, username)
        await _lock_pair(session, me.id, other.id)
        if not await are_friends(session, me.id, other.id):
            raise Conflict(f"you and {other.username} are not friends", code="not_friends")
        await _remove_friendship(session, me.id, other.id)
    await _changed(club, me, other)
    return {"ok": True}


async def _remove_friendship(session: AsyncSession, a: int, b: int) -> bool:
    """End a friendship (both rows); whether there was one."""
    removed = await session.execute(
        delete(Relation).where(
            Relation.kind == "friend",
            or_(
                (Relation.user_id == a) & (Relation.other_id == b),
                (Relation.user_id == b) & (Relation.other_id == a),
            ),
        )
    )
    return bool(removed.rowcount)  # type: ignore[attr-defined]


# --- blocks ---------------------------------------------------------------------------------


@router.post("/blocks", status_code=201)
async def block(body: NameIn, request: Request) -> dict[str, Any]:
    """Block a player: ends the friendship and open requests between you; he cannot ask again."""
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        other = await _player(session, body.username)
        if other.id == me.id:
            raise ApiError("you cannot block yourself", status=422, code="self")
        await _lock_pair(session, me.id, other.id)
        mine = await session.scalar(
            select(Relation).where(Relation.user_id == me.id, Relation.other_id == other.id)
        )
        if mine is not None and mine.kind == "block":
            raise Conflict(f"you already blocked {other.username}", code="already_blocked")
        ended = await _remove_friendship(session, me.id, other.id)
        now = club.now()
        cancelled = await session.execute(
            update(FriendRequest)
            .where(
                FriendRequest.status == "open",
                or_(
                    (FriendRequest.sender_id == me.id) & (FriendRequest.recipient_id == other.id),
                    (FriendRequest.sender_id == other.id) & (FriendRequest.recipient_id == me.id),
                ),
            )
            .values(status="cancelled", answered_at=now)
        )
        session.add(Relation(user_id=me.id, other_id=other.id, kind="block", since=now))
        touched = ended or bool(cancelled.rowcount)  # type: ignore[attr-defined]
    # The blocked player hears only that his lists changed, and only if they did.
    await _changed(club, me, other, both=touched)
    return user_json(other) | {"since": now}


@router.delete("/blocks/{username}")
async def unblock(username: str, request: Request) -> dict[str, bool]:
    club = club_of(request)
    me = await require_user(request)
    async with club.db.transaction() as session:
        other = await _player(session, username)
        await _lock_pair(session, me.id, other.id)
        removed = await session.execute(
            delete(Relation).where(
                Relation.user_id == me.id, Relation.other_id == other.id, Relation.kind == "block"
            )
        )
        if removed.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict(f"you have not blocked {other.username}", code="not_blocked")
    await _changed(club, me, other, both=False)
    return {"ok": True}


async def _changed(club: Club, me: User, other: User, *, both: bool = True) -> None:
    """Tell the players' open pages that their friends lists changed (they reload them).

    ``both=False``: only ``me`` hears of it (a block or unblock that changed
    nothing the other can see is not announced to him).
    """
    pairs = [(me, other), (other, me)] if both else [(me, other)]
    for user, counterpart in pairs:
        frame = {"t": "friends_changed", "d": {"with": counterpart.username}}
        await club.bus.publish_data(f"user:{user.id}", frame)
