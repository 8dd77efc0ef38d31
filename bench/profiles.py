"""Benchmark: a profile page's cost against the number of games its player has played.

A bot of a club that runs for a year plays tens of thousands of games, and its
profile is one click from the lobby. ``sheshbesh serve`` runs on a fresh SQLite file
(bench/load.py's server); three players register, and ``--games`` finished games
are written into the database for one of them (``many``) and 20 for another
(``few``), each against the third. Then their two profiles (``GET /api/users/{name}``) are asked
alternately, ``--rounds`` times each, and the medians printed with their ratio.
The ratio is the figure: the machine's speed cancels out of it, and a profile
whose cost does not grow with the games reads about 1.

    python bench/profiles.py [--games 20000] [--rounds 40]

Run it with ``PYTHONPATH=OTHER_CHECKOUT/src`` to measure another version's server.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import httpx

import load
from sheshbesh.store.db import Database
from sheshbesh.store.models import Game

FEW = 20


def register(http: httpx.Client, name: str) -> int:
    http.cookies.clear()
    token = http.get("/api/csrf").json()["token"]
    answer = http.post("/api/register", json={"username": name, "password": "benchmark pass"},
                       headers={"X-CSRF-Token": token})  # fmt: skip
    answer.raise_for_status()
    return int(http.get("/api/me").json()["id"])


async def seed(database: str, player: int, other: int, games: int, tag: str) -> None:
    """``games`` finished long nardy games of ``player`` against ``other``, half won."""
    db = Database(database)
    try:
        for start in range(0, games, 5000):
            async with db.transaction() as session:
                session.add_all(
                    finished(f"{tag}{n:09}", player, other, n)
                    for n in range(start, min(games, start + 5000))
                )
    finally:
        await db.close()


def finished(game_id: str, player: int, other: int, n: int) -> Game:
    return Game(id=game_id, kind="race", variant="long_nardy", stake=10, control="untimed",
                seat0_id=player, seat1_id=other, status="finished", seq=40,
                created_at=1000.0 + n, result={"reason": "LN-9", "winner_seat": n % 2},
                rated=False)  # fmt: skip


def timed(http: httpx.Client, path: str) -> float:
    began = time.perf_counter()
    answer = http.get(path)
    answer.raise_for_status()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"few": [], "many": []}
    with (
        load.Server("profiles", deflate=False) as server,
        httpx.Client(base_url=server.base, timeout=120, trust_env=False) as http,
    ):
        many, few, rival = (register(http, name) for name in ("many", "few", "rival"))
        asyncio.run(seed(server.database, many, rival, args.games, "m"))
        asyncio.run(seed(server.database, few, rival, FEW, "f"))
        for _ in range(args.rounds):
            for name in times:
                times[name].append(timed(http, f"/api/users/{name}"))
    few_ms = statistics.median(times["few"]) * 1000
    many_ms = statistics.median(times["many"]) * 1000
    print(f"# bench/profiles.py: {args.games} games against {FEW}, {args.rounds} rounds")
    print(f"profile with {FEW:>6} games: median {few_ms:8.1f} ms")
    print(f"profile with {args.games:>6} games: median {many_ms:8.1f} ms")
    print(f"ratio: {many_ms / few_ms:.2f}")


if __name__ == "__main__":
    main()
