"""Notifications over real HTTP and ``/ws/me``: stored, pushed after commit, read by owner."""

from __future__ import annotations

from typing import Any

import pytest
from club_client import Player
from me_socket import MeSocket


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
    "body", [{}, {"ids": []}, {"ids": ["1"]}, {"ids": 1}, {"all": "yes"}, {"everything": True}]
)
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
