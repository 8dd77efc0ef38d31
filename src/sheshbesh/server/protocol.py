"""WebSocket frames, both directions (documented in docs/protocol.md).

Every frame is a JSON object ``{"t": type, "v": seq, "d": data}``; ``v`` is the
game's sequence number where it matters. Client frames are parsed here into
:data:`ClientMsg` values, and anything else (too long, nested too deep, not
JSON, unknown type, wrong fields) becomes a :class:`BadFrame` whose message the
client receives in an ``error`` frame while the socket stays open.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from . import wire

MAX_DEPTH = 8
"""How deep arrays and objects may nest in a client frame (an action needs 2)."""


class BadFrame(ValueError):
    """A client frame the server cannot read."""

    code = "bad_frame"


@dataclass(frozen=True, slots=True)
class ActionMsg:
    """``{"t": "action", "v": seen, "d": {"type": ...}}``: act on the game as seen at ``v``."""

    seen: int
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SyncMsg:
    """``{"t": "sync", "v": last}``: send every event after ``last`` (a resync)."""

    last: int


@dataclass(frozen=True, slots=True)
class PingMsg:
    """``{"t": "ping"}``: answered by ``pong`` (keeps proxies from closing idle sockets)."""


@dataclass(frozen=True, slots=True)
class ChatMsg:
    """``{"t": "chat", "room": "players", "text": "gl hf"}``: say a line in a chat room.

    Only the types are checked here; the room, the length and the right to speak
    are the chat's to judge (``server/chat.py``), with their own error codes.
    """

    room: str | None
    text: str
    play: str | None = None
    """A chouette crew line's proposed play for the captain (CH-4), e.g. ``"13/7 8/7"``."""


ClientMsg = ActionMsg | SyncMsg | PingMsg | ChatMsg


def parse_client(text: str | bytes, max_size: int) -> ClientMsg:
    """Read one client frame, or raise :class:`BadFrame` saying what is wrong.

    >>> parse_client('{"t": "action", "v": 3, "d": {"type": "roll"}}', 4096)
    ActionMsg(seen=3, data={'type': 'roll'})
    >>> parse_client('{"t": 5}', 4096)
    Traceback (most recent call last):
    ...
    sheshbesh.server.protocol.BadFrame: unknown frame type 5; expected action, sync, ping or chat
    >>> parse_client('{"t": "chat", "room": "players", "text": "gl hf"}', 4096)
    ChatMsg(room='players', text='gl hf', play=None)
    >>> parse_client("[" * 1000 + "]" * 1000, 4096)
    Traceback (most recent call last):
    ...
    sheshbesh.server.protocol.BadFrame: a frame nests arrays or objects too deep (at most 8)
    >>> parse_client('{"t": "chat", "text": "hi \\\\ud800"}', 4096)
    Traceback (most recent call last):
    ...
    sheshbesh.server.protocol.BadFrame: a lone surrogate in a frame is no character
    >>> parse_client('{"t": "chat", "text": "\\\\ud83d\\\\ude00"}', 4096)  # a pair is one character
    ChatMsg(room=None, text='😀', play=None)
    """
    if len(text) > max_size:
        raise BadFrame(f"frame of {len(text)} bytes is over the limit of {max_size}")
    too_deep = f"a frame nests arrays or objects too deep (at most {MAX_DEPTH})"
    try:
        frame = json.loads(text)
    except RecursionError:
        raise BadFrame(too_deep) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise BadFrame(f"a frame is one JSON object: {error}") from None
    if _deeper_than(frame, MAX_DEPTH):
        raise BadFrame(too_deep)
    escaped = "\\u" in text if isinstance(text, str) else b"\\u" in text
    if escaped and _lone_surrogate(frame):  # only an escape can make one
        raise BadFrame("a lone surrogate in a frame is no character")
    if not isinstance(frame, dict):
        raise BadFrame("a frame is a JSON object with 't'")
    kind = frame.get("t")
    if kind == "ping":
        return PingMsg()
    if kind == "sync":
        return SyncMsg(_seq(frame))
    if kind == "action":
        data = frame.get("d")
        if not isinstance(data, dict):
            raise BadFrame("an action frame needs 'd', an object with the action's 'type'")
        return ActionMsg(_seq(frame), data)
    if kind == "chat":
        return _chat(frame)
    raise BadFrame(f"unknown frame type {kind!r}; expected action, sync, ping or chat")


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep (no recursion: any depth)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        if children and depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


SURROGATE = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 pair, which JSON's ``\\ud800`` escape can give alone and no database
can store (a socket's handler once died on one, without an error frame)."""


def _lone_surrogate(value: Any) -> bool:
    """Whether any string in ``value`` (keys included) holds a lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _chat(frame: dict[str, Any]) -> ChatMsg:
    room, text = frame.get("room"), frame.get("text")
    if room is not None and (not isinstance(room, str) or len(room) > 20):
        raise BadFrame("a chat frame's 'room' is the room's name, e.g. 'players'")
    if not isinstance(text, str):
        raise BadFrame("a chat frame needs 'text', the line to say")
    play = frame.get("play")
    if play is not None and (not isinstance(play, str) or len(play) > 60):
        raise BadFrame("a chat frame's 'play' is a proposed play's text, e.g. '13/7 8/7'")
    return ChatMsg(room, text, play)


def _seq(frame: dict[str, Any]) -> int:
    value = frame.get("v")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise BadFrame("'v' must be the last sequence number seen (a whole number >= 0)")
    return value


def frame(kind: str, data: Any = None, v: int | None = None) -> str:
    """A server frame as text."""
    out: dict[str, Any] = {"t": kind}
    if v is not None:
        out["v"] = v
    if data is not None:
        out["d"] = data
    return wire.dumps(out)


def error_frame(code: str, message: str, re: str | None = None, **details: Any) -> str:
    """``{"error", "message", "re"}`` plus any details (a chat refusal's ``retry`` seconds)."""
    data: dict[str, Any] = {"error": code, "message": message}
    if re is not None:
        data["re"] = re
    return frame("error", data | details)
