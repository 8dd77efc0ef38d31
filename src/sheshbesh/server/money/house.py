"""The house: the club covers its bots' stakes, so a bot is never unable to play.

When a bot runs low, ``grants`` tops its wallet up (a ``bot_bank`` transfer),
in the transaction that escrows its stake; the ledger still sums to zero.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.store import ledger
from sheshbesh.store.models import User

BANK_FLOOR = ledger.GRANT
"""A bot's wallet is topped up to this (plus the stake) when it runs low."""


async def cover_bot(session: AsyncSession, bot: User, needed: int, now: float) -> None:
    """Top a bot's wallet up so that it can hold ``needed`` in escrow."""
    wallet = await ledger.wallet_of(session, bot.id)
    if wallet.balance >= needed:
        return
    grants = await ledger.system_account(session, "grants")
    amount = needed + BANK_FLOOR - wallet.balance
    await ledger.transfer(session, "bot_bank", [(grants, -amount), (wallet, amount)], now=now)
