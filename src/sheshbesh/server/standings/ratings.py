"""Ratings as the club stores and shows them (the formulas are pure, in ``play/ratings``).

One row per player and pool (the variant). A rated game between two people
changes both ratings. A game with a club bot in it changes only the bot's
rating, against the person's rating as it stands: bots get a rating people can
read (flagged as a bot wherever it is shown), and nobody can farm a bot for
points. Unrated games and games a bot plays against a bot change nothing.

At a rated chouette table each settled bet is a money game between the banker and
one crew member (:func:`rate_bets`), rated as it is paid, one after another, by
the same rules; what the table did to a player's rating is one change per table.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.ratings import (
    FibsRating,
    Glicko2Rating,
    fibs_money_game,
    fibs_update,
    glicko2_game,
    rating_family,
    rating_pool,
)
from sheshbesh.store.db import insert_new
from sheshbesh.store.models import Game, Rating, RatingChange, players_of

AnyRating = FibsRating | Glicko2Rating


def initial(pool: str) -> AnyRating:
    return Glicko2Rating.initial() if rating_family(pool) == "draughts" else FibsRating.initial()


def from_row(row: Rating | None, pool: str) -> AnyRating:
    if row is None:
        return initial(pool)
    kind = Glicko2Rating if rating_family(pool) == "draughts" else FibsRating
    return kind.from_json(row.data)


def rating_json(rating: AnyRating, games: int) -> dict[str, Any]:
    """What a page shows: the number, its text (``?`` while provisional) and the game count."""
    return {
        "rating": round(rating.rating, 2),
        "shown": rating.shown(),
        "provisional": rating.provisional,
        "games": games,
    }


async def ratings_of(
    session: AsyncSession, user_ids: list[int], pool: str
) -> dict[int, dict[str, Any]]:
    """Each user's rating in one pool (the initial one for a player new to it)."""
    rows = {
        row.user_id: row
        for row in await session.scalars(
            select(Rating).where(Rating.user_id.in_(user_ids), Rating.pool == pool)
        )
    }
    return {
        uid: rating_json(from_row(rows.get(uid), pool), rows[uid].games if uid in rows else 0)
        for uid in user_ids
    }


async def owners_ratings(
    session: AsyncSession, pairs: list[tuple[int, str]]
) -> dict[tuple[int, str], dict[str, Any]]:
    """The rating of each (user, variant) pair, in one query (the lobby's list)."""
    ids = sorted({uid for uid, _ in pairs})
    rows = {
        (row.user_id, row.pool): row
        for row in await session.scalars(select(Rating).where(Rating.user_id.in_(ids)))
    }
    out = {}
    for uid, variant in pairs:
        pool = rating_pool(variant)
        row = rows.get((uid, pool))
        out[uid, variant] = rating_json(from_row(row, pool), 0 if row is None else row.games)
    return out


async def all_ratings(session: AsyncSession, user_id: int) -> dict[str, dict[str, Any]]:
    """Every pool the user has played rated games in, by pool name."""
    rows = await session.scalars(select(Rating).where(Rating.user_id == user_id))
    return {row.pool: rating_json(from_row(row, row.pool), row.games) for row in rows}


async def rate_game(
    session: AsyncSession, game: Game, winner_seat: int | None, match_length: int,
    bots: set[int], now: float,
) -> dict[int, tuple[float, float]]:  # fmt: skip
    """Apply a finished rated game; returns user id → (before, after) for changed ratings."""
    seats = players_of(game)
    if not game.rated or all(uid in bots for uid in seats):
        return {}
    pool = rating_pool(game.variant)
    draughts = rating_family(pool) == "draughts"
    if winner_seat is None and not draughts:
        return {}  # FIBS rates no draws (a long nardy last-roll draw changes nothing)
    moving = {uid for uid, other in (seats, seats[::-1]) if _moves_against(other, bots)}
    rows = await _locked_rows(session, set(seats), moving, pool, now)
    old = [from_row(rows.get(uid), pool) for uid in seats]
    new: list[AnyRating]
    if draughts:
        score = 0.5 if winner_seat is None else (1.0 if winner_seat == 0 else 0.0)
        first, second = old
        assert isinstance(first, Glicko2Rating) and isinstance(second, Glicko2Rating)
        new = list(glicko2_game(first, second, score))
    else:
        assert winner_seat is not None
        winner, loser = old[winner_seat], old[1 - winner_seat]
        assert isinstance(winner, FibsRating) and isinstance(loser, FibsRating)
        won, lost = fibs_update(winner, loser, match_length)
        new = [won, lost] if winner_seat == 0 else [lost, won]
    changes: dict[int, tuple[float, float]] = {}
    for seat, uid in enumerate(seats):
        if uid not in moving:
            continue
        _store(session, rows, uid, pool, new[seat], 1, now)
        before, after = old[seat].rating, new[seat].rating
        change = RatingChange(game_id=game.id, user_id=uid, pool=pool, at=now)
        change.before, change.after = before, after
        session.add(change)
        changes[uid] = (before, after)
    return changes


async def rate_bets(
    session: AsyncSession, game: Game, bets: tuple[tuple[int, int, bool], ...],
    bots: set[int], now: float,
) -> dict[int, tuple[float, float]]:  # fmt: skip
    """Rate a chouette game's settled bets (banker, member, the banker won) in order; returns
    user id → (rating before the table's first rated bet, after these) for changed ratings."""
    pool = rating_pool(game.variant)
    users = {uid for banker, member, _ in bets for uid in (banker, member)}
    pairs = [pair for banker, member, _ in bets for pair in ((banker, member), (member, banker))]
    moving = {uid for uid, other in pairs if _moves_against(other, bots)}
    rows = await _locked_rows(session, users, moving, pool, now)
    current: dict[int, FibsRating] = {}
    for uid in users:
        rating = from_row(rows.get(uid), pool)
        assert isinstance(rating, FibsRating)  # chouette is backgammon (CH-1)
        current[uid] = rating
    counted: dict[int, int] = {}
    for banker, member, banker_won in bets:
        winner, loser = (banker, member) if banker_won else (member, banker)
        rated = fibs_money_game(current[winner], current[loser])
        after = dict(zip((winner, loser), rated, strict=True))
        for uid, other in ((banker, member), (member, banker)):
            if not _moves_against(other, bots):
                continue
            current[uid] = after[uid]
            counted[uid] = counted.get(uid, 0) + 1
    changes: dict[int, tuple[float, float]] = {}
    for uid, games in counted.items():
        before = from_row(rows.get(uid), pool).rating
        _store(session, rows, uid, pool, current[uid], games, now)
        change = await session.scalar(
            select(RatingChange).where(RatingChange.game_id == game.id,
                                       RatingChange.user_id == uid)
        )  # fmt: skip
        if change is None:  # the table's first rated bet of this player
            change = RatingChange(game_id=game.id, user_id=uid, pool=pool, at=now)
            change.before = before
            session.add(change)
        change.after, change.at = current[uid].rating, now
        changes[uid] = (change.before, change.after)
    return changes


def _moves_against(other: int, bots: set[int]) -> bool:
    """Whether a rated game against ``other`` moves a player's rating: never against a bot.
    A bot's rating moves against people, a person's only against people (nobody farms a
    bot for points), and two bots change nothing."""
    return other not in bots


async def _locked_rows(
    session: AsyncSession, users: set[int], moving: set[int], pool: str, now: float
) -> dict[int, Rating]:
    """The players' rows in ``pool``, locked until the commit; a row is made first (at the
    initial rating, no games) for each of ``moving`` who has none. Made by ``INSERT … ON
    CONFLICT DO NOTHING`` rather than added at the commit, so two games that end at once
    for a newcomer to the pool (a bot, most often) queue at his row: else both would add
    it and the second commit, with the game's last move in it, would fail."""
    if moving:
        fresh = initial(pool).to_json()
        await session.execute(insert_new(session, Rating, [
            {"user_id": uid, "pool": pool, "data": fresh, "games": 0, "updated_at": now}
            for uid in sorted(moving)
        ]))  # fmt: skip
    rows = await session.scalars(
        select(Rating).where(Rating.user_id.in_(users), Rating.pool == pool).with_for_update()
    )
    return {row.user_id: row for row in rows}


def _store(session: AsyncSession, rows: dict[int, Rating], uid: int, pool: str,
           rating: AnyRating, games: int, now: float) -> None:  # fmt: skip
    """Write a player's new rating after ``games`` more rated games (his row exists:
    :func:`_locked_rows` made it)."""
    row = rows[uid]
    row.data = rating.to_json()
    row.games += games
    row.updated_at = now


async def changes_of(session: AsyncSession, game_id: str) -> dict[int, dict[str, float]]:
    """What a finished game did to each player's rating (empty for an unrated game)."""
    rows = await session.scalars(select(RatingChange).where(RatingChange.game_id == game_id))
    return {
        row.user_id: {"before": round(row.before, 2), "after": round(row.after, 2),
                      "delta": round(row.after - row.before, 2)}
        for row in rows
    }  # fmt: skip
