"""The club around the games in a real browser (issue 8).

Two people become friends, one challenges the other privately, the other sees
the notification arrive live, accepts, they chat and play; before that one of
them buys an avatar in the shop, and it shows in the other's game room. Each
person is a separate browser context with his own cookies. Screenshots of the
new pages at phone and desktop sizes go to tests/e2e/screenshots/.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from club_client import Player
from test_club import PASSWORD, PHONE, Visitor, act_once, wait_for_turn


def unread(visitor: Visitor) -> int:
    count = visitor.page.locator("[data-testid=unread]")
    return 0 if count.is_hidden() else int(count.inner_text())


def buy_and_wear(visitor: Visitor, item: str) -> None:
    page = visitor.page
    visitor.go("#/shop")
    card = page.locator(f"article[data-item='{item}']")
    card.get_by_role("button").first.click()
    page.locator("dialog[open] button").first.click()
    card.locator(".shop-price", has_text="✓").wait_for()
    card.get_by_role("button").first.click()  # Equip
    card.locator(".shop-equipped").wait_for()


def test_friends_challenge_chat_and_an_avatar_bought_in_the_shop(browser, live_club):
    ann = Visitor(browser, live_club).register("annsocial")
    bob = Visitor(browser, live_club).register("bobsocial")
    try:
        # ann buys the crown and wears it: 25 000 FUN leave her wallet
        before = ann.me()["balance"]
        buy_and_wear(ann, "avatar:crown")
        wearing = ann.me()
        assert wearing["balance"] < before and "annsocial.svg?v=" in wearing["avatar"]
        ann.shot("shop-desktop")

        # ann asks bob to be friends; bob's bell counts it without a reload
        bob.go("#/")
        bob.page.wait_for_selector("[data-testid=new-request]")
        seen = unread(bob)
        ann.go("#/friends")
        ann.page.fill("[data-testid=friends-search]", "bobsoc")
        ann.page.locator(
            "[data-testid=search-results] [data-name=bobsocial] [data-testid=add-friend]"
        ).click()
        ann.page.locator("[data-testid=outgoing] [data-name=bobsocial]").wait_for()
        bob.page.wait_for_function(
            "([n]) => Number(document.querySelector('[data-testid=unread]').textContent) > n",
            arg=[seen],
            polling=100,
        )
        bob.go("#/notifications")
        bob.page.locator("[data-testid=notifications] li", has_text="annsocial").first.wait_for()
        bob.shot("notifications-desktop")
        bob.go("#/friends")
        bob.page.locator(
            "[data-testid=incoming] [data-name=annsocial] [data-testid=accept-friend]"
        ).click()
        bob.page.locator("[data-testid=friends] [data-name=annsocial]").wait_for()

        # ann sees bob as her friend, online, live
        friend = ann.page.locator("[data-testid=friends] [data-name=bobsocial]")
        friend.wait_for()
        friend.locator("[data-testid=friend-status]").wait_for()
        ann.shot("friends-desktop")

        # ann challenges bob from her friends list: the lobby form has him chosen
        bob.go("#/")
        bob.page.wait_for_selector("[data-testid=new-request]")
        seen = unread(bob)
        friend.locator("[data-testid=challenge]").click()
        ann.page.wait_for_selector("[data-testid=new-request]")
        assert ann.page.input_value("[data-testid=opponent]") == "bobsocial"
        ann.post("draughts", 30)
        # bob hears of it at once: the bell, and the private request in his lobby
        bob.page.wait_for_function(
            "([n]) => Number(document.querySelector('[data-testid=unread]').textContent) > n",
            arg=[seen],
            polling=100,
        )
        row = bob.page.locator("[data-testid=requests] tr[data-request]", has_text="annsocial")
        row.wait_for()
        game_id = bob.accept_from("annsocial")
        ann.page.wait_for_url(f"**/#/game/{game_id}")
        ann.page.wait_for_selector("[data-testid=board] svg")

        # the crown shows in bob's room, beside ann's name
        avatar = bob.page.locator("[data-testid=room] .player img[src*='annsocial.svg']").first
        avatar.wait_for()
        assert avatar.get_attribute("src") == wearing["avatar"]

        # they chat: the players' room, text shown as typed (never as markup)
        line = "good luck <b>bob</b>"
        ann.page.fill("[data-testid=chat-input]", line)
        ann.page.press("[data-testid=chat-input]", "Enter")
        heard = bob.page.locator("[data-testid=chat-lines] li", has_text="good luck").first
        heard.wait_for()
        assert "<b>bob</b>" in heard.inner_text()
        assert bob.page.locator("[data-testid=chat-lines] b").count() == 0
        bob.page.fill("[data-testid=chat-input]", "thanks, you too")
        bob.page.press("[data-testid=chat-input]", "Enter")
        ann.page.locator("[data-testid=chat-lines] li", has_text="thanks, you too").wait_for()

        # and they play: three moves each way through the board
        rng = random.Random(8)
        for _ in range(4):
            player = wait_for_turn([ann, bob])
            assert player is not None
            act_once(player, rng)
        # the last move may be bob's: ann's page shows it once his frame arrives
        ann.page.wait_for_function(
            "() => Number(document.querySelector('[data-testid=room]').dataset.v) >= 4", polling=100
        )
        ann.shot("social-game-desktop")
        bob.shot("social-game-bob-desktop")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_the_new_pages_on_a_phone(browser, live_club):
    cam = Visitor(browser, live_club, PHONE).register("camphone")
    try:
        for page, ready in (
            ("#/friends", "[data-testid=friends-search]"),
            ("#/notifications", "[data-testid=notifications]"),
            ("#/shop", "[data-testid=shop-avatars] article"),
            ("#/profile/camphone", "[data-testid=ratings]"),
        ):
            cam.go(page)
            cam.page.wait_for_selector(ready)
            cam.shot(f"{page.strip('#/').split('/')[0]}-phone")
        assert cam.errors == []
    finally:
        cam.close()


def test_a_purchase_and_an_equip_in_one_tab_show_in_the_players_other_tab(browser, live_club):
    ann = Visitor(browser, live_club).register("anntabs")
    try:
        other = ann.context.new_page()
        other.goto(f"{live_club}/#/shop")
        walnut = other.locator("article[data-item='theme:walnut']")
        walnut.wait_for()
        before = other.inner_text("[data-testid=balance]")
        buy_and_wear(ann, "theme:walnut")
        walnut.locator(".shop-equipped").wait_for()  # no reload in the other tab
        assert other.inner_text("[data-testid=balance]") != before
        assert other.evaluate("document.querySelector('.shop-balance').textContent").strip()
        assert ann.errors == []
    finally:
        ann.close()


def test_a_rematch_offered_in_the_room_is_accepted_live_and_both_move_to_the_new_game(
    browser, live_club
):
    ann = Visitor(browser, live_club).register("annrematch")
    bob = Visitor(browser, live_club).register("bobrematch")
    try:
        ann.post("draughts", 0)
        listed = bob.page.locator("[data-testid=requests] tr[data-request]", has_text="annrematch")
        listed.wait_for()
        first = bob.accept_from("annrematch")
        ann.page.wait_for_url(f"**/#/game/{first}")
        mover = wait_for_turn([ann, bob])
        assert mover is not None
        waiting = bob if mover is ann else ann
        assert mover.page.title().startswith("● Your turn · ")  # the tab says so
        assert waiting.page.title().startswith("International draughts · ")
        mover.page.once("dialog", lambda dialog: dialog.accept())
        mover.page.click("[data-testid=actions] button[data-action=resign]")
        for visitor in (ann, bob):
            visitor.page.locator("[data-testid=rematch-offer]").wait_for()

        ann.page.click("[data-testid=rematch-offer]")
        ann.page.locator("[data-testid=rematch-waiting]").wait_for()
        accept = bob.page.locator("[data-testid=rematch-accept]")
        accept.wait_for()  # live, on bob's own socket
        assert "annrematch" in bob.page.inner_text("[data-testid=rematch]")
        bob.shot("rematch-offered-desktop")
        accept.click()
        for visitor in (ann, bob):
            visitor.page.wait_for_function(
                "([old]) => /#\\/game\\/\\w+/.test(location.hash) && !location.hash.endsWith(old)",
                arg=[first],
                polling=100,
            )
            visitor.page.wait_for_selector("[data-testid=board] svg")
        assert ann.page.url == bob.page.url
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_a_private_challenge_can_be_declined_from_the_lobby(browser, live_club):
    ann = Visitor(browser, live_club).register("anndecline")
    bob = Visitor(browser, live_club).register("bobdecline")
    try:
        ann.go("#/?opponent=bobdecline")
        ann.page.wait_for_selector("[data-testid=new-request]")
        assert ann.page.input_value("[data-testid=opponent]") == "bobdecline"
        ann.post("draughts", 0)
        row = bob.page.locator("[data-testid=requests] tr[data-request]", has_text="anndecline")
        row.locator("[data-testid=decline]").click()
        row.wait_for(state="detached")
        ann.page.locator("[data-testid=requests] tr[data-request]").wait_for(state="detached")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_a_player_changes_his_password_on_his_profile(browser, live_club):
    ann = Visitor(browser, live_club).register("annpassword")
    try:
        ann.go("#/profile/annpassword")
        form = ann.page.locator("[data-testid=password-form]")
        form.locator("input[name=current]").fill(PASSWORD)
        form.locator("input[name=new]").fill("a brand new secret")
        form.locator("input[name=again]").fill("a different one!")
        form.locator("button[type=submit]").click()
        assert "differ" in form.locator(".error").inner_text()
        form.locator("input[name=again]").fill("a brand new secret")
        form.locator("button[type=submit]").click()
        ann.page.locator(".toast", has_text="Password changed").wait_for()
        ann.shot("profile-password-desktop")
        logged_in = ann.page.evaluate(
            "fetch('/api/login', {method: 'POST', headers: {'content-type': 'application/json',"
            " 'x-csrf-token': document.cookie.split('csrf=')[1].split(';')[0]},"
            " body: JSON.stringify({username: 'annpassword', password: 'a brand new secret'})})"
            ".then(r => r.status)"
        )
        assert logged_in == 200
        assert ann.errors == []
    finally:
        ann.close()


def state_of(visitor: Visitor, game_id: str) -> dict:
    page = visitor.page.evaluate(f"fetch('/api/games/{game_id}').then(r => r.json())")
    return dict(page["state"])


def test_moves_typed_in_notation_are_played(browser, live_club):
    """The keyboard's way to move, in both families: a play ("24/18 13/10") and a draughts move."""
    from sheshbesh.games.draughts import Position as DraughtsPosition
    from sheshbesh.games.race import Position as RacePosition

    ann = Visitor(browser, live_club).register("anntyping")
    bob = Visitor(browser, live_club).register("bobtyping")
    try:
        for variant in ("backgammon", "draughts"):
            ann.post(variant, 0)
            requests = bob.page.locator("[data-testid=requests] tr[data-request]")
            requests.filter(has_text="anntyping").wait_for()
            game_id = bob.accept_from("anntyping")
            ann.page.wait_for_url(f"**/#/game/{game_id}")
            mover = wait_for_turn([ann, bob])
            assert mover is not None
            if variant == "backgammon" and mover.room("mine") == "true":
                mover.page.locator("[data-testid=move-text]").wait_for()
            state = state_of(mover, game_id)
            if variant == "draughts":
                text = str(DraughtsPosition.from_fen(state["position"]).legal_moves()[0])
            else:
                position = RacePosition.from_text("backgammon", state["position"])
                text = position.legal_plays(tuple(state["dice"]))[0].notation()
            before = int(mover.room("v"))
            field = mover.page.locator("[data-testid=move-text]")
            mover.shot(f"room-typed-move-{variant}")
            field.fill("99/98")  # nonsense first: a clear error, nothing played
            field.press("Enter")
            mover.page.locator(".toast.bad").first.wait_for()
            assert int(mover.room("v")) == before
            field.fill(text)
            field.press("Enter")
            mover.page.wait_for_function(
                "([v]) => Number(document.querySelector('[data-testid=room]').dataset.v) > v",
                arg=[before],
                polling=100,
            )
            assert mover.room("mine") == "false"  # the turn passed
            moves = state_of(mover, game_id)
            assert moves["turn" if variant == "backgammon" else "to_act"] != state.get(
                "turn" if variant == "backgammon" else "to_act"
            )
            mover.page.once("dialog", lambda dialog: dialog.accept())
            other = bob if mover is ann else ann
            wait_for_turn([other])
            other.page.once("dialog", lambda dialog: dialog.accept())
            other.page.click("[data-testid=actions] button[data-action=resign]")
            if variant == "backgammon":
                mover.page.click("[data-testid=actions] button[data-action=accept_resign]")
            for visitor in (ann, bob):
                visitor.page.locator("[data-testid=rematch-offer]").wait_for()
            ann.go("#/")
            bob.go("#/")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_the_lobby_lists_the_bots_and_readies_a_challenge_to_one(browser, live_club):
    ann = Visitor(browser, live_club).register("annbots")
    try:
        card = ann.page.locator("[data-testid=bots]")
        card.wait_for()
        names = card.locator("li").evaluate_all("rows => rows.map(r => r.dataset.bot)")
        assert "Draughts_Easy" in names and len(names) >= 3
        row = card.locator("li[data-bot=Draughts_Easy]")
        assert "Alpha-beta" in row.inner_text()
        row.locator("[data-testid=challenge-bot]").click()
        assert ann.page.input_value("select[name=variant]") == "draughts"
        assert ann.page.input_value("[data-testid=opponent]") == "Draughts_Easy"
        ann.shot("lobby-bots-desktop")
        ann.page.fill("input[name=stake]", "0")
        ann.page.click("[data-testid=new-request] button[type=submit]")
        ann.page.wait_for_url("**/#/game/*", timeout=20_000)  # the bot accepts at once
        ann.page.wait_for_selector("[data-testid=board] svg")
        assert ann.errors == []
    finally:
        ann.close()


def test_frames_the_server_lost_are_caught_up_from_its_hello_and_me(browser, live_club):
    """After the server's bus lost messages (Redis away) it sends each ``/ws/me`` socket
    its hello and its "me" again (tests/server/test_cluster_faults.py). Here the page's
    socket runs through a route that drops the pushed notification and game_started,
    as the bus would; then the route delivers a hello and a "me" such as the server
    sends: the notifications page shows the challenge it never heard, and the page goes
    to the game that began meanwhile.

    The route also keeps back the hello the server sends when the socket opens: a hello
    makes the page ask for the list again, and that one, arriving after the challenge
    was posted, would show it. So the only list the page has before the test's hello
    is the first one, which the test waits to see drawn before the challenge."""
    bob = Visitor(browser, live_club).register("boblost")
    ann = Player(live_club, "annlost").register()
    routes: list[Any] = []
    lost: list[str] = []

    def through(route: Any) -> None:
        server = route.connect_to_server()

        def from_server(message: str | bytes) -> None:
            kind = json.loads(message).get("t")
            if kind in ("notification", "game_started", "hello"):
                lost.append(kind)  # the bus dropped it (the hello: see above)
            else:
                route.send(message)

        server.on_message(from_server)
        routes.append(route)

    try:
        bob.page.route_web_socket(re.compile(r"/ws/me$"), through)
        bob.go("#/notifications")
        bob.page.reload()  # the page's socket opens again, through the route
        # The list is drawn once its first page came (even empty, it says so).
        bob.page.locator("[data-testid=notifications] li").first.wait_for()
        while "hello" not in lost:
            bob.page.wait_for_timeout(50)
        challenge = ann.offer(variant="backgammon", stake=10, opponent="boblost")
        while "notification" not in lost:
            bob.page.wait_for_timeout(50)
        notes = bob.page.locator("[data-testid=notifications] li", has_text="annlost")
        assert notes.count() == 0  # never pushed
        routes[-1].send(json.dumps({"t": "hello", "d": {"unread": 1, "friends": {}}}))
        notes.first.wait_for()
        assert unread(bob) == 1

        game = bob.page.evaluate(
            """async (id) => {
                const {token} = await (await fetch('/api/csrf')).json();
                const r = await fetch(`/api/requests/${id}/accept`,
                                      {method: 'POST', headers: {'X-CSRF-Token': token}});
                return (await r.json()).id;
            }""",
            challenge["id"],
        )
        while "game_started" not in lost:
            bob.page.wait_for_timeout(50)
        assert "#/notifications" in bob.page.url  # nothing told the page
        me = bob.me()
        routes[-1].send(json.dumps({"t": "me", "d": me}))
        bob.page.wait_for_url(f"**/#/game/{game}")
        bob.page.wait_for_selector("[data-testid=board] svg")
        assert bob.errors == []
    finally:
        bob.close()
        ann.close()
