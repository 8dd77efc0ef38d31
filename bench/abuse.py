"""Floods: one abusive client against a real club while a bystander measures (issue 16).

``sheshbesh serve`` runs as a subprocess on a fresh SQLite file (bench/load.py's
``Server``, here with the club's real limits). Two games are set up; the first
is played on until its log is long, so that a sync from ``v=0`` is far behind.
Then, flood after flood, an attacker process floods the club for ``--seconds``
while the bystander, every 50 ms, asks ``GET /api/games/live`` over HTTP and, every
100 ms, pings its spectator socket on the second game. The attacker connects from
127.0.0.2 (the bystander from 127.0.0.1), so the per-address socket cap counts
them apart as it would two people, and runs at a lower priority (``nice``): a
remote attacker's CPU is not the server's, though here they share the cores.

Floods (``--floods`` picks some):

    none     no attacker: the baseline
    ping     a spectator's game socket sends pings as fast as it can; when the server
             closes it, it opens another and goes on
    bad      the same with bad frames: not JSON, 2 KB of nested arrays, unknown types
    stale    a player's game socket sends actions at v=0
    sync     a spectator's game socket sends {"t": "sync", "v": 0}
    sockets  opens game and lobby sockets, 50 at a time, and holds every one it gets
    body     four connections at a time POST /api/login with a 100 MB body (declared,
             then chunked), again and again

Printed per flood: what the attacker sent and what came back (``closed 4429``:
sockets the server closed for flooding; ``open refused 429``: handshakes refused for
opening too fast; ``413``: bodies refused; ``reset``: a body whose connection the
server closed before its answer could be read), the bystander's round trips
(p50, p99, max in ms; ``lost``: probes not answered within 10 s) and the server's
peak RSS. Run it against another source tree (PYTHONPATH=/tmp/before/src) to
compare.

    python bench/abuse.py [--seconds 5] [--floods ping,sync,body]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from load import PASSWORD, Server, pct

FLOODS = ("none", "ping", "bad", "stale", "sync", "sockets", "body")
ATTACKER = "127.0.0.2"
BYSTANDER = "127.0.0.1"
LOG_EVENTS = 70
"""Events the first game is played to before the floods (a sync from v=0 is far behind)."""
PROBE_TIMEOUT = 10.0
BATCH = 200
"""Frames the attacker writes at once (pre-encoded: the client's own speed is no limit)."""
BODY = 100 * 2**20
NESTED = "[" * 1000 + "]" * 1000
FRAMES = {
    "ping": ['{"t":"ping"}'],
    "bad": ["not json", NESTED, '{"t":5}', '{"t":"action","v":"x"}'],
    "stale": ['{"t":"action","v":0,"d":{"type":"double"}}'],
    "sync": ['{"t":"sync","v":0}'],
}


# --- setting the club up ------------------------------------------------------------------


@dataclass
class Person:
    name: str
    http: httpx.AsyncClient

    @property
    def sid(self) -> str:
        return str(self.http.cookies.get("sid", ""))

    async def post(self, path: str, body: Any = None) -> dict[str, Any]:
        response = await self.http.post(path, json=body)
        response.raise_for_status()
        return dict(response.json())


async def person(base: str, name: str) -> Person:
    http = httpx.AsyncClient(base_url=base, timeout=30, trust_env=False)
    token = (await http.get("/api/csrf")).json()["token"]
    http.headers["X-CSRF-Token"] = token
    made = Person(name, http)
    await made.post("/api/register", {"username": name, "password": PASSWORD})
    # the CSRF token is bound to the session (issue 16, item 12): a new one comes with it
    http.headers["X-CSRF-Token"] = (await http.get("/api/csrf")).json()["token"]
    return made


async def new_game(owner: Person, guest: Person, variant: str) -> str:
    request = await owner.post("/api/requests", {"variant": variant, "stake": 0})
    return str((await guest.post(f"/api/requests/{request['id']}/accept"))["id"])


def ws_url(base: str, path: str) -> str:
    return base.replace("http://", "ws://") + path


async def play_on(base: str, game_id: str, players: list[Person], events: int) -> int:
    """Play random legal actions (at a person's pace) until the log has ``events``."""
    rng = random.Random(16)
    sockets = [
        await connect(ws_url(base, f"/ws/game/{game_id}"), proxy=None, ping_interval=None,
                      additional_headers={"Cookie": f"sid={p.sid}"})
        for p in players
    ]  # fmt: skip
    v, finished = 0, False
    menus: dict[int, tuple[int, list[dict[str, Any]]]] = {}

    async def read(index: int, ws: ClientConnection) -> None:
        nonlocal v, finished
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                frame = json.loads(text)
                if frame["t"] in ("snapshot", "event", "state"):
                    v = max(v, frame["v"])
                if frame["t"] == "snapshot" and frame["d"]["legal"]:
                    menus[index] = (frame["v"], frame["d"]["legal"])
                elif frame["t"] == "legal":
                    menus[index] = (frame["v"], frame["d"])
                elif frame["t"] == "state" and frame["d"].get("result"):
                    finished = True

    readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
    deadline = time.monotonic() + 120
    while v < events and not finished and time.monotonic() < deadline:
        await asyncio.sleep(0.06)
        for index, (seen, menu) in list(menus.items()):
            if seen == v:
                plain = [a for a in menu if a["type"] not in ("resign", "double")] or menu
                del menus[index]
                action = {"t": "action", "v": seen, "d": rng.choice(plain)}
                await sockets[index].send(json.dumps(action))
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*readers)
    return v


# --- the bystander ------------------------------------------------------------------------


@dataclass
class Probes:
    http: list[float] = field(default_factory=list)
    socket: list[float] = field(default_factory=list)
    lost: int = 0
    rss: int = 0


async def bystand(base: str, game_id: str, seconds: float, server: Server) -> Probes:
    probes = Probes(rss=server.rss())
    end = time.monotonic() + seconds
    transport = httpx.AsyncHTTPTransport(local_address=BYSTANDER)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=PROBE_TIMEOUT) as http:
        ws = await connect(ws_url(base, f"/ws/game/{game_id}"), proxy=None,
                           ping_interval=None, open_timeout=30)  # fmt: skip

        async def over_http() -> None:
            while time.monotonic() < end:
                start = time.perf_counter()
                try:
                    (await http.get("/api/games/live")).raise_for_status()
                    probes.http.append((time.perf_counter() - start) * 1000)
                except httpx.HTTPError:
                    probes.lost += 1
                await asyncio.sleep(0.05)

        async def over_socket() -> None:
            while time.monotonic() < end:
                start = time.perf_counter()
                await ws.send('{"t":"ping"}')
                try:
                    async with asyncio.timeout(PROBE_TIMEOUT):
                        while json.loads(await ws.recv())["t"] != "pong":
                            pass
                    probes.socket.append((time.perf_counter() - start) * 1000)
                except TimeoutError:
                    probes.lost += 1
                await asyncio.sleep(0.1)

        async def memory() -> None:
            while time.monotonic() < end:
                probes.rss = max(probes.rss, server.rss())
                await asyncio.sleep(0.1)

        await asyncio.gather(over_http(), over_socket(), memory())
        await ws.close()
    return probes


# --- the attacker (a subprocess: python bench/abuse.py --attack KIND) ---------------------


async def attack(kind: str, base: str, game_id: str, sid: str, seconds: float) -> dict[str, Any]:
    stats: Counter[str] = Counter()
    end = time.monotonic() + seconds
    if kind in FRAMES:
        await flood_frames(kind, base, game_id, sid, end, stats)
    elif kind == "sockets":
        await flood_sockets(base, game_id, end, stats)
    elif kind == "body":
        await asyncio.gather(*(flood_bodies(base, n % 2 == 0, end, stats) for n in range(4)))
    return dict(stats)


async def drain(ws: ClientConnection, stats: Counter[str]) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for text in ws:
            frame = json.loads(text)
            kind = frame["t"] if frame["t"] != "error" else frame["d"]["error"]
            stats[f"got {kind}"] += 1


def masked(text: str) -> bytes:
    """One client text frame as it goes on the wire (RFC 6455: masked, here with a zero key)."""
    payload = text.encode()
    size = len(payload)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + size.to_bytes(2)
    return head + b"\0\0\0\0" + payload


async def flood_frames(kind: str, base: str, game_id: str, sid: str, end: float,
                       stats: Counter[str]) -> None:  # fmt: skip
    """One socket at a time, its frames written in batches as fast as the connection takes
    them; when the server closes it (or stops reading it), another one at once."""
    headers = {"Cookie": f"sid={sid}"} if kind == "stale" else {}
    frames = FRAMES[kind]
    batch = b"".join(masked(frames[n % len(frames)]) for n in range(BATCH))
    while time.monotonic() < end:
        try:
            ws = await connect(ws_url(base, f"/ws/game/{game_id}"), proxy=None,
                               additional_headers=headers, ping_interval=None,
                               open_timeout=30, local_addr=(ATTACKER, 0))  # fmt: skip
        except (OSError, TimeoutError, WebSocketException) as error:
            status = getattr(getattr(error, "response", None), "status_code", "")
            stats[f"open refused {status}".strip()] += 1
            await asyncio.sleep(0.05)
            continue
        stats["sockets"] += 1
        reader = asyncio.create_task(drain(ws, stats))
        stalled = 0.0
        while time.monotonic() < end and not reader.done() and stalled < 0.5:
            if ws.transport.is_closing():
                break
            if ws.transport.get_write_buffer_size() > 2**20:  # the server reads no faster
                await asyncio.sleep(0.01)
                stalled += 0.01
                continue
            stalled = 0.0
            try:
                ws.transport.write(batch)
            except RuntimeError:  # the server ended the stream
                break
            stats["sent"] += BATCH
            await asyncio.sleep(0)
        ws.transport.abort()
        await reader
        if ws.close_code is not None:
            stats[f"closed {ws.close_code}"] += 1


async def flood_sockets(base: str, game_id: str, end: float, stats: Counter[str]) -> None:
    held: list[ClientConnection] = []
    gate = asyncio.Semaphore(50)

    async def one(path: str) -> None:
        async with gate:
            try:
                ws = await connect(ws_url(base, path), proxy=None, ping_interval=None,
                                   open_timeout=10, local_addr=(ATTACKER, 0))  # fmt: skip
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            except (OSError, TimeoutError, WebSocketException):
                stats["open failed"] += 1
                return
            if first["t"] == "error":
                stats[f"refused {first['d']['error']}"] += 1
                await ws.close()
            else:
                stats["held"] += 1
                held.append(ws)

    tasks: set[asyncio.Task[None]] = set()
    n = 0
    while time.monotonic() < end:
        path = "/ws/lobby" if n % 2 else f"/ws/game/{game_id}"
        task = asyncio.create_task(one(path))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        n += 1
        stats["opened"] += 1
        while len(tasks) >= 50:
            await asyncio.sleep(0.001)
    await asyncio.gather(*tasks)
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


async def flood_bodies(base: str, declared: bool, end: float, stats: Counter[str]) -> None:
    """POST /api/login with a 100 MB body, sent while the answer is read; again and again."""
    host, port = base.removeprefix("http://").split(":")
    chunk = b"x" * 2**20
    async with httpx.AsyncClient(base_url=base, trust_env=False) as http:  # a guest's token
        token = (await http.get("/api/csrf")).json()["token"]
        cookies = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    while time.monotonic() < end:
        try:
            reader, writer = await asyncio.open_connection(host, int(port),
                                                           local_addr=(ATTACKER, 0))  # fmt: skip
        except OSError:
            stats["open failed"] += 1
            continue
        length = f"Content-Length: {BODY}" if declared else "Transfer-Encoding: chunked"
        writer.write(f"POST /api/login HTTP/1.1\r\nHost: club\r\nContent-Type: application/json"
                     f"\r\nX-CSRF-Token: {token}\r\nCookie: {cookies}\r\n{length}"
                     "\r\n\r\n".encode())  # fmt: skip

        async def send_body(writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                for _ in range(BODY // len(chunk)):
                    writer.write(chunk if declared else b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    await writer.drain()
                    stats["MB sent"] += 1
                if not declared:
                    writer.write(b"0\r\n\r\n")
                    await writer.drain()

        sender = asyncio.create_task(send_body(writer))
        try:
            status = (await asyncio.wait_for(reader.readline(), 60)).split(b" ")[1].decode()
            stats[status] += 1
        except (OSError, IndexError, TimeoutError):
            stats["reset"] += 1  # the server closed before the answer could be read
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


# --- the run ------------------------------------------------------------------------------


def summary(stats: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(stats.items())) or "-"


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return f"{'-':>6} {'-':>6} {'-':>6}"
    return f"{pct(ordered, 50):6.1f} {pct(ordered, 99):6.1f} {ordered[-1]:6.0f}"


async def run_flood(kind: str, server: Server, games: tuple[str, str], sid: str,
                    seconds: float) -> tuple[Probes, dict[str, Any]]:  # fmt: skip
    attacker = None
    if kind != "none":
        attacker = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--attack", kind, "--base", server.base, "--game", games[0],
            f"--sid={sid}", "--seconds", str(seconds), stdout=asyncio.subprocess.PIPE,
            preexec_fn=lambda: os.nice(10),
        )  # fmt: skip
        await asyncio.sleep(0.5)  # let the flood begin (the attacker's interpreter starts)
    probes = await bystand(server.base, games[1], seconds, server)
    stats: dict[str, Any] = {}
    if attacker is not None:
        out, _ = await attacker.communicate()
        stats = json.loads(out or b"{}")
    await settle(server.base)
    return probes, stats


async def settle(base: str) -> None:
    """Wait until the club answers at once again (the next flood starts from calm)."""
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        for _ in range(600):
            start = time.perf_counter()
            await http.get("/healthz")
            if time.perf_counter() - start < 0.02:
                return
            await asyncio.sleep(0.1)


async def main_async(args: argparse.Namespace) -> None:
    with Server("abuse", deflate=False, env={}) as server:
        names = ("ann", "bob", "carl", "dave")
        ann, bob, carl, dave = [await person(server.base, name) for name in names]
        first = await new_game(ann, bob, "backgammon")
        second = await new_game(carl, dave, "draughts")
        v = await play_on(server.base, first, [ann, bob], LOG_EVENTS)
        print(f"game 1 played to v={v}; floods of {args.seconds:g} s each", flush=True)
        print(f"{'flood':8} {'HTTP p50    p99    max':>22} {'socket p50    p99    max':>24}"
              f" {'lost':>4} {'RSS MB':>6}  attacker")  # fmt: skip
        for kind in args.floods:
            probes, stats = await run_flood(kind, server, (first, second), bob.sid, args.seconds)
            print(f"{kind:8} {ms(probes.http):>22} {ms(probes.socket):>24} {probes.lost:>4}"
                  f" {probes.rss / 2**20:6.0f}  {summary(stats)}", flush=True)  # fmt: skip
        for someone in (ann, bob, carl, dave):
            await someone.http.aclose()


def machine() -> str:
    source = os.environ.get("PYTHONPATH") or Path(__file__).resolve().parents[1] / "src"
    return (f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB;"
            f" load average {os.getloadavg()[0]:.1f} before the run (other work shares the"
            f" cores); {time.strftime('%Y-%m-%d %H:%M %Z')}; server source: {source}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--floods", type=lambda s: tuple(s.split(",")), default=FLOODS)
    parser.add_argument("--attack", choices=FLOODS[1:], help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--sid", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        stats = asyncio.run(attack(args.attack, args.base, args.game, args.sid, args.seconds))
        print(json.dumps(stats))
        return 0
    unknown = set(args.floods) - set(FLOODS)
    if unknown:
        parser.error(f"unknown floods {sorted(unknown)}; choose from {', '.join(FLOODS)}")
    print(machine(), flush=True)
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
