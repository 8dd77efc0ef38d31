"""A game its other player never opens, in a real browser (issue 16, item 4).

Ann posts a request and is gone (no page open); Bob accepts it in his page and
waits. After the grace the room says the game was aborted and the stakes went
back, and his wallet shows the FUN home again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from club_client import OPEN_DOORS, UNTHROTTLED, Player, RunningClub
from test_club import Visitor

from sheshbesh.server.settings import Settings

GRACE = 1.5
ARRIVAL = 5.0
"""Bob's browser opens the game within this; Ann never does."""


@pytest.fixture(scope="module")
def live_club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A club whose abandonment grace is short (the server's timer aborts the game)."""
    database: Path = tmp_path_factory.mktemp("club") / "club.db"
    settings = Settings(database_url=str(database), password_profile="fast",
                        abandon_grace=GRACE, arrival_grace=ARRIVAL,
                        **OPEN_DOORS, **UNTHROTTLED)  # fmt: skip
    with RunningClub(settings) as club:
        yield club.base


def test_the_room_says_the_game_was_aborted_and_the_stakes_returned(browser, live_club):
    ann = Player(live_club, "annaway").register()
    bob = Visitor(browser, live_club).register("bobwaits")
    try:
        ann.offer(variant="backgammon", stake=100, cube=True)
        bob.go("#/")
        bob.accept_from("annaway")
        bob.page.wait_for_selector("[data-testid=room][data-aborted=true]", timeout=20_000)
        status = bob.page.locator("[data-testid=status]")
        assert status.inner_text() == "Game aborted: annaway never arrived. Stakes returned."
        assert bob.page.locator("[data-testid=actions] button").count() == 0
        assert bob.page.locator("[data-testid=escrow]").is_hidden()  # nothing is held now
        assert bob.me()["balance"] == ann.balance() == 100_000
        assert bob.errors == []
    finally:
        ann.close()
        bob.close()
