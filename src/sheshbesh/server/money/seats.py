"""Escrow by seat: a chouette table's money (issue 18; CH-10, PL-4, PL-5).

A two-player game's escrow is symmetric (``escrow.top_up`` raises both sides
alike). A chouette table's is not: a crew member holds 3 × his cube × S, the
banker the sum over his crew, and a newcomer 3 × S to sit down. So each seat of
``game_seats`` keeps its own ``held``, and every call here writes balanced
ledger rows in the caller's transaction, the one that stores the table's
events, so money and moves commit together or not at all:

- :func:`take_seat` seats a person (the database refuses one seat twice and one
  person twice at a table);
- :func:`hold_seats` raises listed seats' holds to what they need (a join, a
  game's start, a double offered); whoever cannot cover it gets
  ``insufficient_funds`` and the caller's transaction rolls back;
- :func:`pay_seats` moves stakes between seats: a drop, a forfeit, CH-8's
  settlement: out of the payers' holds, into the receivers' wallets;
- :func:`release_seat` gives a seat its whole hold back (a leaver between
  games, the table's end).

The ledger still sums to zero after every call; the escrow account's balance is
always the sum of the seats' ``held``.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts import trust
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError, Conflict
from sheshbesh.store import ledger
from sheshbesh.store.ledger import InsufficientFunds
from sheshbesh.store.models import Game, GameSeat, User


async def seats_of(session: AsyncSession, game: Game) -> dict[int, GameSeat]:
    """The table's seats still taken, by seat number (locked for update on PostgreSQL)."""
    rows = await session.scalars(
        select(GameSeat)
        .where(GameSeat.game_id == game.id, GameSeat.left_at.is_(None))
        .order_by(GameSeat.seat)
        .with_for_update()
    )
    return {row.seat: row for row in rows}


async def take_seat(
    session: AsyncSession, game: Game, seat: int, user_id: int, now: float
) -> GameSeat:
    """Seat ``user_id`` at ``seat``; one seat twice, or a person seated twice, is refused."""
    taken = await session.scalar(
        select(GameSeat).where(
            GameSeat.game_id == game.id,
            (GameSeat.seat == seat) | ((GameSeat.user_id == user_id) & GameSeat.left_at.is_(None)),
        )
    )
    if taken is not None:
        if taken.user_id == user_id and taken.left_at is None:
            raise Conflict("you already have a seat at this table", code="already_seated")
        raise Conflict(f"seat {seat} is taken", code="seat_taken")
    row = GameSeat(game_id=game.id, seat=seat, user_id=user_id, held=0, joined_at=now,
                   arrived=False)  # fmt: skip
    session.add(row)
    await session.flush()  # the unique keys speak now, inside the caller's transaction
    return row


async def hold_seats(
    club: Club, session: AsyncSession, game: Game, needs: Mapping[int, int], seq: int, now: float
) -> None:
    """PL-5, CH-10: raise each listed seat's hold to its need (FUN); a need below what is
    held leaves the hold as it is. One that cannot be covered, or one over a young
    account's cap (``accounts.trust``), refuses the whole raise."""
    seats = await seats_of(session, game)
    raises: list[tuple[GameSeat, int]] = []
    for seat, need in sorted(needs.items()):
        row = seats.get(seat)
        if row is None:
            raise ValueError(f"seat {seat} is not taken at table {game.id}")
        if need > row.held:
            raises.append((row, need - row.held))
    if not raises:
        return
    for row, _ in raises:
        user = await session.get(User, row.user_id)
        assert user is not None
        await trust.check_stake(club, session, user, row.held + dict(raises)[row], now)
    escrow = await ledger.escrow_of(session, game.id)
    entries = [(await ledger.wallet_of(session, row.user_id), -more) for row, more in raises]
    total = sum(more for _, more in raises)
    try:
        await ledger.transfer(session, "escrow", [*entries, (escrow, total)], now=now,
                              game_id=game.id, seq=seq)  # fmt: skip
    except InsufficientFunds:
        # Never a balance or who is short: the table must not learn anyone's wallet.
        raise ApiError(
            "not enough FUN to hold what the table needs (CH-10, PL-5): "
            + ", ".join(f"seat {row.seat} must hold {row.held + more} FUN" for row, more in raises),
            status=409,
            code="insufficient_funds",
        ) from None
    for row, more in raises:
        row.held += more


async def pay_seats(
    session: AsyncSession, game: Game, payments: Mapping[int, int], seq: int, now: float,
    reason: str = "payout",
) -> None:  # fmt: skip
    """Stakes change hands (FUN, summing to zero): each payer's hold pays what he owes,
    each receiver's wallet gets what he won. A payer who holds too little is a bug
    (the holds are raised before any offer can cost more): nothing is written."""
    if sum(payments.values()) != 0:
        raise ValueError(f"payments must sum to zero, not {payments!r}")
    seats = await seats_of(session, game)
    for seat, amount in payments.items():
        row = seats.get(seat)
        if row is None:
            raise ValueError(f"seat {seat} is not taken at table {game.id}")
        if amount < 0 and row.held < -amount:
            raise ValueError(f"seat {seat} holds {row.held} FUN and cannot pay {-amount}")
    won = {seat: amount for seat, amount in payments.items() if amount > 0}
    if not won:
        return
    escrow = await ledger.escrow_of(session, game.id)
    entries = [(await ledger.wallet_of(session, seats[seat].user_id), amount)
               for seat, amount in sorted(won.items())]  # fmt: skip
    await ledger.transfer(session, reason, [(escrow, -sum(won.values())), *entries], now=now,
                          game_id=game.id, seq=seq)  # fmt: skip
    for seat, amount in payments.items():
        if amount < 0:
            seats[seat].held += amount


async def release_seat(
    session: AsyncSession, game: Game, seat: int, seq: int, now: float, *, leave: bool = True,
    reason: str = "refund",
) -> int:  # fmt: skip
    """Give ``seat`` its whole hold back (and, with ``leave``, free the seat): the FUN
    returned."""
    row = (await seats_of(session, game)).get(seat)
    if row is None:
        raise ValueError(f"seat {seat} is not taken at table {game.id}")
    held = row.held
    if held:
        escrow = await ledger.escrow_of(session, game.id)
        wallet = await ledger.wallet_of(session, row.user_id)
        await ledger.transfer(session, reason, [(escrow, -held), (wallet, held)], now=now,
                              game_id=game.id, seq=seq)  # fmt: skip
        row.held = 0
    if leave:
        row.left_at = now
    return held


async def trim_seats(
    session: AsyncSession, game: Game, needs: Mapping[int, int], seq: int, now: float
) -> None:
    """Give back what seats hold beyond their need (FUN): after a game, a member whose cube
    went up, or who dropped, holds more than the next game's 3 × S (CH-10)."""
    seats = await seats_of(session, game)
    back = {seat: row.held - needs.get(seat, 0) for seat, row in seats.items()}
    back = {seat: amount for seat, amount in back.items() if amount > 0}
    if not back:
        return
    escrow = await ledger.escrow_of(session, game.id)
    entries = [(await ledger.wallet_of(session, seats[seat].user_id), amount)
               for seat, amount in sorted(back.items())]  # fmt: skip
    await ledger.transfer(session, "release", [(escrow, -sum(back.values())), *entries], now=now,
                          game_id=game.id, seq=seq)  # fmt: skip
    for seat, amount in back.items():
        seats[seat].held -= amount
