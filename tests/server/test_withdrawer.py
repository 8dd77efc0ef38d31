"""A request lives only while its owner has the club open (issue 16, item 4).

The ambush: a request never expired and needed nobody present, so an attacker
accepted the request of a player who had closed the page and waited for PL-7 to
forfeit him. Now an owner with no ``/ws/me`` and no lobby socket for the grace
has his requests withdrawn, private challenges too, and the lobby is told.

The clubs here have a grace of a second. Whether an open tab keeps a request is
read without waiting on time: a request posted later by someone with no tab open
is withdrawn first, so by then the grace has passed for the earlier one too.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from club_client import Player, RunningClub
from me_socket import MeSocket
from test_cluster import LobbySocket, Node
from test_lobby_socket import lobby, next_of

GRACE = 1.0


@pytest.fixture
def quick_club(club_settings) -> Iterator[RunningClub]:
    with RunningClub(dataclasses.replace(club_settings, request_grace=GRACE)) as running:
        yield running


def open_ids(player: Player) -> set[str]:
    return {request["id"] for request in player.get("/api/requests").json()}


def test_a_request_is_withdrawn_once_its_owner_has_no_club_tab_open(quick_club):
    ann, bob, carl, dan = (Player(quick_club.base, name).register()
                           for name in ("ann", "bob", "carl", "dan"))  # fmt: skip
    with contextlib.ExitStack() as closing:
        for player in (ann, bob, carl, dan):
            closing.callback(player.close)
        ann_tab = closing.enter_context(MeSocket(ann))  # a page of the club: /ws/me
        dan_lobby = closing.enter_context(lobby(quick_club.base, dan.cookie_header))  # the lobby
        next_of(dan_lobby, "lobby")
        watcher = closing.enter_context(lobby(quick_club.base, bob.cookie_header))
        next_of(watcher, "lobby")
        public = ann.offer(variant="backgammon", stake=100, cube=True)
        private = ann.offer(variant="draughts", stake=10, opponent="bob")
        dans = dan.offer(variant="draughts", stake=5)
        carls = carl.offer(variant="backgammon", stake=100)  # Carl has no tab open at all
        removed = next_of(watcher, "request_removed")
        assert removed == {"id": carls["id"]}  # his, first: the others' tabs keep theirs
        assert open_ids(bob) == {public["id"], private["id"], dans["id"]}
        refused = bob.post(f"/api/requests/{carls['id']}/accept")
        assert refused.status_code == 409 and refused.json()["error"] == "cannot_accept"

        ann_tab.close()  # Ann closes her last page: the public request and the challenge go
        gone = {next_of(watcher, "request_removed")["id"] for _ in range(2)}
        assert gone == {public["id"], private["id"]}
        assert open_ids(bob) == {dans["id"]}
        assert ann.balance() == carl.balance() == 100_000  # nothing was ever held
        taken = bob.post(f"/api/requests/{dans['id']}/accept")  # Dan's lobby kept his
        assert taken.status_code == 201, taken.text


def test_an_owner_online_in_another_process_keeps_his_requests(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Presence is per process: Ann's page is open on process 1, and process 2, which
    sweeps too, hears of it (Redis) and keeps her request; once she leaves, it goes."""
    one, two = (Node(f"node{i}", postgres_url, redis_url, tmp_path, SHESHBESH_REQUEST_GRACE="1")
                for i in (1, 2))  # fmt: skip
    with contextlib.ExitStack() as closing:
        for node in (one, two):
            closing.callback(node.stop)
            node.wait_ready()
        ann, bob = Player(one.base, "ann"), Player(two.base, "bob")
        closing.callback(ann.close)
        closing.callback(bob.close)
        ann.register()
        bob.register()
        ann_tab = closing.enter_context(MeSocket(ann))
        watcher = closing.enter_context(contextlib.closing(LobbySocket(two.base)))
        offer = ann.offer(variant="backgammon", stake=100, cube=True)
        bobs = bob.offer(variant="draughts", stake=5)  # Bob has no tab open on either
        removed = watcher.next(lambda m: m["t"] == "request_removed")
        assert removed["d"] == {"id": bobs["id"]}
        assert open_ids(bob) == {offer["id"]}  # as process 2 lists them
        ann_tab.close()
        removed = watcher.next(lambda m: m["t"] == "request_removed")
        assert removed["d"] == {"id": offer["id"]} and open_ids(bob) == set()
    for node in (one, two):
        assert "Traceback" not in node.output(), f"{node.name} failed:\n{node.output()}"
