"""Bots play through the server like people (issue 7): accounts, policy, whole games, ledger.

A test roster of random movers keeps these fast; ``test_the_club_roster_loads``
checks that every engine of the real roster is there.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from club_client import GameSocket, Player, RunningClub, play_randomly
from gated_review import GATE, Gate, gated_analysis, refused_analysis

from sheshbesh.server.bots import host as host_module
from sheshbesh.server.bots import reviews
from sheshbesh.server.bots import roster as club_bots
from sheshbesh.server.bots.host import BotHost
from sheshbesh.server.bots.reviews import Reviewer
from sheshbesh.server.bots.roster import ROSTER, BotSpec
from sheshbesh.server.lobby.requests import RequestIn
from sheshbesh.server.settings import Settings

START = 100_000
TEST_ROSTER = (
    BotSpec("Randy_Race", "random:race", ("backgammon", "plakoto", "long_nardy"), 500),
    BotSpec("Randy_Draughts", "random:draughts", ("draughts",), 500),
    BotSpec("Rita_Race", "random:race", ("backgammon", "plakoto", "long_nardy"), 500),
    BotSpec("Broken", "random:race", ("draughts",), 500),
)
"""``Broken`` claims draughts but its engine plays race games only: it always refuses."""


class Clock:
    """The club's time, moved on by the test (the bots' delays are real seconds still)."""

    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def bot_club(
    club_settings: Settings, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> Iterator[RunningClub]:
    monkeypatch.setattr(club_bots, "ROSTER", TEST_ROSTER)
    settings = dataclasses.replace(club_settings, bot_delay=0.0, bot_patience=0.3,
                                   review_workers=1, review_queue=2)  # fmt: skip
    with RunningClub(settings, now=clock) as running:
        yield running


@pytest.fixture
def player(bot_club: RunningClub) -> Iterator[Callable[[str], Player]]:
    made: list[Player] = []

    def make(name: str) -> Player:
        made.append(Player(bot_club.base, name).register())
        return made[-1]

    yield make
    for one in made:
        one.close()


def wait_for(check: Callable[[], Any], timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise TimeoutError("the condition never held")


def game_of(owner: Player, request_id: str) -> str:
    """The game a request became (polled, as a bot accepts on its own time)."""

    def started() -> str | None:
        games = owner.get(f"/api/users/{owner.name}").json().get("recent", [])
        for game in games:
            return str(game["id"])
        return None

    return str(wait_for(started))


def test_the_bot_list_shows_each_bot_with_its_policy(bot_club, player):
    ann = player("ann")
    bots = ann.get("/api/bots").json()
    assert [b["username"] for b in bots] == ["Randy_Race", "Randy_Draughts", "Rita_Race", "Broken"]
    assert bots[1]["variants"] == ["draughts"] and bots[1]["max_stake"] == 500
    profile = ann.get("/api/users/Randy_Race").json()
    assert profile["is_bot"] is True


def test_a_bot_cannot_log_in(bot_club):
    guest = Player(bot_club.base, "Randy_Race")
    response = guest.post("/api/login", {"username": "Randy_Race", "password": "anything-at-all"})
    assert response.status_code == 401
    guest.close()


def test_a_private_challenge_to_a_bot_is_accepted_and_played_to_the_end(bot_club, player):
    ann = player("ann")
    offer = ann.offer(variant="draughts", stake=100, opponent="Randy_Draughts")
    assert offer["invitee"]["username"] == "Randy_Draughts"
    game_id = game_of(ann, offer["id"])
    sock = ann.watch(game_id)
    sock.until(lambda f: f["t"] == "snapshot")
    assert sock.seat == 0
    play_randomly([sock], random.Random(5))
    result = sock.state["result"]
    bot = ann.get("/api/users/Randy_Draughts").json()
    if result["winner"] is None:
        assert ann.balance() == START
    else:
        assert ann.balance() == START + (100 if result["winner"] == "W" else -100)
    assert ann.balance() + bot["balance"] == 2 * START
    assert ann.get("/healthz").json()["ledger_total"] == 0
    review = ann.get(f"/api/games/{game_id}/analysis?plies=0")
    assert review.status_code == 200, review.text  # issue 19: dame-rs reviews draughts
    analysis = review.json()
    assert analysis["variant"] == "draughts"
    assert [e["action"] for e in analysis["entries"]] == sock.state["moves"]
    for side in ("W", "B"):
        counted = [e for e in analysis["entries"] if e["side"] == side and not e["forced"]]
        assert analysis["players"][side]["decisions"] <= len(counted)
        assert analysis["players"][side]["rolls"] == 0


def test_a_race_bot_plays_plakoto_against_a_person(bot_club, player):
    bob = player("bob")
    offer = bob.offer(variant="plakoto", stake=10, opponent="Randy_Race")
    sock = bob.watch(game_of(bob, offer["id"]))
    sock.until(lambda f: f["t"] == "snapshot")
    play_randomly([sock], random.Random(8))
    assert sock.finished
    assert bob.get("/healthz").json()["ledger_total"] == 0


def test_a_public_request_that_allows_bots_is_taken_after_the_patience(bot_club, player):
    ann = player("ann")
    offer = ann.offer(variant="backgammon", stake=20, bots=True)
    assert game_of(ann, offer["id"])
    assert all(r["id"] != offer["id"] for r in ann.get("/api/requests").json())


def bots_have_had_their_chance(owner: Player) -> None:
    """Post a request a bot takes, and wait until one has: the bots' patience, and the
    decisions on every request posted before it, are over (a wait on what they do). A
    player of its own posts it: a game that starts withdraws its owner's other requests
    (one game at a time, issue 17)."""
    control = Player(owner.base, f"{owner.name}ctl").register()
    try:
        offer = control.offer(variant="backgammon", stake=1, bots=True)
        game_of(control, offer["id"])
    finally:
        control.close()


def test_a_request_without_bots_waits_for_a_person(bot_club, player):
    ann = player("ann")
    offer = ann.offer(variant="backgammon", stake=20)
    bots_have_had_their_chance(ann)
    assert [r["id"] for r in ann.get("/api/requests").json()] == [offer["id"]]


def test_a_bot_takes_only_what_its_policy_allows(bot_club, player):
    ann = player("ann")
    too_rich = ann.offer(variant="backgammon", stake=501, bots=True)
    unknown = ann.offer(variant="jacquet", stake=1, bots=True)
    bots_have_had_their_chance(ann)
    open_ids = {r["id"] for r in ann.get("/api/requests").json()}
    assert {too_rich["id"], unknown["id"]} <= open_ids


def test_a_private_challenge_is_seen_and_accepted_only_by_its_invitee(bot_club, player):
    ann, bob, eve = player("ann"), player("bob"), player("eve")
    offer = ann.offer(variant="backgammon", stake=5, opponent="bob")
    assert offer["id"] not in {r["id"] for r in eve.get("/api/requests").json()}
    assert offer["id"] in {r["id"] for r in bob.get("/api/requests").json()}
    refused = eve.post(f"/api/requests/{offer['id']}/accept")
    assert refused.status_code == 409 and "private challenge" in refused.json()["message"]
    assert eve.balance() == START
    assert bob.accept(offer["id"])["id"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"opponent": "nobody_here"}, 404, "not_found"),
        ({"opponent": "ann"}, 422, "invalid_opponent"),
        ({"opponent": "<script>"}, 404, "not_found"),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(bot_club, player, body, status, code):
    ann = player("ann")
    response = ann.post("/api/requests", {"variant": "backgammon", "stake": 5, **body})
    assert response.status_code == status and response.json()["error"] == code
    assert ann.get("/api/requests").json() == [] and ann.balance() == START


def run_on_club(club: RunningClub, work: Any) -> Any:
    host = club.app.state.club.need(BotHost)
    return asyncio.run_coroutine_threadsafe(work(host), host.loop).result(timeout=20)


def test_two_bots_finish_a_game_through_the_server_and_the_ledger_is_right(bot_club, player):
    ann = player("ann")  # a spectator
    body = RequestIn(variant="backgammon", stake=50, cube=True)
    game = run_on_club(bot_club, lambda host: host.exhibition("Randy_Race", "Rita_Race", body))
    watcher = GameSocket(ann, game["id"])
    watcher.until(lambda _: watcher.finished, timeout=60)  # however long a bot thinks
    record = ann.get(f"/api/games/{game['id']}").json()
    assert record["status"] == "finished"
    first = ann.get("/api/users/Randy_Race").json()["balance"]
    second = ann.get("/api/users/Rita_Race").json()["balance"]
    assert first + second >= 2 * START  # the club bank may have topped one up
    assert ann.get("/healthz").json()["ledger_total"] == 0
    review = ann.get(f"/api/games/{game['id']}/analysis?plies=0")
    assert review.status_code == 200, review.text
    analysis = review.json()
    plays = [e for e in analysis["entries"] if e["kind"] == "play"]
    assert plays and all(e["equity_lost"] >= 0 for e in plays)
    assert {p["side"] for p in plays} == {"W", "B"}
    assert ann.get(f"/api/games/{game['id']}/analysis?plies=7").status_code == 422


def test_analysis_waits_for_the_end_and_covers_gnubgs_games_only(bot_club, player):
    ann = player("ann")
    live = ann.offer(variant="backgammon", stake=1, opponent="Randy_Race")
    response = ann.get(f"/api/games/{game_of(ann, live['id'])}/analysis")
    assert response.status_code == 409 and response.json()["error"] == "game_live"
    assert ann.get("/api/games/nosuchgame/analysis").status_code == 404


def test_a_bot_that_cannot_play_leaves_the_round_running(bot_club, player, clock, caplog):
    """Issue 7: a typed bot error does not stop the round; the bot's clock runs (PL-7)."""
    ann = player("ann")
    offer = ann.offer(variant="draughts", stake=0, opponent="Broken", clock="fischer 1m + 0s")
    game_id = game_of(ann, offer["id"])
    sock = ann.watch(game_id)
    sock.until(lambda f: f["t"] == "snapshot")
    play_one = next(a for a in sock.legal or [] if a["type"] == "move")
    sock.act(play_one)  # now the bot must move, and cannot
    wait_for(lambda: any(  # the bot's typed error, logged as the round runs on
        record.name == BotHost.__module__ and record.levelname == "WARNING"
        and game_id in record.getMessage()
        for record in caplog.records
    ))  # fmt: skip
    clock.at += 5
    snapshot = ann.watch(game_id).until(lambda f: f["t"] == "snapshot")
    assert snapshot["d"]["status"] == "live" and snapshot["d"]["to_act"] == 1
    shown = snapshot["d"]["clock"]
    assert shown["running"] == 1 and shown["black"] == 55


def test_an_untimed_game_with_a_bot_that_cannot_answer_ends_by_pl7(club_settings, monkeypatch):
    """No clock runs out in an untimed game: a bot that failed once waited for ever, its
    stakes held and its opponent unable even to resign (not his turn). Now the bot asks
    again, then leaves, and PL-7 forfeits it after the grace, as it would a person."""
    monkeypatch.setattr(club_bots, "ROSTER", TEST_ROSTER)
    monkeypatch.setattr(host_module, "RETRY_WAITS", (0.05, 0.05))
    settings = dataclasses.replace(club_settings, bot_delay=0.0, bot_patience=0.3,
                                   abandon_grace=1.0)  # fmt: skip
    with RunningClub(settings) as club:
        ann = Player(club.base, "ann").register()
        offer = ann.offer(variant="draughts", stake=100, opponent="Broken", clock="untimed")
        sock = ann.watch(game_of(ann, offer["id"]))
        sock.until(lambda f: f["t"] == "snapshot")
        sock.act(next(a for a in sock.legal or [] if a["type"] == "move"))
        left = sock.until(lambda f: f["t"] == "presence" and not f["d"]["online"])
        assert left["d"]["seat"] == 1 and left["d"]["deadline"] == left["d"]["since"] + 1.0
        sock.until(lambda f: f["t"] == "state" and f["d"]["result"] is not None)
        assert sock.state["result"]["reason"] == "PL-7" and sock.events[-2]["type"] == "timeout"
        assert ann.balance() == START + 100
        assert ann.get("/healthz").json()["ledger_total"] == 0
        sock.close()
        ann.close()


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"variant": "backgammon", "stake": 5}, "plays draughts, not backgammon"),
        ({"variant": "draughts", "stake": 501}, "at most 500 FUN"),
    ],
)
def test_a_challenge_outside_a_bots_policy_is_refused(bot_club, player, body, why):
    ann = player("ann")
    response = ann.post("/api/requests", {**body, "opponent": "Randy_Draughts"})
    assert response.status_code == 422 and why in response.json()["message"]
    assert ann.get("/api/requests").json() == []


def test_the_club_roster_loads():
    """Every bot the club ships has an engine that loads (gnubg, expectimax, alpha-beta)."""
    from sheshbesh.bots.registry import make_bot

    for spec in ROSTER:
        bot = make_bot(spec.engine)
        assert set(spec.variants) <= set(bot.variants), spec


def test_the_draughts_top_level_takes_a_challenge_and_answers_with_a_legal_move(
    club_settings: Settings, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """Issue 19: the club's dame-rs bot is listed, accepts as the others do and plays legally."""
    from sheshbesh.games.draughts import Position

    top = next(spec for spec in ROSTER if spec.engine.startswith("dame:"))
    monkeypatch.setattr(club_bots, "ROSTER", (top,))
    settings = dataclasses.replace(club_settings, bot_delay=0.0, bot_patience=0.3)
    with RunningClub(settings, now=clock) as running:
        ann = Player(running.base, "ann").register()
        try:
            listed = ann.get("/api/bots").json()
            assert [(b["username"], b["variants"]) for b in listed] == [
                (top.username, ["draughts"])
            ]
            offer = ann.offer(variant="draughts", stake=10, opponent=top.username)
            sock = ann.watch(game_of(ann, offer["id"]))
            sock.until(lambda f: f["t"] == "snapshot")
            assert sock.seat == 0 and sock.my_turn  # the owner plays White
            assert sock.act({"type": "move", "text": "32-28"})["t"] == "state"
            sock.until(lambda f: f["t"] == "state" and len(f["d"]["moves"]) == 2, timeout=60)
            after = Position.start().apply(Position.start().parse_move("32-28"))
            assert sock.state["moves"][1] in {str(m) for m in after.legal_moves()}
            assert (
                sock.state["position"]
                == after.apply(after.parse_move(sock.state["moves"][1])).fen()
            )
        finally:
            ann.close()


def test_the_club_offers_the_trained_nets_for_the_five_games_without_an_engine():
    """Issue 19: the nets at 0-ply and 1-ply are bots of the roster, so the lobby's
    "Play a bot" card (which lists ``/api/bots``) offers them, for the games where
    training made them stronger than expectimax's medium level."""
    engines = {spec.engine: spec for spec in ROSTER}
    for level in ("net:hard", "net:expert"):
        assert engines[level].variants == club_bots.TRAINED_NETS
        assert set(club_bots.TRAINED_NETS) <= set(club_bots.OWN_ENGINE)


@pytest.fixture
def net_club(
    club_settings: Settings, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> Iterator[RunningClub]:
    roster = (
        BotSpec("Nettie_Net", "net:hard", ("jacquet",), 500),
        BotSpec("Nettie_Expert", "net:expert", ("long_nardy",), 500),
    )
    monkeypatch.setattr(club_bots, "ROSTER", roster)
    settings = dataclasses.replace(club_settings, bot_delay=0.0, bot_patience=0.3)
    with RunningClub(settings, now=clock) as running:
        yield running


def test_the_net_levels_accept_challenges_and_play_through_the_server(net_club):
    dee = Player(net_club.base, "dee").register()
    try:
        listed = {b["username"]: b for b in dee.get("/api/bots").json()}
        assert listed["Nettie_Net"]["variants"] == ["jacquet"]
        offer = dee.offer(variant="jacquet", stake=10, opponent="Nettie_Net")
        sock = dee.watch(game_of(dee, offer["id"]))
        sock.until(lambda f: f["t"] == "snapshot")
        play_randomly([sock], random.Random(4))
        assert sock.finished
        assert dee.get("/healthz").json()["ledger_total"] == 0
        # The 1-ply level takes a challenge too (its game is not played out: it thinks
        # up to a second a move).
        offer = dee.offer(variant="long_nardy", stake=10, opponent="Nettie_Expert")
        assert game_of(dee, offer["id"])
    finally:
        dee.close()


def test_processes_starting_together_on_one_database_make_each_bot_once(
    postgres: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Servers on one PostgreSQL start at once: the losers of the account race find the winners'."""
    monkeypatch.setattr(club_bots, "ROSTER", TEST_ROSTER)
    for _ in range(3):
        with postgres.database() as url:
            settings = Settings(database_url=url, password_profile="fast")
            clubs = [RunningClub(settings) for _ in range(3)]
            for running in clubs:
                running.thread.start()
            try:
                for running in clubs:
                    running.wait_started()
                listings = [httpx.get(running.base + "/api/bots").json() for running in clubs]
                assert len(listings[0]) == len(TEST_ROSTER)
                assert listings == [listings[0]] * len(clubs)
                health = httpx.get(clubs[0].base + "/healthz").json()
                assert health["ok"] and health["ledger_total"] == 0
            finally:
                for running in clubs:
                    running.__exit__()


def test_a_rematch_with_a_bot_is_taken_at_once_with_colours_changed(bot_club, player):
    ann = player("ann")
    offer = ann.offer(variant="draughts", stake=0, opponent="Randy_Draughts")
    game_id = game_of(ann, offer["id"])
    sock = ann.watch(game_id)
    sock.until(lambda f: f["t"] == "snapshot")
    assert sock.seat == 0 and sock.my_turn  # ann is White and moves first: she resigns
    assert sock.act({"type": "resign"})["t"] == "state"
    sock.close()
    answer = ann.post(f"/api/games/{game_id}/rematch")
    assert answer.status_code == 201, answer.text
    assert answer.json()["request"]["options"]["colour"] == "black"

    def rematch_game() -> str | None:
        games = ann.get("/api/users/ann").json().get("recent", [])
        return next((g["id"] for g in games if g["id"] != game_id), None)

    second = wait_for(rematch_game)
    players = ann.get(f"/api/games/{second}").json()["players"]
    assert [p["username"] for p in players] == ["Randy_Draughts", "ann"]


# --- reviews (issue 16, item 7: nobody can make the bots slow) --------------------------


@pytest.fixture
def gate(bot_club: RunningClub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """Reviews wait in their worker until the test opens the gate (``gated_review``)."""
    found = Gate(tmp_path / "gate")
    monkeypatch.setenv(GATE, str(found.path))
    monkeypatch.setattr(reviews, "analyse_log", gated_analysis)
    yield found
    found.open()  # every review still in a worker finishes, then the club stops
    bot_club.__exit__()
    found.close()


def finished_game(ann: Player, bob: Player) -> str:
    """A backgammon game between two people, over at once: the first to move resigns."""
    game = bob.accept(ann.offer(variant="backgammon", stake=1)["id"])
    a, b = ann.watch(game["id"]), bob.watch(game["id"])
    for sock in (a, b):
        sock.until(lambda f: f["t"] == "snapshot")
    mover, other = (a, b) if a.my_turn else (b, a)
    assert mover.act({"type": "resign", "level": 1})["t"] == "state"
    other.until(lambda f: f["t"] == "legal" and f["v"] == mover.v)
    assert other.act({"type": "accept_resign"})["t"] == "state" and other.finished
    for sock in (a, b):
        sock.close()
    return str(game["id"])


def review_jobs(club: RunningClub) -> dict[tuple[str, int], int]:
    """The reviews the club is computing or holds waiting, and how many askers wait for each."""
    reviewer = club.app.state.club.need(Reviewer)

    async def jobs(_host: BotHost) -> dict[tuple[str, int], int]:
        return {key: job.askers for key, job in reviewer.jobs.items()}

    return dict(run_on_club(club, jobs))


def test_a_review_needs_a_login(bot_club, player):
    game_id = finished_game(player("ann"), player("bob"))
    guest = Player(bot_club.base, "guest")
    try:
        refused = guest.get(f"/api/games/{game_id}/analysis?plies=0")
    finally:
        guest.close()
    assert refused.status_code == 401 and refused.json()["error"] == "login_required"
    assert review_jobs(bot_club) == {}


def test_a_review_is_computed_once_and_served_from_the_database(bot_club, player, monkeypatch):
    ann, bob = player("ann"), player("bob")
    url = f"/api/games/{finished_game(ann, bob)}/analysis?plies=0"
    first = ann.get(url)
    assert first.status_code == 200, first.text
    monkeypatch.setattr(reviews, "analyse_log", refused_analysis)  # computing again fails
    assert bob.get(url).json() == first.json()
    bot_club.__exit__()  # a restart keeps nothing in memory: the review is in the database
    with RunningClub(bot_club.settings) as restarted:
        cat = Player(restarted.base, "cat").register()
        again = cat.get(url)
        assert again.status_code == 200, again.text
        assert again.json() == first.json()
        cat.close()


def test_reviews_beyond_the_queue_are_refused_and_one_asked_twice_is_computed_once(
    gate, bot_club, player
):
    ann, bob, cat = player("ann"), player("bob"), player("cat")
    game_id = finished_game(ann, bob)
    url = f"/api/games/{game_id}/analysis?plies="
    with ThreadPoolExecutor(3) as asking:
        asked = [asking.submit(ann.get, url + "0")]
        wait_for(lambda: gate.started() == [0])  # the one worker is taken
        asked += [asking.submit(bob.get, url + "0"), asking.submit(cat.get, url + "1")]
        wait_for(lambda: review_jobs(bot_club) == {(game_id, 0): 2, (game_id, 1): 1})
        busy = player("dan").get(url + "2")
        assert busy.status_code == 503 and busy.json()["error"] == "review_busy"
        assert busy.headers["Retry-After"] == "30"
        gate.open()
        answers = [future.result(timeout=60) for future in asked]
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert answers[0].json() == answers[1].json() and answers[0].json()["plies"] == 0
    assert gate.started() == [0, 1]  # plies=0 computed once for both askers
    assert player("eve").get(url + "2").status_code == 200  # room in the queue again
    assert review_jobs(bot_club) == {}


def test_a_bot_answers_while_reviews_fill_the_review_workers(gate, bot_club, player):
    """Reviews run in workers of their own: a bot's move never queues behind one."""
    ann, bob, cat = player("ann"), player("bob"), player("cat")
    url = f"/api/games/{finished_game(ann, bob)}/analysis?plies="
    with ThreadPoolExecutor(2) as asking:
        asked = [asking.submit(ann.get, url + "0")]
        wait_for(lambda: gate.started() == [0])  # the one review worker is taken
        asked.append(asking.submit(bob.get, url + "1"))
        wait_for(lambda: len(review_jobs(bot_club)) == 2)  # and the queue is full
        assert cat.get(url + "2").status_code == 503  # the reviewer is full
        offer = cat.offer(variant="draughts", stake=0, opponent="Randy_Draughts")
        sock = cat.watch(game_of(cat, offer["id"]))
        sock.until(lambda f: f["t"] == "snapshot")
        if not sock.my_turn:
            sock.until(lambda f: sock.my_turn, timeout=30)  # the bot opened the game
        sock.act(next(a for a in sock.legal or [] if a["type"] == "move"))
        sock.until(lambda f: sock.my_turn, timeout=30)  # the bot answered
        assert gate.started() == [0] and not any(future.done() for future in asked)
        gate.open()
        assert [future.result(timeout=60).status_code for future in asked] == [200, 200]
