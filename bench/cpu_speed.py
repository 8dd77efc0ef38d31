"""One core's speed at the rules' pure-Python work, to compare two machines' benches.

``bench/bots.py --cpu-clock`` gives a bot its time budget in CPU seconds, so a
search reaches as far as it would on an idle machine of the same kind. On a
machine whose cores are slower, the same budget buys less search, and a bench
played there is against a weaker opponent. This prints the CPU seconds of this
thread that 300 seeded random long-nardy games take (move generation and
applying moves, as in a search), the same work everywhere: the ratio between two
machines is the factor their budgets differ by.

    PYTHONPATH=src python bench/cpu_speed.py
"""

from __future__ import annotations

import time

from sheshbesh.bots.arena import play_bout
from sheshbesh.bots.registry import make_bot

GAMES = 300
REFERENCE = 6.82
"""This work's CPU seconds on the machine where expectimax expert's budget (1.6 s) was
set and the first 1 000-game rows were played (26 November 2026, its fastest reading)."""


def core_seconds(games: int = GAMES) -> float:
    """CPU seconds of this thread for ``games`` seeded random long nardy games."""
    start = time.thread_time()
    for seed in range(1, games + 1):
        movers = (make_bot("random:race", seed), make_bot("random:race", seed + 1000))
        play_bout(movers, "long_nardy", seed=seed)
    return time.thread_time() - start


def main() -> None:
    print(f"cpu_speed: {GAMES} random long nardy games in {core_seconds():.2f} CPU s")


if __name__ == "__main__":
    main()
