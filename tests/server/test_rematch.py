"""Rematch over real HTTP on SQLite and PostgreSQL: the same game offered again to the
same opponent as a private challenge, both asking at once, declining, refusals, and
another challenge between the two players left alone."""

from __future__ import annotations

import asyncio
from typing import Any

from club_client import Player, RunningClub, at_once
from test_rounds import open_game
from test_standings import finish_by_resignation, notes_of

from sheshbesh.store import ledger
from sheshbesh.store.db import Database
from sheshbesh.store.models import Request as GameRequest
from sheshbesh.store.models import user_named

DRAUGHTS = {"variant": "draughts", "stake": 20, "clock": "fischer 5m + 3s", "move_limit": 80}


def rematch(player: Player, game_id: str):
    return player.post(f"/api/games/{game_id}/rematch")


def grant(club: RunningClub, amount: int, *names: str) -> None:
    """More FUN for players, written straight to the club's database (a grant, balanced)."""

    async def give() -> None:
        db = Database(club.settings.database_url)
        try:
            async with db.transaction() as session:
                grants = await ledger.system_account(session, "grants")
                for name in names:
                    user = await user_named(session, name)
                    assert user is not None
                    wallet = await ledger.wallet_of(session, user.id)
                    await ledger.transfer(session, "grant", [(grants, -amount), (wallet, amount)],
                                          now=0.0)  # fmt: skip
        finally:
            await db.close()

    asyncio.run(give())


def test_a_rematch_is_the_same_game_offered_to_the_opponent_who_is_told_and_accepts(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _ = finish_by_resignation(ann, bob, **DRAUGHTS, rated=False)
    first = next(r for r in ann.get("/api/users/ann").json()["recent"] if r["id"] == game_id)
    before = ann.balance() + bob.balance()

    asked = rematch(bob, game_id)

    assert asked.status_code == 201, asked.text
    offer = asked.json()["request"]
    assert offer["variant"] == "draughts" and offer["stake"] == 20
    assert offer["clock"] == "fischer 5m + 3s" and offer["options"]["move_limit"] == 80
    assert offer["rated"] is False and offer["invitee"]["username"] == "ann"
    assert first["variant"] == "draughts"
    note = notes_of(ann)[0]
    assert note["kind"] == "challenge" and note["data"]["rematch_of"] == game_id
    assert note["data"]["request_id"] == offer["id"] and note["data"]["from"] == "bob"
    assert [r["id"] for r in ann.get("/api/requests").json()] == [offer["id"]]
    game = ann.accept(offer["id"])
    assert game["id"] != game_id and {p["username"] for p in game["players"]} == {"ann", "bob"}
    assert ann.balance() + bob.balance() == before - 2 * 20  # both stakes held again


def test_when_both_ask_the_second_ask_starts_the_game(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _ = finish_by_resignation(ann, bob, variant="backgammon", stake=5, cube=True)
    offer = rematch(ann, game_id).json()["request"]
    answer = rematch(bob, game_id)
    assert answer.status_code == 201 and "game" in answer.json()
    assert answer.json()["game"]["variant"] == "backgammon"
    assert ann.get("/api/requests").json() == []
    again = rematch(ann, game_id)  # the rematch is being played: no third game meanwhile
    assert again.status_code == 409 and again.json()["error"] == "playing", again.text
    assert offer["id"] not in [r["id"] for r in bob.get("/api/requests").json()]


def test_two_rematch_clicks_at_once_start_one_game(new_player):
    """Both players click Rematch at the same moment: the later ask takes the first offer
    instead of crossing it, so one game starts and no offer is left to refuse the next."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _ = finish_by_resignation(ann, bob, variant="backgammon", stake=5, cube=True)
    answers = at_once([lambda: rematch(ann, game_id), lambda: rematch(bob, game_id)])
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    assert sorted(key for a in answers for key in a.json()) == ["game", "request"]
    game = next(a.json()["game"] for a in answers if "game" in a.json())
    assert {p.get("/api/me").json()["playing"] for p in (ann, bob)} == {game["id"]}
    assert ann.get("/api/requests").json() == bob.get("/api/requests").json() == []


def cross_offer(club: RunningClub, offer: dict[str, Any]) -> None:
    """The opponent's offer of the same rematch beside ``offer``, written straight to the
    database: two offers crossed, as asks at one moment could leave them before the lock."""

    async def write() -> None:
        db = Database(club.settings.database_url)
        try:
            async with db.transaction() as session:
                mine = await session.get(GameRequest, offer["id"])
                assert mine is not None and mine.invitee_id is not None
                session.add(GameRequest(
                    id="crossed", owner_id=mine.invitee_id, invitee_id=mine.owner_id,
                    variant=mine.variant, stake=mine.stake, options=mine.options,
                    clock=mine.clock, status="open", created_at=mine.created_at,
                    rated=mine.rated, rematch_of=mine.rematch_of,
                ))  # fmt: skip
        finally:
            await db.close()

    asyncio.run(write())


def test_when_both_offers_stand_rematch_takes_the_opponents(club, new_player):
    """Crossed offers (left before asks were serialised): Rematch plays the opponent's
    offer rather than refusing because one's own stands; one's own is withdrawn."""
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _ = finish_by_resignation(ann, bob, variant="backgammon", stake=5, cube=True)
    offer = rematch(ann, game_id).json()["request"]
    cross_offer(club, offer)

    answer = rematch(ann, game_id)

    assert answer.status_code == 201 and set(answer.json()) == {"game"}, answer.text
    assert ann.get("/api/me").json()["playing"] == answer.json()["game"]["id"]
    assert ann.get("/api/requests").json() == bob.get("/api/requests").json() == []


def test_rematch_takes_only_the_games_own_offer_not_another_challenge(club, new_player):
    """Bob's ordinary challenge after the game is no rematch offer: Ann's Rematch leaves it
    open and offers the finished game's own stake and options; Bob's Rematch takes that."""
    ann, bob = new_player("ann"), new_player("bob")
    grant(club, 1_000_000, "ann", "bob")
    game_id, _ = finish_by_resignation(ann, bob, variant="backgammon", stake=100, cube=True)
    first = ann.get(f"/api/games/{game_id}").json()
    challenge = bob.offer(variant="backgammon", stake=30_000, cube=True, beavers=True,
                          auto_doubles=3, opponent="ann")  # fmt: skip
    wallet = ann.balance()

    asked = rematch(ann, game_id)

    assert asked.status_code == 201 and "request" in asked.json(), asked.text
    offer = asked.json()["request"]
    assert offer["stake"] == 100 and offer["options"]["cube"] is True
    assert offer["options"]["beavers"] is False and offer["options"]["auto_doubles"] == 0
    assert offer["invitee"]["username"] == "bob" and offer["rematch_of"] == game_id
    assert ann.balance() == wallet  # nothing held: no game started
    standing = {r["id"]: r for r in bob.get("/api/requests").json()}
    assert standing[challenge["id"]] == challenge  # open, untouched
    assert challenge["rematch_of"] is None

    answer = rematch(bob, game_id)  # the genuine offer: both asked, so play

    assert answer.status_code == 201 and "game" in answer.json(), answer.text
    game = ann.get(f"/api/games/{answer.json()['game']['id']}").json()
    assert game["stake"] == 100 and game["state"]["options"] == first["state"]["options"]
    assert ann.balance() == wallet - 100 * 3  # the rematch's escrow: a backgammon at cube 1
    assert ann.get("/api/requests").json() == []  # a game's start withdraws the others


def test_the_opponent_may_decline_and_the_offerer_may_offer_again(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    game_id, _ = finish_by_resignation(ann, bob, variant="plakoto", stake=0)
    offer = rematch(ann, game_id).json()["request"]
    assert cid.http.delete(f"/api/requests/{offer['id']}").status_code == 403
    assert bob.http.delete(f"/api/requests/{offer['id']}").status_code == 200
    assert bob.get("/api/requests").json() == []
    assert bob.post(f"/api/requests/{offer['id']}/accept").json()["error"] == "cannot_accept"
    assert rematch(ann, game_id).status_code == 201


def test_refusals_change_nothing(new_player):
    ann, bob, cid = new_player("ann"), new_player("bob"), new_player("cid")
    game_id, _ = finish_by_resignation(ann, bob, variant="draughts", stake=0)
    assert rematch(cid, "nosuchgame").status_code == 404
    spectator = rematch(cid, game_id)
    assert spectator.status_code == 403 and spectator.json()["error"] == "not_a_player"
    live_id, a, b = open_game(ann, cid, variant="draughts", stake=0)
    live = rematch(ann, live_id)
    assert live.status_code == 409 and live.json()["error"] == "game_live"
    a.close()
    b.close()
    assert rematch(bob, game_id).status_code == 201
    twice = rematch(bob, game_id)
    assert twice.status_code == 409 and twice.json()["error"] == "rematch_offered"
    assert len(ann.get("/api/requests").json()) == 1
    guest = Player(ann.base, "guest")
    assert guest.post(f"/api/games/{game_id}/rematch").status_code == 401
    guest.close()


def test_a_player_who_blocked_the_other_gets_no_rematch_offer(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _ = finish_by_resignation(ann, bob, variant="draughts", stake=0)
    assert bob.post("/api/blocks", {"username": "ann"}).status_code == 201
    refused = rematch(ann, game_id)
    assert refused.status_code == 403 and refused.json()["error"] == "cannot_send"
    assert bob.get("/api/requests").json() == [] and notes_of(bob)[0]["kind"] != "challenge"


def test_in_draughts_the_players_change_colours(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    game_id, _ = finish_by_resignation(ann, bob, variant="draughts", stake=0, colour="white")
    first = ann.get(f"/api/games/{game_id}").json()
    assert first["players"][0]["username"] == "ann"  # seat 0 plays White
    offer = rematch(ann, game_id).json()["request"]
    assert offer["options"]["colour"] == "black"
    second = bob.accept(offer["id"])
    assert second["players"][0]["username"] == "bob"
