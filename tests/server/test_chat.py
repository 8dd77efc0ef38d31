"""Chat over real WebSockets and HTTP: who reads and writes which room, limits, floods,
mutes, blocks, histories, raw text, the lobby, and two processes over Redis.

A room's lines reach a socket in the order they were said, so "X did not get
the line" is checked by saying a later line that X does get and seeing it come
first: nothing is waited for by sleeping.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from club_client import GameSocket, Player, RunningClub, at_once, next_mover
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds import open_game
from websockets.sync.client import ClientConnection, connect

from sheshbesh.server.chat import rooms as chat
from sheshbesh.server.chat.flood import ALL_ROOMS_LINES, MUTE_FOR, RATE_LINES, Flood, TooFast
from sheshbesh.server.chat.rooms import HISTORY, MAX_LENGTH
from sheshbesh.server.settings import Settings

SCRIPT = "<script>alert(1)</script>"
ROOMS = ["players", "spectators", "lobby"]


def say(sock: GameSocket, room: str, text: Any) -> None:
    sock.send({"t": "chat", "room": room, "text": text})


def next_chat(sock: GameSocket) -> dict[str, Any]:
    return sock.until(lambda f: f["t"] == "chat")["d"]


def refusal(sock: GameSocket) -> dict[str, Any]:
    frame = sock.until(lambda f: f["t"] in ("error", "chat"))
    assert frame["t"] == "error", frame
    return dict(frame["d"])


def histories(sock: GameSocket, count: int | None = None) -> dict[str, list[dict[str, Any]]]:
    """The histories a socket got on opening, once all ``count`` of them have come.

    They come after the snapshot and before any live line, and a line said while the
    socket opens comes once: in a history or live after them. So a test says its first
    line only after this, and reading up to here never swallows a live line.
    """
    if count is None:
        count = len(chat.readable(sock.seat is not None, not sock.finished))

    def found() -> list[dict[str, Any]]:
        return [f["d"] for f in sock.frames if f["t"] == "chat_history"]

    while len(found()) < count:
        sock.recv()
    return {data["room"]: data["lines"] for data in found()}


def texts(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines]


def watch(player: Player | None, game_id: str, base: str) -> GameSocket:
    sock = GameSocket(player, game_id, base=base)
    sock.until(lambda f: f["t"] == "snapshot")
    histories(sock)
    return sock


def chat_game(owner: Player, taker: Player) -> tuple[str, GameSocket, GameSocket]:
    """A live draughts game whose two sockets have their histories: ready to chat."""
    game_id, a, b = open_game(owner, taker, variant="draughts", stake=0)
    for sock in (a, b):
        histories(sock)
    return game_id, a, b


class Lobby:
    """A lobby socket (``/ws/lobby``) with a player's cookies, or a guest's."""

    def __init__(self, base: str, player: Player | None = None) -> None:
        cookies = player.cookie_header if player else ""
        url = base.replace("http", "ws") + "/ws/lobby"
        opening = connect(
            url, additional_headers={"Cookie": cookies} if cookies else {}, close_timeout=2
        )
        self.ws: ClientConnection = opening.__enter__()
        self.history = self.until("chat_history")["lines"]

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = json.loads(self.ws.recv(timeout=10))
            if frame["t"] == kind:
                return dict(frame.get("d") or {})

    def say(self, text: Any) -> None:
        self.ws.send(json.dumps({"t": "chat", "room": "lobby", "text": text}))

    def next_chat(self) -> dict[str, Any]:
        return self.until("chat")

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def game(club: RunningClub, new_player: Any) -> Iterator[dict[str, Any]]:
    """Ann and Bob playing draughts, Carl (logged in) and a guest watching."""
    ann, bob, carl = new_player("ann"), new_player("bob"), new_player("carl")
    game_id, a, b = chat_game(ann, bob)
    c, guest = watch(carl, game_id, club.base), watch(None, game_id, club.base)
    yield {"id": game_id, "ann": ann, "bob": bob, "carl": carl, "a": a, "b": b, "c": c,
           "guest": guest}  # fmt: skip
    guest.close()


# --- who reads and writes which room -------------------------------------------------------


def test_each_socket_gets_the_histories_of_the_rooms_it_reads(game):
    assert histories(game["a"], 1) == {"players": []}
    assert histories(game["c"], 1) == {"spectators": []}
    assert histories(game["guest"], 1) == {"spectators": []}


def test_the_players_room_reaches_only_the_two_players(game):
    a, b, c, guest = game["a"], game["b"], game["c"], game["guest"]
    say(a, "players", "gl hf")
    for sock in (a, b):
        line = next_chat(sock)
        assert line["room"] == "players" and line["text"] == "gl hf"
        assert line["user"]["username"] == "ann" and line["id"] and line["at"]
    say(c, "spectators", "nice opening")
    for sock in (c, guest):  # the players' line never came before this one
        assert next_chat(sock)["text"] == "nice opening"


def test_the_crowd_is_not_heard_by_the_players_while_the_game_is_live(game):
    a, b, c, guest = game["a"], game["b"], game["c"], game["guest"]
    say(c, "spectators", "bob should play 32-28")
    assert next_chat(guest)["text"] == "bob should play 32-28"
    say(b, "players", "hm")
    for sock in (a, b):
        assert next_chat(sock)["text"] == "hm"
    spectators = f"/api/chat/game:{game['id']}:spectators/history"
    assert game["ann"].get(spectators).json()["error"] == "chat_forbidden"
    assert texts(game["carl"].get(spectators).json()["lines"]) == ["bob should play 32-28"]
    players = f"/api/chat/game:{game['id']}:players/history"
    assert game["carl"].get(players).status_code == 403
    assert texts(game["bob"].get(players).json()["lines"]) == ["hm"]


def test_a_spectator_cannot_write_to_the_players_nor_a_player_to_the_crowd(game):
    a, c, guest = game["a"], game["c"], game["guest"]
    say(c, "players", "psst")
    assert refusal(c)["error"] == "chat_forbidden"
    say(a, "spectators", "hello crowd")
    assert refusal(a) | {"message": ""} == {"error": "chat_forbidden", "message": "", "re": "chat"}
    say(guest, "spectators", "a guest")
    assert refusal(guest)["error"] == "login_required"
    say(a, "kitchen", "hi")
    assert refusal(a)["error"] == "bad_frame"
    assert game["ann"].get(f"/api/chat/game:{game['id']}:players/history").json()["lines"] == []


def test_after_the_game_the_players_read_and_join_the_spectators_room(game):
    a, b, c = game["a"], game["b"], game["c"]
    say(c, "spectators", "during")
    assert next_chat(c)["text"] == "during"
    mover = next_mover([a, b])
    assert mover is not None and mover.act({"type": "resign"})["t"] == "state"
    say(c, "spectators", "gg both")
    assert next_chat(a)["text"] == "gg both"  # live lines reach the players now
    say(a, "spectators", "thanks")
    assert [next_chat(c)["text"] for _ in range(2)] == ["gg both", "thanks"]
    back = watch(game["bob"], game["id"], game["carl"].base)
    found = histories(back, 2)
    assert texts(found["spectators"]) == ["during", "gg both", "thanks"]
    assert found["players"] == []


# --- what a line may be ----------------------------------------------------------------


def test_empty_too_long_and_malformed_lines_are_refused_and_nothing_is_stored(game):
    a = game["a"]
    for text, code in [
        ("", "chat_empty"),
        ("  \n\t ", "chat_empty"),
        ("x" * (MAX_LENGTH + 1), "chat_too_long"),
        (5, "bad_frame"),
        (None, "bad_frame"),
        (["hi"], "bad_frame"),
        ("hi \ud800", "bad_frame"),  # a lone surrogate: no database can store it
    ]:
        say(a, "players", text)
        assert refusal(a)["error"] == code, text
    a.send({"t": "chat", "room": 7, "text": "hi"})
    assert refusal(a)["error"] == "bad_frame"
    a.send(json.dumps({"t": "chat", "room": "players", "text": "y" * 5000}))
    assert refusal(a)["error"] == "bad_frame"  # over the frame limit
    say(a, "players", "  " + "z" * MAX_LENGTH + "  ")  # trimmed, it fits
    assert next_chat(a)["text"] == "z" * MAX_LENGTH
    lines = game["ann"].get(f"/api/chat/game:{game['id']}:players/history").json()["lines"]
    assert texts(lines) == ["z" * MAX_LENGTH]


def test_markup_is_stored_and_sent_as_the_raw_text_it_was(game):
    """Escaping is the client's (a text node); the server neither strips nor encodes."""
    a, b = game["a"], game["b"]
    say(a, "players", SCRIPT)
    assert next_chat(b)["text"] == SCRIPT
    raw = b.frames[-1]
    assert raw["d"]["text"] == SCRIPT
    lines = game["bob"].get(f"/api/chat/game:{game['id']}:players/history").json()["lines"]
    assert texts(lines) == [SCRIPT]
    say(a, "players", "line\nbreak\x00")
    assert next_chat(b)["text"] == "line break"


# --- floods and mutes ----------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clocked(club_settings: Settings) -> Iterator[tuple[RunningClub, Clock]]:
    clock = Clock()
    with RunningClub(club_settings, now=clock) as running:
        yield running, clock


def test_flooding_is_rate_limited_then_muted_and_the_mute_is_stored(clocked):
    running, clock = clocked
    ann, bob = Player(running.base, "ann").register(), Player(running.base, "bob").register()
    game_id, a, b = chat_game(ann, bob)
    for n in range(RATE_LINES):
        say(a, "players", f"line {n}")
        assert next_chat(a)["text"] == next_chat(b)["text"] == f"line {n}"
    say(a, "players", "one too many")
    limited = refusal(a)
    assert limited["error"] == "chat_rate_limited" and limited["retry"] == 10
    clock.at += 11
    say(a, "players", "line 4")
    assert refusal(a)["error"] == "chat_repeated"
    say(a, "players", "LINE   4")  # the same line, shouted
    muted = refusal(a)
    assert muted["error"] == "chat_muted" and muted["until"] == clock.at + MUTE_FOR
    a.close()
    again = watch(ann, game_id, running.base)
    say(again, "players", "let me talk")
    assert refusal(again)["error"] == "chat_muted"
    lobby = ann.post("/api/chat/lobby", {"text": "anyone?"})
    assert lobby.status_code == 403 and lobby.json()["error"] == "chat_muted"
    clock.at += MUTE_FOR + 1
    say(again, "players", "sorry")
    assert next_chat(b)["text"] == "sorry"
    http = ann.post("/api/chat/lobby", {"text": "x"})
    assert http.status_code == 201
    for n in range(RATE_LINES):
        ann.post("/api/chat/lobby", {"text": f"spam {n}"})
    limited = ann.post("/api/chat/lobby", {"text": "spam again"})
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "10"
    assert limited.json()["error"] == "chat_rate_limited"
    for sock in (a, b, again):
        sock.close()
    ann.close()
    bob.close()


def test_lines_sent_at_once_each_count_those_before_them(club, new_player):
    """Thirty lobby lines posted at the same moment: five are stored, as one at a time."""
    ann = new_player("ann")
    codes = at_once([
        lambda n=n: ann.post("/api/chat/lobby", {"text": f"line number {n}"}).status_code
        for n in range(30)
    ])  # fmt: skip
    assert codes.count(201) == RATE_LINES
    assert len(ann.get("/api/chat/lobby/history").json()["lines"]) == RATE_LINES


def test_a_users_lines_in_all_rooms_together_are_limited():
    """Five lines every ten seconds in each of a thousand spectators' rooms would never be
    refused; in all rooms together a user says at most ALL_ROOMS_LINES in the window."""
    flood = Flood()
    for n in range(ALL_ROOMS_LINES):
        flood.check(1, f"game:g{n}:spectators", "gg", now=100.0)
        flood.record(1, f"game:g{n}:spectators", "gg", now=100.0)
    with pytest.raises(TooFast, match="in all rooms; wait 10 s"):
        flood.check(1, "game:another:spectators", "gg", now=100.0)
    flood.check(2, "game:another:spectators", "gg", now=100.0)  # another user is not held
    flood.check(1, "game:another:spectators", "gg", now=110.5)  # nor this one, later


# --- blocks ----------------------------------------------------------------------------------


def test_a_blocked_players_lines_never_reach_the_blocker_live_or_in_history(club, new_player):
    ann, bob, carl = new_player("ann"), new_player("bob"), new_player("carl")
    game_id, a, b = chat_game(ann, bob)
    ann_lobby, carl_lobby = Lobby(club.base, ann), Lobby(club.base, carl)
    bob.post("/api/chat/lobby", {"text": "before the block"})
    assert ann_lobby.next_chat()["text"] == "before the block"
    assert ann.post("/api/blocks", {"username": "bob"}).status_code == 201
    bob.post("/api/chat/lobby", {"text": "after the block"})
    carl.post("/api/chat/lobby", {"text": "carl here"})
    assert ann_lobby.next_chat()["text"] == "carl here"  # bob's line was skipped
    assert [carl_lobby.next_chat()["text"] for _ in range(3)] == [
        "before the block",
        "after the block",
        "carl here",
    ]
    assert texts(ann.get("/api/chat/lobby/history").json()["lines"]) == ["carl here"]
    again, carls = Lobby(club.base, ann), Lobby(club.base, carl)
    assert texts(again.history) == ["carl here"]
    assert texts(carls.history) == ["before the block", "after the block", "carl here"]
    # The game's room too: bob's lines are hidden from ann, live and in her history.
    say(b, "players", "you there?")
    assert next_chat(b)["text"] == "you there?"
    say(a, "players", "gl")
    assert next_chat(a)["text"] == "gl"
    assert texts(histories(watch(ann, game_id, club.base), 1)["players"]) == ["gl"]
    assert texts(histories(watch(bob, game_id, club.base), 1)["players"]) == ["you there?", "gl"]
    assert ann.http.delete("/api/blocks/bob").status_code == 200
    say(b, "players", "unblocked")
    assert next_chat(a)["text"] == "unblocked"
    for sock in (ann_lobby, carl_lobby, again, carls):
        sock.close()


# --- histories and the lobby ----------------------------------------------------------------


def test_a_reconnecting_socket_gets_the_last_lines_again(game):
    a, b = game["a"], game["b"]
    for n in range(3):
        say(a, "players", f"move {n}")
        next_chat(b)
    seen = b.v
    b.close()
    back = game["bob"].watch(game["id"], since=seen)
    found = histories(back, 1)
    assert texts(found["players"]) == ["move 0", "move 1", "move 2"]
    assert [line["id"] for line in found["players"]] == sorted(
        line["id"] for line in found["players"]
    )


def test_the_history_keeps_the_last_lines(clocked):
    running, clock = clocked
    ann = Player(running.base, "ann").register()
    for n in range(HISTORY + 4):
        clock.at += 3  # within the rate limit
        response = ann.post("/api/chat/lobby", {"text": f"n{n}"})
        assert response.status_code == 201, response.text
    guest = Lobby(running.base)
    assert texts(guest.history) == [f"n{n}" for n in range(4, HISTORY + 4)]
    guest.close()
    ann.close()


def test_the_lobby_chat_over_its_socket_and_http(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    guest, own = Lobby(club.base), Lobby(club.base, ann)
    assert guest.history == []
    own.say("hello lobby")
    line = guest.next_chat()
    assert line["text"] == "hello lobby" and line["room"] == "lobby"
    assert own.next_chat()["id"] == line["id"]
    guest.say("a guest")
    assert guest.until("error")["error"] == "login_required"
    own.ws.send('{"t": "chat", "text": 3}')
    assert own.until("error")["error"] == "bad_frame"
    own.ws.send('{"t": "ping"}')
    own.until("pong")
    posted = bob.post("/api/chat/lobby", {"text": SCRIPT})
    assert posted.status_code == 201 and posted.json()["text"] == SCRIPT
    assert guest.next_chat()["text"] == SCRIPT
    no_csrf = Player(club.base, "x")
    no_csrf.http.cookies.update(bob.http.cookies)
    del no_csrf.http.headers["X-CSRF-Token"]
    assert no_csrf.http.post("/api/chat/lobby", json={"text": "hi"}).status_code == 403
    assert ann.get("/api/chat/nowhere/history").status_code == 404
    assert ann.get("/api/chat/game:nosuch:players/history").status_code == 404
    for sock in (guest, own):
        sock.close()
    no_csrf.close()


# --- malformed frames ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    room=st.none() | st.integers() | st.text(max_size=25) | st.sampled_from(ROOMS),
    text=st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=200)
    | st.lists(st.text(max_size=3), max_size=2)
    | st.dictionaries(st.text(max_size=3), st.integers()),
)  # fmt: skip
def test_fuzzed_chat_frames_get_an_answer_and_break_nothing(chat_fuzz, room, text):
    for sock in chat_fuzz:
        sock.send({"t": "chat", "room": room, "text": text})
        sock.send({"t": "ping"})
        sock.until(lambda f: f["t"] == "pong")
        assert all(error["error"] != "internal" for error in sock.errors)


@pytest.fixture
def chat_fuzz(club, new_player):
    ann, bob, carl = new_player("ann"), new_player("bob"), new_player("carl")
    game_id, a, _ = chat_game(ann, bob)
    yield watch(carl, game_id, club.base), a, watch(None, game_id, club.base)
    assert ann.get("/healthz").json()["ok"]


# --- two processes ------------------------------------------------------------------------------


def test_lines_cross_between_two_processes_over_redis(postgres_url, redis_url):
    """Ann on one process, Bob and a spectator on another: the rooms hold across them."""
    settings = Settings(database_url=postgres_url, redis_url=redis_url, password_profile="fast",
                        bots=False)  # fmt: skip
    with RunningClub(settings) as one, RunningClub(settings) as two:
        ann, bob, carl = Player(one.base, "ann").register(), Player(two.base, "bob").register(), \
            Player(two.base, "carl").register()  # fmt: skip
        game_id, a, b = chat_game(ann, bob)
        c = watch(carl, game_id, two.base)
        say(a, "players", "from one")
        assert next_chat(a)["text"] == next_chat(b)["text"] == "from one"
        say(c, "spectators", "from the crowd")
        assert next_chat(c)["text"] == "from the crowd"
        say(b, "players", "from two")
        assert next_chat(a)["text"] == "from two"  # the crowd's line never reached ann
        lobby_one = Lobby(one.base, ann)
        bob.post("/api/chat/lobby", {"text": "lobby from two"})
        assert lobby_one.next_chat()["text"] == "lobby from two"
        lobby_one.close()
        for player in (ann, bob, carl):
            player.close()
