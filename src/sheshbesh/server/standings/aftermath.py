"""What a finished game leaves behind besides the payout: ratings, an offence, result notes.

Subscribed to the rounds' :class:`GameOver`, which is emitted inside the
transaction that stores the game's last event and its payout, so a game is
never finished without them (and a rollback takes them back with it). The
notes are pushed after the commit, with the round's :class:`RoundMoved`.
One handler does the three in order, because the result note shows the rating
change.
"""

from __future__ import annotations

from sqlalchemy import select

from sheshbesh.server.club import Club
from sheshbesh.server.events import BetsSettled, GameOver, TableClosed
from sheshbesh.server.notify import notes as notify
from sheshbesh.store.models import User, players_of

from . import playbans, ratings


async def game_over(over: GameOver) -> None:
    """Rate the game, count an abandonment, and note the result for each person."""
    session, game, now = over.session, over.game, over.now
    seats = players_of(game)
    users = {u.id: u for u in await session.scalars(select(User).where(User.id.in_(seats)))}
    bots = {uid for uid, user in users.items() if user.is_bot}
    result = game.result or {}
    winner = result.get("winner_seat")
    changes = await ratings.rate_game(session, game, winner, over.match_length, bots, now)
    over.rating_changes.update(changes)
    for seat in over.timed_out:
        away = game.away0 if seat == 0 else game.away1
        if away is not None and seats[seat] not in bots:
            await playbans.record_offence(session, seats[seat], game.id, now)
    for seat, uid in enumerate(seats):
        if uid in bots:
            continue
        opponent = users.get(seats[1 - seat])
        data = {
            "game_id": game.id,
            "variant": game.variant,
            "opponent": opponent.username if opponent else "?",
            "outcome": "draw" if winner is None else "won" if winner == seat else "lost",
            "reason": result.get("reason"),
            "payout": over.paid[seat],
        }
        if uid in changes:
            before, after = changes[uid]
            data["rating"] = {"before": round(before, 2), "after": round(after, 2)}
        over.notes.append(await notify.add(session, now, uid, "game_result", data))


async def bets_settled(settled: BetsSettled) -> None:
    """Rate a rated chouette table's settled bets (banker against each member)."""
    session = settled.session
    users = {uid for banker, member, _ in settled.bets for uid in (banker, member)}
    bots = set(await session.scalars(select(User.id).where(User.id.in_(users), User.is_bot)))
    await ratings.rate_bets(session, settled.game, settled.bets, bots, settled.now)


async def table_closed(closed: TableClosed) -> None:
    """Each person who sat at a chouette table learns his result there when it ends, and
    what the table did to his rating (a rated table)."""
    session, game = closed.session, closed.game
    people = set(await session.scalars(
        select(User.id).where(User.id.in_(list(closed.points)), User.is_bot.is_(False))
    ))  # fmt: skip
    changes = await ratings.changes_of(session, game.id)
    for uid, points in sorted(closed.points.items()):
        if uid not in people:
            continue
        data = {"game_id": game.id, "points": points, "fun": points * game.stake,
                "reason": (game.result or {}).get("reason")}  # fmt: skip
        if uid in changes:
            data["rating"] = {"before": changes[uid]["before"], "after": changes[uid]["after"]}
        closed.notes.append(await notify.add(session, closed.now, uid, "table_result", data))


def subscribe(club: Club) -> None:
    club.events.on(GameOver, game_over)
    club.events.on(BetsSettled, bets_settled)
    club.events.on(TableClosed, table_closed)
