"""The bots' routes: the list of the club's bots, and a finished game's review (gnubg, dame-rs)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from sheshbesh.bots.analysis import AnalysisError
from sheshbesh.bots.draughts_review import DraughtsAnalysisError
from sheshbesh.bots.gnubg_board import GNUBG_VARIANTS
from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import ApiError, NotFound
from sheshbesh.store.models import Game

from .host import BotHost
from .reviews import Reviewer

REVIEWED = (*GNUBG_VARIANTS, "draughts")
"""The variants a finished game of can be reviewed."""

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

    gnubg reviews backgammon, short nardy and takhte nard; dame-rs reviews draughts
    (``plies`` then picks its nodes per position, see ``bots/draughts_review.py``).

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
