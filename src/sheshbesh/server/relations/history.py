"""A player's games, newest first, a page at a time: what his profile lists.

Two-player games name him in ``seat0_id`` or ``seat1_id``; a chouette table's row names
no two players, so its tables are read through ``game_seats``. Both come in one order
(when the game was created, then its id) and are cut into pages by the last game shown
(``before``): a page stays right however many games are played meanwhile, and a
player with a hundred thousand games (a bot) costs a page, not his whole history.

His record (played, won, lost, drawn, playing) is counted by the database: the won,
lost and drawn counts are of two-player games, which have one winner; a player's
result at a table is a sum of bets, shown in points on its line with what the table
did to his rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, case, distinct, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.games import VARIANTS
from sheshbesh.server.errors import ApiError
from sheshbesh.store.models import Game, GameSeat, RatingChange, User, players_of

PAGE = 20
"""Games a page lists (the profile shows the first)."""
MAX_PAGE = 100


@dataclass(frozen=True)
class Page:
    games: list[dict[str, Any]]
    next: str | None
    """The ``before`` of the next page: the id of this page's last game (None: no more)."""


async def record(session: AsyncSession, user_id: int) -> dict[str, int]:
    """Played, won, lost and drawn among his finished two-player games; live games and
    the chouette tables where he still holds a seat."""
    seat = case((Game.seat0_id == user_id, 0), else_=1)
    winner = Game.result["winner_seat"].as_integer()
    finished = Game.status == "finished"
    counts = (await session.execute(
        select(
            func.count().filter(finished),
            func.count().filter(finished, winner == seat),
            func.count().filter(finished, winner.is_(None)),
            func.count().filter(Game.status == "live"),
        ).where(or_(Game.seat0_id == user_id, Game.seat1_id == user_id))
    )).one()  # fmt: skip
    played, won, drawn, playing = (int(n or 0) for n in counts)
    tables = await session.scalar(
        select(func.count(distinct(GameSeat.game_id)))
        .join(Game, Game.id == GameSeat.game_id)
        .where(GameSeat.user_id == user_id, GameSeat.left_at.is_(None),
               Game.status != "finished")
    )  # fmt: skip
    return {"played": played, "won": won, "lost": played - won - drawn, "drawn": drawn,
            "playing": playing + int(tables or 0)}  # fmt: skip


async def games_page(
    session: AsyncSession, user_id: int, before: str | None = None, limit: int = PAGE,
    variant: str | None = None,
) -> Page:  # fmt: skip
    """His games older than ``before`` (a game id from an earlier page), ``limit`` of them;
    of one ``variant`` only, or (``"chouette"``) his chouette tables only."""
    if variant is not None and variant not in (*VARIANTS, "chouette"):
        known = ", ".join((*VARIANTS, "chouette"))
        raise ApiError(f"no game {variant!r} (known: {known})", status=422,
                       code="invalid_request")  # fmt: skip
    if not 1 <= limit <= MAX_PAGE:
        raise ApiError(f"limit must be 1 to {MAX_PAGE}", status=422, code="invalid_request")
    older: ColumnElement[bool] | None = None
    if before is not None:
        cursor = await session.get(Game, before[:20])
        if cursor is None:
            raise ApiError(f"no game {before!r} to page from", status=422, code="invalid_request")
        older = or_(
            Game.created_at < cursor.created_at,
            and_(Game.created_at == cursor.created_at, Game.id < cursor.id),
        )
    newest = (Game.created_at.desc(), Game.id.desc())
    page = [] if older is None else [older]
    pairs: list[Game] = []
    if variant != "chouette":
        if variant is not None:
            page.append(Game.variant == variant)
        for seat in (Game.seat0_id, Game.seat1_id):  # each in its index's order (no sort)
            pairs += await session.scalars(
                select(Game).where(seat == user_id, *page).order_by(*newest).limit(limit + 1)
            )
    tables: list[Game] = []
    if variant in (None, "chouette"):
        sat = select(GameSeat.game_id).where(GameSeat.user_id == user_id)
        tables = list(await session.scalars(
            select(Game).where(Game.id.in_(sat), Game.kind == "chouette", *page)
            .order_by(*newest).limit(limit + 1)
        ))  # fmt: skip
    both = sorted([*pairs, *tables], key=lambda g: (g.created_at, g.id), reverse=True)
    shown = both[:limit]
    chosen = {game.id for game in shown}
    entries = {
        **await _pair_entries(session, user_id, [g for g in pairs if g.id in chosen]),
        **await _table_entries(session, user_id, [g for g in tables if g.id in chosen]),
    }
    more = len(both) > limit
    return Page([entries[game.id] for game in shown], shown[-1].id if more else None)


async def _pair_entries(
    session: AsyncSession, user_id: int, games: list[Game]
) -> dict[str, dict[str, Any]]:
    """Two-player games with the opponent's name and what each did to the rating."""
    if not games:
        return {}
    opponents = {g.seat1_id if g.seat0_id == user_id else g.seat0_id for g in games}
    names = dict((await session.execute(
        select(User.id, User.username).where(User.id.in_(opponents))
    )).all())  # fmt: skip
    changes = await _rating_changes(session, user_id, [g.id for g in games])
    out = {}
    for g in games:
        seat = 0 if g.seat0_id == user_id else 1
        out[g.id] = {
            "id": g.id, "variant": g.variant, "kind": g.kind, "stake": g.stake,
            "status": g.status, "result": g.result, "seat": seat, "rated": g.rated,
            "opponent": names.get(players_of(g)[1 - seat], "?"),
            "rating_change": changes.get(g.id), "created_at": g.created_at,
            "finished_at": g.finished_at,
        }  # fmt: skip
    return out


async def _table_entries(
    session: AsyncSession, user_id: int, tables: list[Game]
) -> dict[str, dict[str, Any]]:
    """Chouette tables: how many people sat there, once the table closed his result in
    points over all his seats there (he may leave and sit down again), and what the table
    did to his rating where it was rated."""
    if not tables:
        return {}
    ids = [game.id for game in tables]
    seats: dict[str, list[int]] = {}
    for game_id, seat in (await session.execute(
        select(GameSeat.game_id, GameSeat.seat)
        .where(GameSeat.game_id.in_(ids), GameSeat.user_id == user_id)
    )).all():  # fmt: skip
        seats.setdefault(game_id, []).append(seat)
    people = dict((await session.execute(
        select(GameSeat.game_id, func.count(distinct(GameSeat.user_id)))
        .where(GameSeat.game_id.in_(ids)).group_by(GameSeat.game_id)
    )).all())  # fmt: skip
    changes = await _rating_changes(session, user_id, ids)
    out = {}
    for game in tables:
        results = (game.result or {}).get("results") if game.status == "finished" else None
        points = None
        if results is not None:
            points = sum(results.get(str(seat), 0) for seat in seats.get(game.id, []))
        out[game.id] = {
            "id": game.id, "variant": game.variant, "kind": game.kind, "stake": game.stake,
            "status": game.status, "result": None if points is None else {"points": points},
            "seat": None, "rated": game.rated, "opponent": None,
            "players": people.get(game.id, 0), "rating_change": changes.get(game.id),
            "created_at": game.created_at, "finished_at": game.finished_at,
        }  # fmt: skip
    return out


async def _rating_changes(
    session: AsyncSession, user_id: int, game_ids: list[str]
) -> dict[str, float]:
    """What each of these games (or tables) did to his rating, where it was rated."""
    rows = await session.scalars(
        select(RatingChange).where(
            RatingChange.user_id == user_id, RatingChange.game_id.in_(game_ids)
        )
    )
    return {row.game_id: round(row.after - row.before, 2) for row in rows}
