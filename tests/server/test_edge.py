"""Limits at the edge: request bodies and deeply nested frames (issue 16, item 3).

A body declared over the limit is refused with 413 before a byte of it is read;
a chunked body is counted as it streams and cut at the limit, without waiting
for its end; a bystander is answered meanwhile. A small frame of deeply nested
arrays gets a ``bad_frame`` error and the socket stays open.
"""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

from club_client import GameSocket, Player
from test_lobby_socket import lobby, next_of
from test_rounds import open_game

LIMIT = 64 * 1024


def raw(base: str) -> socket.socket:
    """A plain TCP connection to the club, to send exactly the bytes a test wants."""
    url = urlsplit(base)
    return socket.create_connection((url.hostname, url.port), timeout=10)


def read_response(conn: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP response (the server closes the connection after a 413)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    while len(body) < int(headers.get("content-length", 0)):
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def post_head(player: Player, path: str, extra: str) -> bytes:
    """A POST's head as a browser with the player's CSRF token would send it."""
    token = player.http.headers["X-CSRF-Token"]
    cookies = player.cookie_header
    return (f"POST {path} HTTP/1.1\r\nHost: club\r\nContent-Type: application/json\r\n"
            f"Cookie: {cookies}\r\nX-CSRF-Token: {token}\r\n{extra}\r\n").encode()  # fmt: skip


def test_a_declared_body_over_the_limit_is_refused_before_it_is_sent(club, new_player):
    ann = new_player("ann")
    with raw(club.base) as conn:
        # 100 MB announced, nothing sent: the answer comes at once, from the headers alone.
        conn.sendall(post_head(ann, "/api/login", "Content-Length: 104857600\r\n"))
        status, headers, body = read_response(conn)
    assert status == 413, body
    assert json.loads(body)["error"] == "too_large"
    assert headers.get("connection") == "close"
    assert ann.get("/healthz").json()["ok"]  # a bystander is answered


def test_a_chunked_body_is_cut_at_the_limit_as_it_streams(club, new_player):
    ann = new_player("ann")
    with raw(club.base) as conn:
        conn.sendall(post_head(ann, "/api/login", "Transfer-Encoding: chunked\r\n"))
        chunk = b"x" * 8192
        for _ in range(LIMIT // len(chunk) + 2):  # past the limit, and the body never ends
            conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        status, _, body = read_response(conn)
    assert status == 413, body
    assert json.loads(body)["error"] == "too_large"
    assert ann.get("/healthz").json()["ok"]


def test_a_body_within_the_limit_is_read_as_before(club, new_player):
    ann = new_player("ann")
    ann.http.cookies.clear()
    token = ann.get("/api/csrf").json()["token"]
    ann.http.headers["X-CSRF-Token"] = token
    small = ann.post("/api/login", {"username": "ann", "password": "x" * 1000})
    assert small.status_code == 401
    big = ann.http.post("/api/login", content=b'{"username": "' + b"a" * LIMIT + b'"}',
                        headers={"Content-Type": "application/json"})  # fmt: skip
    assert big.status_code == 413 and big.json()["error"] == "too_large"


def test_a_streamed_body_from_a_client_is_cut_too(club, new_player):
    ann = new_player("ann")

    def stream():
        for _ in range(100):
            yield b" " * 4096

    response = ann.http.post("/api/login", content=stream(),
                             headers={"Content-Type": "application/json"})  # fmt: skip
    assert response.status_code == 413


NESTED = "[" * 1000 + "]" * 1000


def test_a_deeply_nested_frame_is_a_bad_frame_and_the_game_socket_stays_open(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, _ = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    watcher = GameSocket(None, game_id, base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")
    deep_action = '{"t": "action", "v": 0, "d": {"type": "roll", "x": ' + NESTED[:1600] + "}}"
    for sock in (a, watcher):
        for text in (NESTED, deep_action):
            assert len(text.encode()) <= 4096
            sock.ws.send(text)
            error = sock.until(lambda f: f["t"] == "error")["d"]
            assert error["error"] == "bad_frame" and "deep" in error["message"], error
        sock.send({"t": "ping"})
        assert sock.until(lambda f: f["t"] in ("pong", "error"))["t"] == "pong"


def test_a_deeply_nested_frame_on_the_lobby_socket_is_a_bad_frame(club):
    with lobby(club.base) as ws:
        next_of(ws, "lobby")
        ws.send(NESTED)
        assert next_of(ws, "error")["error"] == "bad_frame"
        ws.send(json.dumps({"t": "ping"}))
        while (frame := json.loads(ws.recv(timeout=10)))["t"] != "pong":
            assert frame["t"] != "error", frame


def test_a_deeply_nested_http_body_is_refused_cleanly(club, new_player):
    ann = new_player("ann")
    response = ann.http.post("/api/login", content=("[" * 20000 + "]" * 20000).encode(),
                             headers={"Content-Type": "application/json"})  # fmt: skip
    assert 400 <= response.status_code < 500, response.text
