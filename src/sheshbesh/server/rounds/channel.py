"""The game's WebSocket: join, snapshot, actions, events with sequence numbers, resync.

Players and spectators use the same socket and get the same events; only a
player gets ``legal`` frames, and only a player's actions are accepted (the
round checks the seat). A spectator is not shown a cube offer until it is
answered (PL-3): the batches of a pending offer go to the players only, and the
spectator's snapshot and resync stop before it; the answer's batch then reaches
him with a gap before it, which the writer fills from the stored log as it fills
any gap, so he hears the offer and the answer in order.

Each process keeps one :class:`Hub` per game it serves: the hub subscribes to
``game:{id}`` once, turns each bus message into frames once, and hands them to
its sockets' queues; each socket's writer sends them in order, filling any gap
from the stored log, so a client never sees a hole or a repeat in ``v``
(DESIGN principle 3, STYLE "exact resync").

The same socket carries the game's two chat rooms (``chat.py``): the hub hands a
line only to the sockets whose seat may read its room, and each writer drops
lines from players its reader blocked (``chat.readers``).

A player's socket is bound to his session (``accounts.bindings``): an action or a
chat line is taken only while the session holds, and when it ends the socket is
told ``session_ended`` and closed with 4401. Opened again without a live session,
it is a spectator's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from sheshbesh.server import wire
from sheshbesh.server.accounts import bindings
from sheshbesh.server.accounts.admission import TRY_AGAIN, Admitted, serve_admitted
from sheshbesh.server.accounts.bindings import Binding
from sheshbesh.server.chat import rooms as chat
from sheshbesh.server.chat.readers import ChatItem, blocklists_of, history_frame, say
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import (
    ApiError,
    as_api_error,
    database_unreachable,
    log_failure,
)
from sheshbesh.server.limits import CLOSE_CODE, Budget, Guard, Verdict
from sheshbesh.server.protocol import (
    ActionMsg,
    BadFrame,
    ChatMsg,
    PingMsg,
    SyncMsg,
    error_frame,
    frame,
    parse_client,
)
from sheshbesh.server.repeats import Repeats
from sheshbesh.store.models import User

from .chouette import ChouetteRound
from .log import events_after
from .round import AnyRound, rounds_of
from .spectate import count_spectator

log = logging.getLogger(__name__)
T = TypeVar("T")
DATABASE_RETRY = 1.0
"""Seconds a socket's writer waits before asking an unreachable database again."""
router = APIRouter()
QUEUE_LIMIT = 512
"""Frames a socket may fall behind before it is closed (the client resyncs on reconnect)."""
CLOSING_WAIT = 5.0
"""Seconds a flooding socket's writer has to send what was queued before it is closed."""
SYNC_RATE, SYNC_BURST = 1.0, 3.0
"""Resyncs a socket may ask for: one a second, three at once (more get ``rate_limited``)."""
SNAPSHOT_AFTER = 50
"""A resync further behind than this many events gets a snapshot, not the log (lila's
``resync``): a client asking again and again from ``v=0`` costs one frame, not the game."""


@dataclass
class Batch:
    """One bus message as frames: events (with their seq), the state with its clock, legal."""

    events: list[tuple[int, str]]
    after: list[str]
    legal: dict[int, str] = field(default_factory=dict)
    """Seat → its ``legal`` frame: the seat to act, or at a chouette table each seat
    with something on its menu."""


@dataclass(frozen=True, slots=True)
class Closing:
    """The socket's last item: close it (after the frames queued before)."""

    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class CatchUp:
    """Send what the stored log has beyond what this socket was sent (the round reloaded
    events no message brought)."""


@dataclass(frozen=True, slots=True)
class ChatAgain:
    """Send the histories of the rooms this socket reads again: lines published while the
    bus was losing messages never came (the client shows a history in place of its lines)."""


Item = Batch | str | int | ChatItem | Closing | CatchUp | ChatAgain
"""What a socket's writer sends: a batch, a frame, a resync from ``v``, a chat line, the
close, a catch-up, or the chat again."""


@dataclass(eq=False)
class Socket:
    ws: WebSocket
    seat: int | None
    last: int = -1
    queue: asyncio.Queue[Item] = field(default_factory=lambda: asyncio.Queue())
    user_id: int | None = None
    """The reader, whose blocks hide chat lines (None: a guest)."""
    binding: Binding | None = None
    """The reader's session: chat lines reach him only while it holds (None: a guest)."""

    def put(self, item: Item) -> None:
        if self.queue.qsize() >= QUEUE_LIMIT:
            raise OverflowError("socket too slow")
        self.queue.put_nowait(item)


class Hub:
    """This process's sockets of one game and its subscription to the game's channel."""

    def __init__(self, club: Club, round_: AnyRound) -> None:
        self.club = club
        self.round = round_
        self.sockets: set[Socket] = set()
        self.channel = f"game:{round_.id}"
        round_.on_advanced = self.catch_up_sockets

    def catch_up_sockets(self) -> None:
        """The round reloaded events from the database that no message brought here: each
        socket is sent what it has not had (a socket opened on this process after the one
        that stored a move was killed before publishing it; its player's opponent, on
        this process too, waited for that move for ever)."""
        for socket in list(self.sockets):
            _put(socket, CatchUp())

    def on_message(self, text: str | dict[str, Any]) -> None:
        message = wire.loads(text) if isinstance(text, str) else text
        if "chat" in message:
            line = message["chat"]
            room, live = line["room"], self.round.live
            readers = [s for s in self.sockets if chat.may_read(room, s.seat is not None, live)]
            if room == "crew":  # CH-4: that game's crew only, never its banker
                crew = crew_of(self.round, line.get("game"))
                readers = [s for s in readers if s.seat in crew]
            self.fan_out(ChatItem.of(line), readers)
            return
        if "catch_up" in message:  # a process dropped a message of this game (Redis away)
            _in_background(
                _patiently(self.resync, f"game {self.round.id}: a catch-up"),
                f"game {self.round.id}: catch-up",
            )
            return
        batch: Batch | str
        if "aborted" in message:  # a player never arrived: the game ended without a move
            batch = frame("aborted", message["aborted"])
            _in_background(self.round.refresh(), f"game {self.round.id}: refresh")
        elif "presence" in message:
            batch = frame("presence", message["presence"])
            _in_background(
                self.round.heard_presence(message["presence"]), f"game {self.round.id}: presence"
            )
        else:
            seq = message["seq"]
            state = {**message["state"], "clock": message["clock"], "held": message.get("held")}
            batch = Batch(
                [(e["seq"], frame("event", e, v=e["seq"])) for e in message["events"]],
                [frame("state", state, v=seq)],
                _legal_frames(message, seq),
            )
            if not self._followed(message):  # behind by more than this message
                _in_background(self.round.refresh(), f"game {self.round.id}: refresh")
            if message.get("offer") is not None:  # PL-3: for the players' eyes until answered
                self.fan_out(batch, [s for s in self.sockets if s.seat is not None])
                return
        self.fan_out(batch, list(self.sockets))

    def _followed(self, message: dict[str, Any]) -> bool:
        """Whether the round folded ``message`` in; a fold that fails is logged and left to a
        refresh from the stored log, so the sockets still get the message."""
        try:
            return self.round.follow(message)
        except Exception:
            log.exception("game %s: following a move failed; reloading it", self.round.id)
            return False

    async def resync(self) -> None:
        """Messages of this game may have been lost between processes (Redis went away):
        hand the sockets the latest stored event and the game after it, as a message
        would have, so each writer sends what its socket missed from the stored log; and
        the chat's histories again, whose lines may have been lost too."""
        round_ = self.round
        self.fan_out(ChatAgain(), list(self.sockets))
        await round_.refresh()
        table, game = round_.table, round_.game
        if table is None or game is None:
            return
        if game.status == "aborted":
            self.on_message({"aborted": round_.aborted()})
            return
        message = await _latest_message(self.club, round_)
        if message is not None:
            self.on_message(message)

    def fan_out(self, item: Item, sockets: list[Socket]) -> None:
        for socket in sockets:
            try:
                socket.put(item)
            except OverflowError:
                self.sockets.discard(socket)
                _in_background(_close(socket, TRY_AGAIN, "too slow"), "closing a slow socket")


class Hubs:
    def __init__(self, club: Club) -> None:
        self.club = club
        self.hubs: dict[str, Hub] = {}
        self.resyncing: set[asyncio.Task[None]] = set()
        """Resyncs after a bus loss that wait for the database (kept: a task nobody holds
        may be collected before it ends)."""

    async def join(self, round_: AnyRound, socket: Socket) -> Hub:
        hub = self.hubs.get(round_.id)
        if hub is None:
            hub = self.hubs[round_.id] = Hub(self.club, round_)
            await self.club.bus.subscribe(hub.channel, hub.on_message)
        hub.sockets.add(socket)
        return hub

    async def resync(self) -> None:
        """After the bus lost messages: every game served here catches up its sockets, each
        in a task of its own that waits while the database is unreachable too (Redis and
        PostgreSQL down together: the sockets once never heard what they missed)."""
        for hub in list(self.hubs.values()):
            task = asyncio.get_running_loop().create_task(self._resync(hub))
            self.resyncing.add(task)
            task.add_done_callback(self.resyncing.discard)

    async def _resync(self, hub: Hub) -> None:
        async def once() -> None:
            if self.hubs.get(hub.round.id) is hub:  # else nobody here is left to tell
                await hub.resync()

        try:
            await _patiently(once, f"game {hub.round.id}: the resync after a bus loss")
        except Exception:
            log.exception("game %s: resync after a bus loss failed", hub.round.id)

    async def leave(self, hub: Hub, socket: Socket) -> None:
        hub.sockets.discard(socket)
        if not hub.sockets and self.hubs.get(hub.round.id) is hub:
            del self.hubs[hub.round.id]
            hub.round.on_advanced = None
            await self.club.bus.unsubscribe(hub.channel, hub.on_message)


def crew_of(round_: AnyRound, number: Any) -> frozenset[int]:
    """The seats of chouette game ``number``'s crew while it is the table's latest game."""
    if not isinstance(round_, ChouetteRound) or not isinstance(number, int):
        return frozenset()
    return round_.crew_seats(number)


def chat_room(round_: AnyRound, socket: Socket, msg: ChatMsg) -> chat.Room:
    """The room a socket's chat frame speaks in; a crew line only from that game's crew,
    and a proposed play only there, checked against the captain's dice (CH-4)."""
    if msg.room != "crew":
        if msg.play is not None:
            raise ApiError("only a crew line proposes a play (CH-4)", code="bad_frame")
        return chat.Room.game(round_.id, msg.room or "")
    if not isinstance(round_, ChouetteRound) or round_.table is None:
        raise ApiError("only a chouette table has a crew's room", code="bad_frame")
    number = round_.table.session.number
    if socket.seat is None or socket.seat not in round_.crew_seats(number):
        raise chat.ChatForbidden("only this game's crew writes in the crew's room (CH-4)")
    if msg.play is not None:
        round_.check_proposal(msg.play)
    return chat.Room.crew(round_.id, number)


def rooms_read(round_: AnyRound, socket: Socket) -> list[chat.Room]:
    """The rooms whose history a socket gets when it opens: the game's, and at a chouette
    table the crew's room of the current game for its crew."""
    rooms = [chat.Room.game(round_.id, name)
             for name in chat.readable(socket.seat is not None, round_.live)]  # fmt: skip
    if isinstance(round_, ChouetteRound) and round_.table is not None:
        number = round_.table.session.number
        if socket.seat is not None and socket.seat in round_.crew_seats(number):
            rooms.append(chat.Room.crew(round_.id, number))
    return rooms


def _legal_frames(message: dict[str, Any], seq: int) -> dict[int, str]:
    """Each acting seat's menu as a frame: a two-player game's one seat to act, or a
    chouette table's menus by seat (several answer a double at once)."""
    legal = message["legal"]
    if legal is None:
        return {}
    if isinstance(legal, dict):
        return {int(seat): frame("legal", menu, v=seq) for seat, menu in legal.items() if menu}
    return {message["to_act"]: frame("legal", legal, v=seq)}


_background: set[asyncio.Task[None]] = set()
"""Tasks run beside the sockets' flow (held here: the event loop keeps only a weak
reference to a task, which may then be collected before it ends)."""


def _in_background(work: Coroutine[Any, Any, None], what: str) -> None:
    """Run ``work`` beside the socket's flow; a failure is logged, never left unread. The
    database gone for a moment is a warning: the next message refreshes again."""

    async def run() -> None:
        try:
            await work
        except Exception as error:
            log_failure(log, what, error)

    task = asyncio.get_running_loop().create_task(run())
    _background.add(task)
    task.add_done_callback(_background.discard)


def hubs_of(club: Club) -> Hubs:
    hubs = club.extras.get("hubs")
    if hubs is None:
        hubs = club.extras["hubs"] = Hubs(club)
        club.bus.on_recovered(hubs.resync)
    assert isinstance(hubs, Hubs)
    return hubs


@router.websocket("/ws/game/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    club = club_of(ws)

    async def serve(admission: Admitted) -> None:
        await _serve(club, ws, game_id, admission.guard, admission.binding)

    await serve_admitted(club, ws, serve)


async def _serve(club: Club, ws: WebSocket, game_id: str, guard: Guard,
                 binding: Binding | None) -> None:  # fmt: skip
    user = None if binding is None else binding.user
    try:
        round_ = await rounds_of(club).get(game_id[:20])
    except ApiError as error:
        await ws.send_text(error_frame(error.code, error.message))
        await ws.close(code=4404)
        return
    seat = round_.seat_of(user.id if user else None)
    socket = Socket(ws, seat, user_id=user.id if user else None, binding=binding)
    if binding is not None:
        binding.when_ended(lambda: _session_ended(socket))
    hubs = hubs_of(club)
    if user is not None:
        await blocklists_of(club).watch(user.id)
    hub = await hubs.join(round_, socket)
    writer: asyncio.Task[None] | None = None
    try:  # from here on, whatever fails is undone below: no socket stays behind in the hub
        if seat is not None:
            await round_.arrive(seat)
        else:
            await count_spectator(club, round_, +1)
        writer = asyncio.create_task(_write(club, round_, socket, _since(ws)))
        writer.add_done_callback(partial(_writer_ended, round_, socket))
        await _read(club, round_, socket, binding, guard)
    finally:
        if writer is not None:
            if guard.flooded or (binding is not None and binding.ended):
                await asyncio.wait({writer}, timeout=CLOSING_WAIT)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
        await hubs.leave(hub, socket)
        if user is not None:
            await blocklists_of(club).unwatch(user.id)
        try:
            if seat is not None:
                await round_.leave(seat)
            else:
                await count_spectator(club, round_, -1)
        except Exception as error:  # the database away: the count or mark heals later
            log_failure(log, f"game {round_.id}: leaving", error)
        if not hub.sockets:
            rounds_of(club).forget_finished()


SERVER_FAILED = 1011
"""The close code of a socket whose writer failed: the client reconnects and resumes."""


def _writer_ended(round_: AnyRound, socket: Socket, writer: asyncio.Task[None]) -> None:
    """A writer that failed leaves its socket open and silent: the client would wait
    for frames that never come (CI once saw a page stop 23 events short). Log why and
    close the socket; the client reconnects with ``?v=`` and misses nothing."""
    if writer.cancelled() or (error := writer.exception()) is None:
        return
    log.error("game %s seat %s: a socket's writer failed; closing it for a resume",
              round_.id, socket.seat, exc_info=error)  # fmt: skip

    _in_background(_close(socket, SERVER_FAILED, "the server failed; resume"),
                   f"game {round_.id}: closing a failed writer's socket")  # fmt: skip


async def _close(socket: Socket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):  # the client may be gone already
        await socket.ws.close(code=code, reason=reason)


def _since(ws: WebSocket) -> int | None:
    value = ws.query_params.get("v")
    if value is None or not value.isdigit() or len(value) > 9:
        return None
    return int(value)


async def _read(club: Club, round_: AnyRound, socket: Socket, binding: Binding | None,
                guard: Guard) -> None:  # fmt: skip
    """Answer the client's frames until it leaves (or is closed for flooding, or its
    session ended: the writer then sends what is queued and closes it)."""
    reader = Reader(club, round_, socket, binding)
    try:
        while True:
            try:
                message = await socket.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if not await guard.admits(lambda text: _put(socket, text)):
                if guard.flooded:  # the writer sends what is queued, then closes
                    socket.queue.put_nowait(Closing(CLOSE_CODE, guard.reason))
                    return
                continue
            text = message.get("text")
            await reader.answer((message.get("bytes") or b"") if text is None else text)
            if binding is not None and binding.ended:
                return
    finally:
        reader.repeats.flush()


class Reader:
    """What one game socket's client frames do: pings, resyncs, chat lines and actions."""

    def __init__(self, club: Club, round_: AnyRound, socket: Socket,
                 binding: Binding | None) -> None:  # fmt: skip
        self.club = club
        self.round = round_
        self.socket = socket
        self.binding = binding
        self.user: User | None = None if binding is None else binding.user
        self.repeats = Repeats(log)
        self.syncs = Budget(SYNC_RATE, SYNC_BURST)

    async def may_act(self) -> bool:
        """Whether the player's session still holds (a guest's frames are refused later,
        as a guest's); when it ended, the socket is on its way to closing."""
        return self.binding is None or await self.binding.alive()

    async def answer(self, text: str | bytes) -> None:
        socket, round_ = self.socket, self.round
        try:
            msg = parse_client(text, self.club.settings.max_frame)
        except BadFrame as error:
            _put(socket, error_frame(error.code, str(error), "frame"))
            return
        if isinstance(msg, PingMsg):
            _put(socket, frame("pong"))
        elif isinstance(msg, SyncMsg):
            verdict = self.syncs.spend()
            if verdict is Verdict.PASS:
                _put(socket, msg.last)
            elif verdict is Verdict.WARN:
                _put(socket, self.syncs.warning("sync", "syncs"))
        elif isinstance(msg, ChatMsg):
            if not await self.may_act():
                return
            try:
                room = chat_room(round_, socket, msg)
            except ApiError as error:
                _put(socket, error_frame(error.code, error.message, "chat"))
                return
            answer = await say(self.club, self.user, room, msg.text, msg.play)
            if answer is not None:
                _put(socket, answer)
        elif isinstance(msg, ActionMsg):
            user_id = None if self.user is None else self.user.id
            try:
                if not await self.may_act():
                    return
                await round_.act(user_id, msg.seen, msg.data)
            except Exception as error:  # every refusal is a clear error frame
                _put(socket, _refusal(round_, socket, msg, error, self.repeats))


def _refusal(round_: AnyRound, socket: Socket, msg: ActionMsg, error: Exception,
             repeats: Repeats) -> str:  # fmt: skip
    """The error frame for a refused action, logged (a run of the same refusal, once)."""
    kind = str(msg.data.get("type"))[:20]
    who = f"game {round_.id} seat {socket.seat}: {kind}"
    try:
        refusal = as_api_error(error)
    except Exception:
        repeats.log(logging.ERROR, f"{who} failed: {error!r}", exc_info=True)
        refusal = ApiError("the server failed on this action", status=500, code="internal")
    else:
        repeats.log(logging.INFO, f"{who} refused ({refusal.code}): {refusal.message}")
    return error_frame(refusal.code, refusal.message, "action")


def _session_ended(socket: Socket) -> None:
    """The player's session ended: nothing more for this socket but the news and the close."""
    while not socket.queue.empty():
        socket.queue.get_nowait()
    socket.queue.put_nowait(bindings.NOTICE)
    socket.queue.put_nowait(Closing(bindings.CLOSE_CODE, bindings.REASON))


def _put(socket: Socket, item: Item) -> None:
    with contextlib.suppress(OverflowError):
        socket.put(item)


async def _write(club: Club, round_: AnyRound, socket: Socket, since: int | None) -> None:
    """Send the first frames (snapshot, or what was missed) and then everything queued.

    What needs the database (a snapshot, a gap filled from the stored log, a session
    or block check) waits while the database is unreachable and tries again, so the
    socket hears everything once it is back, in order (issue 20)."""
    ws = socket.ws
    try:
        hello = {"game": round_.id, "you": socket.seat, "players": round_.players()}
        await ws.send_text(frame("hello", hello))

        behind = False  # a player's page back behind the stored log

        async def first() -> None:
            nonlocal behind
            if not club.db.is_sqlite:  # another process may have moved the game on meanwhile
                await round_.refresh()
            current = _current(round_, socket)
            if since is None or since > current:
                await _send_snapshot(club, round_, socket)
            else:
                await _resend(club, round_, socket, since)
            behind = socket.seat is not None and since is not None and since < current

        await _patiently(first, f"game {round_.id}: a socket's first frames")
        if behind:
            await _patiently(partial(_retell, club, round_), f"game {round_.id}: a retelling")
        sent = await _send_histories(club, round_, socket)  # lines that may also be queued
        blocklists = blocklists_of(club)
        while True:
            item = await socket.queue.get()
            await asyncio.sleep(0)  # a long queue must not hold the event loop either
            if isinstance(item, str):
                await ws.send_text(item)
            elif isinstance(item, ChatItem):
                if item.id in sent:
                    sent.discard(item.id)
                    continue
                binding = socket.binding
                if binding is not None and not await _patiently(binding.alive, "a session check"):
                    continue  # the session ended: the close is queued
                if await _patiently(
                    partial(blocklists.shows, socket.user_id, item), "a block check"
                ):
                    await ws.send_text(item.text)
            elif isinstance(item, int):
                await _patiently(
                    partial(_resend, club, round_, socket, item), f"game {round_.id}: a resync"
                )
            elif isinstance(item, Closing):
                await ws.close(code=item.code, reason=item.reason)
                return
            elif isinstance(item, ChatAgain):
                sent = await _send_histories(club, round_, socket)
            elif isinstance(item, CatchUp):
                if _current(round_, socket) > socket.last:
                    await _patiently(
                        partial(_resend, club, round_, socket, socket.last),
                        f"game {round_.id}: a catch-up",
                    )
            else:
                await _patiently(
                    partial(_send_batch, club, round_, socket, item), f"game {round_.id}: a batch"
                )
    except (WebSocketDisconnect, RuntimeError, ConnectionError, ClientDisconnected):
        return


async def _retell(club: Club, round_: AnyRound) -> None:
    """Publish the game's latest stored event again, for every process. A player's page
    that comes back behind the stored log may have sent its move to a process that was
    killed after storing it and before telling anyone: his opponent's socket on a third
    process then waited for ever (issue 20, the bench's kill -9). A process that has the
    event skips it; one that lacks it reads the log."""
    game = round_.game
    if club.db.is_sqlite or game is None or game.status == "aborted":
        return  # one process: it heard every message
    message = await _latest_message(club, round_)
    if message is not None:
        await club.bus.publish_data(f"game:{round_.id}", message)


async def _latest_message(club: Club, round_: AnyRound) -> dict[str, Any] | None:
    """The bus message of the game's latest stored event and the game after it (None
    before the round has a table or its log an event): what a process says again when
    a message of it may have been lost."""
    if round_.table is None:
        return None
    async with club.db.read() as session:
        latest = await events_after(session, round_.id, round_.table.seq - 1)
    return round_.message_now(latest[-1:]) if latest else None


async def _send_histories(club: Club, round_: AnyRound, socket: Socket) -> set[int]:
    """The ``chat_history`` of each room the socket reads; the ids of the lines sent."""
    sent: set[int] = set()
    for room in rooms_read(round_, socket):
        text, ids = await _patiently(
            partial(history_frame, club, room, socket.user_id),
            f"game {round_.id}: a chat history",
        )
        await socket.ws.send_text(text)
        sent |= ids
    return sent


async def _patiently(work: Callable[[], Awaitable[T]], what: str) -> T:
    """``work()``, tried again every second while the database is unreachable."""
    while True:
        try:
            return await work()
        except Exception as error:
            if not database_unreachable(error):
                raise
            log.warning("%s waits for the database (%r)", what, error)
            await asyncio.sleep(DATABASE_RETRY)


def _current(round_: AnyRound, socket: Socket) -> int:
    """The last sequence number ``socket`` may see: a spectator's stops before a pending
    cube offer (PL-3)."""
    if round_.table is None:
        return 0
    return round_.table.seq if socket.seat is not None else round_.shown_seq()


async def _send_snapshot(club: Club, round_: AnyRound, socket: Socket) -> None:
    snapshot = await round_.snapshot_for(socket.seat, club.now())
    seq = snapshot["seq"]
    await socket.ws.send_text(frame("snapshot", snapshot, v=seq))
    socket.last = seq


async def _resend(club: Club, round_: AnyRound, socket: Socket, since: int) -> None:
    """Every stored event after ``since``, then the current state (a reconnect or a sync);
    a snapshot instead when ``since`` is more than :data:`SNAPSHOT_AFTER` events behind."""
    current = _current(round_, socket)
    if since > current:
        await socket.ws.send_text(
            error_frame("bad_frame", f"the game is at v={current}; nobody saw v={since}", "sync")
        )
        since = min(socket.last, current)
    if current - since > SNAPSHOT_AFTER:
        await _send_snapshot(club, round_, socket)
        return
    snapshot = await round_.snapshot_for(socket.seat, club.now())
    async with club.db.read() as session:
        events = await events_after(session, round_.id, since)
    events = [event for event in events if event["seq"] <= snapshot["seq"]]
    for event in events:
        await socket.ws.send_text(frame("event", event, v=event["seq"]))
    last = events[-1]["seq"] if events else since
    socket.last = max(last, socket.last)
    await _send_after(socket, snapshot, last)


async def _send_after(socket: Socket, snapshot: dict[str, Any], v: int) -> None:
    state = {**snapshot["state"], "clock": snapshot["clock"], "held": snapshot["held"]}
    await socket.ws.send_text(frame("state", state, v=v))
    await socket.ws.send_text(frame("presence_all", snapshot["presence"]))
    if snapshot["aborted"] is not None:
        await socket.ws.send_text(frame("aborted", snapshot["aborted"]))
    if snapshot["legal"] is not None:
        await socket.ws.send_text(frame("legal", snapshot["legal"], v=v))


async def _send_batch(club: Club, round_: AnyRound, socket: Socket, batch: Batch) -> None:
    ws = socket.ws
    if not batch.events:
        return
    first = batch.events[0][0]
    if first > socket.last + 1:  # a gap: events stored by another process arrived later
        async with club.db.read() as session:
            missed = await events_after(session, round_.id, socket.last)
        for event in missed:
            if event["seq"] < first:
                await ws.send_text(frame("event", event, v=event["seq"]))
                socket.last = event["seq"]
    sent = False
    for seq, text in batch.events:
        if seq > socket.last:
            await ws.send_text(text)
            socket.last = seq
            sent = True
    if not sent:
        return
    for text in batch.after:
        await ws.send_text(text)
    if socket.seat is not None and socket.seat in batch.legal:
        await ws.send_text(batch.legal[socket.seat])
