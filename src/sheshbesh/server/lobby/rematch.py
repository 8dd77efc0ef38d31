"""Rematch: after a game, either player offers the same game again to the same opponent.

An offer is an ordinary private challenge (``lobby.post_request``), so every check
of the lobby applies (funds, play-bans, blocks, an abandoned game); the request and
the opponent's challenge note carry ``rematch_of``. When both players ask, the second
ask accepts the first offer instead of crossing it with another, even at the same
moment: the check is made again in the post's transaction under the game's lock
(``store.db.serialise``). Any other challenge between the two is not an offer of this
game and is left alone. The request copies the finished game's: variant, stake,
options, clock and rated.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import Conflict, Forbidden, NotFound
from sheshbesh.store.db import serialise
from sheshbesh.store.models import Game, User
from sheshbesh.store.models import Request as GameRequest

from .requests import RACE_FIELDS, Guard, RequestIn, accept, post_request

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
        offer = await _offer_to_take(session, game.id, user.id, opponent.id)
    if offer is None:
        body = _offer_of(game, origin, user, opponent)
        guard = _no_offer_yet(game.id, user.id, opponent.id)
        # A bot takes a rematch as it takes any private challenge: by its policy, at once.
        try:
            posted = await post_request(club, user, body, rematch_of=game.id, guard=guard)
        except _OfferStands as stands:  # the opponent asked a moment before: both asked
            offer = stands.request_id
        else:
            return {"request": posted}
    return {"game": await accept(club, offer, user)}


class _OfferStands(Exception):
    """The opponent's offer was posted while this ask looked: take it, post none."""

    def __init__(self, request_id: str) -> None:
        super().__init__(request_id)
        self.request_id = request_id


def _no_offer_yet(game_id: str, user_id: int, opponent_id: int) -> Guard:
    """The check that an offer is still to be made, again in the post's own transaction
    under the game's lock: of two asks at one moment, the later sees the first's offer
    and takes it instead of crossing it with a second."""

    async def guard(session: AsyncSession) -> None:
        await serialise(session, f"rematch:{game_id}")
        offer = await _offer_to_take(session, game_id, user_id, opponent_id)
        if offer is not None:
            raise _OfferStands(offer)

    return guard


async def _offer_to_take(
    session: AsyncSession, game_id: str, user_id: int, opponent_id: int
) -> str | None:
    """The opponent's standing offer of this rematch (None: there is none), or refused
    when only one's own stands. Both may stand (asks that crossed before they were
    serialised): the opponent's is taken, which withdraws one's own, so Rematch never
    sticks at ``rematch_offered``."""
    offers = list(await session.scalars(select(GameRequest).where(
        GameRequest.status == "open",
        GameRequest.rematch_of == game_id,
        GameRequest.owner_id.in_([user_id, opponent_id]),
    ).order_by(GameRequest.created_at)))  # fmt: skip
    theirs = [offer for offer in offers if offer.owner_id == opponent_id]
    if theirs:
        return theirs[0].id
    if offers:
        raise Conflict(f"you have already offered a rematch (request {offers[0].id})",
                       code="rematch_offered")  # fmt: skip
    return None


def _offer_of(game: Game, origin: GameRequest, user: User, opponent: User) -> RequestIn:
    """The finished game's request again, as a private challenge to the opponent."""
    options = _options_of(origin)
    if game.variant == "draughts":  # colours change over, as between sets at a club
        options["colour"] = "black" if user.id == game.seat0_id else "white"
    return RequestIn(variant=game.variant, stake=game.stake, clock=game.control,
                     opponent=opponent.username, rated=origin.rated, **options)  # fmt: skip


def _options_of(origin: GameRequest) -> dict[str, Any]:
    """The request fields that give the same table options again."""
    options = origin.options
    if origin.variant == "draughts":
        return {"start": options.get("start"), "move_limit": options.get("move_limit") or None}
    return {name: options[name] for name in RACE_FIELDS if name in options}
