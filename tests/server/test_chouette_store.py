"""A chouette table's store and money (issue 18, steps 2 and 3), on SQLite and PostgreSQL.

- Migration 0009 goes down to 0008 and up again with a two-player game stored.
- ``game_seats``: the database refuses one seat twice and one person seated twice;
  a person who left may sit down again.
- Escrow by seat (``money.seats``, CH-10, PL-5): a join holds 3 × S, a game's start
  raises the banker's hold, a hold nobody can cover is refused with
  ``insufficient_funds`` and nothing changes, a drop is paid from the payer's hold
  into the receiver's wallet, a leaver gets his hold back. After every step the
  ledger sums to zero and the escrow account holds exactly the seats' ``held``.
- A game's end is always settled (CH-8, PL-7), by a timeout or by the winning move,
  even when a loser's wallet cannot raise his hold to the next game's 3 × S: he keeps
  the hold he has, and the next game's start unseats and refunds him, the way it
  unseats the absent; the table goes on, or closes when too few are left (CH-1).
- The first game's banker is checked too (PL-5): a seat the order roll (CH-2) makes
  banker who cannot cover banking passes the bank, the roll standing; if nobody can
  bank, the start is refused as a later game's is, and nothing is stored.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from types import SimpleNamespace
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from in_process import bare_club
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from test_ledger import buy, make_user

from sheshbesh.games.race import Position
from sheshbesh.play import actions as act
from sheshbesh.play.chouette import Lineup
from sheshbesh.play.chouette_record import check_session, make_session_record
from sheshbesh.play.fair import FairDice
from sheshbesh.play.race import Phase as BoardPhase
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.server.money import seats as seat_money
from sheshbesh.server.rounds import chouette as chouette_round
from sheshbesh.server.rounds import outage
from sheshbesh.server.rounds.chouette import ChouetteRound, open_table
from sheshbesh.server.rounds.chouette_table import ChouetteTable
from sheshbesh.server.rounds.log import events_after, stored_dice
from sheshbesh.store import ledger
from sheshbesh.store.db import MIGRATIONS, Database
from sheshbesh.store.models import Account, Game, GameSeat, Node, User

S = 100  # the stake


async def make_table(db: Database, table_id: str = "table1") -> None:
    async with db.transaction() as session:
        session.add(Game(id=table_id, kind="chouette", variant="backgammon", stake=S,
                         control="untimed", seat0_id=None, seat1_id=None, status="live",
                         created_at=0.0))  # fmt: skip


async def balances(db: Database, users: list[int]) -> list[int]:
    async with db.read() as session:
        return [await ledger.balance_of(session, uid) for uid in users]


async def books(db: Database, table_id: str) -> tuple[int, int, dict[int, int]]:
    """The ledger's sum, the escrow account's balance and each seat's ``held``."""
    async with db.read() as session:
        total = await session.scalar(select(func.sum(Account.balance)))
        escrow = await session.scalar(select(Account.balance).where(Account.game_id == table_id))
        taken = select(GameSeat).where(GameSeat.game_id == table_id, GameSeat.left_at.is_(None))
        held = {row.seat: row.held for row in await session.scalars(taken)}
    return int(total or 0), int(escrow or 0), held


async def check_books(db: Database, table_id: str = "table1") -> dict[int, int]:
    total, escrow, held = await books(db, table_id)
    assert total == 0 and escrow == sum(held.values())
    return held


def scenario(settings: Any, body: Any) -> None:
    """Run ``body(db, club)`` in one event loop on a freshly migrated database."""

    async def main() -> None:
        async with bare_club(settings) as club:
            await body(club.db, club)

    asyncio.run(main())


async def at_table(db: Database, work: Any) -> Any:
    async with db.transaction() as session:
        game = await session.get(Game, "table1")
        return await work(session, game)


def test_migration_0009_goes_down_and_up_again(club_settings: Any) -> None:
    async def body(db: Database, club: Club) -> None:
        ann, bob = await make_user(db, "ann", 1000), await make_user(db, "bob", 1000)
        async with db.transaction() as session:
            session.add(Game(id="pair1", kind="race", variant="backgammon", stake=1,
                             control="untimed", seat0_id=ann, seat1_id=bob, status="live",
                             created_at=0.0))  # fmt: skip

        def migrate(target: str) -> Any:
            def step(connection: Any) -> None:
                config = Config()
                config.set_main_option("script_location", str(MIGRATIONS))
                config.attributes["connection"] = connection
                if target == "head":
                    command.upgrade(config, "head")
                else:
                    command.downgrade(config, target)

            return step

        async with db.engine.begin() as connection:
            await connection.run_sync(migrate("0008"))
        async with db.engine.begin() as connection:
            await connection.run_sync(migrate("head"))
        await make_table(db)
        async with db.read() as session:
            pair, table = await session.get(Game, "pair1"), await session.get(Game, "table1")
        assert pair is not None and table is not None
        assert (pair.seat0_id, pair.seat1_id) == (ann, bob) and table.seat0_id is None

    scenario(club_settings, body)


def test_one_seat_once_and_one_person_once_at_a_table(club_settings: Any) -> None:
    async def body(db: Database, club: Club) -> None:
        ann, bob = await make_user(db, "ann", 1000), await make_user(db, "bob", 1000)
        await make_table(db)
        await at_table(db, lambda s, g: seat_money.take_seat(s, g, 0, ann, 1.0))
        for seat, user, code in ((0, bob, "seat_taken"), (1, ann, "already_seated")):
            with pytest.raises(ApiError) as refused:
                await at_table(
                    db,
                    lambda s, g, seat=seat, user=user: seat_money.take_seat(s, g, seat, user, 2.0),
                )
            assert refused.value.code == code
        with pytest.raises(IntegrityError):  # past the check, the database itself refuses
            async with db.transaction() as session:
                session.add(GameSeat(game_id="table1", seat=1, user_id=ann, held=0, joined_at=3.0))
        # A person who left may sit down again, in a new seat.
        await at_table(db, lambda s, g: seat_money.release_seat(s, g, 0, 1, 4.0))
        await at_table(db, lambda s, g: seat_money.take_seat(s, g, 1, ann, 5.0))

    scenario(club_settings, body)


def test_ch10_holds_by_seat_pay_a_drop_and_release_a_leaver(club_settings: Any) -> None:
    async def body(db: Database, club: Club) -> None:
        grants = {"ann": 1000, "ben": 1500, "cid": 1000, "dora": 1000}
        users = [await make_user(db, name, grant) for name, grant in grants.items()]
        await make_table(db)
        for seat, uid in enumerate(users):
            await at_table(
                db, lambda s, g, seat=seat, uid=uid: seat_money.take_seat(s, g, seat, uid, 1.0)
            )

        def hold(needs: dict[int, int], seq: int) -> Any:
            return at_table(db, lambda s, g: seat_money.hold_seats(club, s, g, needs, seq, 2.0))

        # Joining holds 3 × S each (CH-10).
        await hold({seat: 3 * S for seat in range(4)}, 1)
        assert await check_books(db) == dict.fromkeys(range(4), 3 * S)
        assert await balances(db, users) == [700, 1200, 700, 700]
        # The game starts with Ben banking against three: he holds 9 × S (PL-5).
        await hold({1: 9 * S}, 2)
        assert (await check_books(db))[1] == 900 and (await balances(db, users))[1] == 600
        # The banker doubles all three cubes: he would need 18 × S, 900 more than he holds.
        before = await balances(db, users), await check_books(db)
        with pytest.raises(ApiError) as refused:
            await hold({0: 6 * S, 1: 18 * S, 2: 6 * S, 3: 6 * S}, 3)
        assert refused.value.code == "insufficient_funds" and refused.value.status == 409
        assert (await balances(db, users), await check_books(db)) == before  # nothing changed
        # He doubles Ann's cube only; she drops: she pays 1 × S at once (CH-5).
        await hold({0: 6 * S, 1: 12 * S}, 4)
        await at_table(db, lambda s, g: seat_money.pay_seats(s, g, {0: -S, 1: S}, 5, 6.0))
        assert (await check_books(db))[0] == 5 * S
        assert (await balances(db, users))[1] == 600 - 300 + S
        # Ann leaves between games: her hold comes back.
        back = await at_table(db, lambda s, g: seat_money.release_seat(s, g, 0, 6, 7.0))
        assert back == 5 * S and (await balances(db, users))[0] == 1000 - S
        assert 0 not in await check_books(db)

    scenario(club_settings, body)


def test_bad_payments_are_bugs_and_write_nothing(club_settings: Any) -> None:
    async def body(db: Database, club: Club) -> None:
        ann, ben = await make_user(db, "ann", 1000), await make_user(db, "ben", 1000)
        await make_table(db)
        for seat, uid in enumerate((ann, ben)):
            await at_table(
                db, lambda s, g, seat=seat, uid=uid: seat_money.take_seat(s, g, seat, uid, 1.0)
            )
        await at_table(db, lambda s, g: seat_money.hold_seats(club, s, g, {0: 300, 1: 300}, 1, 2.0))
        before = await check_books(db), await balances(db, [ann, ben])
        for payments in ({0: -100, 1: 50}, {0: -400, 1: 400}, {7: -1, 1: 1}):
            with pytest.raises(ValueError):
                await at_table(db, lambda s, g, p=payments: seat_money.pay_seats(s, g, p, 2, 3.0))
        assert (await check_books(db), await balances(db, [ann, ben])) == before

    scenario(club_settings, body)


# --- a game's end is settled whatever the losers' wallets hold ------------------------

BANKER_TO_ROLL_AT_THE_START = "W:W24x2,13x5,8x3,6x5:B1x2,12x5,17x3,19x5"
"""Nothing borne off, the banker's back checkers in the crew's home: a banker who
forfeits here loses a backgammon (3) to every member (PL-7)."""
CREW_BEARS_OFF_ITS_LAST = "B:W19x15:B24"
"""The captain to roll with one checker on his ace point, the banker with nothing borne
off and all fifteen in the crew's home: any roll wins the crew a backgammon (3)."""


class Clock:
    """The club's injected time, moved by hand."""

    def __init__(self) -> None:
        self.at = 1000.0

    def __call__(self) -> float:
        return self.at


async def seated_table(club: Club, grants: dict[str, int], *, start: bool = True,
                       clock: str = "untimed") -> tuple[ChouetteRound, list[int]]:  # fmt: skip
    """A table with a seat to spare, posted by the first of ``grants``, everyone seated
    and here, its first game started by the owner (``start``); the round and the users."""
    users = [await make_user(club.db, name, grant) for name, grant in grants.items()]
    found = SimpleNamespace(seats=len(users) + 1, stake=S, clock=clock, rated=False)
    async with club.db.transaction() as session:
        owner = await session.get(User, users[0])
        assert owner is not None
        await open_table(club, session, found, owner, "table1")
    round_ = ChouetteRound(club, "table1")
    await round_.load()
    for uid in users[1:]:
        await round_.join(await user(club, uid))
    for seat in range(len(users)):
        await round_.arrive(seat)
    if start:
        await round_.start_next(await user(club, users[0]))
    return round_, users


async def user(club: Club, uid: int) -> User:
    async with club.db.read() as session:
        found = await session.get(User, uid)
    assert found is not None
    return found


def set_board(round_: ChouetteRound, text: str) -> None:
    """Put the game at ``text``, its mover to roll with his window open (the play tests'
    shortcut, chouette_tables.set_board): the round keeps its table between commands."""
    table = round_.table
    assert table is not None and table.game is not None
    position = Position.from_text("backgammon", text)
    board = dataclasses.replace(table.game.board, position=position, phase=BoardPhase.ROLL)
    game = dataclasses.replace(table.game, board=board, window_closed=False, called=())
    round_.table = ChouetteTable(dataclasses.replace(table.session, game=game))


async def next_game(round_: ChouetteRound, clock: Clock) -> None:
    """The break ends: the round's timer starts the next game."""
    clock.at += round_.club.settings.chouette_break + 1
    await round_.expire()


async def stored(club: Club) -> tuple[Game, list[dict[str, Any]]]:
    async with club.db.read() as session:
        game = await session.get(Game, "table1")
        events = await events_after(session, "table1", -1)
    assert game is not None
    return game, events


def test_ch8_a_banker_out_of_time_is_settled_though_he_cannot_refill(
    club_settings: Any,
) -> None:
    """PL-7: the banker forfeits a backgammon to both members and is left with 1 × S,
    short of the 3 × S a seat holds between games. The timeout still ends the game; at
    the next start he is unseated, and two seats left close the table (CH-1)."""

    async def body(db: Database, club: Club) -> None:
        clock = Clock()
        club.now = clock
        round_, users = await seated_table(club, dict.fromkeys(("ann", "bob", "cat"), 7 * S))
        try:
            set_board(round_, BANKER_TO_ROLL_AT_THE_START)
            assert round_.table is not None and round_.table.game is not None
            banker, members = round_.table.game.banker, round_.table.game.lineup.rotation
            await round_.leave(banker)  # he goes away on his turn
            clock.at += club.settings.abandon_grace + 1
            await round_.expire()
            game, events = await stored(club)
            assert events[-1]["type"] == "finished" and events[-1]["reason"] == "PL-7"
            assert game.seq == events[-1]["seq"] and game.status == "live"
            assert round_.table.game.finished and round_.table.game.winner == "crew"
            assert dict(round_.table.session.results) == {banker: -6, **dict.fromkeys(members, 3)}
            # He paid his whole 6 × S hold; 1 × S in his wallet cannot raise it again.
            assert await check_books(db) == {banker: 0, **dict.fromkeys(members, 3 * S)}
            wallets = dict(zip(range(3), await balances(db, users), strict=True))
            assert wallets == {banker: S, **dict.fromkeys(members, 7 * S)}
            # He comes back; the next game's start unseats him and CH-1 ends the table.
            await round_.arrive(banker)
            await next_game(round_, clock)
            game, events = await stored(club)
            assert game.status == "finished" and (game.result or {}).get("reason") == "CH-1"
            assert [e["type"] for e in events[-2:]] == ["left", "closed"]
            assert events[-2]["seat"] == banker
            assert await check_books(db) == {}
            wallets = dict(zip(range(3), await balances(db, users), strict=True))
            assert wallets == {banker: S, **dict.fromkeys(members, 10 * S)}
            assert sum(wallets.values()) == 3 * 7 * S  # no FUN made or lost
        finally:
            await round_.timer.halt()

    scenario(club_settings, body)


def test_ch8_a_winning_move_is_settled_though_a_loser_cannot_refill(
    club_settings: Any,
) -> None:
    """The captain bears off his last checker for a backgammon: the banker pays his whole
    9 × S hold and has 1 × S left, short of a seat's 3 × S. The move still ends the game;
    a newcomer still sits down; at the next start the banker is unseated (his empty hold
    refunded) and the table plays on with the other four."""

    async def body(db: Database, club: Club) -> None:
        clock = Clock()
        club.now = clock
        grants = dict.fromkeys(("ann", "bob", "cat", "dora"), 10 * S)
        round_, users = await seated_table(club, grants)
        try:
            set_board(round_, CREW_BEARS_OFF_ITS_LAST)
            assert round_.table is not None and round_.table.game is not None
            banker, members = round_.table.game.banker, round_.table.game.lineup.rotation
            captain = round_.seat_rows[members[0]].user_id
            while not round_.table.game.finished:
                menu = round_.table.legal(members[0])
                frame = next(a for kind in ("confirm", "move", "roll")
                             for a in menu if a["type"] == kind)  # fmt: skip
                await round_.act(captain, round_.table.seq, frame)
            game, events = await stored(club)
            assert events[-1]["type"] == "finished" and round_.table.game.winner == "crew"
            assert game.seq == events[-1]["seq"] and game.status == "live"
            assert dict(round_.table.session.results) == {banker: -9, **dict.fromkeys(members, 3)}
            assert await check_books(db) == {banker: 0, **dict.fromkeys(members, 3 * S)}
            assert (await balances(db, users))[banker] == S
            # A newcomer sits down between games: the banker's short hold does not stop him.
            dan = await make_user(db, "dan", 10 * S)
            assert await round_.join(await user(club, dan)) == 4
            await round_.arrive(4)
            await next_game(round_, clock)
            game, events = await stored(club)
            table = round_.table
            assert game.status == "live" and table.playing and table.session.number == 2
            assert {"type": "left", "seat": banker} in [
                {"type": e["type"], "seat": e.get("seat")} for e in events]  # fmt: skip
            assert sorted(table.session.seats) == sorted([*members, 4])
            assert table.game is not None and table.game.banker == members[0]  # CH-9
            held = await check_books(db)
            assert banker not in held and held[members[0]] == 9 * S
            wallets = await balances(db, [*users, dan])
            assert wallets[banker] == S
            assert sum(wallets) + sum(held.values()) == 5 * 10 * S  # no FUN made or lost
        finally:
            await round_.timer.halt()

    scenario(club_settings, body)


# --- the first game's banker, as the order roll picks him --------------------------


def known_dice(club: Club, game: Game) -> FairDice | None:
    """The row's dice, every roll known in advance: a roll's dice come from its committed
    seed and a nonce (PL-2), and the server draws its nonce and each next seed afresh
    (a retry rolls anew, a tie's roll again is unknown before); here both are fixed."""
    dice = stored_dice(club, game)
    if dice is not None:
        box = dice
        box.server_nonce = lambda: "known"
        box.new_seed = lambda: hashlib.sha256(box.box.secret).digest()
    return dice


def rolled_lineup(round_: ChouetteRound) -> Lineup:
    """The lineup the order roll will draw (CH-2), the rules asked on a copy with the
    dice the round will roll (:func:`known_dice`)."""
    assert round_.table is not None and round_.game is not None
    after, _ = round_.table.step(act.Start(), known_dice(round_.club, round_.game))
    assert after.session.lineup is not None
    return after.session.lineup


def test_ch2_a_rolled_banker_who_cannot_cover_banking_passes_the_bank(
    club_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PL-5 before the first game: the order roll makes banker a seat whose wallet cannot
    raise his 3 × S to the 9 × S that banking against three holds. The start must not be
    refused for it: the roll stands, he passes the bank down the rotation as before a
    later game, and the rolled captain banks; the log checks out against the rules."""
    monkeypatch.setattr(chouette_round, "stored_dice", known_dice)

    async def body(db: Database, club: Club) -> None:
        grants = dict.fromkeys(("ann", "bob", "cat", "dora"), 10 * S)
        round_, users = await seated_table(club, grants, start=False)
        try:
            rolled = rolled_lineup(round_)
            poor, banker = rolled.banker, rolled.captain
            assert await buy(db, users[poor], 5 * S)  # 2 × S left: 6 × S short of banking
            await round_.start_next(await user(club, users[0]))
            game, events = await stored(club)
            table = round_.table
            assert table is not None and table.game is not None
            assert game.status == "live" and table.playing and table.session.number == 1
            kinds = [event["type"] for event in events]
            drawn = kinds.index("lineup_drawn")
            assert {key: events[drawn][key] for key in ("banker", "rotation")} == rolled.to_json()
            assert kinds[drawn + 1 : drawn + 3] == ["bank_passed", "game_started"]
            assert events[drawn + 1]["seat"] == poor
            assert table.game.lineup == Lineup(banker, (*rolled.rotation[1:], poor))
            held = await check_books(db)
            assert held == {banker: 9 * S, **dict.fromkeys((*rolled.rotation[1:], poor), 3 * S)}
            wallets = dict(enumerate(await balances(db, users)))  # seat i is users[i]
            assert wallets[poor] == 2 * S and wallets[banker] == S
            assert sum(wallets.values()) + sum(held.values()) == 4 * 10 * S - 5 * S  # the shop's
            assert check_session(make_session_record(events[0], events[1:]))[0] == []
        finally:
            await round_.timer.halt()

    scenario(club_settings, body)


def test_ch2_nobody_can_bank_the_first_game_refused_as_a_later_one(
    club_settings: Any,
) -> None:
    """Nobody's wallet covers banking: the bank goes round once and the start is refused
    with ``insufficient_funds``, as a later game's start is; nothing is stored, no hold
    moves, and the table still waits for its first game."""

    async def body(db: Database, club: Club) -> None:
        grants = dict.fromkeys(("ann", "bob", "cat"), 4 * S)  # 1 × S free: banking needs 3
        round_, users = await seated_table(club, grants, start=False)
        try:
            before = await stored(club), await check_books(db), await balances(db, users)
            with pytest.raises(ApiError) as refused:
                await round_.start_next(await user(club, users[0]))
            assert refused.value.code == "insufficient_funds"
            after = await stored(club), await check_books(db), await balances(db, users)
            assert after[0][1] == before[0][1] and after[1:] == before[1:]
            assert after[0][0].status == "waiting" and after[1] == dict.fromkeys(range(3), 3 * S)
        finally:
            await round_.timer.halt()

    scenario(club_settings, body)


# --- an outage stands the table's clocks still ---------------------------------------


def test_an_outage_stands_a_tables_clocks_and_absence_marks_still(club_settings: Any) -> None:
    """The whole club down for an hour (``rounds.outage``): the seat to act keeps the time
    it had, and an absent seat the grace it had, when the club comes back."""

    async def body(db: Database, club: Club) -> None:
        clock = Clock()
        club.now = clock
        round_, _ = await seated_table(club, dict.fromkeys(("ann", "bob", "cat"), 7 * S),
                                       clock="fischer 1m + 0s")  # fmt: skip
        clock.at += 20
        running = round_.clock_json(clock.at)
        assert running is not None and running["running"]
        absent = next(seat for seat in round_.seated if seat not in running["running"])
        await round_.leave(absent)
        clock.at += 10
        before = round_.clock_json(clock.at), grace_left(round_)
        await round_.timer.halt()
        async with db.transaction() as session:  # the club's last process stops now
            session.add(Node(node="gone", seen_at=clock.at - 5, stopped_at=clock.at))
        clock.at += 3600
        assert await outage.credit_outage(club) == 3600
        again = ChouetteRound(club, "table1")
        await again.load()
        try:
            assert (again.clock_json(clock.at), grace_left(again)) == before
        finally:
            await again.timer.halt()

    scenario(club_settings, body)


def grace_left(round_: ChouetteRound) -> list[tuple[int, float | None]]:
    """Each seat and the seconds of grace it has left (None: here)."""
    return [(seat["seat"], None if seat["online"] else seat["deadline"] - seat["now"])
            for seat in round_.presence()]  # fmt: skip
