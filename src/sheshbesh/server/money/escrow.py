"""Escrow: what a stored move does to the money (DESIGN principle 4, PL-4, PL-5).

A game holds each side's largest possible loss. :func:`top_up` raises the hold
when that loss grows (the opening escrow, a double offered, a beaver) and
:func:`pay_out` releases it at the end with what each side won or lost. Both
write ledger rows in the caller's transaction, the one that stores the move's
events (``rounds.store``), so money and moves commit together or not at all. A
top-up that either player cannot cover raises a clear ``insufficient_funds``
error (a young account over its cap: ``stake_limit``), and the caller's
transaction, events included, rolls back.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts import trust
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.store import ledger
from sheshbesh.store.ledger import InsufficientFunds
from sheshbesh.store.models import Game, User, players_of


async def top_up(
    club: Club, session: AsyncSession, game: Game, needed: int, seq: int, now: float
) -> None:
    """PL-5: hold ``needed`` FUN from each side; a raise either cannot cover is refused,
    and so is one over a young account's cap (``accounts.trust``)."""
    more = needed - min(game.held0, game.held1)
    if more <= 0:
        return
    if trust.capped(club, needed):  # the players are read only when the cap can apply
        for user in await _players(session, game):
            await trust.check_stake(club, session, user, needed, now)
    escrow, wallets = await ledger.game_accounts(session, game.id, players_of(game))
    try:
        await ledger.transfer(
            session, "escrow", [(wallets[0], -more), (wallets[1], -more), (escrow, 2 * more)],
            now=now, game_id=game.id, seq=seq,
        )  # fmt: skip
    except InsufficientFunds:
        # Never a balance or who is short: the other player must not learn anyone's wallet.
        raise ApiError(
            f"not enough FUN to raise the stakes: each player must hold {needed} FUN in escrow"
            f" ({more} more), and that cannot be covered (PL-5)",
            status=409,
            code="insufficient_funds",
        ) from None
    game.held0 += more
    game.held1 += more


async def can_cover(club: Club, session: AsyncSession, game: Game, needed: int, now: float) -> bool:
    """Would :func:`top_up` to ``needed`` go through (both wallets, the young cap)? What the
    menu asks before it offers a raise the other side did not choose (a beaver)."""
    more = needed - min(game.held0, game.held1)
    if more <= 0:
        return True
    if trust.capped(club, needed):
        for user in await _players(session, game):
            if await trust.is_young(club, session, user, now):
                return False
    balances = await ledger.balances_of(session, players_of(game))
    return all(balance >= more for balance in balances.values())


async def pay_out(
    session: AsyncSession, game: Game, paid: tuple[int, int], seq: int, now: float,
    reason: str = "payout",
) -> None:  # fmt: skip
    """Release the escrow: each seat gets back what it held plus ``paid`` (a draw: 0, 0;
    an aborted game: 0, 0 as a ``refund``)."""
    held = (game.held0, game.held1)
    escrow, wallets = await ledger.game_accounts(session, game.id, players_of(game))
    entries = [(wallets[s], held[s] + paid[s]) for s in (0, 1)]
    if any(amount < 0 for _, amount in entries):
        raise RuntimeError(f"game {game.id}: payout {paid} exceeds escrow {held}")
    await ledger.transfer(
        session, reason, [*entries, (escrow, -(held[0] + held[1]))],
        now=now, game_id=game.id, seq=seq,
    )  # fmt: skip
    game.held0 = game.held1 = 0


async def _players(session: AsyncSession, game: Game) -> list[User]:
    seats = players_of(game)
    return list(await session.scalars(select(User).where(User.id.in_(seats))))
