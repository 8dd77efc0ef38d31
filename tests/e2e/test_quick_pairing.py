"""Quick pairing in the browser (issue 17): two people, one click each, one game."""

from __future__ import annotations

from test_club import PHONE, Visitor


def test_quick_pairing_starts_a_game_between_two_people_in_one_click_each(browser, live_club):
    ann = Visitor(browser, live_club).register("annquick")
    bob = Visitor(browser, live_club, PHONE).register("bobquick")
    try:
        button = "[data-testid=quick-pair][data-variant=draughts]"
        ann.page.click(button)
        ann.page.locator("[data-testid=requests] tr[data-request]", has_text="annquick").wait_for()
        assert "annquick" in bob.page.locator("[data-testid=requests]").inner_text()
        online = bob.page.locator("[data-testid=online]")
        assert "Players online" in online.inner_text()
        bob.page.click(button)
        for player in (ann, bob):
            player.page.wait_for_url("**/#/game/*")
            player.page.wait_for_selector("[data-testid=board] svg")
        assert ann.page.url == bob.page.url
        assert ann.me()["balance"] == bob.me()["balance"] == 100_000 - 100
        bob.shot("quick-game-phone")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()
