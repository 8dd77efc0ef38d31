"""Move-generation throughput: our engines against compiled ones in the same run.

Race games: all 21 rolls over a fixed set of positions from seeded random
games; prints (position, roll) pairs per second for us and gnubg and their
ratio, then long nardy's throughput (absolute, and relative to our backgammon).

Draughts (issue 19: could dame-rs back ``sheshbesh perft`` or ``legal_moves``?):
perft from the start and from a middle game, ours against ``dame.perft``; and
legal moves over positions from seeded random games, ours from a fresh
``Position`` against ``dame.Board(fen).legal_moves`` alone and with each move
turned into our ``Move`` (what backing ``legal_moves`` would cost: dame gives
start, end and captured squares, so the landing squares of a capture must
still come from our generator).

    .venv/bin/python bench/movegen.py [--games N] [--seed S] [--only race|draughts]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gnubg

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.ids import gnubg_board

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def sample(variant: str, games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        position = Position.start(variant, turn=rng.choice(list(Side)))
        while position.outcome() is None:
            positions.append(position)
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            while position.rules.doubles_chain and roll[0] == roll[1] and position.is_first_turn():
                roll = (rng.randint(1, 6), rng.randint(1, 6))
            if position.owed:
                roll = (position.owed, position.owed)
            plays = position.legal_plays(roll)
            position = rng.choice(plays).after if plays else position.pass_turn()
    return positions


def rate(work: Callable[[], int], repeat: int = 3) -> float:
    """Best of ``repeat`` runs, in (position, roll) pairs per second."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        pairs = work()
        best = max(best, pairs / (time.perf_counter() - start))
    return best


def draughts_sample(games: int, seed: int) -> list[str]:
    """FENs of every position of ``games`` uniformly random draughts games."""
    from sheshbesh.games.draughts import Game

    rng = random.Random(seed)
    fens = []
    for _ in range(games):
        game = Game.begin()
        while game.outcome() is None and len(game.moves) < 300:
            fens.append(game.position.fen())
            game = game.play(rng.choice(game.position.legal_moves()))
    return fens


def timed(work: Callable[[], object], repeat: int = 3) -> float:
    """Best of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def draughts(games: int, seed: int) -> None:
    import dame

    from sheshbesh.games.draughts import Position, perft

    print(f"draughts: dame-rs {dame.__version__}")
    for name, fen, depth in (
        ("start", "W:W31-50:B1-20", 6),
        ("middle", "W:W25,27,28,30,32-35,37,38:B12-14,16,18,19,21,23,24,26", 6),
    ):
        position, board = Position.from_fen(fen), dame.Board(fen)
        ours_count, theirs_count = perft(position, depth), dame.perft(board, depth)
        ours_s = timed(lambda p=position, d=depth: perft(p, d), repeat=1)
        theirs_s = timed(lambda b=board, d=depth: dame.perft(b, d))
        same = "same count" if ours_count == theirs_count else "COUNTS DIFFER"
        print(f"  perft({depth}) {name:6} {ours_count:>9} ({same})"
              f"  sheshbesh {ours_s * 1000:9.1f} ms  dame {theirs_s * 1000:7.2f} ms"
              f"  ratio {ours_s / theirs_s:7.1f}")  # fmt: skip

    fens = draughts_sample(games, seed)

    def ours() -> None:
        for fen in fens:
            Position.from_fen(fen).legal_moves()

    def theirs() -> None:
        for fen in fens:
            _ = dame.Board(fen).legal_moves

    def theirs_as_ours() -> None:
        for fen in fens:
            position = Position.from_fen(fen)
            ours_by_key = {(m.start, m.end, m.captured): m for m in position.legal_moves()}
            for m in dame.Board(fen).legal_moves:
                _ = ours_by_key[(m.from_square, m.to_square, tuple(sorted(m.captured)))]

    ours_s, theirs_s, mapped_s = timed(ours), timed(theirs), timed(theirs_as_ours)
    n = len(fens)
    print(f"  legal moves over {n} positions (parse the FEN, list the moves)")
    print(f"    sheshbesh            {n / ours_s:10.0f} positions/s")
    print(f"    dame                 {n / theirs_s:10.0f} positions/s"
          f"  ratio {ours_s / theirs_s:6.2f} (sheshbesh time / dame time)")  # fmt: skip
    print(f"    dame as our moves    {n / mapped_s:10.0f} positions/s"
          f"  ratio {ours_s / mapped_s:6.2f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", choices=["race", "draughts"], default=None)
    args = parser.parse_args()
    if args.only != "race":
        draughts(args.games, args.seed)
    if args.only == "draughts":
        return

    positions = sample("backgammon", args.games, args.seed)
    boards = [gnubg_board(p) for p in positions]
    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0.0)

    def ours() -> int:
        for position in positions:
            for roll in ROLLS:
                position.legal_plays(roll)
        return len(positions) * len(ROLLS)

    def theirs() -> int:
        for board in boards:
            for roll in ROLLS:
                gnubg.find_best_moves(board, cube, context, roll)
        return len(boards) * len(ROLLS)

    ours_rate, gnubg_rate = rate(ours), rate(theirs)
    print(f"backgammon: {len(positions)} positions x 21 rolls")
    print(f"  sheshbesh  {ours_rate:10.0f} pairs/s")
    print(f"  gnubg      {gnubg_rate:10.0f} pairs/s")
    print(f"  ratio      {ours_rate / gnubg_rate:10.3f} (sheshbesh / gnubg)")

    nardy = sample("long_nardy", args.games, args.seed)

    def long_nardy() -> int:
        for position in nardy:
            for roll in ROLLS:
                position.legal_plays(roll)
        return len(nardy) * len(ROLLS)

    nardy_rate = rate(long_nardy)
    print(f"long_nardy: {len(nardy)} positions x 21 rolls")
    print(f"  sheshbesh  {nardy_rate:10.0f} pairs/s")
    print(f"  ratio      {nardy_rate / ours_rate:10.3f} (long nardy / our backgammon)")


if __name__ == "__main__":
    main()
