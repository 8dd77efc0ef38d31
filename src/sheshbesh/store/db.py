"""The database connection: one engine, transactions, and migrations at start.

SQLite (the default, a file beside the server) runs in WAL mode so readers never
wait for the writer; one process is its single writer, so writes take an
in-process lock instead of racing SQLite's own (whose lock upgrades fail
instead of waiting). PostgreSQL (``DATABASE_URL``) needs no lock here: a move is
stored only where its game still is at the sequence number it was decided at
(``group``), and what moves money locks the game's row (``server.rounds.round``).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from .group import GroupWriter

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x5E5B_E5B0
"""The PostgreSQL advisory lock key that serialises migrations across processes."""


def async_url(url: str) -> str:
    """The SQLAlchemy async URL for a plain one (``postgresql://`` → asyncpg, a path → SQLite).

    >>> async_url("postgresql://club@localhost/club")
    'postgresql+asyncpg://club@localhost/club'
    >>> async_url("club.db")
    'sqlite+aiosqlite:///club.db'
    """
    if "://" not in url:
        return f"sqlite+aiosqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+asyncpg://{rest}"
    if scheme == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    return url


def insert_new(
    session: AsyncSession, model: type[Any], values: dict[str, Any] | list[dict[str, Any]]
) -> Any:
    """``INSERT … ON CONFLICT DO NOTHING`` for ``model`` in this session's dialect: a row
    that another transaction may be inserting at the same moment is made exactly once
    (``values`` a list: several rows, each made at most once)."""
    name = session.get_bind().dialect.name
    dialect: Any = postgresql if name == "postgresql" else sqlite
    return dialect.insert(model).values(values).on_conflict_do_nothing()


async def serialise(session: AsyncSession, *names: str) -> None:
    """Hold a lock for each of ``names`` until this write transaction ends, so that a
    check and the write it allows (count the recent attempts, then store this one) are
    not raced by another transaction, in this process or another, doing the same.

    PostgreSQL: transaction-scoped advisory locks, taken in one order so that two
    transactions never wait on each other (two names sharing a key only wait more).
    SQLite needs none: ``transaction()`` already holds its single writer's lock.
    """
    if session.get_bind().dialect.name != "postgresql":
        return
    for key in sorted({_lock_key(name) for name in names}):
        await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _lock_key(name: str) -> int:
    """A signed 64-bit advisory lock key for ``name``, the same in every process."""
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Database:
    """The engine and its session factory; ``transaction()`` is the only way to write."""

    def __init__(self, url: str, *, echo: bool = False, linger: float | None = None) -> None:
        self.url = async_url(url)
        self.is_sqlite = make_url(self.url).get_backend_name() == "sqlite"
        options: dict[str, Any] = {"echo": echo}
        if not self.is_sqlite:
            options.update(pool_size=20, max_overflow=20)
        self.engine: AsyncEngine = create_async_engine(self.url, **options)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.readers = self.sessions
        if not self.is_sqlite:
            # PostgreSQL reads at READ COMMITTED: each statement sees the latest commits
            # whether or not it is in a transaction, so a read needs no BEGIN and ROLLBACK
            # (two round trips of its three or four; docs/performance.md).
            autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            self.readers = async_sessionmaker(autocommit, expire_on_commit=False)
        self._write_lock = asyncio.Lock()
        if linger is None:
            linger = 0.0 if self.is_sqlite else GroupWriter.LINGER
        self.group = GroupWriter(self, linger)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on error."""
        if self.is_sqlite:
            async with self._write_lock, self.sessions() as session, session.begin():
                yield session
        else:
            async with self.sessions() as session, session.begin():
                yield session

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """A Core connection inside one write transaction (bulk statements, no ORM)."""
        if self.is_sqlite:
            async with self._write_lock, self.engine.begin() as connection:
                yield connection
        else:
            async with self.engine.begin() as connection:
                yield connection

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[Any]:
        """PostgreSQL: the driver's own connection (asyncpg) from the pool, for statements
        that are each their own transaction: one round trip where a Core transaction takes
        three (``BEGIN``, the statement, ``COMMIT``), and none of the Core's work around it.
        A connection that failed in the middle is dropped from the pool, not handed on."""
        if self.is_sqlite:
            raise RuntimeError("autocommit() is PostgreSQL's: SQLite writes through writing()")
        async with self.engine.connect() as connection:
            raw = await connection.get_raw_connection()
            try:
                yield raw.driver_connection
            except BaseException:
                await connection.invalidate()
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A session for reading only (never blocks the writer on SQLite's WAL; on
        PostgreSQL its statements run outside a transaction, each seeing what was
        committed before it, as they would inside one at READ COMMITTED)."""
        async with self.readers() as session:
            yield session

    async def migrate(self) -> None:
        """Bring the schema to the newest migration (run at every start).

        On PostgreSQL several processes may start at once on one database: a
        transaction-scoped advisory lock lets one migrate while the others wait,
        then find the schema at head (the DDL is transactional, so a crash in
        the middle leaves nothing half-made).
        """
        async with self.engine.begin() as connection:
            if not self.is_sqlite:
                lock = text("SELECT pg_advisory_xact_lock(:key)")
                await connection.execute(lock, {"key": MIGRATION_LOCK})
            await connection.run_sync(_upgrade)

    async def close(self) -> None:
        await self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _upgrade(connection: Any) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
