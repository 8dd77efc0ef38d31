"""The club in a real browser: two players and a spectator, whole games through the page.

Each player is a separate browser context (his own cookies). They register,
post and accept requests, and play only by clicking what the page offers: the
board's highlighted checkers and targets, and the room's buttons. Screenshots
of every page at phone and desktop sizes go to tests/e2e/screenshots/.
"""

from __future__ import annotations

import json
import random
import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest

SHOTS = Path(__file__).parent / "screenshots"
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"


class Visitor:
    """One person at one browser: a context, a page, and the page's console errors."""

    def __init__(self, browser: Any, base: str, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.base = base
        self.name: str | None = None
        """The username, once registered."""
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def go(self, hash_: str) -> None:
        self.page.goto(f"{self.base}/{hash_}")

    def register(self, name: str) -> Visitor:
        self.name = name
        self.go("#/register")
        self.page.fill("input[name=username]", name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click("form button[type=submit]")
        self.page.wait_for_selector("[data-testid=balance]")
        self.page.wait_for_selector("[data-testid=new-request]")
        return self

    def me(self) -> dict[str, Any]:
        return dict(self.page.evaluate("fetch('/api/me').then(r => r.json())"))

    def post(self, variant: str, stake: int, **options: Any) -> None:
        page = self.page
        page.select_option("select[name=variant]", variant)
        page.fill("input[name=stake]", str(stake))
        for name, value in options.items():
            field = page.locator(f"[data-testid=new-request] [name={name}]")
            if isinstance(value, bool):
                field.set_checked(value)
            else:
                field.fill(str(value))
        page.click("[data-testid=new-request] button[type=submit]")

    def accept_from(self, owner: str) -> str:
        row = self.page.locator("[data-testid=requests] tr[data-request]", has_text=owner)
        row.locator("[data-testid=accept]").click()
        self.page.wait_for_url("**/#/game/*")
        self.page.wait_for_selector("[data-testid=board] svg")
        return self.page.url.rsplit("/", 1)[1]

    def room(self, key: str) -> str:
        return str(self.page.get_attribute("[data-testid=room]", f"data-{key}"))

    def shot(self, name: str) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def trace_game_sockets(self, keep: int = 24) -> None:
        """Keep what this page's game sockets last heard (each frame's kind and ``v``) and
        when each opened and closed: the message of a page that stopped moving says whether
        its socket went quiet, closed, or heard frames the page did not show."""
        self.heard: deque[str] = deque(maxlen=keep)

        def opened(ws: Any) -> None:
            if "/ws/game/" not in ws.url:
                return
            self.heard.append(f"opened {ws.url.rsplit('/', 1)[-1][-12:]}")

            def frame(payload: Any) -> None:
                try:
                    got = json.loads(payload)
                    self.heard.append(f"{got.get('t')} v={got.get('v')}")
                except (TypeError, ValueError, AttributeError):
                    self.heard.append(f"? {str(payload)[:40]}")

            ws.on("framereceived", frame)
            ws.on("close", lambda _: self.heard.append("closed"))

        self.page.on("websocket", opened)

    def close(self) -> None:
        self.context.close()


ROOM_AT = """([v, mine]) => { const r = document.querySelector('[data-testid=room]');
  return r.dataset.v === String(v) && r.dataset.pending === 'false'
    && (mine === null || r.dataset.mine === String(mine)); }"""
"""The room shows the game at ``v``, nothing is being sent, and (unless None) its actions or not."""


COUNT_SENT = """() => {
  if (window.sentActions === undefined) {
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (JSON.parse(data).t === "action") window.sentActions += 1;
      return send.call(this, data);
    };
  }
  window.sentActions = 0;
}"""
"""Count the action frames the page sends from now on (in ``window.sentActions``)."""


def state_of_game(visitor: Visitor) -> dict[str, Any]:
    """The game the visitor's room shows, as the server has it now (a spectator's view)."""
    game = visitor.page.url.rsplit("/", 1)[1]
    return dict(visitor.page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())"))


def wait_for_turn(players: list[Visitor], timeout: float = 20_000) -> Visitor | None:
    """The player whose page offers actions now (None once the game is over).

    The server says who is to act at which sequence number; then that player's page is
    awaited until it shows that state with its actions. When someone else is to act (a
    bot), the pages are awaited until the game has moved on, and the server asked again.
    """
    for player in players:
        player.page.wait_for_selector("[data-testid=room][data-v]")
    while True:
        game = state_of_game(players[0])
        seq, to_act = game["seq"], game["to_act"]
        if game["status"] != "live":
            for player in players:
                player.page.wait_for_function(
                    "() => document.querySelector('[data-testid=room]').dataset.finished"
                    " === 'true'", timeout=timeout, polling=100,
                )  # fmt: skip
            return None
        name = None if to_act is None else game["players"][to_act]["username"]
        mover = next((player for player in players if player.name == name), None)
        if mover is not None:
            mover.page.wait_for_function(ROOM_AT, arg=[seq, True], timeout=timeout, polling=100)
            return mover
        players[0].page.wait_for_function(
            "([v]) => Number(document.querySelector('[data-testid=room]').dataset.v) > v",
            arg=[seq], timeout=timeout, polling=100,
        )  # fmt: skip


def act_once(player: Visitor, rng: random.Random, choose: Any = None) -> None:
    """Click one thing the page offers: a button, or a checker and then a target."""
    page = player.page
    before = int(player.room("v"))
    buttons = page.locator("[data-testid=actions] button[data-action]:not([data-action=resign])")
    kinds = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    sources = page.locator("[data-testid=board] .sb-hit.is-source")
    wanted = choose(kinds) if choose else None
    if wanted is None and sources.count():
        sources.nth(rng.randrange(sources.count())).click()
        targets = page.locator("[data-testid=board] .sb-hit.is-target")
        targets.first.wait_for(timeout=5000)
        targets.nth(rng.randrange(targets.count())).click()
    else:
        pick = wanted or rng.choice([k for k in kinds if k not in ("undo", "drop")] or kinds)
        page.click(f"[data-testid=actions] button[data-action={pick}]")
    page.wait_for_function(
        "([v]) => { const r = document.querySelector('[data-testid=room]');"
        " return r.dataset.pending === 'false' && Number(r.dataset.v) > v; }",
        arg=[before],
        timeout=15_000,
        polling=100,
    )


def play_to_the_end(players: list[Visitor], rng: random.Random, choose: Any = None) -> int:
    actions = 0
    while (player := wait_for_turn(players)) is not None:
        act_once(player, rng, choose)
        actions += 1
        assert actions < 3000
    return actions


@pytest.fixture
def people(browser, live_club):
    made: list[Visitor] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Visitor:
        visitor = Visitor(browser, live_club, viewport)
        made.append(visitor)
        return visitor

    yield make
    for visitor in made:
        assert visitor.errors == [], visitor.errors
        visitor.close()


def csrf_cookie(visitor: Visitor) -> str:
    return next(c["value"] for c in visitor.context.cookies() if c["name"] == "csrf")


def test_a_logout_and_a_login_in_the_page_renew_the_token_and_posting_works(people):
    """Issue 16, item 12: the CSRF token is bound to the session, so it changes at a logout
    and a login; the page reads the new cookie and its next change still goes through."""
    kim = people().register("kim")
    registered = csrf_cookie(kim)
    kim.page.click("button.logout")
    kim.page.locator("a[href='#/login']").first.wait_for()
    logged_out = csrf_cookie(kim)
    assert logged_out != registered
    kim.go("#/login")
    kim.page.fill("input[name=username]", "kim")
    kim.page.fill("input[name=password]", PASSWORD)
    kim.page.click("form button[type=submit]")
    kim.page.wait_for_selector("[data-testid=new-request]")
    assert csrf_cookie(kim) not in (registered, logged_out)
    kim.post("draughts", 10)
    kim.page.locator("[data-testid=requests] tr[data-request]", has_text="kim").wait_for()


def test_a_page_whose_session_ended_elsewhere_says_so_and_shows_the_login_page(people):
    """Issue 16, item 8: a new password ends the account's other sessions. The other
    browser's sockets are closed with 4401, and its page says it was signed out and shows
    the login page, instead of reconnecting again and again; the page that changed the
    password stays logged in."""
    lea = people().register("lea")
    other = people()
    other.go("#/login")
    other.page.fill("input[name=username]", "lea")
    other.page.fill("input[name=password]", PASSWORD)
    other.page.click("form button[type=submit]")
    other.page.wait_for_selector("[data-testid=new-request]")
    status = lea.page.evaluate(
        """(body) => import("/static/js/api.js")
             .then(({ api }) => api.post("/api/me/password", body))
             .then(() => 200, (error) => error.status)""",
        {"current": PASSWORD, "new": "a brand new password"},
    )
    assert status == 200
    other.page.wait_for_url("**/#/login")
    other.page.locator(".toast", has_text="signed out").wait_for()
    other.page.locator("#top a[href='#/login']").wait_for()
    assert other.page.evaluate("fetch('/api/session').then(r => r.json())") == {"me": None}
    assert lea.page.locator("[data-testid=balance]").is_visible()
    assert lea.me()["username"] == "lea"


def test_backgammon_with_a_double_and_a_take_watched_live(people):
    ann, bob = people().register("ann"), people().register("bob")
    ann.shot("lobby-desktop")
    ann.post("backgammon", 100, cube=True)
    game = bob.accept_from("ann")
    ann.page.wait_for_url(f"**/#/game/{game}")
    watcher = people()
    watcher.go(f"#/game/{game}")
    watcher.page.wait_for_selector("[data-testid=board] svg")
    assert watcher.page.locator("[data-testid=actions] button").count() == 0
    ann.shot("room-backgammon-desktop")
    script = {"doubled": False}

    def double_once_then_take(kinds: list[str]) -> str | None:
        if "double" in kinds and not script["doubled"]:
            script["doubled"] = True
            return "double"
        return "take" if "take" in kinds else None

    play_to_the_end([ann, bob], random.Random(1), double_once_then_take)
    assert script["doubled"]
    for page in (ann, bob, watcher):
        page.page.wait_for_selector("[data-testid=result]:not([hidden])")
    watcher.page.wait_for_function(
        "v => document.querySelector('[data-testid=room]').dataset.v === v",
        arg=ann.room("v"),
        polling=100,
    )
    ann.shot("room-backgammon-finished")
    result = ann.page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())")["state"]["result"]
    assert result["cube"] >= 2
    reason = ann.page.text_content("[data-testid=reason]") or ""
    assert f"({result['reason']})" in reason and "result.rule" not in reason  # words, then the ID
    won = result["points"] * 100
    white_is_ann = (
        ann.page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())")["white_seat"] == 0
    )
    ann_won = (result["winner"] == "W") == white_is_ann
    assert ann.me()["balance"] == 100_000 + (won if ann_won else -won)
    assert bob.me()["balance"] == 100_000 - (won if ann_won else -won)
    shown = ann.page.text_content("[data-testid=balance]") or ""
    assert str(ann.me()["balance"])[-3:] in shown.replace(",", "").replace("\u202f", "")
    # gnubg's review is for those who log in: the anonymous watcher is asked to.
    watcher.page.wait_for_selector("[data-testid=review] [data-testid=review-login]")
    assert watcher.page.locator("[data-testid=review] [data-testid=analyse]").count() == 0
    review_the_game(ann, game)


def review_the_game(viewer: Visitor, game: str) -> None:
    """gnubg's review in the room: totals per player, the decisions, each shown on the board."""
    page = viewer.page
    page.click("[data-testid=review] [data-testid=analyse]")
    page.wait_for_selector("[data-testid=review-totals]", timeout=60_000)
    analysis = page.evaluate(f"fetch('/api/games/{game}/analysis?plies=1').then(r => r.json())")
    for side in ("W", "B"):
        totals = page.locator("[data-testid=review-totals] [data-metric=blunders]")
        cell = totals.locator(f"[data-side={side}]")
        assert cell.text_content() == str(analysis["players"][side]["blunders"])
    mistakes = [e for e in analysis["entries"] if e["skill"] != "none"]
    if mistakes:
        assert page.locator("[data-testid=review-list] li").count() == len(mistakes)
    page.uncheck("[data-testid=only-mistakes]")
    entries = page.locator("[data-testid=review-list] .review-entry")
    assert entries.count() == len(analysis["entries"])
    before = page.inner_html("[data-testid=board]")
    entries.nth(0).click()
    first = analysis["entries"][0]
    detail = page.locator("[data-testid=review-detail]")
    detail.wait_for()
    assert f"Decision 1 of {len(analysis['entries'])}" in (page.text_content(".replay") or "")
    best = page.text_content("[data-testid=review-best]") or ""
    assert first["best"] in best
    assert page.inner_html("[data-testid=board]") != before  # the decision's position is drawn
    page.click("[data-testid=review-detail] button >> nth=1")  # the next decision
    page.wait_for_selector(".review-entry.is-shown >> nth=0")
    assert page.locator(".review-entry").nth(1).get_attribute("aria-current") == "true"
    # The equity graph (issue 17): one point per decision, White's equity above the middle
    # when White stands better; a click on it puts the nearest decision on the board.
    graph = page.evaluate(
        """() => { const svg = document.querySelector('[data-testid=equity-graph]');
            const line = svg.querySelector('.eq-line').getAttribute('points').trim().split(' ');
            return { ys: line.map(p => Number(p.split(',')[1])), height: svg.viewBox.baseVal.height,
                     dots: svg.querySelectorAll('.eq-dot').length }; }"""
    )
    assert len(graph["ys"]) == len(analysis["entries"]) and graph["dots"] == len(mistakes)
    for entry, y in zip(analysis["entries"], graph["ys"], strict=True):
        white = entry["equity"] if entry["side"] == "W" else -entry["equity"]
        if abs(white) > 0.01:
            assert (y < graph["height"] / 2) == (white > 0)
    drawn = page.locator("[data-testid=equity-graph]")
    drawn.scroll_into_view_if_needed()
    box = drawn.bounding_box()
    drawn.click(position={"x": box["width"] - 4, "y": box["height"] / 2})
    last = len(analysis["entries"])
    page.wait_for_function(
        "n => (document.querySelector('.replay')?.textContent || '')"
        ".includes(`Decision ${n} of ${n}`)",
        arg=last,
        polling=100,
    )
    assert page.get_attribute("[data-testid=equity-graph] .eq-shown", "data-shown") == str(last - 1)
    viewer.shot("room-review-desktop")
    page.set_viewport_size(PHONE)
    viewer.shot("room-review-phone")


def test_draughts_multi_capture_wins_the_game(people):
    """DR-6/DR-9: White takes two pieces in one move and Black has none left."""
    ann, bob = people().register("dora"), people().register("eve")
    ann.page.select_option("select[name=variant]", "draughts")
    ann.page.evaluate(
        "fetch('/api/requests', {method: 'POST', headers: {'Content-Type': 'application/json',"
        " 'X-CSRF-Token': document.cookie.match(/csrf=([^;]+)/)[1]}, body: JSON.stringify("
        "{variant: 'draughts', stake: 50, start: 'W:W37:B32,22'})})"
    )
    game = bob.accept_from("dora")
    ann.page.wait_for_url(f"**/#/game/{game}")
    ann.page.wait_for_selector("[data-testid=board] .is-source")
    ann.shot("room-draughts-desktop")
    before = ann.room("v")
    ann.page.locator("[data-testid=board] .is-source").first.click()
    for _ in range(3):  # the landing square, or each square of the route in turn
        ann.page.locator("[data-testid=board] .is-target").first.click()
        # One look at the page: the move went (sending, or already answered), or the
        # route asks for its next square. Two looks could fall either side of the answer.
        went = ann.page.wait_for_function(
            "v => { const r = document.querySelector('[data-testid=room]');"
            " if (r.dataset.pending === 'true' || r.dataset.v !== v) return 'sent';"
            " return document.querySelector('[data-testid=board] .is-target') ? 'next' : false; }",
            arg=before,
            polling=100,
        ).json_value()
        if went == "sent":
            break
    ann.page.wait_for_selector("[data-testid=result]:not([hidden])")
    assert ann.me()["balance"] == 100_050 and bob.me()["balance"] == 99_950
    moves = ann.page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())")["state"]["moves"]
    assert moves == ["37x28x17"]
    ann.shot("room-draughts-finished")


def test_a_picked_piece_stays_picked_while_the_opponent_leaves_and_comes_back(people):
    """Frames that change nothing on the board (here presence) leave a half-made move alone."""
    ann, bob = people().register("kira"), people().register("lou")
    ann.page.evaluate(
        "fetch('/api/requests', {method: 'POST', headers: {'Content-Type': 'application/json',"
        " 'X-CSRF-Token': document.cookie.match(/csrf=([^;]+)/)[1]}, body: JSON.stringify("
        "{variant: 'draughts', stake: 0, start: 'W:W37:B32,22'})})"
    )
    game = bob.accept_from("kira")
    ann.page.wait_for_url(f"**/#/game/{game}")
    ann.page.locator("[data-testid=board] .is-source").first.click()
    target = ann.page.locator("[data-testid=board] .is-target")
    assert target.count() == 1
    bob.go("#/")  # his socket closes: ann's room hears that he left…
    ann.page.wait_for_selector("[data-testid=room] .player .offline")
    assert target.count() == 1
    bob.go(f"#/game/{game}")  # …and that he is back
    ann.page.wait_for_selector("[data-testid=room] .player .offline", state="detached")
    assert target.count() == 1
    target.click()
    ann.page.wait_for_selector("[data-testid=result]:not([hidden])")


def test_long_nardy_opening_head_rule(people):
    """LN-6: one checker leaves the head per turn (except 6-6, 4-4, 3-3 on the first)."""
    ann, bob = people().register("lena"), people().register("max")
    ann.post("long_nardy", 10)
    game = bob.accept_from("lena")
    ann.page.wait_for_url(f"**/#/game/{game}")
    for _ in range(10):  # to the first turn with a play to make (forced plays go by themselves)
        mover = wait_for_turn([ann, bob])
        assert mover is not None
        page = mover.page
        state = page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())")["state"]
        if state["phase"] == "move":
            break
        act_once(mover, random.Random(0), lambda kinds: "roll")
    dice = sorted(state["dice"])
    head = page.locator("[data-testid=board] .sb-hit.is-source")
    assert head.count() >= 1
    mover.shot("room-long-nardy-desktop")
    # Move one checker off the head: unless the roll is 6-6, 4-4 or 3-3, no
    # second head checker may follow in this turn.
    act_once(mover, random.Random(2))
    after = page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())")["state"]
    if after["phase"] == "move" and dice not in ([6, 6], [4, 4], [3, 3]):
        own = "W" if after["turn"] == "W" else "B"
        head_point = 24 if own == "W" else 12
        sources = page.locator("[data-testid=board] .sb-hit.is-source")
        points = [sources.nth(i).get_attribute("data-point") for i in range(sources.count())]
        assert str(head_point) not in points


def test_persian_is_right_to_left_and_every_page_has_screenshots(people, live_club):
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        guest = people(viewport)
        guest.go("#/")
        guest.page.wait_for_selector("[data-testid=requests]")
        guest.shot(f"lobby-guest-{size}")
        for page in ("login", "register", "verify"):
            guest.go(f"#/{page}")
            guest.page.wait_for_selector("main h1")
            guest.shot(f"{page}-{size}")
        guest.page.select_option("header select", "fa")
        guest.page.wait_for_function("() => document.documentElement.dir === 'rtl'", polling=100)
        guest.go("#/")
        guest.page.wait_for_selector("[data-testid=requests]")
        assert guest.page.evaluate("document.documentElement.lang") == "fa"
        guest.shot(f"lobby-persian-{size}")
        guest.page.select_option("header select", "en")
    member = people(PHONE).register("phoebe")
    member.shot("lobby-phone")
    member.go("#/profile/phoebe")
    member.page.wait_for_selector("[data-testid=ledger]")
    member.shot("profile-phone")


def test_a_double_click_on_confirm_sends_one_action_and_a_lost_socket_resyncs(people):
    ann, bob = people().register("gus"), people().register("hal")
    routes: list[Any] = []  # ann's game sockets pass through Playwright, which can cut them

    def through(socket: Any) -> None:
        socket.connect_to_server()
        routes.append(socket)

    ann.page.route_web_socket(re.compile(r".*/ws/game/.*"), through)
    ann.post("backgammon", 0)
    game = bob.accept_from("gus")
    ann.page.wait_for_url(f"**/#/game/{game}")
    rng = random.Random(5)
    for _ in range(40):  # until ann's turn is complete and Confirm is offered
        mover = wait_for_turn([ann, bob])
        assert mover is not None
        confirm = mover.page.locator("[data-testid=actions] button[data-action=confirm]")
        if mover is ann and confirm.count():
            before = int(ann.room("v"))
            ann.page.evaluate(COUNT_SENT)
            confirm.dblclick()
            # Both clicks' handlers have run: what the page sent is counted, nothing in flight.
            assert ann.page.evaluate("() => window.sentActions") == 1
            ann.page.wait_for_function(
                "([v]) => Number(document.querySelector('[data-testid=room]').dataset.v) > v",
                arg=[before],
                polling=100,
            )
            break
        act_once(mover, rng, lambda kinds: "roll" if "roll" in kinds else None)
    else:
        raise AssertionError("ann never had a Confirm to click")
    # The connection drops; the page says so while bob plays on, reconnects and catches up.
    assert wait_for_turn([ann, bob]) is bob
    assert routes
    routes[-1].close(code=4000, reason="cut by the test")
    ann.page.wait_for_selector("#banner:not([hidden])", timeout=20_000)
    act_once(bob, rng)
    ann.page.wait_for_selector("#banner", state="hidden", timeout=30_000)
    assert len(routes) >= 2
    seq = state_of_game(bob)["seq"]
    for visitor in (ann, bob):
        visitor.page.wait_for_function(ROOM_AT, arg=[seq, None], polling=100)


def test_room_and_profile_screenshots_at_both_sizes(people):
    ann, bob = people(PHONE).register("ivy"), people(DESKTOP).register("jon")
    ann.post("plakoto", 20)
    game = bob.accept_from("ivy")
    ann.page.wait_for_url(f"**/#/game/{game}")
    ann.page.wait_for_selector("[data-testid=board] svg")
    ann.shot("room-plakoto-phone")
    bob.shot("room-plakoto-desktop")
    bob.go("#/profile/jon")
    bob.page.wait_for_selector("[data-testid=ledger]")
    assert bob.page.locator("[data-testid=ledger] tbody tr").count() == 2  # grant, escrow
    bob.shot("profile-desktop")
    bob.go("#/profile/ivy")
    bob.page.wait_for_selector("main h1")
    assert bob.page.locator("[data-testid=ledger]").count() == 0  # not his wallet
    bob.shot("profile-other-desktop")


def test_a_counted_text_takes_the_form_its_number_needs_in_the_page_language(people):
    """A match score reads "1 pt" and "2 pts", and Russian's "очко, очка, очков" follow
    Intl.PluralRules (1 and 21 one, 2 few, 5 many, 1.5 other); Welsh counts with one form.
    Before, every language read "1 pts"."""
    guest = people(DESKTOP)
    guest.go("#/")
    guest.page.wait_for_selector("[data-testid=requests]")
    forms = guest.page.evaluate(
        """async () => {
          const i18n = await import("/static/js/i18n.js");
          const out = {};
          for (const lang of ["en", "ru", "cy", "pt"]) {
            await i18n.setLanguage(lang);
            const say = (n) => i18n.plural("room.points", n, { n: String(n) });
            out[lang] = [1, 2, 5, 21, 1.5].map(say);
          }
          await i18n.setLanguage("en");
          return out;
        }"""
    )
    assert forms["en"] == ["1 pt", "2 pts", "5 pts", "21 pts", "1.5 pts"]
    assert forms["ru"] == ["1 очко", "2 очка", "5 очков", "21 очко", "1.5 очка"]
    assert forms["cy"] == ["1 pwynt", "2 pwynt", "5 pwynt", "21 pwynt", "1.5 pwynt"]
    # Portuguese says "0 ponto", "1,5 ponto": CLDR's "one" is every number below 2
    assert forms["pt"] == ["1 pt", "2 pts", "5 pts", "21 pts", "1.5 pt"]


def test_a_request_with_automatic_doubles_shows_them_counted_in_the_lobby(people):
    """The request's tags say "1 automatic double" and "2 automatic doubles" (the lobby
    once called an undefined name for them, and its list stopped drawing)."""
    una, duo = people().register("una"), people().register("duo")
    una.post("backgammon", 10, cube=True, auto_doubles=1)
    duo.post("backgammon", 10, cube=True, auto_doubles=2)
    watcher = people().register("wes")
    rows = watcher.page.locator("[data-testid=requests] tr[data-request]")
    for owner, tag in (("una", "1 automatic double"), ("duo", "2 automatic doubles")):
        row = rows.filter(has_text=owner)
        row.wait_for()
        assert tag in (row.text_content() or ""), row.text_content()
    assert "1 automatic doubles" not in (rows.filter(has_text="una").text_content() or "")
    watcher.shot("lobby-automatic-doubles-desktop")
