"""Ratings, play-bans and the game notifications the club writes when games start and end.

Issue 8. Each test runs on SQLite and PostgreSQL against a real server, over
HTTP and WebSockets. Expected ratings are computed by hand from the published
formulas: FIBS (the ratings formula page of fibs.com, as in play/ratings/fibs.py)
and Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator

import pytest
from club_client import Player, RunningClub
from test_rounds import open_game


def resign_draughts(loser_sock, other_sock) -> None:
    """The side to move resigns (DR-13): the other side wins at once."""
    mover = loser_sock if loser_sock.my_turn else other_sock
    assert mover.act({"type": "resign"})["t"] == "state"
    other_sock.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None)


def finish_by_resignation(owner: Player, taker: Player, **request) -> tuple[str, Player]:
    """A game in which the player to move resigns; returns its id and the winner."""
    game_id, a, b = open_game(owner, taker, **request)
    mover, other = (a, b) if a.my_turn else (b, a)
    if request["variant"] == "draughts":
        assert mover.act({"type": "resign"})["t"] == "state"
    else:
        level = max(m["level"] for m in mover.legal or [] if m["type"] == "resign")
        assert mover.act({"type": "resign", "level": level})["t"] == "state"
        other.until(lambda f: f["t"] == "legal" or f["t"] == "state")
        assert other.act({"type": "accept_resign"})["t"] == "state"
    if other.state.get("result") is None:
        other.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None)
    winner = owner if (other is a) else taker
    a.close()
    b.close()
    return game_id, winner


def notes_of(player: Player) -> list[dict]:
    """The player's notifications, newest first."""
    return list(player.get("/api/notifications").json()["notes"])


def rating(player: Player, name: str, pool: str) -> dict:
    return player.get(f"/api/users/{name}").json()["ratings"].get(pool)


def test_a_rated_money_game_moves_both_fibs_ratings_by_hand_computed_amounts(new_player):
    """FIBS: P(win) = 1/(10^(−D·√N/2000)+1); change = 4·√N·(1 − P); K = max(1, 5 − exp/100).

    Two new players (1500, experience 0) and a money game (N = 1): P = ½,
    change = 2, K = 5, so the winner gains 10 and the loser drops 10.
    """
    ann, bob = new_player("ann"), new_player("bob")
    game_id, winner = finish_by_resignation(ann, bob, variant="backgammon", stake=10, cube=True)
    loser = bob if winner is ann else ann
    won, lost = rating(ann, winner.name, "backgammon"), rating(ann, loser.name, "backgammon")
    assert won["rating"] == pytest.approx(1510.0) and lost["rating"] == pytest.approx(1490.0)
    assert won["games"] == lost["games"] == 1 and won["provisional"] and won["shown"] == "1510.00?"
    recent = ann.get(f"/api/users/{winner.name}").json()["recent"][0]
    assert recent["id"] == game_id and recent["rating_change"] == pytest.approx(10.0)
    assert recent["opponent"] == loser.name and recent["rated"] is True
    room = ann.get(f"/api/games/{game_id}").json()
    by_name = {p["username"]: p for p in room["players"]}
    assert by_name[winner.name]["rating"]["change"]["delta"] == pytest.approx(10.0)
    # Another variant's rating is untouched: one pool per variant.
    assert rating(ann, winner.name, "plakoto") is None


def test_a_draughts_win_moves_glicko2_ratings_as_glickmans_steps_give(new_player):
    """Glicko-2 from 1500/350/0.06 against the same, a win: μ' = φ'²·g·(1 − E) on the
    Glicko-2 scale gives 1662.3 for the winner and 1337.7 for the loser (steps 2–8)."""
    ann, bob = new_player("ann"), new_player("bob")
    _, winner = finish_by_resignation(ann, bob, variant="draughts", stake=0)
    loser = bob if winner is ann else ann
    won, lost = rating(bob, winner.name, "draughts"), rating(bob, loser.name, "draughts")
    assert won["rating"] == pytest.approx(1662.3, abs=0.1)
    assert lost["rating"] == pytest.approx(1337.7, abs=0.1)
    assert won["shown"] == "1662?"  # RD is still above 110: provisional


def test_an_unrated_game_changes_no_rating(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    finish_by_resignation(ann, bob, variant="draughts", stake=0, rated=False)
    assert ann.get("/api/users/ann").json()["ratings"] == {}
    assert bob.get("/api/users/bob").json()["recent"][0]["rated"] is False


def test_the_lobby_shows_the_owners_rating_in_the_requested_variant(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    finish_by_resignation(ann, bob, variant="backgammon", stake=0, cube=True)
    offer = ann.offer(variant="backgammon", stake=5)
    assert offer["owner"]["rating"]["games"] == 1
    listed = next(r for r in bob.get("/api/requests").json() if r["id"] == offer["id"])
    assert listed["owner"]["rating"]["rating"] in (pytest.approx(1510.0), pytest.approx(1490.0))
    other = ann.offer(variant="plakoto", stake=5)
    assert other["owner"]["rating"] == {"rating": 1500.0, "shown": "1500.00?",
                                        "provisional": True, "games": 0}  # fmt: skip


def test_challenges_acceptances_and_results_become_notifications(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    challenge = ann.offer(variant="draughts", stake=20, opponent="bob")
    first = notes_of(bob)[0]
    assert first["kind"] == "challenge" and first["data"]["from"] == "ann"
    assert first["data"]["request_id"] == challenge["id"] and first["data"]["stake"] == 20
    game = bob.accept(challenge["id"])
    mine = notes_of(ann)
    assert mine[0]["kind"] == "request_accepted" and mine[0]["data"]["game_id"] == game["id"]
    a, b = ann.watch(game["id"]), bob.watch(game["id"])
    for sock in (a, b):
        sock.until(lambda f: f["t"] == "snapshot")
    resign_draughts(a, b)
    for player in (ann, bob):
        result = notes_of(player)[0]
        assert result["kind"] == "game_result" and result["data"]["game_id"] == game["id"]
        assert result["data"]["outcome"] in ("won", "lost")
        assert result["data"]["payout"] == (20 if result["data"]["outcome"] == "won" else -20)
        assert "rating" in result["data"]


GRACE = 1.0
ARRIVAL = 60.0
"""A slow test client opens its game within this: the games here are never aborted (with
the grace as the arrival's too, two CI runs aborted a game the client opened 1 s late)."""


@pytest.fixture
def quick_club(club_settings) -> Iterator[RunningClub]:
    settings = dataclasses.replace(club_settings, abandon_grace=GRACE, arrival_grace=ARRIVAL)
    with RunningClub(settings) as running:
        yield running


def abandon_one(leaver: Player, stayer: Player) -> None:
    """A draughts game the leaver loses by staying away on his turn (PL-7)."""
    offer = stayer.offer(variant="draughts", stake=0)
    game = leaver.accept(offer["id"])
    s, left = stayer.watch(game["id"]), leaver.watch(game["id"])
    for sock in (s, left):
        sock.until(lambda f: f["t"] == "snapshot")
    if s.my_turn:  # White (the stayer) moves, so that the leaver is the one to act
        move = next(m for m in s.legal or [] if m["type"] == "move")
        s.act(move)
    left.close()
    try:
        s.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None, timeout=GRACE + 15)
    except TimeoutError:  # say what the server thinks (it failed once under two CPU hogs)
        page = stayer.get(f"/api/games/{game['id']}").json()
        seen = {key: page.get(key) for key in ("status", "seq", "to_act", "presence")}
        raise AssertionError(f"no forfeit after {GRACE} s of absence: {seen}") from None
    assert s.events[-2]["type"] == "timeout"
    s.close()


def test_abandoning_games_escalates_from_a_warning_to_a_play_ban(quick_club):
    """lichess-style escalation (play/playban.py): the first offence warns, the second bans."""
    ann, bob = Player(quick_club.base, "ann").register(), Player(quick_club.base, "bob").register()
    try:
        abandon_one(ann, bob)
        standing = ann.get("/api/users/ann").json()["playban"]
        assert standing["offences"] == 1 and standing["ban"] is None
        assert standing["next"] == {"seconds": 900.0}
        assert "playban" not in bob.get("/api/users/ann").json()  # only the player sees it
        assert ann.post("/api/requests", {"variant": "draughts", "stake": 0}).is_success
        ann.http.delete(f"/api/requests/{ann.get('/api/requests').json()[0]['id']}")
        abandon_one(ann, bob)
        refused = ann.post("/api/requests", {"variant": "draughts", "stake": 0})
        assert refused.status_code == 403 and refused.json()["error"] == "playban"
        assert "15 min" in refused.json()["message"]
        standing = ann.get("/api/users/ann").json()["playban"]
        assert standing["ban"]["offence"] == 2
        assert standing["ban"]["until"] - standing["ban"]["started"] == 900.0
        offer = bob.offer(variant="draughts", stake=0)
        took = ann.post(f"/api/requests/{offer['id']}/accept")
        assert took.status_code == 403 and took.json()["error"] == "playban"
        # the stayer lost nothing and was never counted
        assert bob.get("/api/users/bob").json()["playban"]["offences"] == 0
    finally:
        ann.close()
        bob.close()


def test_your_turn_reaches_a_player_who_left_the_room(quick_club):
    ann, bob = Player(quick_club.base, "ann").register(), Player(quick_club.base, "bob").register()
    try:
        offer = ann.offer(variant="draughts", stake=0, clock="fischer 5m + 0s")
        game = bob.accept(offer["id"])
        a, b = ann.watch(game["id"]), bob.watch(game["id"])
        for sock in (a, b):
            sock.until(lambda f: f["t"] == "snapshot")
        white, black = (a, b) if a.my_turn else (b, a)
        black_player = bob if black is b else ann
        black.close()
        white.until(lambda f: f["t"] == "presence" and not f["d"]["online"])
        move = next(m for m in white.legal or [] if m["type"] == "move")
        white.act(move)
        # The note is written after the move is told to the room: look until it is there.
        deadline = time.monotonic() + 10
        while not (turns := [n for n in notes_of(black_player) if n["kind"] == "your_turn"]):
            assert time.monotonic() < deadline, "no your_turn note for the absent player"
            time.sleep(0.05)
        assert len(turns) == 1 and turns[0]["data"]["game_id"] == game["id"]
        white.close()
    finally:
        ann.close()
        bob.close()
