"""The wallet: a player's ledger history (grant, escrow, payouts, purchases).

The ledger itself (double entry, balances never negative) is ``sheshbesh.store.ledger``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select

from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import club_of
from sheshbesh.store.models import Account, Entry, Transfer

router = APIRouter(prefix="/api", tags=["profiles"])


@router.get("/me/ledger")
async def my_ledger(request: Request, limit: int = 100) -> list[dict[str, Any]]:
    """The player's wallet movements, newest first: grant, escrow, payouts."""
    club = club_of(request)
    user = await require_user(request)
    async with club.db.read() as session:
        rows = await session.execute(
            select(Transfer, Entry.amount)
            .join(Entry, Entry.transfer_id == Transfer.id)
            .join(Account, Account.id == Entry.account_id)
            .where(Account.user_id == user.id)
            .order_by(Transfer.id.desc())
            .limit(max(1, min(limit, 1000)))
        )
        return [
            {"id": t.id, "reason": t.reason, "amount": amount, "game": t.game_id,
             "seq": t.seq, "at": t.created_at}
            for t, amount in rows.all()
        ]  # fmt: skip
