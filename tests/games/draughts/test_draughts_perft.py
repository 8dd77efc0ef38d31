"""Perft against the counts in data/perft.txt (published table and py-draughts)."""

from pathlib import Path

import pytest

from sheshbesh.games.draughts import Position, perft

DATA = Path(__file__).parent / "data" / "perft.txt"
NODE_CAP = 30_000
"""Counts above this run in bench/draughts.py, not in the unit tests."""


def read_cases(text: str) -> list[tuple[str, str, int, int]]:
    """(id, fen, depth, count) for every ``perft`` line of the data file."""
    cases: list[tuple[str, str, int, int]] = []
    name = fen = ""
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#") or words[0] == "source":
            continue
        if words[0] == "id":
            name, fen = words[1], ""
        elif words[0] == "fen":
            fen = words[1]
        elif words[0] == "perft":
            cases.append((name, fen, int(words[1]), int(words[2])))
        else:
            raise ValueError(f"unknown line in {DATA.name}: {line!r}")
    return cases


CASES = read_cases(DATA.read_text())


def test_data_file_has_the_start_table() -> None:
    start = [(d, n) for name, _, d, n in CASES if name == "start"]
    assert start == [(1, 9), (2, 81), (3, 658), (4, 4265), (5, 27117), (6, 167140)]


@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [pytest.param(f, d, n, id=f"{name}-{d}") for name, f, d, n in CASES if n <= NODE_CAP],
)
def test_perft(fen: str, depth: int, count: int) -> None:
    assert perft(Position.from_fen(fen), depth) == count


def test_perft_matches_the_public_move_list() -> None:
    """perft's fast walk and legal_moves()/apply() must agree."""

    def slow(position: Position, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(slow(position.apply(m), depth - 1) for m in position.legal_moves())

    for _, fen, depth, count in CASES:
        if count <= 2_000:
            assert slow(Position.from_fen(fen), depth) == count


def test_perft_depth_zero_and_negative() -> None:
    assert perft(Position.start(), 0) == 1
    with pytest.raises(ValueError, match="-1"):
        perft(Position.start(), -1)
