"""What a finished game leaves behind besides the payout: ratings, offences, notifications.

Written in the transaction that stores the game's last event and its payout
(escrow.py), so a game is never finished without them; the notifications are
pushed by the round after the commit.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.games.race import Side
from sheshbesh.store.models import Game, Notification, User

from . import notify, playbans, standings
from .tables import Table


async def game_over(
    session: AsyncSession, game: Game, table: Table, events: tuple[dict[str, Any], ...],
    paid: tuple[int, int], now: float,
) -> list[Notification]:  # fmt: skip
    """Rate the game, count an abandonment, and note the result for each person."""
    seats = (game.seat0_id, game.seat1_id)
    users = {u.id: u for u in await session.scalars(select(User).where(User.id.in_(seats)))}
    bots = {uid for uid, user in users.items() if user.is_bot}
    result = game.result or {}
    view = table.view()
    length = int((view.get("match") or {}).get("length") or 1)
    changes = await standings.rate_game(session, game, result.get("winner_seat"), length, bots, now)
    for event in events:
        if event.get("type") == "timeout":
            seat = table.seat_of(Side.from_letter(event["side"]))
            away = game.away0 if seat == 0 else game.away1
            if away is not None and seats[seat] not in bots:
                await playbans.record_offence(session, seats[seat], game.id, now)
    notes = []
    for seat, uid in enumerate(seats):
        if uid in bots:
            continue
        opponent = users.get(seats[1 - seat])
        winner = result.get("winner_seat")
        data = {
            "game_id": game.id,
            "variant": game.variant,
            "opponent": opponent.username if opponent else "?",
            "outcome": "draw" if winner is None else "won" if winner == seat else "lost",
            "reason": result.get("reason"),
            "payout": paid[seat],
        }
        if uid in changes:
            before, after = changes[uid]
            data["rating"] = {"before": round(before, 2), "after": round(after, 2)}
        notes.append(await notify.add(session, now, uid, "game_result", data))
    return notes
