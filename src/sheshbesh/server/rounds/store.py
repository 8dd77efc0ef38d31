"""Storing an applied action: its events, the clock, the escrow and, at the end, the result.

:func:`store_applied` writes everything one action changes in the caller's
transaction (DESIGN principles 3 and 4): the events with their sequence
numbers, the game row, the escrow's top-up or the payout (``money.escrow``).
When the game ends it emits :class:`GameOver` inside that transaction, so
whatever the other packages write about it (ratings, an offence, result notes)
commits with the last move or not at all. :func:`store_aborted` ends a game that
a player never opened: a refund, and nothing else.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.games.race import Side
from sheshbesh.server.club import Club
from sheshbesh.server.events import GameOver
from sheshbesh.server.money import escrow
from sheshbesh.store.models import Game, GameEvent

from .tables import Applied, Table


async def store_applied(
    club: Club, session: AsyncSession, game: Game, applied: Applied, now: float
) -> None:
    """Write the events, the clock, the escrow top-up and the payout of one action.

    The money goes first: its reads would otherwise flush the game row's new sequence
    number and clock, and the escrow's columns then take a second update of the row."""
    table = applied.table
    paid = _paid(game, table) if table.finished else None
    if paid is None:
        await escrow.top_up(club, session, game, game.stake * table.exposure(), table.seq, now)
    else:
        await escrow.pay_out(session, game, paid, table.seq, now)
    for event in applied.events:
        session.add(GameEvent(game_id=game.id, seq=event["seq"], event=event, at=now))
    game.seq = table.seq
    if applied.clock is not None:
        game.clock = applied.clock.to_state()
    if paid is None:
        return
    _finish(game, table, now)
    over = GameOver(
        session, game, paid, _timed_out(table, applied), _match_length(table), now
    )  # fmt: skip
    await club.events.emit(over)
    applied.notes.extend(over.notes)


async def store_aborted(
    session: AsyncSession, game: Game, absent: tuple[int, ...], now: float
) -> None:
    """Abort a game that a player never opened (issue 16, item 4): each seat's escrow goes
    back as a ``refund`` and nobody wins or loses. No ``GameOver``: no rating, no offence,
    no result; the log stays as it was, the game row says ``aborted`` and who was absent."""
    await escrow.pay_out(session, game, (0, 0), game.seq, now, reason="refund")
    game.status = "aborted"
    game.finished_at = now
    game.result = {"reason": "aborted", "absent": list(absent), "winner_seat": None}


def _paid(game: Game, table: Table) -> tuple[int, int]:
    """What each seat won (positive) or lost (negative) in FUN."""
    payout = table.payout() or {}
    first, second = (payout.get(table.side_of(seat), 0) * game.stake for seat in (0, 1))
    return first, second


def _finish(game: Game, table: Table, now: float) -> None:
    game.status = "finished"
    game.finished_at = now
    result = dict(table.view().get("result") or {})
    winner = result.get("winner")
    result["winner_seat"] = None if winner is None else table.seat_of(Side.from_letter(winner))
    game.result = result


def _timed_out(table: Table, applied: Applied) -> tuple[int, ...]:
    return tuple(
        table.seat_of(Side.from_letter(event["side"]))
        for event in applied.events
        if event.get("type") == "timeout"
    )


def _match_length(table: Table) -> int:
    return int((table.view().get("match") or {}).get("length") or 1)
