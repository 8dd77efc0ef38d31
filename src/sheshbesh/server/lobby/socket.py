"""The lobby's socket ``/ws/lobby``: open requests and live games now, then every change.

It also carries the user's own channel and the lobby's chat (``chat.readers.LobbyChat``).
While a logged-in player's lobby socket is open he counts as present, as with ``/ws/me``
(``relations.presence``): his requests stay open (``withdrawer``) and friends see him.
The "now playing" list hears of games that end from the rounds' ``RoundMoved``
(:func:`subscribe`); of games that start, from ``requests.accept``.

A player's socket is bound to his session (``accounts.bindings``): his own
channel's frames and his chat lines pass only while it holds, and when it ends
the socket is told ``session_ended`` and closed with 4401.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.websockets import WebSocketDisconnect

from sheshbesh.server import limits
from sheshbesh.server.accounts import bindings
from sheshbesh.server.accounts.admission import Admitted, serve_admitted
from sheshbesh.server.accounts.bindings import Binding
from sheshbesh.server.accounts.sessions import add_me_part, user_json
from sheshbesh.server.chat.readers import LobbyChat
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.events import RoundMoved
from sheshbesh.server.limits import Guard
from sheshbesh.server.pubsub import CATCH_UP
from sheshbesh.server.relations.presence import presence_of
from sheshbesh.server.rounds.spectate import live_summaries
from sheshbesh.store.models import User

from .requests import open_request_views, playing

router = APIRouter()

ONLINE_EVERY = 5.0
"""Seconds between two looks at the club's number of players online, per lobby socket
(a change is sent then, or with the next frame)."""


@dataclass(frozen=True, slots=True)
class Own:
    """A message of the player's own channel: sent only while his session holds."""

    message: Any


def subscribe(club: Club) -> None:
    """Keep "now playing" current: a finished game leaves it, a match's score changes;
    and tell every page the game its player is in (``me.playing``: the forms say why
    nothing else can start meanwhile)."""

    async def playing_part(session: AsyncSession, user: User) -> dict[str, Any]:
        return {"playing": None if user.is_bot else await playing(session, user.id)}

    async def on_round_moved(moved: RoundMoved) -> None:
        if moved.finished:
            kind = "game_finished"
        elif moved.game_ended:
            kind = "game_updated"
        else:
            return
        await club.bus.publish("lobby", json.dumps({"t": kind, "d": moved.summary}))

    async def on_bus_recovered() -> None:
        # Lobby messages may have been lost while Redis was away: each socket reads
        # the requests, games and chat again from the database.
        for queue in list(lobby_queues(club)):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(REFRESH)

    add_me_part(club, playing_part)
    club.events.on(RoundMoved, on_round_moved)
    club.bus.on_recovered(on_bus_recovered)


REFRESH = object()
"""Put in a lobby socket's queue: send the whole lobby and its chat again (after the bus
lost messages, here or, as :data:`~sheshbesh.server.pubsub.CATCH_UP` says, elsewhere)."""


def lobby_queues(club: Club) -> set[asyncio.Queue[Any]]:
    """The queues of this process's lobby sockets."""
    found = club.extras.get("lobby_queues")
    if found is None:
        found = club.extras["lobby_queues"] = set()
    assert isinstance(found, set)
    return found


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """Open requests and live games now, then every change; plus the user's own channel
    and the lobby's chat (``chat.readers.LobbyChat``)."""
    club = club_of(ws)

    async def serve(admission: Admitted) -> None:
        await _serve(club, ws, admission.binding, admission.guard)

    await serve_admitted(club, ws, serve)


async def _serve(club: Club, ws: WebSocket, binding: Binding | None, guard: Guard) -> None:
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=1024)
    user = None if binding is None else binding.user

    def on_message(text: Any) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait(REFRESH if text == CATCH_UP else text)

    def on_own(text: Any) -> None:
        on_message(text if text == CATCH_UP else Own(text))

    channels = {"lobby": on_message} | ({f"user:{user.id}": on_own} if user else {})
    for channel, subscriber in channels.items():
        await club.bus.subscribe(channel, subscriber)
    lobby_chat = LobbyChat(club, binding, on_message)
    await lobby_chat.open()
    if user is not None:
        await presence_of(club).connected(user.id)
    ended = asyncio.Event()
    if binding is not None:
        binding.when_ended(ended.set)
    ending = asyncio.create_task(ended.wait())
    reader: asyncio.Task[None] | None = None
    queues = lobby_queues(club)
    queues.add(queue)

    async def whole_lobby() -> str:
        requests = await open_request_views(club, None if user is None else user.id)
        games = await live_summaries(club)
        hello = {"t": "lobby", "d": {"requests": requests, "games": games,
                                     "online": presence_of(club).count(),
                                     "you": None if user is None else user_json(user)}}  # fmt: skip
        return json.dumps(hello)

    try:
        online = presence_of(club).count()
        loop = asyncio.get_running_loop()
        looked = loop.time()
        await ws.send_text(await whole_lobby())
        await ws.send_text(await lobby_chat.history())
        reader = asyncio.create_task(_drain(ws, lobby_chat, guard))
        while not reader.done() and not ended.is_set():
            getter = asyncio.create_task(queue.get())
            waited = {getter, reader, ending}
            done, _ = await asyncio.wait(
                waited, timeout=ONLINE_EVERY, return_when=asyncio.FIRST_COMPLETED
            )
            if loop.time() - looked >= ONLINE_EVERY:  # "players online", every few seconds
                looked = loop.time()
                now_online = presence_of(club).count()
                if now_online != online:
                    online = now_online
                    await ws.send_text(json.dumps({"t": "online", "d": {"players": online}}))
            if getter not in done:
                getter.cancel()
                continue
            item = getter.result()
            if item is REFRESH:
                await ws.send_text(await whole_lobby())
                await ws.send_text(await lobby_chat.history())
                continue
            if isinstance(item, Own):
                if binding is None or not await binding.alive():
                    continue
                item = item.message
            text = await lobby_chat.outgoing(item)
            if text is not None:
                await ws.send_text(text)
        if ended.is_set():
            await bindings.close_ended(ws)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        queues.discard(queue)
        ending.cancel()
        await limits.stopped(reader)
        for channel, subscriber in channels.items():
            await club.bus.unsubscribe(channel, subscriber)
        await lobby_chat.close()
        if user is not None:
            await presence_of(club).disconnected(user.id)


async def _drain(ws: WebSocket, lobby_chat: Any, guard: Guard) -> None:
    """Read the lobby socket until the client leaves: answer pings, take chat lines."""
    while (frame := await limits.next_frame(ws, guard)) is not None:
        reply = await lobby_chat.incoming(frame)
        if reply is not None:
            await ws.send_text(reply)
