"""PDN: whole games with tags, DR-4 move text, results, set-up positions."""

import pytest

from sheshbesh.games.draughts import (
    Game,
    InvalidPdn,
    PdnGame,
    Position,
    read_pdn,
    write_pdn,
)

OPENING = ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]


def test_write_then_read_round_trips() -> None:
    game = Game.replay(Position.start(), OPENING)
    tags = (("Event", "Club night"), ("White", 'Ann "the wall"'), ("Black", "Bob"))
    text = write_pdn(PdnGame(game, tags))
    assert text.splitlines()[:6] == [
        '[Event "Club night"]',
        '[White "Ann \\"the wall\\""]',
        '[Black "Bob"]',
        '[Result "*"]',
        '[GameType "20"]',
        "",
    ]
    assert "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 *" in text
    (back,) = read_pdn(text)
    assert back.game == game
    assert dict(back.tags)["White"] == 'Ann "the wall"'
    assert back.result == "*"
    assert write_pdn(back) == text


def test_dr_4_captures_written_with_every_landing_square() -> None:
    game = Game.replay(Position.from_fen("W:W32,45:B27,28,19,1"), ["32x14"])
    text = write_pdn(PdnGame(game))
    assert "32x23x14" in text
    assert '[FEN "W:W32,45:B1,19,27,28"]' in text


def test_set_up_position_with_black_to_move() -> None:
    game = Game.replay(Position.from_fen("B:W31,32:B18,19"), ["18-22", "31-26"])
    text = write_pdn(PdnGame(game))
    assert "1... 18-22 2. 31-26 *" in text
    assert read_pdn(text)[0].game == game


def test_result_follows_the_rules_when_not_given() -> None:
    game = Game.replay(Position.from_fen("W:W32:B28"), ["32x23"])
    text = write_pdn(PdnGame(game))
    assert '[Result "2-0"]' in text and text.rstrip().endswith("2-0")
    assert read_pdn(text)[0].final_result == "2-0"


def test_reads_comments_variations_nags_and_several_games() -> None:
    text = """
[Event "one"]
[Result "1-0"]
1. 32-28 {a comment} 19-23! 2. 28x19 (2. 37-32 18-22) 14x23 $3 ; rest of line
3. 33-28 1-0

[Event "two"]
[FEN "W:WK1:BK50"]
1-1
"""
    first, second = read_pdn(text)
    assert [str(m) for m in first.game.moves] == ["32-28", "19-23", "28x19", "14x23", "33-28"]
    assert first.result == "2-0"
    assert second.game.start == Position.from_fen("W:WK1:BK50")
    assert second.result == "1-1"


def test_short_form_captures_are_read() -> None:
    (record,) = read_pdn('[Event "x"]\n[FEN "W:W32,45:B27,28,19,1"]\n1. 32x14 *')
    assert str(record.game.moves[0]) == "32x23x14"


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("1. 32-29 *", "32-29"),
        ("1. 32-28 19-23 2. 28x14 *", "28x14"),
        ("1. 32-28 banana *", "banana"),
        ('[GameType "21"]\n1. 32-28 *', "21"),
        ('[FEN "W:W51:B1"]\n*', "51"),
        ('[Result "2-0"]\n1. 32-28 0-2', "disagrees"),
        ("1. 32-28 (19-23", "("),
        ("1. 32-28 ) *", ")"),
    ],
)
def test_bad_pdn_names_the_token(text: str, token: str) -> None:
    with pytest.raises(InvalidPdn) as caught:
        read_pdn(text)
    assert token in str(caught.value)


def test_long_games_wrap_without_splitting_moves() -> None:
    game = Game.replay(Position.start(), OPENING * 1 + ["18-22", "31-27", "22x33", "38x29"])
    text = write_pdn(PdnGame(game))
    for line in text.splitlines():
        assert len(line) <= 79
    assert read_pdn(text)[0].game == game
