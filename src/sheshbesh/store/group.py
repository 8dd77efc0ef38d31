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

On PostgreSQL several processes may serve one game, each deciding in memory
(``server.rounds.round``). The batch's update then names, for each game, the
sequence number its move was decided at, and only the games still there and
still live are written: one statement for the whole batch
(``UPDATE … FROM unnest(…) … RETURNING``), with the events of those games only
inserted by the same statement. A move whose game moved on meanwhile (another
process stored a move, a timeout or an abort first) fails with :class:`Behind`
and writes nothing; its round catches up and decides again. No row lock, no
read before the write: a batch is one round trip, the statement being its own
transaction, whatever its size.

While moves keep coming (some queued while a batch was being written), the writer
lingers a moment (:attr:`GroupWriter.LINGER`, up to :attr:`GroupWriter.CAP` moves)
before the next batch, so each statement carries more moves: at 500 games on three
processes 15-33 % fewer statements and 3-4 points less database CPU; the servers' CPU
and the p99 moved less than the machine's drift (docs/decisions.md).
A move that finds the writer idle is written at once: a quiet club pays nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, bindparam, insert, update

from .models import Game, GameEvent

if TYPE_CHECKING:
    from .db import Database


class Behind(Exception):
    """The stored game moved on (or ended) since the move was decided: nothing was written."""


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
    LINGER = 0.004
    """Seconds PostgreSQL's writer waits for company before a batch while moves keep coming."""
    CAP = 64
    """Moves that end a linger at once: the batch is as full as it is worth waiting for."""

    def __init__(self, db: Database, linger: float = 0.0, cap: int = CAP) -> None:
        self.db = db
        self.linger = linger
        self.cap = cap
        self.queue: list[MoveWrite] = []
        self.running: asyncio.Task[None] | None = None
        self.full: asyncio.Event | None = None  # set when the queue reaches the cap
        self.batches = 0
        self.moves = 0

    async def write(self, move: MoveWrite) -> None:
        """Store ``move`` (with whatever else is queued); return once it is committed."""
        self.queue.append(move)
        if len(self.queue) >= self.cap and self.full is not None:
            self.full.set()
        if self.running is None or self.running.done():
            self.running = asyncio.get_running_loop().create_task(self._drain())
        await move.done

    async def _drain(self) -> None:
        busy = False  # the first batch goes at once; a next one means moves keep coming
        while self.queue:
            if busy and self.linger > 0 and len(self.queue) < self.cap:
                self.full = asyncio.Event()  # made in the running loop, each time
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.full.wait(), self.linger)
                self.full = None
            busy = True
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
                    else:
                        _stored(move)
                continue
            for move in batch:
                _stored(move)

    async def _store(self, batch: list[MoveWrite]) -> None:
        if not self.db.is_sqlite:
            await self._store_where_current(batch)
            return
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

    async def _store_where_current(self, batch: list[MoveWrite]) -> None:
        """PostgreSQL: write each move only if its game is still live at the sequence number
        it was decided at; fail the others with :class:`Behind` (the batch still commits)."""
        events = [(move, event) for move in batch for event in move.events]
        arrays = (
            [move.game_id for move in batch],
            [move.old_seq for move in batch],
            [move.columns["seq"] for move in batch],
            [_json_or_none(move.columns["clock"]) for move in batch],
            [move.columns["dice_secret"] for move in batch],
            [move.columns["next_roll"] for move in batch],
            [move.game_id for move, _ in events],
            [event["seq"] for _, event in events],
            [json.dumps(event) for _, event in events],
            [float(move.columns["at"]) for move, _ in events],
        )
        async with self.db.autocommit() as connection:
            written = {row[0] for row in await connection.fetch(CURRENT_WRITE, *arrays)}
        self.batches += 1
        self.moves += len(written)
        for move in batch:
            if move.game_id not in written and not move.done.done():
                move.done.set_exception(Behind(f"game {move.game_id} moved on from {move.old_seq}"))


CURRENT_WRITE = """
    WITH written AS (
        UPDATE games AS g
        SET seq = v.seq, clock = v.clock::json, dice_secret = v.secret, next_roll = v.roll
        FROM unnest($1::varchar[], $2::integer[], $3::integer[],
                    $4::text[], $5::varchar[], $6::integer[])
             AS v(id, old, seq, clock, secret, roll)
        WHERE g.id = v.id AND g.seq = v.old AND g.status = 'live'
        RETURNING g.id
    ), stored AS (
        INSERT INTO game_events (game_id, seq, event, at)
        SELECT e.game, e.seq, e.event::json, e.at
        FROM unnest($7::varchar[], $8::integer[], $9::text[], $10::float8[])
             WITH ORDINALITY AS e(game, seq, event, at, n)
        WHERE e.game IN (SELECT id FROM written)
        ORDER BY e.n
    )
    SELECT id FROM written
"""
"""One statement for a batch on PostgreSQL, its own transaction (``Database.autocommit``:
one round trip, prepared once per connection by asyncpg). Each game moves on only from
where its move saw it, and the events of exactly the games that moved are stored with it
(a data-modifying WITH: the insert reads the update's RETURNING). Before, the events went
in a second statement, one execution per event row (22 425 a minute in bench/cluster.py's
3-process run), then the one statement in a Core transaction: three round trips a batch
(docs/performance.md)."""


def _stored(move: MoveWrite) -> None:
    """Its caller may go on (unless the write already failed it: :class:`Behind`)."""
    if not move.done.done():
        move.done.set_result(None)


def _json_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value)
