"""What the room needs to show a game's history (issue 17): any earlier position on
demand, the last play to mark, gnubg's IDs to copy, and the player's board settings.

Over real HTTP and WebSockets: ``GET /api/games/{id}/position?seq=N`` is the game
folded to its event N, the same state a board draws live; a spectator reaches no
further than the record shows him (PL-3). ``state.last`` names the position before
the last play, ``state.ids`` gnubg's position and match IDs where gnubg knows the
board. ``POST /api/me/preferences`` keeps where the home board is drawn and whether
the room sounds, and refuses anything else without changing a thing.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
from club_client import GameSocket, Player, play_until
from me_socket import MeSocket
from test_rounds import open_game
from test_spectate import hidden_so_far

from sheshbesh.games.race import Position
from sheshbesh.games.race.gnubg_id import MatchId
from sheshbesh.games.race.ids import position_id


def plays(socket: GameSocket) -> list[dict[str, Any]]:
    return [e for e in socket.events if e["type"] == "played"]


def play_turns(a: GameSocket, b: GameSocket, count: int) -> None:
    """Play random menu picks until ``count`` plays are on the record."""
    play_until([a, b], lambda mover: len(plays(mover)) >= count)


def test_any_earlier_position_is_the_game_folded_to_that_event(new_player, club):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=False)  # no drop
    play_turns(a, b, 3)
    a.round_trip()
    for played in plays(a):
        found = bob.get(f"/api/games/{game_id}/position?seq={played['seq']}")
        assert found.status_code == 200, found.text
        body = found.json()
        assert body["seq"] == played["seq"] and body["last"] == a.v
        state = body["state"]
        # After a play the board is the play's position, and the play is the one to mark.
        assert state["position"] == played["position"] and state["dice"] is None
        assert state["last"]["side"] == played["side"]
        assert state["phase"] in ("roll", "finished")
    # The latest event's position is the live state, field for field.
    latest = ann.get(f"/api/games/{game_id}/position?seq={a.v}").json()["state"]
    assert latest == {k: v for k, v in a.state.items() if k not in ("clock", "held")}
    # Event 0 is the game as created: nothing played, no opening yet.
    first = ann.get(f"/api/games/{game_id}/position?seq=0").json()["state"]
    assert first["phase"] == "opening" and first["last"] is None


def test_bad_history_requests_get_clear_errors(new_player, club):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, a, _b = open_game(ann, bob, variant="long_nardy", stake=10)
    a.round_trip()
    for query, status in [("seq=-1", 422), ("seq=abc", 422), ("", 422),
                          (f"seq={a.v + 1}", 422), ("seq=99999999", 422)]:  # fmt: skip
        found = ann.get(f"/api/games/{game_id}/position?{query}")
        assert found.status_code == status, (query, found.text)
        assert "error" in found.json() or "detail" in found.json()
    beyond = ann.get(f"/api/games/{game_id}/position?seq={a.v + 1}").json()
    assert beyond["error"] == "no_such_event" and str(a.v) in beyond["message"]
    assert ann.get("/api/games/nosuchgame/position?seq=0").status_code == 404


def test_a_spectator_cannot_reach_a_pending_cube_offer_through_history(new_player, club):
    """PL-3: the position endpoint stops where the record stops for a spectator."""
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    watcher = GameSocket(None, game_id, base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")
    doubler = play_until([a, b], lambda m: {"type": "double"} in (m.legal or []))
    assert doubler.act({"type": "double"})["t"] == "state"
    offered = doubler.v
    hidden_so_far(watcher, offered)
    refused = cid.get(f"/api/games/{game_id}/position?seq={offered}")
    assert refused.status_code == 422 and refused.json()["error"] == "no_such_event"
    guest = httpx.get(f"{club.base}/api/games/{game_id}/position?seq={offered}")
    assert guest.status_code == 422
    shown = cid.get(f"/api/games/{game_id}/position?seq={offered - 1}").json()
    assert shown["last"] == offered - 1 and shown["state"]["phase"] == "roll"
    # The players see their own offer.
    mine = ann.get(f"/api/games/{game_id}/position?seq={offered}").json()["state"]
    assert mine["phase"] == "doubled" and mine["ids"] is not None


def test_the_last_play_stays_marked_until_the_next_play(new_player, club):
    ann, bob = new_player("ann"), new_player("bob")
    _game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10)
    play_turns(a, b, 2)
    a.round_trip()
    last, before = plays(a)[-1], plays(a)[-2]
    state = a.state
    assert state["last"] == {"side": last["side"], "before": before["position"]}
    # The next player rolls: the opponent's play is still the one marked.
    mover = play_until([a, b], lambda m: {"type": "roll"} in (m.legal or []))
    assert mover.act({"type": "roll"})["t"] == "state"
    if not [e for e in mover.events[-3:] if e["type"] == "passed"]:
        assert mover.state["last"]["before"] == before["position"]


def test_gnubg_ids_describe_the_board_the_players_see(new_player, club):
    ann, bob = new_player("ann"), new_player("bob")
    _game_id, a, b = open_game(ann, bob, variant="backgammon", stake=10, cube=True)
    mover = play_until([a, b], lambda m: any(x["type"] == "move" for x in m.legal or []))
    state = mover.state
    ids = state["ids"]
    position = Position.from_text("backgammon", state["position"])
    assert ids["position_id"] == position_id(position)
    match = MatchId.from_id(ids["match_id"])
    mover_index = 0 if state["turn"] == "W" else 1
    assert match.dice_owner == match.turn == mover_index
    assert match.dice == tuple(sorted(state["dice"], reverse=True))
    assert match.cube == state["cube"]["value"] and match.match_length == 0
    # Where gnubg has no such board, there are no IDs to copy.
    carl, dora = new_player("carl"), new_player("dora")
    _, c, _d = open_game(carl, dora, variant="long_nardy", stake=10)
    c.round_trip()
    assert c.state["ids"] is None


def test_a_match_id_carries_the_match_length_and_score(new_player, club):
    ann, bob = new_player("ann"), new_player("bob")
    _, a, _b = open_game(ann, bob, variant="backgammon", stake=10, match_length=3)
    a.round_trip()
    match = MatchId.from_id(a.state["ids"]["match_id"])
    assert match.match_length == 3 and match.score == (0, 0) and not match.crawford


# --- preferences -----------------------------------------------------------------------


def prefs(player: Player) -> dict[str, Any]:
    return player.get("/api/session").json()["me"]["prefs"]  # type: ignore[no-any-return]


def test_preferences_follow_the_player_and_reach_his_other_tabs(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    assert prefs(ann) == {"home": "right", "sound": True}
    with MeSocket(ann) as other_tab, MeSocket(bob) as someone_else:
        changed = ann.post("/api/me/preferences", {"home": "left"})
        assert changed.status_code == 200 and changed.json() == {"home": "left", "sound": True}
        frame = other_tab.until("me")
        assert frame["d"]["prefs"] == {"home": "left", "sound": True}
        assert someone_else.quiet("me") == []
    assert ann.post("/api/me/preferences", {"sound": False}).json() == {
        "home": "left",
        "sound": False,
    }
    assert prefs(ann) == {"home": "left", "sound": False} and prefs(bob)["home"] == "right"


def test_bad_preferences_are_refused_and_change_nothing(new_player, club):
    ann = new_player("ann")
    ann.post("/api/me/preferences", {"home": "left"})
    for body in [{}, {"home": "top"}, {"home": None}, {"sound": "yes"}, {"sound": 1},
                 {"colour": "red"}, {"home": "right", "extra": 1}, [1], "left"]:  # fmt: skip
        refused = ann.post("/api/me/preferences", body)
        assert refused.status_code == 422, (body, refused.text)
    assert prefs(ann) == {"home": "left", "sound": True}
    # A guest has no settings to change; without the CSRF token nothing changes either.
    guest = httpx.post(f"{club.base}/api/me/preferences", json={"home": "right"})
    assert guest.status_code in (401, 403)
    raw = httpx.post(f"{club.base}/api/me/preferences", json={"home": "right"},
                     cookies=dict(ann.http.cookies))  # fmt: skip
    assert raw.status_code == 403
    assert prefs(ann) == {"home": "left", "sound": True}


def test_preferences_survive_a_random_sequence_of_changes(new_player):
    """Whatever order the changes come in, the stored settings are the last of each."""
    ann = new_player("ann")
    rng = random.Random(17)
    expected = {"home": "right", "sound": True}
    for _ in range(12):
        change = rng.choice([{"home": rng.choice(["left", "right"])}, {"sound": rng.random() < 0.5},
                             {"home": "left", "sound": False}])  # fmt: skip
        expected |= change
        assert ann.post("/api/me/preferences", change).json() == expected
    assert prefs(ann) == expected
