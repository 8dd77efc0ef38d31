"""Friends, blocks and presence over real HTTP and ``/ws/me``: each route and each refusal."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from club_client import Player, RunningClub
from me_socket import MeSocket, second_login

from sheshbesh.server.relations.presence import OFFLINE_GRACE
from sheshbesh.server.settings import Settings


def ask(sender: Player, name: str) -> dict[str, Any]:
    response = sender.post("/api/friends/requests", {"username": name})
    assert response.status_code == 201, response.text
    return dict(response.json())


def befriend(a: Player, b: Player) -> None:
    found = ask(a, b.name)
    assert b.post(f"/api/friends/requests/{found['id']}/accept").status_code == 200


def friends_of(player: Player) -> dict[str, Any]:
    response = player.get("/api/friends")
    assert response.status_code == 200, response.text
    return dict(response.json())


def names(users: list[dict[str, Any]]) -> list[str]:
    return [u["username"] for u in users]


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code and body["message"], body


def nothing_between(a: Player, b: Player) -> None:
    """No friendship and no open request either way."""
    for me in (a, b):
        lists = friends_of(me)
        assert lists["friends"] == lists["incoming"] == lists["outgoing"] == []


# --- search ------------------------------------------------------------------------------


def test_search_finds_players_by_prefix_in_any_case_without_yourself(new_player):
    ann = new_player("Ann_1")
    for name in ("annabel", "Anx", "bob"):
        new_player(name)
    found = ann.get("/api/players?q=AN").json()
    assert names(found) == ["annabel", "Anx"]
    assert all(p["is_bot"] is False and p["relation"] is None for p in found)
    # '_' is a letter of usernames here, never a LIKE wildcard
    assert names(new_player("cid").get("/api/players?q=ann_").json()) == ["Ann_1"]


def test_search_flags_bots_and_says_how_you_stand(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("bobby")
    ask(ann, "bob")
    ann.post("/api/blocks", {"username": "bobby"})
    found = {p["username"]: p for p in ann.get("/api/players?q=bob").json()}
    assert found["bob"]["relation"] == "request_sent"
    assert found["bobby"]["relation"] == "blocked"  # a block does not hide him from search
    assert bob.get("/api/players?q=ann").json()[0]["relation"] == "request_received"
    assert cid.get("/api/players?q=ann").json()[0]["relation"] is None
    bots = ann.get("/api/players?q=gnubg").json()
    assert bots and all(p["is_bot"] for p in bots)


@pytest.mark.parametrize("q", ["", "a b", "x" * 21, "%", "an%", "<b>", "ann'"])
def test_a_bad_search_is_refused(new_player, q):
    refused(new_player("ann").http.get("/api/players", params={"q": q}), 422, "invalid_search")


def test_search_needs_a_login(club, new_player):
    refused(new_player("ann", register=False).get("/api/players?q=an"), 401, "login_required")


# --- requests ----------------------------------------------------------------------------


def test_a_request_accepted_makes_two_friends_and_notifies_the_sender(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    sent = ask(ann, "BOB")
    assert sent["from"]["username"] == "ann" and sent["to"]["username"] == "bob"
    assert [r["id"] for r in friends_of(ann)["outgoing"]] == [sent["id"]]
    incoming = friends_of(bob)["incoming"]
    assert [r["from"]["username"] for r in incoming] == ["ann"]
    notes = bob.get("/api/notifications").json()["notes"]
    assert [(n["kind"], n["data"]) for n in notes] == [
        ("friend_request", {"request_id": sent["id"], "from": "ann"})
    ]
    accepted = bob.post(f"/api/friends/requests/{sent['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["username"] == "ann"
    for me, other in ((ann, "bob"), (bob, "ann")):
        lists = friends_of(me)
        assert names(lists["friends"]) == [other]
        assert lists["incoming"] == lists["outgoing"] == []
    assert ann.get("/api/notifications").json()["notes"][0]["data"] == {"by": "bob"}
    assert bob.get("/api/notifications/unread").json() == {"unread": 0}  # answered: read


def test_a_declined_request_leaves_strangers_and_can_be_asked_again(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    sent = ask(ann, "bob")
    assert bob.post(f"/api/friends/requests/{sent['id']}/decline").json() == {"ok": True}
    nothing_between(ann, bob)
    assert ann.get("/api/notifications/unread").json() == {"unread": 0}  # no news of a no
    ask(ann, "bob")


def test_only_the_sender_cancels_and_only_the_recipient_answers(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    sent = ask(ann, "bob")
    path = f"/api/friends/requests/{sent['id']}"
    refused(ann.post(path + "/accept"), 403, "forbidden")
    refused(ann.post(path + "/decline"), 403, "forbidden")
    refused(bob.http.delete(path), 403, "forbidden")
    for action in (lambda: cid.post(path + "/accept"), lambda: cid.http.delete(path)):
        refused(action(), 404, "not_found")  # a stranger learns nothing of it
    refused(bob.post("/api/friends/requests/999999/accept"), 404, "not_found")
    assert [r["id"] for r in friends_of(bob)["incoming"]] == [sent["id"]]
    assert ann.http.delete(path).json() == {"ok": True}
    nothing_between(ann, bob)
    assert bob.get("/api/notifications/unread").json() == {"unread": 0}


@pytest.mark.parametrize("request_id", [2**63 + 1, 2**63 - 1, 2**40, 2**31, 0, -1])
def test_an_id_no_request_can_have_is_not_found_and_changes_nothing(new_player, request_id):
    """Issue 16, item 11: an id beyond the column (2^63 and more gave a 500) is a 404."""
    ann, bob = new_player("ann"), new_player("bob")
    sent = ask(ann, "bob")
    path = f"/api/friends/requests/{request_id}"
    refused(bob.post(path + "/accept"), 404, "not_found")
    refused(bob.post(path + "/decline"), 404, "not_found")
    refused(ann.http.delete(path), 404, "not_found")
    assert [r["id"] for r in friends_of(bob)["incoming"]] == [sent["id"]]
    if request_id > 0:
        page = bob.get(f"/api/notifications?before={request_id}")
        assert page.status_code in (200, 422), page.text
        assert page.status_code == 200 or page.json()["error"] == "invalid_request"


@pytest.mark.parametrize("answer", ["accept", "decline", "cancel"])
def test_a_request_no_longer_open_cannot_be_answered(new_player, answer):
    ann, bob = new_player("ann"), new_player("bob")
    sent = ask(ann, "bob")
    path = f"/api/friends/requests/{sent['id']}"
    assert ann.http.delete(path).status_code == 200
    if answer == "cancel":
        refused(ann.http.delete(path), 409, "request_closed")
    else:
        refused(bob.post(f"{path}/{answer}"), 409, "request_closed")
    nothing_between(ann, bob)


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("ann", 422, "self"),
        ("ANN", 422, "self"),
        ("nobody", 404, "unknown_player"),
        ("GnuBG_Expert", 422, "bot"),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(new_player, name, status, code):
    ann = new_player("ann")
    refused(ann.post("/api/friends/requests", {"username": name}), status, code)
    assert friends_of(ann)["outgoing"] == []


@pytest.mark.parametrize("body", [{}, {"username": ""}, {"username": "a" * 21}, {"name": "bob"},
                                  {"username": 7}])  # fmt: skip
def test_a_malformed_request_is_refused(new_player, body):
    refused(new_player("ann").post("/api/friends/requests", body), 422, "invalid_request")


def test_asking_twice_or_back_is_refused(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    ask(ann, "bob")
    refused(ann.post("/api/friends/requests", {"username": "bob"}), 409, "already_asked")
    back = bob.post("/api/friends/requests", {"username": "ann"})
    refused(back, 409, "they_asked")
    assert "accept their request" in back.json()["message"]
    assert len(friends_of(bob)["incoming"]) == 1 and friends_of(bob)["outgoing"] == []


def test_friends_cannot_ask_again_and_unfriending_ends_it_for_both(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    befriend(ann, bob)
    refused(bob.post("/api/friends/requests", {"username": "ann"}), 409, "already_friends")
    assert bob.http.delete("/api/friends/Ann").json() == {"ok": True}
    nothing_between(ann, bob)
    refused(ann.http.delete("/api/friends/bob"), 409, "not_friends")
    refused(ann.http.delete("/api/friends/nobody"), 404, "unknown_player")


def test_friend_routes_need_a_login(club, new_player):
    guest = new_player("guest", register=False)
    refused(guest.get("/api/friends"), 401, "login_required")
    refused(guest.post("/api/friends/requests", {"username": "ann"}), 401, "login_required")


def test_the_answer_to_one_request_at_once_is_exactly_one(new_player):
    """A double accept (two tabs) and the sender's cancel race: exactly one wins."""
    ann, bob = new_player("ann"), new_player("bob")
    sent = ask(ann, "bob")
    path = f"/api/friends/requests/{sent['id']}"
    bob2 = second_login(bob)
    attempts = [
        lambda: bob.post(path + "/accept"),
        lambda: bob2.post(path + "/accept"),
        lambda: ann.http.delete(path),
    ]
    barrier = threading.Barrier(len(attempts))
    codes: list[int] = []

    def run(attempt: Any) -> None:
        barrier.wait()
        codes.append(attempt().status_code)

    threads = [threading.Thread(target=run, args=(a,)) for a in attempts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bob2.close()
    assert sorted(codes) == [200, 409, 409]
    lists = friends_of(bob)
    assert len(lists["friends"]) in (0, 1) and lists["incoming"] == []
    assert len(friends_of(ann)["friends"]) == len(lists["friends"])


def test_crossing_requests_at_once_leave_exactly_one(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def run(sender: Player, name: str) -> None:
        barrier.wait()
        codes.append(sender.post("/api/friends/requests", {"username": name}).status_code)

    threads = [threading.Thread(target=run, args=pair) for pair in ((ann, "bob"), (bob, "ann"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409]
    assert len(friends_of(ann)["outgoing"] + friends_of(ann)["incoming"]) == 1


# --- blocks ------------------------------------------------------------------------------


def test_a_block_ends_friendship_and_requests_and_stops_new_ones(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    befriend(ann, bob)
    blocked = ann.post("/api/blocks", {"username": "bob"})
    assert blocked.status_code == 201 and blocked.json()["username"] == "bob"
    assert names(friends_of(ann)["blocked"]) == ["bob"]
    nothing_between(ann, bob)
    assert friends_of(bob)["blocked"] == []  # one-sided
    response = bob.post("/api/friends/requests", {"username": "ann"})
    refused(response, 403, "cannot_send")
    assert "block" not in response.json()["message"]  # he learns only that he cannot
    refused(ann.post("/api/friends/requests", {"username": "bob"}), 409, "you_blocked")
    assert names(bob.get("/api/players?q=ann").json()) == ["ann"]  # still found
    assert ann.http.delete("/api/blocks/bob").json() == {"ok": True}
    assert friends_of(ann)["blocked"] == []
    ask(bob, "ann")


def test_a_block_cancels_open_requests_both_ways(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    to_ann = ask(bob, "ann")
    ask(cid, "ann")
    ann.post("/api/blocks", {"username": "bob"})
    assert names([r["from"] for r in friends_of(ann)["incoming"]]) == ["cid"]
    assert friends_of(bob)["outgoing"] == []
    refused(ann.post(f"/api/friends/requests/{to_ann['id']}/accept"), 409, "request_closed")


def test_bad_blocks_are_refused(new_player):
    ann = new_player("ann")
    new_player("bob")
    refused(ann.post("/api/blocks", {"username": "ann"}), 422, "self")
    refused(ann.post("/api/blocks", {"username": "nobody"}), 404, "unknown_player")
    refused(ann.http.delete("/api/blocks/bob"), 409, "not_blocked")
    assert ann.post("/api/blocks", {"username": "bob"}).status_code == 201
    refused(ann.post("/api/blocks", {"username": "bob"}), 409, "already_blocked")
    assert names(friends_of(ann)["blocked"]) == ["bob"]


def test_a_bot_can_be_blocked_though_never_befriended(new_player):
    ann = new_player("ann")
    assert ann.post("/api/blocks", {"username": "gnubg_expert"}).status_code == 201
    assert names(friends_of(ann)["blocked"]) == ["GnuBG_Expert"]


def test_both_may_block_each_other_and_each_unblocks_alone(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    ann.post("/api/blocks", {"username": "bob"})
    assert bob.post("/api/blocks", {"username": "ann"}).status_code == 201
    ann.http.delete("/api/blocks/bob")
    refused(ann.post("/api/friends/requests", {"username": "bob"}), 403, "cannot_send")


# --- presence ----------------------------------------------------------------------------


def test_friends_hear_each_other_come_and_go(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    befriend(ann, bob)
    with MeSocket(ann) as ann_socket:
        assert ann_socket.hello["d"]["friends"] == {"bob": "offline"}
        assert friends_of(ann)["friends"][0]["status"] == "offline"
        bob_socket = MeSocket(bob)
        assert bob_socket.hello["d"]["friends"] == {"ann": "online"}
        ann_socket.until("friend_status", username="bob", status="online")
        assert friends_of(ann)["friends"][0]["status"] == "online"
        bob_socket.close()
        started = time.monotonic()
        ann_socket.until("friend_status", timeout=OFFLINE_GRACE + 10, username="bob",
                         status="offline")  # fmt: skip
        assert time.monotonic() - started >= OFFLINE_GRACE * 0.8  # a reload is no flicker
        assert friends_of(ann)["friends"][0]["status"] == "offline"


def test_a_reload_within_the_grace_is_not_announced(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    befriend(ann, bob)
    with MeSocket(ann) as ann_socket, MeSocket(bob):
        ann_socket.until("friend_status", username="bob", status="online")
        second = MeSocket(bob)
        second.close()  # one of two tabs closed: still online
        assert ann_socket.quiet("friend_status", OFFLINE_GRACE + 0.5) == []


def test_a_player_in_a_live_game_is_playing(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    befriend(ann, cid)
    with MeSocket(ann), MeSocket(cid) as cid_socket:
        offer = ann.offer(variant="backgammon", stake=0)
        bob.accept(offer["id"])
        assert friends_of(cid)["friends"][0]["status"] == "playing"
        assert MeSocket(cid).hello["d"]["friends"] == {"ann": "playing"}
        cid_socket.close()


def test_strangers_hear_nothing_of_each_other(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    with MeSocket(ann) as ann_socket:
        MeSocket(bob).close()
        assert ann_socket.quiet("friend_status", 0.5) == []


def test_open_pages_hear_friend_list_changes_live(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    with MeSocket(ann) as ann_socket, MeSocket(bob) as bob_socket:
        sent = ask(ann, "bob")
        bob_socket.until("notification", kind="friend_request")
        bob_socket.until("friends_changed", **{"with": "ann"})
        bob.post(f"/api/friends/requests/{sent['id']}/accept")
        ann_socket.until("notification", kind="friend_accepted")
        ann_socket.until("friend_status", username="bob", status="online")
        bob_socket.until("friend_status", username="ann", status="online")


def test_the_own_socket_needs_a_login_and_answers_pings(club, new_player):
    guest = new_player("guest", register=False)
    with pytest.raises(Exception, match=r"1008|rejected|log in"):
        MeSocket(guest).recv(timeout=5)
    with MeSocket(new_player("ann")) as socket:
        socket.ws.send('{"t":"ping"}')
        assert socket.until("pong") == {"t": "pong"}


def test_presence_crosses_processes_on_postgresql_and_redis(postgres_url, redis_url):
    """Two (then three) servers on one database and one Redis: each knows who is where."""

    def node() -> RunningClub:
        return RunningClub(Settings(database_url=postgres_url, redis_url=redis_url,
                                    password_profile="fast", bots=False))  # fmt: skip

    with node() as one, node() as two:
        ann, bob = Player(one.base, "ann").register(), Player(two.base, "bob").register()
        befriend(ann, bob)
        with MeSocket(ann) as ann_socket:
            bob_socket = MeSocket(bob)  # on the other server
            ann_socket.until("friend_status", username="bob", status="online")
            assert friends_of(ann)["friends"][0]["status"] == "online"
            with node() as three:  # a latecomer asks who is here
                cid = Player(three.base, "cid").register()
                befriend(cid, bob)
                deadline = time.monotonic() + 30  # polled: only a failure waits it out
                while friends_of(cid)["friends"][0]["status"] != "online":
                    assert time.monotonic() < deadline, "the new server never heard of bob"
                    time.sleep(0.1)
                cid.close()
            bob_socket.close()
            ann_socket.until("friend_status", timeout=OFFLINE_GRACE + 10, username="bob",
                             status="offline")  # fmt: skip
            assert friends_of(ann)["friends"][0]["status"] == "offline"
        ann.close()
        bob.close()


def test_a_player_at_a_chouette_table_in_session_is_playing(new_player):
    ann, bob, cat, cid = (new_player(n) for n in ("ann", "bob", "cat", "cid"))
    befriend(ann, cid)
    with MeSocket(ann), MeSocket(cid) as cid_socket:
        request = ann.offer(variant="backgammon", stake=0, seats=3)
        sockets = [ann.watch(request["game"])]
        for player in (bob, cat):
            assert player.post(f"/api/requests/{request['id']}/join").status_code == 201
            sockets.append(player.watch(request["game"]))
        for sock in sockets:  # everyone in the room: the full table starts at once
            sock.until(lambda f: f["t"] == "snapshot")
        cid_socket.until("friend_status", username="ann", status="playing")
        assert friends_of(cid)["friends"][0]["status"] == "playing"
        cid_socket.close()


def test_a_name_longer_than_any_username_names_nobody(new_player):
    """Its first 20 letters are a player's name; the longer name is still nobody's, on
    every route that looks a player up by name (any letter case names him)."""
    ann, bob = new_player("Annabel_Lee_of_the_S"), new_player("bob")
    longer = ann.name + "ea"
    for path in (f"/api/users/{longer}", f"/api/users/{longer}/games",
                 f"/api/users/{longer}/items", f"/api/avatars/{longer}.svg"):  # fmt: skip
        refused(bob.get(path), 404, "not_found")
        assert bob.get(path.replace(longer, ann.name.upper())).status_code == 200
    refused(bob.post("/api/friends/requests", {"username": longer}), 422, "invalid_request")
    nothing_between(ann, bob)
