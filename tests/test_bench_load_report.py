"""The load bench says where in its window the slow samples were sent (issue 20).

A p99 set by a few stalled seconds (a collection, a periodic sweep) is a different
problem from one set by cores short the whole window; the report's timeline tells
them apart, and its wall-clock opening lines it up with the servers' own logs.
"""

from __future__ import annotations

import calendar
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_slow_samples_are_counted_second_by_second_from_the_windows_opening() -> None:
    load = load_bench()
    run = load.Run(2, opened=calendar.timegm((2026, 11, 28, 15, 4, 51, 0, 0, 0)))
    fast = [10.0] * 90
    run.results = [
        {"latency": fast + [150.0] * 6, "slow": [(0, 2), (3, 4)]},
        {"latency": [120.0] * 4, "slow": [(3, 3), (1, 1)]},
    ]
    report = load.slow_seconds(run)
    assert "over 100 ms: 10 of 100 samples (10.0%), sent in 3 of the window's seconds" in report
    assert "the worst five (3 s: 7, 0 s: 2, 1 s: 1) hold 100% of them" in report
    assert report.endswith("by second from 15:04:51 UTC: 2 1 0 7")


def test_a_window_without_slow_samples_says_so() -> None:
    load = load_bench()
    run = load.Run(1, opened=time.time())
    run.results = [{"latency": [5.0, 6.0], "slow": []}]
    assert load.slow_seconds(run) == "over 100 ms: none of 2 samples"
