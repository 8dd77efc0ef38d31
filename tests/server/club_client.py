"""Test helpers that talk to a real running club over real HTTP and WebSockets.

``RunningClub`` runs the app under uvicorn in a thread on a free loopback port;
``Player`` is one browser: an httpx client with its cookies and CSRF token, and
game sockets (the ``websockets`` sync client) that keep the latest snapshot,
state, legal actions and errors as frames arrive.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from sheshbesh.server.app import create_app
from sheshbesh.server.serving import UVICORN
from sheshbesh.server.settings import Settings

PASSWORD = "correct horse battery"
UNTHROTTLED: dict[str, Any] = {"frame_rate": 1e6, "frame_burst": 1e6, "socket_open_rate": 1e6,
                               "socket_open_burst": 1e6}  # fmt: skip
"""Frame budgets for the clubs of tests that play whole games at machine speed (a person
never sends 20 frames a second; ``test_floods`` runs the club's real budgets)."""
OPEN_DOORS: dict[str, Any] = {"signup_limits": (), "young_stake": None}
"""The abuse limits off (many players from one address, fresh accounts playing for real
stakes): the tests that are about them turn them on (test_trust.py)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together by a barrier: requests sent at the same
    moment, as a script racing a limit sends them. Their results, in order."""
    start = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        start.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


class RunningClub:
    """The app served by uvicorn in a background thread (a real server on loopback)."""

    def __init__(self, settings: Settings, **inject: Any) -> None:
        self.settings = settings
        self.port = free_port()
        self.app = create_app(settings, **inject)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on",
            **UVICORN,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> RunningClub:
        self.thread.start()
        self.wait_started()
        return self

    def wait_started(self) -> None:
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the club did not start")
            time.sleep(0.02)

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class Player:
    """One browser: cookies, CSRF header, and sockets."""

    def __init__(self, base: str, name: str, address: str | None = None) -> None:
        self.base = base
        self.name = name
        # ``address``: another loopback address (127.0.0.2…) to come from, as another person
        transport = None if address is None else httpx.HTTPTransport(local_address=address)
        self.http = httpx.Client(base_url=base, timeout=20, transport=transport,
                                 event_hooks={"response": [self._follow_csrf]})  # fmt: skip
        token = self.http.get("/api/csrf").json()["token"]
        self.http.headers["X-CSRF-Token"] = token
        self.user: dict[str, Any] = {}
        self.sockets: list[GameSocket] = []

    @property
    def cookie_header(self) -> str:
        """The ``Cookie`` header this browser sends with a socket it opens."""
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    def _follow_csrf(self, response: httpx.Response) -> None:
        """As the page does: a new ``csrf`` cookie (a login, a logout) is the header from now."""
        if "csrf" in response.cookies:
            self.http.headers["X-CSRF-Token"] = response.cookies["csrf"]

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def register(self, password: str = PASSWORD) -> Player:
        response = self.post("/api/register", {"username": self.name, "password": password})
        assert response.status_code == 201, response.text
        self.user = response.json()
        return self

    def balance(self) -> int:
        return int(self.get("/api/me").json()["balance"])

    def offer(self, **request: Any) -> dict[str, Any]:
        response = self.post("/api/requests", request)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def accept(self, request_id: str) -> dict[str, Any]:
        response = self.post(f"/api/requests/{request_id}/accept")
        assert response.status_code == 201, response.text
        return dict(response.json())

    def watch(self, game_id: str, since: int | None = None) -> GameSocket:
        return GameSocket(self, game_id, since)

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.http.close()


class GameSocket:
    """A game's socket that folds what it hears into the latest view."""

    def __init__(self, player: Player | None, game_id: str, since: int | None = None,
                 base: str | None = None) -> None:  # fmt: skip
        base = base or (player.base if player else "")
        url = base.replace("http://", "ws://") + f"/ws/game/{game_id}"
        if since is not None:
            url += f"?v={since}"
        headers = {}
        if player is not None:
            headers["Cookie"] = player.cookie_header
        opening = connect(url, additional_headers=headers, open_timeout=20, close_timeout=2)
        self.ws: ClientConnection = opening.__enter__()
        with contextlib.suppress(OSError):  # the server may already have closed it
            self.ws.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.v = -1 if since is None else since
        self.seat: int | None = None
        self.state: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] | None = None
        self.legal_v = -2
        self.state_v = -2
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.presence: list[dict[str, Any]] = []
        self.pings = self.pongs = 0
        """Ping frames sent and pongs read: a pong answers the latest ping only when they match."""
        if player is not None:
            player.sockets.append(self)

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        kind = frame["t"]
        if kind == "hello":
            self.seat = frame["d"]["you"]
        elif kind == "snapshot":
            data = frame["d"]
            self.seat = data["you"]
            self.state = data["state"]
            self.v = self.state_v = frame["v"]
            self.legal = data["legal"]
            self.legal_v = frame["v"] if data["legal"] is not None else -2
        elif kind == "event":
            assert frame["v"] == self.v + 1, f"gap or repeat: {frame['v']} after {self.v}"
            self.v = frame["v"]
            self.events.append(frame["d"])
        elif kind == "state":
            self.state = frame["d"]
            self.state_v = frame["v"]
        elif kind == "legal":
            self.legal = frame["d"]
            self.legal_v = frame["v"]
        elif kind == "error":
            self.errors.append(frame["d"])
        elif kind == "presence":
            self.presence.append(frame["d"])
        elif kind == "pong":
            self.pongs += 1
        return dict(frame)

    def until(self, predicate: Any, timeout: float = 15) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame matched")
            frame = self.recv(timeout=left)
            if predicate(frame):
                return frame

    def send(self, frame: Any) -> None:
        text = frame if isinstance(frame, str | bytes) else json.dumps(frame)
        self.ws.send(text)
        with contextlib.suppress(ValueError, TypeError, AttributeError):
            sent = json.loads(text)
            if sent.get("t") == "ping":
                self.pings += 1  # the server answers each one, even one the fuzz sends
            v = sent["v"] if sent.get("t") == "sync" else None
            if type(v) is int and 0 <= v <= self.v:
                self.v = v  # the server sends every event after v again

    def round_trip(self, timeout: float = 15) -> dict[str, Any]:
        """Ping, and read up to the pong that answers it: then every frame the server
        sent before it has been read, whatever earlier frames (a ping among them) asked for.
        """
        self.send({"t": "ping"})
        return self.until(lambda f: f["t"] == "pong" and self.pongs == self.pings, timeout)

    def act(self, action: dict[str, Any], v: int | None = None) -> dict[str, Any]:
        """Send an action at the current ``v``; return the error, or the new state frame.

        When the new state leaves this player to act, also wait for his ``legal`` menu.
        """
        self.send({"t": "action", "v": self.v if v is None else v, "d": action})
        frame = self.until(lambda f: f["t"] == "error" or f["t"] == "state")
        if frame["t"] == "state" and self.to_act_seat == self.seat and not self.finished:
            self.until(lambda f: f["t"] == "legal" and f["v"] == self.v)
        return frame

    @property
    def to_act_seat(self) -> int | None:
        letter = self.state.get("to_act")
        if letter is None:
            return None
        white = int(self.state.get("white_seat", 0))
        return white if letter == "W" else 1 - white

    def settle(self, v: int, timeout: float = 15) -> None:
        """Read until the state for ``v`` has arrived."""
        if self.state_v < v:
            self.until(lambda f: f["t"] == "state" and f["v"] >= v, timeout)

    @property
    def my_turn(self) -> bool:
        return self.legal is not None and self.legal_v == self.v and self.seat is not None

    @property
    def finished(self) -> bool:
        return bool(self.state.get("result")) and (
            self.state.get("kind") != "match" or bool(self.state["match"]["result"])
        )

    def close(self) -> None:
        self.ws.close()


def next_mover(sockets: list[GameSocket], timeout: float = 15) -> GameSocket | None:
    """Read frames until one player holds the legal menu for the latest state (None: game over)."""
    deadline = time.monotonic() + timeout
    while not all(s.finished for s in sockets):
        ready = [s for s in sockets if s.my_turn and s.v == max(o.v for o in sockets)]
        if ready:
            return ready[0]
        if time.monotonic() > deadline:
            raise TimeoutError("nobody can act and nothing arrives")
        for s in sockets:
            with contextlib.suppress(TimeoutError):
                s.recv(timeout=0.003)
    return None


def play_until(sockets: list[GameSocket], ready: Any) -> GameSocket:
    """Play random menu picks (never a resignation) until the player to act is ``ready``
    (a predicate on his socket); that player, before he acts."""
    while True:
        mover = next_mover(sockets)
        assert mover is not None, "the game ended first"
        if ready(mover):
            return mover
        menu = [m for m in mover.legal or [] if m["type"] != "resign"]
        assert mover.act(random.Random(mover.v).choice(menu))["t"] == "state"


def until_a_draw_may_be_offered(sockets: list[GameSocket], rng: random.Random) -> GameSocket:
    """Play random moves of a draughts game until its mover may offer a draw without a
    move (DR-19: 40 moves each first); that mover."""
    while True:
        mover = next_mover(sockets)
        assert mover is not None, "the game ended before a draw could be offered"
        if {"type": "offer_draw", "move": None} in (mover.legal or []):
            return mover
        moves = [m for m in mover.legal or [] if m["type"] == "move"]
        assert mover.act(rng.choice(moves))["t"] == "state"


def may_double(mover: GameSocket) -> bool:
    return {"type": "double"} in (mover.legal or [])


Chooser = Callable[[GameSocket, list[dict[str, Any]], random.Random], dict[str, Any]]


def play_randomly(sockets: list[GameSocket], rng: random.Random, limit: int = 4000,
                  prefer: tuple[str, ...] = (), choose: Chooser | None = None) -> int:  # fmt: skip
    """Play legal actions at random from the sockets' legal menus until the game ends.

    ``prefer`` names action types chosen whenever legal (e.g. "take"); ``choose``
    replaces the choice altogether (given the mover, his menu and the rng).
    """
    actions = 0
    while True:
        mover = next_mover(sockets)
        if mover is None:
            return actions
        menu = [a for a in mover.legal or [] if a["type"] != "resign"] or mover.legal or []
        preferred = [a for a in menu if a["type"] in prefer]
        choice = choose(mover, menu, rng) if choose else rng.choice(preferred or menu)
        frame = mover.act(choice)
        assert frame["t"] != "error", (choice, frame)
        actions += 1
        assert actions < limit, "game did not end"


class ServerProcess:
    """``sheshbesh serve`` as a real subprocess (for crash and multi-process tests)."""

    def __init__(self, database_url: str, port: int | None = None,
                 redis_url: str | None = None, **env: str) -> None:  # fmt: skip
        self.database_url = database_url
        self.redis_url = redis_url
        self.port = port or free_port()
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        command = [sys.executable, "-m", "sheshbesh.cli", "serve", "--port", str(self.port),
                   "--db", self.database_url]  # fmt: skip
        if self.redis_url:
            command += ["--redis", self.redis_url]
        unthrottled = {f"SHESHBESH_{k.upper()}": str(v) for k, v in UNTHROTTLED.items()}
        env = {**os.environ, "SHESHBESH_PASSWORD_PROFILE": "fast",
               "SHESHBESH_SIGNUP_LIMITS": "off", "SHESHBESH_YOUNG_STAKE": "off",
               **unthrottled, **self.env}  # fmt: skip
        # stderr to a file, never a pipe nobody reads (a chatty server would block on it)
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in kill and stop)
        self.process = subprocess.Popen(command, env=env, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"server exited: {self.log.read()[-2000:]!r}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def output(self) -> str:
        """What the server has written to stderr so far (its log)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.process is not None
        self.process.send_signal(sig)
        self.process.wait(timeout=20)
        self.log.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None:
            self.log.close()
