"""The room's history, board tools and sounds in a real browser against a real club
(issue 17: "History", "Orientation", "Sound").

- A line of the move list shows that position, read only, during the game (the game goes
  on underneath) and after a reload; ← → step; "back to the game" returns; the copied
  position is gnubg's IDs of the shown position (FEN for draughts).
- The home board on the left is the player's setting: kept by the club, so a reload and
  his other tab show it too. Anyone can flip the board: the rows of the players follow.
- Sounds: nothing is heard before the person touches the page; then moves are heard,
  and the mute button (kept with his settings) silences them.
"""

from __future__ import annotations

import random
from typing import Any

from club_client import GameSocket, next_mover, play_until
from test_club import Visitor
from test_room import club, open_room, play, seated_at, start  # noqa: F401 (fixture)

ROOM = "[data-testid=room]"


def history_at(visitor: Visitor) -> str:
    return str(visitor.page.get_attribute(ROOM, "data-history"))


def movable(visitor: Visitor) -> int:
    return int(visitor.page.locator("[data-testid=board] .sb-hit.is-source").count())


def lines(visitor: Visitor) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = visitor.page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=moves] li')]
            .map(li => ({ text: li.textContent, seqs: li.dataset.seqs.split(' ').map(Number) }))"""
    )
    return found


def position_field(visitor: Visitor) -> str:
    return str(visitor.page.input_value("[data-testid=position-id]"))


def test_the_move_list_shows_any_earlier_position_read_only_while_the_game_goes_on(club):  # noqa: F811
    ann, bob = club.player("annhist"), club.player("bobhist")
    game = start(ann, bob, "backgammon", cube=False)  # a random drop must not end it early
    a, b = ann.watch(game), bob.watch(game)
    played = play_until([a, b], lambda m: sum(e["type"] == "played" for e in m.events) >= 3)
    page = club.page(ann)
    open_room(page, game)
    seated_at(page, played.v)
    sheet = lines(page)
    turn = next(i for i, line in enumerate(sheet) if ": " in line["text"])
    seq = sheet[turn]["seqs"][-1]
    page.page.locator("[data-testid=moves] li").nth(turn).click()
    page.page.wait_for_function(
        f"document.querySelector('{ROOM}').dataset.history === '{seq}'", polling=100
    )
    want = ann.get(f"/api/games/{game}/position?seq={seq}").json()["state"]
    ids = want["ids"]
    page.page.wait_for_function(
        "want => document.querySelector('[data-testid=position-id]').value === want",
        arg=f"{ids['position_id']}:{ids['match_id']}",
        polling=100,
    )
    assert movable(page) == 0  # read only
    assert page.page.locator("[data-testid=moves] li.is-current").count() == 1
    # The game goes on underneath: the list grows, the board stays where it was.
    mover = next_mover([a, b])
    assert mover is not None
    menu = [m for m in mover.legal or [] if m["type"] != "resign"]
    assert mover.act(random.Random(1).choice(menu))["t"] == "state"
    seated_at(page, mover.v)
    assert history_at(page) == str(seq)
    # → steps to the next line, ← back; the room takes the arrows only outside the board.
    page.page.locator("h1").click()
    page.page.keyboard.press("ArrowRight")
    following = sheet[turn + 1]["seqs"][-1]
    page.page.wait_for_function(
        f"document.querySelector('{ROOM}').dataset.history === '{following}'", polling=100
    )
    page.page.keyboard.press("ArrowLeft")
    page.page.wait_for_function(
        f"document.querySelector('{ROOM}').dataset.history === '{seq}'", polling=100
    )
    page.page.click("[data-testid=history-exit]")
    page.page.wait_for_function(
        f"document.querySelector('{ROOM}').dataset.history === ''", polling=100
    )
    live = ann.get(f"/api/games/{game}").json()["state"]
    if live.get("ids"):
        ids = live["ids"]
        page.page.wait_for_function(
            "want => document.querySelector('[data-testid=position-id]').value === want",
            arg=f"{ids['position_id']}:{ids['match_id']}",
            polling=100,
        )
    # After a reload the list comes from the record and its lines still open positions.
    page.page.reload()
    open_room(page, game)
    page.page.locator("[data-testid=moves] li").nth(turn).click()
    page.page.wait_for_function(
        f"document.querySelector('{ROOM}').dataset.history === '{seq}'", polling=100
    )


def test_a_finished_draughts_game_replays_and_copies_its_fen(club):  # noqa: F811
    ann, bob = club.player("anndrh"), club.player("bobdrh")
    game = start(ann, bob, "draughts", stake=10)
    sockets = [ann.watch(game), bob.watch(game)]
    play(sockets, random.Random(3), 6)
    guest = club.page()
    open_room(guest, game)
    seated_at(guest, max(s.v for s in sockets))
    guest.page.locator("[data-testid=moves] li").last.click()
    seq = lines(guest)[-1]["seqs"][-1]
    want = ann.get(f"/api/games/{game}/position?seq={seq}").json()["state"]["position"]
    guest.page.wait_for_function(
        "want => document.querySelector('[data-testid=position-id]').value === want",
        arg=want,
        polling=100,
    )
    guest.page.keyboard.press("Escape")
    guest.page.wait_for_function(
        f"document.querySelector('{ROOM}').dataset.history === ''", polling=100
    )


def bottom_colour(visitor: Visitor) -> str:
    return str(
        visitor.page.evaluate(
            """() => {
                const discs = document.querySelectorAll('[data-testid=board] .sb-strip-disc');
                return discs[discs.length - 1].classList.contains('sb-W') ? 'W' : 'B'; }"""
        )
    )


def point_one_on_the_left(visitor: Visitor) -> bool:
    return bool(
        visitor.page.evaluate(
            """() => { const svg = document.querySelector('[data-testid=board] svg');
                const one = svg.querySelector('[data-point="1"]').getBBox();
                return one.x + one.width / 2 < svg.viewBox.baseVal.width / 2; }"""
        )
    )


def test_the_home_board_side_is_kept_with_the_player_and_anyone_can_flip(club):  # noqa: F811
    ann, bob = club.player("annside"), club.player("bobside")
    game = start(ann, bob, "long_nardy", stake=10)
    page, other_tab = club.page(ann), club.page(ann)
    for visitor in (page, other_tab):
        open_room(visitor, game)
        assert not point_one_on_the_left(visitor)
    page.page.click("[data-testid=home-side]")
    page.page.wait_for_function(
        """() => { const svg = document.querySelector('[data-testid=board] svg');
            const one = svg.querySelector('[data-point="1"]').getBBox();
            return one.x < svg.viewBox.baseVal.width / 2; }""",
        polling=100,
    )
    assert ann.get("/api/session").json()["me"]["prefs"]["home"] == "left"
    other_tab.page.wait_for_function(  # the other tab hears it over the player's socket
        """() => { const svg = document.querySelector('[data-testid=board] svg');
            const one = svg.querySelector('[data-point="1"]').getBBox();
            return one.x < svg.viewBox.baseVal.width / 2; }""",
        polling=100,
    )
    page.page.reload()
    open_room(page, game)
    assert point_one_on_the_left(page)
    # A spectator flips the board: the other colour below, the players' rows with it.
    guest = club.page()
    open_room(guest, game)
    below = bottom_colour(guest)
    row_below = guest.page.evaluate(
        "() => document.querySelectorAll('.players')[1].querySelector('.player').dataset.testid"
    )
    guest.page.click("[data-testid=flip]")
    guest.page.wait_for_function(
        "c => { const d = document.querySelectorAll('[data-testid=board] .sb-strip-disc');"
        " return !d[d.length - 1].classList.contains('sb-' + c); }",
        arg=below,
        polling=100,
    )
    assert (
        guest.page.evaluate(
            "() => document.querySelectorAll('.players')[1].querySelector('.player').dataset.testid"
        )
        != row_below
    )


SOUNDS = "() => import('/static/js/sound.js').then(m => m.played.map(p => [p.name, p.audible]))"


def heard(visitor: Visitor) -> list[list[Any]]:
    found: list[list[Any]] = visitor.page.evaluate(SOUNDS)
    return found


def test_sounds_wait_for_a_gesture_and_the_mute_button_silences_them(club):  # noqa: F811
    ann, bob = club.player("annsnd"), club.player("bobsnd")
    game = start(ann, bob, "backgammon", cube=True)
    a, b = ann.watch(game), bob.watch(game)
    page = club.page(ann)
    open_room(page, game)

    def one_action() -> GameSocket:
        mover = next_mover([a, b])
        assert mover is not None
        menu = [m for m in mover.legal or [] if m["type"] not in ("resign", "double")]
        assert mover.act(random.Random(mover.v).choice(menu))["t"] == "state"
        seated_at(page, mover.v)
        return mover

    while not heard(page):
        one_action()
    assert all(audible is False for _, audible in heard(page))  # no gesture yet: silence
    page.page.locator("h1").click()  # a gesture
    count = len(heard(page))
    while len(heard(page)) == count:
        one_action()
    assert all(audible is True for _, audible in heard(page)[count:])
    page.page.click("[data-testid=sound]")
    page.page.wait_for_function(
        "() => document.querySelector('[data-testid=sound]')"
        ".getAttribute('aria-pressed') === 'true'",
        polling=100,
    )
    assert ann.get("/api/session").json()["me"]["prefs"]["sound"] is False
    count = len(heard(page))
    while len(heard(page)) == count:
        one_action()
    assert all(audible is False for _, audible in heard(page)[count:])
