"""The lobby's socket ``/ws/lobby``: open requests and live games now, then every change.

It also carries the user's own channel and the lobby's chat (``chat.readers.LobbyChat``).
While a logged-in player's lobby socket is open he counts as present, as with ``/ws/me``
(``relations.presence``): his requests stay open (``withdrawer``) and friends see him.
The "now playing" list hears of games that end from the rounds' ``RoundMoved``
(:func:`subscribe`); of games that start, from ``requests.accept``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from sheshbesh.server import limits
from sheshbesh.server.accounts.csrf import same_origin
from sheshbesh.server.accounts.sessions import user_json, user_of
from sheshbesh.server.chat.readers import LobbyChat
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.events import RoundMoved
from sheshbesh.server.limits import Guard
from sheshbesh.server.relations.presence import presence_of
from sheshbesh.server.rounds.spectate import live_summaries
from sheshbesh.store.models import User

from .requests import open_request_views

router = APIRouter()


def subscribe(club: Club) -> None:
    """Keep "now playing" current: a finished game leaves it, a match's score changes."""

    async def on_round_moved(moved: RoundMoved) -> None:
        if moved.finished:
            kind = "game_finished"
        elif moved.game_ended:
            kind = "game_updated"
        else:
            return
        await club.bus.publish("lobby", json.dumps({"t": kind, "d": moved.summary}))

    club.events.on(RoundMoved, on_round_moved)


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """Open requests and live games now, then every change; plus the user's own channel
    and the lobby's chat (``chat.readers.LobbyChat``)."""
    club = club_of(ws)
    if not same_origin(ws):
        await ws.close(code=1008, reason="cross-site socket refused")
        return
    user = await user_of(club, ws)
    guard = await limits.admit(club, ws)
    if guard is None:
        return
    try:
        await _serve(club, ws, user, guard)
    finally:
        guard.release()


async def _serve(club: Club, ws: WebSocket, user: User | None, guard: Guard) -> None:
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=1024)

    def on_message(text: Any) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait(text)

    channels = ["lobby"] + ([f"user:{user.id}"] if user else [])
    for channel in channels:
        await club.bus.subscribe(channel, on_message)
    lobby_chat = LobbyChat(club, user, on_message)
    await lobby_chat.open()
    if user is not None:
        await presence_of(club).connected(user.id)
    reader: asyncio.Task[None] | None = None
    try:
        requests = await open_request_views(club, None if user is None else user.id)
        games = await live_summaries(club)
        hello = {"t": "lobby", "d": {"requests": requests, "games": games,
                                     "you": None if user is None else user_json(user)}}  # fmt: skip
        await ws.send_text(json.dumps(hello))
        await ws.send_text(await lobby_chat.history())
        reader = asyncio.create_task(_drain(ws, lobby_chat, guard))
        while not reader.done():
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                text = await lobby_chat.outgoing(getter.result())
                if text is not None:
                    await ws.send_text(text)
            else:
                getter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await limits.stopped(reader)
        for channel in channels:
            await club.bus.unsubscribe(channel, on_message)
        await lobby_chat.close()
        if user is not None:
            await presence_of(club).disconnected(user.id)


async def _drain(ws: WebSocket, lobby_chat: Any, guard: Guard) -> None:
    """Read the lobby socket until the client leaves: answer pings, take chat lines."""
    while (frame := await limits.next_frame(ws, guard)) is not None:
        reply = await lobby_chat.incoming(frame)
        if reply is not None:
            await ws.send_text(reply)
