"""Ending a session closes its sockets on every process (issue 16, item 8).

A probe found that after a logout, a password change or ``sheshbesh moderate
--close`` the sockets already open still acted: a thief's game socket had his
move accepted, a closed account's lobby chat was heard, ``/ws/me`` still
delivered. Here each ending, over real HTTP and WebSockets on SQLite and
PostgreSQL, must close the game socket (its move is never taken), the lobby
socket (its line is never heard) and ``/ws/me`` (nothing more reaches it), each
with 4401 after a ``session_ended`` error; the socket opened again is a guest's.

A logout and a password change happen in the server, which tells its sockets
over the bus at once. ``moderate`` runs in a process of its own, here with no
Redis to tell the server through, so its club checks a socket's session before
each action or private frame (``session_check=0``: the first one after the
close; a line of the players' room is one), and its sweep closes a socket that
only listens. The last test runs two
``sheshbesh serve`` processes on one Redis: a logout on one closes the sockets on
the other, and ``moderate --close --redis`` closes them on both.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
import test_cluster
from club_client import PASSWORD, GameSocket, Player, RunningClub, next_mover
from in_process import statements_sent
from me_socket import MeSocket, second_login
from test_chat import Lobby
from test_cluster import Node
from test_rounds import open_game
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from sheshbesh.cli import main
from sheshbesh.server.accounts.bindings import bindings_of
from sheshbesh.server.settings import Settings

ENDED = 4401
"""The close code of a socket whose session ended (docs/protocol.md)."""
ENDINGS = ["logout", "password", "close"]
NEW_PASSWORD = "a brand new password"


class Ending:
    """A club and one ending of one of its sessions: whose sockets close, who stays."""

    def __init__(self, kind: str, club: RunningClub, stack: contextlib.ExitStack) -> None:
        self.kind = kind
        self.club = club
        self.stack = stack

    def player(self, name: str) -> Player:
        made = Player(self.club.base, name).register()
        self.stack.callback(made.close)
        return made

    def doomed(self, owner: Player) -> Player:
        """The browser whose session ends: the owner's own, or for a password change a
        thief's second login (the owner's session stays, as lichess keeps it)."""
        if self.kind != "password":
            return owner
        thief = second_login(owner)
        self.stack.callback(thief.close)
        return thief

    def end(self, owner: Player, doomed: Player) -> None:
        if self.kind == "logout":
            assert doomed.post("/api/logout").status_code == 200
        elif self.kind == "password":
            changed = owner.post("/api/me/password", {"current": PASSWORD, "new": NEW_PASSWORD})
            assert changed.status_code == 200 and changed.json()["sessions_ended"] == 1
        else:
            url = self.club.settings.database_url
            assert main(["moderate", owner.name, "--close", "--db", url]) == 0


@pytest.fixture
def ending(request: pytest.FixtureRequest, club_settings: Settings) -> Iterator[Ending]:
    """A club for one ending (``request.param``). For ``close`` the club checks a session
    before every action and private frame, as no message can come from the command."""
    kind = request.param
    checks = {"session_check": 0.0} if kind == "close" else {}
    with contextlib.ExitStack() as stack:
        club = stack.enter_context(RunningClub(replace(club_settings, **checks)))
        yield Ending(kind, club, stack)


def until_closed(ws: ClientConnection, timeout: float = 15) -> tuple[list[dict[str, Any]], int]:
    """Every frame the server sends until it closes the socket, and its close code."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=timeout)))
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame"
        return frames, closed.rcvd.code


def told_ended(frames: list[dict[str, Any]]) -> bool:
    return any(f["t"] == "error" and f["d"]["error"] == "session_ended" for f in frames)


def send(ws: ClientConnection, frame: dict[str, Any]) -> None:
    """Send, unless the server closed the socket already (it may, at once)."""
    with contextlib.suppress(ConnectionClosed):
        ws.send(json.dumps(frame))


def cookies_of(player: Player) -> dict[str, str]:
    return {"Cookie": player.cookie_header}


@pytest.mark.parametrize("ending", ENDINGS, indirect=True)
def test_an_ended_sessions_game_socket_is_closed_and_its_move_never_taken(ending):
    ann, bob = ending.player("ann"), ending.player("bob")
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=0)
    mover = next_mover([a, b])
    assert mover is not None
    owner, other = (ann, b) if mover is a else (bob, a)
    doomed = ending.doomed(owner)
    sock = mover
    if doomed is not owner:  # the thief's socket, in the owner's seat
        sock = GameSocket(doomed, game_id)
        sock.until(lambda f: f["t"] == "snapshot")
    assert sock.seat == mover.seat and sock.my_turn
    move, v = (sock.legal or [])[0], sock.v

    ending.end(owner, doomed)
    send(sock.ws, {"t": "action", "v": v, "d": move})

    frames, code = until_closed(sock.ws)
    assert code == ENDED and told_ended(frames)
    assert not [f for f in frames if f["t"] in ("event", "state")], "the move was taken"
    other.round_trip()
    assert other.v == v  # nothing happened in the game

    again = doomed.watch(game_id)  # what the browser holds now logs nobody in
    again.until(lambda f: f["t"] == "snapshot")
    assert again.seat is None  # a spectator's, who may watch but never act
    assert again.act(move)["t"] == "error" and other.v == v
    if ending.kind == "password":  # the owner's own socket plays on
        assert mover.act(move)["t"] == "state"


@pytest.mark.parametrize("ending", ["close"], indirect=True)
def test_a_closed_accounts_game_socket_hears_no_more_of_the_players_room(ending):
    """Nobody tells the server of the close; the next line meant for ann checks first."""
    ann, bob = ending.player("ann"), ending.player("bob")
    _, a, b = open_game(ann, bob, variant="draughts", stake=0)
    a.round_trip()  # the chat histories are read
    ending.end(ann, ann)
    send(b.ws, {"t": "chat", "room": "players", "text": "psst"})

    frames, code = until_closed(a.ws)
    assert code == ENDED and told_ended(frames)
    assert [f for f in frames if f["t"] == "chat"] == []


@pytest.mark.parametrize("ending", ENDINGS, indirect=True)
def test_an_ended_sessions_lobby_socket_is_closed_and_its_line_never_heard(ending):
    ann, bob = ending.player("ann"), ending.player("bob")
    doomed = ending.doomed(ann)
    lobby, listener = Lobby(ending.club.base, doomed), Lobby(ending.club.base, bob)
    kept = Lobby(ending.club.base, ann) if doomed is not ann else None

    ending.end(ann, doomed)
    send(lobby.ws, {"t": "chat", "room": "lobby", "text": "still here?"})

    frames, code = until_closed(lobby.ws)
    assert code == ENDED and told_ended(frames)
    if kept is not None:  # the session that changed the password still chats
        kept.say("mine")
        assert listener.next_chat()["text"] == "mine"
    assert bob.post("/api/chat/lobby", {"text": "marker"}).status_code == 201
    assert listener.next_chat()["text"] == "marker"  # lines come in order: none came before
    history = bob.get("/api/chat/lobby/history").json()["lines"]
    assert "still here?" not in [line["text"] for line in history]
    guest = Lobby(ending.club.base, doomed)  # opened again: a guest, who may not chat
    guest.say("and now?")
    assert guest.until("error")["error"] == "login_required"
    for sock in (listener, guest, *([kept] if kept else [])):
        sock.close()


@pytest.mark.parametrize("ending", ENDINGS, indirect=True)
def test_an_ended_sessions_own_socket_is_closed_and_hears_nothing_more(ending):
    ann, bob = ending.player("ann"), ending.player("bob")
    request = bob.post("/api/friends/requests", {"username": "ann"}).json()
    doomed = ending.doomed(ann)
    me = MeSocket(doomed)
    kept = MeSocket(ann) if doomed is not ann else None

    ending.end(ann, doomed)
    # Bob takes his friend request back: ann's channel hears "unread" and "friends_changed".
    assert bob.http.delete(f"/api/friends/requests/{request['id']}").status_code == 200

    frames, code = until_closed(me.ws)
    assert code == ENDED and told_ended(frames)
    assert [f["t"] for f in frames] == ["error"], "a private frame was delivered"
    if kept is not None:  # the session that changed the password still hears it
        kept.until("friends_changed", **{"with": "bob"})
        kept.close()
    with pytest.raises(ConnectionClosed) as refused:  # and none opens again without a login
        MeSocket(doomed)
    assert refused.value.rcvd is not None and refused.value.rcvd.code == ENDED


def test_a_socket_that_only_listens_is_closed_by_the_sweep(club_settings):
    """``moderate --close`` with no Redis: nobody tells the server, and these sockets send
    nothing that would check; the sweep (here every 0.05 s) still closes all three."""
    with contextlib.ExitStack() as stack:
        club = stack.enter_context(RunningClub(replace(club_settings, session_sweep=0.05)))
        ann, bob = (stack.enter_context(contextlib.closing(Player(club.base, name).register()))
                    for name in ("ann", "bob"))  # fmt: skip
        _, a, _ = open_game(ann, bob, variant="draughts", stake=0)
        lobby, me = Lobby(club.base, ann), MeSocket(ann)
        assert main(["moderate", "ann", "--close", "--db", club.settings.database_url]) == 0
        for ws in (a.ws, lobby.ws, me.ws):
            frames, code = until_closed(ws)
            assert code == ENDED and told_ended(frames)


# --- two processes ------------------------------------------------------------------------------

nodes = test_cluster.nodes
"""Two ``sheshbesh serve`` processes on one PostgreSQL and one Redis (the cluster tests')."""


def test_a_session_ended_on_one_process_closes_its_sockets_on_another(
    nodes: tuple[Node, Node], postgres_url: str, redis_url: str
) -> None:
    """Ann logs out on process 1: her sockets on process 2 close. Then the operator closes
    Bob's account with ``moderate --redis``: his sockets on both processes close at once
    (the nodes check sessions only every 5 s before an action and sweep every 60 s)."""
    one, two = nodes
    with contextlib.ExitStack() as stack:
        ann, bob = Player(one.base, "ann").register(), Player(two.base, "bob").register()
        for player in (ann, bob):
            stack.callback(player.close)
        game = bob.accept(ann.offer(variant="draughts", stake=0)["id"])

        def open_(player: Player, node: Node, path: str) -> ClientConnection:
            url = node.base.replace("http://", "ws://") + path
            ws = stack.enter_context(
                connect(url, additional_headers=cookies_of(player), close_timeout=2)
            )
            first = json.loads(ws.recv(timeout=15))
            assert first["t"] in ("hello", "lobby"), first
            return ws

        paths = ["/ws/me", "/ws/lobby", f"/ws/game/{game['id']}"]
        anns = [open_(ann, two, path) for path in paths]
        bobs = [open_(bob, node, path) for node in (one, two) for path in paths]

        assert ann.post("/api/logout").status_code == 200  # on process 1
        for ws in anns:
            frames, code = until_closed(ws)
            assert code == ENDED and told_ended(frames)

        closing = ["moderate", "bob", "--close", "--db", postgres_url, "--redis", redis_url]
        assert main(closing) == 0
        for ws in bobs:
            frames, code = until_closed(ws)
            assert code == ENDED and told_ended(frames)


def test_the_sockets_due_for_a_session_check_are_checked_in_one_query(club, new_player):
    """At 1 000 sockets each checked every 5 s, one query per socket was 200 a second
    (``bench/load.py``). A socket whose check is due checks, in the same query, every
    other socket here due within half a period."""
    host = club.app.state.club
    players = [new_player(f"page{i}") for i in range(6)]
    pages = [MeSocket(player) for player in players]
    bound = bindings_of(host)
    everyone = [b for held in list(bound.by_user.values()) for b in held]
    assert len(everyone) == 6
    for binding in everyone:  # all due now, as if their last checks were long ago
        binding.valid_until = -math.inf
    with statements_sent(host.db) as sent:
        players[0].offer(variant="backgammon", stake=5, opponent="page1")
        pages[1].until("notification")  # his own frame: his socket checked its session first
    assert len([statement for statement in sent if "FROM sessions" in statement]) == 1
    assert all(b.valid_until > 0 and not b.ended for b in everyone)
    for page in pages:
        page.close()
