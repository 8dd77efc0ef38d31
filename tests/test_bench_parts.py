"""A bench played in parts adds up to the bench played at once (issue 19).

A 1 000-game pairing against expectimax expert takes about 7 CPU-hours, more
than a session of this 2-core machine has beside its other work, so
``bench/bots.py`` plays seed ranges (``--seeds``), records every game
(``--record``) and adds the parts up (``--tally``). These tests run the real
script on cheap bots: parts played apart must give the same row as one run,
a seed recorded twice counts once, and a damaged record file is named, not
silently skipped.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "bots.py"
PAIRING = ["--table", "ladder", "--engines", "expectimax", "--levels", "medium"]
PAIRING += ["--variants", "jacquet", "--jobs", "1"]


def bench(*args: str | Path) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH), *PAIRING, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def rows(output: str) -> list[list[str]]:
    """The table's rows without their last three columns: the think times and the wall
    time differ run to run."""
    found = [line.split()[:-3] for line in output.splitlines() if line.startswith("ladder ")]
    assert found, output
    return found


def test_parts_recorded_apart_add_up_to_the_run_of_all_their_seeds(tmp_path: Path) -> None:
    first, second = tmp_path / "part1.jsonl", tmp_path / "part2.jsonl"
    bench("--seeds", "1-3", "--record", first)
    bench("--seeds", "4-6", "--record", second)
    whole = bench("--games", "6")
    assert rows(bench("--tally", first, second)) == rows(whole)
    lines = [json.loads(text) for text in first.read_text().splitlines()]
    assert sorted(line["seed"] for line in lines) == [1, 2, 3]
    assert {line["pairing"]["first"] for line in lines} == {"expectimax:medium"}


def test_a_part_resumes_after_the_seeds_its_record_holds(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    bench("--seeds", "1-2", "--record", record)
    output = bench("--seeds", "1-4", "--record", record)
    assert "2 games in" in output and "2 to play" in output
    seeds = [json.loads(text)["seed"] for text in record.read_text().splitlines()]
    assert sorted(seeds) == [1, 2, 3, 4]
    assert rows(bench("--tally", record)) == rows(bench("--games", "4"))


def test_a_seed_recorded_twice_counts_once(tmp_path: Path) -> None:
    first, copy = tmp_path / "games.jsonl", tmp_path / "copy.jsonl"
    bench("--seeds", "1-3", "--record", first)
    copy.write_text(first.read_text())
    assert rows(bench("--tally", first, copy)) == rows(bench("--games", "3"))


def test_a_damaged_record_is_named_with_its_line(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    bench("--seeds", "1-1", "--record", record)
    with record.open("a") as out:
        out.write('{"seed": 2, "result": 1}\n')
    done = subprocess.run(
        [sys.executable, str(BENCH), "--tally", str(record)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert f"{record}:2: not a game record" in done.stderr


def refused(*args: str) -> str:
    """The bench's error for a bad command line: exit 2, before any game is played."""
    done = subprocess.run(
        [sys.executable, str(BENCH), *PAIRING, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "ladder " not in done.stdout
    return done.stderr


@pytest.mark.parametrize("text", ["0-5", "5-2", "a-b", "1-"])
def test_a_bad_seed_range_is_refused_before_any_game(text: str) -> None:
    assert "--seeds" in refused("--seeds", text)


def _bench_module():  # type: ignore[no-untyped-def]
    """bench/bots.py loaded as a module, to call its pieces."""
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["bench_bots"]
    return module


def test_the_cpu_clock_gives_expectimax_its_budget_in_cpu_seconds() -> None:
    """Under ``--cpu-clock`` a sleeping thread's time does not count against the budget:
    the clock the bench hands the bots advances with work, not with the wall."""
    bench_bots = _bench_module()
    made = bench_bots.bot("expectimax:expert", 1, bench_bots.Settings(cpu_clock=True))
    before = made.clock()
    time.sleep(0.2)
    assert made.clock() - before < 0.1
    wall = bench_bots.bot("expectimax:expert", 1, bench_bots.Settings())
    before = wall.clock()
    time.sleep(0.2)
    assert wall.clock() - before >= 0.2


def test_a_slower_machines_budget_stretches_by_its_core_speed() -> None:
    """``--core-speed 2`` halves the clock the bots see: 1.6 s of budget becomes 3.2 CPU
    seconds there, the search a core twice as fast makes in 1.6."""
    bench_bots = _bench_module()
    made = bench_bots.bot(
        "expectimax:expert", 1, bench_bots.Settings(cpu_clock=True, core_speed=2.0)
    )
    plain = bench_bots.bot("expectimax:expert", 1, bench_bots.Settings(cpu_clock=True))
    first = (made.clock(), plain.clock())
    deadline = time.thread_time() + 0.3
    while time.thread_time() < deadline:  # work, so that CPU time passes
        pass
    slow, normal = made.clock() - first[0], plain.clock() - first[1]
    assert normal >= 0.3
    assert slow == pytest.approx(normal / 2, rel=0.05)


@pytest.mark.parametrize(
    "args",
    [
        ["--core-speed", "1.5"],
        ["--cpu-clock", "--core-speed", "0"],
        ["--core-speed", "auto"],
        ["--cpu-clock", "--core-speed", "x"],
    ],
)
def test_a_core_speed_without_the_cpu_clock_is_refused(args: list[str]) -> None:
    assert "--core-speed" in refused(*args)


def test_an_automatic_core_speed_is_measured_and_recorded_with_every_game(tmp_path: Path) -> None:
    """``--core-speed auto``: the bench times ``bench/cpu_speed.py``'s work on as many cores
    as it will play on, says the K it found, and every game it records carries it."""
    record = tmp_path / "parts.jsonl"
    out = bench("--seeds", "1-2", "--cpu-clock", "--core-speed", "auto", "--record", record)
    said = [line for line in out.splitlines() if line.startswith("# core speed:")]
    assert len(said) == 1, out
    factor = float(said[0].rsplit("K = ", 1)[1])
    assert factor > 0
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [game.get("core_speed", 1.0) for game in games] == [factor, factor]


def test_the_bench_gives_the_nets_one_blas_thread() -> None:
    """As the server's bot workers do: with numpy's default threads a 1-ply net on a busy
    2-core machine spent four times the CPU, which a CPU-time budget turns into a
    weaker bot. Set before numpy loads (a value the caller sets stays)."""
    script = (
        "import importlib.util, os, sys\n"
        f"spec = importlib.util.spec_from_file_location('bench_bots', {str(BENCH)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules['bench_bots'] = module\n"
        "spec.loader.exec_module(module)\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('OMP_NUM_THREADS'))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
        env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "1"]
