"""One game at a time, in a real browser (issue 17, bug 1).

A new player had a lobby open in one tab while he played in another: a bot took
a request he had left open, and the second game ran unseen until he forfeited
it. Now a game that starts takes every open tab of its player to its room, his
other requests are withdrawn, and the lobby says why he cannot post or accept
until his game is over.
"""

from __future__ import annotations

from club_client import Player
from test_club import Visitor


def test_a_game_that_starts_takes_every_tab_to_it_and_the_lobby_says_why(browser, live_club):
    ann = Visitor(browser, live_club).register("annbusy")
    other_tab = ann.context.new_page()
    other_tab.goto(f"{live_club}/#/friends")
    other_tab.wait_for_selector("[data-testid=friends-search]")
    bob, carl = Player(live_club, "bobtakes").register(), Player(live_club, "carlwaits").register()
    try:
        ann.post("draughts", 10, bots=False)
        ann.page.locator("[data-testid=requests] tr[data-request]", has_text="annbusy").wait_for()
        ann.post("backgammon", 10)  # left open, a bot may take it: it must go with the start
        rows = ann.page.locator("[data-testid=requests] tr[data-request]", has_text="annbusy")
        rows.nth(1).wait_for()
        carls = carl.offer(variant="draughts", stake=10)
        draughts = next(r for r in bob.get("/api/requests").json() if r["variant"] == "draughts"
                        and r["owner"]["username"] == "annbusy")  # fmt: skip
        game_id = bob.accept(draughts["id"])["id"]

        # both of her tabs go to the game: the lobby's and the friends page
        for page in (ann.page, other_tab):
            page.wait_for_url(f"**/#/game/{game_id}")
            page.wait_for_selector("[data-testid=board] svg")

        # back in the lobby: her other request is gone, and nothing can start a second game
        other_tab.goto(f"{live_club}/#/")
        busy = other_tab.locator("[data-testid=busy]")
        busy.wait_for()
        assert "finish it" in busy.inner_text()
        assert busy.locator("a").get_attribute("href") == f"#/game/{game_id}"
        assert other_tab.locator("[data-testid=new-request] button[type=submit]").is_disabled()
        row = other_tab.locator(f"[data-testid=requests] tr[data-request='{carls['id']}']")
        row.wait_for()
        assert row.locator("[data-testid=accept]").is_disabled()
        assert other_tab.locator("[data-testid=requests] tr", has_text="annbusy").count() == 0
        assert ann.me()["playing"] == game_id
        assert ann.me()["balance"] == 100_000 - 10
        assert ann.errors == []
    finally:
        bob.close()
        carl.close()
        ann.close()
