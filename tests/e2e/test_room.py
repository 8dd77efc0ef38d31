"""The game room as a new player met it (issue 17, "Bugs met by a new player", items 2-4).

The players here are made over HTTP (``club_client.Player``) and play over their
own sockets where the page is not what is tested; the page is opened in a
browser context holding the same player's cookies, so it is his room, or in a
context without cookies, a guest's. Sizes are the three the issue names.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_client import GameSocket, Player, next_mover
from test_club import DESKTOP, PHONE, Visitor

LAPTOP = {"width": 1280, "height": 720}
SIZES = {"1440x900": DESKTOP, "1280x720": LAPTOP, "390x844": PHONE}
SHOTS = Path("/tmp/shots")


class Room:
    """Players made over HTTP, and pages opened in the browser as one of them or a guest."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.players: list[Player] = []
        self.pages: list[Visitor] = []

    def player(self, name: str) -> Player:
        player = Player(self.base, name).register()
        self.players.append(player)
        return player

    def page(self, player: Player | None = None, viewport: dict[str, int] = DESKTOP,
             lang: str = "en") -> Visitor:  # fmt: skip
        """A browser context with ``player``'s cookies (None: a guest's), in ``lang``."""
        visitor = Visitor(self.browser, self.base, viewport)
        if player is not None:
            cookies = player.http.cookies.items()
            visitor.context.add_cookies(
                [{"name": k, "value": v, "url": self.base} for k, v in cookies]
            )
            visitor.name = player.name
        visitor.page.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        self.pages.append(visitor)
        return visitor


@pytest.fixture
def club(browser: Any, live_club: str) -> Iterator[Room]:
    made = Room(browser, live_club)
    yield made
    for visitor in made.pages:
        assert visitor.errors == [], visitor.errors
        visitor.close()
    for player in made.players:
        player.close()


def start(owner: Player, guest: Player, variant: str, **options: Any) -> str:
    request = owner.offer(variant=variant, stake=options.pop("stake", 100), **options)
    return str(guest.accept(request["id"])["id"])


def open_room(visitor: Visitor, game: str) -> None:
    visitor.go(f"#/game/{game}")
    visitor.page.wait_for_selector("[data-testid=board] svg")
    visitor.page.wait_for_selector("[data-testid=room][data-v]")


def play(sockets: list[GameSocket], rng: random.Random, actions: int) -> None:
    """Make ``actions`` random legal actions (never a resignation) over the sockets."""
    for _ in range(actions):
        mover = next_mover(sockets)
        if mover is None:
            return
        menu = [a for a in mover.legal or [] if a["type"] != "resign"]
        frame = mover.act(rng.choice(menu))
        assert frame["t"] != "error", frame


def seated_at(visitor: Visitor, v: int) -> None:
    visitor.page.wait_for_function(
        "v => document.querySelector('[data-testid=room]').dataset.v === String(v)", arg=v
    )


# --- item 2: the move list is built from the record -------------------------------------


def sheet(record: dict[str, Any], names: list[str]) -> list[str]:
    """The move list the record gives, in English: the opening roll, one line a turn with
    its dice and its play, and every cube action and end (docs in js/movelist.js)."""
    out: list[str] = []
    white = 0
    open_turn: dict[str, Any] | None = None
    opening: tuple[str, list[int]] | None = None

    def name(side: str) -> str:
        return names[white if side == "W" else 1 - white]

    def dice(pair: list[int]) -> str:
        return "-".join(map(str, pair))

    for event in record["events"]:
        kind, side = event["type"], event.get("side")
        if kind == "opening":
            if event["starter"] is None:
                out.append(f"Opening roll {dice(event['dice'])}: a tie, rolled again")
                continue
            white = event.get("white_seat", white)
            out.append(f"Opening roll {dice(event['dice'])}: {name(event['starter'])} starts")
            opening = (event["starter"], event["first_dice"]) if event["first_dice"] else None
        elif kind == "rolled":
            opening = None
            out.append(f"{name(side)} {dice(event['dice'])}")
            open_turn = {"side": side, "at": len(out) - 1}
        elif kind in ("played", "passed"):
            words = event.get("play") or event.get("move") if kind == "played" else "cannot move"
            if open_turn is not None and open_turn["side"] == side:
                out[open_turn["at"]] += f": {words}"
            elif opening is not None and opening[0] == side:
                out.append(f"{name(side)} {dice(opening[1])}: {words}")
            else:
                out.append(f"{name(side)}: {words}")
            open_turn = opening = None
        elif kind == "doubled":
            out.append(f"{name(side)} doubles to {event['cube']}")
        elif kind in ("taken", "dropped"):
            out.append(f"{name(side)} {'takes' if kind == 'taken' else 'drops'}")
        elif kind == "finished":
            result = event["result"]
            out.append(f"{name(result['winner'])} wins · points: {result['points']}")
        else:
            assert kind in ("step", "undo"), f"the test's sheet does not know {kind}"
    return out


def listed(visitor: Visitor) -> list[str]:
    texts = visitor.page.eval_on_selector_all("ol.log li", "lis => lis.map(l => l.textContent)")
    return list(texts)


def shows_sheet(visitor: Visitor, want: list[str]) -> None:
    """The page's move list comes to be exactly ``want`` (it may still be loading)."""
    try:
        visitor.page.wait_for_function(
            "want => JSON.stringify([...document.querySelectorAll('ol.log li')]"
            ".map(l => l.textContent)) === JSON.stringify(want)", arg=want, timeout=10_000,
        )  # fmt: skip
    except Exception:
        assert listed(visitor) == want  # says how they differ
        raise


def test_the_move_list_is_the_record_after_a_reload_and_on_a_finished_game(club):
    """Item 2: the list after a reload and on a finished game opened later equals the
    record, opening roll and the dice of every turn included; live events join it once."""
    ann, bob = club.player("annlist"), club.player("boblist")
    game = start(ann, bob, "backgammon", cube=True)
    page = club.page(ann)
    open_room(page, game)
    sockets = [ann.watch(game), bob.watch(game)]
    play(sockets, random.Random(4), 12)
    record = ann.get(f"/api/games/{game}/record").json()
    want = sheet(record, ["annlist", "boblist"])
    assert want[0].startswith("Opening roll ") and any(": " in line for line in want[1:])
    seated_at(page, record["events"][-1]["seq"])
    shows_sheet(page, want)  # heard live
    page.page.reload()
    open_room(page, game)
    shows_sheet(page, want)  # read from the record
    play(sockets, random.Random(5), 3)  # and live again after it, nothing twice
    record = ann.get(f"/api/games/{game}/record").json()
    seated_at(page, record["events"][-1]["seq"])
    shows_sheet(page, sheet(record, ["annlist", "boblist"]))
    play(sockets, random.Random(6), 5000)  # to the end
    record = ann.get(f"/api/games/{game}/record").json()
    assert record["events"][-1]["type"] == "finished"
    guest = club.page()
    open_room(guest, game)
    shows_sheet(guest, sheet(record, ["annlist", "boblist"]))


# --- item 3: every board fits the window ----------------------------------------------------

ALL_VARIANTS = ("backgammon", "short_nardy", "takhte_nard", "long_nardy", "caucasian_nardy",
                "plakoto", "russian_backgammon", "jacquet", "draughts")  # fmt: skip
IN_VIEW = """() => {
  const box = (selector) => { const r = document.querySelector(selector).getBoundingClientRect();
    return { selector, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  return ['[data-testid=board] svg', '[data-testid=player-W]', '[data-testid=player-B]'].map(box);
}"""


def test_every_board_and_both_players_rows_fit_the_window(club):
    """Item 3: at 1440x900, 1280x720 and 390x844 the board of every variant and both
    players' rows (name, clock) are inside the window without scrolling; here with the
    banner of an opponent who has left, the tallest the page above the board gets."""
    for variant in ALL_VARIANTS:
        owner = club.player(f"fit_{variant[:14]}")
        clock = "fischer 5m + 3s" if variant == "draughts" else "delay 12s + 5m"
        game = start(owner, club.player(f"fit2_{variant[:14]}"), variant, clock=clock)
        page = club.page(owner)
        open_room(page, game)
        for size, viewport in SIZES.items():
            page.page.set_viewport_size(viewport)
            page.page.reload()  # as opened at this size (and resized to it before)
            open_room(page, game)
            page.page.wait_for_selector("#banner:not([hidden])")
            outside = [
                box for box in page.page.evaluate(IN_VIEW)
                if box["top"] < 0 or box["bottom"] > viewport["height"]
                or box["left"] < 0 or box["right"] > viewport["width"]
            ]  # fmt: skip
            if variant in ("draughts", "backgammon", "long_nardy"):
                SHOTS.mkdir(exist_ok=True)
                page.page.screenshot(path=str(SHOTS / f"fit-{variant}-{size}.png"))
            assert not outside, f"{variant} at {size}: {outside}"
            assert page.page.locator("[data-testid=room] .clock").count() == 2
