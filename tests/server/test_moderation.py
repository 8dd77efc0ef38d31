"""An operator's ``sheshbesh moderate`` against a running club, on SQLite and PostgreSQL:
closing and reopening an account, muting its chat, and every bad command."""

from __future__ import annotations

import json

import pytest
from club_client import PASSWORD, Player

from sheshbesh.cli import main


def moderate(club, capsys, *args: str) -> tuple[int, dict]:
    code = main(["moderate", *args, "--db", club.settings.database_url])
    out = capsys.readouterr().out
    return code, (json.loads(out) if code == 0 else {})


def log_in(base: str, name: str, password: str = PASSWORD):
    browser = Player(base, name)
    try:
        return browser.post("/api/login", {"username": name, "password": password})
    finally:
        browser.close()


def test_a_closed_account_loses_its_sessions_logins_and_requests_but_no_fun(
    club, new_player, capsys
):
    ann, bob = new_player("ann"), new_player("bob")
    own = ann.offer(variant="backgammon", stake=10)
    challenge = bob.offer(variant="draughts", stake=5, opponent="ann")

    code, done = moderate(club, capsys, "ann", "--close")

    assert code == 0
    assert done == {"username": "ann", "closed": True, "sessions_ended": 1, "requests_cancelled": 2}
    assert ann.get("/api/me").status_code == 401  # the open session counts for nothing
    closed = log_in(club.base, "ann")
    assert closed.status_code == 403 and closed.json()["error"] == "account_closed"
    assert log_in(club.base, "ann", "a wrong guess").json()["error"] == "wrong_password"
    # The right password is no wrong one: it is told the account is closed every time.
    for _ in range(5):
        assert log_in(club.base, "ann").json()["error"] == "account_closed"
    assert bob.get("/api/requests").json() == []
    taken = bob.post(f"/api/requests/{own['id']}/accept")
    assert taken.status_code == 409
    assert bob.post(f"/api/requests/{challenge['id']}/accept").status_code == 409
    assert bob.get("/healthz").json()["ledger_total"] == 0

    code, done = moderate(club, capsys, "ANN", "--reopen")
    assert code == 0 and done == {"username": "ann", "closed": False}
    again = log_in(club.base, "ann")
    assert again.status_code == 200 and again.json()["balance"] == 100_000


def test_a_mute_refuses_chat_until_it_is_lifted(club, new_player, capsys):
    ann = new_player("ann")
    code, done = moderate(club, capsys, "ann", "--mute", "30")
    assert code == 0 and done["muted_until"] > 0
    refused = ann.post("/api/chat/lobby", {"text": "hello?"})
    assert refused.status_code == 403 and refused.json()["error"] == "chat_muted"
    assert moderate(club, capsys, "ann", "--unmute") == (
        0,
        {"username": "ann", "muted_until": None},
    )
    assert ann.post("/api/chat/lobby", {"text": "hello!"}).status_code == 201


@pytest.mark.parametrize("args", [["nobody", "--close"], ["ann", "--mute", "0"]])
def test_a_bad_command_says_why_and_changes_nothing(club, new_player, capsys, args):
    ann = new_player("ann")
    code = main(["moderate", *args, "--db", club.settings.database_url])
    assert code == 2 and capsys.readouterr().err.startswith("sheshbesh: ")
    assert ann.get("/api/me").status_code == 200
    with pytest.raises(SystemExit):
        main(["moderate", "ann", "--close", "--reopen", "--db", club.settings.database_url])


def test_a_closed_account_is_marked_and_takes_no_challenge_or_friend_request(
    club, new_player, capsys
):
    new_player("ann")
    bob = new_player("bob")
    assert bob.get("/api/users/ann").json()["closed"] is False
    assert moderate(club, capsys, "ann", "--close")[0] == 0
    assert bob.get("/api/users/ann").json()["closed"] is True
    challenge = bob.post("/api/requests", {"variant": "draughts", "stake": 0, "opponent": "ann"})
    assert challenge.status_code == 422 and challenge.json()["error"] == "invalid_opponent"
    assert "closed" in challenge.json()["message"]
    befriend = bob.post("/api/friends/requests", {"username": "ann"})
    assert befriend.status_code == 422 and befriend.json()["error"] == "closed"
    assert bob.get("/api/requests").json() == []
    assert moderate(club, capsys, "ann", "--reopen")[0] == 0
    assert bob.post("/api/friends/requests", {"username": "ann"}).status_code == 201
