"""Group commit: many games' moves stored in one transaction.

A move that moves no money writes two things: its events and the game row's
new sequence number, clock and dice box. On SQLite every write goes through one
lock, and most of a small transaction's cost is the round trip, not the data
(bench/load.py measured about 7 ms of lock per move through the ORM, against
well under a millisecond of SQLite work). So moves queue here and one writer
stores everything queued in a single transaction with two bulk statements;
each move's caller resumes only after that commit, so nobody is told of a move
before it is stored (DESIGN principle 3). If a batch fails, its moves are
retried one by one, so one bad write never takes its neighbours down.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, bindparam, insert, update

from .models import Game, GameEvent

if TYPE_CHECKING:
    from .db import Database


@dataclass
class MoveWrite:
    """One move's rows: its events and the game row's changed columns (``seq`` last seen)."""

    game_id: str
    old_seq: int
    events: list[dict[str, Any]]
    columns: dict[str, Any]
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class GroupWriter:
    """Queues :class:`MoveWrite` s and stores each batch in one transaction."""

    COLUMNS = ("seq", "clock", "dice_secret", "next_roll")

    def __init__(self, db: Database) -> None:
        self.db = db
        self.queue: list[MoveWrite] = []
        self.running: asyncio.Task[None] | None = None
        self.batches = 0
        self.moves = 0

    async def write(self, move: MoveWrite) -> None:
        """Store ``move`` (with whatever else is queued); return once it is committed."""
        self.queue.append(move)
        if self.running is None or self.running.done():
            self.running = asyncio.get_running_loop().create_task(self._drain())
        await move.done

    async def _drain(self) -> None:
        while self.queue:
            batch, self.queue = self.queue, []
            try:
                await self._store(batch)
            except Exception:
                for move in batch:  # one by one: only the bad write fails
                    try:
                        await self._store([move])
                    except Exception as error:
                        if not move.done.done():
                            move.done.set_exception(error)
                continue
            for move in batch:
                if not move.done.done():
                    move.done.set_result(None)

    async def _store(self, batch: list[MoveWrite]) -> None:
        events = [
            {"game_id": move.game_id, "seq": event["seq"], "event": event, "at": at}
            for move in batch
            for event, at in ((e, move.columns["at"]) for e in move.events)
        ]
        rows = [
            {"key": move.game_id, "old": move.old_seq,
             **{f"new_{c}": move.columns[c] for c in self.COLUMNS}}
            for move in batch
        ]  # fmt: skip
        games: Table = Game.__table__  # type: ignore[assignment]
        statement = (
            update(games)
            .where(games.c.id == bindparam("key"))
            .where(games.c.seq == bindparam("old"))
            .values({column: bindparam(f"new_{column}") for column in self.COLUMNS})
        )
        # The (game, seq) unique constraint refuses a second write of the same
        # move; the round's lock and the ``seq`` guard keep each game in order.
        async with self.db.writing() as connection:
            if events:
                await connection.execute(insert(GameEvent.__table__), events)  # type: ignore[arg-type]
            await connection.execute(statement, rows)
        self.batches += 1
        self.moves += len(batch)
