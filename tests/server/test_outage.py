"""A club that was down gives its live games the time back (``rounds.outage``).

While every process is down nobody can act, so the clock of the player to move and the
grace of an absent player stand still: a restart charges neither for the outage (before,
the player to move lost the whole outage from his reserve, and after a long one was
forfeited the moment the club came back), and gives nobody already away a new grace.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from club_client import OPEN_DOORS, UNTHROTTLED, GameSocket, Player, RunningClub, ServerProcess
from test_rounds import open_game

from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database
from sheshbesh.store.models import Node

START = 1_800_000_000.0


class Clock:
    """The club's time, moved on by the test."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> float:
        return self.at


def logged_in(base: str, name: str) -> Player:
    player = Player(base, name)
    assert player.post("/api/login", {"username": name, "password": "correct horse battery"})
    return player


def snapshot(player: Player, game_id: str) -> dict[str, Any]:
    sock = player.watch(game_id)
    return sock.until(lambda f: f["t"] == "snapshot")["d"]


def bob_to_move(base: str) -> tuple[Player, Player, str, GameSocket, GameSocket]:
    """Ann and Bob at a new draughts game (Fischer, a minute each), Ann has moved: Bob's
    minute runs. The players, the game and their sockets."""
    ann, bob = Player(base, "ann").register(), Player(base, "bob").register()
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=100,
                              clock="fischer 1m + 0s")  # fmt: skip
    move = next(m for m in a.legal or [] if m["type"] == "move")
    assert a.act(move)["t"] == "state"
    b.settle(a.v)
    return ann, bob, game_id, a, b


def test_an_hour_down_costs_the_player_to_move_nothing(club_settings: Settings) -> None:
    clock = Clock()
    with RunningClub(club_settings, now=clock) as club:
        ann, bob, game_id, a, b = bob_to_move(club.base)
        clock.at += 20  # Bob thinks for 20 s
        a.close()  # Ann leaves: her grace runs from here
        b.until(lambda f: f["t"] == "presence" and not f["d"]["online"])
        clock.at += 30  # 30 s of her grace gone, 50 s of Bob's minute
        before = snapshot(bob, game_id)
        ann.close()
        bob.close()
    assert before["clock"]["black"] == 10.0 and before["clock"]["running"] == 1
    grace = club_settings.abandon_grace
    clock.at += 3600  # the club is down for an hour
    with RunningClub(club_settings, now=clock) as club:
        ann, bob = logged_in(club.base, "ann"), logged_in(club.base, "bob")
        after = snapshot(bob, game_id)
        assert after["state"]["result"] is None, (after["state"]["result"], after["clock"])
        assert after["clock"] == before["clock"]  # Bob has his 10 s still
        away = after["presence"][0]
        assert not away["online"] and away["deadline"] - clock.at == grace - 30
        move = next(m for m in bob.sockets[-1].legal or [] if m["type"] == "move")
        assert bob.sockets[-1].act(move)["t"] == "state"
        ann.close()
        bob.close()


def test_a_restart_while_another_process_is_alive_credits_nothing(postgres_url: str) -> None:
    """On PostgreSQL a process that starts while another says it is alive credits
    nothing: the club was up, and its games' clocks ran."""
    settings = Settings(database_url=postgres_url, password_profile="fast", **OPEN_DOORS,
                        **UNTHROTTLED)  # fmt: skip
    clock = Clock()
    with RunningClub(settings, now=clock) as club:
        ann, bob, game_id, _, _ = bob_to_move(club.base)
        ann.close()
        bob.close()
    clock.at += 30
    asyncio.run(another_process_alive(postgres_url, clock.at - 1))
    with RunningClub(settings, now=clock) as club:
        bob = logged_in(club.base, "bob")
        assert snapshot(bob, game_id)["clock"]["black"] == 30.0
        bob.close()


async def another_process_alive(url: str, seen_at: float) -> None:
    db = Database(url)
    try:
        async with db.transaction() as session:
            session.add(Node(node="other", seen_at=seen_at))
    finally:
        await db.close()


def test_a_killed_club_charges_the_player_to_move_nothing_for_its_outage(
    club_settings: Settings,
) -> None:
    """SIGKILL: no stop mark, so the outage runs from the last heartbeat."""
    server = ServerProcess(club_settings.database_url, SHESHBESH_NODE_HEARTBEAT="0.2").start()
    try:
        ann, bob, game_id, _, _ = bob_to_move(server.base)
        seen = time.monotonic()
        left = snapshot(bob, game_id)["clock"]["black"]
        server.kill()
        killed = time.monotonic()
        while time.monotonic() < killed + 8:  # the club is down for 8 s
            time.sleep(0.1)
        server.start()
        back = GameSocket(bob, game_id).until(lambda f: f["t"] == "snapshot")["d"]
        uncredited = time.monotonic() - seen - 8  # what the test spent beside the outage
        assert back["state"]["result"] is None
        assert left - uncredited - 0.01 <= back["clock"]["black"] <= left + 0.2
        assert "the club was down for" in server.output()
        ann.close()
        bob.close()
    finally:
        server.stop()
