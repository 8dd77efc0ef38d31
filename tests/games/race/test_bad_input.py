"""Bad input never crashes: any text gets a position or play, or a typed error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.games.errors import GameError, InvalidDice, InvalidPlay, InvalidPosition
from sheshbesh.games.race import RACE_VARIANTS, Position, parse_play

POSITION_ALPHABET = st.sampled_from(list("WB:x,0123456789barnewpc -"))
PLAY_ALPHABET = st.sampled_from(list("0123456789/*^()baroff -"))


@settings(max_examples=400, deadline=None)
@given(
    variant=st.sampled_from(sorted(RACE_VARIANTS)),
    text=st.text(POSITION_ALPHABET, max_size=40) | st.text(max_size=20),
)
def test_any_position_text_parses_or_raises_invalid_position(variant: str, text: str) -> None:
    try:
        position = Position.from_text(variant, text)
    except InvalidPosition as error:
        assert str(error)
    else:
        assert Position.from_text(variant, position.text()) == position


@settings(max_examples=400, deadline=None)
@given(text=st.text(PLAY_ALPHABET, max_size=30))
def test_any_play_text_parses_or_raises_invalid_play(text: str) -> None:
    try:
        parse_play(text)
    except InvalidPlay as error:
        assert str(error)


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(PLAY_ALPHABET, max_size=24),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_any_play_text_on_a_position_is_a_play_or_a_game_error(
    text: str, dice: tuple[int, int]
) -> None:
    position = Position.start("backgammon")
    try:
        play = position.play(dice, text)
    except GameError as error:
        assert str(error)
    else:
        assert play in position.legal_plays(dice)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=16))
def test_any_position_id_decodes_or_raises_invalid_position(text: str) -> None:
    try:
        Position.from_id(text)
    except InvalidPosition as error:
        assert str(error)


@pytest.mark.parametrize(
    ("dice", "message"),
    [((0, 3), "die 0"), ((3, 7), "die 7"), ((3,), "two dice"), ("31", "two dice"),
     ((True, 2), "die True"), ((2.0, 3), "die 2.0")],
)  # fmt: skip
def test_bad_dice_raise_invalid_dice(dice: object, message: str) -> None:
    with pytest.raises(InvalidDice, match=message):
        Position.start("backgammon").legal_plays(dice)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Position.from_own("backgammon", white={6: 16}, black={1: 2}), "16 checkers"),
        (lambda: Position.from_own("backgammon", white={6: 2}, black={19: 1}), "both colours"),
        (lambda: Position.from_own("long_nardy", white={"bar": 1}, black={}), "no bar"),
        (lambda: Position.from_own("backgammon", white={30: 1}, black={}), "no such point"),
        (lambda: Position.from_own("backgammon", white={6: -1}, black={}), "negative"),
        (lambda: Position.from_text("plakoto", "W:W5p:B1"), "needs an opposing checker"),
        (lambda: Position.from_text("backgammon", "W:W:B"), "both sides"),
        (lambda: Position.from_text("backgammon", "W:W1:B2:c3"), "no owed"),
        (lambda: Position.from_id("long_nardy_id"), "14"),
    ],
)
def test_impossible_positions_name_the_problem(build: object, message: str) -> None:
    with pytest.raises(InvalidPosition, match=message):
        build()  # type: ignore[operator]
