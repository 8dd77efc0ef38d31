"""The FUN ledger on a real database (SQLite and PostgreSQL): balanced transfers only,
no balance below zero, and two purchases racing for the last FUN settled exactly.
Also: the migrations create exactly the schema the models describe.
"""

from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given, settings
from hypothesis import strategies as st
from in_process import statements_sent
from sqlalchemy import select

from sheshbesh.store import ledger
from sheshbesh.store.db import Database
from sheshbesh.store.models import Account, Base, Entry, User


async def fresh(url: str) -> Database:
    db = Database(url)
    await db.migrate()
    return db


async def make_user(db: Database, name: str, grant: int) -> int:
    async with db.transaction() as session:
        user = User(username=name, username_key=name, password_hash="x", is_bot=False,
                    created_at=0.0)  # fmt: skip
        session.add(user)
        await session.flush()
        wallet = await ledger.open_wallet(session, user.id)
        grants = await ledger.system_account(session, "grants")
        await ledger.transfer(session, "grant", [(grants, -grant), (wallet, grant)], now=0.0)
        return user.id


async def buy(db: Database, user_id: int, price: int) -> bool:
    """A purchase: the wallet pays the shop; False when the funds are not there."""
    try:
        async with db.transaction() as session:
            wallet = await ledger.wallet_of(session, user_id)
            shop = await ledger.system_account(session, "shop")
            await ledger.transfer(session, "purchase", [(wallet, -price), (shop, price)], now=1.0)
        return True
    except ledger.InsufficientFunds:
        return False


def test_the_schema_from_migrations_matches_the_models(club_settings):
    async def check() -> list[object]:
        db = await fresh(club_settings.database_url)
        async with db.engine.connect() as connection:
            diff = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
        await db.close()
        return list(diff)

    assert asyncio.run(check()) == []


def test_two_purchases_racing_for_the_last_fun_one_wins(club_settings):
    async def race() -> tuple[list[bool], int, int]:
        db = await fresh(club_settings.database_url)
        user = await make_user(db, "ann", 150)
        results = await asyncio.gather(*(buy(db, user, 100) for _ in range(6)))
        async with db.read() as session:
            balance = await ledger.balance_of(session, user)
            total = await ledger.total(session)
        await db.close()
        return list(results), balance, total

    results, balance, total = asyncio.run(race())
    assert sorted(results) == [False] * 5 + [True]
    assert balance == 50 and total == 0


def test_an_unbalanced_transfer_is_a_bug_and_writes_nothing(club_settings):
    async def attempt() -> int:
        db = await fresh(club_settings.database_url)
        user = await make_user(db, "ann", 100)
        with pytest.raises(ledger.UnbalancedTransfer):
            async with db.transaction() as session:
                wallet = await ledger.wallet_of(session, user)
                await ledger.transfer(session, "oops", [(wallet, 5)], now=1.0)
        async with db.read() as session:
            count = len(list(await session.scalars(select(Entry))))
        await db.close()
        return count

    assert asyncio.run(attempt()) == 2  # only the grant's two entries


def test_a_games_accounts_are_read_in_one_statement_its_escrow_opened_once(club_settings):
    """ledger.game_accounts: the escrow (opened on first use, found after) and the wallets in
    the players' order, whoever sits first, in one statement once the escrow exists; a
    player without a wallet is refused."""

    async def scenario() -> tuple[int, int]:
        db = await fresh(club_settings.database_url)
        ann, bob = await make_user(db, "ann", 100), await make_user(db, "bob", 200)
        async with db.transaction() as session:
            first, wallets = await ledger.game_accounts(session, "g1", [bob, ann])
            order = [wallet.user_id or 0 for wallet in wallets]
        async with db.transaction() as session:
            with statements_sent(db) as sent:
                again, wallets = await ledger.game_accounts(session, "g1", [ann, bob])
            used = len(sent)
            balances = [wallet.balance for wallet in wallets]
        with pytest.raises(ledger.LedgerError, match="no wallet"):
            async with db.transaction() as session:
                await ledger.game_accounts(session, "g1", [ann, 999])
        async with db.read() as session:
            kinds = list(await session.scalars(select(Account.kind)))
        await db.close()
        assert first.id == again.id and first.game_id == "g1" and again.balance == 0
        assert order == [bob, ann] and balances == [100, 200]
        return used, kinds.count("escrow")

    assert asyncio.run(scenario()) == (1, 1)


def test_a_transfer_writes_its_rows_in_one_statement_each_and_the_entries_in_one(
    club_settings,
):
    """A three-account escrow move: the transfer, one guarded update per account, and the
    three entries in one statement (through the ORM each entry was flushed alone: seven
    statements where it is five), and every row there with the right amounts."""

    async def scenario() -> tuple[list[str], list[tuple[int, int]], int]:
        db = await fresh(club_settings.database_url)
        ann, bob = await make_user(db, "ann", 100), await make_user(db, "bob", 200)
        async with db.transaction() as session:
            await ledger.game_accounts(session, "g1", [ann, bob])  # opens the escrow
        async with db.transaction() as session:
            escrow, (one, two) = await ledger.game_accounts(session, "g1", [ann, bob])
            with statements_sent(db) as sent:
                made = await ledger.transfer(
                    session, "escrow", [(one, -30), (two, -30), (escrow, 60)], now=1.0,
                    game_id="g1",
                )  # fmt: skip
        statements = [statement.split()[0] for statement in sent]
        async with db.read() as session:
            rows = await session.execute(
                select(Entry.account_id, Entry.amount).where(Entry.transfer_id == made)
            )
            entries = sorted((int(a), int(b)) for a, b in rows)
            total = await ledger.total(session)
        await db.close()
        assert sorted(entries) == sorted([(one.id, -30), (two.id, -30), (escrow.id, 60)])
        assert (one.balance, two.balance, escrow.balance) == (70, 170, 60)
        return statements, entries, total

    statements, entries, total = asyncio.run(scenario())
    assert statements == ["INSERT", "UPDATE", "UPDATE", "UPDATE", "INSERT"], statements
    assert len(entries) == 3 and total == 0


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(1, 400)),
        min_size=1,
        max_size=25,
    )
)
def test_random_transfers_keep_the_sum_zero_and_no_wallet_negative(tmp_path_factory, moves):
    """Property (SQLite): whatever is attempted, balances match the entries and sum to zero."""
    url = str(tmp_path_factory.mktemp("ledger") / "ledger.db")

    async def run() -> None:
        db = await fresh(url)
        users = [await make_user(db, f"u{n}", 500) for n in range(3)]
        for source, target, amount in moves:
            try:
                async with db.transaction() as session:
                    payer = await ledger.wallet_of(session, users[source])
                    payee = await ledger.wallet_of(session, users[target])
                    await ledger.transfer(session, "test", [(payer, -amount), (payee, amount)],
                                          now=1.0)  # fmt: skip
            except ledger.InsufficientFunds:
                pass
        async with db.read() as session:
            accounts = list(await session.scalars(select(Account)))
            entries = list(await session.scalars(select(Entry)))
        await db.close()
        assert sum(a.balance for a in accounts) == 0
        assert all(a.balance >= 0 for a in accounts if a.kind == "wallet")
        for account in accounts:
            assert account.balance == sum(e.amount for e in entries if e.account_id == account.id)

    asyncio.run(run())
