"""How chat lines reach sockets: each reader's blocks, and the lobby socket's chat.

A line on the bus becomes one :class:`ChatItem` (its frame is built once); each
socket's writer then asks :class:`Blocklists` whether its reader blocked the
author, and skips the line if so. The blocked set of every logged-in reader
connected to this process is read from the database once and dropped as soon
as his ``user:{id}`` channel says his lists changed (``friends_changed``, which
``social`` publishes on every block and unblock, on whichever process), so a
block holds from the next line on, with no query per line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sheshbesh.server.accounts.bindings import Binding
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.server.protocol import BadFrame, ChatMsg, PingMsg, error_frame, frame, parse_client
from sheshbesh.server.pubsub import CATCH_UP
from sheshbesh.server.relations import friends as social
from sheshbesh.store.models import User

from . import rooms as chat


@dataclass(frozen=True, slots=True)
class ChatItem:
    """A line ready to send: its id (to skip one already sent in a history), author, frame."""

    id: int
    author: int
    text: str

    @classmethod
    def of(cls, line: dict[str, Any]) -> ChatItem:
        return cls(line["id"], line["user"]["id"], frame("chat", line))


def _json(message: str | dict[str, Any]) -> dict[str, Any]:
    data = json.loads(message) if isinstance(message, str) else message
    assert isinstance(data, dict)
    return data


class Blocklists:
    """Whom each reader connected to this process blocked, kept exact by his user channel."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.sets: dict[int, frozenset[int]] = {}
        self.readers: dict[int, int] = {}
        """User id → his sockets here that read chat."""
        self.listeners: dict[int, Any] = {}
        self.generation: dict[int, int] = {}

    async def watch(self, user_id: int) -> None:
        """A socket of this reader opened: follow his channel while any is open."""
        self.readers[user_id] = self.readers.get(user_id, 0) + 1
        if self.readers[user_id] == 1:
            listener = self.listeners[user_id] = self._listener(user_id)
            await self.club.bus.subscribe(f"user:{user_id}", listener)

    async def unwatch(self, user_id: int) -> None:
        self.readers[user_id] -= 1
        if self.readers[user_id] == 0:
            del self.readers[user_id]
            self.sets.pop(user_id, None)
            await self.club.bus.unsubscribe(f"user:{user_id}", self.listeners.pop(user_id))

    def _listener(self, user_id: int) -> Any:
        def changed(message: str | dict[str, Any]) -> None:
            # A catch-up: what was lost may have been a change of friends.
            if message == CATCH_UP or _json(message).get("t") == "friends_changed":
                self.sets.pop(user_id, None)
                self.generation[user_id] = self.generation.get(user_id, 0) + 1

        return changed

    async def of(self, user_id: int) -> frozenset[int]:
        """The players ``user_id`` blocked (cached while he is watched here)."""
        found = self.sets.get(user_id)
        if found is not None:
            return found
        generation = self.generation.get(user_id, 0)
        async with self.club.db.read() as session:
            found = frozenset(await social.blocked_by(session, user_id))
        # A change that arrived while reading may be missing from what was read: keep nothing.
        if user_id in self.readers and self.generation.get(user_id, 0) == generation:
            self.sets[user_id] = found
        return found

    async def shows(self, reader: int | None, item: ChatItem) -> bool:
        """Whether this reader gets the line (never one from a player he blocked)."""
        return reader is None or item.author not in await self.of(reader)


def blocklists_of(club: Club) -> Blocklists:
    found = club.extras.get("chat_blocklists")
    if found is None:
        found = club.extras["chat_blocklists"] = Blocklists(club)
    assert isinstance(found, Blocklists)
    return found


async def blocked_of(club: Club, user_id: int) -> set[int]:
    return set(await blocklists_of(club).of(user_id))


async def history_frame(club: Club, room: chat.Room, reader: int | None) -> tuple[str, set[int]]:
    """A ``chat_history`` frame for a socket that opens the room, and the ids it carries."""
    blocked = set() if reader is None else await blocked_of(club, reader)
    lines = await chat.history(club, room, blocked)
    data: dict[str, Any] = {"room": room.name, "lines": lines}
    if room.number is not None:
        data["game"] = room.number
    text = frame("chat_history", data)
    return text, {line["id"] for line in lines}


class LobbyChat:
    """The lobby socket's chat: its subscription, its history, its lines in and out.
    A player's lines are taken only while the session his socket is bound to holds."""

    def __init__(self, club: Club, binding: Binding | None, put: Any) -> None:
        self.club = club
        self.binding = binding
        self.user = None if binding is None else binding.user
        self.reader = None if self.user is None else self.user.id
        self.put = put
        self.sent: set[int] = set()

    def on_line(self, message: str | dict[str, Any]) -> None:
        if message == CATCH_UP:  # a line was lost: the socket reads the history again
            self.put(message)
            return
        self.put(ChatItem.of(_json(message)))

    async def open(self) -> None:
        await self.club.bus.subscribe(chat.Room("lobby").channel, self.on_line)
        if self.reader is not None:
            await blocklists_of(self.club).watch(self.reader)

    async def close(self) -> None:
        await self.club.bus.unsubscribe(chat.Room("lobby").channel, self.on_line)
        if self.reader is not None:
            await blocklists_of(self.club).unwatch(self.reader)

    async def history(self) -> str:
        text, self.sent = await history_frame(self.club, chat.Room("lobby"), self.reader)
        return text

    async def outgoing(self, item: str | dict[str, Any] | ChatItem) -> str | None:
        """The text to send for a queued item (None: this reader does not get it).

        In one process the bus hands published objects over as they are, so a
        ``user:`` message may be a dict; it goes out as its JSON.
        """
        if isinstance(item, str):
            return item
        if isinstance(item, dict):
            return json.dumps(item)
        if item.id in self.sent:
            self.sent.discard(item.id)
            return None
        shown = await blocklists_of(self.club).shows(self.reader, item)
        return item.text if shown else None

    async def incoming(self, text: str | bytes) -> str | None:
        """Answer one client frame: ``ping`` or ``chat``; the reply to send, if any."""
        try:
            msg = parse_client(text, self.club.settings.max_frame)
        except BadFrame as error:
            return error_frame(error.code, str(error), "frame")
        if isinstance(msg, PingMsg):
            return frame("pong")
        if not isinstance(msg, ChatMsg) or msg.room not in ("lobby", None):
            return error_frame("bad_frame", "the lobby socket takes ping and lobby chat", "frame")
        if self.binding is not None and not await self.binding.alive():
            return None  # the session ended: the socket is on its way to closing
        return await say(self.club, self.user, chat.Room("lobby"), msg.text)


async def say(club: Club, user: User | None, room: chat.Room, text: str,
              play: str | None = None) -> str | None:  # fmt: skip
    """Post a line from a socket: None, or the error frame to send back."""
    try:
        await chat.post(club, user, room, text, play)
    except ApiError as refused:
        details = refused.details() if isinstance(refused, chat.ChatRefused) else {}
        return error_frame(refused.code, refused.message, "chat", **details)
    return None
