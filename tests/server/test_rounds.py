"""Whole games over real HTTP and WebSockets: the events, the escrow and the payout.

Each test runs a real server (uvicorn on loopback) on SQLite and on PostgreSQL
(conftest), with players that register, post and accept requests, and play
through the game socket only what the server's ``legal`` frames offer.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from club_client import (
    GameSocket,
    Player,
    RunningClub,
    may_double,
    play_randomly,
    play_until,
)
from in_process import statements_sent

from sheshbesh.server.rounds.round import COVER_TTL

START = 100_000


def doubles_once_then_random(state: dict[str, bool]) -> Any:
    """A chooser: the first player who may double does (BG-11), the other takes (BG-12)."""

    def choose(mover: GameSocket, menu: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        types = {a["type"] for a in menu}
        if not state["doubled"] and "double" in types:
            state["doubled"] = True
            return {"type": "double"}
        if "take" in types:
            state["took"] = True
            return {"type": "take"}
        plain = [a for a in menu if a["type"] not in ("double", "drop", "beaver")]
        return rng.choice(plain or menu)

    return choose


def open_game(owner: Player, taker: Player, **request: Any) -> tuple[str, GameSocket, GameSocket]:
    offer = owner.offer(**request)
    game = taker.accept(offer["id"])
    first, second = owner.watch(game["id"]), taker.watch(game["id"])
    for sock in (first, second):
        sock.until(lambda f: f["t"] == "snapshot")
    return game["id"], first, second


def ledger_total(player: Player) -> int:
    return int(player.get("/healthz").json()["ledger_total"])


def test_backgammon_money_game_with_a_double_and_a_take_pays_the_cube(new_player):
    """BG-11/BG-12 through the club: escrow at the cube, payout = points × stake (PL-4)."""
    ann, bob = new_player("ann"), new_player("bob")
    assert ann.balance() == bob.balance() == START
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=100, cube=True)
    # PL-5: each side's largest loss at cube 1 (a backgammon, 3 points) is held.
    assert ann.balance() == bob.balance() == START - 300
    script = {"doubled": False, "took": False}
    play_randomly([a, b], random.Random(7), choose=doubles_once_then_random(script))
    assert script == {"doubled": True, "took": True}
    types = [e["type"] for e in a.events]
    assert "doubled" in types and "taken" in types
    result = a.state["result"]
    assert result["cube"] >= 2
    winner_seat = a.state["white_seat"] if result["winner"] == "W" else 1 - a.state["white_seat"]
    won = result["points"] * 100
    expected = (
        {0: START - won, 1: START + won} if winner_seat == 1 else {0: START + won, 1: START - won}
    )
    assert (ann.balance(), bob.balance()) == (expected[0], expected[1])
    assert ledger_total(ann) == 0
    # The ledger tells the story: grant, escrow (start and the take), payout.
    # (A loser who forfeits all he held gets no payout row: the ledger writes no zeros.)
    rows = ann.get("/api/me/ledger").json()
    reasons = [row["reason"] for row in rows]
    assert reasons[-1] == "grant" and reasons.count("escrow") == 2
    assert set(reasons) <= {"grant", "escrow", "payout"}
    assert sum(row["amount"] for row in rows) == ann.balance()
    # Both players and any spectator saw the same events, numbered without gaps.
    assert a.events == b.events
    record = ann.get(f"/api/games/{game_id}/record").json()
    assert record["events"][-len(a.events) :] == a.events


def test_a_jacoby_game_holds_the_cube_until_someone_doubles(new_player):
    """PL-5 with BG-17: while nobody has doubled a Jacoby money game, a gammon scores single,
    so the most either side can lose is the cube: 1 × S is held, not 3 × S. The double
    raises the hold to 3 × 2 × S when it is taken."""
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=10_000, cube=True,
                        jacoby=True)  # fmt: skip
    assert ann.balance() == bob.balance() == START - 10_000
    script = {"doubled": False, "took": False}
    play_randomly([a, b], random.Random(7), choose=doubles_once_then_random(script))
    assert script == {"doubled": True, "took": True}
    rows = ann.get("/api/me/ledger").json()
    escrows = [-row["amount"] for row in reversed(rows) if row["reason"] == "escrow"]
    assert escrows == [10_000, 50_000]  # the start, then up to 3 × 2 × S at the take
    assert ann.balance() + bob.balance() == 2 * START and ledger_total(ann) == 0


def test_a_jacoby_game_is_open_to_a_player_who_covers_the_cube_but_not_a_gammon(new_player):
    """A stake of 40 % of the wallet: 3 × S is more than either player has, 1 × S is not.
    Nobody can cover a double (PL-5: not offered), so the game is played for the cube."""
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=40_000, cube=True,
                        jacoby=True)  # fmt: skip
    assert ann.balance() == bob.balance() == START - 40_000
    play_randomly([a, b], random.Random(11))
    result = a.state["result"]
    assert result["cube"] == 1 and result["points"] == 1  # a gammon would score single
    assert sorted((ann.balance(), bob.balance())) == [START - 40_000, START + 40_000]
    assert ledger_total(ann) == 0


def test_a_spectator_sees_every_event_and_cannot_act(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    watcher = GameSocket(None, game_id, base=club.base)
    snapshot = watcher.until(lambda f: f["t"] == "snapshot")
    assert snapshot["d"]["you"] is None and snapshot["d"]["legal"] is None
    refused = watcher.act({"type": "roll"})
    assert refused["t"] == "error" and refused["d"]["error"] == "not_a_player"
    live = ann.get("/api/games/live").json()
    assert [g["id"] for g in live] == [game_id] and live[0]["spectators"] == 1
    play_randomly([a, b], random.Random(3))
    watcher.until(lambda f: f["t"] == "state" and f["v"] == a.v)
    assert watcher.events == a.events[len(a.events) - len(watcher.events) :]
    assert watcher.v == a.v == b.v
    assert ann.get("/api/games/live").json() == []


def test_draughts_game_to_the_end_settles_the_stake(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="draughts", stake=250)
    assert ann.balance() == bob.balance() == START - 250
    play_randomly([a, b], random.Random(11))
    result = a.state["result"]
    total = ann.balance() + bob.balance()
    assert total == 2 * START
    if result["winner"] is None:
        assert ann.balance() == bob.balance() == START  # a draw returns the stakes
    else:
        winner = ann if result["winner"] == "W" else bob  # seat 0 (the owner) plays White
        assert winner.balance() == START + 250
    assert ledger_total(ann) == 0


def test_a_match_pays_its_prize_once(new_player):
    """BG-18: games score points; the stake is the whole prize, settled at the end."""
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=500, match_length=1)
    assert ann.balance() == bob.balance() == START - 500
    play_randomly([a, b], random.Random(5))
    match = a.state["match"]
    assert match["result"] is not None
    winner = (
        ann if match["result"]["winner"] == ("W" if a.state["white_seat"] == 0 else "B") else bob
    )
    loser = bob if winner is ann else ann
    assert (winner.balance(), loser.balance()) == (START + 500, START - 500)


def test_resignation_accepted_pays_the_offered_level(new_player):
    """BF-15 through the socket: the opponent accepts, the game ends at that level."""
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=40, cube=True)
    mover = a if a.my_turn else b
    other = b if mover is a else a
    assert {"type": "resign", "level": 2} in (mover.legal or [])
    assert mover.act({"type": "resign", "level": 2})["t"] == "state"
    other.until(lambda f: f["t"] == "legal" and f["v"] == mover.v)
    assert other.act({"type": "accept_resign"})["t"] == "state"
    assert other.state["result"]["level"] == 2 and other.state["result"]["points"] == 2
    balances = sorted([ann.balance(), bob.balance()])
    assert balances == [START - 80, START + 80]


def play_until_doubled(a: GameSocket, b: GameSocket) -> tuple[GameSocket, GameSocket]:
    """Play on until someone may double; he does; (the doubler, the doubled side)."""
    mover = play_until([a, b], may_double)
    other = b if mover is a else a
    assert mover.act({"type": "double"})["t"] == "state"
    other.until(lambda f: f["t"] == "legal" and f["v"] == mover.v)
    return mover, other


@pytest.mark.parametrize(("stake", "offered"), [(100, True), (10_000, False)])
def test_a_beaver_is_offered_only_when_it_can_be_covered(new_player, club, stake, offered):
    """Issue 16, item 11 (PL-5): at stake 10 000 the start holds 30 000 and the double
    60 000 each; a beaver would need 120 000, so the menu leaves it off (also on a
    reconnect) and one sent anyway is refused. At stake 100 it is offered."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=stake, cube=True, beavers=True)
    _, doubled = play_until_doubled(a, b)
    answers = {m["type"] for m in doubled.legal or []}
    assert {"take", "drop"} <= answers and ("beaver" in answers) is offered
    player = ann if doubled is a else bob
    again = player.watch(game_id)
    snapshot = again.until(lambda f: f["t"] == "snapshot")
    assert ("beaver" in {m["type"] for m in snapshot["d"]["legal"]}) is offered
    if not offered:
        seq = doubled.v
        refused = doubled.act({"type": "beaver"})
        assert refused["t"] == "error" and refused["d"]["error"] == "insufficient_funds"
        assert doubled.v == seq and ann.balance() == bob.balance() == START - 60_000
        assert doubled.act({"type": "take"})["t"] == "state"


def play_until_a_turn_starts(players: list[GameSocket]) -> GameSocket:
    """Play on (random menu picks, never resigning) until a player is to roll after the
    opening: where the rules let him double with the cube in the middle (BG-11)."""

    def to_roll(mover: GameSocket) -> bool:
        opening = any(e["type"] == "opening" for e in mover.events[-3:])
        return {"type": "roll"} in (mover.legal or []) and mover.state.get("phase") == "roll" \
            and not opening  # fmt: skip

    return play_until(players, to_roll)


def test_a_refused_cube_raise_never_tells_a_balance(new_player):
    """Issue 16, item 12: the refusal says the raise cannot be covered, not who has how
    much (it said "ann has 40000")."""
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=20_000, cube=True)
    mover = play_until_a_turn_starts([a, b])
    refused = mover.act({"type": "double"})
    assert refused["t"] == "error" and refused["d"]["error"] == "insufficient_funds"
    message = refused["d"]["message"]
    assert "cannot be covered" in message
    assert "40000" not in message and not re.search(r"\b(ann|bob)\b", message)


@pytest.mark.parametrize(("stake", "offered"), [(100, True), (20_000, False)])
def test_a_double_is_offered_only_when_it_can_be_covered(new_player, stake, offered):
    """PL-5: at stake 20 000 the start holds 60 000 each and a double would need 120 000:
    the menu leaves it off (also on a reconnect), and one sent anyway is refused and
    changes nothing. At stake 100 it is offered."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=stake, cube=True)
    assert ann.balance() == START - 3 * stake
    mover = play_until_a_turn_starts([a, b])
    assert ({"type": "double"} in (mover.legal or [])) is offered
    again = (ann if mover is a else bob).watch(game_id)
    snapshot = again.until(lambda f: f["t"] == "snapshot")
    assert ({"type": "double"} in snapshot["d"]["legal"]) is offered
    again.close()
    if offered:
        return
    seq = mover.v
    refused = mover.act({"type": "double"})
    assert refused["t"] == "error" and refused["d"]["error"] == "insufficient_funds"
    assert "120000" in refused["d"]["message"] and "PL-5" in refused["d"]["message"]
    assert mover.v == seq and ann.balance() == bob.balance() == START - 60_000
    assert mover.act({"type": "roll"})["t"] == "state"  # the game goes on


def test_the_menu_reads_whether_a_double_is_covered_once_per_cube_level(club, new_player):
    """The cover check (PL-5) read both wallets (three queries) on every move; the answer
    is the same at every turn of one cube level, so a round trusts it for COVER_TTL."""
    host = club.app.state.club
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=100, cube=True)
    started = time.monotonic()
    with statements_sent(host.db) as sent:
        turns = 0
        while turns < 12:  # the double is on the menu at each of these turns (cube in the middle)
            mover = play_until([a, b], may_double)
            assert mover.act({"type": "roll"})["t"] == "state"
            turns += 1
    reads = [s for s in sent if "accounts.balance" in s and "UPDATE" not in s]
    periods = 1 + int((time.monotonic() - started) // COVER_TTL)  # a slow machine reads again
    assert 0 < len(reads) <= 2 * periods, (len(reads), periods)  # both wallets, once a period


class Now:
    """The club's clock, moved by the test: the server reads time only through it."""

    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


def colour_of(sock: GameSocket) -> str:
    return "white" if sock.seat == sock.state["white_seat"] else "black"


def test_pl_6_the_doubler_resumes_his_turn_with_the_delay_he_had_left(club_settings):
    """PL-6 through the round's ``Table.apply``: the taker answers on his own clock with a
    delay of its own (30 s: 12 free, 18 from his minute); the doubler, who had used 5 s of
    his 12 before doubling, goes on with 7, not with a fresh delay."""
    now = Now()
    with RunningClub(club_settings, now=now) as club:
        ann, bob = Player(club.base, "ann").register(), Player(club.base, "bob").register()
        _, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True,
                            clock="delay 12s + 1m")  # fmt: skip
        mover = play_until([a, b], may_double)
        taker = b if mover is a else a
        now.at += 5
        assert mover.act({"type": "double"})["t"] == "state"
        taker.until(lambda f: f["t"] == "legal" and f["v"] == mover.v)
        clock = taker.state["clock"]
        assert clock["running"] == (0 if colour_of(taker) == "white" else 1)
        assert clock["delay_left"] == 12.0
        now.at += 30
        assert taker.act({"type": "take"})["t"] == "state"
        clock = taker.state["clock"]
        assert clock["running"] == (0 if colour_of(mover) == "white" else 1)
        assert clock["delay_left"] == 7.0
        assert (clock[colour_of(taker)], clock[colour_of(mover)]) == (42.0, 60.0)
        ann.close()
        bob.close()
