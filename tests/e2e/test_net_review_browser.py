"""The review card of a finished long nardy game in a real browser (issue 19): the trained
net's totals, its list of plays and its equity graph, each play shown on the nardy board."""

from __future__ import annotations

from club_client import play_until
from test_club import SHOTS
from test_room import club, open_room, start  # noqa: F401 (fixture)

PLAYS = 30
"""Plays made before the side to move resigns: enough for mistakes, luck and a graph."""


def test_a_long_nardy_game_is_reviewed_by_the_net_on_the_nardy_board(club):  # noqa: F811
    ann, bob = club.player("annnet"), club.player("bobnet")
    game = start(ann, bob, "long_nardy", stake=10)
    a, b = ann.watch(game), bob.watch(game)
    mover = play_until([a, b], lambda m: sum(e["type"] == "played" for e in m.events) >= PLAYS)
    other = b if mover is a else a
    assert mover.act({"type": "resign", "level": 1})["t"] == "state"
    other.until(lambda f: f["t"] == "legal" and f["v"] == mover.v)
    assert other.act({"type": "accept_resign"})["t"] == "state"
    page = club.page(ann)
    open_room(page, game)
    card = page.page.locator("[data-testid=review]")
    card.wait_for()
    assert "trained net" in (card.text_content() or "")  # the net's words, not gnubg's
    page.page.click("[data-testid=review] [data-testid=analyse]")
    page.page.wait_for_selector("[data-testid=review-totals]", timeout=60_000)
    analysis = ann.get(f"/api/games/{game}/analysis?plies=1").json()
    assert analysis["variant"] == "long_nardy"
    luck = page.page.locator("[data-testid=review-totals] [data-metric=luck]")
    for side in ("W", "B"):
        assert luck.locator(f"[data-side={side}]").text_content()  # dice, so luck
    page.page.uncheck("[data-testid=only-mistakes]")
    entries = page.page.locator("[data-testid=review-list] .review-entry")
    assert entries.count() == len(analysis["entries"])
    points = page.page.evaluate(
        """() => document.querySelector('[data-testid=equity-graph] .eq-line')
            .getAttribute('points').trim().split(' ').length"""
    )
    assert points == len(analysis["entries"])
    entries.nth(0).click()  # the first play: every checker still on its head (LN-2)
    page.page.locator("[data-testid=review-detail]").wait_for()
    heads = page.page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=board] .sb-checker[data-at]')]
            .map(c => c.dataset.at.split(':').slice(0, 2).join(':'))"""
    )
    assert len(set(heads)) == 2, heads  # one stack of White's, one of Black's
    SHOTS.mkdir(exist_ok=True)
    page.page.screenshot(path=str(SHOTS / "review-long-nardy.png"), full_page=True)
    entries.nth(len(analysis["entries"]) // 2).click()
    page.page.screenshot(path=str(SHOTS / "review-long-nardy-middle.png"), full_page=True)
    # The last decision, chosen on the graph, is brought into the list's view.
    graph = page.page.locator("[data-testid=equity-graph]")
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": box["width"] - 2, "y": box["height"] / 2})
    # (by the decision's number, not its text: "30" is also in an equity of +0.300)
    last = len(analysis["entries"])
    page.page.locator(f"[data-testid=review-decision][data-n='{last}']").wait_for()
    in_view = page.page.evaluate(
        """() => {
            const list = document.querySelector('[data-testid=review-list]');
            const shown = list.querySelector('.is-shown').getBoundingClientRect();
            const box = list.getBoundingClientRect();
            return [list.scrollTop > 0, shown.top >= box.top - 1, shown.bottom <= box.bottom + 1];
        }"""
    )
    assert in_view == [True, True, True]
