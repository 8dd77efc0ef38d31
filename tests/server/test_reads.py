"""Database.read() on PostgreSQL: its statements run outside a transaction (no BEGIN or
ROLLBACK round trips; at READ COMMITTED each statement sees the latest commits either
way), while transaction() still wraps its statements in one."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import text

from sheshbesh.store.db import Database

XID = text("SELECT pg_current_xact_id()::text")
"""The running transaction's id (one is assigned): two statements of one transaction
share it, two transactions never do."""


async def one_transaction(session: Any) -> bool:
    """Whether two statements in a row ran in the same transaction."""
    return bool(await session.scalar(XID) == await session.scalar(XID))


def test_a_read_runs_each_statement_on_its_own_and_a_transaction_does_not(
    postgres_url: str,
) -> None:
    async def scenario() -> None:
        db = Database(postgres_url)
        try:
            async with db.read() as session:
                assert not await one_transaction(session)
            async with db.transaction() as session:
                assert await one_transaction(session)
            async with db.read() as session:  # the pooled connection, back in the pool
                assert not await one_transaction(session)
            async with db.transaction() as session:
                assert await one_transaction(session)
        finally:
            await db.engine.dispose()

    asyncio.run(scenario())
