"""Play notation (BF-16), both ways, checked against gnubg's reader and writer."""

from __future__ import annotations

import random

import gnubg
import pytest
from gnubg_oracle import CONTEXT, CUBE, ROLLS, apply_steps, gnubg_steps, mover_view

from sheshbesh.games.errors import AmbiguousPlay, IllegalPlay, InvalidPlay
from sheshbesh.games.race import Position, Side, Step, format_play, parse_play
from sheshbesh.games.race.ids import gnubg_board
from sheshbesh.games.race.notation import Path, parse_steps


@pytest.mark.parametrize(
    "text",
    [
        "8/5 6/5",
        "bar/22*",
        "6/off",
        "13/7(2)",
        "24/18*/13",
        "bar/9",
        "24/18*/13*",
        "13/7(2) 8/2(2)",
    ],
)
def test_format_and_parse_are_inverses(text: str) -> None:
    assert format_play(parse_steps(text)) == text


def test_parse_play_reads_paths_counts_and_marks() -> None:
    assert parse_play("bar/22* 13/7(2) 6/OFF") == (
        Path((25, 22), (False, True), 1),
        Path((13, 7), (False, False), 2),
        Path((6, 0), (False, False), 1),
    )


def test_format_merges_one_checker_and_keeps_hits_on_the_way() -> None:
    assert format_play((Step(24, 18, 6), Step(18, 13, 5))) == "24/13"
    assert format_play((Step(24, 18, 6, True), Step(18, 13, 5))) == "24/18*/13"
    assert format_play((Step(8, 2, 6), Step(13, 8, 5))) == "13/2"
    assert format_play((Step(24, 22, 2, True), Step(24, 22, 2))) == "24/22*(2)"
    assert format_play((Step(13, 8, 5, True), Step(8, 5, 3)), pin=True) == "13/5"
    assert format_play((Step(13, 8, 5), Step(8, 5, 3, True)), pin=True) == "13/5^"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("13-7", "not a point"),
        ("25/20", "no point"),
        ("13", "start and an end"),
        ("13/14", "lower numbers"),
        ("off/3", "'off' only end"),
        ("13/bar", "'bar' can only start"),
        ("13/7(5)", "at most four"),
        ("13/7(0)", "at most four"),
        ("13/7x", "not a point"),
    ],
)
def test_bad_play_text_raises_invalid_play_naming_the_token(text: str, message: str) -> None:
    with pytest.raises(InvalidPlay, match=message):
        parse_play(text)


def test_illegal_play_lists_the_legal_ones() -> None:
    start = Position.start("backgammon")
    with pytest.raises(IllegalPlay, match=r"'24/20 13/12' is not legal with 3-1; legal plays: "):
        start.play((3, 1), "24/20 13/12")
    with pytest.raises(IllegalPlay, match="no die or dice"):
        start.play((3, 1), "13/11")
    with pytest.raises(IllegalPlay, match="must use one die"):  # 24/13 takes both
        Position.start("backgammon").play((6, 5), "24/13/8")


def test_named_point_on_the_way_must_be_open_bg_e2() -> None:
    position = Position.from_own("backgammon", white={13: 1, 1: 14}, black={15: 2, 1: 13})
    assert position.play((5, 3), "13/8/5") == position.play((5, 3), "13/5")
    with pytest.raises(IllegalPlay, match="point 10 is closed"):
        position.play((5, 3), "13/10/5")


def test_hits_may_be_left_out_when_only_one_play_fits() -> None:
    """BG-E1: ``13/9/8`` without the star still names the play ``13/9*/8``."""
    position = Position.from_own(
        "backgammon",
        white={24: 2, 13: 5, 8: 3, 6: 5},
        black={24: 2, 16: 1, 13: 4, 8: 3, 6: 5},
    )
    assert position.play((4, 1), "13/9/8").notation() == "13/9*/8"
    assert position.play((4, 1), "13/8") == position.play((4, 1), "13/9*/8")


def test_unmarked_text_that_fits_two_hitting_plays_is_ambiguous() -> None:
    """13/5 with 5-3 and blots on both 10 and 8: via 8 or via 10 hits a different blot."""
    position = Position.from_own("backgammon", white={13: 2, 6: 13}, black={15: 1, 17: 1, 1: 13})
    with pytest.raises(AmbiguousPlay, match="13/5"):
        position.play((5, 3), "13/5")
    assert position.play((5, 3), "13/8*/5").after != position.play((5, 3), "13/10*/5").after


def test_notation_agrees_with_gnubg_both_ways_over_random_games() -> None:
    """gnubg's text names gnubg's play for us; our text names our play for gnubg."""
    rng = random.Random(11)
    checked = 0
    for _ in range(2):
        position = Position.start("backgammon", turn=rng.choice(list(Side)))
        while position.outcome() is None:
            board = gnubg_board(position)
            for dice in ROLLS[::4]:
                plays = {mover_view(play): play for play in position.legal_plays(dice)}
                for play in rng.sample(list(plays.values()), min(8, len(plays))):
                    assert position.play(dice, play.notation()) == play
                    theirs = [tuple(m) for m in gnubg.parse_move(play.notation())]
                    assert apply_steps(board, theirs) == mover_view(play), play
                entries = gnubg.find_best_moves(board, CUBE, CONTEXT, dice)
                for entry in rng.sample(entries, min(8, len(entries))):
                    steps, cut = gnubg_steps(entry["move"])
                    if cut and len(steps) < len(next(iter(plays.values())).steps):
                        continue  # gnubg's text stops at the first bear-off
                    text = gnubg.move_tuple_to_string(entry["move"], board)
                    assert mover_view(position.play(dice, text)) == apply_steps(board, steps)
                    checked += 1
            plays_now = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            position = rng.choice(plays_now).after if plays_now else position.pass_turn()
    assert checked > 1000
