"""How often expectimax ``expert`` needs more than its budget, on this machine's cores.

Expert searches 1-ply on 16 plays and 2-ply on the best 3 within 1.6 s (CPU
seconds with ``bench/bots.py --cpu-clock``); a decision that runs out keeps the
plays it finished. This plays net:hard against expert with the budget lifted,
records the CPU seconds each of expert's decisions took, and prints the share
that would have run out at a few budgets. A machine whose cores are k times
slower (``bench/cpu_speed.py``) runs out where this one would at 1.6 / k.

    PYTHONPATH=src python bench/expert_budget.py --variant long_nardy --seeds 5001-5008
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

from sheshbesh.bots.arena import play_bout
from sheshbesh.bots.expectimax import ExpectimaxBot
from sheshbesh.bots.registry import make_bot

BUDGETS = (0.5, 0.98, 1.6, 2.6)


def expert_seconds(variant: str, seeds: range) -> list[float]:
    """CPU seconds of each of expert's decisions, its budget lifted, colours alternating."""
    seconds: list[float] = []
    for seed in seeds:
        expert = ExpectimaxBot("expert", seed=seed, clock=time.thread_time)
        expert.level = dataclasses.replace(expert.level, budget=1000.0)
        choose = expert.choose_play

        def timed(*args: Any, _choose: Any = choose, _bot: ExpectimaxBot = expert) -> Any:
            play = _choose(*args)
            seconds.append(_bot.report.seconds)
            return play

        expert.choose_play = timed  # type: ignore[method-assign]
        net = make_bot("net:hard", seed)
        play_bout((net, expert) if seed % 2 else (expert, net), variant, seed=seed)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="long_nardy")
    parser.add_argument("--seeds", default="5001-5008", help="first-last (not bench seeds)")
    args = parser.parse_args()
    first, last = (int(part) for part in args.seeds.split("-"))
    seconds = expert_seconds(args.variant, range(first, last + 1))
    print(f"expert_budget: {args.variant}, {len(seconds)} decisions of expert")
    for budget in BUDGETS:
        over = sum(s > budget for s in seconds)
        print(f"  over {budget:4.2f} CPU s: {over:4d} = {over / len(seconds):6.1%}")


if __name__ == "__main__":
    main()
