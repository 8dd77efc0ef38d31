"""The FUN ledger: double-entry transfers between accounts (DESIGN principle 4).

Every movement of FUN is one :class:`Transfer` whose entries sum to zero, made
inside the caller's transaction, so it commits or rolls back with the event
that caused it. A balance changes only through a guarded ``UPDATE … SET
balance = balance + amount WHERE balance + amount >= 0``: two transfers racing
for the last FUN cannot both pass, on SQLite or PostgreSQL, and the loser gets
:class:`InsufficientFunds` with nothing written. The system account (grants,
shop income) is the only one allowed below zero, so all balances sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Table, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from .models import Account, Entry, Transfer

GRANT = 100_000
"""What a new player receives (the club's welcome)."""
ACCOUNTS: Table = Account.__table__  # type: ignore[assignment]
TRANSFERS: Table = Transfer.__table__  # type: ignore[assignment]
ENTRIES: Table = Entry.__table__  # type: ignore[assignment]
"""The tables themselves: a transfer writes plain rows, no ORM objects to flush."""


class LedgerError(ValueError):
    """Base of the ledger's typed errors."""


class InsufficientFunds(LedgerError):
    """A transfer would take an account below zero."""

    def __init__(self, account: Account, needed: int) -> None:
        self.account = account
        self.needed = needed
        super().__init__(f"not enough FUN: {needed} needed, {account.balance} available")


class UnbalancedTransfer(LedgerError):
    """Entries that do not sum to zero (a bug, never a user error)."""


async def system_account(session: AsyncSession, name: str) -> Account:
    """The named system account, created on first use (by exactly one of racing callers)."""
    account = await session.scalar(select(Account).where(Account.name == name))
    if account is not None:
        return account
    try:
        async with session.begin_nested():
            account = Account(kind="system", name=name, balance=0)
            session.add(account)
    except IntegrityError:  # another transaction created it first
        account = await session.scalar(select(Account).where(Account.name == name))
        assert account is not None
    return account


async def open_wallet(session: AsyncSession, user_id: int) -> Account:
    account = Account(kind="wallet", user_id=user_id, balance=0)
    session.add(account)
    await session.flush()
    return account


async def wallet_of(session: AsyncSession, user_id: int) -> Account:
    account = await session.scalar(select(Account).where(Account.user_id == user_id))
    if account is None:
        raise LedgerError(f"user {user_id} has no wallet")
    return account


async def escrow_of(session: AsyncSession, game_id: str) -> Account:
    """The game's escrow account, opened on first use."""
    account = await session.scalar(select(Account).where(Account.game_id == game_id))
    return account if account is not None else await open_escrow(session, game_id)


async def open_escrow(session: AsyncSession, game_id: str) -> Account:
    account = Account(kind="escrow", game_id=game_id, balance=0)
    session.add(account)
    await session.flush()
    return account


async def game_accounts(
    session: AsyncSession, game_id: str, user_ids: Iterable[int]
) -> tuple[Account, list[Account]]:
    """A game's escrow (opened on first use) and its players' wallets, in the players'
    order, read in one statement: what every escrow move needs (it was three)."""
    ids = list(user_ids)
    found = list(
        await session.scalars(
            select(Account).where(or_(Account.game_id == game_id, Account.user_id.in_(ids)))
        )
    )
    wallets = {account.user_id: account for account in found if account.user_id is not None}
    for uid in ids:
        if uid not in wallets:
            raise LedgerError(f"user {uid} has no wallet")
    escrow = next((account for account in found if account.game_id == game_id), None)
    if escrow is None:
        escrow = await open_escrow(session, game_id)
    return escrow, [wallets[uid] for uid in ids]


async def transfer(
    session: AsyncSession,
    reason: str,
    entries: Iterable[tuple[Account, int]],
    *,
    now: float,
    game_id: str | None = None,
    seq: int | None = None,
) -> int | None:
    """Move FUN: ``entries`` are (account, amount) pairs summing to zero; zeros are skipped.
    Returns the transfer's id (None: nothing moved).

    Debits are applied before credits so that a failing debit leaves nothing
    half-done within the caller's transaction (the caller rolls back anyway),
    and each group in account-id order: every transfer takes its row locks in
    one order, so two transfers touching the same wallets at once (a player in
    two games, seated first in one and second in the other) wait for each other
    on PostgreSQL instead of deadlocking.

    The rows are written as plain statements, not through the ORM's unit of work: the
    transfer, one guarded update per account, and the entries in one statement (through
    the ORM each entry was flushed alone, by the next account's update: a double's
    escrow took seven statements where it now takes five).
    """
    moves = [(account, amount) for account, amount in entries if amount != 0]
    if sum(amount for _, amount in moves) != 0:
        raise UnbalancedTransfer(f"{reason}: entries sum to {sum(a for _, a in moves)}")
    if not moves:
        return None
    made = await session.execute(
        insert(TRANSFERS)
        .values(reason=reason, game_id=game_id, seq=seq, created_at=now)
        .returning(TRANSFERS.c.id)
    )
    transfer_id = int(made.scalar_one())
    for account, amount in sorted(moves, key=lambda move: (move[1] > 0, move[0].id)):
        await _apply(session, account, amount)
    await session.execute(
        insert(ENTRIES),
        [{"transfer_id": transfer_id, "account_id": account.id, "amount": amount}
         for account, amount in moves],
    )  # fmt: skip
    return transfer_id


async def _apply(session: AsyncSession, account: Account, amount: int) -> None:
    statement = (
        update(ACCOUNTS)
        .where(ACCOUNTS.c.id == account.id)
        .values(balance=ACCOUNTS.c.balance + amount)
        .returning(ACCOUNTS.c.balance)
    )
    if account.kind != "system":
        statement = statement.where(ACCOUNTS.c.balance + amount >= 0)
    balance = await session.scalar(statement)
    if balance is None:
        await session.refresh(account)
        raise InsufficientFunds(account, -amount)
    # Record the new balance without marking the row dirty: a later flush must
    # never write a stale absolute balance over the guarded increment.
    set_committed_value(account, "balance", balance)


async def total(session: AsyncSession) -> int:
    """The sum of every balance: zero, always (a check, exposed for tests and /healthz)."""
    return int(await session.scalar(select(func.coalesce(func.sum(Account.balance), 0))) or 0)


async def balance_of(session: AsyncSession, user_id: int) -> int:
    value = await session.scalar(select(Account.balance).where(Account.user_id == user_id))
    return int(value or 0)


async def balances_of(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, int]:
    """Several players' wallets in one statement (a player without one holds 0)."""
    ids = list(user_ids)
    rows = await session.execute(
        select(Account.user_id, Account.balance).where(Account.user_id.in_(ids))
    )
    found = {int(uid): int(balance) for uid, balance in rows if uid is not None}
    return {uid: found.get(uid, 0) for uid in ids}
