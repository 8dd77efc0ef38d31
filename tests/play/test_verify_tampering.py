"""verify-dice against tampered records (PL-2; issue 16, item 10).

The commitments fix each roll's dice; the events also say what those dice decided
(who starts, White's seat, the first dice, the rolls RB-8 ignores) and how many
dice were rolled. A record whose such fields disagree with the seed's dice, or a
race record relabelled as draughts, must not verify.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_race_properties import pick

from sheshbesh.play import actions as act
from sheshbesh.play.dice import derive_dice
from sheshbesh.play.fair import FairDice
from sheshbesh.play.match import Match, MatchStep
from sheshbesh.play.race import RaceGame
from sheshbesh.play.record import make_record, verify_dice

Record = dict[str, Any]
SIDES = {"W": "White", "B": "Black"}


def played(variant: str, seed: int, *, match: bool = False) -> Record:
    """A finished game (or 3-point match) played with the server's fair dice."""
    rng = random.Random(seed)
    fair = FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.random()}")
    game: RaceGame | Match
    if match:
        game, created = Match.create(variant, 3, commit=fair.commit)
    else:
        game, created = RaceGame.create(variant, commit=fair.commit)
    events: list[dict[str, Any]] = []
    while not game.finished:
        action = pick(game.legal_actions(), rng)
        if isinstance(action, act.Roll):
            action = act.Roll(action.side, nonce=f"client-{rng.randrange(10**6)}")
        step = game.apply(action, fair)
        game = step.match if isinstance(step, MatchStep) else step.game
        events += step.events
    return make_record(created, events, game="match" if match else "race")


def problems_of(record: Record) -> tuple[str, ...]:
    verdict = verify_dice(record)
    assert not verdict.honest
    return verdict.problems


def said(record: Record, event: dict[str, Any], text: str) -> str:
    """A problem as the verifier names it: the event, its seq, the roll, then what is wrong."""
    index = 1 + record["events"].index(event)
    return f"event {index} (seq {event['seq']}): roll {event['proof']['roll']}: {text}"


def events_of(record: Record, kind: str) -> list[dict[str, Any]]:
    return [e for e in record["events"] if e["type"] == kind]


def decided_opening(record: Record) -> dict[str, Any]:
    """The opening roll that decided who starts (not a tie)."""
    return next(e for e in events_of(record, "opening") if e["starter"] is not None)


# --- the opening roll (BF-14, SN-2) ----------------------------------------------------------


def test_pl2_opening_starter_flipped() -> None:
    record = played("backgammon", 1)
    opening = decided_opening(record)
    winner = opening["starter"]
    opening["starter"] = "B" if winner == "W" else "W"
    assert problems_of(record) == (
        said(
            record, opening,
            f"the opening roll decides {SIDES[winner]} starts "
            f"but the record says {SIDES[opening['starter']]}",
        ),
    )  # fmt: skip


def test_pl2_opening_first_dice_changed_to_6_6() -> None:
    record = played("backgammon", 2)
    opening = decided_opening(record)
    first = opening["first_dice"]
    assert first == sorted(opening["dice"], reverse=True)
    opening["first_dice"] = [6, 6]
    assert problems_of(record) == (
        said(
            record, opening, f"the opening roll gives first dice {first} but the record says [6, 6]"
        ),
    )


def test_pl2_opening_that_plays_no_dice_given_first_dice() -> None:
    """Long nardy opens by deciding the starter only (variant F): he rolls afresh."""
    record = played("long_nardy", 3)
    opening = decided_opening(record)
    opening["first_dice"] = [6, 6]
    assert problems_of(record) == (
        said(record, opening, "the opening roll gives first dice None but the record says [6, 6]"),
    )


def test_pl2_a_tie_given_a_starter() -> None:
    record = next(
        r for r in (played("backgammon", seed) for seed in range(40))
        if r["events"][0]["type"] == "opening" and r["events"][0]["starter"] is None
    )  # fmt: skip
    tie = record["events"][0]
    tie["starter"] = "W"
    assert said(
        record, tie, "the opening roll decides nobody starts but the record says White"
    ) in problems_of(record)


def test_ln3_opening_winner_seat_flipped() -> None:
    """SN-2, CN-1, LN-3: the opening winner takes White; his seat is what the dice decide."""
    record = played("long_nardy", 4)
    opening = decided_opening(record)
    seat = opening["white_seat"]
    opening["white_seat"] = 1 - seat
    assert problems_of(record) == (
        said(
            record,
            opening,
            f"the opening roll gives White seat {seat} but the record says {1 - seat}",
        ),
    )


def test_pl2_backgammon_opening_given_a_white_seat() -> None:
    record = played("backgammon", 5)
    opening = decided_opening(record)
    opening["white_seat"] = 1
    assert problems_of(record) == (
        said(record, opening, "the opening roll gives White seat 0 but the record says 1"),
    )


# --- rolls RB-8 ignores ---------------------------------------------------------------------


def test_rb8_ignored_flag_added_to_a_backgammon_roll() -> None:
    record = played("backgammon", 6)
    roll = events_of(record, "rolled")[3]
    roll["ignored"] = "RB-8"
    assert problems_of(record) == (
        said(
            record, roll,
            f"dice {roll['dice']} are marked ignored, but only a double on a side's "
            "first turn in Russian backgammon is ignored (RB-8)",
        ),
    )  # fmt: skip


def russian_with_an_ignored_roll() -> tuple[Record, dict[str, Any]]:
    for seed in range(40):
        record = played("russian_backgammon", seed)
        ignored = [e for e in events_of(record, "rolled") if e.get("ignored")]
        if ignored:
            return record, ignored[0]
    raise AssertionError("no Russian game with an ignored roll")


def test_rb8_ignored_roll_played_instead() -> None:
    record, roll = russian_with_an_ignored_roll()
    del roll["ignored"]
    assert problems_of(record) == (
        said(
            record, roll,
            f"dice {roll['dice']} are a double on a first turn, which RB-8 ignores, "
            "but the record plays them",
        ),
    )  # fmt: skip


def test_rb8_a_later_double_marked_ignored() -> None:
    record = played("russian_backgammon", 7)
    plays = [e["seq"] for e in events_of(record, "played")]
    later = [
        e for e in events_of(record, "rolled")
        if e["dice"][0] == e["dice"][1] and e["seq"] > plays[1] and not e.get("ignored")
    ]  # fmt: skip
    roll = later[0]
    roll["ignored"] = "RB-8"
    assert said(
        record, roll,
        f"dice {roll['dice']} are marked ignored, but only a double on a side's "
        "first turn in Russian backgammon is ignored (RB-8)",
    ) in problems_of(record)  # fmt: skip


# --- how many dice a roll has ---------------------------------------------------------------


def test_pl2_dice_cut_to_one() -> None:
    record = played("backgammon", 8)
    roll = events_of(record, "rolled")[2]
    dice = roll["dice"]
    roll["dice"] = dice[:1]
    assert problems_of(record) == (
        said(
            record, roll, f"dice {dice[:1]} but 'rolled' events roll 2 dice; the seed gives {dice}"
        ),
    )


def test_pl2_dice_extended_to_four_with_the_seeds_own_dice() -> None:
    """The seed gives any number of dice: only the rules say a roll has two."""
    record = played("backgammon", 9)
    roll = events_of(record, "rolled")[2]
    proof = roll["proof"]
    four = list(derive_dice(bytes.fromhex(proof["seed"]), proof["nonce"], proof["roll"], 4))
    assert four[:2] == roll["dice"]
    roll["dice"] = four
    assert problems_of(record) == (
        said(
            record, roll, f"dice {four} but 'rolled' events roll 2 dice; the seed gives {four[:2]}"
        ),
    )


def test_pl2_opening_dice_cut_to_one() -> None:
    record = played("plakoto", 10)
    opening = decided_opening(record)
    dice = opening["dice"]
    opening["dice"] = dice[:1]
    assert said(
        record, opening, f"dice {dice[:1]} but 'opening' events roll 2 dice; the seed gives {dice}"
    ) in problems_of(record)


# --- the record's kind and variant ------------------------------------------------------------


def test_pl2_race_record_relabelled_as_draughts(tmp_path: Path) -> None:
    record = played("backgammon", 11)
    record["game"] = "draughts"
    assert problems_of(record) == (
        "record kind 'draughts' has rolls, but draughts is played without dice",
    )
    path = tmp_path / "relabelled.json"
    path.write_text(json.dumps(record))
    result = subprocess.run(
        [sys.executable, "-m", "sheshbesh.cli", "verify-dice", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stdout
    assert result.stdout.startswith("NOT honest: 1 problem in ")
    assert "record kind 'draughts' has rolls" in result.stdout


def test_pl2_variant_removed_so_the_opening_cannot_be_checked() -> None:
    record = played("backgammon", 12)
    del record["created"]["variant"]
    opening = record["events"][0]
    assert problems_of(record) == (
        said(
            record, opening,
            "the record's variant None is not a race variant, so the rules cannot check its rolls",
        ),
    )  # fmt: skip


# --- honest records still verify --------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    ["backgammon", "short_nardy", "takhte_nard", "long_nardy", "caucasian_nardy", "plakoto",
     "russian_backgammon", "jacquet"],
)  # fmt: skip
def test_pl2_honest_games_of_every_variant_verify(variant: str) -> None:
    for seed in range(6 if variant == "russian_backgammon" else 2):
        record = played(variant, seed)
        verdict = verify_dice(record)
        assert verdict.honest, verdict.problems


def test_pl2_honest_matches_verify() -> None:
    for variant, seed in [("backgammon", 3), ("backgammon", 4), ("takhte_nard", 4)]:
        record = played(variant, seed, match=True)
        verdict = verify_dice(record)
        assert verdict.honest, verdict.problems
        assert any(e["type"] == "game_started" for e in record["events"])


def test_pl2_an_untouched_copy_verifies() -> None:
    record = played("backgammon", 13)
    assert verify_dice(copy.deepcopy(record)) == verify_dice(record)
