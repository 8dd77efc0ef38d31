"""The lobby socket shows requests and "now playing" live; sockets refuse other sites."""

from __future__ import annotations

import json

import pytest
from club_client import next_mover
from test_rounds import open_game
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect


def lobby(base: str, cookies: str = "", origin: str | None = None):
    headers = {"Cookie": cookies} if cookies else {}
    if origin:
        headers["Origin"] = origin
    return connect(base.replace("http", "ws") + "/ws/lobby", additional_headers=headers,
                   close_timeout=2)  # fmt: skip


def next_of(ws, kind: str) -> dict:
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame["t"] == kind:
            return frame["d"]


def test_requests_and_live_games_arrive_as_they_happen(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    with lobby(club.base) as watcher:
        hello = next_of(watcher, "lobby")
        assert hello == {"requests": [], "games": [], "online": 0, "you": None}
        offer = ann.offer(variant="backgammon", stake=5, cube=True)
        assert next_of(watcher, "request_added")["id"] == offer["id"]
        game = bob.accept(offer["id"])
        assert next_of(watcher, "request_removed")["id"] == offer["id"]
        started = next_of(watcher, "game_started")
        assert started["id"] == game["id"] and started["stake"] == 5
        assert [p["username"] for p in started["players"]] == ["ann", "bob"]
        sockets = [ann.watch(game["id"]), bob.watch(game["id"])]
        resigner = next_mover(sockets)
        assert resigner is not None
        assert resigner.act({"type": "resign", "level": 1})["t"] == "state"
        answer = next_mover(sockets)
        assert answer is not None and answer is not resigner
        answer.act({"type": "accept_resign"})
        assert next_of(watcher, "game_finished")["id"] == game["id"]


def test_a_player_hears_his_own_request_accepted(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    cookies = ann.cookie_header
    with lobby(club.base, cookies) as own:
        assert next_of(own, "lobby")["you"]["username"] == "ann"
        offer = ann.offer(variant="draughts", stake=0)
        bob.accept(offer["id"])
        started = next_of(own, "game_started")
        assert started["players"][1]["username"] == "bob"


def test_sockets_from_another_site_are_refused(club, new_player):
    """No cross-site WebSocket hijacking: the cookie alone does not open a socket."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _, _ = open_game(ann, bob, variant="draughts", stake=0)
    cookies = ann.cookie_header
    with pytest.raises(InvalidStatus):
        lobby(club.base, cookies, origin="https://evil.example")
    url = club.base.replace("http", "ws") + f"/ws/game/{game_id}"
    with pytest.raises(InvalidStatus):
        connect(url, additional_headers={"Cookie": cookies, "Origin": "https://evil.example"})
    same = club.base
    with connect(url, additional_headers={"Cookie": cookies, "Origin": same}) as ok:
        assert json.loads(ok.recv(timeout=10))["t"] == "hello"
