"""Disconnection, abandonment and fallen flags: no game and no FUN is ever stuck (PL-7).

These run a club whose abandonment grace is short, so the server's own timers
end the games while the test waits for the frames that say so. A player who
never opens a game is not forfeited but the game aborted, every stake returned
(issue 16, item 4: nobody wins by accepting the request of someone who left).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from club_client import GameSocket, Player, RunningClub
from test_lobby_socket import lobby, next_of
from test_rounds import open_game, play_until_doubled

GRACE = 1.5
ARRIVAL = 5.0
"""Seconds a player may take to open a new game: longer than the grace, so that a slow
test client is not taken for one who never came (the abort tests wait this long)."""
START = 100_000


@pytest.fixture
def quick_club(club_settings) -> Iterator[RunningClub]:
    settings = dataclasses.replace(club_settings, abandon_grace=GRACE, arrival_grace=ARRIVAL)
    with RunningClub(settings) as running:
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
    # PL-7 / issue 5 (and issue 17: one game at a time): while in a live game, no new request.
    refused = leaving_player.post("/api/requests", {"variant": "backgammon", "stake": 1})
    assert refused.status_code == 409 and refused.json()["error"] == "playing"
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
    # 8 s, not 1: a flag that falls before both players have opened the game aborts it
    # (the tests below), and on a loaded machine the two sockets may take seconds to open
    # (at a tenth of a core, one took more than one); the clock runs from the game's start
    ann, bob = pair
    _, a, _ = open_game(ann, bob, variant="draughts", stake=300, clock="fischer 8s + 0s")
    a.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None, timeout=30)
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


# --- a player who never arrives (issue 16, item 4) ------------------------------------


def play_until_the_other_acts(sock: GameSocket) -> None:
    """The socket's player plays his turn (if it is his) until the game waits for the other."""
    while sock.to_act_seat == sock.seat:
        if not sock.my_turn:
            sock.until(lambda f: f["t"] == "legal" and f["v"] == sock.v)
        menu = [m for m in sock.legal or [] if m["type"] not in ("resign", "double", "undo")]
        assert sock.act(menu[0])["t"] == "state"


def until_aborted(sock: GameSocket) -> dict:
    """The abort, heard live or (when it came first) in the socket's snapshot."""

    def told(f: dict) -> bool:
        return f["t"] == "aborted" or (f["t"] == "snapshot" and f["d"].get("aborted") is not None)

    frame = sock.until(told, timeout=ARRIVAL + 15)
    return dict(frame["d"] if frame["t"] == "aborted" else frame["d"]["aborted"])


def test_a_game_whose_owner_never_arrives_is_aborted_and_every_stake_returned(pair, quick_club):
    """The ambush of an absent owner: Bob accepts the request Ann left open and waits for
    PL-7 to forfeit her at backgammon level (3 × stake). She never opened the game, so it is
    aborted instead: both escrows go back, nobody is rated, she has no offence and no loss,
    and "now playing" drops the game."""
    ann, bob = pair
    with lobby(quick_club.base) as watcher:
        next_of(watcher, "lobby")
        offer = ann.offer(variant="backgammon", stake=100, cube=True)
        game_id = bob.accept(offer["id"])["id"]
        b = bob.watch(game_id)
        absent = b.until(lambda f: f["t"] == "snapshot")["d"]["presence"][0]
        assert absent["deadline"] - absent["since"] == pytest.approx(ARRIVAL)  # not GRACE
        assert ann.balance() == bob.balance() == START - 300  # both escrows held
        play_until_the_other_acts(b)  # Bob's opening, if he has it: now Ann's turn
        assert until_aborted(b) == {"absent": [0]}
        finished = next_of(watcher, "game_finished")
        assert finished["id"] == game_id and finished["status"] == "aborted"
    assert ann.balance() == bob.balance() == START
    assert ann.get("/healthz").json()["ledger_total"] == 0
    moves = [row for row in ann.get("/api/me/ledger").json() if row["game"] == game_id]
    assert [(m["reason"], m["amount"]) for m in moves] == [("refund", 300), ("escrow", -300)]
    assert ann.get("/api/games/live").json() == []
    late = ann.watch(game_id).until(lambda f: f["t"] == "snapshot")["d"]
    assert late["status"] == "aborted" and late["aborted"] == {"absent": [0]}
    assert late["to_act"] is None and late["legal"] is None
    analysis = ann.get(f"/api/games/{game_id}/analysis")  # not "still being played"
    assert analysis.status_code == 409 and analysis.json()["error"] == "game_aborted"
    for name in ("ann", "bob"):
        profile = ann.get(f"/api/users/{name}").json()
        assert (profile["played"], profile["won"], profile["lost"]) == (0, 0, 0)
        assert profile["recent"][0]["status"] == "aborted"
        assert profile["recent"][0]["rating_change"] is None
    assert ann.get("/api/users/ann").json()["playban"]["offences"] == 0
    assert ann.post("/api/requests", {"variant": "backgammon", "stake": 1}).is_success


def test_a_player_slower_to_arrive_than_the_grace_still_plays(pair):
    """The arrival has its own grace: Ann opens the game after the abandonment grace has
    run out (by the server's clock) but within the arrival's, and plays it."""
    ann, bob = pair
    offer = ann.offer(variant="draughts", stake=10)  # Ann is White: the game waits for her
    game_id = bob.accept(offer["id"])["id"]
    b = bob.watch(game_id)
    b.until(lambda f: f["t"] == "snapshot")

    def waited() -> float:
        away = bob.get(f"/api/games/{game_id}").json()["presence"][0]
        return float(away["now"] - away["since"])

    while waited() <= (GRACE + ARRIVAL) / 2:  # the grace's timer has long run by then
        b.round_trip()  # the server's own time decides, not a sleep here
    a = ann.watch(game_id)
    snapshot = a.until(lambda f: f["t"] == "snapshot")["d"]
    assert snapshot["status"] == "live" and snapshot["aborted"] is None
    move = next(m for m in a.legal or [] if m["type"] == "move")
    assert a.act(move)["t"] == "state" and a.state["result"] is None
    b.until(lambda f: f["t"] == "presence" and f["d"]["seat"] == 0 and f["d"]["online"])


def test_a_flag_that_falls_before_its_player_ever_arrived_aborts_the_game(pair):
    """The same ambush with a clock: Ann's flag falls while she has never opened the game."""
    ann, bob = pair
    offer = ann.offer(variant="draughts", stake=300, clock="fischer 1s + 0s")
    game_id = bob.accept(offer["id"])["id"]
    b = bob.watch(game_id)
    assert until_aborted(b) == {"absent": [0]}
    assert (ann.balance(), bob.balance()) == (START, START)
    assert ann.get("/api/users/ann").json()["playban"]["offences"] == 0


def test_the_abort_names_the_player_whose_flag_fell_not_the_one_still_on_his_way(pair, quick_club):
    """Neither has opened the game when Ann's one-second flag falls (Bob, who accepted,
    is on his way, as on a slow connection): the game is aborted for Ann's absence
    alone. A spectator, who never counts as a player arriving, sees it."""
    ann, bob = pair
    offer = ann.offer(variant="draughts", stake=300, clock="fischer 1s + 0s")
    game_id = bob.accept(offer["id"])["id"]
    cleo = Player(quick_club.base, "cleo").register()
    try:
        assert until_aborted(cleo.watch(game_id)) == {"absent": [0]}
        assert bob.get(f"/api/games/{game_id}").json()["presence"][1]["online"] is False
    finally:
        cleo.close()
    assert (ann.balance(), bob.balance()) == (START, START)


def test_a_rematch_its_asker_never_opens_is_aborted(pair):
    """Ann asks for a rematch and leaves; Bob's ask starts the game she never sees."""
    ann, bob = pair
    game_id, a, _ = open_game(ann, bob, variant="draughts", stake=10)
    assert a.act({"type": "resign"})["t"] == "state"  # Ann (White) resigns: Bob wins
    assert ann.post(f"/api/games/{game_id}/rematch").status_code == 201
    a.close()
    started = bob.post(f"/api/games/{game_id}/rematch")
    assert started.status_code == 201, started.text
    rematch = bob.watch(started.json()["game"]["id"])
    rematch.until(lambda f: f["t"] == "snapshot")
    play_until_the_other_acts(rematch)  # colours changed over: Bob is White, then Ann's turn
    assert until_aborted(rematch) == {"absent": [1]}  # Black now: seat 1
    assert (ann.balance(), bob.balance()) == (START - 10, START + 10)
    refused = bob.post(f"/api/games/{started.json()['game']['id']}/rematch")
    assert refused.status_code == 409 and refused.json()["error"] == "game_aborted"
