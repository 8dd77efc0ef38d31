"""Benchmark: how strong and how fast every bot is, with 95% confidence intervals.

Five tables, each game played at the play layer by ``sheshbesh.bots.arena``
(the same ``apply`` as the server), colours alternating game by game:

1. each bot level against the random mover of its game (goal: ≥ 95% wins);
2. each level against the level below it (the higher level must win);
3. gnubg's levels against the pubeval-style baseline (backgammon only);
4. ``top``: the draughts top level (dame-rs, refereed by our rules) against our
   alpha-beta at ``expert``. Both engines are deterministic enough that games
   from the start position would repeat, so each pair of games (seeds 2k-1,
   2k) starts after ``--opening-plies`` uniformly random moves drawn from k,
   once with each colour.
5. ``nets``: the trained nets' levels against expectimax at ``--nets-against``
   (default ``expert``, its strongest; issue 19). Arena seeds 1, 2, … never were
   training games: self-play rolls its own dice, and checkpoints use seeds from 7 000 000.

For each pairing it prints games, wins/draws/losses of the first bot, its win
rate with a Wilson 95% interval, its points per game with a normal 95%
interval, and its think time per decision (median and p95, in ms). Games run in
``--jobs`` worker processes; think times are per process, so keep ``--jobs`` at
or below the cores you have when the times matter.

A long pairing (1 000 games against expectimax expert take about 7 CPU-hours)
can be played in parts, on different days, and added up:

- ``--seeds 1-250`` plays those games only (a part; the next part takes 251-500);
- ``--record FILE`` appends one JSON line per game (pairing, seed, result, think
  times) and skips the seeds the file already holds, so a part that was stopped
  resumes where it stopped; ``--tally FILE`` prints the table's rows from every line of such
  files, one row per pairing, each seed counted once;
- ``--cpu-clock`` gives expectimax's and the nets' time budgets in CPU seconds of their own thread
  rather than wall-clock seconds. A bot then searches as far as it would on an idle
  machine however busy this one is, so a part can run at the lowest priority beside
  other work. (Think times in the table stay wall-clock.)
- ``--core-speed K`` (with ``--cpu-clock``) stretches those budgets by K, for a
  machine whose cores are K times slower than the reference (``bench/cpu_speed.py``
  there over its reading on the reference machine, ``cpu_speed.REFERENCE``): expert
  then searches as far as it did there, and the games add up with the reference's.
  ``--core-speed auto`` measures K first, ``--jobs`` copies of that work at once (the
  cores as loaded as the bench will load them), and records it with every game. A
  host's speed drifts from day to day (this one read 6.7 to 17 CPU s in three days):
  parts of one row played without it are against experts of different strength.

    python bench/bots.py [--games 1000] [--table random,ladder,pubeval]
                         [--variants backgammon,plakoto,…] [--engines gnubg,…] [--jobs 2]
                         [--opening-plies 4] [--budget 0.1]
                         [--seeds 1-250] [--record FILE] [--cpu-clock [--core-speed K]]
                         [--tally FILE…]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

# One BLAS thread, as the server's bot workers have (server/bots/workers.py): the nets'
# matrices are small, and on a busy 2-core machine a second thread only waits for a
# core. Measured here with both cores busy: 1-ply long nardy spent 2.2 ms in each
# forward pass with numpy's default threads and 0.065 ms with one, 4 times the CPU in all.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

from sheshbesh.bots.arena import play_bout
from sheshbesh.bots.base import Bot, CannotPlay
from sheshbesh.bots.expectimax import ExpectimaxBot
from sheshbesh.bots.nets.bot import NetBot
from sheshbesh.bots.registry import make_bot
from sheshbesh.play.draughts import DraughtsGame, MoveAction


def engine_levels() -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for engine, module in (
        ("gnubg", "sheshbesh.bots.gnubg_bot"),
        ("expectimax", "sheshbesh.bots.expectimax"),
        ("alphabeta", "sheshbesh.bots.draughts_search"),
        ("dame", "sheshbesh.bots.draughts_engine"),
        ("net", "sheshbesh.bots.nets.bot"),
    ):
        try:
            levels = __import__(module, fromlist=["LEVELS"]).LEVELS
        except (ImportError, AttributeError) as error:
            print(f"# {engine}: not available ({error})", file=sys.stderr)
            continue
        found[engine] = tuple(levels)
    return found


@dataclass(frozen=True)
class Pairing:
    table: str
    variant: str
    first: str
    second: str
    opening_plies: int = 0


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: list[int] | None = None
    think: list[float] | None = None
    seeds: list[int] = field(default_factory=list)

    def count(self, game: Game) -> None:
        assert self.points is not None and self.think is not None
        self.think += game.think
        self.points.append(game.result)
        self.seeds.append(game.seed)
        if game.drawn:
            self.draws += 1
        elif game.result > 0:
            self.wins += 1
        else:
            self.losses += 1

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.points = (self.points or []) + (other.points or [])
        self.think = (self.think or []) + (other.think or [])
        self.seeds += other.seeds


@dataclass(frozen=True)
class Game:
    """One game's outcome for the pairing's first bot: points won (negative: lost)."""

    seed: int
    result: int
    drawn: bool
    think: list[float]


def append_record(path: Path, pairing: Pairing, game: Game, settings: Settings) -> None:
    """One JSON line per game, written whole at once so parallel jobs never interleave."""
    line = {
        "pairing": asdict(pairing),
        "seed": game.seed,
        "result": game.result,
        "drawn": game.drawn,
        "think": [round(t, 4) for t in game.think],
        "budget": settings.budget,
        "cpu_clock": settings.cpu_clock,
        **({"core_speed": settings.core_speed} if settings.core_speed != 1.0 else {}),
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line, separators=(",", ":")) + "\n")


def tally_records(paths: list[Path]) -> dict[Pairing, Tally]:
    """Every pairing's games in the record files, a seed counted once (its first line):
    parts of a bench played on different days add up to one row."""
    tallies: dict[Pairing, Tally] = {}
    seen: set[tuple[Pairing, int]] = set()
    for path in paths:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
                pairing = Pairing(**line["pairing"])
                game = Game(line["seed"], line["result"], line["drawn"], line["think"])
            except (ValueError, TypeError, KeyError) as error:
                raise SystemExit(f"{path}:{number}: not a game record ({error})") from None
            if (pairing, game.seed) in seen:
                continue
            seen.add((pairing, game.seed))
            tallies.setdefault(pairing, Tally(points=[], think=[])).count(game)
    return tallies


def recorded_seeds(path: Path, pairing: Pairing) -> set[int]:
    """The seeds of ``pairing`` that ``path`` holds: a part stopped half-way resumes."""
    tally = tally_records([path]).get(pairing)
    return set() if tally is None else set(tally.seeds)


def random_spec(variant: str) -> str:
    return "random:draughts" if variant == "draughts" else "random:race"


@dataclass(frozen=True)
class Settings:
    """How every game of a run is played and where its results go."""

    budget: float | None = None
    cpu_clock: bool = False
    record: Path | None = None
    core_speed: float = 1.0
    """With ``cpu_clock``: budgets are CPU seconds of a core this many times faster."""


def bot(spec: str, seed: int, settings: Settings) -> Bot:
    made = make_bot(spec, seed=seed)
    if settings.cpu_clock and isinstance(made, ExpectimaxBot | NetBot):
        # this thread's CPU seconds: a busy machine steals none
        made.clock = time.thread_time if settings.core_speed == 1.0 else slowed(settings.core_speed)
    return made


def slowed(factor: float) -> Callable[[], float]:
    """This thread's CPU clock, ticking ``factor`` times slower: on cores ``factor`` times
    slower than the reference, a budget then buys the reference's search."""
    return lambda: time.thread_time() / factor


def play_games(pairing: Pairing, seeds: list[int], settings: Settings) -> Tally:
    """Play ``seeds`` games of the pairing (one process); the first bot alternates colours."""
    tally = Tally(points=[], think=[])
    budget = settings.budget
    for seed in seeds:
        first = bot(pairing.first, seed, settings)
        second = bot(pairing.second, seed + 1, settings)
        flip = seed % 2 == 1
        bots = (second, first) if flip else (first, second)
        start = opening(pairing, seed)
        bout = play_bout(bots, pairing.variant, seed=seed, budget=budget, start=start)
        mine = 1 if flip else 0
        drawn = bout.winner is None
        sign = 0 if drawn else 1 if bout.winner == mine else -1
        game = Game(seed, sign * bout.points, drawn, bout.think[mine])
        tally.count(game)
        if settings.record is not None:
            append_record(settings.record, pairing, game, settings)
        print(f"# {pairing.first} seed {seed}: {tally.wins}/{tally.draws}/{tally.losses} so far, "
              f"{bout.actions} actions", file=sys.stderr, flush=True)  # fmt: skip
    return tally


def opening(pairing: Pairing, seed: int) -> DraughtsGame | None:
    """The draughts game after the pairing's random opening plies, the same for seeds
    2k-1 and 2k (one game with each colour); ``None`` for the usual start."""
    if not pairing.opening_plies or pairing.variant != "draughts":
        return None
    rng = random.Random(f"opening:{(seed + 1) // 2}")
    game, _ = DraughtsGame.create()
    for _ in range(pairing.opening_plies):
        side = game.to_act
        if side is None:
            break
        moves = game.board.legal_moves()
        game = game.apply(MoveAction(side, str(rng.choice(moves)))).game
    return game


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list[int], z: float = 1.96) -> tuple[float, float]:
    if len(values) < 2:
        return (float(values[0]) if values else 0.0), 0.0
    return statistics.fmean(values), z * statistics.stdev(values) / math.sqrt(len(values))


def pairings(
    tables: list[str],
    variants: list[str] | None,
    engines: list[str] | None,
    opening_plies: int = 4,
    nets_against: str = "expert",
) -> Iterator[Pairing]:
    levels = engine_levels()
    if "top" in tables and "dame" in levels and "alphabeta" in levels:
        for level in levels["dame"]:
            yield Pairing("top", "draughts", f"dame:{level}", "alphabeta:expert", opening_plies)
    for engine, names in levels.items():
        if engines and engine not in engines:
            continue
        try:
            plays = sorted(make_bot(f"{engine}:{names[0]}").variants)
        except CannotPlay as error:  # an optional engine not installed here
            print(f"# skipped {engine}: {error}", file=sys.stderr)
            continue
        for variant in plays:
            if variants and variant not in variants:
                continue
            if engine == "dame":
                continue  # its own table, "top"
            if "random" in tables:
                for level in names:
                    yield Pairing("random", variant, f"{engine}:{level}", random_spec(variant))
            if "ladder" in tables:
                for lower, higher in itertools.pairwise(names):
                    yield Pairing("ladder", variant, f"{engine}:{higher}", f"{engine}:{lower}")
            if "nets" in tables and engine == "net":
                for level in names:
                    yield Pairing("nets", variant, f"net:{level}", f"expectimax:{nets_against}")
            if "pubeval" in tables and engine == "gnubg" and variant == "backgammon":
                for level in names:
                    yield Pairing("pubeval", variant, f"{engine}:{level}", "pubeval:")


def run(pairing: Pairing, seeds: list[int], jobs: int, settings: Settings) -> Tally:
    if jobs <= 1:
        return play_games(pairing, seeds, settings)
    chunks = [seeds[i::jobs] for i in range(jobs)]
    total = Tally(points=[], think=[])
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(play_games, [pairing] * jobs, chunks, [settings] * jobs):
            total.add(part)
    return total


def seed_range(text: str) -> list[int]:
    """``"251-500"`` → seeds 251 to 500; arena seeds start at 1 (none was a training game)."""
    low, dash, high = text.partition("-")
    try:
        first, last = int(low), int(high if dash else low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range like 251-500") from None
    if not 1 <= first <= last:
        raise argparse.ArgumentTypeError(f"{text!r}: seeds run from 1 up, the first ≤ the last")
    return list(range(first, last + 1))


def report(pairing: Pairing, tally: Tally, seconds: float) -> str:
    n = tally.wins + tally.draws + tally.losses
    low, high = wilson(tally.wins + tally.draws / 2, n)
    ppg, ppg_half = mean_interval(tally.points or [])
    think = sorted(tally.think or [0.0])
    median = statistics.median(think) * 1000
    p95 = think[min(len(think) - 1, int(0.95 * len(think)))] * 1000
    rate = (tally.wins + tally.draws / 2) / max(1, n)
    wall = "       –" if math.isnan(seconds) else f"{seconds:7.1f}s"  # parts: not known
    decided = tally.wins + tally.losses
    d_low, d_high = wilson(tally.wins, decided)
    note = (
        f"\n#   decided games: {tally.wins}/{decided} = {tally.wins / max(1, decided):.1%} "
        f"[{d_low:.1%}, {d_high:.1%}]"
        if pairing.table == "top"
        else ""
    )
    return (
        f"{pairing.table:8} {pairing.variant:19} {pairing.first:24} {pairing.second:22} "
        f"{n:5} {tally.wins:5}/{tally.draws:<4}/{tally.losses:<5} "
        f"{rate:6.1%} [{low:6.1%},{high:6.1%}]  {ppg:+6.3f} ±{ppg_half:5.3f}  "
        f"{median:8.1f} {p95:8.1f}  {wall}{note}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--table", default="random,ladder,pubeval")
    parser.add_argument("--variants", default="")
    parser.add_argument("--engines", default="")
    parser.add_argument("--levels", default="", help="only these levels (e.g. easy,beginner)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--opening-plies", type=int, default=4,
                        help="table top: random moves before the bots play")  # fmt: skip
    parser.add_argument("--nets-against", default="expert",
                        help="table nets: the expectimax level the nets play")  # fmt: skip
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per decision (default: each level's own)")  # fmt: skip
    parser.add_argument("--seeds", type=seed_range, default=None,
                        help="only these seeds, e.g. 251-500 (default: 1 to --games)")  # fmt: skip
    parser.add_argument("--record", type=Path, default=None,
                        help="append one JSON line per game to this file")  # fmt: skip
    parser.add_argument("--cpu-clock", action="store_true",
                        help="budgets in the bot thread's CPU seconds, not wall-clock")  # fmt: skip
    parser.add_argument("--core-speed", type=core_speed, default=1.0,
                        help="with --cpu-clock: this machine's cores are this many times "
                             "slower than the reference, or 'auto' to measure it; budgets "
                             "stretch to match")  # fmt: skip
    parser.add_argument("--tally", type=Path, nargs="+", default=None,
                        help="print the rows of these record files and play nothing")  # fmt: skip
    args = parser.parse_args()
    if args.core_speed != 1.0 and not (args.cpu_clock and args.core_speed > 0):
        parser.error("--core-speed needs --cpu-clock and a positive factor")
    if args.core_speed == AUTO:
        args.core_speed = measured_core_speed(args.jobs)
    if args.tally:
        print_tallies(args.tally)
        return
    tables = args.table.split(",")
    variants = args.variants.split(",") if args.variants else None
    engines = args.engines.split(",") if args.engines else None
    print(f"# bench/bots.py: {args.games} games per pairing, {args.jobs} jobs, "
          f"{os.cpu_count()} cores")  # fmt: skip
    print(f"{'table':8} {'variant':19} {'bot':24} {'against':22} {'games':>5} "
          f"{'W/D/L':>16} {'score':>6} {'95% CI':>16}  {'points/game':>14}  "
          f"{'med ms':>8} {'p95 ms':>8}  {'wall':>8}")  # fmt: skip
    levels = set(args.levels.split(",")) if args.levels else None
    for pairing in pairings(tables, variants, engines, args.opening_plies, args.nets_against):
        if levels and pairing.first.partition(":")[2] not in levels:
            continue
        began = time.perf_counter()
        seeds = args.seeds or list(range(1, args.games + 1))
        settings = Settings(args.budget, args.cpu_clock, args.record, args.core_speed)
        if args.record is not None and args.record.exists():
            done = recorded_seeds(args.record, pairing)
            if done:
                seeds = [seed for seed in seeds if seed not in done]
                print(f"# {pairing.first} vs {pairing.second}: {len(done)} games in "
                      f"{args.record} already, {len(seeds)} to play", flush=True)  # fmt: skip
        tally = run(pairing, seeds, args.jobs, settings)
        print(report(pairing, tally, time.perf_counter() - began), flush=True)


AUTO = math.inf
"""``--core-speed auto``, until it is measured."""


def core_speed(text: str) -> float:
    """``--core-speed``: a positive factor, or ``auto``."""
    if text == "auto":
        return AUTO
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a factor or 'auto'") from None


def measured_core_speed(jobs: int) -> float:
    """This machine's K against the reference: ``jobs`` copies of ``bench/cpu_speed.py``'s
    work at once, their median over ``cpu_speed.REFERENCE``, rounded to 3 places."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import cpu_speed

    with ProcessPoolExecutor(jobs) as pool:
        readings = sorted(pool.map(cpu_speed.core_seconds, [cpu_speed.GAMES] * jobs))
    factor = round(statistics.median(readings) / cpu_speed.REFERENCE, 3)
    print(f"# core speed: {jobs} copies of bench/cpu_speed.py took "
          f"{', '.join(f'{r:.2f}' for r in readings)} CPU s; K = {factor}", flush=True)  # fmt: skip
    return factor


def print_tallies(paths: list[Path]) -> None:
    """The rows of parts played apart (``--record``), added up; wall time is not known."""
    print(f"# bench/bots.py --tally: {', '.join(str(path) for path in paths)}")
    for pairing, tally in tally_records(paths).items():
        print(report(pairing, tally, float("nan")))


if __name__ == "__main__":
    main()
