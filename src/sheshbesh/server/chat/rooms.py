"""Chat: the lobby's room and each game's two rooms, the players' and the spectators'.

As on lichess, the two players of a game talk in their own room, which nobody
else ever reads, and everyone else talks in the spectators' room, which the
players cannot read while the game is live (so the crowd cannot whisper hints
to them) and may read and join once it is over. Only logged-in people write;
bots never do; anyone may read the lobby and a game's spectators' room.

A line is checked (:func:`clean`: one line, 1 to :data:`MAX_LENGTH` characters
after trimming), then the stored mute and the flood rules (``flood``) are
applied, then it is stored raw, exactly as typed: escaping is the client's job
(it renders every line as a text node, never as markup). Lines travel on the
bus: a game's on ``game:{id}``, where each process's hub hands them only to the
sockets that may read the room (``rounds.channel``), and the lobby's on
``chat:lobby``. A reader never receives, live or in his history, a line from a
player he has blocked (``readers``).
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.sessions import require_user, user_of
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError, Forbidden, NotFound, TooMany, Unauthorized
from sheshbesh.store.models import ChatLine, Game, GameSeat, User

from .flood import MUTE_FOR, Flood, Flooding, Repeated

MAX_LENGTH = 140
"""Characters in a line after trimming (lichess's limit)."""
HISTORY = 50
"""Lines a reader gets when he opens a room."""
GAME_PARTS = ("players", "spectators")

router = APIRouter(prefix="/api/chat", tags=["chat"])


# --- rooms ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Room:
    """A chat room: ``lobby``, a game's ``players`` or ``spectators`` room, or the crew's
    room of game ``number`` at a chouette table (CH-4: the banker and spectators never
    read it; keyed per game because the crew changes every game, CH-9)."""

    name: Literal["lobby", "players", "spectators", "crew"]
    game_id: str | None = None
    number: int | None = None

    @classmethod
    def crew(cls, game_id: str, number: int) -> Room:
        return cls("crew", game_id, number)

    @classmethod
    def game(cls, game_id: str, part: str) -> Room:
        if part == "players":
            return cls("players", game_id)
        if part == "spectators":
            return cls("spectators", game_id)
        raise ApiError(f"no chat room {part[:20]!r} in a game; players or spectators",
                       code="bad_frame")  # fmt: skip

    @classmethod
    def parse(cls, key: str) -> Room:
        """The room a stored key names.

        >>> Room.parse("game:ab12cd34:players")
        Room(name='players', game_id='ab12cd34', number=None)
        >>> Room.parse("game:ab12cd34:crew:2").key
        'game:ab12cd34:crew:2'
        >>> Room.parse("lobby").key
        'lobby'
        """
        if key == "lobby":
            return cls("lobby")
        kind, _, rest = key.partition(":")
        game_id, _, part = rest.partition(":")
        part, _, number = part.partition(":")
        if kind == "game" and part == "crew" and number.isdigit() and len(number) < 6:
            return cls.crew(game_id, int(number))
        if kind != "game" or not game_id or len(game_id) > 20 or part not in GAME_PARTS:
            raise NotFound(f"no chat room {key[:60]!r}")
        return cls.game(game_id, part)

    @property
    def key(self) -> str:
        """The room as stored (``ChatLine.room``)."""
        if self.game_id is None:
            return "lobby"
        if self.name == "crew":
            return f"game:{self.game_id}:crew:{self.number}"
        return f"game:{self.game_id}:{self.name}"

    @property
    def channel(self) -> str:
        return "chat:lobby" if self.game_id is None else f"game:{self.game_id}"


def may_read(room_name: str, seated: bool, live: bool) -> bool:
    """Who reads a game's room: the players theirs; the others, and after the game everyone,
    the spectators'."""
    if room_name in ("players", "crew"):  # the crew: its members only (rounds.channel)
        return seated
    return not seated or not live


def readable(seated: bool, live: bool) -> list[str]:
    """The game rooms a socket reads, in the order its tabs are shown."""
    return [name for name in GAME_PARTS if may_read(name, seated, live)]


# --- refusals -------------------------------------------------------------------------


class ChatRefused(ApiError):
    """A line the club will not take; ``details`` go into the error frame or JSON as well."""

    def details(self) -> dict[str, Any]:
        return {}

    def to_json(self) -> dict[str, Any]:
        return super().to_json() | self.details()


class ChatEmpty(ChatRefused):
    status, code = 422, "chat_empty"


class ChatTooLong(ChatRefused):
    status, code = 422, "chat_too_long"

    def details(self) -> dict[str, Any]:
        return {"max": MAX_LENGTH}


class ChatForbidden(ChatRefused):
    status, code = 403, "chat_forbidden"


class ChatMuted(ChatRefused):
    status, code = 403, "chat_muted"

    def __init__(self, until: float, now: float) -> None:
        minutes = max(1, math.ceil((until - now) / 60))
        super().__init__(f"you are muted for flooding the chat; {minutes} min left")
        self.until, self.retry = until, math.ceil(until - now)

    def details(self) -> dict[str, Any]:
        return {"until": self.until, "retry": self.retry}


class ChatRateLimited(TooMany, ChatRefused):
    code = "chat_rate_limited"

    def details(self) -> dict[str, Any]:
        return {"retry": math.ceil(self.retry_after)}


class ChatRepeated(ChatRateLimited):
    code = "chat_repeated"


def clean(text: Any) -> str:
    """The line as stored: control characters (newlines, tabs) become spaces, ends trimmed.

    >>> clean("  <b>hi</b>\\n ")
    '<b>hi</b>'
    >>> clean("x" * 141)
    Traceback (most recent call last):
    ...
    sheshbesh.server.chat.rooms.ChatTooLong: a chat line has at most 140 characters (this one 141)
    """
    if not isinstance(text, str):
        raise ChatEmpty("a chat line is text")
    line = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text).strip()
    if not line:
        raise ChatEmpty("say something: the line is empty")
    if len(line) > MAX_LENGTH:
        raise ChatTooLong(f"a chat line has at most {MAX_LENGTH} characters (this one {len(line)})")
    return line


# --- writing --------------------------------------------------------------------------


def flood_of(club: Club) -> Flood:
    flood = club.extras.get("chat_flood")
    if flood is None:
        flood = club.extras["chat_flood"] = Flood()
    assert isinstance(flood, Flood)
    return flood


async def post(
    club: Club, user: User | None, room: Room, text: Any, play: str | None = None
) -> dict[str, Any]:
    """Store a line and tell the room; the line as every reader gets it (``play``: a crew
    member's proposal, already checked against the captain's dice, CH-4)."""
    if user is None:
        raise Unauthorized("log in to chat")
    if user.is_bot:
        raise ChatForbidden("bots do not chat")
    line = clean(text)
    now = club.now()
    flood = flood_of(club)
    muted: float | None = None
    async with club.db.transaction() as session:
        await _check_writer(session, room, user.id)
        until = await session.scalar(select(User.chat_muted_until).where(User.id == user.id))
        if until is not None and until > now:
            raise ChatMuted(until, now)
        try:
            flood.check(user.id, room.key, line, now)
        except Flooding as refused:
            if not flood.strike(user.id, now):
                kind = ChatRepeated if isinstance(refused, Repeated) else ChatRateLimited
                raise kind(str(refused), refused.retry) from None
            muted = now + MUTE_FOR
            await session.execute(
                update(User).where(User.id == user.id).values(chat_muted_until=muted)
            )
        else:
            flood.record(user.id, room.key, line, now)  # before any await: see Flood.record
            stored = ChatLine(room=room.key, user_id=user.id, text=line, at=now, play=play)
            session.add(stored)
            await session.flush()
            view = line_json(stored, room, user.username)
    if muted is not None:  # stored above: the mute outlives this socket and this process
        raise ChatMuted(muted, now)
    await publish(club, room, view)
    return view


async def _check_writer(session: AsyncSession, room: Room, user_id: int) -> None:
    """Whether this user may write here (lichess: the crowd never talks to live players)."""
    if room.game_id is None:
        return
    game = await session.get(Game, room.game_id)
    if game is None:
        raise NotFound(f"no game {room.game_id!r}")
    seated = await is_seated(session, game, user_id)
    if room.name == "crew" and not seated:
        raise ChatForbidden("only the crew writes in the crew's room (CH-4)")
    if room.name == "players" and not seated:
        raise ChatForbidden("only the players write in the players' room")
    if room.name == "spectators" and seated and game.status == "live":
        raise ChatForbidden("players join the spectators' room when the game is over")


async def is_seated(session: AsyncSession, game: Game, user_id: int | None) -> bool:
    """Whether the user plays this game: one of its pair, or seated at a chouette table."""
    if user_id is None:
        return False
    if game.kind != "chouette":
        return user_id in (game.seat0_id, game.seat1_id)
    found = await session.scalar(
        select(GameSeat.seat).where(GameSeat.game_id == game.id, GameSeat.user_id == user_id,
                                    GameSeat.left_at.is_(None))
    )  # fmt: skip
    return found is not None


def line_json(line: ChatLine, room: Room, username: str) -> dict[str, Any]:
    view: dict[str, Any] = {"id": line.id, "room": room.name,
            "user": {"id": line.user_id, "username": username}, "text": line.text,
            "at": line.at}  # fmt: skip
    if room.name == "crew":
        view |= {"game": room.number, "play": line.play}
    return view


async def publish(club: Club, room: Room, line: dict[str, Any]) -> None:
    """A game's line goes on the game's channel, where the hubs sort it by seat."""
    message = {"chat": line} if room.game_id is not None else line
    await club.bus.publish(room.channel, json.dumps(message))


# --- reading --------------------------------------------------------------------------


async def history(club: Club, room: Room, blocked: set[int]) -> list[dict[str, Any]]:
    """The room's last :data:`HISTORY` lines, oldest first, none by a player in ``blocked``."""
    async with club.db.read() as session:
        query = (
            select(ChatLine, User.username)
            .join(User, User.id == ChatLine.user_id)
            .where(ChatLine.room == room.key)
            .order_by(ChatLine.id.desc())
            .limit(HISTORY)
        )
        if blocked:
            query = query.where(ChatLine.user_id.not_in(blocked))
        rows = (await session.execute(query)).all()
    return [line_json(line, room, name) for line, name in reversed(rows)]


async def _check_reader(club: Club, room: Room, user_id: int | None) -> None:
    if room.game_id is None:
        return
    if room.name == "crew":
        raise Forbidden("a crew's chat is read at its table, by its crew (CH-4)",
                        code="chat_forbidden")  # fmt: skip
    async with club.db.read() as session:
        game = await session.get(Game, room.game_id)
        if game is None:
            raise NotFound(f"no game {room.game_id!r}")
        seated = await is_seated(session, game, user_id)
    if not may_read(room.name, seated, game.status == "live"):
        raise Forbidden("this room is not yours to read", code="chat_forbidden")


# --- routes ---------------------------------------------------------------------------


class LineIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=4 * MAX_LENGTH, description="1 to 140 characters after trimming")


@router.get("/{room}/history")
async def room_history(room: str, request: Request) -> dict[str, Any]:
    """The last lines of ``lobby``, ``game:{id}:players`` or ``game:{id}:spectators``."""
    from .readers import blocked_of

    club = club_of(request)
    found = Room.parse(room)
    user = await user_of(club, request)
    await _check_reader(club, found, None if user is None else user.id)
    blocked = set() if user is None else await blocked_of(club, user.id)
    return {"room": found.key, "lines": await history(club, found, blocked)}


@router.post("/{room}", status_code=201)
async def say(room: str, body: LineIn, request: Request) -> dict[str, Any]:
    """Say a line in a room (the sockets take ``chat`` frames too)."""
    user = await require_user(request)
    found = Room.parse(room)
    if found.name == "crew":
        raise Forbidden("a crew's chat is written at its table (CH-4)", code="chat_forbidden")
    return await post(club_of(request), user, found, body.text)
