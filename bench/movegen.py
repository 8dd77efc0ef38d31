"""Move-generation throughput: our race engine against gnubg in the same run.

All 21 rolls over a fixed set of positions from seeded random games; prints
(position, roll) pairs per second for both and their ratio, then long nardy's
throughput (absolute, and relative to our backgammon).

    .venv/bin/python bench/movegen.py [--games N] [--seed S]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

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
