"""A player's games on his profile, in a real browser: the first 20, then "More games"
fetches the next page until there are none, and a chouette table he sat at is listed
with its players and his result in points.

The games are written into the club's SQLite file (45 would take an hour to play),
from a thread: Playwright's sync API holds this thread's event loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_client import UNTHROTTLED, Player, RunningClub

from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database
from sheshbesh.store.models import Game, GameSeat

SHOTS = Path(__file__).parent / "screenshots"
GAMES = 45


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    database = str(tmp_path_factory.mktemp("club") / "club.db")
    settings = Settings(database_url=database, password_profile="fast", **UNTHROTTLED)
    with RunningClub(settings) as running:
        yield running.base, database


def seed(database: str, rows: list[Any]) -> None:
    async def write() -> None:
        db = Database(database)
        try:
            async with db.transaction() as session:
                session.add_all([row for row in rows if isinstance(row, Game)])
                await session.flush()
                session.add_all([row for row in rows if not isinstance(row, Game)])
        finally:
            await db.close()

    thread = threading.Thread(target=asyncio.run, args=(write(),))
    thread.start()
    thread.join()


def long_nardy(game_id: str, me: int, other: int, n: int) -> Game:
    return Game(id=game_id, kind="race", variant="long_nardy", stake=10, control="untimed",
                seat0_id=me, seat1_id=other, status="finished", seq=5, created_at=1000.0 + n,
                result={"reason": "LN-9", "winner_seat": n % 2}, rated=False)  # fmt: skip


def test_more_games_pages_through_every_game_and_names_a_chouette_table(
    browser: Any, club: tuple[str, str]
) -> None:
    base, database = club
    ann, bob = Player(base, "ann").register(), Player(base, "bob").register()
    me, other = ann.user["id"], bob.user["id"]
    rows: list[Any] = [long_nardy(f"g{n:03}", me, other, n) for n in range(GAMES)]
    results = {"0": -4, "1": 6, "2": -2}
    rows.append(
        Game(
            id="table1",
            kind="chouette",
            variant="backgammon",
            stake=50,
            control="untimed",
            seat0_id=None,
            seat1_id=None,
            status="finished",
            seq=20,
            created_at=1044.5,
            result={"reason": "closed", "results": results},
        )
    )
    # Bob left seat 2 and sat down again in seat 1: two people sat at the table.
    rows += [
        GameSeat(game_id="table1", seat=0, user_id=me, joined_at=1.0),
        GameSeat(game_id="table1", seat=1, user_id=other, joined_at=3.0),
        GameSeat(game_id="table1", seat=2, user_id=other, joined_at=1.0, left_at=2.0),
    ]
    seed(database, rows)

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{base}/#/profile/ann")
        table = page.locator("[data-testid=recent] tbody tr")
        table.first.wait_for()
        assert table.count() == 20
        chouette = page.locator("[data-testid=recent] tr[data-kind=chouette]")
        assert chouette.count() == 1
        text = chouette.inner_text()
        assert "Chouette" in text and "2 players" in text and "-4 pts" in text.replace("−", "-")
        more = page.locator("[data-testid=more-games]")
        more.click()
        table.nth(39).wait_for()
        assert table.count() == 40
        more.click()
        table.nth(GAMES).wait_for()
        more.wait_for(state="hidden")
        assert table.count() == GAMES + 1
        shown = page.locator("[data-testid=recent] tbody tr").evaluate_all(
            "rows => rows.map(row => row.dataset.game)"
        )
        assert len(set(shown)) == GAMES + 1  # every game once
        assert shown[0] == "table1" and shown[1] == f"g{GAMES - 1:03}" and shown[-1] == "g000"
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "profile-more-games.png"), full_page=True)

        # One game's only: his tables, then a game he never played, then all again.
        games_filter = page.locator("[data-testid=games-filter]")
        games_filter.locator("option[value=chouette]").wait_for(state="attached")
        games_filter.select_option("chouette")
        page.locator("[data-testid=recent] tbody tr[data-kind=race]").first.wait_for(
            state="detached"
        )
        assert table.count() == 1 and more.is_hidden()
        games_filter.select_option("plakoto")
        page.get_by_text("No games of this kind yet.").wait_for()
        assert page.locator("[data-testid=recent]").is_hidden()
        games_filter.select_option("long_nardy")
        table.nth(19).wait_for()
        assert table.count() == 20 and more.is_visible()
        assert page.locator("[data-testid=recent] tr[data-kind=chouette]").count() == 0
        page.screenshot(path=str(SHOTS / "profile-games-filter.png"))
        assert errors == []
    finally:
        context.close()
        ann.close()
        bob.close()
