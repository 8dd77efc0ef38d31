"""The club's tables, one class each; migrations in ``migrations/`` create them.

Times are seconds since the epoch as floats (the server's injected clock), so
tests pass fixed times and nothing depends on a database's time zone rules.
Money columns are whole FUN in 64-bit integers.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    select,
    text,
    true,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAME_LENGTH = 20
"""The longest username (``accounts.auth.USERNAME``)."""


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(NAME_LENGTH))
    username_key: Mapped[str] = mapped_column(String(NAME_LENGTH), unique=True)
    """The username folded to lower case: ``Ann`` and ``ann`` are one account."""
    password_hash: Mapped[str] = mapped_column(String(200))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_engine: Mapped[str | None] = mapped_column(String(40))
    """A bot's engine and level, e.g. ``gnubg:expert`` (None for people)."""
    bot_policy: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """Which requests a bot accepts: variants, the largest stake, clocks."""
    created_at: Mapped[float] = mapped_column(Float)
    avatar: Mapped[str | None] = mapped_column(String(40))
    """The equipped avatar's shop item (None: the generated default)."""
    theme: Mapped[str | None] = mapped_column(String(40))
    """The equipped board theme's shop item (None: the club's default)."""
    chat_muted_until: Mapped[float | None] = mapped_column(Float)
    """Chat refused until then (set after a flood); None: may chat."""
    closed_at: Mapped[float | None] = mapped_column(Float)
    """An operator closed the account then: no login, no session (None: open)."""
    prefs: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The player's room settings (server/accounts/preferences.py); None: the defaults."""


class Session(Base):
    """A login; the cookie holds the token, the table only its SHA-256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class Account(Base):
    """One side of the double-entry ledger: a wallet, a game's escrow or the system."""

    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("kind = 'system' OR balance >= 0", name="balance_not_negative"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``wallet`` (a user's), ``escrow`` (a game's), or ``system`` (grants, shop)."""
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True)
    game_id: Mapped[str | None] = mapped_column(String(12), unique=True)
    name: Mapped[str | None] = mapped_column(String(20), unique=True)
    """System accounts are found by name (``grants``, ``shop``)."""
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class Transfer(Base):
    """One balanced movement of FUN: its entries sum to zero."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reason: Mapped[str] = mapped_column(String(20))
    """``grant``, ``escrow``, ``payout``, ``refund``, ``purchase``."""
    game_id: Mapped[str | None] = mapped_column(String(12), index=True)
    seq: Mapped[int | None] = mapped_column(Integer)
    """The game event that caused the transfer, if any."""
    created_at: Mapped[float] = mapped_column(Float)


class Entry(Base):
    __tablename__ = "entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class Request(Base):
    """A game request in the lobby: what the owner wants to play, for how much."""

    __tablename__ = "requests"

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    variant: Mapped[str] = mapped_column(String(20))
    stake: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``open``, ``accepted``, ``cancelled`` (by a player or the operators) or ``withdrawn``
    (its owner left the club, ``lobby.withdrawer``); only an open request can change."""
    game_id: Mapped[str | None] = mapped_column(String(12))
    created_at: Mapped[float] = mapped_column(Float)
    invitee_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    """A private challenge: only this user sees and may accept it."""
    bots_may_accept: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A club bot may take the request when no person has within the bots' patience."""
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """The game will change both players' ratings (only between people, see ``ratings``)."""
    seats: Mapped[int | None] = mapped_column(Integer)
    """A chouette table's seats (3-8, CH-1); None for a two-player request."""
    rematch_of: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    """The finished game this request offers again (``lobby.rematch``); None for any other
    request, a private challenge between the same two players included."""


class Game(Base):
    """A live or finished game (or match); its truth is the event log in ``game_events``.

    ``seq`` is the last stored event's number; ``dice_secret`` the committed,
    unrevealed seed of the next roll and ``clock`` the clock's state, both
    written in the same transaction as the events that change them.
    """

    __tablename__ = "games"
    __table_args__ = (
        # A player's games newest first, a page at a time (relations/history.py): one
        # index per seat, so a page reads its rows in order and stops.
        Index("games_seat0_newest", "seat0_id", "created_at", "id"),
        Index("games_seat1_newest", "seat1_id", "created_at", "id"),
    )

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``race`` (one money game), ``match``, ``draughts`` or ``chouette`` (a table)."""
    variant: Mapped[str] = mapped_column(String(20))
    stake: Mapped[int] = mapped_column(BigInteger)
    control: Mapped[str] = mapped_column(String(40))
    seat0_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    seat1_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    """The two players of a two-player game; NULL for a chouette table, whose seats are
    rows of ``game_seats`` (:func:`players_of` reads a two-player game's pair)."""
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``live``, ``finished``, or ``aborted`` (a player never arrived: stakes refunded,
    nobody won or lost)."""
    seq: Mapped[int] = mapped_column(Integer, default=0)
    dice_secret: Mapped[str | None] = mapped_column(String(64))
    next_roll: Mapped[int] = mapped_column(Integer, default=1)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    held0: Mapped[int] = mapped_column(BigInteger, default=0)
    held1: Mapped[int] = mapped_column(BigInteger, default=0)
    """FUN each seat has in the game's escrow account."""
    away0: Mapped[float | None] = mapped_column(Float)
    away1: Mapped[float | None] = mapped_column(Float)
    """Since when a seat has had no connection (None: connected, or a bot); set from the
    start for a person who has not opened the game yet, and again at a server's restart."""
    arrived0: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    arrived1: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether the seat's player has opened the game at least once (a bot always has).
    A game is aborted, not forfeited, while one of them has not (``rounds.round``)."""
    spectators: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


async def user_named(session: AsyncSession, name: str) -> User | None:
    """The account called ``name``, in any letter case; None when there is none. A name
    longer than a username can be names nobody (not the account of its first letters)."""
    if len(name) > NAME_LENGTH:
        return None
    return await session.scalar(select(User).where(User.username_key == name.lower()))


def players_of(game: Game) -> tuple[int, int]:
    """The two players of a two-player game, seat 0 first; a chouette table has no pair."""
    if game.seat0_id is None or game.seat1_id is None:
        raise ValueError(f"game {game.id} is a {game.kind} table, not a two-player game")
    return game.seat0_id, game.seat1_id


class GameSeat(Base):
    """A seat at a chouette table (issue 18): who sits there, what he holds in escrow,
    and the presence columns a two-player game keeps per seat (``held0``, ``away0``…).

    Seats are numbered in the order they are taken and never reused; a person who
    leaves keeps his row (``left_at``) so old events still name him. The database
    refuses two people in one seat (the key) and one person seated twice at a table
    (a unique index over the seats still taken).
    """

    __tablename__ = "game_seats"
    __table_args__ = (
        Index(
            "one_seat_per_person", "game_id", "user_id", unique=True,
            sqlite_where=text("left_at IS NULL"), postgresql_where=text("left_at IS NULL"),
        ),
    )  # fmt: skip

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    held: Mapped[int] = mapped_column(BigInteger, default=0)
    """FUN this seat has in the table's escrow account."""
    away: Mapped[float | None] = mapped_column(Float)
    arrived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    joined_at: Mapped[float] = mapped_column(Float)
    left_at: Mapped[float | None] = mapped_column(Float)


class Watchers(Base):
    """How many spectators one process holds on one game (issue 20): a game's count is the
    sum over the processes still alive, so a process that dies takes its own with it."""

    __tablename__ = "watchers"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    node: Mapped[str] = mapped_column(String(16), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Node(Base):
    """A server process and when it last said it was alive (``rounds.spectate``)."""

    __tablename__ = "nodes"

    node: Mapped[str] = mapped_column(String(16), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float)
    stopped_at: Mapped[float | None] = mapped_column(Float)
    """When it shut down cleanly (None: running, or killed; ``rounds.outage``)."""


class GameEvent(Base):
    """One stored event; the unique (game, seq) pair makes a double move impossible."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="one_event_per_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class LoginAttempt(Base):
    """A wrong password, counted per name and per address (shared by every process); an
    attempt counts as one from before its password is checked until it proves right.

    ``session_hash`` is the session of a wrong *current* password at a password
    change (that session's own count); rows older than the window are deleted.
    """

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username_key: Mapped[str] = mapped_column(String(20), index=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    address: Mapped[str] = mapped_column(String(64), index=True, default="", server_default="")
    session_hash: Mapped[str | None] = mapped_column(String(64))


class KnownAddress(Base):
    """An address an account has logged in from: its owner, not a stranger, when locked."""

    __tablename__ = "known_addresses"
    __table_args__ = (UniqueConstraint("user_id", "address", name="one_row_per_address"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    address: Mapped[str] = mapped_column(String(64))
    last_at: Mapped[float] = mapped_column(Float)


# --- the club around the games (issue 8) -----------------------------------------------


class FriendRequest(Base):
    """An offer of friendship; only an ``open`` one can be accepted, declined or cancelled."""

    __tablename__ = "friend_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sender_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    recipient_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    status: Mapped[str] = mapped_column(String(10))
    """``open``, ``accepted``, ``declined`` or ``cancelled``."""
    created_at: Mapped[float] = mapped_column(Float)
    answered_at: Mapped[float | None] = mapped_column(Float)


class Relation(Base):
    """How one user stands toward another, one row per direction (lichess's ``relation``).

    ``friend`` rows come in pairs (both directions, written together);
    a ``block`` is one-sided and replaces any friendship.
    """

    __tablename__ = "relations"
    __table_args__ = (UniqueConstraint("user_id", "other_id", name="one_relation_per_pair"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``friend`` or ``block``."""
    since: Mapped[float] = mapped_column(Float)


class Notification(Base):
    """Something a user must learn even if offline; pushed on ``user:{id}`` when stored."""

    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(30))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    read_at: Mapped[float | None] = mapped_column(Float)


class Purchase(Base):
    """A shop item a user owns; the unique pair makes buying twice impossible."""

    __tablename__ = "purchases"
    __table_args__ = (UniqueConstraint("user_id", "item", name="one_purchase_per_item"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    item: Mapped[str] = mapped_column(String(40))
    price: Mapped[int] = mapped_column(BigInteger)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"))
    created_at: Mapped[float] = mapped_column(Float)


class ChatLine(Base):
    """One chat message in a room: ``game:{id}:players``, ``game:{id}:spectators``, ``lobby``,
    or a chouette crew's ``game:{id}:crew:{n}`` (game ``n`` of the table)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(40), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[float] = mapped_column(Float)
    play: Mapped[str | None] = mapped_column(String(60))
    """A crew member's proposed play for his captain (CH-4), as text; else NULL."""


class Rating(Base):
    """A user's rating in one pool (the variant), as its formula's JSON (FIBS or Glicko-2)."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("user_id", "pool", name="one_rating_per_pool"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    pool: Mapped[str] = mapped_column(String(20))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingChange(Base):
    """What one rated game did to one player's rating (shown in the game and the profile)."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("game_id", "user_id", name="one_change_per_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    pool: Mapped[str] = mapped_column(String(20))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class Offence(Base):
    """A game lost by timing out while absent: what play-bans count (``play/playban.py``)."""

    __tablename__ = "offences"
    __table_args__ = (UniqueConstraint("game_id", "user_id", name="one_offence_per_game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    at: Mapped[float] = mapped_column(Float)


class GameReview(Base):
    """gnubg's review of a finished game at some depth, stored once and served to every asker.

    ``data`` is the JSON of ``bots.analysis.GameAnalysis``; a finished game's log never
    changes, so neither does its review.
    """

    __tablename__ = "game_reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    plies: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


# --- abuse (issue 16) -----------------------------------------------------------------


class Signup(Base):
    """One registration and the address it came from: what the signup limit counts."""

    __tablename__ = "signups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    at: Mapped[float] = mapped_column(Float, index=True)


class Report(Base):
    """A pattern the club noticed and an operator should look at (``moderate --reports``).

    One row per kind and suspect; ``detail`` keeps the evidence (for ``farming``:
    the young accounts that lost FUN to the suspect, with their games).
    """

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("kind", "suspect_id", name="one_report_per_suspect"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    suspect_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    flagged_at: Mapped[float | None] = mapped_column(Float)
    """When the evidence first reached the threshold (None: watched, not yet shown)."""


class ClubSecret(Base):
    """A secret the club made for itself (the CSRF tokens' key) when none is configured:
    kept here so every process on the database shares it."""

    __tablename__ = "club_secrets"

    name: Mapped[str] = mapped_column(String(20), primary_key=True)
    value: Mapped[str] = mapped_column(String(100))
