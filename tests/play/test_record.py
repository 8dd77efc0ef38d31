"""Records: a game played with the fair dice replays from its log and its dice verify (PL-2)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

from test_race_properties import pick

from sheshbesh.play import actions as act
from sheshbesh.play.fair import FairDice
from sheshbesh.play.race import RaceGame
from sheshbesh.play.record import dumps, game_of, loads, make_record, verify_dice


def played_record(variant: str, seed: int) -> tuple[dict, RaceGame]:
    rng = random.Random(seed)
    fair = FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.random()}")
    game, created = RaceGame.create(variant, commit=fair.commit)
    events = []
    while not game.finished:
        action = pick(game.legal_actions(), rng)
        if isinstance(action, act.Roll):
            action = act.Roll(action.side, nonce=f"client-{rng.randrange(10**6)}")
        step = game.apply(action, fair)
        game, events = step.game, events + list(step.events)
    return make_record(created, events), game


def test_a_fair_game_replays_and_its_dice_verify() -> None:
    for variant in ("backgammon", "russian_backgammon", "long_nardy"):
        record, game = played_record(variant, seed=3)
        again = loads(dumps(record))
        assert game_of(again) == game
        verdict = verify_dice(again)
        assert verdict.honest, verdict.problems
        assert verdict.rolls_checked >= 3


def test_an_altered_roll_or_seed_fails_verification() -> None:
    record, _ = played_record("backgammon", seed=4)
    rolled = [e for e in record["events"] if "proof" in e]
    tampered = copy.deepcopy(record)
    target = next(e for e in tampered["events"] if e["seq"] == rolled[2]["seq"])
    target["dice"] = [7 - target["dice"][0], target["dice"][1]]
    assert not verify_dice(tampered).honest
    swapped_seed = copy.deepcopy(record)
    target = next(e for e in swapped_seed["events"] if e["seq"] == rolled[1]["seq"])
    target["proof"]["seed"] = "00" * 32
    verdict = verify_dice(swapped_seed)
    assert not verdict.honest and any("commitment" in p for p in verdict.problems)


def test_cli_verify_dice(tmp_path: Path) -> None:
    record, _ = played_record("plakoto", seed=5)
    honest = tmp_path / "honest.json"
    honest.write_text(dumps(record))
    result = subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", "verify-dice", str(honest)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "honest" in result.stdout.lower()
    rolled = next(e for e in record["events"] if "proof" in e)
    rolled["dice"] = [rolled["dice"][1], rolled["dice"][0]] if rolled["dice"][0] != rolled[
        "dice"][1] else [7 - rolled["dice"][0]] * 2  # fmt: skip
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", "verify-dice", str(bad)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", "verify-dice", str(broken)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2 and "not JSON" in result.stderr
