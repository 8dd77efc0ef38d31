"""A player's games a page at a time (``GET /api/users/{name}/games``), on SQLite and
PostgreSQL: two-player games and chouette tables in one order, newest first, cut by
the last game shown, so the pages together list every game once however they are cut
and whatever is played meanwhile. The profile's record is counted by the database.

Games are written straight into the database (thousands would take hours to play), as
the club stores them: a two-player game's seats and ``result.winner_seat``, a table's
``game_seats`` and ``result.results`` by seat.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from club_client import Player, RunningClub

from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database
from sheshbesh.store.models import Game, GameSeat


@pytest.fixture
def club(club_settings: Settings) -> Iterator[RunningClub]:
    with RunningClub(club_settings) as running:
        yield running


def seed(settings: Settings, games: list[Game], seats: list[GameSeat]) -> None:
    async def write() -> None:
        db = Database(settings.database_url)
        try:
            async with db.transaction() as session:
                session.add_all(games)
                await session.flush()
                session.add_all(seats)
        finally:
            await db.close()

    asyncio.run(write())


def two_player(gid: str, at: float, me: int, other: int, rng: random.Random) -> Game:
    """A game of ``me`` against ``other``: live, aborted, or finished won, lost or drawn."""
    mine = rng.random() < 0.5
    status = rng.choice(["finished"] * 6 + ["live", "aborted"])
    result = None
    if status == "finished":
        result = {"reason": "BF-13", "winner_seat": rng.choice([0, 1, None])}
    elif status == "aborted":
        result = {"reason": "aborted", "absent": [1], "winner_seat": None}
    variant = rng.choice(["backgammon", "backgammon", "long_nardy", "plakoto"])
    return Game(id=gid, kind="race", variant=variant, stake=10, control="untimed",
                seat0_id=me if mine else other, seat1_id=other if mine else me,
                status=status, seq=3, created_at=at, result=result, rated=True)  # fmt: skip


def table(gid: str, at: float, people: list[int], results: list[int] | None) -> Game:
    status = "live" if results is None else "finished"
    result = (
        None
        if results is None
        else {"reason": "closed", "results": {str(seat): won for seat, won in enumerate(results)}}
    )
    return Game(id=gid, kind="chouette", variant="backgammon", stake=50, control="untimed",
                seat0_id=None, seat1_id=None, status=status, seq=9, created_at=at,
                result=result)  # fmt: skip


def seat(gid: str, number: int, user: int, left: bool = False) -> GameSeat:
    return GameSeat(game_id=gid, seat=number, user_id=user, joined_at=1.0,
                    left_at=2.0 if left else None)  # fmt: skip


def pages(base: str, name: str, limit: int, **only: str) -> list[dict[str, Any]]:
    """Every game of the player (``variant=…``: of one game), page after page of ``limit``."""
    shown: list[dict[str, Any]] = []
    before = None
    for _ in range(1000):
        params: dict[str, Any] = {"limit": limit, **only} | ({"before": before} if before else {})
        page = httpx.get(f"{base}/api/users/{name}/games", params=params, timeout=20).json()
        assert len(page["games"]) <= limit
        shown += page["games"]
        before = page["more"]
        if before is None:
            return shown
        assert before == page["games"][-1]["id"]
    raise AssertionError("the pages never ended")


def test_pages_list_every_game_and_table_once_newest_first(
    club: RunningClub, club_settings: Settings
) -> None:
    rng = random.Random(20)
    ann, bob, cat = (Player(club.base, n).register() for n in ("ann", "bob", "cat"))
    try:
        me, others = ann.user["id"], [bob.user["id"], cat.user["id"]]
        games, seats = [], []
        for n in range(57):
            at = 1000.0 + n // 3  # three games at each instant: ties broken by id
            games.append(two_player(f"g{n:03}", at, me, rng.choice(others), rng))
        games.append(table("t1", 1005.0, [me, *others], [4, -6, 2]))
        seats += [seat("t1", 0, me), seat("t1", 1, others[0]), seat("t1", 2, others[1])]
        # Ann left t2 and sat down again: her result there is both seats' together.
        games.append(table("t2", 1010.0, [me, *others], [-3, 2, 5, -4]))
        seats += [seat("t2", 0, me, left=True), seat("t2", 1, others[0]),
                  seat("t2", 2, others[1]), seat("t2", 3, me)]  # fmt: skip
        games.append(table("t3", 1015.0, [me, *others], None))
        seats += [seat("t3", 0, others[0]), seat("t3", 1, me)]
        games.append(table("t4", 1016.0, [*others], [1, -1]))  # not hers
        seats += [seat("t4", 0, others[0]), seat("t4", 1, others[1])]
        seed(club_settings, games, seats)

        ids = sorted(
            (g for g in games if g.id != "t4"), key=lambda g: (g.created_at, g.id), reverse=True
        )
        expected = [g.id for g in ids]
        for limit in (1, 3, 7, 20, 100):
            listed = pages(club.base, "ann", limit)
            assert [g["id"] for g in listed] == expected, limit
        # One game's only, and her tables only ("chouette", as the lobby names them).
        for variant in ("backgammon", "long_nardy", "plakoto", "draughts", "chouette"):
            kind = [g.id for g in ids if (g.variant if g.kind == "race" else g.kind) == variant]
            listed = pages(club.base, "ann", 7, variant=variant)
            assert [g["id"] for g in listed] == kind, variant
        by_id = {g["id"]: g for g in pages(club.base, "ann", 20)}
        assert by_id["t1"]["result"] == {"points": 4} and by_id["t1"]["players"] == 3
        assert by_id["t2"]["result"] == {"points": -3 - 4} and by_id["t2"]["players"] == 3
        assert by_id["t3"]["result"] is None and by_id["t3"]["status"] == "live"
        assert by_id["t1"]["kind"] == "chouette" and by_id["t1"]["opponent"] is None
        two = [g for g in games if g.kind == "race"]
        for game in two:
            entry = by_id[game.id]
            assert entry["seat"] == (0 if game.seat0_id == me else 1)
            assert entry["opponent"] in ("bob", "cat")

        # The profile: the first page, and the record counted by the database.
        profile = httpx.get(f"{club.base}/api/users/ann", timeout=20).json()
        assert [g["id"] for g in profile["recent"]] == expected[:20]
        assert profile["more"] == expected[19]
        finished = [g for g in two if g.status == "finished"]
        assert game_ids_won(finished, me) == profile["won"]
        assert profile["played"] == len(finished)
        drawn = sum(1 for g in finished if g.result and g.result["winner_seat"] is None)
        assert profile["drawn"] == drawn
        assert profile["lost"] == len(finished) - profile["won"] - drawn
        live = sum(1 for g in two if g.status == "live")
        assert profile["playing"] == live + 1  # and table t3, where she still sits

        # A game played while she pages does not shift the pages after it.
        first = httpx.get(f"{club.base}/api/users/ann/games", params={"limit": 10}).json()
        seed(club_settings, [two_player("new", 5000.0, me, others[0], rng)], [])
        second = httpx.get(
            f"{club.base}/api/users/ann/games", params={"limit": 10, "before": first["more"]}
        ).json()
        assert [g["id"] for g in first["games"] + second["games"]] == expected[:20]
    finally:
        for player in (ann, bob, cat):
            player.close()


def game_ids_won(games: list[Game], me: int) -> int:
    return sum(
        1 for g in games if g.result and g.result["winner_seat"] == (0 if g.seat0_id == me else 1)
    )


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({"limit": 0}, 422),
        ({"limit": 101}, 422),
        ({"limit": "many"}, 422),
        ({"before": "nosuchgame"}, 422),
        ({"variant": "chess"}, 422),
    ],
)
def test_bad_pages_are_refused_clearly(club: RunningClub, query: dict[str, Any],
                                       status: int) -> None:  # fmt: skip
    ann = Player(club.base, "ann").register()
    try:
        answer = httpx.get(f"{club.base}/api/users/ann/games", params=query, timeout=20)
        assert answer.status_code == status
        assert answer.json()["error"] == "invalid_request" and answer.json()["message"]
        missing = httpx.get(f"{club.base}/api/users/nobody/games", timeout=20)
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    finally:
        ann.close()
