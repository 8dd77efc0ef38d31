"""A real server killed with SIGKILL mid-game loses nothing (DESIGN principle 3).

Both players reconnect to the restarted server with the last sequence number
they saw, get exactly what they missed, and finish the game from the same
position; every event is stored once and the FUN adds up.

Nor does it forget who is away (issue 16, item 5): after the restart nobody
counts as present until a socket of his arrives, so a player who never comes
back forfeits once the grace has run from the restart (or, if he never opened
the game at all, the game is aborted), and no escrow stays held for ever.
"""

from __future__ import annotations

import random
import time

from club_client import GameSocket, Player, ServerProcess, next_mover, play_randomly


def test_sigkill_mid_game_then_restart_loses_no_event_and_no_fun(club_settings):
    server = ServerProcess(club_settings.database_url).start()
    ann, bob = Player(server.base, "ann").register(), Player(server.base, "bob").register()
    try:
        offer = ann.offer(variant="backgammon", stake=100, cube=True)
        game_id = bob.accept(offer["id"])["id"]
        a, b = ann.watch(game_id), bob.watch(game_id)
        for sock in (a, b):
            sock.until(lambda f: f["t"] == "snapshot")
        rng = random.Random(9)
        for _ in range(25):  # play a while: rolls, steps, confirms
            mover = next_mover([a, b])
            assert mover is not None
            menu = [m for m in mover.legal or [] if m["type"] not in ("resign", "double")]
            assert mover.act(rng.choice(menu))["t"] == "state"
        last = max(a.v, b.v)
        for sock in (a, b):  # both have heard everything before the crash
            sock.settle(last)
        before, state_before = a.v, a.state
        server.kill()  # SIGKILL: no shutdown, no flush
        server.start()  # the same database and port
        a2, b2 = GameSocket(ann, game_id, since=before), GameSocket(bob, game_id, since=before)
        for sock in (a2, b2):
            sock.until(lambda f: f["t"] == "state")
            sock.events = list(a.events)
        assert a2.v == b2.v == before and a2.state == state_before
        waiting = a2 if a2.to_act_seat == a2.seat else b2
        waiting.until(lambda f: f["t"] == "legal")
        play_randomly([a2, b2], rng)
        record = ann.get(f"/api/games/{game_id}/record").json()
        seqs = [e["seq"] for e in [record["created"], *record["events"]]]
        assert seqs == list(range(len(seqs)))
        assert record["events"][-len(a2.events) :] == a2.events == b2.events
        assert ann.balance() + bob.balance() == 200_000
        assert ann.get("/healthz").json()["ledger_total"] == 0
        assert ann.get("/api/games/live").json() == []
    finally:
        ann.close()
        bob.close()
        server.stop()


START = 100_000
GRACE = 2.0
"""The abandonment grace of the restarted server (before the crash it is long: nothing
may end before the kill, however slow the machine)."""


def restart_after_a_crash(server: ServerProcess) -> float:
    """SIGKILL the server and start it again on its database with a short grace; returns
    a time before the restart (the server's clock is the real one)."""
    server.kill()
    server.env["SHESHBESH_ABANDON_GRACE"] = str(GRACE)
    before = time.time()
    server.start()
    return before


def test_after_a_crash_a_player_who_never_comes_back_forfeits_after_the_grace(club_settings):
    server = ServerProcess(club_settings.database_url, SHESHBESH_ABANDON_GRACE="600").start()
    ann, bob = Player(server.base, "ann").register(), Player(server.base, "bob").register()
    try:
        offer = ann.offer(variant="draughts", stake=100)  # Ann is White
        game_id = bob.accept(offer["id"])["id"]
        a, b = ann.watch(game_id), bob.watch(game_id)
        for sock in (a, b):
            sock.until(lambda f: f["t"] == "snapshot")
        move = next(m for m in a.legal or [] if m["type"] == "move")
        assert a.act(move)["t"] == "state"  # now Bob is to move, and both are here
        b.settle(a.v)
        restarted = restart_after_a_crash(server)
        back = GameSocket(ann, game_id, since=a.v)  # Ann comes back; Bob never does
        away = back.until(lambda f: f["t"] == "presence_all")["d"][1]
        assert not away["online"] and away["since"] >= restarted  # the grace runs from now
        assert away["deadline"] - away["since"] == GRACE
        back.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None, timeout=30)
        assert back.events[-2]["type"] == "timeout" and back.state["result"]["winner"] == "W"
        assert (ann.balance(), bob.balance()) == (START + 100, START - 100)
        assert ann.get("/healthz").json()["ledger_total"] == 0
        assert ann.get("/api/games/live").json() == []
    finally:
        ann.close()
        bob.close()
        server.stop()


def test_after_a_crash_a_game_its_player_never_opened_is_aborted(club_settings):
    server = ServerProcess(club_settings.database_url, SHESHBESH_ABANDON_GRACE="600").start()
    ann, bob = Player(server.base, "ann").register(), Player(server.base, "bob").register()
    try:
        offer = ann.offer(variant="backgammon", stake=100, cube=True)
        game_id = bob.accept(offer["id"])["id"]
        b = bob.watch(game_id)  # Bob opens the game; Ann never does, before or after
        b.until(lambda f: f["t"] == "snapshot")
        restart_after_a_crash(server)
        back = GameSocket(bob, game_id)
        snapshot = back.until(lambda f: f["t"] == "snapshot")["d"]
        if snapshot.get("aborted") is None:
            back.until(lambda f: f["t"] == "aborted", timeout=30)
        assert (ann.balance(), bob.balance()) == (START, START)
        assert ann.get("/healthz").json()["ledger_total"] == 0
        assert ann.get("/api/users/ann").json()["playban"]["offences"] == 0
        assert ann.get("/api/games/live").json() == []
    finally:
        ann.close()
        bob.close()
        server.stop()
