"""Two weights files of one variant's net, head to head: did a training stage help?

Both sides are the net bot at the same level (0-ply "hard" by default), each with
its own weights; colours alternate game by game, on arena seeds from 500 000 on
(never training, checkpoint or ``bench/bots.py`` seeds). Older weights load
widened (:meth:`Net.load` with ``widen``), so a net from before inputs were added
plays as it did. Prints the new weights' share of games (a draw counts half) and
points a game, with 95 % intervals, and the CPU seconds it took.

    python bench/net_h2h.py VARIANT OLD.npz NEW.npz [--games 2000] [--level hard]
"""

from __future__ import annotations

import argparse
import math
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from sheshbesh.bots.nets.bot import NetBot
from sheshbesh.bots.nets.net import Net
from sheshbesh.bots.nets.train import duel

FIRST_SEED = 500_000


def head_to_head(variant: str, old: Net, new: Net, games: int, level: str) -> str:
    began = time.process_time()
    results = duel(
        variant,
        lambda seed: NetBot(level, seed=seed, nets={variant: new}),
        lambda seed: NetBot(level, seed=seed, nets={variant: old}),
        games,
        FIRST_SEED,
    )
    share = sum(score for score, _ in results) / games
    mean = sum(points for _, points in results) / games
    spread = math.sqrt(max(sum(p * p for _, p in results) / games - mean * mean, 0.0))
    return (
        f"{variant} {level}: new ({new.games} games) against old ({old.games}): "
        f"{share:.1%} ±{1.96 * math.sqrt(share * (1 - share) / games):.1%}, "
        f"{mean:+.3f} ±{1.96 * spread / math.sqrt(games):.3f} points a game, "
        f"{games} games, {time.process_time() - began:.0f} CPU s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--level", default="hard", choices=("hard", "expert"))
    args = parser.parse_args()
    old, new = Net.load(args.old, widen=True), Net.load(args.new, widen=True)
    for net in (old, new):
        if net.variant != args.variant:
            raise SystemExit(f"a {net.variant} net is not a {args.variant} net")
    print(head_to_head(args.variant, old, new, args.games, args.level))


if __name__ == "__main__":
    main()
