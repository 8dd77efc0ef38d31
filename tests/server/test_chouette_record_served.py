"""A chouette table's record as the club serves it (issue 18 step 9), on SQLite and PostgreSQL.

The table is one ``games`` row of kind ``chouette`` whose ``game_events`` are the
session's log (its ``chouette_created`` event at seq 0, then every event
``ChouetteSession.apply`` returned). ``GET /api/games/{id}/record`` serves it, and
``sheshbesh verify-dice`` and ``export`` take that record as it comes over HTTP.
The session is played here with the play layer and stored directly, as a finished
table: the rounds that play it live are another step of the issue.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from club_client import RunningClub

from sheshbesh.play import actions as act
from sheshbesh.play.chouette import Answer, Board, Double, Timeout
from sheshbesh.play.chouette_session import ChouetteSession, Join, Leave
from sheshbesh.play.fair import FairDice
from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database
from sheshbesh.store.models import Game, GameEvent


def play_session(seed: int) -> list[dict[str, Any]]:
    """Two games with fair dice, a leave and a join between them; the whole log."""
    rng = random.Random(seed)
    dice = FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.randrange(10**9)}")
    session, created = ChouetteSession.create(5, commit=dice.commit)
    log = [created]

    def do(action: Any) -> None:
        nonlocal session
        step = session.apply(action, dice)
        session = step.session
        log.extend(step.events)

    for seat in range(4):
        do(Join(seat))
    for number in range(2):
        if number:
            do(Leave(session.seats[0]))
            do(Join(session.taken))
        do(act.Start())
        while session.playing:
            game = session.game
            assert game is not None
            seat = rng.choice(game.waiting_for())
            menu = game.legal_actions(seat)
            doubles = [a for a in menu if isinstance(a, Double)]
            answers = [a for a in menu if isinstance(a, Answer)]
            if rng.random() < 0.02:
                do(Timeout(seat))
            elif doubles and rng.random() < 0.2:
                do(doubles[0])
            elif answers:
                do(answers[rng.random() < 0.4])  # a take (index 0) or a drop (1)
            else:
                do(rng.choice([a for a in menu if isinstance(a, Board)]))
    return log


async def store_table(settings: Settings, table_id: str, log: list[dict[str, Any]]) -> None:
    db = Database(settings.database_url)
    try:
        await db.migrate()
        async with db.transaction() as session:
            session.add(Game(id=table_id, kind="chouette", variant="backgammon", stake=100,
                             control="untimed", seat0_id=None, seat1_id=None,
                             status="finished", seq=log[-1]["seq"], created_at=0.0))  # fmt: skip
            await session.flush()
            for event in log:
                session.add(GameEvent(game_id=table_id, seq=event["seq"], event=event, at=1.0))
    finally:
        await db.close()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", *args], capture_output=True, text=True, check=False
    )


def test_a_stored_table_is_served_as_a_record_that_verifies_and_exports(
    club_settings: Settings, tmp_path: Path
) -> None:
    log = play_session(7)
    kinds = {event["type"] for event in log}
    assert {"order_rolled", "left", "cube_taken", "cube_dropped", "finished"} <= kinds
    asyncio.run(store_table(club_settings, "table1", log))
    with RunningClub(club_settings) as club:
        served = httpx.get(f"{club.base}/api/games/table1/record", timeout=10)
    assert served.status_code == 200
    record = served.json()
    assert record["game"] == "chouette" and [record["created"], *record["events"]] == log
    path = tmp_path / "table1.json"
    path.write_text(served.text)
    verified = cli("verify-dice", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("honest: ") and "replay through the rules" in verified.stdout
    exported = cli("export", str(path))
    assert exported.returncode == 0, exported.stderr
    assert '[Game "chouette"]' in exported.stdout and "\ngame 2: banker " in exported.stdout
