"""Escrow: what a stored move does to the money (DESIGN principle 4, PL-4, PL-5).

:func:`store_applied` writes a move's events together with its ledger rows: a
top-up when the largest possible loss grows (a double offered, a beaver), or
the payout when the game ends. A top-up that either player cannot cover raises
a clear ``insufficient_funds`` error, and the caller's transaction, events
included, rolls back.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.games.race import Side
from sheshbesh.store import ledger
from sheshbesh.store.ledger import InsufficientFunds
from sheshbesh.store.models import Game, GameEvent, User

from .aftermath import game_over
from .club import Club
from .errors import ApiError
from .tables import Applied, Table


async def store_applied(
    club: Club, session: AsyncSession, game: Game, applied: Applied, now: float
) -> None:
    """Write the events, the clock, the escrow top-up and the payout of one action."""
    table = applied.table
    for event in applied.events:
        session.add(GameEvent(game_id=game.id, seq=event["seq"], event=event, at=now))
    game.seq = table.seq
    if applied.clock is not None:
        game.clock = applied.clock.to_state()
    if table.finished:
        paid = await pay_out(club, session, game, table, now)
        applied.notes.extend(await game_over(session, game, table, applied.events, paid, now))
    else:
        await top_up(club, session, game, table, now)


async def top_up(club: Club, session: AsyncSession, game: Game, table: Table, now: float) -> None:
    """PL-5: hold each side's largest possible loss; a double both cannot cover is refused."""
    needed = game.stake * table.exposure()
    more = needed - min(game.held0, game.held1)
    if more <= 0:
        return
    escrow = await ledger.escrow_of(session, game.id)
    wallets = [await ledger.wallet_of(session, uid) for uid in (game.seat0_id, game.seat1_id)]
    try:
        await ledger.transfer(
            session, "escrow", [(wallets[0], -more), (wallets[1], -more), (escrow, 2 * more)],
            now=now, game_id=game.id, seq=table.seq,
        )  # fmt: skip
    except InsufficientFunds as error:
        short = 0 if error.account.id == wallets[0].id else 1
        name = await session.get(User, (game.seat0_id, game.seat1_id)[short])
        who = name.username if name is not None else f"seat {short}"
        raise ApiError(
            f"not enough FUN to raise the stakes: each player must hold {needed} FUN in escrow"
            f" ({more} more), and {who} has {error.account.balance} (PL-5)",
            status=409,
            code="insufficient_funds",
        ) from None
    game.held0 += more
    game.held1 += more


async def pay_out(
    club: Club, session: AsyncSession, game: Game, table: Table, now: float
) -> tuple[int, int]:
    """Release the escrow: each seat gets back what it held plus its payout (a draw: stakes).

    Returns what each seat won (positive) or lost (negative).
    """
    payout = table.payout() or {}
    seats_paid = [payout.get(table.side_of(seat), 0) * game.stake for seat in (0, 1)]
    held = (game.held0, game.held1)
    escrow = await ledger.escrow_of(session, game.id)
    wallets = [await ledger.wallet_of(session, uid) for uid in (game.seat0_id, game.seat1_id)]
    entries = [(wallets[s], held[s] + seats_paid[s]) for s in (0, 1)]
    if any(amount < 0 for _, amount in entries):
        raise RuntimeError(f"game {game.id}: payout {seats_paid} exceeds escrow {held}")
    await ledger.transfer(
        session, "payout", [*entries, (escrow, -(held[0] + held[1]))],
        now=now, game_id=game.id, seq=table.seq,
    )  # fmt: skip
    game.held0 = game.held1 = 0
    game.status = "finished"
    game.finished_at = now
    result = dict(table.view().get("result") or {})
    winner = result.get("winner")
    result["winner_seat"] = None if winner is None else table.seat_of(Side.from_letter(winner))
    game.result = result
    return seats_paid[0], seats_paid[1]
