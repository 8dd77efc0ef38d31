"""The game socket under bad input: every refusal is an error frame, and nothing changes.

Covers malformed and oversized frames (and a hypothesis fuzz of frames), acting
out of turn, the opponent or a spectator acting, stale sequence numbers and
double submissions, and reconnecting with the last sequence number seen.
"""

from __future__ import annotations

import json
import random

import pytest
from club_client import GameSocket, until_a_draw_may_be_offered
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds import open_game
from websockets.exceptions import ConnectionClosed

from sheshbesh.server.rounds import channel


def mover_and_other(a: GameSocket, b: GameSocket) -> tuple[GameSocket, GameSocket]:
    return (a, b) if a.my_turn else (b, a)


def test_malformed_and_oversized_frames_get_errors_and_the_socket_stays_open(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    seq = a.v
    for bad in [
        "not json",
        "[1, 2]",
        '{"t": 5}',
        '{"t": "action"}',
        '{"t": "action", "v": "3", "d": {"type": "roll"}}',
        '{"t": "action", "v": 0, "d": []}',
        '{"t": "sync", "v": -1}',
        json.dumps({"t": "action", "v": seq, "d": {"type": "roll", "pad": "x" * 5000}}),
    ]:
        a.send(bad)
        frame = a.until(lambda f: f["t"] == "error")
        assert frame["d"]["error"] == "bad_frame" and frame["d"]["message"]
    a.send({"t": "ping"})
    assert a.until(lambda f: f["t"] in ("pong", "error"))["t"] == "pong"
    assert a.v == seq and b.v == seq


def test_out_of_turn_opponent_and_unknown_actions_change_nothing(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    mover, other = mover_and_other(a, b)
    seq = mover.v
    # The opponent may not act for the mover, in any way.
    for action in (
        {"type": "roll"},
        {"type": "double"},
        {"type": "confirm"},
        {"type": "move", "from": 13, "to": 7},
    ):
        frame = other.act(action)
        assert frame["t"] == "error" and frame["d"]["error"] in ("not_your_turn", "illegal_action")
    for action, code in [
        ({"type": "fly"}, "bad_action"),
        ({"type": "move", "from": "13", "to": 7}, "bad_action"),
        ({"type": "move", "from": 1, "to": 25}, "illegal_move"),
        ({"type": "take"}, "illegal_action"),
    ]:
        frame = mover.act(action)
        assert frame["t"] == "error" and frame["d"]["error"] == code, (action, frame)
    assert mover.v == other.v == seq
    snapshot = ann.get(f"/api/games/{open_id(ann)}").json()
    assert snapshot["seq"] == seq


def open_id(player) -> str:
    return player.get("/api/games/live").json()[0]["id"]


def test_a_stale_sequence_number_and_a_double_submission_are_refused(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="draughts", stake=10)
    mover = a  # White (the request's owner) moves first in draughts (DR-4)
    seq = mover.v
    move = (mover.legal or [])[0]
    mover.send({"t": "action", "v": seq, "d": move})
    mover.send({"t": "action", "v": seq, "d": move})  # a double click
    assert mover.until(lambda f: f["t"] == "state")["v"] == seq + 1
    stale = mover.until(lambda f: f["t"] == "error")
    assert stale["d"]["error"] in ("stale", "not_your_turn")
    b.until(lambda f: f["t"] == "legal" and f["v"] == seq + 1)
    replay = b.act(b.legal[0], v=seq)
    assert replay["t"] == "error" and replay["d"]["error"] == "stale"
    assert "resync" in replay["d"]["message"]
    assert ann.get(f"/api/games/{open_id(ann)}").json()["seq"] == seq + 1


def test_a_move_sent_as_the_opponent_declines_ones_draw_offer_is_played(new_player):
    """DR-19: Ann offers a draw and plays on; Bob's decline lands first. Her move, sent at
    the offer's number, is still the move she meant (the decline changed nothing she
    sees but the offer): it is played, not refused as stale. A move sent before any
    other change is still refused (above)."""
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="draughts", stake=10)
    rng = random.Random(3)
    mover = until_a_draw_may_be_offered([a, b], rng)  # DR-19: 40 moves each first
    other = b if mover is a else a
    assert mover.act({"type": "offer_draw"})["t"] == "state"
    offered = mover.v
    move = next(m for m in mover.legal or [] if m["type"] == "move")
    other.settle(offered)
    assert other.act({"type": "decline_draw"})["t"] == "state"
    mover.send({"t": "action", "v": offered, "d": move})  # before the decline reached her
    mover.settle(offered + 2)
    assert [e["type"] for e in mover.events[-2:]] == ["draw_declined", "played"]
    assert mover.v == offered + 2 and not mover.errors


def test_reconnecting_with_the_last_seq_gets_exactly_what_was_missed(new_player, club):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=0)
    seen = b.v
    b.close()
    rng = random.Random(4)
    for _ in range(3):  # three plies while bob is away: ann moves, then bob's side via...
        mover = a if a.my_turn else None
        if mover is None:
            break
        mover.act(rng.choice([m for m in mover.legal or [] if m["type"] == "move"]))
    back = bob.watch(game_id, since=seen)
    back.until(lambda f: f["t"] == "state")
    assert back.events == a.events[-len(back.events) :] and back.v == a.v
    # A sync frame asks again from any point; the events come once more, in order.
    back.v = seen
    back.send({"t": "sync", "v": seen})
    back.until(lambda f: f["t"] == "state")
    assert back.v == a.v


def test_a_writer_that_fails_closes_its_socket_and_the_client_resumes(new_player, monkeypatch):
    """A socket whose writer failed used to stay open and silent (a page in CI stopped 23
    events short and waited there): now it is closed with 1011 and the failure logged, and
    the client, back with ``?v=``, gets every event it missed and nothing twice."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="draughts", stake=0)
    real = channel._send_batch
    failed: list[int | None] = []

    async def fails_once_for_bob(club, round_, socket, batch):  # type: ignore[no-untyped-def]
        if socket.seat == b.seat and not failed:
            failed.append(socket.seat)
            raise ValueError("a writer's bug")
        await real(club, round_, socket, batch)

    monkeypatch.setattr(channel, "_send_batch", fails_once_for_bob)
    seen = b.v
    rng = random.Random(5)
    mover = a if a.my_turn else b
    assert mover is a, "White moves first in draughts (DR-4)"
    mover.act(rng.choice([m for m in a.legal or [] if m["type"] == "move"]))
    with pytest.raises(ConnectionClosed) as closed:
        b.until(lambda f: False)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == channel.SERVER_FAILED
    assert failed == [b.seat] and b.v == seen  # the move never reached bob's first socket
    back = bob.watch(game_id, since=seen)
    back.until(lambda f: f["t"] == "state")
    assert back.v == a.v == seen + 1 and back.events == a.events[-1:]
    back.until(lambda f: f["t"] == "legal")  # and his menu after it: he moves on
    assert back.my_turn


def test_an_unknown_game_is_a_clear_error(club, new_player):
    sock = GameSocket(new_player("ann"), "nosuchgame")
    frame = sock.recv()
    assert frame["t"] == "error" and frame["d"]["error"] == "not_found"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    frame=st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(
                        [
                            "t",
                            "v",
                            "d",
                            "type",
                            "from",
                            "to",
                            "text",
                            "level",
                            "die",
                            "nonce",
                            "move",
                        ]
                    ),
                    inner,
                    max_size=5,
                )
            ),
            max_leaves=12,
        ).map(json.dumps),
        st.builds(
            lambda t, v, d: json.dumps({"t": t, "v": v, "d": d}),
            st.sampled_from(["action", "sync", "ping", "join"]),
            st.integers(-2, 40) | st.text(max_size=3),
            st.dictionaries(
                st.sampled_from(["type", "from", "to", "die", "text", "level"]),
                st.integers(-3, 30) | st.text(max_size=8) | st.none(),
                max_size=4,
            ),
        ),
    )
)
def test_fuzzed_frames_never_break_the_round(fuzz_game, frame):
    """Whatever arrives, the socket answers and stays usable; the server never fails.

    ``GameSocket.recv`` asserts that event numbers never skip or repeat, so the
    log stays whole while the fuzz (a spectator and a player) hammers it.
    """
    for sock in fuzz_game:
        sock.send(frame)
        sock.round_trip()  # not the first pong: the fuzzed frame may be a ping too
        assert all(error["error"] != "internal" for error in sock.errors)


@pytest.fixture
def fuzz_game(club, new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, _ = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    spectator = GameSocket(None, game_id, base=club.base)
    spectator.until(lambda f: f["t"] == "snapshot")
    yield spectator, a
    assert ann.get("/healthz").json()["ledger_total"] == 0
