"""One client must never hurt another (issue 16, item 1): floods over real sockets.

The club here runs its real frame budgets (the other tests lift them to play at
machine speed). A flood of pings, bad frames or stale actions on one socket gets
one ``rate_limited`` error, then the socket is closed with 4429, while a
bystander's HTTP request and socket are still answered; a flood of syncs from
``v=0`` gets snapshots, a few a second; an address may hold only so many
sockets; spectators joining at once cost the lobby one frame per window, not one
each. The tests assert what happens, never how long it took (``bench/abuse.py``
measures that).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from typing import Any

import pytest
from club_client import GameSocket, Player, RunningClub, next_mover
from in_process import statements_sent
from me_socket import MeSocket
from test_lobby_socket import lobby, next_of
from test_rounds import open_game
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from sheshbesh.server.limits import CLOSE_CODE
from sheshbesh.server.rounds import channel, spectate
from sheshbesh.server.settings import Settings

LIMITS = ("frame_rate", "frame_burst", "frame_strikes", "sockets_per_address",
          "socket_open_rate", "socket_open_burst")  # fmt: skip
REAL = {f.name: getattr(Settings(), f.name) for f in fields(Settings) if f.name in LIMITS}
FLOOD = 1000
"""Frames a flooder sends: far more than a burst and the strikes before a close."""


@pytest.fixture
def guarded(club_settings: Settings) -> Iterator[Callable[..., tuple[RunningClub, Any]]]:
    """Start a club with the real limits (or these overrides); and its players' factory."""
    with contextlib.ExitStack() as stack:

        def start(**overrides: Any) -> tuple[RunningClub, Callable[[str], Player]]:
            settings = replace(club_settings, **(REAL | overrides))
            club = stack.enter_context(RunningClub(settings))

            def player(name: str) -> Player:
                made = Player(club.base, name).register()
                stack.callback(made.close)
                return made

            return club, player

        yield start


def flood(ws: Any, frames: list[str]) -> None:
    """Send every frame as fast as the socket takes them (the server may close it midway)."""
    with contextlib.suppress(ConnectionClosed, OSError):
        for text in frames:
            ws.send(text)


def until_closed(ws: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Every frame the server sends until it closes the socket, and its close code."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=30)))
    except ConnectionClosed as closed:
        return frames, None if closed.rcvd is None else closed.rcvd.code


def errors(frames: list[dict[str, Any]], code: str) -> list[dict[str, Any]]:
    return [f["d"] for f in frames if f["t"] == "error" and f["d"]["error"] == code]


def bystander_is_answered(player: Player, sock: GameSocket) -> None:
    assert player.get("/api/games/live").status_code == 200
    sock.send({"t": "ping"})
    sock.until(lambda f: f["t"] == "pong")


def test_a_ping_flood_is_throttled_then_closed_and_bystanders_are_answered(guarded):
    club, player = guarded()
    ann, bob = player("ann"), player("bob")
    game_id, a, _ = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    flooder = GameSocket(None, game_id, base=club.base)  # a spectator: no login needed
    flooder.until(lambda f: f["t"] == "snapshot")
    flood(flooder.ws, ['{"t":"ping"}'] * FLOOD)
    bystander_is_answered(ann, a)
    frames, code = until_closed(flooder.ws)
    assert code == CLOSE_CODE
    pongs = [f for f in frames if f["t"] == "pong"]
    assert 0 < len(pongs) < FLOOD - REAL["frame_strikes"]  # throttled: most were dropped
    limited = errors(frames, "rate_limited")
    assert 1 <= len(limited) < 10, limited  # said once (a second), not once per frame
    assert limited[0]["retry"] >= 0 and "20 frames a second" in limited[0]["message"]
    bystander_is_answered(ann, a)


def test_bad_frames_and_stale_actions_floods_are_closed_and_the_game_goes_on(guarded):
    _, player = guarded()
    ann, bob = player("ann"), player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    mover, other = (a, b) if a.my_turn else (b, a)
    stale = json.dumps({"t": "action", "v": 0, "d": {"type": "double"}})
    flood(other.ws, ["not json", stale] * (FLOOD // 2))
    frames, code = until_closed(other.ws)
    assert code == CLOSE_CODE
    refused = errors(frames, "bad_frame") + errors(frames, "stale")
    assert 0 < len(refused) < FLOOD - REAL["frame_strikes"]
    assert errors(frames, "rate_limited")
    assert not errors(frames, "internal")
    # The flooder's opponent still plays: his action is taken and answered.
    move = next(m for m in mover.legal or [] if m["type"] in ("move", "roll"))
    assert mover.act(move)["t"] == "state"


def test_syncs_from_zero_get_snapshots_a_few_a_second(guarded, monkeypatch):
    monkeypatch.setattr(channel, "SNAPSHOT_AFTER", 2)
    club, player = guarded()
    ann, bob = player("ann"), player("bob")
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=0)
    for _ in range(4):  # four plies: v=0 is now further behind than SNAPSHOT_AFTER
        mover = next_mover([a, b])
        assert mover is not None
        mover.act(next(m for m in mover.legal or [] if m["type"] == "move"))
    watcher = GameSocket(None, game_id, base=club.base)
    current = watcher.until(lambda f: f["t"] == "snapshot")["v"]
    watcher.send({"t": "sync", "v": current - 1})  # near: the missed event, then the state
    watcher.until(lambda f: f["t"] == "state")
    assert [e["seq"] for e in watcher.events] == [current]
    start = len(watcher.frames)
    for _ in range(10):
        watcher.ws.send(json.dumps({"t": "sync", "v": 0}))
    watcher.send({"t": "ping"})
    watcher.until(lambda f: f["t"] == "pong")
    answered = watcher.frames[start:]
    snapshots = [f for f in answered if f["t"] == "snapshot"]
    assert 1 <= len(snapshots) <= 4, [f["t"] for f in answered]  # the burst, not ten
    assert {f["v"] for f in snapshots} == {current}
    assert not [f for f in answered if f["t"] == "event"]  # never the whole log again
    limited = [f["d"] for f in answered if f["t"] == "error"]
    assert limited and {e["error"] for e in limited} == {"rate_limited"}
    assert limited[0]["re"] == "sync"


def test_an_address_holds_only_so_many_sockets(guarded):
    club, player = guarded(sockets_per_address=4)
    ann, bob = player("ann"), player("bob")
    game_id, a, _ = open_game(ann, bob, variant="draughts", stake=0)  # two game sockets
    cookies = ann.cookie_header
    with contextlib.ExitStack() as stack:
        stack.enter_context(MeSocket(ann).ws)
        first = stack.enter_context(lobby(club.base, cookies))
        next_of(first, "lobby")
        refused = stack.enter_context(lobby(club.base))
        frames, code = until_closed(refused)
        assert code == CLOSE_CODE
        assert [f["d"]["error"] for f in frames] == ["too_many_sockets"]
        assert "at most 4" in frames[0]["d"]["message"]
        watcher = GameSocket(None, game_id, base=club.base)
        frames, code = until_closed(watcher.ws)
        assert code == CLOSE_CODE and frames[0]["d"]["error"] == "too_many_sockets"
        assert ann.get("/api/games/live").status_code == 200  # HTTP is not counted
        a.send({"t": "ping"})
        a.until(lambda f: f["t"] == "pong")
    # The three closed: room again (once the server has seen them go).
    deadline = time.monotonic() + 20
    while True:
        with contextlib.suppress(InvalidStatus), lobby(club.base) as again:
            if json.loads(again.recv(timeout=10))["t"] == "lobby":
                break
        assert time.monotonic() < deadline, "the closed sockets were never released"


def test_an_address_opening_sockets_in_a_loop_is_refused_before_the_handshake(guarded):
    """Refused before its session is even read: a loop of refusals costs the database
    nothing, whichever socket it opens."""
    club, player = guarded(socket_open_rate=0.001, socket_open_burst=3)
    ann = player("ann")
    cookies = ann.cookie_header
    with contextlib.ExitStack() as stack:
        for _ in range(3):
            next_of(stack.enter_context(lobby(club.base)), "lobby")
        with statements_sent(club.app.state.club.db) as sent:
            for path in ("/ws/lobby", "/ws/me", "/ws/game/nosuchgame"):
                with pytest.raises(InvalidStatus) as refused:
                    connect(club.base.replace("http", "ws") + path,
                            additional_headers={"Cookie": cookies})  # fmt: skip
                response = refused.value.response
                assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
                assert json.loads(response.body)["error"] == "rate_limited"
        assert [s for s in sent if "sessions.token_hash" in s] == []  # (the lobbies' chat is read)
        assert ann.get("/api/me").status_code == 200


@pytest.mark.parametrize("kind", ["lobby", "me"])
def test_lobby_and_me_socket_floods_are_closed(guarded, kind):
    club, player = guarded()
    ann = player("ann")
    with contextlib.ExitStack() as stack:
        if kind == "me":
            ws = stack.enter_context(MeSocket(ann).ws)
        else:
            ws = stack.enter_context(lobby(club.base))
            next_of(ws, "lobby")
        flood(ws, ['{"t":"ping"}'] * FLOOD)
        frames, code = until_closed(ws)
    assert code == CLOSE_CODE
    assert errors(frames, "rate_limited")
    assert 0 < len([f for f in frames if f["t"] == "pong"]) < FLOOD - REAL["frame_strikes"]
    assert ann.get("/api/me").status_code == 200


def test_spectators_joining_at_once_cost_the_lobby_one_frame_per_window(guarded, monkeypatch):
    monkeypatch.setattr(spectate, "WINDOW", 2.0)
    club, player = guarded()
    ann, bob = player("ann"), player("bob")
    game_id, _, _ = open_game(ann, bob, variant="draughts", stake=0)
    crowd = 12
    with lobby(club.base) as listener:
        next_of(listener, "lobby")
        watchers = [GameSocket(None, game_id, base=club.base) for _ in range(crowd)]
        counts = []
        while not counts or counts[-1] < crowd:
            update = next_of(listener, "game_updated")
            if update["id"] == game_id:
                counts.append(update["spectators"])
        assert len(counts) <= 4, counts  # the first at once, the rest summed per window
        assert counts[0] >= 1 and counts[-1] == crowd
        for watcher in watchers:
            watcher.close()
