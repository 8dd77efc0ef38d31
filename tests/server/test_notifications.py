"""Notifications over real HTTP and ``/ws/me``: stored, pushed after commit, read by owner."""

from __future__ import annotations

import random
from typing import Any

import pytest
from club_client import (
    GameSocket,
    Player,
    may_double,
    next_mover,
    play_until,
    until_a_draw_may_be_offered,
)
from me_socket import MeSocket
from test_rounds import open_game


def ask(sender: Player, name: str) -> dict[str, Any]:
    response = sender.post("/api/friends/requests", {"username": name})
    assert response.status_code == 201, response.text
    return dict(response.json())


def notes_of(player: Player, query: str = "") -> dict[str, Any]:
    response = player.get("/api/notifications" + query)
    assert response.status_code == 200, response.text
    return dict(response.json())


def unread(player: Player) -> int:
    return int(player.get("/api/notifications/unread").json()["unread"])


def test_a_note_for_an_offline_player_waits_for_him(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    sent = ask(bob, "ann")  # ann has no socket open
    assert ann.get("/api/session").json()["me"]["unread"] == 1
    with MeSocket(ann) as socket:
        assert socket.hello["d"]["unread"] == 1
    listed = notes_of(ann)
    assert listed["unread"] == 1 and listed["more"] is False
    (note,) = listed["notes"]
    assert note["kind"] == "friend_request" and note["read"] is False
    assert note["data"] == {"request_id": sent["id"], "from": "bob"}
    assert isinstance(note["id"], int) and isinstance(note["created_at"], float)


def test_a_note_is_pushed_live_with_the_unread_count(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    with MeSocket(ann) as socket, MeSocket(ann) as second_tab:
        ask(bob, "ann")
        frame = socket.until("notification")
        assert frame["d"]["kind"] == "friend_request" and frame["d"]["unread"] == 1
        assert second_tab.until("notification")["d"]["id"] == frame["d"]["id"]
        ask(cid, "ann")
        assert socket.until("notification")["d"]["unread"] == 2


def test_a_private_challenge_notifies_the_invitee(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    with MeSocket(bob) as socket:
        ann.offer(variant="backgammon", stake=10, opponent="bob")
        frame = socket.until("notification", kind="challenge")
        assert frame["d"]["data"]["from"] == "ann"


def test_notes_come_newest_first_in_pages(new_player):
    ann = new_player("ann")
    senders = [new_player(f"fan{n}") for n in range(5)]
    for sender in senders:
        ask(sender, "ann")
    first = notes_of(ann, "?limit=2")
    assert [n["data"]["from"] for n in first["notes"]] == ["fan4", "fan3"] and first["more"]
    second = notes_of(ann, f"?limit=2&before={first['notes'][-1]['id']}")
    assert [n["data"]["from"] for n in second["notes"]] == ["fan2", "fan1"] and second["more"]
    last = notes_of(ann, f"?limit=2&before={second['notes'][-1]['id']}")
    assert [n["data"]["from"] for n in last["notes"]] == ["fan0"] and not last["more"]


@pytest.mark.parametrize("query", ["?limit=0", "?limit=101", "?before=0", "?before=x"])
def test_a_bad_page_is_refused(new_player, query):
    response = new_player("ann").get("/api/notifications" + query)
    assert response.status_code == 422 and response.json()["error"] == "invalid_request"


def test_marking_read_by_id_and_all(new_player):
    ann = new_player("ann")
    for n in range(3):
        ask(new_player(f"fan{n}"), "ann")
    ids = [n["id"] for n in notes_of(ann)["notes"]]
    with MeSocket(ann) as socket:
        marked = ann.post("/api/notifications/read", {"ids": ids[:1]})
        assert marked.json() == {"marked": 1, "unread": 2}
        assert socket.until("unread")["d"] == {"unread": 2}  # the other tabs' bells
        assert ann.post("/api/notifications/read", {"ids": ids[:1]}).json()["marked"] == 0
        assert [n["read"] for n in notes_of(ann)["notes"]] == [True, False, False]
        assert ann.post("/api/notifications/read", {"all": True}).json() == {
            "marked": 2,
            "unread": 0,
        }
        assert socket.until("unread")["d"] == {"unread": 0}
    assert unread(ann) == 0 and ann.get("/api/session").json()["me"]["unread"] == 0


def test_nobody_marks_another_players_notes(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    ask(bob, "ann")
    (note,) = notes_of(ann)["notes"]
    response = cid.post("/api/notifications/read", {"ids": [note["id"]]})
    assert response.status_code == 200 and response.json() == {"marked": 0, "unread": 0}
    assert cid.post("/api/notifications/read", {"all": True}).json()["marked"] == 0
    assert unread(ann) == 1 and notes_of(ann)["notes"][0]["read"] is False
    assert notes_of(cid)["notes"] == []  # nor sees them


@pytest.mark.parametrize(
    "body",
    [{}, {"ids": []}, {"ids": ["1"]}, {"ids": 1}, {"all": "yes"}, {"everything": True},
     {"ids": [2**63]}, {"ids": [10**25]}, {"ids": [0]}],
)  # fmt: skip
def test_a_bad_mark_read_is_refused(new_player, body):
    ann = new_player("ann")
    ask(new_player("bob"), "ann")
    response = ann.post("/api/notifications/read", body)
    assert response.status_code == 422 and response.json()["message"]
    assert unread(ann) == 1


def test_notifications_need_a_login(club, new_player):
    guest = new_player("guest", register=False)
    for response in (
        guest.get("/api/notifications"),
        guest.get("/api/notifications/unread"),
        guest.post("/api/notifications/read", {"all": True}),
    ):
        assert response.status_code == 401 and response.json()["error"] == "login_required"
    assert guest.get("/api/session").json() == {"me": None}


def leave_the_room(leaving: GameSocket, staying: GameSocket) -> None:
    """Close ``leaving``'s game socket and wait until the room knows he is away."""
    seat = leaving.seat
    leaving.close()
    staying.until(lambda f: f["t"] == "presence" and f["d"]["seat"] == seat
                  and not f["d"]["online"])  # fmt: skip


def test_pl_8_a_double_reaches_a_player_away_from_the_room_and_nobody_in_it(new_player):
    """PL-8: the opponent doubles while the player has only /ws/me open: he gets one
    "double offered" note (no "your turn" beside it). Back in the room he takes; when he
    redoubles, the first doubler, who is in the room, gets no note."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    mover = play_until([a, b], may_double)
    away = b if mover is a else a
    away_player, doubler = (bob, ann) if away is b else (ann, bob)
    with MeSocket(away_player) as away_me, MeSocket(doubler) as doubler_me:
        leave_the_room(away, mover)
        assert mover.act({"type": "double"})["t"] == "state"
        note = away_me.until("notification")["d"]
        assert note["kind"] == "double_offered" and note["read"] is False
        assert note["data"] == {"game_id": game_id, "variant": "backgammon",
                                "opponent": doubler.name, "cube": 2, "beaver": False}  # fmt: skip
        assert away_me.quiet("notification") == []

        back = away_player.watch(game_id)
        back.until(lambda f: f["t"] == "snapshot")
        assert back.my_turn and back.act({"type": "take"})["t"] == "state"
        while True:  # play on until the taker may redouble; then he does
            turn = next_mover([mover, back])
            assert turn is not None
            if turn is back and {"type": "double"} in (turn.legal or []):
                break
            menu = [m for m in turn.legal or [] if m["type"] not in ("resign", "double")]
            assert turn.act(random.Random(turn.v).choice(menu))["t"] == "state"
        assert back.act({"type": "double"})["t"] == "state"
        mover.until(lambda f: f["t"] == "legal" and f["v"] == back.v)
        assert doubler_me.quiet("notification", 1.0) == []
    kinds = [n["kind"] for n in away_player.get("/api/notifications").json()["notes"]]
    assert kinds.count("double_offered") == 1 and "your_turn" not in kinds
    notes = doubler.get("/api/notifications").json()["notes"]
    assert {n["kind"] for n in notes} <= {"request_accepted"}  # the owner's, at the start


def test_pl_8_a_draw_offer_reaches_a_player_away_from_the_room_and_nobody_in_it(new_player):
    """PL-8 for draughts (DR-19): a draw offered to a player in the room makes no note;
    offered while he is away (and not to move: the offer comes before the offerer's
    move), it does."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=0)
    rng = random.Random(1)
    mover = until_a_draw_may_be_offered([a, b], rng)  # DR-19: 40 moves each first
    other = b if mover is a else a
    offerer, answerer = (ann, bob) if mover is a else (bob, ann)
    with MeSocket(answerer) as answerer_me:
        assert mover.act({"type": "offer_draw"})["t"] == "state"
        other.until(lambda f: f["t"] == "state" and f["v"] == mover.v)
        assert answerer_me.quiet("notification", 1.0) == []
        assert other.act({"type": "decline_draw"})["t"] == "state"
        for _ in range(2):  # one move each: the offerer may offer again
            sock = next_mover([mover, other])
            assert sock is not None
            moves = [m for m in sock.legal or [] if m["type"] == "move"]
            assert sock.act(rng.choice(moves))["t"] == "state"
        assert next_mover([mover, other]) is mover
        leave_the_room(other, mover)
        assert mover.act({"type": "offer_draw"})["t"] == "state"
        note = answerer_me.until("notification")["d"]
        assert note["kind"] == "draw_offered"
        assert note["data"] == {"game_id": game_id, "variant": "draughts",
                                "opponent": offerer.name}  # fmt: skip
        assert answerer_me.quiet("notification") == []
