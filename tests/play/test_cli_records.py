"""``sheshbesh export`` / ``import`` on real files, run as a subprocess."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from sheshbesh.play.draughts import DraughtsGame, MoveAction
from sheshbesh.play.draughts_record import make_record
from sheshbesh.play.race import RaceGame
from sheshbesh.play.record import any_game_of, dumps, loads


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", *args], capture_output=True, text=True, check=False
    )


def test_draughts_record_exports_to_pdn_and_imports_back(tmp_path: Path) -> None:
    rng = random.Random(9)
    game, created = DraughtsGame.create()
    events = []
    for _ in range(30):
        moves = [a for a in game.legal_actions() if isinstance(a, MoveAction)]
        if game.finished or not moves:
            break
        step = game.apply(rng.choice(moves))
        game, events = step.game, events + list(step.events)
    record_file = tmp_path / "game.json"
    record_file.write_text(dumps(make_record(created, events)))
    pdn = tmp_path / "game.pdn"
    exported = cli("export", str(record_file), "--white", "Ann", "-o", str(pdn))
    assert exported.returncode == 0, exported.stderr
    assert '[White "Ann"]' in pdn.read_text() and '[GameType "20"]' in pdn.read_text()
    imported = cli("import", str(pdn))
    assert imported.returncode == 0, imported.stderr
    again = any_game_of(loads(imported.stdout))
    assert again.position == game.position
    assert cli("verify-dice", str(record_file)).stdout.startswith("no dice")


def test_export_of_a_file_that_is_not_a_record_fails_clearly(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "something else"}')
    result = cli("export", str(junk))
    assert result.returncode == 2 and "not a sheshbesh record" in result.stderr
    missing = cli("export", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_race_record_exports_to_mat_and_imports_back(tmp_path: Path) -> None:
    from test_record import played_record

    record, game = played_record("backgammon", seed=21)
    record_file = tmp_path / "game.json"
    record_file.write_text(dumps(record))
    mat = tmp_path / "game.mat"
    exported = cli("export", str(record_file), "--white", "Ann", "--black", "Bob", "-o", str(mat))
    assert exported.returncode == 0, exported.stderr
    assert " 0 point match" in mat.read_text() and "Ann" in mat.read_text()
    imported = cli("import", str(mat))
    assert imported.returncode == 0, imported.stderr
    again = any_game_of(loads(imported.stdout))
    assert isinstance(again, RaceGame)
    assert again.position == game.position and again.result == game.result


def test_other_variants_export_to_our_text_format_and_back(tmp_path: Path) -> None:
    from test_record import played_record

    record, game = played_record("long_nardy", seed=22)
    record_file = tmp_path / "game.json"
    record_file.write_text(dumps(record))
    text_file = tmp_path / "game.txt"
    exported = cli("export", str(record_file), "-o", str(text_file))
    assert exported.returncode == 0, exported.stderr
    assert text_file.read_text().startswith('[Format "sheshbesh-text/1"]')
    imported = cli("import", str(text_file))
    assert imported.returncode == 0, imported.stderr
    again = any_game_of(loads(imported.stdout))
    assert isinstance(again, RaceGame)
    assert again.position == game.position and again.result == game.result
