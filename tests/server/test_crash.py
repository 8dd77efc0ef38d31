"""A real server killed with SIGKILL mid-game loses nothing (DESIGN principle 3).

Both players reconnect to the restarted server with the last sequence number
they saw, get exactly what they missed, and finish the game from the same
position; every event is stored once and the FUN adds up.
"""

from __future__ import annotations

import random

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
