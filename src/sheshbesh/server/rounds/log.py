"""The stored log of a game or a table, read and kept the same way by every round."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.fair import FairDice
from sheshbesh.store.models import Game, GameEvent


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
