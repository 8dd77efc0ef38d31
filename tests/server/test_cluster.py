"""Two ``sheshbesh serve`` processes sharing one PostgreSQL database and one Redis
(DESIGN principle 7): one lobby, one game, the same events everywhere, one ledger.

Ann plays through process 1 and Bob through process 2; Bob finds Ann's request
in process 2's lobby (it arrived there through Redis) and accepts it there; a
spectator watches on each process. Every socket must hear every event exactly
once and in order (``GameSocket.recv`` asserts that ``v`` grows by one), all four
must hear the same events as the stored log, and the FUN must add up.

Below it, the two pieces that make this work, each pinned on its own: a Redis
subscription is live as soon as ``subscribe`` returns, and two transactions
moving FUN between the same wallets at once wait for each other on PostgreSQL
instead of deadlocking.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pg
import pytest
import redis_server
from club_client import (
    OPEN_DOORS,
    UNTHROTTLED,
    GameSocket,
    Player,
    RunningClub,
    free_port,
    play_randomly,
)
from me_socket import MeSocket
from websockets.sync.client import ClientConnection, connect

import sheshbesh
from sheshbesh.server.pubsub import CATCH_UP, RedisBus
from sheshbesh.server.rounds.log import FLAG_ALLOWANCE
from sheshbesh.server.rounds.round import Rounds
from sheshbesh.server.settings import Settings
from sheshbesh.store import ledger
from sheshbesh.store.db import Database
from sheshbesh.store.models import Game, User

SRC = Path(sheshbesh.__file__).resolve().parents[1]


class Node:
    """One ``sheshbesh serve`` subprocess; its output goes to a file read at the end."""

    def __init__(self, name: str, database_url: str, redis_url: str, logs: Path,
                 **env: str) -> None:  # fmt: skip
        self.name = name
        self.port = free_port()
        self.log = logs / f"{name}.log"
        command = [
            sys.executable, "-m", "sheshbesh.cli", "serve", "--port", str(self.port),
            "--db", database_url, "--redis", redis_url,
        ]  # fmt: skip
        path = os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))
        unthrottled = {f"SHESHBESH_{k.upper()}": str(v) for k, v in UNTHROTTLED.items()}
        env = {**os.environ, "PYTHONPATH": path, "SHESHBESH_PASSWORD_PROFILE": "fast",
               "SHESHBESH_SIGNUP_LIMITS": "off", "SHESHBESH_YOUNG_STAKE": "off",
               **unthrottled, **env}  # fmt: skip
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.output()}")
            try:
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not answer /healthz:\n{self.output()}")

    def health(self) -> dict[str, Any]:
        return dict(httpx.get(self.base + "/healthz", timeout=10).json())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)


@contextlib.contextmanager
def running_nodes(database_url: str, redis_url: str, logs: Path, count: int = 2,
                  **env: str) -> Iterator[list[Node]]:  # fmt: skip
    """``count`` processes started at once on one database (each runs the migrations),
    ready; stopped at the end, when none may have logged a traceback (one killed logs
    none). On a failure each process's log is printed with it."""
    started = [Node(f"node{i}", database_url, redis_url, logs, **env) for i in range(1, count + 1)]
    try:
        for node in started:
            node.wait_ready()
        yield started
    except BaseException:
        for node in started:
            print(f"--- {node.name}\n{node.output()}")
        raise
    finally:
        for node in started:
            node.stop()
    for node in started:
        assert "Traceback" not in node.output(), f"{node.name} failed:\n{node.output()}"


@pytest.fixture(params=["tcp", "unix"])
def nodes(
    request: pytest.FixtureRequest, postgres: pg.Cluster, postgres_url: str,
    redis: redis_server.RedisServer, tmp_path: Path,
) -> Iterator[tuple[Node, Node]]:  # fmt: skip
    """Two processes started at once on one fresh database; they reach PostgreSQL and
    Redis by TCP, or by their Unix sockets as a club on the same machine may
    (docs/deploy.md)."""
    if request.param == "unix":
        database_url = postgres.unix_url(postgres_url.rsplit("/", 1)[1])
        redis_url = redis.unix_url
    else:
        database_url, redis_url = postgres_url, redis.url
    with running_nodes(database_url, redis_url, tmp_path) as (one, two):
        yield one, two


class LobbySocket:
    """The lobby's socket on one process, with the cookies of whoever opens it."""

    def __init__(self, base: str, player: Player | None = None) -> None:
        headers = {}
        if player is not None:
            headers["Cookie"] = player.cookie_header
        url = base.replace("http://", "ws://") + "/ws/lobby"
        opening = connect(url, additional_headers=headers, open_timeout=20)
        self.ws: ClientConnection = opening.__enter__()
        self.hello = self.next(lambda m: m["t"] == "lobby")

    def next(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.0, deadline - time.monotonic())))
            if predicate(message):
                return message

    def close(self) -> None:
        self.ws.close()


def test_two_processes_share_the_lobby_a_game_its_spectators_and_the_ledger(
    nodes: tuple[Node, Node],
) -> None:
    one, two = nodes
    with contextlib.ExitStack() as closing:
        ann = Player(one.base, "ann")
        closing.callback(ann.close)
        bob = Player(two.base, "bob")
        closing.callback(bob.close)
        ann.register()
        bob.register()
        lobby_one = closing.enter_context(contextlib.closing(LobbySocket(one.base, ann)))
        lobby_two = closing.enter_context(contextlib.closing(LobbySocket(two.base, bob)))

        offer = ann.offer(variant="backgammon", stake=100, cube=True)
        # Posted on process 1, heard on process 2 through Redis, listed there from the database.
        heard = lobby_two.next(lambda m: m["t"] == "request_added" and m["d"]["id"] == offer["id"])
        assert heard["d"]["owner"]["username"] == "ann"
        listed = bob.get("/api/requests").json()
        assert [r["id"] for r in listed] == [offer["id"]]
        game = bob.accept(listed[0]["id"])
        # Accepted on process 2, announced in Ann's lobby on process 1.
        lobby_one.next(lambda m: m["t"] == "game_started" and m["d"]["id"] == game["id"])

        players = [ann.watch(game["id"]), bob.watch(game["id"])]
        watchers = [GameSocket(None, game["id"], base=node.base) for node in (one, two)]
        sockets = [closing.enter_context(contextlib.closing(s)) for s in players + watchers]
        for sock in sockets:
            sock.until(lambda f: f["t"] == "snapshot")
        assert [sock.seat for sock in sockets] == [0, 1, None, None]
        start = sockets[0].v
        assert [sock.v for sock in sockets] == [start] * 4

        actions = play_randomly(sockets, random.Random(5), prefer=("take",))

        assert actions > 0 and all(sock.finished for sock in sockets)
        assert [sock.errors for sock in sockets] == [[]] * 4
        record = _record(one, game["id"])
        assert record == _record(two, game["id"])
        stored = [e for e in record["events"] if e["seq"] > start]
        assert [e["seq"] for e in stored] == list(range(start + 1, start + 1 + len(stored)))
        for sock in sockets:
            assert sock.events == stored
            assert sock.state["result"] == sockets[0].state["result"]

        assert ann.balance() + bob.balance() == 200_000
        assert ann.balance() != 100_000  # a backgammon money game always moves the stake
    for node in nodes:
        health = node.health()
        assert health["ok"] and health["ledger_total"] == 0, health


def test_a_process_that_restarts_leaves_the_players_of_another_present(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Issue 16, item 5, with several processes. A process that starts counts every live
    game's players away (it cannot know who was on a process that crashed); the process
    that holds their sockets says at once that they are here, so nobody is forfeited."""
    one, two = (Node(f"node{i}", postgres_url, redis_url, tmp_path, SHESHBESH_ABANDON_GRACE="2")
                for i in (1, 2))  # fmt: skip
    with contextlib.ExitStack() as closing:
        for node in (one, two):
            closing.callback(node.stop)
            node.wait_ready()
        ann, bob = Player(one.base, "ann"), Player(one.base, "bob")
        closing.callback(ann.close)
        closing.callback(bob.close)
        offer = ann.register().offer(variant="draughts", stake=10)
        game_id = bob.register().accept(offer["id"])["id"]
        a, b = ann.watch(game_id), bob.watch(game_id)
        for sock in (a, b):
            sock.until(lambda f: f["t"] == "snapshot")
        two.process.kill()  # SIGKILL, then a process starts on the same database
        two.process.wait(timeout=20)
        three = Node("node3", postgres_url, redis_url, tmp_path, SHESHBESH_ABANDON_GRACE="2")
        closing.callback(three.stop)
        three.wait_ready()

        def away_then_back(seat: int) -> bool:
            online = [p["online"] for p in a.presence if p["seat"] == seat]
            return False in online and True in online[online.index(False) :]

        # Marked away by the new process, present again at once from process 1.
        a.until(lambda _: away_then_back(0) and away_then_back(1))

        async def stored() -> tuple[str, float | None, float | None]:
            db = Database(postgres_url)
            try:
                async with db.read() as session:
                    game = await session.get(Game, game_id)
                    assert game is not None
                    return game.status, game.away0, game.away1
            finally:
                await db.close()

        assert asyncio.run(stored()) == ("live", None, None)  # no timer can forfeit anyone
        move = next(m for m in a.legal or [] if m["type"] == "move")
        assert a.act(move)["t"] == "state" and a.state["result"] is None
    for node in (one, three):
        assert "Traceback" not in node.output(), f"{node.name} failed:\n{node.output()}"


@contextlib.asynccontextmanager
async def two_buses(redis_url: str) -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    """Two processes' buses on one Redis, started, and stopped afterwards."""
    here, there = RedisBus(redis_url), RedisBus(redis_url)
    await here.start()
    await there.start()
    try:
        yield here, there
    finally:
        await here.stop()
        await there.stop()


def test_a_redis_subscription_is_live_once_subscribe_returns(redis_url: str) -> None:
    """RedisBus: Redis confirms each change before it returns; a leave-and-join race keeps it."""

    async def scenario() -> None:
        async with two_buses(redis_url) as (here, there):
            heard: asyncio.Queue[str] = asyncio.Queue()
            key = here.prefix + "game:bus"

            async def subscribers() -> int:
                [(_, count)] = await there.redis.pubsub_numsub(key)
                return int(count)

            await here.subscribe("game:bus", heard.put_nowait)
            assert await subscribers() == 1
            await there.publish("game:bus", "one")
            assert await asyncio.wait_for(heard.get(), 10) == "one"

            def late(_message: str) -> None:
                pass

            await asyncio.gather(
                here.unsubscribe("game:bus", heard.put_nowait), here.subscribe("game:bus", late)
            )
            await here.subscribe("game:bus", heard.put_nowait)
            assert await subscribers() == 1
            await there.publish("game:bus", "two")
            assert await asyncio.wait_for(heard.get(), 10) == "two"

            await here.unsubscribe("game:bus", heard.put_nowait)
            await here.unsubscribe("game:bus", late)
            assert await subscribers() == 0

    asyncio.run(scenario())


def test_a_games_message_is_heard_once_by_every_process_its_own_at_once(redis_url: str) -> None:
    """RedisBus.publish_data on a game's channel: the publishing process delivers the object
    itself and skips Redis's echo (heard once, not twice); the other process hears it
    through Redis as JSON text. Other channels still come back through Redis."""

    async def scenario() -> None:
        async with two_buses(redis_url) as (here, there):
            heard_here: asyncio.Queue[Any] = asyncio.Queue()
            heard_there: asyncio.Queue[Any] = asyncio.Queue()
            for bus, queue in ((here, heard_here), (there, heard_there)):
                await bus.subscribe("game:echo", queue.put_nowait)
                await bus.subscribe("user:7", queue.put_nowait)
            move = {"seq": 3, "events": [{"type": "rolled", "dice": [6, 5]}]}
            await here.publish_data("game:echo", move)
            assert heard_here.get_nowait() == move  # delivered before publish_data returned
            text = await asyncio.wait_for(heard_there.get(), 10)
            assert {k: v for k, v in json.loads(text).items() if k != "from"} == move
            # A message that follows proves the echo of the first was skipped, not late.
            await here.publish_data("user:7", {"t": "unread"})
            assert json.loads(await asyncio.wait_for(heard_here.get(), 10)) == {"t": "unread"}
            assert json.loads(await asyncio.wait_for(heard_there.get(), 10)) == {"t": "unread"}
            assert heard_here.empty() and heard_there.empty()

    asyncio.run(scenario())


def test_a_games_message_dropped_while_redis_was_away_sends_the_others_to_the_log(
    redis_url: str,
) -> None:
    """A publish that fails is dropped (the move is stored). The other process's own
    connection may never have broken, or came back before the drop, so nothing of its
    own tells it to look: once this process publishes again, it asks every process
    serving that game to catch up from the database (``catch_up``), once."""
    import redis.exceptions

    async def scenario() -> None:
        async with two_buses(redis_url) as (here, there):
            heard: asyncio.Queue[Any] = asyncio.Queue()
            await there.subscribe("game:lost", heard.put_nowait)
            own: asyncio.Queue[Any] = asyncio.Queue()
            await there.subscribe("user:7", own.put_nowait)
            recovered: list[str] = []

            async def recovery() -> None:
                recovered.append("here")

            here.on_recovered(recovery)
            publish = here.redis.publish

            async def away(*args: Any, **kwargs: Any) -> None:
                raise redis.exceptions.ConnectionError("Redis is away")

            here.redis.publish = away
            await here.publish_data("game:lost", {"seq": 4, "events": []})  # dropped
            await here.publish_data("user:7", {"t": "unread"})  # dropped, a player's
            assert here.dropped == {"game:lost", "user:7"} and heard.empty() and own.empty()
            here.redis.publish = publish
            await here.publish_data("game:lost", {"seq": 5, "events": []})
            first = json.loads(await asyncio.wait_for(heard.get(), 10))
            assert first["seq"] == 5
            assert await asyncio.wait_for(heard.get(), 10) == CATCH_UP
            assert await asyncio.wait_for(own.get(), 10) == CATCH_UP
            assert recovered == ["here"] and here.dropped == set()
            await here.publish_data("game:lost", {"seq": 6, "events": []})
            assert json.loads(await asyncio.wait_for(heard.get(), 10))["seq"] == 6
            assert heard.empty() and own.empty()  # said once

    asyncio.run(scenario())


def test_what_the_lobby_and_a_players_page_missed_reaches_them_on_a_process_that_lost_nothing(
    postgres_url: str, redis_url: str
) -> None:
    """Process one's publishes fail for a while (Redis away from it alone, or back for the
    others before its drop): Bob's accept of Ann's request and Carl's new request are
    stored, their lobby, chat and page messages dropped. Process two lost nothing, so nothing
    of its own tells it to look; once one publishes again it says ``catch_up`` on each
    channel it dropped, and two's lobby socket is sent the whole lobby (Carl's request,
    the game begun) and its chat (Carl's line), Ann's page her hello and her "me" again
    (the game she is in)."""
    import redis.exceptions

    settings = Settings(database_url=postgres_url, redis_url=redis_url,
                        password_profile="fast", **OPEN_DOORS, **UNTHROTTLED)  # fmt: skip
    with RunningClub(settings) as one, RunningClub(settings) as two:
        ann = Player(two.base, "ann").register()
        bob, carl = Player(one.base, "bob").register(), Player(one.base, "carl").register()
        offer = ann.offer(variant="backgammon", stake=20)
        lobby = LobbySocket(two.base)
        page = MeSocket(ann)
        assert page.hello["d"]["unread"] == 0
        bus = one.app.state.club.bus
        assert isinstance(bus, RedisBus)
        publish = bus.redis.publish

        async def away(*args: Any, **kwargs: Any) -> None:
            raise redis.exceptions.ConnectionError("Redis is away from process one")

        bus.redis.publish = away
        game = bob.accept(offer["id"])["id"]
        later = carl.offer(variant="long_nardy", stake=30)["id"]
        assert carl.post("/api/chat/lobby", {"text": "while away"}).status_code == 201
        assert "lobby" in bus.dropped and any(c.startswith("user:") for c in bus.dropped)
        bus.redis.publish = publish
        assert carl.post("/api/chat/lobby", {"text": "back"}).status_code == 201

        whole = lobby.next(lambda m: m["t"] == "lobby", timeout=30)
        assert later in {r["id"] for r in whole["d"]["requests"]}
        assert offer["id"] not in {r["id"] for r in whole["d"]["requests"]}
        assert game in {g["id"] for g in whole["d"]["games"]}
        chat = lobby.next(lambda m: m["t"] == "chat_history", timeout=10)
        assert [line["text"] for line in chat["d"]["lines"]][-2:] == ["while away", "back"]
        again = page.until("hello", timeout=30)
        assert again["d"]["unread"] == 1  # the note that Bob accepted, stored meanwhile
        assert page.until("me", timeout=10)["d"]["playing"] == game
        lobby.close()
        page.close()
        for player in (ann, bob, carl):
            player.close()


def test_escrows_over_the_same_wallets_at_once_wait_instead_of_deadlocking(
    postgres_url: str,
) -> None:
    """Ann is seat 0 in one game and seat 1 in another; both games escrow at the same time.

    Each transfer locks the wallets' rows in one order, so on PostgreSQL the second
    waits for the first instead of both failing with "deadlock detected".
    """

    async def scenario() -> None:
        db = Database(postgres_url)
        await db.migrate()
        try:
            async with db.transaction() as session:
                users = [
                    User(username=name, username_key=name, password_hash="-", created_at=0.0)
                    for name in ("ann", "bob")
                ]
                session.add_all(users)
                await session.flush()
                grants = await ledger.system_account(session, "grants")
                for user in users:
                    wallet = await ledger.open_wallet(session, user.id)
                    grant = [(grants, -ledger.GRANT), (wallet, ledger.GRANT)]
                    await ledger.transfer(session, "grant", grant, now=0.0)
            ann, bob = (user.id for user in users)

            async def escrow(seat0: int, seat1: int, game_id: str) -> None:
                async with db.transaction() as session:
                    wallets = [await ledger.wallet_of(session, uid) for uid in (seat0, seat1)]
                    held = await ledger.escrow_of(session, game_id)
                    entries = [(wallets[0], -1), (wallets[1], -1), (held, 2)]
                    await ledger.transfer(session, "escrow", entries, now=0.0, game_id=game_id)

            for n in range(20):
                await asyncio.gather(escrow(ann, bob, f"one{n}"), escrow(bob, ann, f"two{n}"))
            async with db.read() as session:
                assert await ledger.balance_of(session, ann) == ledger.GRANT - 40
                assert await ledger.total(session) == 0
        finally:
            await db.close()

    asyncio.run(scenario())


def _record(node: Node, game_id: str) -> dict[str, Any]:
    response = httpx.get(f"{node.base}/api/games/{game_id}/record", timeout=10)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_move_made_in_time_on_one_process_beats_the_flag_check_of_another(
    postgres_url: str, redis_url: str
) -> None:
    """Bob moves on process one with 0.1 s of his minute left; its write is still on its
    way to the database (held here) when process two's timeout check runs, 0.2 s past his
    flag. On one process the move would win (the check waits for the round's lock); across
    processes the check must leave a write in flight time to land (``FLAG_ALLOWANCE``),
    or the move made in time is refused and Bob forfeits."""

    class Clock:
        at = 1_800_000_000.0

        def __call__(self) -> float:
            return self.at

    clock = Clock()
    settings = Settings(database_url=postgres_url, redis_url=redis_url,
                        password_profile="fast", **OPEN_DOORS, **UNTHROTTLED)  # fmt: skip
    with RunningClub(settings, now=clock) as one, RunningClub(settings, now=clock) as two:
        ann = Player(two.base, "ann").register()
        bob = Player(one.base, "bob").register()
        offer = ann.offer(variant="draughts", stake=100, clock="fischer 1m + 0s")
        game_id = bob.accept(offer["id"])["id"]
        a, b = ann.watch(game_id), bob.watch(game_id)
        for sock in (a, b):
            sock.until(lambda f: f["t"] == "snapshot")
        started = clock.at
        move = next(m for m in a.legal or [] if m["type"] == "move")
        assert a.act(move)["t"] == "state"  # Bob's minute runs from here
        b.settle(a.v)
        if b.legal_v < b.v:
            b.until(lambda f: f["t"] == "legal" and f["v"] == b.v)

        entered, release = threading.Event(), threading.Event()
        group = one.app.state.club.db.group
        write = group.write

        async def held(move_write: Any) -> None:
            entered.set()
            await asyncio.get_running_loop().run_in_executor(None, release.wait)
            await write(move_write)

        group.write = held
        clock.at = started + 59.9
        reply = next(m for m in b.legal or [] if m["type"] == "move")
        b.send({"t": "action", "v": b.v, "d": reply})
        assert entered.wait(15), "process one never began to store Bob's move"
        clock.at = started + 60.2
        checker = two.app.state.club.need(Rounds).rounds[game_id]
        assert checker.timer.waiting is not None
        loop = checker.timer.waiting.get_loop()
        asyncio.run_coroutine_threadsafe(checker.expire(), loop).result(15)
        release.set()
        answer = b.until(lambda f: f["t"] in ("state", "error"))
        assert answer["t"] == "state", answer
        assert answer["d"]["result"] is None and b.errors == []
        group.write = write
        # The allowance only delays a flag: Ann's minute, from Bob's move, runs out.
        a.settle(b.v)
        clock.at = started + 59.9 + 60 + FLAG_ALLOWANCE + 0.01
        asyncio.run_coroutine_threadsafe(checker.expire(), loop).result(15)
        ended = a.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None)
        assert ended["d"]["result"]["winner"] == "B" and a.events[-2]["type"] == "timeout"
        for player in (ann, bob):
            player.close()
