"""``sheshbesh verify-dice`` and ``sheshbesh export`` / ``import`` on a chouette table's record.

The table's log is stored as the server stores it: one game of kind ``"chouette"``
whose events are the session's ``chouette_created`` event and then every event
``ChouetteSession.apply`` returned, numbered by ``seq``; its record is what
``GET /api/games/{id}/record`` builds from that log (``created`` the first event,
``events`` the rest). The commands run as a subprocess on that file.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from chouette_sessions import played_session
from test_chouette_record import EVERYTHING, first, rolls

from sheshbesh.play.chouette_record import session_of
from sheshbesh.play.record import FORMAT, loads


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", *args], capture_output=True, text=True, check=False
    )


def stored_log(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's rows in ``game_events`` as the server writes them: one per seq, 0 first."""
    log = [record["created"], *record["events"]]
    assert [event["seq"] for event in log] == list(range(len(log)))
    return json.loads(json.dumps(log))  # through JSON, as the events column keeps them


def served_record(log: list[dict[str, Any]]) -> dict[str, Any]:
    """The record ``/api/games/{id}/record`` serves for a game of kind ``chouette``."""
    return {"format": FORMAT, "game": "chouette", "created": log[0], "events": log[1:]}


@pytest.fixture(scope="module")
def table() -> tuple[dict[str, Any], Any]:
    record, session = played_session(EVERYTHING)
    return served_record(stored_log(record)), session


def write(tmp_path: Path, record: dict[str, Any], name: str = "table.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record, indent=1))
    return str(path)


def test_verify_dice_checks_a_whole_session(table, tmp_path):
    record, _ = table
    result = cli("verify-dice", write(tmp_path, record))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        f"honest: {len(rolls(record))} rolls checked, each against the commitment published "
        "before it",
        f"the session's {len(record['events'])} events replay through the rules: seq, payments "
        "and lineups as recorded",
    ]


def test_export_writes_the_session_as_text_and_import_reads_it_back(table, tmp_path):
    record, session = table
    text_file = tmp_path / "table.txt"
    names = ("--seat", "Ann", "--seat", "Ben", "--seat", "Cid")
    exported = cli("export", write(tmp_path, record), *names, "-o", str(text_file))
    assert exported.returncode == 0, exported.stderr
    text = text_file.read_text()
    assert text.startswith('[Format "sheshbesh-text/1"]\n[Game "chouette"]\n[Seats "5"]\n')
    assert '[Seat1 "Ben"]' in text and "\ngame 3: banker " in text
    imported = cli("import", str(text_file))
    assert imported.returncode == 0, imported.stderr
    again = loads(imported.stdout)
    assert again["game"] == "chouette"
    assert session_of(again).results == session.results
    assert cli("export", write(tmp_path, again, "again.json"), *names).stdout == text + "\n"


def test_export_of_a_session_as_mat_is_refused(table, tmp_path):
    record, _ = table
    result = cli("export", write(tmp_path, record), "--format", "mat")
    assert result.returncode == 2 and "chouette session exports to our text format" in result.stderr


# --- tampered tables -----------------------------------------------------------------------


def tamper(record: dict[str, Any], index: int, change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    change(bad["events"][index - 1])
    return bad


def flip_die(event: dict[str, Any]) -> None:
    dice = event["e"]["dice"] if event["type"] == "board" else event["dice"]
    dice[-1] = dice[-1] % 6 + 1


def shift_payment(event: dict[str, Any]) -> None:
    event["paid"][0][1] += 1
    event["paid"][1][1] -= 1


@pytest.mark.parametrize(
    ("what", "find", "change", "words"),
    [
        ("board die", lambda e: e["type"] == "board" and e["e"]["type"] == "rolled", flip_die,
         "but the seed gives"),
        ("order die", lambda e: e["type"] == "order_rolled", flip_die, "but the seed gives"),
        ("settlement", lambda e: e["type"] == "finished" and e["paid"], shift_payment,
         "the record has paid"),
        ("drop", lambda e: e["type"] == "cube_dropped", shift_payment, "the record has paid"),
    ],
)  # fmt: skip
def test_verify_dice_names_the_tampered_event(table, tmp_path, what, find, change, words):
    record, _ = table
    index = first(record, find)
    result = cli("verify-dice", write(tmp_path, tamper(record, index, change)))
    assert result.returncode == 1, (what, result.stdout)
    head, *problems = result.stdout.splitlines()
    assert head.startswith("NOT honest: ")
    named = [p for p in problems if p.strip().startswith(f"event {index} (seq {index}")]
    assert named and any(words in p for p in named), (what, problems)


def test_verify_dice_names_a_missing_event_and_export_refuses_it(table, tmp_path):
    record, _ = table
    bad = copy.deepcopy(record)
    del bad["events"][99]
    path = write(tmp_path, bad)
    result = cli("verify-dice", path)
    assert result.returncode == 1
    assert "  event 100 has seq 101, not 100: an event is missing" in result.stdout
    exported = cli("export", path)
    assert exported.returncode == 2 and "event 100 has seq 101" in exported.stderr
