"""Faults in a cluster (issue 20): two ``sheshbesh serve`` processes on one PostgreSQL and
one Redis; Ann plays through process 1, Bob through process 2.

- Process 1 is killed with SIGKILL mid-game: Ann's page reconnects to process 2 from
  the last event she had (``?v=``), and the game goes on there to its end.
- Process 1 is killed while two spectators watch through it: the others stop
  counting them once it has been silent for three heartbeats.
- Redis is killed mid-game and a move is made while it is down: the move is stored,
  its messages are lost; once Redis is back on its port both processes reconnect and
  catch their sockets up from the stored log.

Either way nobody misses an event or hears one twice (the club client asserts that
``v`` grows by one), the stored log has no gap, and the ledger still sums to zero
with both players' FUN accounted for.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis_server
from club_client import GameSocket, Player, next_mover, play_randomly
from me_socket import MeSocket
from test_cluster import LobbySocket, Node, nodes, running_nodes  # noqa: F401 (fixture)

START = 100_000


QUIET = ("resign", "double")
"""Actions the scripted part of a game leaves out, so it cannot end early."""


def game_across(one: Node, two: Node, rng: random.Random, actions: int,
                **request: Any) -> tuple[Player, Player, str, GameSocket, GameSocket]:  # fmt: skip
    """Ann on process ``one`` offers, Bob on process ``two`` accepts; both watch and play
    ``actions`` random actions (no resignation, no double)."""
    ann, bob = Player(one.base, "ann").register(), Player(two.base, "bob").register()
    game = bob.accept(ann.offer(**request)["id"])["id"]
    a, b = ann.watch(game), bob.watch(game)
    for sock in (a, b):
        sock.until(lambda f: f["t"] == "snapshot")
    for _ in range(actions):
        mover = next_mover([a, b])
        assert mover is not None
        menu = [m for m in mover.legal or [] if m["type"] not in QUIET]
        assert mover.act(rng.choice(menu))["t"] == "state"
    return ann, bob, game, a, b


def played_out_whole(processes: list[Node], ann: Player, bob: Player, game: str,
                     sockets: list[GameSocket], rng: random.Random) -> None:  # fmt: skip
    """No socket heard an error; the game is played to its end, its stored log has no gap,
    every socket heard all of it, the ledger sums to zero and both players' FUN is whole."""
    assert not [e for s in sockets for e in s.errors]
    play_randomly(sockets, rng)
    record = bob.get(f"/api/games/{game}/record").json()
    seqs = [record["created"]["seq"], *(e["seq"] for e in record["events"])]
    assert seqs == list(range(len(seqs)))
    assert all(s.v == seqs[-1] for s in sockets)
    for node in processes:
        assert node.health()["ledger_total"] == 0
    assert ann.balance() + bob.balance() == 2 * START
    for player in (ann, bob):
        player.close()


def open_on(base: str, player: Player) -> Player:
    """The same person (his session cookie) in a page served by another process."""
    there = Player(base, player.name)
    there.http.cookies.update(player.http.cookies)
    return there


def test_sigkill_of_one_process_mid_game_the_game_goes_on_on_the_other(nodes):  # noqa: F811
    one, two = nodes
    ann, bob, game, a, b = game_across(one, two, random.Random(11), 12,
                                       variant="backgammon", stake=50, cube=True)  # fmt: skip
    seen = a.v
    one.process.kill()  # SIGKILL: no shutdown, no goodbye
    one.process.wait(timeout=20)

    ann_there = open_on(two.base, ann)
    again = GameSocket(ann_there, game, since=seen)
    again.until(lambda f: f["t"] in ("snapshot", "state") and again.v >= b.v)
    played = play_randomly([again, b], random.Random(12), prefer=("take",))
    assert played > 0 and again.finished and b.finished

    record = bob.get(f"/api/games/{game}/record").json()
    seqs = [record["created"]["seq"], *(e["seq"] for e in record["events"])]
    assert seqs == list(range(len(seqs)))  # no gap, nothing twice
    assert record["events"][-1]["type"] == "finished"
    health = two.health()
    assert health["ok"] and health["ledger_total"] == 0
    assert ann_there.balance() + bob.balance() == 2 * START
    for player in (ann, bob, ann_there):
        player.close()


@pytest.fixture
def own_redis() -> Iterator[list[redis_server.RedisServer]]:
    """A Redis server of this test's own (it gets restarted), in a list the test updates."""
    held = [redis_server.start_or_skip()]
    yield held
    held[0].stop()


def caught_up(sockets: list[GameSocket], after: int, timeout: float = 60) -> int:
    """Read until every socket has heard an event past ``after`` and the state that goes
    with the same latest event; that event's number."""
    deadline = time.monotonic() + timeout
    while True:
        latest = max(s.v for s in sockets)
        if latest > after and all(s.v == latest and s.state_v == latest for s in sockets):
            return latest
        if time.monotonic() > deadline:
            raise TimeoutError(f"not caught up: {[(s.v, s.state_v) for s in sockets]}")
        for sock in sockets:
            with contextlib.suppress(TimeoutError):
                sock.recv(timeout=0.05)


def test_a_move_made_while_redis_is_down_reaches_both_players_once_it_is_back(
    postgres_url: str, own_redis: list[redis_server.RedisServer], tmp_path: Path
) -> None:
    """Redis killed mid-game: a move made meanwhile is stored and answered, its messages
    are lost; once Redis is back, both processes reconnect and catch their sockets up
    from the stored log, so both players hear the move, in order, exactly once."""
    with running_nodes(postgres_url, own_redis[0].url, tmp_path) as started:
        one, two = started
        rng = random.Random(21)
        ann, bob, game, a, b = game_across(one, two, rng, 6, variant="backgammon", stake=50)
        mover = next_mover([a, b])
        assert mover is not None
        before = mover.v
        action = rng.choice([m for m in mover.legal or [] if m["type"] not in QUIET])

        def move_while_down() -> None:
            mover.send({"t": "action", "v": mover.v, "d": action})

        own_redis[0] = redis_server.restart(own_redis[0], between=move_while_down)
        caught_up([a, b], before)
        played_out_whole(started, ann, bob, game, [a, b], random.Random(22))


def test_a_request_posted_while_redis_is_down_reaches_the_other_processs_lobby(
    postgres_url: str, own_redis: list[redis_server.RedisServer], tmp_path: Path
) -> None:
    """The lobby's messages are lost too while Redis is away: once it is back, every
    lobby socket is sent the whole lobby again, read from the database."""
    with running_nodes(postgres_url, own_redis[0].url, tmp_path) as started:
        one, two = started
        ann, bob = Player(one.base, "ann").register(), Player(two.base, "bob").register()
        lobby = LobbySocket(two.base, bob)
        posted: list[str] = []

        def post_while_down() -> None:
            posted.append(ann.offer(variant="short_nardy", stake=20)["id"])

        own_redis[0] = redis_server.restart(own_redis[0], between=post_while_down)
        seen = lobby.next(
            lambda m: (
                (m["t"] == "lobby" and posted[0] in {r["id"] for r in m["d"]["requests"]})
                or (m["t"] == "request_added" and m["d"]["id"] == posted[0])
            ),
            timeout=60,
        )
        assert seen
        lobby.close()
        for player in (ann, bob):
            player.close()


def test_a_game_begun_while_redis_is_down_reaches_its_owners_page(
    postgres_url: str, own_redis: list[redis_server.RedisServer], tmp_path: Path
) -> None:
    """Ann's page (``/ws/me`` on process 1) misses the ``game_started`` that Bob's accept
    on process 2 published while Redis was away; once it is back, her socket is sent her
    hello and her "me" again, which name the game she is in (the page goes to it)."""
    with running_nodes(postgres_url, own_redis[0].url, tmp_path) as started:
        one, two = started
        ann, bob = Player(one.base, "ann").register(), Player(two.base, "bob").register()
        offer = ann.offer(variant="backgammon", stake=20)
        page = MeSocket(ann)
        assert page.hello["d"]["unread"] == 0
        games: list[str] = []

        def accept_while_down() -> None:
            games.append(bob.accept(offer["id"])["id"])

        own_redis[0] = redis_server.restart(own_redis[0], between=accept_while_down)
        again = page.until("hello", timeout=60)
        assert again["d"]["unread"] == 1  # the note that Bob accepted, stored meanwhile
        me = page.until("me", timeout=10)
        assert me["d"]["playing"] == games[0] and me["d"]["username"] == "ann"
        assert me["d"]["balance"] == START - 60  # the escrow: 20 × 3 (a backgammon)
        page.close()
        for player in (ann, bob):
            player.close()


def spectators_seen(node: Node, game: str) -> int:
    return int(httpx.get(f"{node.base}/api/games/{game}", timeout=10).json()["spectators"])


def test_the_spectators_of_a_killed_process_stop_being_counted(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Each process counts its own spectators and says it is alive every beat; when one is
    killed, the others sweep its count once it has been silent for three beats."""
    beat = {"SHESHBESH_NODE_HEARTBEAT": "0.5"}
    with running_nodes(postgres_url, redis_url, tmp_path, **beat) as started:
        one, two = started
        ann, bob = Player(two.base, "ann").register(), Player(two.base, "bob").register()
        game = bob.accept(ann.offer(variant="plakoto", stake=10)["id"])["id"]
        watchers = [GameSocket(None, game, base=base) for base in (one.base, one.base, two.base)]
        for sock in watchers:
            sock.until(lambda f: f["t"] == "snapshot")

        def counted(node: Node, want: int) -> None:
            deadline = time.monotonic() + 60
            while spectators_seen(node, game) != want:
                assert time.monotonic() < deadline, f"never {want}: {spectators_seen(node, game)}"
                time.sleep(0.05)

        counted(two, 3)
        one.process.kill()  # its two spectators' sockets die with it, uncounted
        one.process.wait(timeout=20)
        counted(two, 1)
        watchers[2].close()
        counted(two, 0)
        for player in (ann, bob):
            player.close()
