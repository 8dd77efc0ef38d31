"""A chouette table in a real browser (issue 18): four browser contexts, three people
and a spectator.

The three sit down through the lobby (the owner posts the table from the request
form, the others take a seat from its row), the owner starts the first game from the
room, and they play it to its end. The plain board moves go over each person's own
socket (a second session of his, as the other browser tests speed up a long game);
every cube action is clicked in the room: the banker's double of both cubes, the
captain's take and the bettor's drop. The spectator watches the whole game and never
reads the crew's chat (CH-4, PL-3). Screenshots of the lobby rows and of the room at
390 and 1440 px go to tests/e2e/screenshots/.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_client import OPEN_DOORS, UNTHROTTLED, Player, RunningClub
from test_chouette_table import Table
from test_club import DESKTOP, PASSWORD, PHONE, Visitor

from sheshbesh.games.race.position import Position
from sheshbesh.server.settings import Settings

SHOTS = Path(__file__).parent / "screenshots"
STAKE = 50


@pytest.fixture(scope="module")
def chouette_club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A club whose tables wait ten minutes between games (the countdown shows; no game
    starts by itself while the test looks at the table)."""
    settings = Settings(database_url=str(tmp_path_factory.mktemp("club") / "club.db"),
                        password_profile="fast", **OPEN_DOORS, **UNTHROTTLED)  # fmt: skip
    with RunningClub(dataclasses.replace(settings, chouette_break=600.0)) as club:
        yield club.base


def room_is(visitor: Visitor, **data: str) -> None:
    """Wait until the room's data attributes say ``data`` (e.g. phase="board"); when they
    never do, fail with what the room said instead and the page's errors (CI once timed
    out here with nothing to go on). Polled on a timer, not on animation frames, which a
    page that paints nothing for a while does not get. The message ends with what the
    page's game socket last heard, where the visitor traces it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        visitor.page.wait_for_function(
            """(want) => { const r = document.querySelector('[data-testid=room]');
              return !!r && Object.entries(want).every(([k, v]) => r.dataset[k] === v); }""",
            arg=data, timeout=20_000, polling=100,
        )  # fmt: skip
    except PlaywrightTimeout:
        shown = visitor.page.evaluate(
            "() => ({...(document.querySelector('[data-testid=room]')?.dataset ?? {})})"
        )
        heard = list(getattr(visitor, "heard", []))
        raise AssertionError(
            f"{visitor.name}'s room never said {data}: it says {shown}; errors {visitor.errors};"
            f" its game socket last heard {heard}"
        ) from None


def shot(visitor: Visitor, name: str, full: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    visitor.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def second_session(base: str, name: str) -> Player:
    """The same person on a socket of his own, for the plain board moves."""
    player = Player(base, name)
    response = player.post("/api/login", {"username": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    player.user = response.json()
    return player


def play_to_captain_dice(table: Table, rng: random.Random) -> str:
    """Play the board (no doubles) until the captain has dice to play; a legal play of his."""
    for _ in range(400):
        board = table.game["board"]
        if board["to_act"] == "B" and board["phase"] == "move" and board["dice"]:
            plays = Position.from_text("backgammon", board["position"]).legal_plays(
                tuple(board["dice"])
            )
            if plays:
                return plays[0].notation()
        assert table.board_turn(rng) is not None, "nobody can move"
    raise AssertionError("the captain never had dice to play")


def crew_tab(visitor: Visitor) -> Any:
    return visitor.page.locator("[data-testid=chat] .chat-tab[data-room=crew]")


def test_three_people_play_a_chouette_game_in_the_browser_and_a_spectator_watches(
    browser: Any, chouette_club: str
) -> None:
    base = chouette_club
    ann, bob, cat = (Visitor(browser, base).register(n) for n in ("annbank", "bobcrew", "catcrew"))
    dan = Visitor(browser, base).register("danwatch")
    people = {"annbank": ann, "bobcrew": bob, "catcrew": cat}
    for visitor in (ann, bob, cat, dan):
        visitor.trace_game_sockets()
    sessions: list[Player] = []
    try:
        # The owner posts a table of four seats from the request form: off to its room.
        ann.page.select_option("select[name=variant]", "chouette")
        assert ann.page.locator("[data-testid=new-request] [name=opponent]").is_hidden()
        ann.page.fill("input[name=stake]", str(STAKE))
        ann.page.select_option("select[name=clock]", "delay 12s + 5m")
        ann.page.fill("[data-testid=seats-input]", "4")
        ann.page.click("[data-testid=new-request] button[type=submit]")
        ann.page.wait_for_url("**/#/game/*")
        game_id = ann.page.url.rsplit("/", 1)[1]
        room_is(ann, phase="waiting")

        # The others take seats from the lobby row, which follows the table.
        for visitor, taken in ((bob, 1), (cat, 2)):
            row = visitor.page.locator(f"[data-testid=requests] tr[data-table='{game_id}']")
            row.locator("[data-testid=seats]", has_text=f"{taken} / 4").wait_for()
            row.locator("[data-testid=join-table]").click()
            visitor.page.wait_for_url(f"**/#/game/{game_id}")
            room_is(visitor, phase="waiting")
        row = dan.page.locator(f"[data-testid=requests] tr[data-table='{game_id}']")
        row.locator("[data-testid=seats]", has_text="3 / 4").wait_for()
        assert row.locator("[data-testid=seated]").inner_text() == "annbank, bobcrew, catcrew"
        assert row.locator("[data-testid=join-table]").is_enabled()
        shot(dan, "chouette-lobby-desktop")
        dan.page.set_viewport_size(PHONE)
        dan.page.locator("[data-testid=requests]").screenshot(
            path=str(SHOTS / "chouette-lobby-phone.png")
        )
        dan.page.set_viewport_size(DESKTOP)

        # The owner may start once three are seated; from the lobby's row, the Start takes
        # him back to the room (a seat away at the start is given up) and starts there.
        ann.page.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]').disabled",
            timeout=20_000,
            polling=100,
        )
        ann.go("#/")
        own = ann.page.locator(f"[data-testid=requests] tr[data-table='{game_id}']")
        own.locator("[data-testid=seats]", has_text="3 / 4").wait_for()
        assert own.locator("[data-testid=join-table]").count() == 0
        own.locator("[data-testid=start-table]").click()
        ann.page.wait_for_url(f"**/#/game/{game_id}")
        for visitor in (ann, bob, cat):
            room_is(visitor, number="1")
        dan.go(f"#/game/{game_id}")
        room_is(dan, number="1")
        # The "now playing" list counts its seats (seen from a fresh lobby).
        lobby = dan.context.new_page()
        lobby.goto(f"{base}/#/")
        lobby.locator(f"[data-testid=live] tr[data-game='{game_id}'] [data-testid=seats]",
                      has_text="3 / 4").wait_for()  # fmt: skip
        lobby.close()

        # The board moves go over each one's own socket, up to the banker's window.
        table = Table(game_id)
        for name in people:
            sessions.append(second_session(base, name))
            table.sit(sessions[-1])
        table.settle()
        rng = random.Random(18)
        game = table.game
        banker = people[table.name_of(game["banker"])]
        captain = people[table.name_of(game["captain"])]
        bettor = people[table.name_of(game["rotation"][1])]

        # The bettor proposes a play for the captain's roll (CH-4): the captain sees it drawn
        # on his board; the banker and the spectator see neither the arrow nor the crew's room.
        play = play_to_captain_dice(table, rng)
        room_is(bettor, v=str(table.v))
        bettor.page.fill("[data-testid=propose-text]", play)
        bettor.page.click("[data-testid=propose] button[type=submit]")
        captain.page.locator("[data-testid=board] .sb-proposal").first.wait_for(state="attached")
        assert play in captain.page.locator("[data-testid=proposals]").inner_text()
        captain.page.click("[data-testid=chat] .chat-tab[data-room=crew]")
        assert captain.page.locator("[data-testid=chat-play]").count() == 1
        captain.page.set_viewport_size(PHONE)
        shot(captain, "chouette-room-phone-proposal", full=False)
        captain.page.set_viewport_size(DESKTOP)
        shot(captain, "chouette-room-desktop-proposal", full=False)
        for outsider in (banker, dan):
            assert outsider.page.locator(".sb-proposal").count() == 0
            assert crew_tab(outsider).count() == 0

        table.play_to_window(rng, "banker")
        v = table.v
        for visitor in (*people.values(), dan):
            room_is(visitor, v=str(v), pending="false")

        # The banker doubles both cubes: he clicks, with every cube ticked.
        choice = banker.page.locator("[data-testid=double-choice]")
        choice.wait_for()
        assert choice.locator("input[type=checkbox]:checked").count() == 2
        choice.locator("button[data-action=double]").click()
        for visitor in (captain, bettor):
            visitor.page.locator("[data-testid=answers] button[data-action=take]").wait_for()
        assert banker.page.locator("[data-testid=answers]").count() == 0
        # Each member answers only his own cube; the spectator sees no offer yet (PL-3).
        assert bettor.page.locator("[data-testid=answers] button").count() == 2  # his own cube only
        crew_state = dan.page.locator("[data-testid=crew]")
        assert crew_state.locator("[data-testid=owes]").count() == 0
        assert bettor.page.locator("[data-testid=crew] [data-testid=owes]").count() == 2
        bettor.page.set_viewport_size(PHONE)
        shot(bettor, "chouette-room-phone-doubled", full=False)
        shot(bettor, "chouette-room-phone-doubled-full")
        bettor.page.set_viewport_size(DESKTOP)
        shot(bettor, "chouette-room-desktop-doubled", full=False)

        captain.page.click("[data-testid=answers] button[data-action=take]")
        bettor.page.click("[data-testid=answers] button[data-action=drop]")
        for visitor in (captain, bettor):  # answered: his buttons go with the new state
            visitor.page.locator("[data-testid=answers]").wait_for(state="detached")
        table.settle()
        assert table.game["phase"] == "board"
        crew = {c["seat"]: c for c in table.game["crew"]}
        assert crew[game["captain"]]["cube"] == 2 and crew[game["captain"]]["owner"] == "member"
        assert crew[game["rotation"][1]]["out"]
        room_is(dan, v=str(table.v))
        dropped = dan.page.locator(f"[data-testid=crew] li[data-seat='{game['rotation'][1]}']")
        assert "dropped" in dropped.inner_text()
        captain_row = dan.page.locator(
            f"[data-testid=crew] li[data-seat='{game['captain']}'] .cube-face"
        )
        assert captain_row.inner_text() == "2"

        # The crew's chat is the crew's: neither the banker nor the spectator reads it (PL-3).
        bettor.page.click("[data-testid=chat] .chat-tab[data-room=crew]")
        bettor.page.fill("[data-testid=chat-input]", "keep the cube")
        bettor.page.press("[data-testid=chat-input]", "Enter")
        captain.page.click("[data-testid=chat] .chat-tab[data-room=crew]")
        captain.page.locator("[data-testid=chat-lines]", has_text="keep the cube").wait_for()
        bettor.page.click("[data-testid=chat] .chat-tab[data-room=players]")
        bettor.page.fill("[data-testid=chat-input]", "good luck all")
        bettor.page.press("[data-testid=chat-input]", "Enter")
        banker.page.locator("[data-testid=chat-lines]", has_text="good luck all").wait_for()
        for outsider in (banker, dan):
            assert crew_tab(outsider).count() == 0
            assert "keep the cube" not in outsider.page.locator("[data-testid=chat]").inner_text()

        # The game is played to its end; every page shows the result and the standings.
        table.play_out(rng)
        table.settle()
        results = table.state["results"]
        assert sum(results.values()) == 0 and results[str(game["rotation"][1])] == -1
        for visitor in (*people.values(), dan):
            room_is(visitor, finished="true", phase="between", v=str(table.v))
            for seat, won in results.items():
                cell = visitor.page.locator(
                    f"[data-testid=standings] tr[data-seat='{seat}'] [data-testid=session-result]"
                )
                assert cell.inner_text().replace("\u2212", "-").split()[0] == (
                    f"{won * STAKE:+d}" if won else "0")  # fmt: skip
        dan.page.locator("[data-testid=next-lineup]").wait_for()
        assert crew_tab(dan).count() == 0
        assert ann.page.locator("[data-testid=start-game]").is_enabled()
        assert bob.page.locator("[data-testid=start-game]").count() == 0

        views = [(ann, PHONE, "phone"), (ann, DESKTOP, "desktop"),
                 (dan, PHONE, "spectator-phone"), (dan, DESKTOP, "spectator-desktop")]  # fmt: skip
        for visitor, size, name in views:
            visitor.page.set_viewport_size(size)
            shot(visitor, f"chouette-room-{name}-between", full=False)
        # Right to left: the spectator reads the room in Persian.
        dan.page.evaluate("localStorage.setItem('lang', 'fa')")
        dan.page.reload()
        room_is(dan, finished="true", phase="between")
        dan.page.set_viewport_size(PHONE)
        assert dan.page.evaluate("document.documentElement.dir") == "rtl"
        shot(dan, "chouette-room-spectator-phone-fa", full=False)
        for visitor in (ann, bob, cat, dan):
            assert visitor.errors == [], visitor.errors
    finally:
        for player in sessions:
            player.close()
        for visitor in (ann, bob, cat, dan):
            visitor.close()


def test_an_owner_fills_his_table_with_bots_and_they_play(browser: Any, chouette_club: str) -> None:
    """The owner alone invites two club bots from the room, starts, and the bots play their
    seats (the board moves on without anyone else's click)."""
    eve = Visitor(browser, chouette_club).register("evebots")
    try:
        eve.page.select_option("select[name=variant]", "chouette")
        eve.page.fill("input[name=stake]", str(STAKE))
        eve.page.fill("[data-testid=seats-input]", "3")
        eve.page.click("[data-testid=new-request] button[type=submit]")
        eve.page.wait_for_url("**/#/game/*")
        room_is(eve, phase="waiting")
        for taken in (2, 3):
            eve.page.locator("[data-testid=add-bot]").click()
            eve.page.wait_for_function(
                "(n) => document.querySelectorAll('[data-testid=session] tbody tr').length === n",
                arg=taken, timeout=20_000, polling=100,
            )  # fmt: skip
        # Three seated out of three: the table starts by itself, and the bots play.
        eve.page.wait_for_function(
            "() => !!document.querySelector('[data-testid=room]')?.dataset.phase"
            " && document.querySelector('[data-testid=room]').dataset.phase !== 'waiting'",
            timeout=30_000,
            polling=100,
        )
        shot(eve, "chouette-room-desktop-bots")
        assert not [e for e in eve.errors if "favicon" not in e]
    finally:
        eve.context.close()
