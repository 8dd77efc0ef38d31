"""Self-play training speed: games per second per variant, optionally against another
checkout's code in the same minutes.

Each run trains a fresh net (``Net.create(variant, seed)``) for ``--games`` games
from ``--seed`` without checkpoints, in its own process with one BLAS thread, and
reports wall and CPU seconds. With ``--against SRC`` (another checkout's ``src``,
e.g. one made by ``git archive COMMIT src | tar -x -C /tmp/before``) the two codes
run alternately, ``--rounds`` times each, so a noisy shared machine slows both
alike; the table gives each side's best CPU games/s, their ratio, and whether the
two trained nets are equal bit for bit (the speed work promises they are).

    python bench/train.py [--games 300] [--seed 5] [--variants long_nardy,…]
                          [--against /tmp/before/src] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

VARIANTS = ("long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet")
HERE = Path(__file__).resolve().parent.parent / "src"

RUN = """
import json, sys, time
from sheshbesh.bots.nets.net import Net
from sheshbesh.bots.nets.train import train
variant, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
net = Net.create(variant, seed)
wall, cpu = time.perf_counter(), time.process_time()
train(net, games, seed, checkpoint=0, checkpoint_games=0, log=lambda line: None)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
net.save(out)
print(json.dumps({"wall": wall, "cpu": cpu}))
"""


def run(src: Path, variant: str, games: int, seed: int, out: Path) -> dict[str, float]:
    """One training run in a fresh process on the code in ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", RUN, variant, str(games), str(seed), str(out)],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def same_weights(first: Path, second: Path) -> bool:
    import numpy as np

    with np.load(first) as a, np.load(second) as b:
        return all(np.array_equal(a[name], b[name]) for name in ("w1", "b1", "w2", "b2"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--against", type=Path, default=None, help="another checkout's src")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    codes = {"this": HERE} | ({"against": args.against} if args.against else {})
    print(f"{args.games} games, seed {args.seed}; games/s from the best CPU time of each")
    header = "variant".ljust(20) + "".join(f"{name:>10}" for name in codes)
    print(header + ("     ratio  same weights" if args.against else ""))
    with tempfile.TemporaryDirectory() as scratch:
        for variant in args.variants.split(","):
            best = dict.fromkeys(codes, float("inf"))
            for _ in range(args.rounds if args.against else 1):
                for name, src in codes.items():
                    timing = run(src, variant, args.games, args.seed, Path(scratch, name + ".npz"))
                    best[name] = min(best[name], timing["cpu"])
            rates = {name: args.games / seconds for name, seconds in best.items()}
            line = variant.ljust(20) + "".join(f"{rate:10.1f}" for rate in rates.values())
            if args.against:
                equal = same_weights(Path(scratch, "this.npz"), Path(scratch, "against.npz"))
                line += f"{rates['this'] / rates['against']:10.2f}  {'yes' if equal else 'NO'}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
