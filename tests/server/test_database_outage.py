"""PostgreSQL unreachable for a moment mid-game (issue 20), on a cluster of this test's
own: it is stopped (a fast shutdown, every connection cut) and started again on the
same port with the same data.

While it is down a move is refused with ``unavailable`` and changes nothing, a page
that needs the database answers 503, and a game socket opened meanwhile is told
``unavailable`` and closed with 1013, to be opened again with ``?v=`` (a player's other
tab, whose session must be read; so are her lobby and her own socket), or, when
nothing in its opening needed the database (a guest whose count waits for the
spectators' window), is sent ``hello`` and its first frames once the database is back.
Once it is back, the move is taken at once, every socket hears every event exactly
once and in order (``GameSocket.recv`` asserts that ``v`` grows by one), the game goes
on to its end, its stored log has no gap and the ledger sums to zero.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pg
import pytest
import redis_server
from club_client import GameSocket, Player, ServerProcess, next_mover, play_randomly
from test_cluster import running_nodes
from test_cluster_faults import (  # noqa: F401 (own_redis: the fixture)
    QUIET,
    START,
    caught_up,
    game_across,
    open_on,
    own_redis,
    played_out_whole,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


@pytest.fixture
def own_postgres() -> Iterator[pg.Cluster]:
    """A PostgreSQL cluster of this test's own (it gets stopped and started again)."""
    try:
        cluster = pg.start()
    except pg.Unavailable as why:
        if pg.required():
            pytest.fail(f"PostgreSQL is required ({pg.REQUIRE}=1) but unavailable: {why}")
        pytest.skip(f"PostgreSQL unavailable: {why}")
    yield cluster
    cluster.stop()


def test_a_move_while_postgresql_is_down_is_refused_and_the_game_resumes_after(
    own_postgres: pg.Cluster,
) -> None:
    own_postgres.sql("CREATE DATABASE club")  # never dropped: the cluster goes, down or up
    server = ServerProcess(own_postgres.url("club")).start()
    try:
        play_through_an_outage(own_postgres, server)
    except BaseException:
        print(server.output())  # what the server saw, beside the test's failure
        raise
    finally:
        server.stop()


def play_through_an_outage(cluster: pg.Cluster, server: ServerProcess) -> None:
    rng = random.Random(31)
    ann, bob = Player(server.base, "ann").register(), Player(server.base, "bob").register()
    game = bob.accept(ann.offer(variant="backgammon", stake=50)["id"])["id"]
    a, b = ann.watch(game), bob.watch(game)
    crowd = GameSocket(None, game, base=server.base)
    for sock in (a, b, crowd):
        sock.until(lambda f: f["t"] == "snapshot")
    for _ in range(6):
        mover = next_mover([a, b])
        assert mover is not None
        assert mover.act(quiet_choice(mover, rng))["t"] == "state"
    caught_up([a, b, crowd], a.v - 1)
    mover = next_mover([a, b])
    assert mover is not None
    before = mover.v
    action = quiet_choice(mover, rng)

    cluster.down()
    refused = mover.act(action)
    assert refused["t"] == "error" and refused["d"]["error"] == "unavailable", refused
    assert refused["d"]["re"] == "action"
    page = bob.get(f"/api/games/{game}/record")
    assert page.status_code == 503 and page.json()["error"] == "unavailable", page.text
    ann_again = open_on(server.base, ann)  # her other tab, opened while it is down
    closed = GameSocket(ann_again, game, since=before - 2)
    told_to_come_back(closed)  # her session could not be read
    for path in ("/ws/lobby", "/ws/me"):  # nor there: the same answer, not an error
        told_to_come_back_on(server.base + path, ann_again)
    guests = []  # the second mostly comes while the first's count waits for its window
    for _ in range(2):
        guest = GameSocket(None, game, base=server.base)
        waits = guest.recv()["t"] == "hello"  # else his spectator count could not be written
        if not waits:
            told_to_come_back(guest)
        guests.append((guest, waits))
    assert closed.v == before - 2
    cluster.up()
    again = GameSocket(ann_again, game, since=closed.v)  # as the page does: back with ?v=
    guests = [(g if waits else GameSocket(None, game, base=server.base), waits)
              for g, waits in guests]  # fmt: skip

    assert mover.act(action)["t"] == "state"  # taken at once: nothing half-written before
    sockets = [a, b, crowd, again, *(g for g, _ in guests)]
    caught_up(sockets, before)
    assert not [e for s in sockets for e in s.errors if e is not refused["d"]]
    play_randomly(sockets, random.Random(32))  # the spectator and the new tab read along

    record = bob.get(f"/api/games/{game}/record").json()
    seqs = [record["created"]["seq"], *(e["seq"] for e in record["events"])]
    assert seqs == list(range(len(seqs)))  # no gap, nothing twice
    assert record["events"][-1]["type"] == "finished"
    assert all(s.v == seqs[-1] for s in sockets), [s.v for s in sockets]
    health = httpx_health(server)
    assert health["ok"] and health["ledger_total"] == 0
    assert ann.balance() + bob.balance() == 2 * START
    for person in (ann, bob, ann_again):
        person.close()
    for sock in (crowd, *(g for g, _ in guests)):
        sock.close()


def quiet_choice(mover: GameSocket, rng: random.Random) -> dict[str, Any]:
    return dict(rng.choice([m for m in mover.legal or [] if m["type"] not in QUIET]))


def told_to_come_back(sock: GameSocket) -> None:
    """The socket is told ``unavailable`` (first, or after the frames read already) and
    closed with 1013, "try again later"."""
    with pytest.raises(ConnectionClosed) as ended:
        sock.until(lambda f: False)
    assert ended.value.rcvd is not None and ended.value.rcvd.code == 1013
    assert [e["error"] for e in sock.errors] == ["unavailable"]


def told_to_come_back_on(url: str, player: Player) -> None:
    """A lobby's or a player's own socket opened with ``player``'s cookie is told
    ``unavailable`` and closed with 1013, as a game's is."""
    cookies = player.cookie_header
    url = url.replace("http://", "ws://")
    with connect(url, additional_headers={"Cookie": cookies}, open_timeout=20) as ws:
        frames = []
        with pytest.raises(ConnectionClosed) as ended:
            while True:
                frames.append(json.loads(ws.recv(timeout=30)))
    assert ended.value.rcvd is not None and ended.value.rcvd.code == 1013, (url, frames)
    assert [f["d"]["error"] for f in frames if f["t"] == "error"] == ["unavailable"], frames


def httpx_health(server: ServerProcess) -> dict[str, object]:
    return dict(httpx.get(server.base + "/healthz", timeout=10).json())


def test_redis_and_postgresql_down_together_the_sockets_catch_up_once_both_are_back(
    own_postgres: pg.Cluster,
    own_redis: list[redis_server.RedisServer],  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """Redis is killed and a move made meanwhile (stored; its messages lost), then
    PostgreSQL goes down before Redis is back: each process's catch-up after the bus loss
    finds no database. It waits for it (it once gave up, and the players never heard
    the move): once PostgreSQL is back too, both hear it, in order, exactly once."""
    own_postgres.sql("CREATE DATABASE club")
    with running_nodes(own_postgres.url("club"), own_redis[0].url, tmp_path) as started:
        one, two = started
        rng = random.Random(41)
        ann, bob, game, a, b = game_across(one, two, rng, 4, variant="backgammon", stake=50)
        mover = next_mover([a, b])
        assert mover is not None
        before = mover.v

        def move_then_database_down() -> None:
            mover.send({"t": "action", "v": mover.v, "d": quiet_choice(mover, rng)})
            while bob.get(f"/api/games/{game}").json()["seq"] <= before:
                mover.round_trip()  # the move is stored: the database's word, not a sleep
            own_postgres.down()

        own_redis[0] = redis_server.restart(own_redis[0], between=move_then_database_down)
        for node in started:  # back on the bus, each met the database away
            wait_for(lambda node=node: "resync after a bus loss" in node.output())
        own_postgres.up()
        caught_up([a, b], before)
        played_out_whole(started, ann, bob, game, [a, b], random.Random(42))


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        time.sleep(0.05)
