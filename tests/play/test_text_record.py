"""The text record: random games of every race variant survive export and import.

The imported record replays to the same final position and result, exports to the
same text again, and malformed lines fail with the line number and the problem.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from dice_sources import ListDice, SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st
from test_race_properties import MAX_ACTIONS, options_for, pick

from sheshbesh.games.race import RACE_VARIANTS, Side
from sheshbesh.play import actions as act
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import RaceGame, replay
from sheshbesh.play.record import make_record
from sheshbesh.play.text_record import TextRecordError, export_text, import_text


def random_record(
    variant: str, seed: int, *, finish: bool = True
) -> tuple[dict[str, Any], RaceGame]:
    rng = random.Random(seed)
    game, created = RaceGame.create(variant, options_for(variant, rng))
    dice = SeededDice(seed)
    log: list[dict[str, Any]] = []
    stop = MAX_ACTIONS if finish else rng.randint(1, 60)
    for _ in range(stop):
        if game.finished:
            break
        step = game.apply(pick(game.legal_actions(), rng), dice)
        game, log = step.game, log + list(step.events)
    return make_record(created, log), game


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), finish=st.booleans())
def test_random_games_round_trip(variant: str, seed: int, finish: bool) -> None:
    record, game = random_record(variant, seed, finish=finish)
    if not game.finished and game.seq > 1 and seed % 2:
        step = game.apply(act.Timeout(Side(seed % 4 // 2)))  # PL-7: a player leaves
        record, game = (
            make_record(record["created"], record["events"] + list(step.events)),
            step.game,
        )
    text = export_text(record, white="Ann", black="Bob", date="2026.11.21")
    imported = import_text(text)
    again = replay(imported["created"], imported["events"])
    assert again.position == game.position
    assert again.result == game.result
    assert again.phase == game.phase
    assert export_text(imported, white="Ann", black="Bob", date="2026.11.21") == text
    assert all("proof" not in event for event in imported["events"])


def long_nardy() -> str:
    game, created = RaceGame.create("long_nardy")
    dice = ListDice([(3, 3), (5, 3), (6, 2), (4, 1), (6, 6), (5, 5)])
    log = list(game.apply(act.Start(), dice).events)
    game = replay(created, log)
    for side in (Side.WHITE, Side.BLACK, Side.WHITE, Side.BLACK):
        step = game.apply(act.Roll(side), dice)
        game, log = step.game, log + list(step.events)
        if game.turn is not None:
            step = game.apply(act.PlayText(side, game.turn.plays[0].notation()), dice)
            game, log = step.game, log + list(step.events)
    for action in (act.Resign(Side.WHITE, 2), act.AcceptResign(Side.BLACK)):
        step = game.apply(action, dice)
        game, log = step.game, log + list(step.events)
    return export_text(make_record(created, log), white='Ann "the Head"', black="Bob")


def test_export_layout() -> None:
    text = long_nardy()
    assert '[White "Ann \\"the Head\\""]' in text
    assert '[Result "B 2"]' in text and '[Reason "BF-15"]' in text
    body = text.split("\n\n")[1].splitlines()
    assert body[:3] == ["opening 3-3", "opening 5-3 W", "1. W 62: 24/16"]
    assert body[-2:] == ["W resigns 2", "B accepts"]


def test_interrupted_turn_writes_the_play_on_its_own_line() -> None:
    options = RaceOptions.defaults("plakoto", auto_play_forced=False)
    game, created = RaceGame.create("plakoto", options)
    dice = ListDice([(5, 3), (6, 2)])
    log: list[dict[str, Any]] = []
    for action in (act.Start(), act.Roll(Side.WHITE)):
        step = game.apply(action, dice)
        game, log = step.game, log + list(step.events)
    assert game.turn is not None
    play = game.turn.plays[0].notation()
    steps: list[act.Action] = [
        act.Resign(Side.WHITE, 1),
        act.DeclineResign(Side.BLACK),
        act.PlayText(Side.WHITE, play),
    ]
    for action in steps:
        step = game.apply(action, dice)
        game, log = step.game, log + list(step.events)
    text = export_text(make_record(created, log))
    body = text.split("\n\n")[1].splitlines()
    assert body[1] == "1. W 62"
    assert body[2:4] == ["W resigns 1", "B declines"]
    assert body[4].startswith("W plays ")
    again = import_text(text)
    assert replay(again["created"], again["events"]).position == game.position


def test_comments_numbers_and_defaults_are_optional() -> None:
    text = long_nardy()
    body = text.split("\n\n")[1]
    short = '; a comment\n[Variant "long_nardy"]\n[Result "B 2"]\n\n' + body.replace("1. ", "")
    assert (
        replay(**_fold(import_text(short))).position == replay(**_fold(import_text(text))).position
    )


def _fold(record: dict[str, Any]) -> dict[str, Any]:
    return {"created": record["created"], "events": record["events"]}


def _line_of(text: str, wanted: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if wanted in line)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("1. B 41: 24/19", "1. B 41: 24/18", "the only legal play is '24/19', not '24/18'"),
        ("1. B 41: 24/19", "1. B 41 24/19", "cannot read '1. B 41 24/19'"),
        ("1. B 41: 24/19", "1. W 41: 24/19", "white cannot act now: waiting for black"),
        ("opening 3-3", "opening 3-3 W", "the game gives 'opening 3-3' here (another side)"),
        ("B accepts", "B declines\nB accepts", "black cannot act now: waiting for white"),
        ("W resigns 2", "W resigns 7", "resignation level 7 is not one of [1, 2]"),
        ("B accepts", "B accepts\nW doubles 2", "the game is over: no doubled"),
        ("opening 5-3 W", "opening 5-3 W\nauto double 2", "auto double does not follow"),
        ("opening 5-3 W", "opening 5-3 B", "(another side)"),
        ('[Result "B 2"]', '[Result "W 2"]', "the result is 'W 2' but the moves give 'B 2'"),
        ('[Result "B 2"]', '[Result "B 2"', 'a tag is [Name "value"]'),
        ('[Variant "long_nardy"]', '[Variant "chess"]', "unknown variant 'chess'"),
        ("stake_mode=oin", "stake_mode=oin colour=red", "unknown option 'colour=red'"),
        ("cube=0", "cube=yes", "option cube is 0 or 1, not 'yes'"),
        ("cube=0", "cube=1", "long_nardy is played without a doubling cube"),
    ],
)
def test_malformed_lines_name_the_line_and_the_problem(old: str, new: str, problem: str) -> None:
    text = long_nardy()
    assert old in text
    bad = text.replace(old, new, 1)
    line = _line_of(bad, new.splitlines()[-1])
    with pytest.raises(TextRecordError) as error:
        import_text(bad)
    assert problem in str(error.value)
    assert error.value.line == line
    assert str(error.value).startswith(f"line {line}: ")
    assert isinstance(error.value, ValueError)


def test_missing_variant_running_out_of_dice_and_cut_records() -> None:
    text = long_nardy()
    with pytest.raises(TextRecordError, match="line 1: the \\[Variant"):
        import_text(text.replace('[Variant "long_nardy"]\n', ""))
    tie_only = text.split("opening 5-3")[0].replace('[Result "B 2"]', '[Result "*"]')
    with pytest.raises(TextRecordError, match="line 10: the game needs another roll"):
        import_text(tie_only)
    cut = text.split("W resigns")[0].replace('[Result "B 2"]', '[Result "*"]')
    assert replay(**_fold(import_text(cut))).result is None
    with pytest.raises(TextRecordError, match="ends, but the game goes on with 'last roll B'"):
        import_text(_white_bears_off_with_last_roll_cut())


def _white_bears_off_with_last_roll_cut() -> str:
    """A long nardy game with the last roll on whose 'last roll B' line was cut."""
    for seed in range(200):
        rng = random.Random(seed)
        options = options_for("long_nardy", rng)
        if not options.last_roll:
            continue
        record, _ = random_record("long_nardy", seed)
        types = [event["type"] for event in record["events"]]
        if "last_roll" not in types:
            continue
        text = export_text(record)
        lines = text.splitlines()
        cut = lines[: lines.index("last roll B")]
        result = next(line for line in lines if line.startswith("[Result"))
        return "\n".join(line if line != result else '[Result "*"]' for line in cut)
    raise AssertionError("no seed gave a last roll")


def test_only_race_records() -> None:
    with pytest.raises(ValueError, match="race games"):
        export_text({"game": "draughts", "created": {}, "events": []})
