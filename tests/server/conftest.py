"""Fixtures: a running club on SQLite and on PostgreSQL (every server test runs on both),
players, and the PostgreSQL and Redis servers behind them.

The ``postgresql`` runs skip where PostgreSQL is not installed, and fail instead
when ``SHESHBESH_REQUIRE_PG=1`` (CI); the same holds for Redis with
``SHESHBESH_REQUIRE_REDIS=1``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pg
import pytest
import redis_server
from club_client import OPEN_DOORS, UNTHROTTLED, Player, RunningClub

from sheshbesh.server.settings import Settings


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg.Cluster]:
    """One PostgreSQL cluster for the whole session (started on first use)."""
    try:
        cluster = pg.start()
    except pg.Unavailable as why:
        if pg.required():
            pytest.fail(f"PostgreSQL is required ({pg.REQUIRE}=1) but unavailable: {why}")
        pytest.skip(f"PostgreSQL unavailable: {why}")
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres: pg.Cluster) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test."""
    with postgres.database() as url:
        yield url


@pytest.fixture(scope="session")
def redis() -> Iterator[redis_server.RedisServer]:
    """One throwaway Redis server for the whole session (started on first use)."""
    server = redis_server.start_or_skip()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis: redis_server.RedisServer) -> str:
    """The session's Redis server by TCP."""
    return redis.url


@pytest.fixture(params=["sqlite", "postgresql"])
def club_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "postgresql":
        database_url = request.getfixturevalue("postgres_url")
    else:
        database_url = str(tmp_path / "club.db")
    return Settings(database_url=database_url, password_profile="fast", **OPEN_DOORS, **UNTHROTTLED)


@pytest.fixture
def club(club_settings: Settings) -> Iterator[RunningClub]:
    with RunningClub(club_settings) as running:
        yield running


@pytest.fixture
def new_player(club: RunningClub) -> Iterator[Callable[..., Player]]:
    made: list[Player] = []

    def make(name: str, register: bool = True, **_: Any) -> Player:
        player = Player(club.base, name)
        made.append(player)
        return player.register() if register else player

    yield make
    for player in made:
        player.close()
