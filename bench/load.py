"""Load: simulated players over real WebSockets on loopback, against a real server.

``sheshbesh serve`` runs as a subprocess on a fresh SQLite file. 2×N players
register over HTTP, N requests are posted and accepted (a backgammon money game
with a stake by default; ``--variants`` mixes in others, draughts included), and
2N game sockets open. Each player who holds the legal menu for the game's
current ``v`` waits a think time (uniform 0.5-1.5 s by default, a human pace;
``--think 0`` shows raw throughput) and sends a random legal action. A pair whose
game ends posts and accepts a new request, so N games stay live throughout.

Printed: moves per second (actions the server accepted), the latency from the
moment a player sends an action to the moment the OPPONENT's socket receives
the event with that sequence number (p50/p95/p99/max), errors by type, the
server's CPU and RSS (before and after the sockets open: memory per connection),
and the client's own CPU and event-loop lag (is the client the bottleneck?).
``--ramp`` steps N on a fresh server each time and reports the largest N held:
p99 under 100 ms with no errors and no disconnects. Numbers are absolute and
belong to the machine they were measured on (its cores are printed).

The players' policy: a uniformly random legal action, except that they never
resign, undo or offer draws (unless nothing else is legal) and double only 5% of
the times they may, so that games are played out the way people play them.

    python bench/load.py --quick
    python bench/load.py --games 500 --seconds 60 [--workers 2] [--think 0]
    python bench/load.py --ramp 100,250,500,750,1000 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-bench-password"
RARE = ("double", "offer_draw")
"""Actions a player takes only now and then (``RARE_CHANCE`` of the times he may)."""
RARE_CHANCE = 0.05
NEVER = ("resign", "undo", "accept_draw", "decline_draw")
"""Actions a player never takes unless nothing else is legal."""
RAMP = "50,100,150,250,500,750,1000"
GOAL_P99_MS = 100.0
"""The ramp's bar for "held" (DESIGN goal: 500 games, p99 under 100 ms)."""
PING_EVERY = 10.0
"""The page pings each of its sockets this often (channel.js, ``PING_EVERY``), whatever
else it sends; at 1 000 sockets that is 100 frames a second in and 100 out."""
UNLIMITED = {"SHESHBESH_FRAME_RATE": "1e6", "SHESHBESH_FRAME_BURST": "1e6",
             "SHESHBESH_SOCKET_OPEN_RATE": "1e6", "SHESHBESH_SOCKET_OPEN_BURST": "1e6",
             "SHESHBESH_SOCKETS_PER_ADDRESS": "0"}  # fmt: skip
"""The club's limits on one client, lifted: here thousands of players share one loopback
address and play at machine speed (``--think 0``); bench/abuse.py runs the real limits."""


# --- the server -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``sheshbesh serve`` on a fresh SQLite file in a subprocess, killed on the way out."""

    def __init__(self, tag: str, deflate: bool, env: dict[str, str] | None = None,
                 database: str | None = None, redis: str | None = None) -> None:  # fmt: skip
        self.stem = f"/tmp/load-{os.getpid()}-{tag}"
        self.env = UNLIMITED if env is None else env
        self.db = Path(self.stem + ".db")
        self.database = database or str(self.db)
        """A PostgreSQL URL (bench/cluster.py), or this run's own SQLite file."""
        self.redis = redis
        self.log = Path(self.stem + ".log")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.deflate = deflate
        self.proc: subprocess.Popen[bytes] | None = None
        self.ps: psutil.Process | None = None
        self.last_rss, self.last_cpu = 0, 0.0
        self.last_calls = (0, 0)

    def __enter__(self) -> Server:
        env = dict(os.environ)
        # the graces long: a player who has not opened his game (his request) for a while is
        # only waiting for the bench's other players to be set up
        env.update(SHESHBESH_PASSWORD_PROFILE="fast", SHESHBESH_ABANDON_GRACE="600",
                   SHESHBESH_REQUEST_GRACE="600",
                   SHESHBESH_SIGNUP_LIMITS="off", SHESHBESH_YOUNG_STAKE="off",
                   **self.env)  # fmt: skip
        paths = [*filter(None, [env.get("PYTHONPATH")]), str(ROOT / "src")]  # the caller's first
        env["PYTHONPATH"] = os.pathsep.join(paths)
        command = [sys.executable, "-m", "sheshbesh.cli", "serve", "--db", self.database,
                   "--port", str(self.port)]  # fmt: skip
        if self.redis:
            command += ["--redis", self.redis]
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            self._wait_healthy()
        except BaseException:
            self.__exit__()
            raise
        self.ps = psutil.Process(self.proc.pid)
        return self

    def _wait_healthy(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + 60
        with httpx.Client(base_url=self.base, timeout=5, trust_env=False) as http:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited:\n{self.tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get("/healthz").status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start in 60 s:\n{self.tail()}")
                time.sleep(0.1)

    def tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def rss(self) -> int:
        assert self.ps is not None
        with contextlib.suppress(psutil.Error):  # killed (bench/cluster.py): its last figure
            self.last_rss = int(self.ps.memory_info().rss)
        return self.last_rss

    def cpu(self) -> float:
        assert self.ps is not None
        with contextlib.suppress(psutil.Error):
            times = self.ps.cpu_times()
            self.last_cpu = float(times.user + times.system)
        return self.last_cpu

    def calls(self) -> tuple[int, int]:
        """System calls that read and that wrote so far (``/proc/PID/io``: a socket's
        send and receive count here too)."""
        assert self.ps is not None
        with contextlib.suppress(psutil.Error):
            io = self.ps.io_counters()
            self.last_calls = (int(io.read_count), int(io.write_count))
        return self.last_calls

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(str(self.db) + suffix).unlink()
        failed = bool(exc) and isinstance(exc[0], type) and issubclass(exc[0], Exception)
        if not failed and not os.environ.get("LOAD_KEEP_LOGS"):  # kept to explain a failure
            with contextlib.suppress(OSError):
                self.log.unlink()


# --- the players --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Config:
    base: str
    think: tuple[float, float]
    seconds: float
    stake: int
    variants: tuple[str, ...]
    deflate: bool
    http_concurrency: int
    seed: int
    bases: tuple[str, ...] = ()
    """Several processes (bench/cluster.py): a pair's two players sit on neighbouring ones,
    and a player whose process is gone goes on through the next (``?v=``)."""
    loop: str = "uvloop"
    """The players' event loop: uvloop, as the servers run, or asyncio's own (the players
    share the servers' cores, so what they spend is taken from the club)."""
    ping: float = PING_EVERY
    """Seconds between a socket's pings, as the page sends them (0: none)."""

    def home(self, pair: int, index: int) -> str:
        """The process the ``index``-th player of pair number ``pair`` starts on."""
        if not self.bases:
            return self.base
        return self.bases[(pair + index) % len(self.bases)]


@dataclass(eq=False)
class Player:
    name: str
    csrf: str = ""
    """The server's token, bound to the session: a guest's first, the session's after."""
    sid: str = ""
    base: str = ""
    """The process this player talks to (another after his own died)."""

    def headers(self) -> dict[str, str]:
        """A browser's: both cookies, and the CSRF token repeated in the header."""
        return {"Cookie": f"csrf={self.csrf}; sid={self.sid}", "X-CSRF-Token": self.csrf}


@dataclass(eq=False)
class Seat:
    """One player's socket on one game."""

    player: Player
    index: int
    """0 or 1 within the pair (the server's seat is ``seat``)."""
    ws: ClientConnection | None = None
    seat: int | None = None
    v: int = -1
    legal: list[dict[str, Any]] | None = None
    legal_v: int = -2
    acting_v: int = -2
    tried: list[dict[str, Any]] = field(default_factory=list)
    closing: bool = False
    lost: bool = False
    """The socket closed before its first state (a cluster's process or database away)."""
    snapshot: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class Game:
    id: str
    seats: list[Seat]
    pending: dict[int, list[Any]] = field(default_factory=dict)
    """seq -> [sent at, sender index, in the window, sockets that saw it]."""
    done: asyncio.Event = field(default_factory=asyncio.Event)
    over: bool = False
    broken: bool = False


@dataclass(eq=False)
class Pair:
    number: int
    players: tuple[Player, Player]
    variant: str
    game: Game | None = None
    games: int = 0


def choose(menu: list[dict[str, Any]], rng: random.Random, tried: list[dict[str, Any]]) -> Any:
    """A random legal action: never resign or undo, double only now and then."""
    fresh = [a for a in menu if a not in tried] or menu
    usual = [a for a in fresh if a["type"] not in NEVER and a["type"] not in RARE]
    rare = [a for a in fresh if a["type"] in RARE]
    if rare and (not usual or rng.random() < RARE_CHANCE):
        return rng.choice(rare)
    return rng.choice(usual or fresh)


class Refused(Exception):
    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Worker:
    """One client process: its pairs' players, their HTTP calls and their sockets."""

    def __init__(self, config: Config, pairs: list[int]) -> None:
        self.config = config
        self.rng = random.Random(config.seed * 7919 + (pairs[0] if pairs else 0))
        self.pairs = [
            Pair(n, (Player(f"L{2 * n:05d}", base=config.home(n, 0)),
                     Player(f"L{2 * n + 1:05d}", base=config.home(n, 1))),
                 config.variants[n % len(config.variants)])
            for n in pairs
        ]  # fmt: skip
        self.http: httpx.AsyncClient | None = None
        self.gate = asyncio.Semaphore(config.http_concurrency)
        self.running = False
        self.stopping = False
        self.window = (float("inf"), float("inf"))
        self.latency: list[float] = []
        self.echo: list[float] = []
        self.new_game: list[float] = []
        self.lag: list[float] = []
        self.errors: Counter[str] = Counter()
        self.unanswered: list[str] = []
        self.slow: dict[int, int] = {}
        """Second of the window → latency samples over :data:`GOAL_P99_MS` sent in it."""
        self.sent = 0
        self.accepted = 0
        self.finished = 0
        self.reconnects = 0
        self.pings = [0, 0]
        """Pings sent and pongs heard in the window."""
        self.tasks: set[asyncio.Task[Any]] = set()

    # --- HTTP ---------------------------------------------------------------------------

    async def post(self, player: Player, path: str, body: Any = None) -> dict[str, Any]:
        assert self.http is not None
        async with self.gate:
            try:
                response = await self.http.post(player.base + path, json=body,
                                                headers=player.headers())  # fmt: skip
            except httpx.HTTPError as error:
                raise Refused(f"http_{type(error).__name__}") from None
        if response.status_code >= 300:
            try:
                code = response.json().get("error", "")
            except ValueError:
                code = ""
            raise Refused(f"http_{response.status_code}_{code}")
        if "sid" in response.cookies:
            player.sid = response.cookies["sid"]
        if "csrf" in response.cookies:  # bound to the session: a new one comes with it
            player.csrf = response.cookies["csrf"]
        return dict(response.json())

    async def register(self, player: Player) -> None:
        assert self.http is not None
        async with self.gate:
            player.csrf = (await self.http.get(player.base + "/api/csrf")).json()["token"]
        await self.post(player, "/api/register", {"username": player.name, "password": PASSWORD})

    async def start_game(self, pair: Pair) -> str:
        """Post a request (owners alternate) and accept it; the new game's id."""
        owner, guest = pair.players if pair.games % 2 == 0 else pair.players[::-1]
        pair.games += 1
        body: dict[str, Any] = {"variant": pair.variant, "stake": self.config.stake}
        request = await self.post(owner, "/api/requests", body)
        game = await self.post(guest, f"/api/requests/{request['id']}/accept")
        return str(game["id"])

    # --- sockets ------------------------------------------------------------------------

    async def open_game(self, pair: Pair, game_id: str) -> Game:
        game = Game(game_id, [Seat(pair.players[0], 0), Seat(pair.players[1], 1)])
        await asyncio.gather(*(self.open_seat(game, seat) for seat in game.seats))
        pair.game = game
        return game

    async def open_seat(self, game: Game, seat: Seat) -> None:
        url = seat.player.base.replace("http://", "ws://") + f"/ws/game/{game.id}"
        if seat.v >= 0:  # back after a lost connection: what was missed, from the log
            url += f"?v={seat.v}"
        try:
            seat.ws = await connect(
                url, additional_headers={"Cookie": f"sid={seat.player.sid}"}, proxy=None,
                compression="deflate" if self.config.deflate else None,
                open_timeout=120, ping_interval=None, close_timeout=2, max_size=2**20,
            )  # fmt: skip
        except (OSError, TimeoutError, WebSocketException) as error:
            raise Refused(f"ws_open_{type(error).__name__}") from None
        seat.lost = False
        self.spawn(self.read(game, seat))
        if self.config.ping:
            self.spawn(self.ping(seat, seat.ws))
        await asyncio.wait_for(seat.snapshot.wait(), 120)
        if seat.lost:
            raise Refused("ws_lost_opening")

    async def ping(self, seat: Seat, ws: ClientConnection) -> None:
        """Ping as the page does, from the socket's opening until it is replaced or
        closed; the pong is read (and ignored) with the other frames."""
        while True:
            await asyncio.sleep(self.config.ping)
            if seat.ws is not ws or seat.closing or self.stopping:
                return
            try:
                await ws.send('{"t":"ping"}')
            except ConnectionClosed:
                return
            self.pings[0] += self.running

    async def close_game(self, game: Game) -> None:
        for seat in game.seats:
            seat.closing = True
        await asyncio.gather(*(s.ws.close() for s in game.seats if s.ws is not None))

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def read(self, game: Game, seat: Seat) -> None:
        assert seat.ws is not None
        try:
            async for text in seat.ws:
                self.on_frame(game, seat, json.loads(text))
        except ConnectionClosed:
            pass
        if seat.closing or self.stopping:
            return
        if self.config.bases:
            if not seat.snapshot.is_set():  # lost while opening: the opener tries again
                seat.snapshot.set()
                seat.lost = True
                return
            self.spawn(self.reconnect(game, seat))
            return
        self.errors["disconnect"] += 1
        game.broken = True
        game.done.set()

    async def reconnect(self, game: Game, seat: Seat) -> None:
        """As the page does after a lost socket: open it again with ``?v=`` after a short
        wait, on the next process when the player's own does not answer."""
        seat.snapshot = asyncio.Event()
        seat.acting_v = -2
        bases = self.config.bases
        for _ in range(60):
            await asyncio.sleep(0.5)
            if seat.closing or self.stopping or game.over:
                return
            try:
                await self.open_seat(game, seat)
            except (Refused, TimeoutError):
                seat.player.base = bases[(bases.index(seat.player.base) + 1) % len(bases)]
                continue
            self.reconnects += 1
            return
        self.errors["reconnect_failed"] += 1
        game.broken = True
        game.done.set()

    def on_frame(self, game: Game, seat: Seat, frame: dict[str, Any]) -> None:
        kind = frame["t"]
        if kind == "event":
            v = frame["v"]
            if v != seat.v + 1:
                self.errors["gap_or_repeat"] += 1
            seat.v = v
            pending = game.pending.get(v)
            if pending is not None:
                self.heard(game, seat, v, pending)
        elif kind == "state":
            seat.snapshot.set()  # a reopened socket (?v=) gets no snapshot: this is its end
            if frame["d"].get("result"):
                self.end(game)
        elif kind == "legal":
            seat.legal, seat.legal_v = frame["d"], frame["v"]
            self.ready(game, seat)
        elif kind == "snapshot":
            data = frame["d"]
            seat.seat, seat.v = data["you"], frame["v"]
            self.caught_up(game, frame["v"])
            if data["legal"] is not None:
                seat.legal, seat.legal_v = data["legal"], frame["v"]
            if data["state"].get("result"):
                self.end(game)
            seat.snapshot.set()
            self.ready(game, seat)
        elif kind == "error":
            self.refused(game, seat, frame["d"])
        elif kind == "pong":
            self.pings[1] += self.running and not self.stopping

    def heard(self, game: Game, seat: Seat, v: int, pending: list[Any]) -> None:
        sent_at, sender, measured, seen = pending
        ms = (time.monotonic() - sent_at) * 1000
        if measured:
            if sender == seat.index:
                self.accepted += 1
                self.echo.append(ms)
            else:
                self.latency.append(ms)
                if ms > GOAL_P99_MS:
                    second = int(sent_at - self.window[0])
                    self.slow[second] = self.slow.get(second, 0) + 1
        pending[3] = seen + 1
        if pending[3] == 2:
            del game.pending[v]

    def caught_up(self, game: Game, v: int) -> None:
        """A snapshot at ``v`` shows this socket every event up to ``v``: an action another
        seat sent before this socket opened (a new game's first roll) is not unanswered,
        though this socket never hears it as an event (and it gives no latency sample)."""
        for seq in [seq for seq in game.pending if seq <= v]:
            pending = game.pending[seq]
            pending[3] += 1
            if pending[3] >= 2:
                del game.pending[seq]

    def end(self, game: Game) -> None:
        if not game.over:
            game.over = True
            if self.running and not self.stopping:
                self.finished += 1
            game.done.set()

    def refused(self, game: Game, seat: Seat, error: dict[str, Any]) -> None:
        self.errors[str(error.get("error"))] += 1
        if error.get("re") != "action":
            return
        game.pending.pop(seat.v + 1, None)
        if error.get("error") == "unavailable":  # the database is away: the same, later
            self.spawn(self.again_later(game, seat, seat.v))
            return
        if seat.legal_v == seat.v and len(seat.tried) < len(seat.legal or ()):
            seat.acting_v = -2  # try another action from the same menu
            self.ready(game, seat, think=False)

    async def again_later(self, game: Game, seat: Seat, v: int) -> None:
        await asyncio.sleep(1.0)
        if seat.v == v and seat.acting_v == v:
            seat.acting_v, seat.tried = -2, []  # the whole menu again: nothing was refused
            self.ready(game, seat, think=False)

    # --- acting -------------------------------------------------------------------------

    def ready(self, game: Game, seat: Seat, think: bool = True) -> None:
        """Act once on the menu for the current ``v`` (after a think time)."""
        if not self.running or self.stopping or game.over:
            return
        if seat.legal_v != seat.v or seat.acting_v == seat.v:
            return
        if think:
            seat.tried = []
        seat.acting_v = seat.v
        low, high = self.config.think
        delay = self.rng.uniform(low, high) if think and high > 0 else 0.0
        self.spawn(self.act(game, seat, seat.v, delay))

    async def act(self, game: Game, seat: Seat, v: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if self.stopping or game.over or seat.v != v or seat.legal_v != v or seat.ws is None:
            return
        action = choose(seat.legal or [], self.rng, seat.tried)
        seat.tried.append(action)
        now = time.monotonic()
        game.pending[v + 1] = [now, seat.index, self.window[0] <= now < self.window[1], 0]
        with contextlib.suppress(ConnectionClosed):
            await seat.ws.send(json.dumps({"t": "action", "v": v, "d": action}))
            self.sent += 1

    async def play_pair(self, pair: Pair) -> None:
        """Keep this pair at a live game until the run stops."""
        while not self.stopping:
            game = pair.game
            assert game is not None
            await game.done.wait()
            if self.stopping or game.broken:
                return
            await self.settled(game)
            await self.close_game(game)
            started = time.monotonic()
            try:
                await self.open_game(pair, await self.next_game(pair))
            except Refused as error:
                self.errors[error.kind] += 1
                return
            if not self.stopping:
                self.new_game.append((time.monotonic() - started) * 1000)

    async def settled(self, game: Game) -> None:
        """Wait until both sockets of a finished game heard all its actions (or had them
        refused), as a page stays open on a game that ended: closing them when the first
        socket hears the end left the other's last events in flight, counted as never
        delivered when its process was only late (the database away a moment)."""
        while game.pending and not self.stopping:
            await asyncio.sleep(0.05)

    async def next_game(self, pair: Pair) -> str:
        """:meth:`start_game`; in a cluster, again on another process while one is down
        or the database is away (each refusal still counted)."""
        for _ in range(30 if self.config.bases else 1):
            try:
                return await self.start_game(pair)
            except Refused as error:
                if not self.config.bases or self.stopping:
                    raise
                self.errors[error.kind] += 1
                if "unavailable" not in error.kind:
                    bases = self.config.bases
                    for player in pair.players:
                        player.base = bases[(bases.index(player.base) + 1) % len(bases)]
                await asyncio.sleep(1.0)
        raise Refused("new_game_failed")

    async def watch_lag(self) -> None:
        """How late the client's own event loop wakes up (its share of any latency)."""
        while not self.stopping:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            self.lag.append((time.monotonic() - before - 0.05) * 1000)

    # --- the phases, driven by the main process ---------------------------------------

    async def main(self, conn: multiprocessing.connection.Connection) -> None:
        loop = asyncio.get_running_loop()
        jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))  # cookies are ours
        # idle connections dropped well before uvicorn's 5 s keep-alive ends, or a request
        # may go out on one the server is closing at that moment (a ReadError)
        limits = httpx.Limits(max_connections=self.config.http_concurrency, keepalive_expiry=2)
        self.http = httpx.AsyncClient(base_url=self.config.base, timeout=120, cookies=jar,
                                      limits=limits, trust_env=False)  # fmt: skip
        try:
            await self.phases(conn, loop)
        finally:
            self.stopping = True
            await self.shut()
            await self.http.aclose()

    async def phases(
        self, conn: multiprocessing.connection.Connection, loop: asyncio.AbstractEventLoop
    ) -> None:
        async def command() -> str:
            return str(await loop.run_in_executor(None, conn.recv))

        started = time.monotonic()
        players = [p for pair in self.pairs for p in pair.players]
        await asyncio.gather(*(self.register(p) for p in players))
        registered = time.monotonic()
        ids = await asyncio.gather(*(self.start_game(pair) for pair in self.pairs))
        conn.send(("games", {"register_s": registered - started,
                             "games_s": time.monotonic() - registered}))  # fmt: skip
        if await command() != "open":
            return
        started = time.monotonic()
        gate = asyncio.Semaphore(100)

        async def open_one(pair: Pair, game_id: str) -> None:
            async with gate:
                await self.open_game(pair, game_id)

        await asyncio.gather(*(open_one(p, i) for p, i in zip(self.pairs, ids, strict=True)))
        conn.send(("ready", {"open_s": time.monotonic() - started}))
        if await command() != "go":
            return
        cpu = time.process_time()
        now = time.monotonic()
        self.window = (now, now + self.config.seconds)
        self.running = True
        self.spawn(self.watch_lag())
        for pair in self.pairs:
            assert pair.game is not None
            for seat in pair.game.seats:
                self.ready(pair.game, seat)
        players_tasks = [loop.create_task(self.play_pair(pair)) for pair in self.pairs]
        await asyncio.sleep(self.config.seconds)
        self.stopping = True
        cpu = time.process_time() - cpu
        for pair in self.pairs:
            if pair.game is not None:
                pair.game.done.set()
        unanswered = await self.drain()
        if unanswered:
            self.errors["unanswered"] += unanswered
            self.unanswered = self.describe_unanswered()
        conn.send(("result", self.result(cpu)))
        for task in players_tasks:
            task.cancel()

    def waiting(self) -> list[tuple[Game, int, list[Any]]]:
        """The actions sent in the window still waiting for their answer, by game and seq."""
        return [
            (pair.game, seq, pending)
            for pair in self.pairs if pair.game is not None and not pair.game.broken
            for seq, pending in sorted(pair.game.pending.items()) if pending[2]
        ]  # fmt: skip

    async def drain(self, patience: float = 10.0) -> int:
        """Wait for the answers to actions sent in the window; how many never came."""
        deadline = time.monotonic() + patience
        while True:
            waiting = len(self.waiting())
            if not waiting or time.monotonic() > deadline:
                return waiting
            await asyncio.sleep(0.1)

    def describe_unanswered(self) -> list[str]:
        """What each unanswered action was waiting for, so a run that has some says whether
        the mover's process refused nothing and told no one, or one socket missed it."""
        end = self.window[1]
        lines = []
        for game, seq, (sent_at, sender, _, seen) in self.waiting():
            seats = "; ".join(
                f"seat {s.index} on {s.player.base.rsplit(':', 1)[-1]} v={s.v}"
                f" legal_v={s.legal_v} acting_v={s.acting_v}"
                f" ws={'open' if s.ws is not None and s.ws.state.name == 'OPEN' else 'closed'}"
                for s in game.seats
            )  # fmt: skip
            lines.append(
                f"game {game.id} v={seq} from seat {sender} sent {end - sent_at:+.1f} s"
                f" before the window closed, heard by {seen} of 2, over={game.over}: {seats}"
            )
        return lines

    def result(self, cpu: float) -> dict[str, Any]:
        live = sum(1 for pair in self.pairs if pair.game is not None and not pair.game.broken)
        return {
            "latency": self.latency, "echo": self.echo, "new_game": self.new_game,
            "lag": self.lag, "errors": dict(self.errors), "sent": self.sent,
            "accepted": self.accepted, "finished": self.finished, "cpu_s": cpu,
            "reconnects": self.reconnects, "unanswered": self.unanswered, "pings": self.pings,
            "slow": sorted(self.slow.items()),
            "live_pairs": live, "pairs": len(self.pairs),
        }  # fmt: skip

    async def shut(self) -> None:
        sockets = [s for pair in self.pairs if pair.game for s in pair.game.seats if s.ws]
        for seat in sockets:
            seat.closing = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                asyncio.gather(*(s.ws.close() for s in sockets if s.ws), return_exceptions=True),
                10,
            )
        for task in list(self.tasks):
            task.cancel()


def worker_main(
    conn: multiprocessing.connection.Connection, config: Config, pairs: list[int]
) -> None:
    # The main process's SIGTERM handler (sys.exit) came with the fork. Under it a worker
    # told to stop while it waited for a command unwound to the interpreter's exit and
    # hung there joining the thread still reading the pipe (whose writing end the forked
    # workers hold too, so it never reads EOF): a failed run then held its bench for the
    # caller's whole timeout. Killed outright, it ends.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        if config.loop == "uvloop":
            import uvloop

            uvloop.run(Worker(config, pairs).main(conn))
        else:
            asyncio.run(Worker(config, pairs).main(conn))
    except Refused as error:
        conn.send(("failed", error.kind))
    except Exception as error:
        conn.send(("failed", f"{type(error).__name__}: {error}"))
    except KeyboardInterrupt:
        pass


# --- one run: a server, its workers, the numbers ----------------------------------------


@dataclass
class Run:
    games: int
    setup: dict[str, float] = field(default_factory=dict)
    rss_idle: int = 0
    rss_before: int = 0
    rss_after: int = 0
    rss_peak: int = 0
    server_cpu: float = 0.0
    seconds: float = 0.0
    results: list[dict[str, Any]] = field(default_factory=list)
    cpu_each: list[float] = field(default_factory=list)
    """Each server process's CPU in the window (%), when there are several."""
    rss_each: list[int] = field(default_factory=list)
    calls: tuple[int, int] = (0, 0)
    """System calls the server processes made in the window: reads, writes."""
    client_loop: str = ""
    opened: float = 0.0
    """When the window opened (wall clock, to line up with the servers' own logs)."""

    def merged(self, key: str) -> list[float]:
        return sorted(x for r in self.results for x in r[key])

    def total(self, key: str) -> float:
        return float(sum(r[key] for r in self.results))

    def errors(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for r in self.results:
            counts.update(r["errors"])
        lost = sum(r["pairs"] - r["live_pairs"] for r in self.results)
        if lost and "disconnect" not in counts:
            counts["pairs_lost"] += lost
        return counts

    def held(self) -> bool:
        latency = self.merged("latency")
        return bool(latency) and pct(latency, 99) < GOAL_P99_MS and not self.errors()


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of sorted ``values`` (nearest rank)."""
    if not values:
        return float("nan")
    rank = max(0, min(len(values) - 1, round(p / 100 * len(values) + 0.5) - 1))
    return values[rank]


def run(args: argparse.Namespace, games: int, tag: str) -> Run:
    """Start a server, bring ``games`` games to life, play for ``args.seconds``, measure."""
    with Server(tag, args.deflate) as server:
        return play(args, games, [server])


def play(args: argparse.Namespace, games: int, servers: list[Server],
         during: Callable[[float], None] | None = None) -> Run:  # fmt: skip
    """Bring ``games`` games to life on running ``servers`` (one, or a cluster's processes,
    the players spread over them), play for ``args.seconds``, measure. ``during`` is
    called about once a second in the window with the seconds since it opened."""
    outcome = Run(games, client_loop=args.client_loop)
    ctx = multiprocessing.get_context("fork")

    def rss() -> int:
        return sum(server.rss() for server in servers)

    outcome.rss_idle = rss()
    bases = tuple(server.base for server in servers) if len(servers) > 1 else ()
    config = Config(servers[0].base, args.think, args.seconds, args.stake, args.variants,
                    args.deflate, args.http_concurrency, args.seed, bases,
                    args.client_loop, args.ping)  # fmt: skip
    workers = max(1, min(args.workers, games))
    shares = [list(range(w, games, workers)) for w in range(workers)]
    procs, conns = [], []
    try:
        for share in shares:
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=worker_main, args=(theirs, config, share), daemon=True)
            proc.start()
            procs.append(proc)
            conns.append(mine)
        for info in gather(conns, "games", 600, servers):
            for key, value in info.items():
                outcome.setup[key] = max(outcome.setup.get(key, 0.0), value)
        time.sleep(0.5)
        outcome.rss_before = rss()
        broadcast(conns, "open")
        for info in gather(conns, "ready", 600, servers):
            outcome.setup["open_s"] = max(outcome.setup.get("open_s", 0.0), info["open_s"])
        time.sleep(0.5)
        outcome.rss_after = outcome.rss_peak = rss()
        outcome.rss_each = [server.rss() for server in servers]
        cpu = [server.cpu() for server in servers]
        calls = [server.calls() for server in servers]
        started, outcome.opened = time.monotonic(), time.time()
        broadcast(conns, "go")

        def sample() -> None:
            nonlocal cpu_end, calls_end, end
            elapsed = time.monotonic() - started
            if elapsed <= args.seconds:
                outcome.rss_peak = max(outcome.rss_peak, rss())
                outcome.rss_each = [max(a, s.rss()) for a, s in zip(outcome.rss_each, servers,
                                                                    strict=True)]  # fmt: skip
                cpu_end, end = [server.cpu() for server in servers], time.monotonic()
                calls_end = [server.calls() for server in servers]
                if during is not None:
                    during(elapsed)

        cpu_end, calls_end, end = cpu, calls, started
        outcome.results = gather(conns, "result", args.seconds + 120, servers, sample)
        span = max(1e-9, end - started)
        outcome.cpu_each = [(b - a) / span * 100 for a, b in zip(cpu, cpu_end, strict=True)]
        outcome.server_cpu = sum(outcome.cpu_each)
        outcome.calls = (
            sum(b[0] - a[0] for a, b in zip(calls, calls_end, strict=True)),
            sum(b[1] - a[1] for a, b in zip(calls, calls_end, strict=True)),
        )
        outcome.seconds = args.seconds
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.close()
        for proc in procs:
            proc.join(timeout=20)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
    return outcome


def broadcast(conns: list[multiprocessing.connection.Connection], command: str) -> None:
    for conn in conns:
        conn.send(command)


def gather(
    conns: list[multiprocessing.connection.Connection], phase: str, timeout: float,
    servers: list[Server], tick: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Each worker's report for ``phase``; sample the server once a second meanwhile."""
    replies: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while len(replies) < len(conns):
        if time.monotonic() > deadline:
            raise RuntimeError(f"workers did not report {phase!r} in {timeout:.0f} s")
        waiting = [c for i, c in enumerate(conns) if i not in replies]
        for conn in multiprocessing.connection.wait(waiting, timeout=1.0):
            try:
                kind, data = conn.recv()  # type: ignore[union-attr]
            except EOFError:
                raise RuntimeError(f"a worker died before {phase!r}") from None
            if kind == "failed":
                tails = "\n".join(server.tail() for server in servers)
                raise RuntimeError(f"a worker failed before {phase!r}: {data}\n{tails}")
            assert kind == phase, (kind, phase)
            replies[conns.index(conn)] = data  # type: ignore[arg-type]
        if tick is not None:
            tick()
    return [replies[i] for i in range(len(conns))]


# --- printing ---------------------------------------------------------------------------

HEADER = (
    f"{'games':>5} {'conns':>5} {'moves/s':>8} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>7}"
    f" {'errors':>6} {'srv CPU':>7} {'srv RSS':>8} {'KiB/conn':>8} {'cli CPU':>7} {'lag p99':>7}"
)


def row(r: Run) -> str:
    latency = r.merged("latency")
    errors = sum(r.errors().values())
    per_conn = (r.rss_after - r.rss_before) / 1024 / max(1, 2 * r.games)
    client_cpu = r.total("cpu_s") / max(1e-9, r.seconds) * 100
    lag = r.merged("lag")
    return (
        f"{r.games:>5} {2 * r.games:>5} {r.total('accepted') / r.seconds:>8.1f}"
        f" {pct(latency, 50):>6.1f} {pct(latency, 95):>6.1f} {pct(latency, 99):>6.1f}"
        f" {(latency[-1] if latency else float('nan')):>7.1f} {errors:>6}"
        f" {r.server_cpu:>6.0f}% {r.rss_peak / 2**20:>4.0f} MiB {per_conn:>8.1f}"
        f" {client_cpu:>6.0f}% {pct(lag, 99):>5.1f}ms"
    )


def details(r: Run) -> str:
    errors = r.errors()
    moves = max(1.0, r.total("accepted"))
    cpu_ms = r.server_cpu / 100 * r.seconds / moves * 1000
    reads, writes = (count / moves for count in r.calls)
    echo, new_game = r.merged("echo"), r.merged("new_game")
    s = r.setup
    lines = [
        f"  setup: {2 * r.games} players registered in {s.get('register_s', 0):.1f} s"
        f" ({2 * r.games / max(1e-9, s.get('register_s', 0)):.0f}/s), {r.games} games created in"
        f" {s.get('games_s', 0):.1f} s, {2 * r.games} sockets opened in {s.get('open_s', 0):.1f} s",
        f"  server RSS: idle {r.rss_idle / 2**20:.0f} MiB, games live {r.rss_before / 2**20:.0f}"
        f" MiB, sockets open {r.rss_after / 2**20:.0f} MiB, peak {r.rss_peak / 2**20:.0f} MiB",
        f"  actions sent {r.total('sent'):.0f}, accepted in window {r.total('accepted'):.0f};"
        f" latency samples {len(r.merged('latency'))}; actor's own echo p50/p99"
        f" {pct(echo, 50):.1f}/{pct(echo, 99):.1f} ms",
        f"  games finished {r.total('finished'):.0f}; new game (request, accept, 2 sockets)"
        f" p50/p99 {pct(new_game, 50):.0f}/{pct(new_game, 99):.0f} ms; pings sent in the"
        f" window {sum(x['pings'][0] for x in r.results)},"
        f" pongs heard {sum(x['pings'][1] for x in r.results)}",
        "  errors: " + (", ".join(f"{k} {v}" for k, v in errors.most_common()) or "none"),
        *(f"    unanswered: {line}" for res in r.results for line in res["unanswered"][:10]),
        f"  {slow_seconds(r)}",
        f"  server, per accepted move: {cpu_ms:.2f} ms of CPU, {reads:.1f} system calls that"
        f" read and {writes:.1f} that wrote (all its processes together)",
    ]
    return "\n".join(lines)


def slow_seconds(r: Run) -> str:
    """Where in the window the samples over the goal were sent: a few seconds holding most
    of them is a stall (something held the servers); spread over the window, the cores
    were short the whole time."""
    by_second: Counter[int] = Counter()
    for res in r.results:
        by_second.update(dict(res.get("slow", [])))
    total, samples = sum(by_second.values()), len(r.merged("latency"))
    if not total:
        return f"over {GOAL_P99_MS:.0f} ms: none of {samples} samples"
    worst = by_second.most_common(5)
    share = sum(count for _, count in worst) / total * 100
    seconds = ", ".join(f"{second} s: {count}" for second, count in worst)
    opened = time.strftime("%H:%M:%S", time.gmtime(r.opened))
    timeline = " ".join(str(by_second.get(s, 0)) for s in range(max(by_second) + 1))
    return (
        f"over {GOAL_P99_MS:.0f} ms: {total} of {samples} samples ({total / samples:.1%}), sent"
        f" in {len(by_second)} of the window's seconds; the worst five ({seconds}) hold"
        f" {share:.0f}% of them\n  by second from {opened} UTC: {timeline}"
    )


def machine(args: argparse.Namespace) -> str:
    think = "0 (raw)" if args.think[1] == 0 else f"{args.think[0]:g}-{args.think[1]:g} s"
    return "\n".join([
        f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB;"
        f" load average {os.getloadavg()[0]:.1f} before the run (other work shares the cores)",
        f"server: 1 uvicorn process, SQLite (WAL); client: {args.workers} worker process(es)"
        f" on the same cores ({args.client_loop})",
        f"play: {','.join(args.variants)}, stake {args.stake}, think {think}, {args.seconds:g} s"
        f" window, permessage-deflate {'on' if args.deflate else 'off'}, {pings(args)}",
        "latency: action sent -> the opponent's socket has its event (ms);"
        " moves/s: actions accepted",
    ])  # fmt: skip


# --- main -----------------------------------------------------------------------------


def add_client_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--client-loop", choices=("uvloop", "asyncio"), default="uvloop",
                        help="the simulated players' event loop (default: uvloop)")  # fmt: skip
    parser.add_argument("--ping", type=float, default=PING_EVERY, metavar="SECONDS",
                        help="seconds between a socket's pings (0: none)")  # fmt: skip


def pings(args: argparse.Namespace) -> str:
    return f"a ping every {args.ping:g} s a socket" if args.ping else "no pings"


def parse_think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if pair[0] < 0 or pair[1] < pair[0]:
        raise argparse.ArgumentTypeError(f"think time {text!r}: LOW-HIGH seconds, e.g. 0.5-1.5")
    return pair


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20 games, 15 s")
    parser.add_argument("--think", type=parse_think, default=(0.5, 1.5),
                        help="seconds LOW-HIGH a player waits before acting (0: none)")  # fmt: skip
    parser.add_argument("--ramp", nargs="?", const=RAMP, default=None,
                        help=f"step N over these game counts (default {RAMP})")  # fmt: skip
    parser.add_argument("--ramp-all", action="store_true", help="go on after a step fails")
    parser.add_argument("--workers", type=int, default=1, help="client processes")
    parser.add_argument("--stake", type=int, default=10)
    parser.add_argument("--variants", type=lambda s: tuple(s.split(",")), default=("backgammon",))
    parser.add_argument("--deflate", action="store_true",
                        help="offer permessage-deflate as browsers do (default: off)")  # fmt: skip
    parser.add_argument("--http-concurrency", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    add_client_options(parser)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up on kill, too
    if args.quick:
        args.games, args.seconds = 20, 15

    print(machine(args), flush=True)
    if args.ramp is None:
        outcome = run(args, args.games, "run")
        print(HEADER)
        print(row(outcome))
        print(details(outcome))
        return 0
    steps = [int(n) for n in args.ramp.split(",")]
    print(HEADER, flush=True)
    held = 0
    for games in steps:
        try:
            outcome = run(args, games, f"ramp{games}")
        except RuntimeError as error:
            print(f"{games:>5} failed: {error}", flush=True)
            break
        print(row(outcome), flush=True)
        print(details(outcome), flush=True)
        if outcome.held():
            held = max(held, games)
        elif not args.ramp_all:
            break
    bar = f"p99 < {GOAL_P99_MS:.0f} ms, no errors or disconnects"
    if held:
        print(f"largest N held ({bar}): {held} games ({2 * held} connections)")
    else:
        print(f"largest N held ({bar}): none of the steps held (smallest: {min(steps)} games)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted; the server is stopped", file=sys.stderr)
        sys.exit(130)
