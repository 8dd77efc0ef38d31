"""Profiles: a player's page (record of results, ratings, play-ban, how the viewer stands
toward him); his balance only for himself (and for bots).

The recent games include the chouette tables he sat at (``game_seats``: a table's row
names no two players), each with what he won or lost there in points; the won, lost and
drawn counts stay those of two-player games, which have one winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import distinct, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.sessions import require_user, user_json
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import NotFound
from sheshbesh.server.standings import playbans
from sheshbesh.server.standings import ratings as standings
from sheshbesh.store import ledger
from sheshbesh.store.models import (
    FriendRequest,
    Game,
    GameSeat,
    RatingChange,
    Relation,
    User,
    players_of,
)

router = APIRouter(prefix="/api", tags=["profiles"])


@router.get("/users/{username}")
async def profile(username: str, request: Request) -> dict[str, Any]:
    """Games played and their results; the balance only for the player himself (and bots)."""
    club = club_of(request)
    viewer = None
    try:
        viewer = await require_user(request)
    except Exception:
        viewer = None
    async with club.db.read() as session:
        user = await session.scalar(select(User).where(User.username_key == username.lower()[:20]))
        if user is None:
            raise NotFound(f"no player {username!r}")
        games = list(
            await session.scalars(
                select(Game)
                .where(or_(Game.seat0_id == user.id, Game.seat1_id == user.id))
                .order_by(Game.created_at.desc())
            )
        )
        tables = await chouette_tables(session, user.id)
        out = user_json(user) | {"created_at": user.created_at} | record_of(user.id, games)
        out["playing"] += sum(
            1 for table in tables if table.seated and table.game.status != "finished"
        )
        out["closed"] = user.closed_at is not None  # by the club's operators (moderation.py)
        if user.is_bot or (viewer is not None and viewer.id == user.id):
            out["balance"] = await ledger.balance_of(session, user.id)  # a bot's is public
        if user.is_bot:
            out["bot"] = {"engine": user.bot_engine} | (user.bot_policy or {})
        out["ratings"] = await standings.all_ratings(session, user.id)
        now = club.now()
        if viewer is not None and viewer.id == user.id:
            out["playban"] = await playbans.standing(session, user.id, now)
        out["relation"] = await relation_between(session, viewer, user)
        recent = await recent_games(session, user.id, games[:RECENT])
        recent += await recent_tables(session, tables[:RECENT])
        recent.sort(key=lambda entry: entry["created_at"], reverse=True)
        out["recent"] = recent[:RECENT]
    return out


RECENT = 20
"""How many games (two-player games and chouette tables together) a profile lists."""


@dataclass(frozen=True)
class SatAt:
    """A chouette table the player sat at: his seats there (one per sitting down)."""

    game: Game
    seats: tuple[int, ...]
    seated: bool
    """Whether he still holds a seat (he has not left)."""


async def chouette_tables(session: AsyncSession, user_id: int) -> list[SatAt]:
    """The chouette tables the player took a seat at, newest first."""
    rows = (await session.execute(
        select(Game, GameSeat.seat, GameSeat.left_at)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .where(GameSeat.user_id == user_id, Game.kind == "chouette")
        .order_by(Game.created_at.desc(), GameSeat.seat)
    )).all()  # fmt: skip
    tables: dict[str, SatAt] = {}
    for game, seat, left_at in rows:
        known = tables.get(game.id)
        seats = (*known.seats, seat) if known else (seat,)
        seated = (known is not None and known.seated) or left_at is None
        tables[game.id] = SatAt(game, seats, seated)
    return list(tables.values())


async def recent_tables(session: AsyncSession, tables: list[SatAt]) -> list[dict[str, Any]]:
    """A profile's entries for chouette tables: how many people sat there and, once the
    table closed, the player's result in points over all his seats (unrated: no change)."""
    ids = [table.game.id for table in tables]
    people = dict((await session.execute(
        select(GameSeat.game_id, func.count(distinct(GameSeat.user_id)))
        .where(GameSeat.game_id.in_(ids)).group_by(GameSeat.game_id)
    )).all())  # fmt: skip
    out = []
    for table in tables:
        game = table.game
        results = (game.result or {}).get("results") if game.status == "finished" else None
        points = None if results is None else sum(results.get(str(s), 0) for s in table.seats)
        out.append({
            "id": game.id, "variant": game.variant, "kind": game.kind, "stake": game.stake,
            "status": game.status, "result": None if points is None else {"points": points},
            "seat": None, "rated": False, "opponent": None, "players": people.get(game.id, 0),
            "rating_change": None, "created_at": game.created_at, "finished_at": game.finished_at,
        })  # fmt: skip
    return out


async def recent_games(session: AsyncSession, user_id: int, games: list[Game]) -> list[Any]:
    """The last games with the opponent's name and what each did to the rating."""
    opponents = {g.seat1_id if g.seat0_id == user_id else g.seat0_id for g in games}
    names = dict((await session.execute(
        select(User.id, User.username).where(User.id.in_(opponents))
    )).all())  # fmt: skip
    changes = {
        row.game_id: round(row.after - row.before, 2)
        for row in await session.scalars(
            select(RatingChange).where(
                RatingChange.user_id == user_id,
                RatingChange.game_id.in_([g.id for g in games]),
            )
        )
    }
    out = []
    for g in games:
        seat = 0 if g.seat0_id == user_id else 1
        out.append({
            "id": g.id, "variant": g.variant, "kind": g.kind, "stake": g.stake,
            "status": g.status, "result": g.result, "seat": seat, "rated": g.rated,
            "opponent": names.get(players_of(g)[1 - seat], "?"),
            "rating_change": changes.get(g.id), "created_at": g.created_at,
            "finished_at": g.finished_at,
        })  # fmt: skip
    return out


async def relation_between(session: AsyncSession, viewer: User | None, user: User) -> str | None:
    """How the viewer stands toward the player: ``self``, ``friend``, ``blocked``,
    ``request_sent``, ``request_received`` or None (strangers, or nobody logged in)."""
    if viewer is None:
        return None
    if viewer.id == user.id:
        return "self"
    kind = await session.scalar(
        select(Relation.kind).where(Relation.user_id == viewer.id, Relation.other_id == user.id)
    )
    if kind == "block":
        return "blocked"
    if kind == "friend":
        return "friend"
    pending = await session.scalar(
        select(FriendRequest.sender_id).where(
            FriendRequest.status == "open",
            or_(
                (FriendRequest.sender_id == viewer.id) & (FriendRequest.recipient_id == user.id),
                (FriendRequest.sender_id == user.id) & (FriendRequest.recipient_id == viewer.id),
            ),
        )
    )
    if pending is None:
        return None
    return "request_sent" if pending == viewer.id else "request_received"


def record_of(user_id: int, games: list[Game]) -> dict[str, int]:
    """Played, won, lost and drawn among finished games."""
    won = lost = drawn = 0
    finished = [g for g in games if g.status == "finished" and g.result]
    for game in finished:
        seat = 0 if game.seat0_id == user_id else 1
        winner = (game.result or {}).get("winner_seat")
        if winner is None:
            drawn += 1
        elif winner == seat:
            won += 1
        else:
            lost += 1
    return {"played": len(finished), "won": won, "lost": lost, "drawn": drawn,
            "playing": sum(1 for g in games if g.status == "live")}  # fmt: skip
