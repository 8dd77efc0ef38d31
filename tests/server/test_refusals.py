"""Every action the menu does not offer is refused with a typed error, never an internal one.

A fuzz over real WebSockets: the game is walked through its phases (race: the
opening's move, steps entered, a complete play, the roll, a double, a beaver, a
resignation offer, the end; a match; draughts) and in each phase both players
and a spectator send every action type the club knows, with well-formed and
malformed fields. Each frame must get an ``error`` frame with a stable code
(``illegal_action`` for a well-formed action the menu does not offer), the
game must not move, and the server must log no traceback (issue 16, item 2).
Repeated identical refusals are logged once, with a count.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from club_client import GameSocket, Player
from test_rounds import open_game

from sheshbesh.server.rounds import tables

HUGE = 10**30


@dataclass(frozen=True)
class Variant:
    """One action frame's ``d``; ``malformed``: the table kinds where its fields are wrong
    (``bad_action``); ``never_legal``: the kinds where no menu ever offers it. Either way
    it is safe to send to the player to act: it cannot move the game."""

    data: dict[str, Any]
    malformed: tuple[str, ...] = ()
    never_legal: tuple[str, ...] = ()


BOTH, RACE, DRAUGHTS = ("race", "draughts"), ("race",), ("draughts",)


def variants() -> list[Variant]:
    v = Variant
    return [
        v({"type": "roll"}),
        v({"type": "roll", "nonce": "n" * 200}),
        v({"type": "roll", "nonce": ""}, malformed=BOTH),
        v({"type": "roll", "nonce": 7}, malformed=BOTH),
        v({"type": "move", "from": 13, "to": 7}, malformed=DRAUGHTS),
        v({"type": "move", "from": 6, "to": 1, "die": 5}, malformed=DRAUGHTS),
        v({"type": "move", "from": -1, "to": 99}, malformed=DRAUGHTS, never_legal=BOTH),
        v({"type": "move", "from": HUGE, "to": 0, "die": HUGE}, DRAUGHTS, never_legal=BOTH),
        v({"type": "move", "from": 25, "to": 24, "die": 0}, DRAUGHTS, never_legal=BOTH),
        v({"type": "move", "from": 8, "to": 8, "die": -HUGE}, DRAUGHTS, never_legal=BOTH),
        v({"type": "move", "text": "32-28"}, malformed=RACE),
        v({"type": "move", "text": "99x1"}, malformed=RACE, never_legal=BOTH),
        v({"type": "move"}, malformed=BOTH),
        v({"type": "move", "from": "13", "to": 7}, malformed=BOTH),
        v({"type": "undo"}),
        v({"type": "confirm"}),
        v({"type": "play", "text": "13/7 8/7"}),
        v({"type": "play", "text": "bar/20*(4) 99/-3"}, never_legal=BOTH),
        v({"type": "play", "text": "x" * 200}, never_legal=BOTH),
        v({"type": "play"}, malformed=BOTH),
        v({"type": "double"}),
        v({"type": "take"}),
        v({"type": "drop"}),
        v({"type": "beaver"}),
        v({"type": "resign", "level": 1}),
        v({"type": "resign", "level": 3}),
        v({"type": "resign", "level": 0}, never_legal=RACE),  # draughts reads no level
        v({"type": "resign", "level": HUGE}, never_legal=RACE),
        v({"type": "resign", "level": True}, malformed=RACE),
        v({"type": "accept_resign"}),
        v({"type": "decline_resign"}),
        v({"type": "offer_draw"}),
        v({"type": "offer_draw", "move": "32-28"}),
        v({"type": "offer_draw", "move": "junk"}, never_legal=BOTH),
        v({"type": "accept_draw"}),
        v({"type": "decline_draw"}),
        v({"type": "fly"}, never_legal=BOTH),
    ]


VARIANTS = variants()
VOCABULARY = {"race": set(tables.RACE_ACTIONS), "draughts": set(tables.DRAUGHTS_ACTIONS)}
REFUSALS = {
    "bad_action", "illegal_action", "illegal_move", "not_your_turn", "not_a_player",
    "game_over", "bad_nonce",
}  # fmt: skip


def table_of(sock: GameSocket) -> str:
    return "draughts" if sock.state.get("kind") == "draughts" else "race"


def expected(sock: GameSocket, variant: Variant, offered: set[str]) -> set[str]:
    """The codes this socket may get for this frame in the current phase."""
    kind, table = variant.data["type"], table_of(sock)
    if sock.seat is None:
        return {"not_a_player"}
    if sock.finished:
        return {"game_over"}
    if kind not in VOCABULARY[table] or table in variant.malformed:
        return {"bad_action"}
    if kind in offered:  # a never-legal variant of an offered kind: the rules say why
        return {"illegal_move", "illegal_action", "bad_nonce"}
    return {"illegal_action"} if sock.my_turn else {"not_your_turn"}


def ready(sockets: list[GameSocket]) -> int:
    """Read until every player has the latest state, and the player to act his menu; a
    spectator, everything sent to him (PL-3: it stops short of a pending cube offer)."""
    v = max(s.v for s in sockets)
    for sock in sockets:
        if sock.seat is None:
            sock.round_trip()
            assert sock.v <= v
            continue
        sock.settle(v)
        acting = sock.seat is not None and sock.seat == sock.to_act_seat and not sock.finished
        if acting and sock.legal_v != v:
            sock.until(lambda f: f["t"] == "legal" and f["v"] == v)
    return v


def fuzz(sockets: list[GameSocket], phase: str) -> None:
    """Every variant from every socket; each refused, with the expected code; nothing moves."""
    v = ready(sockets)
    seen = [s.v for s in sockets]
    if phase in ("doubled", "beavered"):  # PL-3: the offer is not the spectators' yet
        assert all(s.v < v for s in sockets if s.seat is None), phase
    for sock in sockets:
        table = table_of(sock)
        offered = {a["type"] for a in sock.legal or []} if sock.my_turn else set()
        if "move" in offered and table == "race":
            offered.add("play")  # a whole play, where steps may be entered
        frames = [
            x for x in VARIANTS
            if x.data["type"] not in offered or table in x.never_legal + x.malformed
        ]  # fmt: skip
        for variant in frames:
            sock.send({"t": "action", "v": sock.v, "d": variant.data})
        for variant in frames:
            frame = sock.until(lambda f: f["t"] in ("error", "state"))
            assert frame["t"] == "error", (phase, variant, frame)
            code = frame["d"]["error"]
            assert code in REFUSALS and frame["d"]["message"], (phase, variant, frame)
            assert code in expected(sock, variant, offered), (phase, sock.seat, variant, frame)
    assert [s.v for s in sockets] == seen, phase
    assert {s.v for s in sockets if s.seat is not None} == {v}, phase


def play(mover: GameSocket, kind: str, rng: random.Random) -> None:
    menu = [a for a in mover.legal or [] if a["type"] == kind]
    choice = max(menu, key=lambda a: a.get("level", 0)) if kind == "resign" else rng.choice(menu)
    frame = mover.act(choice)
    assert frame["t"] == "state", (kind, frame)


def the_mover(sockets: list[GameSocket]) -> GameSocket:
    ready(sockets)
    for sock in sockets:
        if sock.seat is not None and sock.my_turn:
            return sock
    return sockets[0]


def until_offered(sockets: list[GameSocket], kind: str, rng: random.Random) -> GameSocket:
    """Play plain moves until someone's menu offers ``kind``; that player."""
    for _ in range(400):
        mover = the_mover(sockets)
        menu = {a["type"] for a in mover.legal or []}
        if kind in menu:
            return mover
        plain = [a for a in mover.legal or [] if a["type"] in ("roll", "move", "confirm")]
        frame = mover.act(rng.choice(plain))
        assert frame["t"] == "state", frame
    raise AssertionError(f"{kind} never offered")


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def seated(ann: Player, bob: Player, club: Any, **request: Any) -> list[GameSocket]:
    game_id, a, b = open_game(ann, bob, **request)
    watcher = GameSocket(None, game_id, base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")
    return [a, b, watcher]


def test_race_every_action_in_every_phase_is_refused_typed(club, new_player, no_tracebacks):
    sockets = seated(new_player("ann"), new_player("bob"), club, variant="backgammon",
                     stake=10, cube=True, beavers=True)  # fmt: skip
    rng = random.Random(16)
    fuzz(sockets, "opening")
    mover = until_offered(sockets, "move", rng)
    fuzz(sockets, "move")
    play(mover, "move", rng)
    fuzz(sockets, "a step entered")
    mover = until_offered(sockets, "confirm", rng)
    fuzz(sockets, "the play complete")
    play(mover, "confirm", rng)
    mover = until_offered(sockets, "double", rng)
    fuzz(sockets, "roll")
    play(mover, "double", rng)
    fuzz(sockets, "doubled")
    play(the_mover(sockets), "beaver", rng)
    fuzz(sockets, "beavered")
    play(the_mover(sockets), "take", rng)
    mover = until_offered(sockets, "resign", rng)
    play(mover, "resign", rng)
    fuzz(sockets, "resigning")
    play(the_mover(sockets), "decline_resign", rng)
    fuzz(sockets, "resignation declined")
    mover = until_offered(sockets, "resign", rng)
    play(mover, "resign", rng)
    play(the_mover(sockets), "accept_resign", rng)
    fuzz(sockets, "finished")


def test_match_and_nardy_phases_are_refused_typed(club, new_player, no_tracebacks):
    rng = random.Random(17)
    ann, bob = new_player("ann"), new_player("bob")
    for request in (
        {"variant": "backgammon", "stake": 10, "match_length": 3, "cube": True},
        {"variant": "long_nardy", "stake": 10},
        {"variant": "plakoto", "stake": 0},
    ):
        sockets = seated(ann, bob, club, **request)
        fuzz(sockets, f"{request['variant']} opening")
        mover = until_offered(sockets, "roll", rng)
        fuzz(sockets, f"{request['variant']} roll")
        play(mover, "roll", rng)
        mover = until_offered(sockets, "resign", rng)
        play(mover, "resign", rng)
        fuzz(sockets, f"{request['variant']} resigning")
        play(the_mover(sockets), "accept_resign", rng)
        fuzz(sockets, f"{request['variant']} finished")
        for sock in sockets:
            sock.close()


def test_draughts_every_action_is_refused_typed(club, new_player, no_tracebacks):
    rng = random.Random(18)
    sockets = seated(new_player("ann"), new_player("bob"), club, variant="draughts", stake=10)
    fuzz(sockets, "white to move")
    play(the_mover(sockets), "move", rng)
    fuzz(sockets, "black to move")
    play(the_mover(sockets), "resign", rng)
    fuzz(sockets, "finished")


def test_repeated_identical_refusals_are_logged_once_with_a_count(club, new_player, caplog):
    caplog.set_level(logging.INFO, logger="sheshbesh")
    ann, bob = new_player("ann"), new_player("bob")
    _, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    mover = a if a.my_turn else b
    for _ in range(20):
        mover.send({"t": "action", "v": mover.v, "d": {"type": "accept_resign"}})
    mover.send({"t": "action", "v": mover.v, "d": {"type": "beaver"}})
    codes = [mover.until(lambda f: f["t"] == "error")["d"]["error"] for _ in range(21)]
    assert codes == ["illegal_action"] * 21
    said = [r.getMessage() for r in caplog.records if "accept_resign" in r.getMessage()]
    assert len(said) == 2, said  # the first, then the count when another refusal came
    assert "19 more" in said[1], said
