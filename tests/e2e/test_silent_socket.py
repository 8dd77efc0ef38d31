"""A room whose socket goes silent opens another and catches up (channel.js's watchdog).

A socket can stay open and say nothing: a connection a network change left
half-open, or a server that stopped writing to it. The page then showed an old
position with nothing to say so. Here the server's writer for the page's socket
hangs (as it would on a stalled connection); the page's pings go unanswered, it
drops that socket, opens another with ``?v=`` and shows the move it had missed.
The page's timers run on Playwright's clock, so the test waits for no real
seconds of the watchdog's.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from club_client import GameSocket, Player
from test_club import Visitor
from test_room import Room, open_room, start

from sheshbesh.server.rounds import channel

WATCHDOG_MS = 10_000 + 15_000 + 1_000
"""channel.js's PING_EVERY + SILENT_WAIT, and the first reconnect's longest wait."""


@pytest.fixture
def players(live_club: str) -> Iterator[tuple[Player, Player]]:
    made = (Player(live_club, "quietann").register(), Player(live_club, "quietbob").register())
    yield made
    for player in made:
        player.close()


def room_v(visitor: Visitor) -> int:
    return int(visitor.page.evaluate("document.querySelector('[data-testid=room]').dataset.v"))


def until(condition: Any, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_room_whose_socket_goes_silent_reconnects_and_shows_the_missed_move(
    browser: Any, live_club: str, players: tuple[Player, Player], monkeypatch: Any
) -> None:
    ann, bob = players
    game_id = start(ann, bob, "draughts", stake=0)
    white, black = sockets_of(ann, bob, game_id)
    page = Room(browser, live_club).page(bob)  # bob's room, in his cookies
    page.page.clock.install()
    try:
        open_room(page, game_id)
        until(lambda: room_v(page) == white.v, "the room never showed the opening position")
        seen = room_v(page)

        # From now on the server's writer for the browser's socket hangs at its next batch.
        real = channel._send_batch
        stalled: list[int] = []

        async def stalls_the_browser(club, round_, socket, batch):  # type: ignore[no-untyped-def]
            if "Chrome" in socket.ws.headers.get("user-agent", "") and not stalled:
                stalled.append(batch.events[0][0])
                await asyncio.Event().wait()  # never set: cancelled when the socket goes
            await real(club, round_, socket, batch)

        monkeypatch.setattr(channel, "_send_batch", stalls_the_browser)
        rng = random.Random(3)
        white.act(rng.choice([m for m in white.legal or [] if m["type"] == "move"]))
        until(lambda: stalled == [seen + 1], "the browser's writer never reached the move")
        assert room_v(page) == seen  # silent: the page still shows the old position

        page.page.clock.run_for(WATCHDOG_MS)
        until(lambda: room_v(page) == white.v == seen + 1, "the page never caught up")
        until(lambda: page.page.locator("[data-testid=room][data-mine=true]").count() == 1,
              "bob's menu never came: he could not move")  # fmt: skip
        assert page.errors == [], page.errors
    finally:
        page.close()
        white.close()
        black.close()


def sockets_of(ann: Player, bob: Player, game_id: str) -> tuple[GameSocket, GameSocket]:
    """The players' own sockets on an opened game (White is the request's owner, DR-4)."""
    white, black = ann.watch(game_id), bob.watch(game_id)
    for sock in (white, black):
        sock.until(lambda f: f["t"] == "snapshot")
    return white, black
