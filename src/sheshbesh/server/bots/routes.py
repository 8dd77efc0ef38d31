"""The bots' routes: the list of the club's bots, a finished game's review (gnubg, the
trained nets, dame-rs), and a bot invited to a chouette table's seat."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from sheshbesh.bots.analysis import AnalysisError
from sheshbesh.bots.draughts_review import DraughtsAnalysisError
from sheshbesh.bots.expectimax import OWN_VARIANTS
from sheshbesh.bots.gnubg_board import GNUBG_VARIANTS
from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import ApiError, Forbidden, NotFound
from sheshbesh.server.lobby import tables
from sheshbesh.store.models import Game, User

from .host import BotHost
from .reviews import Reviewer

REVIEWED = (*GNUBG_VARIANTS, *sorted(OWN_VARIANTS), "draughts")
"""The variants a finished game of can be reviewed: gnubg's three, the five the trained
nets play (``bots/nets/review.py``) and draughts: every game of the club."""

router = APIRouter(prefix="/api/bots", tags=["bots"])
analysis_router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("")
async def bot_list(request: Request) -> list[dict[str, Any]]:
    """The club's bots: who they are, what they play and the largest stake they take."""
    host = club_of(request).find(BotHost)
    return [] if host is None else host.listing()


@analysis_router.get("/{game_id}/analysis")
async def game_analysis(game_id: str, request: Request, plies: int = 1) -> Any:
    """The review of a finished game: every decision's error (and luck, where there are dice).

    gnubg reviews backgammon, short nardy and takhte nard; the trained nets the other
    five race games (``plies`` 0 and 1 at 0-ply, 2 a roll further, see
    ``bots/nets/review.py``); dame-rs reviews draughts (``plies`` then picks its nodes
    per position, see ``bots/draughts_review.py``).

    Only after the end, so that nobody is coached during play, and only for a
    logged-in player; ``plies`` 0-2 (2 takes tens of seconds for a long game).
    Computed once, in the reviewer's own workers, and stored (``reviews``).
    """
    await require_user(request)
    club = club_of(request)
    reviewer = club.find(Reviewer)
    if reviewer is None:
        raise ApiError("this club runs without bots, so without analysis", status=503,
                       code="unavailable")  # fmt: skip
    async with club.db.read() as session:
        game = await session.get(Game, game_id[:12])
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    if game.status == "aborted":
        raise ApiError("the game was aborted before it began: there is nothing to analyse",
                       status=409, code="game_aborted")  # fmt: skip
    if game.status != "finished":
        raise ApiError("the analysis opens when the game is over", status=409,
                       code="game_live")  # fmt: skip
    if not 0 <= plies <= 2:
        raise ApiError("plies is 0, 1 or 2", status=422, code="invalid_plies")
    if game.variant not in REVIEWED:
        raise ApiError(f"no engine here analyses {game.variant}", status=422,
                       code="cannot_analyse")  # fmt: skip
    try:
        return await reviewer.review(game.id, plies)
    except (AnalysisError, DraughtsAnalysisError) as error:
        raise ApiError(str(error), status=422, code="cannot_analyse") from None


table_router = APIRouter(prefix="/api/requests", tags=["lobby"])


@table_router.post("/{request_id}/bot", status_code=201)
async def bot_takes_a_seat(request_id: str, request: Request) -> dict[str, Any]:
    """A chouette table's owner asks a club bot to take the next free seat (the club covers
    its stake, as for every bot). The first backgammon bot not yet seated there sits down."""
    club = club_of(request)
    user = await require_user(request)
    host = club.find(BotHost)
    found, round_ = await tables.table_of(club, request_id)
    if round_.owner_id != user.id:
        raise Forbidden("only the table's owner invites a bot", code="not_owner")
    seated = set(round_.seats)
    candidates = [] if host is None else host.seat_bots(exclude=seated)
    if not candidates:
        raise ApiError("no club bot is free to take a seat here", status=409,
                       code="no_bot")  # fmt: skip
    async with club.db.read() as session:
        bot = await session.get(User, candidates[0])
    assert bot is not None
    seat = await round_.join(bot)
    await tables.announce(club, found, round_)
    return {"seat": seat, "bot": bot.username, "game": round_.id}
