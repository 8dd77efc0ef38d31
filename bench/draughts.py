"""Benchmark: our draughts move generator against py-draughts, measured in the same run.

Two measurements, each the best of several repetitions:

1. perft(6) from the start position (167140 leaves). Ours is
   ``sheshbesh.games.draughts.perft``; py-draughts is timed twice: its public
   board (``legal_moves`` with ``push``/``pop``, counting the last ply without
   playing it, as ours does) and its own bitboard ``turbo`` perft.
2. Legal-move generation over a fixed set of positions taken from seeded random
   games: ``Position.legal_moves()`` against ``Board.legal_moves``.

Ratios are our time divided by theirs: below 1.0 means ours is faster.

    python bench/draughts.py [--depth 6] [--positions 2000] [--repeat 3]
"""

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its own name
# would hide the py-draughts package (import name ``draughts``).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import draughts  # noqa: E402
from draughts.engines.turbo import perft_from_board  # noqa: E402

from sheshbesh.games.draughts import Position, perft  # noqa: E402

START_COUNTS = {1: 9, 2: 81, 3: 658, 4: 4265, 5: 27117, 6: 167140}


def best_of(repeat: int, run: Callable[[], object]) -> tuple[float, object]:
    """Fastest wall time of ``repeat`` runs, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        begin = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - begin)
    return best, result


def board_perft(board: draughts.Board, depth: int) -> int:
    """Perft on py-draughts' public board API, counting the last ply in bulk."""
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += board_perft(board, depth - 1)
        board.pop()
    return total


def sample_positions(count: int, seed: int = 7) -> list[str]:
    """FENs from seeded random games, every ply, until ``count`` are collected."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        position = Position.start()
        for _ in range(150):
            moves = position.legal_moves()
            if not moves or len(fens) >= count:
                break
            fens.append(position.fen())
            position = position.apply(rng.choice(moves))
    return fens


def line(name: str, seconds: float, items: int, unit: str) -> None:
    print(f"  {name:<28} {seconds * 1000:9.1f} ms  {items / seconds:12,.0f} {unit}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    print(f"py-draughts {draughts.__version__}")
    print(f"perft({args.depth}) from the start position")
    start = Position.start()
    ours_s, ours_n = best_of(args.repeat, lambda: perft(start, args.depth))
    board = draughts.Board()
    board_s, board_n = best_of(args.repeat, lambda: board_perft(board, args.depth))
    turbo_s, turbo_n = best_of(args.repeat, lambda: perft_from_board(board, args.depth))
    expected = START_COUNTS.get(args.depth)
    for name, got in (("ours", ours_n), ("py-draughts board", board_n), ("turbo", turbo_n)):
        if expected is not None and got != expected:
            raise SystemExit(f"{name} perft({args.depth}) = {got}, expected {expected}")
    assert isinstance(ours_n, int)
    line("ours", ours_s, ours_n, "leaves")
    line("py-draughts Board", board_s, ours_n, "leaves")
    line("py-draughts turbo perft", turbo_s, ours_n, "leaves")
    print(f"  ratio ours/board {ours_s / board_s:.2f}   ratio ours/turbo {ours_s / turbo_s:.2f}")

    fens = sample_positions(args.positions)
    print(f"legal moves of {len(fens)} positions from seeded random games")

    boards = [draughts.Board.from_fen(f) for f in fens]

    def ours_timed() -> float:
        positions = [Position.from_fen(f) for f in fens]
        begin = time.perf_counter()
        for p in positions:
            p.legal_moves()
        return time.perf_counter() - begin

    ours_g = min(ours_timed() for _ in range(args.repeat))
    theirs_g, _ = best_of(args.repeat, lambda: [b.legal_moves for b in boards])
    line("ours Position.legal_moves", ours_g, len(fens), "positions")
    line("py-draughts Board.legal_moves", theirs_g, len(fens), "positions")
    print(f"  ratio ours/py-draughts {ours_g / theirs_g:.2f}")
    ours_total = sum(len(Position.from_fen(f).legal_moves()) for f in fens)
    if ours_total != sum(len(b.legal_moves) for b in boards):
        raise SystemExit("move counts differ between ours and py-draughts")


if __name__ == "__main__":
    main()
