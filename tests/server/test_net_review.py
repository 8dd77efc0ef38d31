"""The review of a long nardy game through the server (issue 19): the trained net judges it.

Two people play a few turns of long nardy on a real club (SQLite and PostgreSQL), one
resigns, and the analysis route answers with the net's review, stored once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Iterator

import pytest
from club_client import Player, RunningClub, play_until

from sheshbesh.server.bots import roster as club_bots
from sheshbesh.server.bots.workers import ONE_THREAD, Workers
from sheshbesh.server.settings import Settings

PLAYS = 4
"""Plays (or passes) made before the side to move resigns: counted as played, since the
random menu picks include steps taken back (a dozen picks once made no play at all)."""


@pytest.fixture
def review_club(club_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[RunningClub]:
    """A club with its reviewer and no bot accounts (nobody needs one here)."""
    monkeypatch.setattr(club_bots, "ROSTER", ())
    settings = dataclasses.replace(club_settings, review_workers=1, review_queue=2)
    with RunningClub(settings) as running:
        yield running


@pytest.fixture
def people(review_club: RunningClub) -> Iterator[tuple[Player, Player]]:
    ann = Player(review_club.base, "ann").register()
    bob = Player(review_club.base, "bob").register()
    yield ann, bob
    ann.close()
    bob.close()


def finished_long_nardy(ann: Player, bob: Player) -> str:
    """A long nardy game of a few turns, then the side to move resigns and is let go."""
    game = bob.accept(ann.offer(variant="long_nardy", stake=1)["id"])
    a, b = ann.watch(game["id"]), bob.watch(game["id"])
    for sock in (a, b):
        sock.until(lambda f: f["t"] == "snapshot")
    mover = play_until([a, b], lambda sock: len(plays_in(sock.events)) >= PLAYS)
    other = b if mover is a else a
    assert mover.act({"type": "resign", "level": 1})["t"] == "state"
    other.until(lambda f: f["t"] == "legal" and f["v"] == mover.v)
    assert other.act({"type": "accept_resign"})["t"] == "state" and other.finished
    for sock in (a, b):
        sock.close()
    return str(game["id"])


def plays_in(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] in ("played", "passed")]


def test_the_net_reviews_a_finished_long_nardy_game(people) -> None:
    ann, bob = people
    game_id = finished_long_nardy(ann, bob)
    response = ann.get(f"/api/games/{game_id}/analysis?plies=1")
    assert response.status_code == 200, response.text
    analysis = response.json()
    assert analysis["variant"] == "long_nardy" and analysis["plies"] == 1
    entries = analysis["entries"]
    record = ann.get(f"/api/games/{game_id}/record").json()
    plays = plays_in(record["events"])
    assert len(plays) >= PLAYS
    assert [e["seq"] for e in entries] == [e["seq"] for e in plays]  # one per play
    assert [e["side"] for e in entries] == [e["side"] for e in plays]
    assert {e["kind"] for e in entries} == {"play"}
    assert entries[0]["position"] == "W:W24x15:B12x15"  # LN-2: each side on its head
    assert all(e["dice"] and e["luck"] is not None for e in entries)  # every roll was rolled
    for side in ("W", "B"):
        own = [e for e in entries if e["side"] == side]
        counted = [e for e in own if not e["forced"]]
        summary = analysis["players"][side]
        assert summary["decisions"] == len(counted)
        assert summary["error"] == pytest.approx(sum(e["equity_lost"] for e in counted), abs=1e-3)
        assert summary["rolls"] == len(own)
        assert summary["luck"] == pytest.approx(sum(e["luck"] for e in own), abs=1e-3)
    assert bob.get(f"/api/games/{game_id}/analysis?plies=1").json() == analysis  # stored once
    deeper = bob.get(f"/api/games/{game_id}/analysis?plies=2")
    assert deeper.status_code == 200 and deeper.json()["plies"] == 2
    assert ann.get(f"/api/games/{game_id}/analysis?plies=3").status_code == 422


def test_a_worker_runs_numpy_on_one_blas_thread() -> None:
    """The nets' matrices are small: BLAS threads in a worker only fight for the cores
    (a review five times slower on this machine), so each worker asks for one."""
    workers = Workers(1)

    async def ask() -> list[str | None]:
        return [await workers.run(os.getenv, name) for name in ONE_THREAD]

    try:
        found = asyncio.run(ask())
    finally:
        workers.stop()
    assert found == [os.environ.get(name, "1") for name in ONE_THREAD]
