"""Disconnection, abandonment and fallen flags: no game and no FUN is ever stuck (PL-7).

These run a club whose abandonment grace is short, so the server's own timers
end the games while the test waits for the frames that say so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from club_client import Player, RunningClub
from test_rounds import open_game, play_until_doubled

GRACE = 1.5
START = 100_000


@pytest.fixture
def quick_club(club_settings) -> Iterator[RunningClub]:
    with RunningClub(dataclasses.replace(club_settings, abandon_grace=GRACE)) as running:
        yield running


@pytest.fixture
def pair(quick_club) -> Iterator[tuple[Player, Player]]:
    ann, bob = Player(quick_club.base, "ann").register(), Player(quick_club.base, "bob").register()
    yield ann, bob
    ann.close()
    bob.close()


def test_the_opponent_sees_the_absence_at_once_and_wins_when_the_grace_runs_out(pair):
    ann, bob = pair
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=100, cube=True)
    leaver, stayer = (a, b) if a.my_turn else (b, a)
    leaving_player = ann if leaver is a else bob
    leaver.close()
    seen = stayer.until(lambda f: f["t"] == "presence" and not f["d"]["online"])
    assert seen["d"]["seat"] == leaver.seat and seen["d"]["deadline"] > seen["d"]["since"]
    assert seen["d"]["deadline"] - seen["d"]["since"] == pytest.approx(GRACE)
    # PL-7 / issue 5: while away from a live game, no new request.
    refused = leaving_player.post("/api/requests", {"variant": "backgammon", "stake": 1})
    assert refused.status_code == 409 and refused.json()["error"] == "abandoning"
    stayer.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None, timeout=GRACE + 10)
    result = stayer.state["result"]
    assert result["reason"] == "PL-7" and stayer.events[-2]["type"] == "timeout"
    # PL-7: the level if the stayer bore off now; the leaver still has checkers in
    # the stayer's home board, so it is a backgammon: 3 points at stake 100.
    assert result["points"] == 3
    assert leaving_player.balance() == START - 300
    assert (ann.balance() + bob.balance()) == 2 * START
    assert ann.get("/healthz").json()["ledger_total"] == 0
    assert ann.get("/api/games/live").json() == []
    assert leaving_player.post("/api/requests", {"variant": "backgammon", "stake": 1}).is_success
    assert game_id


def test_coming_back_in_time_keeps_the_game_alive(pair):
    ann, bob = pair
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=10)
    b.close()  # Black is not to move: his absence only matters when his turn comes
    a.until(lambda f: f["t"] == "presence" and not f["d"]["online"])
    back = bob.watch(game_id)
    back.until(lambda f: f["t"] == "snapshot")
    a.until(lambda f: f["t"] == "presence" and f["d"]["online"])
    move = next(m for m in a.legal or [] if m["type"] == "move")
    assert a.act(move)["t"] == "state" and a.state["result"] is None


def test_a_fallen_flag_ends_the_game_and_settles_the_escrow(pair):
    ann, bob = pair
    _, a, _ = open_game(ann, bob, variant="draughts", stake=300, clock="fischer 1s + 0s")
    a.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None, timeout=10)
    result = a.state["result"]
    assert result["winner"] == "B" and a.events[-2]["type"] == "timeout"
    assert (ann.balance(), bob.balance()) == (START - 300, START + 300)
    clock = a.state["clock"]  # the state frame carries the clock
    assert clock["white"] == 0 and clock["running"] is None


def test_pl_7_a_player_forfeited_while_he_must_answer_a_double_drops_it(pair):
    """PL-7 and BG-12 in money play: doubled to 2 early on (the forfeit level would be a
    backgammon, 300), he leaves and the grace runs out: he drops, and pays the cube before
    the offer, 100. The ledger settles it: both held 600 (the pending double), the loser
    gets 500 back, the winner 700."""
    ann, bob = pair
    _, a, b = open_game(ann, bob, variant="backgammon", stake=100, cube=True)
    doubler, doubled = play_until_doubled(a, b)
    assert ann.balance() == bob.balance() == START - 600
    leaving = ann if doubled is a else bob
    staying = bob if leaving is ann else ann
    doubled.close()
    doubler.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None, timeout=GRACE + 10)
    result = doubler.state["result"]
    assert (result["reason"], result["level"], result["cube"], result["points"]) == (
        "PL-7",
        1,
        1,
        1,
    )
    assert doubler.events[-2]["type"] == "timeout"
    assert (leaving.balance(), staying.balance()) == (START - 100, START + 100)
    for player, back in ((leaving, 500), (staying, 700)):
        rows = player.get("/api/me/ledger").json()
        assert [(row["reason"], row["amount"]) for row in rows[:3]] == [
            ("payout", back), ("escrow", -300), ("escrow", -300)
        ]  # fmt: skip
    assert ann.get("/healthz").json()["ledger_total"] == 0
