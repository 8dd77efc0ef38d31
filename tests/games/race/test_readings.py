"""The position's readings that every move's state view makes (text, pip counts,
gnubg's board) are computed in one pass over the absolute points. Here each is
checked against its definition in the rules' own terms (BF-3: a side's own point
numbers; PK-5: pinned checkers; BF-12: the pip count), on every position of
seeded random games of all eight race variants."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from sheshbesh.games.errors import InvalidDice, InvalidPosition
from sheshbesh.games.race import RACE_VARIANTS, Position, Side
from sheshbesh.games.race.ids import gnubg_board


def positions(variant: str, seed: int, games: int) -> Iterator[Position]:
    """Every position met in ``games`` games of uniformly random legal plays."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.start(variant, turn=rng.choice(list(Side)))
        while position.outcome() is None:
            yield position
            plays = None
            while plays is None:  # RB-8: a complement is owed, or a first double rolled again
                roll = (
                    (position.owed,) * 2
                    if position.owed
                    else (rng.randint(1, 6), rng.randint(1, 6))
                )
                try:
                    plays = position.legal_plays(roll)
                except InvalidDice:
                    continue
            position = rng.choice(plays).after if plays else position.pass_turn()


def pips_by_definition(position: Position, side: Side) -> int:
    """Each checker counts its own point number, one on the bar or not entered 25."""
    on_points = sum(
        point * (position.own(side, point) + position.pinned(side, point)) for point in range(1, 25)
    )
    return on_points + 25 * (position.bar[side] + position.waiting[side])


def text_by_definition(position: Position) -> str:
    """Per side: its bar, its unentered, then absolute points 1–24, each with its
    pinned checker first; then what is owed."""
    fields = [position.turn.letter]
    for side in Side:
        sign = 1 if side is Side.WHITE else -1
        tokens = []
        for label, count in (("bar", position.bar[side]), ("new", position.waiting[side])):
            if count:
                tokens.append(label if count == 1 else f"{label}x{count}")
        for a in range(1, 25):
            if position.pins[a - 1] == sign:
                tokens.append(f"{a}p")
            count = position.points[a - 1] * sign
            if count > 0:
                tokens.append(str(a) if count == 1 else f"{a}x{count}")
        fields.append(side.letter + ",".join(tokens))
    if position.owed:
        fields.append(f"c{position.owed}")
    return ":".join(fields)


def board_by_definition(position: Position) -> tuple[tuple[int, ...], ...]:
    def cells(side: Side) -> tuple[int, ...]:
        return (*(position.own(side, p) for p in range(1, 25)), position.bar[side])

    return cells(position.turn.other), cells(position.turn)


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
def test_text_and_pips_are_their_definitions_in_every_variant(variant: str) -> None:
    seen = 0
    for position in positions(variant, seed=20261127, games=6):
        text = position.text()
        assert text == text_by_definition(position)
        assert Position.from_text(variant, text) == position
        for side in Side:
            assert position.pips(side) == pips_by_definition(position, side)
        seen += 1
    assert seen > 100


GNUBG_BOARDS = sorted(
    name for name, rules in RACE_VARIANTS.items()
    if rules.mapping == "opposite" and rules.lone_checker == "hit"
)  # fmt: skip


@pytest.mark.parametrize("variant", GNUBG_BOARDS)
def test_gnubgs_board_is_each_sides_own_numbering(variant: str) -> None:
    seen = 0
    for position in positions(variant, seed=27, games=3):
        assert gnubg_board(position) == board_by_definition(position)
        seen += 1
    assert seen > 50


def test_the_variants_with_gnubgs_board() -> None:
    assert GNUBG_BOARDS == ["backgammon", "caucasian_nardy", "short_nardy", "takhte_nard"]
    with pytest.raises(InvalidPosition):
        gnubg_board(Position.start("long_nardy"))


def test_a_pinned_checker_counts_its_point_and_is_written_first() -> None:
    """PK-5: White pins a Black checker on absolute 10; both count it in their pips."""
    position = Position.from_text("plakoto", "W:W10,1x14:B10p,24x14")
    assert position.text() == "W:W1x14,10:B10p,24x14"
    assert position.pips(Side.WHITE) == 14 * 1 + 10
    black_own_10 = 25 - 10  # Plakoto numbers Black's points from the opposite end
    assert position.pips(Side.BLACK) == black_own_10 + 14 * (25 - 24)
