"""The lobby over real HTTP: posting, listing, cancelling and accepting game requests."""

from __future__ import annotations

import re
import threading
from types import SimpleNamespace
from typing import Any

import pytest
from club_client import Player

from sheshbesh.server.rounds.start import owner_plays_white

START = 100_000


def test_a_request_is_listed_with_its_options_until_cancelled(new_player):
    ann = new_player("ann")
    offer = ann.offer(variant="long_nardy", stake=50, stake_mode="mars", clock="delay 12s + 5m")
    listed = ann.get("/api/requests").json()
    assert [r["id"] for r in listed] == [offer["id"]]
    assert listed[0]["owner"]["username"] == "ann"
    assert listed[0]["options"]["stake_mode"] == "mars" and listed[0]["clock"] == "delay 12s + 5m"
    assert ann.http.delete(f"/api/requests/{offer['id']}").status_code == 200
    assert ann.get("/api/requests").json() == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "backgammon", "stake": -1}, "invalid_request"),
        ({"variant": "backgammon", "stake": 1.5}, "invalid_request"),
        ({"variant": "backgammon", "stake": "100"}, "invalid_request"),
        ({"variant": "backgammon", "stake": True}, "invalid_request"),
        ({"variant": "backgammon", "stake": 10**12}, "invalid_stake"),
        ({"variant": "chess", "stake": 1}, "invalid_options"),
        ({"variant": "long_nardy", "stake": 1, "cube": True}, "invalid_options"),
        ({"variant": "backgammon", "stake": 1, "match_length": 30}, "invalid_request"),
        ({"variant": "draughts", "stake": 1, "cube": True}, "invalid_options"),
        ({"variant": "backgammon", "stake": 1, "clock": "forever"}, "invalid_clock"),
        ({"variant": "backgammon", "stake": 1, "colour": "pink"}, "invalid_request"),
        ({"variant": "backgammon", "stake": 1, "colour": "white"}, "invalid_options"),
        ({"variant": "draughts", "stake": 1, "colour": "pink"}, "invalid_request"),
    ],
)
def test_bad_requests_get_a_clear_error_and_nothing_is_posted(new_player, body, code):
    ann = new_player("ann")
    response = ann.post("/api/requests", body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == code and response.json()["message"]
    assert ann.get("/api/requests").json() == []


def test_the_rule_is_named_when_an_option_breaks_it(new_player):
    response = new_player("ann").post("/api/requests", {"variant": "short_nardy", "stake": 1,
                                                        "cube": True})  # fmt: skip
    assert "NS-1" in response.json()["message"]


def test_an_unaffordable_stake_is_refused(new_player):
    ann = new_player("ann")
    # A backgammon at cube 1 can cost 3 points: 40 000 a point needs 120 000 in escrow.
    response = ann.post("/api/requests", {"variant": "backgammon", "stake": 40_000})
    assert response.status_code == 409 and response.json()["error"] == "insufficient_funds"
    assert ann.post("/api/requests", {"variant": "backgammon", "stake": 33_333}).status_code == 201


def test_a_zero_stake_is_a_free_game(new_player):
    """PL-3: no FUN moves at all."""
    ann, bob = new_player("ann"), new_player("bob")
    offer = ann.offer(variant="plakoto", stake=0)
    bob.accept(offer["id"])
    assert ann.balance() == bob.balance() == 100_000


def test_nobody_accepts_his_own_request(new_player):
    ann = new_player("ann")
    offer = ann.offer(variant="backgammon", stake=10)
    response = ann.post(f"/api/requests/{offer['id']}/accept")
    assert response.status_code == 409 and "own request" in response.json()["message"]
    assert len(ann.get("/api/requests").json()) == 1


def test_only_the_owner_cancels_and_a_cancelled_request_cannot_be_accepted(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    offer = ann.offer(variant="backgammon", stake=10)
    assert bob.http.delete(f"/api/requests/{offer['id']}").status_code == 403
    assert ann.http.delete(f"/api/requests/{offer['id']}").status_code == 200
    assert ann.http.delete(f"/api/requests/{offer['id']}").status_code == 409
    late = bob.post(f"/api/requests/{offer['id']}/accept")
    assert late.status_code == 409 and bob.balance() == 100_000


def test_accepting_needs_a_login_and_an_existing_request(club, new_player):
    guest = Player(club.base, "guest")
    ann = new_player("ann")
    offer = ann.offer(variant="backgammon", stake=10)
    assert guest.post(f"/api/requests/{offer['id']}/accept").status_code == 401
    assert ann.post("/api/requests/nope/accept").status_code == 404
    guest.close()


def test_an_acceptor_who_cannot_cover_the_stake_is_refused(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    rich = ann.offer(variant="backgammon", stake=20_000)  # 60 000 each in escrow
    bob.accept(rich["id"])
    second = cid.offer(variant="backgammon", stake=20_000)
    response = bob.post(f"/api/requests/{second['id']}/accept")
    assert response.status_code == 409 and response.json()["error"] == "insufficient_funds"
    assert bob.balance() == 40_000 and cid.balance() == 100_000


def test_open_requests_per_account_are_capped(new_player):
    """Issue 16, item 11: five open requests at once (challenges count); the sixth is refused
    with a clear error and nothing is posted; cancelling one makes room."""
    ann, bob = new_player("ann"), new_player("bob")
    posted = [ann.offer(variant="backgammon", stake=n) for n in range(4)]
    posted.append(ann.offer(variant="draughts", stake=1, opponent="bob"))
    refused = ann.post("/api/requests", {"variant": "backgammon", "stake": 9})
    assert refused.status_code == 409 and refused.json()["error"] == "too_many_requests"
    assert "5 open requests" in refused.json()["message"]
    challenge = ann.post("/api/requests", {"variant": "draughts", "stake": 9, "opponent": "bob"})
    assert challenge.status_code == 409
    mine = [r["id"] for r in ann.get("/api/requests").json()]
    assert mine == [r["id"] for r in posted]
    assert bob.get("/api/notifications/unread").json() == {"unread": 1}  # one challenge only
    assert ann.http.delete(f"/api/requests/{posted[0]['id']}").status_code == 200
    assert ann.offer(variant="backgammon", stake=9)["stake"] == 9
    assert bob.offer(variant="backgammon", stake=9)["stake"] == 9  # a cap per account


def test_a_refused_accept_never_tells_anyones_balance(new_player):
    """Issue 16, item 12: Ann posted, then spent in the shop what the request needs; Carl's
    accept is refused saying only that it cannot be covered (it said "ann has 40000")."""
    ann, carl = new_player("ann"), new_player("carl")
    offer = ann.offer(variant="draughts", stake=80_000)
    assert ann.post("/api/shop/avatar:crown/buy").status_code == 201
    refused = carl.post(f"/api/requests/{offer['id']}/accept")
    assert refused.status_code == 409 and refused.json()["error"] == "insufficient_funds"
    message = refused.json()["message"]
    assert "cannot cover" in message and "80000" in message
    assert "75000" not in message and not re.search(r"\bann\b", message)
    assert carl.balance() == 100_000 and ann.balance() == 75_000
    poor = carl.post("/api/requests", {"variant": "draughts", "stake": 100_001})
    assert poor.status_code == 409 and "100000" not in poor.json()["message"]


def test_a_player_in_a_live_game_can_start_no_second_one(new_player):
    """Issue 17, bug 1: a player plays one game at a time. When his game starts his other
    requests are withdrawn (a bot could have taken one unseen); while it is live he can
    neither post nor accept, a challenge to him cannot start it, and ``me`` names the game
    so every page can say why. Once it is over he may play again."""
    ann, bob, carl = new_player("ann"), new_player("bob"), new_player("carl")
    left_open = ann.offer(variant="backgammon", stake=10, bots=True)
    carls = carl.offer(variant="draughts", stake=10)
    challenge = carl.offer(variant="draughts", stake=10, opponent="ann")
    game = bob.accept(ann.offer(variant="draughts", stake=10)["id"])
    assert ann.get("/api/me").json()["playing"] == game["id"]
    assert bob.get("/api/me").json()["playing"] == game["id"]
    assert carl.get("/api/me").json()["playing"] is None
    assert left_open["id"] not in [r["id"] for r in carl.get("/api/requests").json()]
    late = carl.post(f"/api/requests/{left_open['id']}/accept")
    assert late.status_code == 409 and late.json()["error"] == "cannot_accept"
    posted = ann.post("/api/requests", {"variant": "draughts", "stake": 1})
    assert posted.status_code == 409 and posted.json()["error"] == "playing"
    assert game["id"] in posted.json()["message"]
    for request in (carls, challenge):
        refused = ann.post(f"/api/requests/{request['id']}/accept")
        assert refused.status_code == 409 and refused.json()["error"] == "playing"
    assert bob.post(f"/api/requests/{carls['id']}/accept").json()["error"] == "playing"
    assert (ann.balance(), carl.balance()) == (START - 10, START)  # only the one game holds
    assert len(ann.get("/api/games/live").json()) == 1
    socks = [ann.watch(game["id"]), bob.watch(game["id"])]
    for sock in socks:
        sock.until(lambda f: f["t"] == "snapshot")
    mover = next(sock for sock in socks if sock.my_turn)
    assert mover.act({"type": "resign"})["t"] == "state"
    for sock in socks:
        sock.close()
    assert ann.get("/api/me").json()["playing"] is None
    assert ann.accept(carls["id"])["variant"] == "draughts"


def test_two_accepts_of_one_players_requests_at_once_start_one_game(new_player):
    """Issue 17, bug 1: Bob and Carl accept two of Ann's requests at the same moment: one
    game starts, the other accept is refused, and no FUN is held for a second game."""
    ann, bob, carl = new_player("ann"), new_player("bob"), new_player("carl")
    offers = [ann.offer(variant="draughts", stake=100) for _ in range(2)]
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def accept(player: Player, offer: dict[str, Any]) -> None:
        barrier.wait()
        codes.append(player.post(f"/api/requests/{offer['id']}/accept").status_code)

    pairs = zip((bob, carl), offers, strict=True)
    threads = [threading.Thread(target=accept, args=pair) for pair in pairs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409]
    assert ann.balance() == START - 100
    assert sorted((bob.balance(), carl.balance())) == [START - 100, START]
    assert len(ann.get("/api/games/live").json()) == 1
    assert ann.get("/healthz").json()["ledger_total"] == 0


def test_two_accepts_at_once_give_exactly_one_game(new_player):
    ann = new_player("ann")
    rivals = [new_player(f"rival{n}") for n in range(4)]
    offer = ann.offer(variant="backgammon", stake=100)
    barrier = threading.Barrier(len(rivals))
    codes: list[int] = []

    def accept(player: Player) -> None:
        barrier.wait()
        codes.append(player.post(f"/api/requests/{offer['id']}/accept").status_code)

    threads = [threading.Thread(target=accept, args=(p,)) for p in rivals]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409, 409, 409]
    assert sorted(p.balance() for p in rivals) == [99_700, 100_000, 100_000, 100_000]
    assert len(ann.get("/api/games/live").json()) == 1
    assert ann.get("/healthz").json()["ledger_total"] == 0


@pytest.mark.parametrize("colour", ["white", "black", "random"])
def test_a_draughts_request_says_who_plays_white(new_player, colour):
    """Seat 0 plays White in draughts; "random" is drawn from the new game's id."""
    ann, bob = new_player("ann"), new_player("bob")
    offer = ann.offer(variant="draughts", stake=0, colour=colour)
    assert offer["options"]["colour"] == colour
    game = bob.accept(offer["id"])
    white = game["players"][0]["username"]
    if colour == "random":
        found = SimpleNamespace(variant="draughts", options={"colour": colour})
        expected = "ann" if owner_plays_white(found, game["id"]) else "bob"
    else:
        expected = "ann" if colour == "white" else "bob"
    assert white == expected
    sock = ann.watch(game["id"])
    snapshot = sock.until(lambda f: f["t"] == "snapshot")["d"]
    assert (snapshot["you"] == snapshot["state"]["white_seat"]) == (expected == "ann")
    sock.close()


def test_random_colours_fall_both_ways():
    """The draw is the first byte of SHA-256 of the game id: even → the owner is White."""
    found = SimpleNamespace(variant="draughts", options={"colour": "random"})
    draws = {owner_plays_white(found, f"g{n}") for n in range(16)}
    assert draws == {True, False}
    plain = SimpleNamespace(variant="backgammon", options={})
    assert owner_plays_white(plain, "g1")
