"""The page router: a page that finishes loading after the player has gone elsewhere
draws nothing on the page he went to (app.js ``route``: each visit has its own box).

A route holds the profile's request until the player has moved on to his
notifications; then it lets it through. The profile page goes on to draw itself
(its next request, the player's items, is sent after it has) and none of it is on
screen, beside the notifications, and nothing errs."""

from __future__ import annotations

from typing import Any

from test_club import Visitor


def test_a_page_that_loads_after_the_player_left_it_draws_nothing(browser, live_club):
    ann = Visitor(browser, live_club).register("annlate")
    held: list[Any] = []
    try:
        ann.page.route("**/api/users/annlate", lambda route: held.append(route))
        ann.go("#/profile/annlate")
        while not held:
            ann.page.wait_for_timeout(50)
        ann.go("#/notifications")
        ann.page.locator("[data-testid=notifications] li").first.wait_for()
        with ann.page.expect_request("**/api/users/annlate/items"):  # it drew its head
            held[0].continue_()
        assert ann.page.locator("[data-testid=profile]").count() == 0
        assert ann.page.locator("[data-testid=notifications]").count() == 1
        assert ann.errors == [], ann.errors
    finally:
        ann.close()
