"""Rematch: after a game, either player offers the same game again to the same opponent.

An offer is an ordinary private challenge (``lobby.post_request``), so every check
of the lobby applies (funds, play-bans, blocks, an abandoned game); the request and
the opponent's challenge note carry ``rematch_of``. When both players ask, the second
ask accepts the first offer instead of crossing it with another; any other challenge
between the two is not an offer of this game and is left alone. The request copies
the finished game's: variant, stake, options, clock and rated.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select

from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import Conflict, Forbidden, NotFound
from sheshbesh.store.models import Game, User
from sheshbesh.store.models import Request as GameRequest

from .requests import RACE_FIELDS, RequestIn, accept, post_request

router = APIRouter(prefix="/api/games", tags=["games"])


@router.post("/{game_id}/rematch", status_code=201)
async def rematch(game_id: str, request: Request) -> dict[str, Any]:
    """Offer the finished game again (``{"request": …}``), or take the opponent's
    standing offer (``{"game": …}``)."""
    club = club_of(request)
    user = await require_user(request)
    async with club.db.read() as session:
        game = await session.get(Game, game_id[:20])
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        if user.id not in (game.seat0_id, game.seat1_id):
            raise Forbidden("only the game's players can ask for a rematch", code="not_a_player")
        if game.status == "aborted":
            raise Conflict("the game was aborted before it began; post a new request",
                           code="game_aborted")  # fmt: skip
        if game.status != "finished":
            raise Conflict("the game is still being played", code="game_live")
        origin = await session.scalar(select(GameRequest).where(GameRequest.game_id == game.id))
        opponent = await session.get(User, game.seat1_id if user.id == game.seat0_id
                                     else game.seat0_id)  # fmt: skip
        assert origin is not None and opponent is not None
        offers = list(await session.scalars(select(GameRequest).where(
            GameRequest.status == "open",
            GameRequest.rematch_of == game.id,
            GameRequest.owner_id.in_([user.id, opponent.id]),
        )))  # fmt: skip
    mine = [offer for offer in offers if offer.owner_id == user.id]
    if mine:
        raise Conflict(f"you have already offered a rematch (request {mine[0].id})",
                       code="rematch_offered")  # fmt: skip
    if offers:  # the opponent's offer stands: both asked, so play
        return {"game": await accept(club, offers[0].id, user)}
    options = _options_of(origin)
    if game.variant == "draughts":  # colours change over, as between sets at a club
        options["colour"] = "black" if user.id == game.seat0_id else "white"
    body = RequestIn(variant=game.variant, stake=game.stake, clock=game.control,
                     opponent=opponent.username, rated=origin.rated, **options)  # fmt: skip
    # A bot takes a rematch as it takes any private challenge: by its policy, at once.
    return {"request": await post_request(club, user, body, rematch_of=game.id)}


def _options_of(origin: GameRequest) -> dict[str, Any]:
    """The request fields that give the same table options again."""
    options = origin.options
    if origin.variant == "draughts":
        return {"start": options.get("start"), "move_limit": options.get("move_limit") or None}
    return {name: options[name] for name in RACE_FIELDS if name in options}
