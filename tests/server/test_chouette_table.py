"""A chouette session at the club over real HTTP and WebSockets (issue 18), on SQLite and
PostgreSQL: a table is posted, people take seats, games are played with the crew's
cubes, and the money follows CH-5 … CH-10 through the ledger.

- A session of three games: the owner starts with three seated; a banker's double
  gets one take and one drop (CH-5); a fourth person sits down between games and
  goes to the end of the rotation; a crew double from the captain and a bettor, the
  banker taking one and dropping the other (CH-7); a banker's double that the
  captain drops and a bettor takes, so the captain is replaced (CH-6); CH-9's
  rotation after every game.
- After every game each person's wallet plus what he holds equals his start plus
  his session result × S (CH-8), the results sum to zero, and nothing is lost.
- Bad input, nothing changed: a full table, joining twice, joining without the
  escrow, a bettor answering another member's cube, the banker answering twice,
  a stale version, a seat taken while a game runs, a spectator acting.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from club_client import GameSocket, Player, RunningClub, ServerProcess

from sheshbesh.play.ratings import FibsRating, fibs_money_game
from sheshbesh.server.bots import host as bot_host
from sheshbesh.server.bots import roster as club_bots
from sheshbesh.server.bots.roster import BotSpec
from sheshbesh.server.settings import Settings

S = 100
START = 100_000


@pytest.fixture
def club(club_settings: Settings) -> Iterator[RunningClub]:
    """A club whose tables wait for their owner between games (no break ends a test)."""
    with RunningClub(dataclasses.replace(club_settings, chouette_break=3600.0)) as running:
        yield running


@pytest.fixture
def people(club: RunningClub) -> Iterator[Callable[[str], Player]]:
    made: list[Player] = []

    def make(name: str) -> Player:
        player = Player(club.base, name)
        made.append(player)
        return player.register()

    yield make
    for player in made:
        player.close()


class Table:
    """The sockets of everyone at one table, read together."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.sockets: dict[str, GameSocket] = {}

    def sit(self, player: Player) -> GameSocket:
        sock = player.watch(self.game_id)
        sock.until(lambda f: f["t"] == "snapshot")
        self.sockets[player.name] = sock
        return sock

    @property
    def v(self) -> int:
        return max(sock.v for sock in self.sockets.values())

    def settle(self) -> None:
        """Read until every socket has the latest state (and any menu sent with it)."""
        for sock in self.sockets.values():
            sock.round_trip()
        top = self.v
        for sock in self.sockets.values():
            sock.settle(top)
            sock.round_trip()

    @property
    def state(self) -> dict[str, Any]:
        return next(iter(self.sockets.values())).state

    @property
    def game(self) -> dict[str, Any]:
        return dict(self.state["game"])

    def menu(self, name: str) -> list[dict[str, Any]]:
        sock = self.sockets[name]
        return list(sock.legal or []) if sock.legal_v == sock.v else []

    def seat(self, name: str) -> int:
        seat = self.sockets[name].seat
        assert seat is not None
        return seat

    def name_of(self, seat: int) -> str:
        return next(name for name, sock in self.sockets.items() if sock.seat == seat)

    def act(self, name: str, action: dict[str, Any]) -> dict[str, Any]:
        sock = self.sockets[name]
        frame = sock.act(action)
        self.settle()
        return frame

    def board_turn(self, rng: random.Random) -> str | None:
        """Play one board step for whoever moves (never a double); who moved (None: no one)."""
        for name in self.sockets:
            menu = [a for a in self.menu(name) if a["type"] in ("roll", "move", "confirm")]
            if not menu:
                continue
            confirm = [a for a in menu if a["type"] == "confirm"]
            choice = confirm[0] if confirm else rng.choice(menu)
            assert self.act(name, choice)["t"] == "state"
            return name
        return None

    def play_to_window(self, rng: random.Random, whose: str) -> None:
        """Play the board until the banker's (``"banker"``) or the crew's window is open."""
        for _ in range(2000):
            game = self.game
            if game["phase"] == "finished":
                raise AssertionError("the game ended before the window")
            mover = game["banker"] if whose == "banker" else game["captain"]
            turn = game["board"]["turn"]
            ours = game["window_open"] and turn == ("W" if whose == "banker" else "B")
            if ours and any(a["type"] == "double" for a in self.menu(self.name_of(mover))):
                return
            assert self.board_turn(rng) is not None, "nobody can move"
        raise AssertionError("no window")

    def play_out(self, rng: random.Random) -> None:
        for _ in range(5000):
            if self.game["phase"] == "finished":
                return
            assert self.board_turn(rng) is not None, f"nobody can move: {self.game}"
        raise AssertionError("the game did not end")


def post_table(owner: Player, seats: int = 5) -> dict[str, Any]:
    return owner.offer(variant="backgammon", stake=S, seats=seats)


def join(player: Player, request_id: str) -> Any:
    return player.post(f"/api/requests/{request_id}/join")


def wallets(players: list[Player]) -> dict[str, int]:
    return {p.name: p.balance() for p in players}


def check_money(table: Table, players: list[Player]) -> None:
    """CH-8, CH-10: wallet + hold = start + session result × S for everyone; results sum
    to zero (the ledger lost and made nothing)."""
    state = table.state
    results = {int(seat): won for seat, won in state["results"].items()}
    assert sum(results.values()) == 0
    held = {p["id"]: p["held"] for p in state["players"]}
    for player in players:
        seat = next((p["seat"] for p in state["players"] if p["id"] == player.user["id"]), None)
        if seat is None:
            continue
        assert player.balance() + held[player.user["id"]] == START + results[seat] * S, (
            player.name, results, held)  # fmt: skip


def table_on_profile(player: Player, game_id: str) -> dict[str, Any]:
    """The chouette table's entry among the player's recent games (as a stranger sees it)."""
    recent = httpx.get(f"{player.base}/api/users/{player.name}", timeout=10).json()["recent"]
    entries = [game for game in recent if game["id"] == game_id]
    assert len(entries) == 1, recent
    assert entries[0]["kind"] == "chouette" and entries[0]["opponent"] is None
    return dict(entries[0])


def bets_rated(record: dict[str, Any], users: dict[int, int]) -> dict[int, tuple[Any, int]]:
    """Each player's FIBS rating after the record's settled bets, rated one after another
    as money games between banker and member (an event's ``paid`` pairs the member's share
    with the banker's), and how many bets he was in; everyone starts at 1500."""
    ratings = {uid: FibsRating.initial() for uid in users.values()}
    bets = dict.fromkeys(users.values(), 0)
    for event in record["events"]:
        paid = event.get("paid") or []
        for (member, amount), (banker, _) in zip(paid[::2], paid[1::2], strict=True):
            winner, loser = (users[banker], users[member])
            if amount > 0:
                winner, loser = loser, winner
            ratings[winner], ratings[loser] = fibs_money_game(ratings[winner], ratings[loser])
            bets[winner] += 1
            bets[loser] += 1
    return {uid: (ratings[uid], bets[uid]) for uid in users.values()}


def check_rotation(table: Table) -> None:
    """CH-9: a crew that won makes its captain the next banker and the banker goes last;
    a banker who won banks again and the captain goes last."""
    game, following = table.game, table.state["next"]
    if game["winner"] == "crew":
        assert following["banker"] == game["captain"]
        assert following["rotation"][-1] == game["banker"]
    else:
        assert following["banker"] == game["banker"]
        assert following["rotation"][-1] == game["captain"]


def test_a_session_of_three_games(
    people: Callable[[str], Player], club: RunningClub, tmp_path: Path
) -> None:
    rng = random.Random(18)
    ann, bob, cat, dan, eve = (people(n) for n in ("ann", "bob", "cat", "dan", "eve"))
    request = post_table(ann)
    assert request["seats"] == 5 and request["game"]
    game_id = request["game"]
    for player in (bob, cat):
        assert join(player, request["id"]).status_code == 201
    table = Table(game_id)
    for player in (ann, bob, cat):
        table.sit(player)
    watcher = GameSocket(None, game_id, base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")

    # Only the owner starts; then the order roll (CH-2) decides who banks.
    assert bob.post(f"/api/requests/{request['id']}/start").status_code == 403
    assert ann.post(f"/api/requests/{request['id']}/start").status_code == 200
    table.settle()
    game = table.game
    assert table.state["number"] == 1
    assert any(e["type"] == "order_rolled" for e in table.sockets["ann"].events)
    assert sorted([game["banker"], *game["rotation"]]) == [0, 1, 2]

    # Game 1: the banker doubles both cubes; the captain takes, the bettor drops (CH-5).
    table.play_to_window(rng, "banker")
    banker = table.name_of(table.game["banker"])
    captain, bettor = (table.name_of(s) for s in table.game["rotation"])
    doubles = [a for a in table.menu(banker) if a["type"] == "double"]
    assert [sorted(a["cubes"]) for a in doubles] == [sorted(table.game["rotation"])]
    table.act(banker, {"type": "double", "cubes": table.game["rotation"]})
    assert table.game["phase"] == "crew_answers"
    # The spectator has not seen the double yet (PL-3).
    watcher.round_trip()
    assert watcher.state["game"]["phase"] == "board"
    # A bettor cannot answer another member's cube; the banker cannot answer at all.
    wrong = table.sockets[bettor].act({"type": "take", "cube": table.seat(captain)})
    assert wrong["t"] == "error"
    assert table.sockets[banker].act({"type": "take", "cube": table.seat(bettor)})["t"] == "error"
    table.act(bettor, {"type": "drop"})
    table.act(captain, {"type": "take"})
    crew = {c["seat"]: c for c in table.game["crew"]}
    assert crew[table.seat(bettor)]["out"] and crew[table.seat(captain)]["cube"] == 2
    assert table.state["results"][str(table.seat(bettor))] == -1
    watcher.round_trip()
    assert watcher.state["game"]["phase"] == "board"  # answered: now the spectator sees it
    assert [c["cube"] for c in watcher.state["game"]["crew"] if c["seat"] == table.seat(captain)]\
        == [2]  # fmt: skip
    table.play_out(rng)
    check_money(table, [ann, bob, cat])
    check_rotation(table)

    # Between games a fourth person sits down and goes to the end of the rotation.
    assert join(dan, request["id"]).status_code == 201
    table.sit(dan)
    table.settle()
    assert table.state["next"]["rotation"][-1] == table.seat("dan")
    assert join(dan, request["id"]).json()["error"] == "already_seated"
    assert ann.post(f"/api/requests/{request['id']}/start").status_code == 200
    table.settle()
    assert table.state["number"] == 2
    # Nobody sits down or leaves while a game runs.
    assert join(eve, request["id"]).json()["error"] == "game_running"
    assert dan.post(f"/api/requests/{request['id']}/leave").json()["error"] == "game_running"

    # Game 2: a bettor calls a double and the captain doubles too (CH-7); the banker
    # takes the captain's cube and drops the bettor's.
    table.play_to_window(rng, "crew")
    captain = table.name_of(table.game["captain"])
    bettor = table.name_of(table.game["rotation"][1])
    banker = table.name_of(table.game["banker"])
    table.act(bettor, {"type": "double"})
    assert table.game["phase"] == "board" and table.seat(bettor) in [
        c["seat"] for c in table.game["crew"] if c["called"]]  # fmt: skip
    table.act(captain, {"type": "double"})
    assert table.game["phase"] == "banker_answers"
    table.act(banker, {"type": "take", "cube": table.seat(captain)})
    again = table.sockets[banker].act({"type": "take", "cube": table.seat(captain)})
    assert again["t"] == "error"  # the banker answered that cube already
    table.act(banker, {"type": "drop", "cube": table.seat(bettor)})
    crew = {c["seat"]: c for c in table.game["crew"]}
    assert crew[table.seat(bettor)]["out"] and crew[table.seat(captain)]["cube"] == 2
    assert crew[table.seat(captain)]["owner"] == "banker"
    table.play_out(rng)
    check_money(table, [ann, bob, cat, dan])
    check_rotation(table)

    # Game 3: the banker doubles everyone; the captain drops and the next taker captains.
    assert ann.post(f"/api/requests/{request['id']}/start").status_code == 200
    table.settle()
    table.play_to_window(rng, "banker")
    game = table.game
    banker = table.name_of(game["banker"])
    captain = table.name_of(game["captain"])
    others = [table.name_of(s) for s in game["rotation"][1:]]
    table.act(banker, {"type": "double", "cubes": game["rotation"]})
    table.act(captain, {"type": "drop"})
    table.act(others[0], {"type": "drop"})
    table.act(others[1], {"type": "take"})
    game = table.game
    assert game["captain"] == table.seat(others[1])  # CH-6: the first taker captains
    assert game["rotation"][-1] == table.seat(captain)
    table.play_out(rng)
    check_money(table, [ann, bob, cat, dan])
    check_rotation(table)

    # The table is on every seated player's profile while it plays, his result not yet.
    entry = table_on_profile(bob, game_id)
    assert entry["status"] == "live" and entry["result"] is None and entry["players"] == 4
    assert bob.get(f"/api/users/{bob.name}").json()["playing"] == 1

    # A player leaves between games and gets his hold back; the owner closes the table.
    held_before = dan.balance()
    assert dan.post(f"/api/requests/{request['id']}/leave").status_code == 200
    assert dan.balance() == held_before + 3 * S
    assert dan.get(f"/api/users/{dan.name}").json()["playing"] == 0  # he left the table
    assert ann.post(f"/api/requests/{request['id']}/close").status_code == 200
    table.settle()
    assert table.state["closed"] == "closed"
    results = table.state["results"]
    final = wallets([ann, bob, cat, dan])
    assert sum(final.values()) == 4 * START  # nothing lost, nothing made
    for player in (ann, bob, cat, dan):
        seat = next(p["seat"] for p in table.state["players"] if p["id"] == player.user["id"])
        assert final[player.name] == START + results[str(seat)] * S
    # The session's record replays through the rules and its dice verify (PL-2).
    served = ann.get(f"/api/games/{game_id}/record")
    # Each settled bet was rated as a money game between banker and member, in order.
    expected = bets_rated(served.json(), {p["seat"]: p["id"] for p in table.state["players"]})
    for player in (ann, bob, cat, dan):
        seat = next(p["seat"] for p in table.state["players"] if p["id"] == player.user["id"])
        # His profile lists the table with what he won or lost there and its rating change.
        entry = table_on_profile(player, game_id)
        assert entry["status"] == "finished" and entry["players"] == 4 and entry["rated"]
        assert entry["result"] == {"points": results[str(seat)]}
        rating, bets = expected[player.user["id"]]
        assert entry["rating_change"] == round(rating.rating - 1500.0, 2)
        assert entry["stake"] == S
        profile = player.get(f"/api/users/{player.name}").json()
        assert profile["playing"] == 0 and profile["played"] == 0  # two-player games only
        assert profile["ratings"]["backgammon"]["rating"] == round(rating.rating, 2)
        assert profile["ratings"]["backgammon"]["games"] == bets > 0
        # He is told the table's end and his result there, even away from the room.
        notes = player.get("/api/notifications").json()["notes"]
        told = [n["data"] for n in notes if n["kind"] == "table_result"]
        assert len(told) == 1 and told[0]["game_id"] == game_id
        assert told[0]["points"] == results[str(seat)]
        assert told[0]["fun"] == results[str(seat)] * S
        assert told[0]["rating"]["after"] == round(rating.rating, 2)
        # The room shows each seat's rating and what the table did to it.
        shown = next(p["rating"] for p in table.state["players"] if p["seat"] == seat)
        assert shown["rating"] == round(rating.rating, 2)
        assert shown["change"]["delta"] == entry["rating_change"]
    path = tmp_path / "table.json"
    path.write_text(served.text)
    verified = subprocess.run([sys.executable, "-m", "sheshbesh.cli", "verify-dice", str(path)],
                              capture_output=True, text=True, check=False)  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr
    watcher.close()


def test_seats_refuse_what_the_table_cannot_take(
    people: Callable[[str], Player], club: RunningClub
) -> None:
    ann, bob, cat, eve, poor = (people(n) for n in ("ann", "bob", "cat", "eve", "poor"))
    request = ann.offer(variant="backgammon", stake=S, seats=3)
    rid = request["id"]
    assert join(ann, rid).json()["error"] == "already_seated"
    assert join(bob, rid).status_code == 201
    # Options chouette does not have are refused (CH-3), as is a seat count out of CH-1.
    bad = ann.post(
        "/api/requests", {"variant": "backgammon", "stake": S, "seats": 3, "jacoby": True}
    )
    assert bad.status_code == 422
    nine = ann.post("/api/requests", {"variant": "backgammon", "stake": S, "seats": 9})
    assert nine.status_code == 422
    # Without the escrow (CH-10): poor has spent in the shop what a seat must hold.
    items = sorted(poor.get("/api/shop").json()["items"], key=lambda item: -item["price"])
    assert poor.post(f"/api/shop/{items[0]['id']}/buy").status_code in (200, 201)
    stake = poor.balance() // 3 + 1
    other = eve.offer(variant="backgammon", stake=stake, seats=3)
    before = poor.balance()
    assert join(poor, other["id"]).json()["error"] == "insufficient_funds"
    assert poor.balance() == before
    # The table fills with cat and starts; a fourth person is refused: it is full.
    table = Table(request["game"])
    for player in (ann, bob):
        table.sit(player)
    assert join(cat, rid).status_code == 201
    table.sit(cat)
    table.settle()
    assert table.state["number"] == 1 and table.state["playing"]
    assert join(eve, rid).json()["error"] == "playing"  # eve sits at her own table
    assert join(people("fay"), rid).json()["error"] == "table_full"
    # A stale version and an action out of turn are refused, and nothing changes.
    v = table.v
    waiting = table.game["waiting_for"]
    idle = next(name for name in ("ann", "bob", "cat") if table.seat(name) not in waiting)
    assert table.sockets[idle].act({"type": "roll"})["t"] == "error"
    mover = table.name_of(waiting[0])
    stale = table.sockets[mover].act({"type": "roll"}, v=v - 1)
    assert stale["t"] == "error" and stale["d"]["error"] == "stale"
    # A spectator cannot act.
    watcher = GameSocket(None, request["game"], base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")
    assert watcher.act({"type": "roll"}, v=v)["d"]["error"] == "not_a_player"
    table.settle()
    assert table.v == v
    watcher.close()


def seated_table(base_people: list[Player], **options: Any) -> tuple[Table, str]:
    """A table posted by the first person with a seat to spare, everyone seated and
    watching, and its first game started by the owner; the table and its request id."""
    owner, *others = base_people
    request = owner.offer(variant="backgammon", stake=S, seats=len(base_people) + 1, **options)
    table = Table(request["game"])
    table.sit(owner)  # at once: a table whose owner stays away closes (a short grace here)
    for player in others:
        assert join(player, request["id"]).status_code == 201
        table.sit(player)
    assert owner.post(f"/api/requests/{request['id']}/start").status_code == 200
    table.settle()
    return table, request["id"]


def test_absent_seats_time_out_as_pl7_says(club_settings: Settings) -> None:
    """PL-7 at a table: a bettor away past the grace while he owes an answer drops his
    cube; a banker away on his own turn forfeits to every member still in."""
    settings = dataclasses.replace(club_settings, chouette_break=3600.0, abandon_grace=1.0)
    with RunningClub(settings) as club:
        players = [Player(club.base, name).register() for name in ("ann", "bob", "cat")]
        try:
            table, _ = seated_table(players)
            rng = random.Random(7)
            table.play_to_window(rng, "banker")
            game = table.game
            banker = table.name_of(game["banker"])
            captain, bettor = (table.name_of(s) for s in game["rotation"])
            table.act(banker, {"type": "double", "cubes": game["rotation"]})
            table.act(captain, {"type": "take"})
            table.sockets.pop(bettor).close()  # he leaves with the double unanswered
            sock = table.sockets[banker]
            sock.until(lambda f: f["t"] == "event" and f["d"]["type"] == "cube_dropped", 30)
            table.settle()
            crew = {c["seat"]: c for c in table.game["crew"]}
            assert crew[game["rotation"][1]]["out"]
            assert any(e["type"] == "timeout" for e in sock.events)
            assert table.state["results"][str(game["rotation"][1])] == -1  # the cube before
            # The banker leaves on his own turn: he forfeits to the captain (PL-7).
            while not (table.game["board"]["turn"] == "W" and table.menu(banker)):
                assert table.game["phase"] != "finished"
                assert table.board_turn(rng) is not None
            table.sockets.pop(banker).close()
            watch = table.sockets[captain]
            watch.until(lambda f: f["t"] == "event" and f["d"]["type"] == "finished", 30)
            table.settle()
            assert table.game["winner"] == "crew" and table.game["reason"] == "PL-7"
            check_money(table, players)
        finally:
            for player in players:
                player.close()


def test_sigkill_with_cubes_pending_resumes_where_it_was(club_settings: Settings) -> None:
    server = ServerProcess(club_settings.database_url, SHESHBESH_ABANDON_GRACE="600",
                           SHESHBESH_CHOUETTE_BREAK="3600").start()  # fmt: skip
    players = [Player(server.base, name).register() for name in ("ann", "bob", "cat", "dan")]
    try:
        table, rid = seated_table(players)
        rng = random.Random(11)
        table.play_to_window(rng, "banker")
        game = table.game
        banker = table.name_of(game["banker"])
        members = [table.name_of(s) for s in game["rotation"]]
        table.act(banker, {"type": "double", "cubes": game["rotation"]})
        table.act(members[0], {"type": "take"})  # two answers still pending
        before, state_before = table.v, table.state
        server.kill()  # SIGKILL: no shutdown, no flush
        server.start()
        resumed = Table(table.game_id)
        for player in players:
            sock = GameSocket(player, table.game_id, since=before)
            sock.until(lambda f: f["t"] == "state")
            resumed.sockets[player.name] = sock
        resumed.settle()
        assert resumed.v == before
        assert resumed.state["game"] == state_before["game"]
        assert resumed.game["phase"] == "crew_answers"
        assert sorted(resumed.game["waiting_for"]) == sorted(
            table.seat(name) for name in members[1:])  # fmt: skip
        # The pending answers are still owed, each on his own menu, from the double's version.
        resumed.act(members[2], {"type": "drop"})
        resumed.act(members[1], {"type": "take"})
        resumed.play_out(rng)
        check_money(resumed, players)
        assert players[0].get("/healthz").json()["ledger_total"] == 0
        assert players[0].post(f"/api/requests/{rid}/close").status_code == 200
        assert sum(p.balance() for p in players) == 4 * START
    finally:
        for player in players:
            player.close()
        server.stop()


def chat_lines(sock: GameSocket, room: str) -> list[dict[str, Any]]:
    lines = [f["d"] for f in sock.frames if f["t"] == "chat" and f["d"]["room"] == room]
    for f in sock.frames:
        if f["t"] == "chat_history" and f["d"]["room"] == room:
            lines += f["d"]["lines"]
    return lines


def test_the_crew_talks_where_the_banker_and_spectators_cannot_read(
    people: Callable[[str], Player], club: RunningClub
) -> None:
    """CH-4, PL-3: the crew's room is read and written by this game's crew only; a
    proposed play must be one the captain may make with his dice."""
    players = [people(name) for name in ("ann", "bob", "cat")]
    table, _ = seated_table(players)
    watcher = GameSocket(None, table.game_id, base=club.base)
    watcher.until(lambda f: f["t"] == "snapshot")
    rng = random.Random(4)
    table.play_to_window(rng, "crew")
    game = table.game
    banker = table.name_of(game["banker"])
    captain, bettor = (table.name_of(s) for s in game["rotation"])
    table.sockets[bettor].send({"t": "chat", "room": "crew", "text": "double, partner"})
    table.sockets[captain].until(lambda f: f["t"] == "chat" and f["d"]["room"] == "crew")
    # The banker may not write there, nor propose a play in the table's room.
    table.sockets[banker].send({"t": "chat", "room": "crew", "text": "I hear you"})
    refused = table.sockets[banker].until(lambda f: f["t"] == "error")
    assert refused["d"]["error"] == "chat_forbidden"
    # The captain rolls; a play his dice do not allow is refused, a legal one is shown.
    table.act(captain, {"type": "roll"})
    while not any(a["type"] == "move" for a in table.menu(captain)):
        assert table.board_turn(rng) is not None  # a pass: play on to the crew's next roll
        if table.game["board"]["turn"] == "B" and table.menu(captain) == [{"type": "roll"}]:
            table.act(captain, {"type": "roll"})
    table.sockets[bettor].send({"t": "chat", "room": "crew", "text": "this", "play": "24/1"})
    wrong = table.sockets[bettor].until(lambda f: f["t"] == "error")
    assert wrong["d"]["error"] == "illegal_move"
    # The captain tries a whole play, takes it back; the bettor proposes that play.
    while not any(a["type"] == "confirm" for a in table.menu(captain)):
        table.act(captain, rng.choice([a for a in table.menu(captain) if a["type"] == "move"]))
    steps = table.game["board"]["steps"]
    for _ in steps:
        table.act(captain, {"type": "undo"})
    play = " ".join(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}" for a, b, _ in steps)
    table.sockets[bettor].send({"t": "chat", "room": "crew", "text": "try this", "play": play})
    heard = table.sockets[captain].until(lambda f: f["t"] == "chat" and f["d"].get("play"))
    assert heard["d"]["play"] == play and heard["d"]["game"] == 1
    for sock in (table.sockets[banker], watcher):
        sock.round_trip()
        assert chat_lines(sock, "crew") == []
    assert [line["text"] for line in chat_lines(table.sockets[captain], "crew")][:1] == [
        "double, partner"]  # fmt: skip
    # The crew's room cannot be read or written over HTTP.
    assert players[0].get(f"/api/chat/game:{table.game_id}:crew:1/history").status_code == 403
    watcher.close()


def play_beside_bots(table: Table, name: str, rng: random.Random, seconds: float,
                     why: str) -> None:  # fmt: skip
    """Play ``name``'s part (no doubles; a confirm or a take when offered, else a random
    action) until the game is finished, the bots playing theirs; fail with ``why`` after
    ``seconds``. Then the table is settled."""
    deadline = time.monotonic() + seconds
    sock = table.sockets[name]
    while not table.state.get("game") or table.game["phase"] != "finished":
        assert time.monotonic() < deadline, why
        menu = [a for a in table.menu(name) if a["type"] != "double"]
        if menu:
            confirm = [a for a in menu if a["type"] in ("confirm", "take")]
            table.act(name, confirm[0] if confirm else rng.choice(menu))
        else:
            with contextlib.suppress(TimeoutError):
                sock.recv(timeout=0.5)
    table.settle()


def test_bots_fill_seats_and_play_a_game_to_its_end(club_settings: Settings) -> None:
    """The owner asks two club bots to sit down; they play banker, captain or bettor as
    the order roll makes them, answer doubles on their own, and the money adds up."""
    settings = dataclasses.replace(club_settings, chouette_break=3600.0, bot_delay=0.0)
    with RunningClub(settings) as club:
        ann, bob = Player(club.base, "ann").register(), Player(club.base, "bob").register()
        try:
            request = ann.offer(variant="backgammon", stake=S, seats=4)
            rid = request["id"]
            assert bob.post(f"/api/requests/{rid}/bot").json()["error"] == "not_owner"
            bots = [ann.post(f"/api/requests/{rid}/bot").json() for _ in range(2)]
            assert [b["seat"] for b in bots] == [1, 2] and bots[0]["bot"] != bots[1]["bot"]
            table = Table(request["game"])
            table.sit(ann)
            assert ann.post(f"/api/requests/{rid}/start").status_code == 200
            play_beside_bots(
                table, "ann", random.Random(3), 600, "the bots did not play the game out"
            )
            results = table.state["results"]
            assert sum(results.values()) == 0
            paid = {int(k): v for k, v in table.game["paid"].items()}
            assert paid == {int(k): v for k, v in results.items() if int(k) in paid}
            assert ann.balance() + table.state["players"][0]["held"] == START + results["0"] * S
            assert ann.get("/healthz").json()["ledger_total"] == 0
            # Rated: a bot's rating moves in its bets against Ann, never a person's against
            # a bot, and nobody's in a bet between two bots.
            record = ann.get(f"/api/games/{table.game_id}/record").json()
            users = {p["seat"]: p["id"] for p in table.state["players"]}
            against_ann = {uid: 0 for uid in users.values()}
            for event in record["events"]:
                paid = event.get("paid") or []
                for (member, _), (banker, _) in zip(paid[::2], paid[1::2], strict=True):
                    if 0 in (member, banker):
                        against_ann[users[banker if member == 0 else member]] += 1
            assert ann.get("/api/users/ann").json()["ratings"] == {}
            for bot in table.state["players"][1:]:
                ratings = ann.get(f"/api/users/{bot['username']}").json()["ratings"]
                games = against_ann[bot["id"]]
                assert (ratings["backgammon"]["games"] if ratings else 0) == games
        finally:
            ann.close()
            bob.close()


def test_bots_that_cannot_answer_leave_and_the_game_still_ends(
    club_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two seat bots whose engine cannot play chouette's board, at an untimed table: each
    asks again, then leaves, and PL-7 settles for it after the grace, so the game ends
    (it once waited for ever on the first bot to act) and the money adds up."""
    broken = tuple(BotSpec(f"Broken_{n}", "random:draughts", ("backgammon",), 500)
                   for n in (1, 2))  # fmt: skip
    monkeypatch.setattr(club_bots, "ROSTER", broken)
    monkeypatch.setattr(bot_host, "RETRY_WAITS", (0.05,))
    settings = dataclasses.replace(club_settings, chouette_break=3600.0, bot_delay=0.0,
                                   abandon_grace=1.0)  # fmt: skip
    with RunningClub(settings) as club:
        ann = Player(club.base, "ann").register()
        try:
            request = ann.offer(variant="backgammon", stake=S, seats=3)
            rid = request["id"]
            assert [ann.post(f"/api/requests/{rid}/bot").status_code for _ in range(2)] == [
                201, 201]  # fmt: skip
            table = Table(request["game"])
            table.sit(ann)
            started = ann.post(f"/api/requests/{rid}/start")  # a full table starts itself
            assert started.status_code == 200 or started.json()["error"] == "game_running"
            play_beside_bots(table, "ann", random.Random(5), 120,
                             "the game waited on a bot that cannot play")  # fmt: skip
            assert sum(table.state["results"].values()) == 0
            assert ann.get("/healthz").json()["ledger_total"] == 0
        finally:
            ann.close()


def test_a_captain_away_on_his_turn_drops_his_cube_and_is_replaced(
    club_settings: Settings,
) -> None:
    """PL-7: a captain who stays away on his turn pays his cube's value now (not a level
    multiple) and the next member still in takes the turn over (CH-7). The table is
    unrated: the bet his drop settles changes nobody's rating."""
    settings = dataclasses.replace(club_settings, chouette_break=3600.0, abandon_grace=1.0)
    with RunningClub(settings) as club:
        players = [Player(club.base, name).register() for name in ("ann", "bob", "cat")]
        try:
            table, _ = seated_table(players, rated=False)
            rng = random.Random(5)
            table.play_to_window(rng, "crew")
            game = table.game
            captain_seat, bettor_seat = game["rotation"]
            captain = table.name_of(captain_seat)
            banker = table.name_of(game["banker"])
            table.sockets.pop(captain).close()
            table.sockets[banker].until(
                lambda f: f["t"] == "event" and f["d"]["type"] == "captain_replaced", 30
            )
            table.settle()
            game = table.game
            bettor = table.name_of(bettor_seat)
            assert game["captain"] == bettor_seat
            assert {c["seat"]: c["out"] for c in game["crew"]}[captain_seat]
            results = table.state["results"]
            assert results[str(captain_seat)] == -1  # his cube's value, 1 × S
            assert results[str(game["banker"])] == 1
            assert any(a["type"] in ("roll", "double") for a in table.menu(bettor))
            for player in players:
                profile = player.get(f"/api/users/{player.name}").json()
                assert profile["ratings"] == {}  # an unrated table
                entry = table_on_profile(player, table.game_id)
                assert entry["rated"] is False and entry["rating_change"] is None
        finally:
            for player in players:
                player.close()


def test_a_table_whose_owner_leaves_before_its_first_game_ends(club_settings: Settings) -> None:
    """No escrow is held for ever by a table nobody will start: the owner away past the
    grace before the first game closes it, every hold comes back, its lobby row goes."""
    settings = dataclasses.replace(club_settings, abandon_grace=1.0)
    with RunningClub(settings) as club:
        ann, bob = Player(club.base, "ann").register(), Player(club.base, "bob").register()
        try:
            request = ann.offer(variant="backgammon", stake=S, seats=3)
            assert join(bob, request["id"]).status_code == 201
            assert bob.balance() == START - 3 * S
            deadline = time.monotonic() + 60
            while ann.get("/api/requests").json():
                assert time.monotonic() < deadline, "the table was never closed"
                time.sleep(0.1)
            assert ann.balance() == bob.balance() == START
            page = ann.get(f"/api/games/{request['game']}").json()
            assert page["status"] == "finished" and page["state"]["closed"] == "closed"
            assert join(bob, request["id"]).json()["error"] == "cannot_join"
        finally:
            ann.close()
            bob.close()


def test_a_table_for_friends_seats_only_the_owners_friends(
    people: Callable[[str], Player],
) -> None:
    ann, bob, cat = (people(n) for n in ("ann", "bob", "cat"))
    sent = ann.post("/api/friends/requests", {"username": "bob"}).json()
    assert bob.post(f"/api/friends/requests/{sent['id']}/accept").status_code == 200
    request = ann.offer(variant="backgammon", stake=S, seats=3, friends_only=True)
    assert request["options"] == {"friends_only": True}
    refused = join(cat, request["id"])
    assert refused.status_code == 403 and refused.json()["error"] == "friends_only"
    assert cat.balance() == START  # nothing held
    assert join(bob, request["id"]).status_code == 201
    # The option is a table's: a two-player request is refused it.
    two = ann.post("/api/requests", {"variant": "backgammon", "stake": S, "friends_only": True})
    assert two.status_code == 422
