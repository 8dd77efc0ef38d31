"""Who is here: each player's status for his friends, and his own socket ``/ws/me``.

A logged-in page keeps one ``/ws/me`` open. It forwards everything published
on the player's ``user:{id}`` channel (notifications, friend status changes,
challenges) and answers pings. While a player has at least one such socket, or
a logged-in lobby socket (``lobby.socket``), somewhere he is ``online``;
``playing`` when he is also seated in a live game (read from the games table,
so it is never stale); else ``offline``. His open requests live only while he
is online (``lobby.withdrawer``).

Several processes (Redis): each process counts only its own sockets and
announces on the ``presence`` channel when a player comes (``up``) or goes
(``down``) here, plus its whole set every :data:`HEARTBEAT` seconds and
whenever a new process says ``hello``. A process not heard from for
:data:`EXPIRY` seconds is forgotten (it crashed), so its players turn offline
without a push; friends' lists are right again at their next load. The process
where a change happens pushes ``friend_status`` to the player's friends, and
only when the club-wide status changed (online elsewhere: nothing to say).

Leaving is announced after :data:`OFFLINE_GRACE` seconds, so a page reload
or a move from page to page is not an offline-online flicker for friends
(lichess waits the same way). Starting or ending a game changes ``playing``:
the lobby calls :func:`refresh` when a game starts, and a finished game's
``RoundMoved`` does it at the end (:func:`subscribe`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from typing import Any, Literal

from fastapi import APIRouter, WebSocket
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.websockets import WebSocketDisconnect

from sheshbesh.server import limits
from sheshbesh.server.accounts import bindings
from sheshbesh.server.accounts.admission import Admitted, serve_admitted
from sheshbesh.server.accounts.bindings import Binding
from sheshbesh.server.accounts.sessions import me_json
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.events import RoundMoved
from sheshbesh.server.limits import Guard
from sheshbesh.server.notify import notes as notify
from sheshbesh.server.pubsub import CATCH_UP
from sheshbesh.store.models import Game, GameSeat, Relation, User

Status = Literal["offline", "online", "playing"]

router = APIRouter()
log = logging.getLogger(__name__)

CHANNEL = "presence"
HEARTBEAT = 10.0
"""Seconds between a process's announcements of everyone connected to it."""
EXPIRY = 3 * HEARTBEAT
"""Seconds of silence after which another process counts as gone."""
OFFLINE_GRACE = 2.0
"""Seconds a player's last socket may be gone before friends hear he left."""
QUEUE_LIMIT = 256


class Presence:
    """This process's sockets per player, and what the other processes announced."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.node = club.settings.node
        self.sockets: Counter[int] = Counter()
        """Open ``/ws/me`` and logged-in lobby sockets per user in this process."""
        self.here: set[int] = set()
        """Users this process counts as online (sockets, or a leave still in its grace)."""
        self.leaving: dict[int, asyncio.Task[None]] = {}
        self.elsewhere: dict[str, tuple[set[int], float]] = {}
        """Other processes' online users and when each was last heard from."""
        self.beat: asyncio.Task[None] | None = None
        self.replies: set[asyncio.Task[None]] = set()

    # --- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        await self.club.bus.subscribe(CHANNEL, self.on_message)
        await self._announce({"hello": True})
        self.beat = asyncio.create_task(self._heartbeat())

    async def stop(self) -> None:
        for task in [*self.leaving.values(), *([self.beat] if self.beat else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.club.bus.unsubscribe(CHANNEL, self.on_message)
        with contextlib.suppress(Exception):  # the bus may already be down
            await self._announce({"bye": True})

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._announce({"all": sorted(self.here)})
            except Exception:
                log.exception("presence heartbeat failed")

    async def _announce(self, message: dict[str, Any]) -> None:
        await self.club.bus.publish_data(CHANNEL, {"node": self.node} | message)

    def on_message(self, text: str | dict[str, Any]) -> None:
        """Fold another process's announcement into :attr:`elsewhere`."""
        if text == CATCH_UP:  # an announcement was lost: every process says all again
            self._reply()
            return
        message = json.loads(text) if isinstance(text, str) else text
        node = message.get("node")
        if not isinstance(node, str) or node == self.node:
            return
        users, _ = self.elsewhere.get(node, (set(), 0.0))
        if "all" in message:
            users = set(message["all"])
        elif "up" in message:
            users.add(message["up"])
        elif "down" in message:
            users.discard(message["down"])
        elif "bye" in message:
            self.elsewhere.pop(node, None)
            return
        self.elsewhere[node] = (users, time.monotonic())
        if message.get("hello"):
            self._reply()

    def _reply(self) -> None:
        """Announce everyone connected here, from a subscriber (which must not wait)."""
        reply = {"node": self.node, "all": sorted(self.here)}
        task = asyncio.create_task(self.club.bus.publish_data(CHANNEL, reply))
        self.replies.add(task)  # held until done, so it is not collected half-way
        task.add_done_callback(self.replies.discard)

    # --- sockets ---------------------------------------------------------------------

    def online(self, user_id: int) -> bool:
        """Whether the user has a socket here or, as last announced, in another process."""
        return user_id in self.here or self._elsewhere(user_id)

    def count(self) -> int:
        """How many players are online in the whole club (the lobby's "players online")."""
        cutoff = time.monotonic() - EXPIRY
        everyone = set(self.here)
        for users, heard in self.elsewhere.values():
            if heard >= cutoff:
                everyone |= users
        return len(everyone)

    def _elsewhere(self, user_id: int) -> bool:
        cutoff = time.monotonic() - EXPIRY
        return any(user_id in users and heard >= cutoff for users, heard in self.elsewhere.values())

    async def connected(self, user_id: int) -> None:
        self.sockets[user_id] += 1
        pending = self.leaving.pop(user_id, None)
        if pending is not None:
            pending.cancel()  # back within the grace: nobody heard he left
        if user_id in self.here:
            return
        was_online = self._elsewhere(user_id)
        self.here.add(user_id)
        await self._announce({"up": user_id})
        if not was_online:
            await refresh(self.club, [user_id])

    async def disconnected(self, user_id: int) -> None:
        self.sockets[user_id] -= 1
        if self.sockets[user_id] > 0:
            return
        del self.sockets[user_id]
        self.leaving[user_id] = asyncio.create_task(self._leave(user_id))

    async def _leave(self, user_id: int) -> None:
        await asyncio.sleep(OFFLINE_GRACE)
        self.leaving.pop(user_id, None)
        self.here.discard(user_id)
        await self._announce({"down": user_id})
        if not self._elsewhere(user_id):
            await tell_friends(self.club, user_id, "offline")


def presence_of(club: Club) -> Presence:
    """The club's presence (made on first use, so a club without :func:`start` works too)."""
    found = club.extras.get("presence")
    if found is None:
        found = club.extras["presence"] = Presence(club)
    assert isinstance(found, Presence)
    return found


async def start(club: Club) -> None:
    """Join the club's presence channel (the app's start)."""
    await presence_of(club).start()


async def stop(club: Club) -> None:
    await presence_of(club).stop()


# --- statuses --------------------------------------------------------------------------


async def statuses(club: Club, session: AsyncSession, user_ids: list[int]) -> dict[int, Status]:
    """Each user's status now: offline, online, or playing (online and seated in a live game)."""
    presence = presence_of(club)
    online = {uid for uid in user_ids if presence.online(uid)}
    playing: set[int] = set()
    if online:
        rows = await session.execute(
            select(Game.seat0_id, Game.seat1_id).where(
                Game.status == "live", or_(Game.seat0_id.in_(online), Game.seat1_id.in_(online))
            )
        )
        playing = {seat for pair in rows.all() for seat in pair} & online
        seated = await session.scalars(  # at a chouette table in session (issue 18)
            select(GameSeat.user_id)
            .join(Game, Game.id == GameSeat.game_id)
            .where(Game.status == "live", GameSeat.left_at.is_(None),
                   GameSeat.user_id.in_(online))
        )  # fmt: skip
        playing |= set(seated)
    return {
        uid: "playing" if uid in playing else "online" if uid in online else "offline"
        for uid in user_ids
    }


async def friend_ids(session: AsyncSession, user_id: int) -> list[int]:
    rows = await session.scalars(
        select(Relation.other_id).where(Relation.user_id == user_id, Relation.kind == "friend")
    )
    return list(rows)


async def tell_friends(club: Club, user_id: int, status: Status) -> None:
    """Push ``friend_status`` to each of the user's friends."""
    async with club.db.read() as session:
        name = await session.scalar(select(User.username).where(User.id == user_id))
        friends = await friend_ids(session, user_id)
    frame = {"t": "friend_status", "d": {"username": name, "status": status}}
    for friend in friends:
        await club.bus.publish_data(f"user:{friend}", frame)


async def refresh(club: Club, user_ids: list[int]) -> None:
    """Tell the friends of each online user his status now (call when a game starts or ends).

    Offline users are skipped: sitting down or standing up changes nothing for
    them. Safe to call from any process: only the caller pushes.
    """
    presence = presence_of(club)
    online = [uid for uid in user_ids if presence.online(uid)]
    if not online:
        return
    async with club.db.read() as session:
        now = await statuses(club, session, online)
    for uid in online:
        await tell_friends(club, uid, now[uid])


def subscribe(club: Club) -> None:
    """A finished game stands its players up: their friends see them online again; a
    chouette table's game starting seats them: playing."""

    async def on_round_moved(moved: RoundMoved) -> None:
        table_started = moved.summary is not None and moved.summary.get("kind") == "chouette"
        if moved.finished or table_started:  # a chouette table seats its players as it starts
            await refresh(club, list(moved.seats))

    club.events.on(RoundMoved, on_round_moved)

    async def on_bus_recovered() -> None:
        # What was published for a player while Redis was away is lost: each of his
        # sockets is sent his hello and his "me" again, read from the database.
        for queue in list(me_queues(club)):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)

    club.bus.on_recovered(on_bus_recovered)


# --- the player's own socket -------------------------------------------------------------


def me_queues(club: Club) -> set[asyncio.Queue[str | None]]:
    """The queues of this process's ``/ws/me`` sockets (``None`` in one: send the hello
    and the player's "me" again, after the bus lost messages)."""
    found = club.extras.get("me_queues")
    if found is None:
        found = club.extras["me_queues"] = set()
    assert isinstance(found, set)
    return found


@router.websocket("/ws/me")
async def me_socket(ws: WebSocket) -> None:
    """Everything published for the player, wherever he is; his presence while it is open.

    The first frame is ``hello`` with his unread count and his friends' statuses.
    The socket is bound to his session (``accounts.bindings``): a frame goes out
    only while it holds, and when it ends the socket is told ``session_ended`` and
    closed with 4401, as is one opened without a live session ("log in first"), so
    that a page whose session ended stops, rather than reopening it again and again.
    """

    club = club_of(ws)

    async def serve(admission: Admitted) -> None:
        if admission.binding is None:
            await ws.close(code=bindings.CLOSE_CODE, reason="log in first")
            return
        await _serve(club, ws, admission.binding, admission.guard)

    await serve_admitted(club, ws, serve)


async def _serve(club: Club, ws: WebSocket, binding: Binding, guard: Guard) -> None:
    queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=QUEUE_LIMIT)
    user = binding.user

    def on_message(message: str | dict[str, Any]) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        with contextlib.suppress(asyncio.QueueFull):  # stored notes are read on reconnect
            queue.put_nowait(None if text == CATCH_UP else text)  # None: his hello again

    channel = f"user:{user.id}"
    presence = presence_of(club)
    await club.bus.subscribe(channel, on_message)
    me_queues(club).add(queue)
    await presence.connected(user.id)
    ended = asyncio.Event()
    binding.when_ended(ended.set)
    ending = asyncio.create_task(ended.wait())
    reader: asyncio.Task[None] | None = None
    try:
        await ws.send_text(json.dumps({"t": "hello", "d": await _hello(club, user.id)}))
        reader = asyncio.create_task(_drain(ws, guard))
        while not reader.done() and not ended.is_set():
            getter = asyncio.create_task(queue.get())
            waited = {getter, reader, ending}
            done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
            elif await binding.alive():
                text = getter.result()
                for line in [text] if text is not None else await _again(club, user.id):
                    await ws.send_text(line)
        if ended.is_set():
            await bindings.close_ended(ws)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        ending.cancel()
        await limits.stopped(reader)
        me_queues(club).discard(queue)
        await club.bus.unsubscribe(channel, on_message)
        await presence.disconnected(user.id)


async def _hello(club: Club, user_id: int) -> dict[str, Any]:
    async with club.db.read() as session:
        friends = await friend_ids(session, user_id)
        now = await statuses(club, session, friends)
        names = dict(
            (
                await session.execute(select(User.id, User.username).where(User.id.in_(friends)))
            ).all()
        )
        unread = await notify.unread_count(session, user_id)
    return {"unread": unread, "friends": {names[uid]: now[uid] for uid in friends}}


async def _again(club: Club, user_id: int) -> list[str]:
    """The hello and the player's "me" (his balance, the game he is in), as frames: what
    the bus lost for him is in them (a game that began meanwhile: the page goes to it)."""
    hello = await _hello(club, user_id)
    async with club.db.read() as session:
        user = await session.get(User, user_id)
        me = None if user is None else await me_json(club, session, user)
    frames = [json.dumps({"t": "hello", "d": hello})]
    if me is not None:
        frames.append(json.dumps({"t": "me", "d": me}))
    return frames


async def _drain(ws: WebSocket, guard: Guard) -> None:
    """Read (and answer pings on) the socket until the client leaves."""
    while (frame := await limits.next_frame(ws, guard)) is not None:
        if isinstance(frame, str) and len(frame) < 256 and '"ping"' in frame:
            await ws.send_text('{"t":"pong"}')
