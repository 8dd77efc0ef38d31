"""The order of generated plays is pinned: bots and hints read it, perft cannot see it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheshbesh.games.race import Position

DATA = Path(__file__).parent / "data" / "play_order.txt"


def cases() -> list[tuple[str, str, tuple[int, int], list[str]]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        variant, text, roll, plays = (part.strip() for part in line.split("|"))
        d1, d2 = (int(d) for d in roll.split("-"))
        rows.append((variant, text, (d1, d2), plays.split(", ") if plays else []))
    return rows


@pytest.mark.parametrize(("variant", "text", "dice", "expected"), cases())
def test_generated_play_order_is_stable(
    variant: str, text: str, dice: tuple[int, int], expected: list[str]
) -> None:
    position = Position.from_text(variant, text)
    assert [play.notation() for play in position.legal_plays(dice)] == expected
