"""Fixtures: a running club on SQLite (and, where available, PostgreSQL), and players."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from club_client import Player, RunningClub

from sheshbesh.server.settings import Settings


@pytest.fixture
def club_settings(tmp_path: Path) -> Settings:
    return Settings(database_url=str(tmp_path / "club.db"), password_profile="fast")


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
