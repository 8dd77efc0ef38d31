"""A club without its web server, for tests that drive rounds, buses and the ledger
directly: a freshly migrated database and the in-process bus; and what the database
is asked while a piece of code runs (the tests that pin a round trip saved)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from sqlalchemy import event

from sheshbesh.server.club import Club
from sheshbesh.server.pubsub import MemoryBus
from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database


@asynccontextmanager
async def bare_club(settings: Settings) -> AsyncIterator[Club]:
    """A club on ``settings.database_url`` (migrated first), its database closed after."""
    db = Database(settings.database_url)
    await db.migrate()
    try:
        yield Club(settings, db, MemoryBus())
    finally:
        await db.close()


def run_club(settings: Settings, body: Callable[[Club], Awaitable[None]]) -> None:
    """``body(club)`` in its own event loop on a :func:`bare_club`."""

    async def main() -> None:
        async with bare_club(settings) as club:
            await body(club)

    asyncio.run(main())


@contextmanager
def statements_sent(db: Database) -> Iterator[list[str]]:
    """Every SQL statement ``db`` sends while the block runs, in order and as sent (with
    asyncpg each is one round trip)."""
    sent: list[str] = []

    def note(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        sent.append(statement)

    engine = db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", note)
