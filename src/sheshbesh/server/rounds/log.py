"""The stored game row and its log, read, locked and kept the same way by every round
(a two-player game's and a chouette table's)."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.dice import DiceBox
from sheshbesh.play.fair import FairDice
from sheshbesh.server.club import Club
from sheshbesh.server.errors import NotFound
from sheshbesh.store.models import Game, GameEvent

TIMER_RETRY = 1.0
"""Seconds before a round's timers look again when the database was unreachable."""
FLAG_ALLOWANCE = 0.5
"""Seconds a timeout check waits past a fallen flag before it forfeits, where another
process may be storing a move (PostgreSQL): a move made in time there is decided in
memory and its write may land after the flag; on one process the check waits for the
round's lock instead, so SQLite needs none. The mover's own process still refuses a
move made after the flag (``Clock.flagged`` at the move's own time)."""


def flag_allowance(is_sqlite: bool) -> float:
    return 0.0 if is_sqlite else FLAG_ALLOWANCE


async def locked_game(session: AsyncSession, game_id: str) -> Game:
    """The game's row, locked until the caller's transaction ends (``FOR UPDATE``)."""
    game = await session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    return game


def stored_dice(club: Club, game: Game) -> FairDice | None:
    """The dice box the row keeps for the next roll (None: a game without dice)."""
    if game.dice_secret is None:
        return None
    box = DiceBox(game.next_roll, bytes.fromhex(game.dice_secret))
    return FairDice(box, club.new_seed, lambda: secrets.token_hex(8))


def keep_dice(game: Game, dice: FairDice | None) -> None:
    """Store the box for the next roll (its committed, unrevealed seed) on the game row."""
    if dice is not None:
        game.dice_secret = dice.box.secret.hex()
        game.next_roll = dice.box.next_roll


async def events_after(session: AsyncSession, game_id: str, seq: int) -> list[dict[str, Any]]:
    """The stored events with a sequence number above ``seq``, in order."""
    rows = await session.scalars(
        select(GameEvent.event)
        .where(GameEvent.game_id == game_id, GameEvent.seq > seq)
        .order_by(GameEvent.seq)
    )
    return list(rows)
