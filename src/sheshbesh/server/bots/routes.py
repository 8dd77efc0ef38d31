"""The bots' routes: the list of the club's bots, and a finished game's review by gnubg."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from sheshbesh.bots.analysis import AnalysisError
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import ApiError, NotFound
from sheshbesh.server.rounds.round import events_after
from sheshbesh.store.models import Game

from .host import BotHost

router = APIRouter(prefix="/api/bots", tags=["bots"])
analysis_router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("")
async def bot_list(request: Request) -> list[dict[str, Any]]:
    """The club's bots: who they are, what they play and the largest stake they take."""
    host = club_of(request).find(BotHost)
    return [] if host is None else host.listing()


@analysis_router.get("/{game_id}/analysis")
async def game_analysis(game_id: str, request: Request, plies: int = 1) -> Any:
    """gnubg's review of a finished backgammon-family game: every decision's error and luck.

    Only after the end, so that nobody is coached during play; ``plies`` 0-2
    (2 takes tens of seconds for a long game).
    """
    club = club_of(request)
    host = club.find(BotHost)
    if host is None:
        raise ApiError("this club runs without bots, so without analysis", status=503,
                       code="unavailable")  # fmt: skip
    async with club.db.read() as session:
        game = await session.get(Game, game_id[:12])
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        log_ = await events_after(session, game.id, -1)
    if game.status != "finished":
        raise ApiError("the analysis opens when the game is over", status=409,
                       code="game_live")  # fmt: skip
    if not 0 <= plies <= 2:
        raise ApiError("plies is 0, 1 or 2", status=422, code="invalid_plies")
    try:
        return await host.analysis(game.id, log_, plies)
    except AnalysisError as error:
        raise ApiError(str(error), status=422, code="cannot_analyse") from None
