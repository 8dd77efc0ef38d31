"""Watching a game (PL-3): spectators see the game read-only, and a cube offer only once
it is answered.

PL-3 hides cube offers from spectators. While a double (or a beaver after it) waits for
its answer, a spectator's socket, a spectator's snapshot, a resync, the game's page and
its record all show the game as it stood before the offer; once the answer is in, the
spectator hears the offer and the answer in order, with no gap in ``v`` (the club
client checks that), so folding what he heard still gives the game's true state.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from club_client import GameSocket, RunningClub
from test_rounds import open_game, play_until_doubled


def hidden_so_far(watcher: GameSocket, v: int) -> None:
    """The spectator has read everything sent to him, and it stops before ``v``."""
    watcher.round_trip()
    assert watcher.v == v - 1 and watcher.state_v == v - 1
    assert not {"doubled", "beavered"} & {e["type"] for e in watcher.events}
    assert watcher.state["phase"] == "roll"


@pytest.mark.parametrize(
    "answers",
    [("take",), ("drop",), ("beaver", "take")],
    ids=["take", "drop", "beaver-take"],
)
def test_pl_3_a_spectator_sees_a_cube_offer_only_once_it_is_answered(
    club: RunningClub, new_player: Any, answers: tuple[str, ...]
) -> None:
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True, beavers=True,
                              clock="delay 30s + 30m")  # fmt: skip
    watcher = GameSocket(None, game_id, base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")
    doubler, doubled = play_until_doubled(a, b)
    offered_at = doubler.v  # the "doubled" event
    before = {"cube": dict(doubler.state["cube"]), "to_act": doubler.seat}
    hidden_so_far(watcher, offered_at)

    # A beaver is an offer too: still nothing for the spectator.
    answerer, other = doubled, doubler
    for answer in answers[:-1]:
        assert answerer.act({"type": answer})["t"] == "state"
        seen = answerer.v
        other.until(lambda f: f["t"] == "legal" and f["v"] == seen)  # noqa: B023 (read at once)
        answerer, other = other, answerer
    hidden_so_far(watcher, offered_at)

    # Whoever comes now sees the game before the offer: a socket, a resync, the page, the record.
    late = GameSocket(None, game_id, base=club.base)
    snapshot = late.until(lambda f: f["t"] == "snapshot")["d"]
    assert snapshot["seq"] == offered_at - 1 and late.v == offered_at - 1
    assert snapshot["state"]["phase"] == "roll" and snapshot["state"]["cube"] == before["cube"]
    assert snapshot["to_act"] == before["to_act"] and snapshot["legal"] is None
    assert snapshot["clock"]["running"] == (0 if doubler.state["turn"] == "W" else 1)
    behind = GameSocket(None, game_id, since=offered_at - 3, base=club.base)
    behind.until(lambda f: f["t"] == "state")
    assert [f["v"] for f in behind.frames if f["t"] == "event"] == [offered_at - 2, offered_at - 1]
    assert behind.state_v == offered_at - 1 and behind.state["phase"] == "roll"
    behind.send({"t": "sync", "v": offered_at - 2})
    behind.until(lambda f: f["t"] == "state" and f["v"] == offered_at - 1)
    assert behind.v == offered_at - 1
    stranger = httpx.Client(base_url=club.base)
    page = stranger.get(f"/api/games/{game_id}").json()
    assert (page["seq"], page["state"]["phase"]) == (offered_at - 1, "roll")
    record = stranger.get(f"/api/games/{game_id}/record").json()
    assert record["events"][-1]["seq"] == offered_at - 1
    assert not [g for g in stranger.get("/api/games/live").json() if g["seq"] >= offered_at]
    # The players still see it all, on the page and in the record too.
    mine = (ann if doubled is a else bob).get(f"/api/games/{game_id}").json()
    assert mine["seq"] == doubled.v and mine["state"]["phase"] != "roll"
    assert ann.get(f"/api/games/{game_id}/record").json()["events"][-1]["seq"] == doubled.v

    # The answer: now the spectators hear the offer and the answer, in order, without a gap.
    assert answerer.act({"type": answers[-1]})["t"] == "state"
    for sock in (watcher, late, behind):
        sock.until(lambda f: f["t"] == "state" and f["v"] == answerer.v)
        heard = [e for e in sock.events if e["seq"] >= offered_at]
        assert heard == [e for e in answerer.events if e["seq"] >= offered_at]
        assert sock.state == answerer.state
    kinds = [e["type"] for e in watcher.events if e["seq"] >= offered_at]
    assert (
        kinds[0] == "doubled"
        and kinds[1:]
        == {
            ("take",): ["taken"],
            ("drop",): ["dropped", "finished"],
            ("beaver", "take"): ["beavered", "beaver_taken"],
        }[answers]
    )
    if answers[-1] == "take":
        assert watcher.state["cube"]["value"] == 2 * len(answers)
    else:
        assert watcher.state["result"]["reason"] == "BG-12"
    assert watcher.errors == late.errors == behind.errors == []
    stranger.close()
    for sock in (watcher, late, behind):
        sock.close()


def escrowed(player: Any, game_id: str) -> int:
    """What the player's wallet has put in this game's escrow so far (his ledger)."""
    rows = player.get("/api/me/ledger").json()
    return -sum(
        row["amount"] for row in rows if row["game"] == game_id and row["reason"] == "escrow"
    )


def test_the_escrow_each_player_holds_is_in_every_snapshot_and_state(
    club: RunningClub, new_player: Any
) -> None:
    """Issue 17, item 4 (PL-4, PL-5): the room says what each player holds in escrow, from
    the server's own number: at the start the stake times a backgammon (3), raised when a
    double is offered; a spectator hears the raise only with the answer (PL-3)."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    snapshot = next(f for f in a.frames if f["t"] == "snapshot")["d"]
    assert snapshot["held"] == 30 == escrowed(ann, game_id) == escrowed(bob, game_id)
    watcher = GameSocket(None, game_id, base=club.base)
    assert watcher.until(lambda f: f["t"] == "snapshot")["d"]["held"] == 30
    doubler, doubled = play_until_doubled(a, b)
    assert doubler.state["held"] == doubled.state["held"] == 60 == escrowed(ann, game_id)
    late = GameSocket(None, game_id, base=club.base)
    assert late.until(lambda f: f["t"] == "snapshot")["d"]["held"] == 30  # PL-3
    hidden_so_far(watcher, doubler.v)
    assert watcher.state["held"] == 30
    assert doubled.act({"type": "take"})["t"] == "state"
    watcher.until(lambda f: f["t"] == "state" and f["v"] == doubled.v)
    assert watcher.state["held"] == doubled.state["held"] == 60 == escrowed(bob, game_id)
    for sock in (watcher, late):
        sock.close()
