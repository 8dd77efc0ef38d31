"""A chouette table's store and money (issue 18, steps 2 and 3), on SQLite and PostgreSQL.

- Migration 0009 goes down to 0008 and up again with a two-player game stored.
- ``game_seats``: the database refuses one seat twice and one person seated twice;
  a person who left may sit down again.
- Escrow by seat (``money.seats``, CH-10, PL-5): a join holds 3 × S, a game's start
  raises the banker's hold, a hold nobody can cover is refused with
  ``insufficient_funds`` and nothing changes, a drop is paid from the payer's hold
  into the receiver's wallet, a leaver gets his hold back. After every step the
  ledger sums to zero and the escrow account holds exactly the seats' ``held``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from in_process import bare_club
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from test_ledger import make_user

from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.server.money import seats as seat_money
from sheshbesh.store import ledger
from sheshbesh.store.db import MIGRATIONS, Database
from sheshbesh.store.models import Account, Game, GameSeat

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
