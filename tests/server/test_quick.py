"""Quick pairing and the club's numbers in the lobby (issue 17, "Lobby"), over real HTTP
and WebSockets on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from club_client import at_once
from me_socket import MeSocket
from test_lobby_socket import lobby, next_of

from sheshbesh.server.lobby import socket as lobby_socket

START = 100_000
BACKGAMMON = {"variant": "backgammon", "stake": 100, "clock": "delay 12s + 5m"}
PLAKOTO = {"variant": "plakoto", "stake": 5}


def quick(player, preset=BACKGAMMON):
    return player.post("/api/requests/quick", preset)


def test_two_clicks_on_one_button_start_a_game(new_player):
    """The first click posts the request (a second click is still that one request); the
    next player's click on the same button plays it, with every stake held."""
    ann, bob = new_player("ann"), new_player("bob")
    assert BACKGAMMON in ann.get("/api/requests/quick").json()
    first = quick(ann)
    assert first.status_code == 201 and set(first.json()) == {"request"}
    posted = first.json()["request"]
    assert (posted["variant"], posted["stake"], posted["clock"]) == (
        "backgammon",
        100,
        "delay 12s + 5m",
    )
    again = quick(ann).json()
    assert again == {"request": again["request"]} and again["request"]["id"] == posted["id"]
    assert [r["id"] for r in bob.get("/api/requests").json()] == [posted["id"]]
    played = quick(bob)
    assert played.status_code == 201 and set(played.json()) == {"game"}
    game = played.json()["game"]
    assert {p["username"] for p in game["players"]} == {"ann", "bob"}
    assert ann.get("/api/me").json()["playing"] == game["id"]
    assert ann.balance() == bob.balance() == START - 300  # BG at cube 1: 3 × stake (PL-5)
    assert bob.get("/api/requests").json() == []


def test_a_click_plays_only_exactly_that_game(new_player):
    """A request with other options, another stake or clock, a private challenge or an
    unrated one is not the button's game: the click posts its own request instead."""
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    others = [
        ann.offer(variant="backgammon", stake=100, clock="delay 12s + 5m", match_length=3),
        ann.offer(variant="backgammon", stake=101, clock="delay 12s + 5m"),
        ann.offer(variant="backgammon", stake=100, clock="untimed"),
        ann.offer(variant="backgammon", stake=100, clock="delay 12s + 5m", rated=False),
        bob.offer(variant="backgammon", stake=100, clock="delay 12s + 5m", opponent="ann"),
    ]
    answer = quick(cid).json()
    assert set(answer) == {"request"}
    assert answer["request"]["id"] not in {o["id"] for o in others}
    assert cid.balance() == START and ann.balance() == START


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "chess", "stake": 1}, 422, "invalid_options"),
        ({"variant": "backgammon", "stake": -1}, 422, None),
        ({"variant": "backgammon", "stake": 1, "clock": "forever"}, 422, "invalid_options"),
        ({"variant": "backgammon", "stake": 1, "cube": True}, 422, None),
    ],
)
def test_bad_clicks_are_refused_and_change_nothing(new_player, body, status, code):
    ann = new_player("ann")
    refused = quick(ann, body)
    assert refused.status_code == status, refused.text
    if code is not None:
        assert refused.json()["error"] == code
    assert ann.get("/api/requests").json() == [] and ann.balance() == START


def test_one_players_clicks_sent_at_once_leave_one_request(new_player):
    """A button clicked three times at the same moment: one request, each click told of it."""
    ann, bob = new_player("ann"), new_player("bob")
    answers = at_once([lambda: quick(ann, PLAKOTO) for _ in range(3)])
    assert [a.status_code for a in answers] == [201] * 3, [a.text for a in answers]
    ids = {a.json()["request"]["id"] for a in answers}
    assert len(ids) == 1
    assert [r["id"] for r in bob.get("/api/requests").json()] == list(ids)


def test_two_players_clicking_one_button_at_once_start_one_game(new_player):
    """Neither finds the other's request before posting his own: the later post sees the
    first and plays it, so one game starts and no request is left open."""
    ann, bob = new_player("ann"), new_player("bob")
    answers = at_once([lambda: quick(ann, PLAKOTO), lambda: quick(bob, PLAKOTO)])
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    assert sorted(key for a in answers for key in a.json()) == ["game", "request"]
    game = next(a.json()["game"] for a in answers if "game" in a.json())
    assert {p.get("/api/me").json()["playing"] for p in (ann, bob)} == {game["id"]}
    assert ann.get("/api/requests").json() == []


@pytest.mark.parametrize("stake", [2**63, 10**25 - 1, 10**9 + 1])
def test_a_stake_over_the_largest_is_refused_before_any_query(new_player, stake):
    """A stake past the database's integers is refused as any stake over the largest is,
    not failed on in the query for matching requests."""
    ann = new_player("ann")
    refused = quick(ann, {"variant": "backgammon", "stake": stake})
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"] == "invalid_stake"
    assert ann.get("/api/requests").json() == [] and ann.balance() == START


def test_a_guest_and_a_player_in_a_game_cannot_quick_pair(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    guest = new_player("guest", register=False)
    assert quick(guest).status_code == 401
    quick(ann)
    quick(bob)  # ann and bob now play
    cid_waits = quick(cid).json()["request"]
    refused = quick(ann)
    assert refused.status_code == 409 and refused.json()["error"] == "playing"
    assert [r["id"] for r in cid.get("/api/requests").json()] == [cid_waits["id"]]


def test_the_lobby_says_how_many_players_are_online(club, new_player, monkeypatch):
    monkeypatch.setattr(lobby_socket, "ONLINE_EVERY", 0.05)  # the club runs in this process
    ann = new_player("ann")
    with lobby(club.base) as watcher:
        assert next_of(watcher, "lobby")["online"] == 0
        tab = MeSocket(ann)  # a logged-in page keeps /ws/me open
        try:
            assert next_of(watcher, "online") == {"players": 1}
        finally:
            tab.close()
