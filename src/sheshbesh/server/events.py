"""The club's domain events: one package says what happened, the others act on it.

This is the in-process half of lila's ``Bus``: a finished game does not call the
ratings, the play-bans, the notifications or the lobby; ``rounds`` emits
:class:`GameOver` and :class:`RoundMoved`, and those packages subscribe when
the app is wired (``app.py``). So imports between packages point one way
(docs/architecture.md) while the effects still happen, in order, in the same
process. ``pubsub`` is the other half: frames that must reach sockets on every
process.

Two moments matter. :class:`GameOver` is emitted *inside* the transaction that
stores a game's last event and its payout, with that session: a subscriber's
writes (a rating, an offence, a result note) commit or roll back with the game,
so a game is never finished without them. The other events are emitted *after*
the commit; their subscribers only tell people (push notes, refresh presence,
wake a bot). A subscriber that fails raises to the emitter, as a direct call
would; nothing is swallowed.

The events carry store rows and plain values, never a package's own types, so
this module sits below every package.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.store.models import Game, Notification, User
from sheshbesh.store.models import Request as GameRequest

E = TypeVar("E")
Handler = Callable[[Any], Awaitable[None] | None]


@dataclass(slots=True)
class GameOver:
    """A game's last event and payout are being stored (inside that transaction).

    Subscribers write with ``session`` and add the notes to push after the
    commit to ``notes``; ``rating_changes`` (user id → before, after) is filled
    by the ratings and read by whoever words the result.
    """

    session: AsyncSession
    game: Game
    paid: tuple[int, int]
    """What each seat won (positive) or lost (negative), in FUN."""
    timed_out: tuple[int, ...]
    """Seats that lost on time or by absence (PL-7) in this last action."""
    match_length: int
    now: float
    notes: list[Notification] = field(default_factory=list)
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BetsSettled:
    """Bets of a rated chouette table were paid (inside that transaction, issue 18).

    Each bet is a money game between the banker and one crew member (CH-8): a drop pays
    one at once (CH-5, CH-7), the end of the game the others. The ratings rate each.
    """

    session: AsyncSession
    game: Game
    bets: tuple[tuple[int, int, bool], ...]
    """(the banker's user id, the member's user id, whether the banker won), in order."""
    now: float


@dataclass(slots=True)
class TableClosed:
    """A chouette table ends (inside the transaction that stores its end and hands every
    hold back): each person who sat there learns his result, even while away."""

    session: AsyncSession
    game: Game
    points: dict[int, int]
    """User id → what he won (positive) or lost at the table, in points, over his seats."""
    now: float
    notes: list[Notification] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RoundMoved:
    """A game changed and the change is committed and published to its sockets."""

    game_id: str
    seats: tuple[int, ...]
    """The players' user ids (two, or a chouette table's seated)."""
    notes: tuple[Notification, ...]
    """Notifications the stored action wrote (a finished game's results)."""
    finished: bool
    """The game (the whole match) is over."""
    game_ended: bool
    """A game ended in this action (for a match, possibly not the last one)."""
    summary: dict[str, Any] | None
    """The game as the lobby's "now playing" list shows it, when a game ended (else None:
    an ordinary move changes nothing there, and is not worth computing it)."""


@dataclass(frozen=True, slots=True)
class RoundLoaded:
    """This process has loaded a live game (at start, or on first use)."""

    game_id: str


@dataclass(frozen=True, slots=True)
class TurnAwaits:
    """A player who is not in the room must act: his turn, or an offer to answer (PL-8).
    A "your turn", "double offered" or "draw offered" note is due."""

    game_id: str
    user_id: int
    variant: str
    opponent: str
    offer: str | None = None
    """What he must answer: ``"double"``, ``"beaver"`` (at ``cube``) or ``"draw"``; None:
    it is simply his turn."""
    cube: int | None = None
    """The cube value a double or beaver asks him to accept."""


@dataclass(frozen=True, slots=True)
class RequestPosted:
    """A game request (public, a private challenge or a rematch) is open, committed."""

    request: GameRequest
    invitee: User | None


class Events:
    """Subscribers by event type, called in the order they subscribed."""

    def __init__(self) -> None:
        self.handlers: dict[type, list[Handler]] = defaultdict(list)

    def on(self, kind: type[E], handler: Callable[[E], Awaitable[None] | None]) -> None:
        self.handlers[kind].append(handler)

    async def emit(self, event: object) -> None:
        for handler in self.handlers.get(type(event), ()):
            result = handler(event)
            if inspect.isawaitable(result):
                await result
