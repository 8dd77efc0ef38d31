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
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(20))
    username_key: Mapped[str] = mapped_column(String(20), unique=True)
    """The username folded to lower case: ``Ann`` and ``ann`` are one account."""
    password_hash: Mapped[str] = mapped_column(String(200))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_engine: Mapped[str | None] = mapped_column(String(40))
    """A bot's engine and level, e.g. ``gnubg:expert`` (None for people)."""
    bot_policy: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """Which requests a bot accepts: variants, the largest stake, clocks."""
    created_at: Mapped[float] = mapped_column(Float)


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
    """``open``, ``accepted`` or ``cancelled``; only an open request can change."""
    game_id: Mapped[str | None] = mapped_column(String(12))
    created_at: Mapped[float] = mapped_column(Float)
    invitee_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    """A private challenge: only this user sees and may accept it."""
    bots_may_accept: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A club bot may take the request when no person has within the bots' patience."""


class Game(Base):
    """A live or finished game (or match); its truth is the event log in ``game_events``.

    ``seq`` is the last stored event's number; ``dice_secret`` the committed,
    unrevealed seed of the next roll and ``clock`` the clock's state, both
    written in the same transaction as the events that change them.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    """``race`` (one money game), ``match`` or ``draughts``."""
    variant: Mapped[str] = mapped_column(String(20))
    stake: Mapped[int] = mapped_column(BigInteger)
    control: Mapped[str] = mapped_column(String(40))
    seat0_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    seat1_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``live`` or ``finished``."""
    seq: Mapped[int] = mapped_column(Integer, default=0)
    dice_secret: Mapped[str | None] = mapped_column(String(64))
    next_roll: Mapped[int] = mapped_column(Integer, default=1)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    held0: Mapped[int] = mapped_column(BigInteger, default=0)
    held1: Mapped[int] = mapped_column(BigInteger, default=0)
    """FUN each seat has in the game's escrow account."""
    away0: Mapped[float | None] = mapped_column(Float)
    away1: Mapped[float | None] = mapped_column(Float)
    """Since when a seat has had no connection (None: connected, or never yet)."""
    spectators: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)


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
    """Failed logins, counted per username for the rate limit (shared by every process)."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username_key: Mapped[str] = mapped_column(String(20), index=True)
    at: Mapped[float] = mapped_column(Float)
