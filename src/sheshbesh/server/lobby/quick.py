"""Quick pairing: one click plays a common game (issue 17, "Lobby").

The lobby shows a row of buttons, each a game, a stake and a clock with the game's
default options. A click accepts the oldest open public request of someone else
that is exactly that (same variant, stake, clock, options and rating choice); when
there is none, or every one is taken first by someone else, it posts that request
instead, so the next person who clicks the same button plays him. Both ways go
through the lobby's own :func:`post_request` and :func:`accept`, with every check
they make (one game at a time, funds, play-bans, blocks).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import select

from sheshbesh.play.clock import InvalidTimeControl, TimeControl
from sheshbesh.play.errors import InvalidOptions
from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError
from sheshbesh.store.models import Request as GameRequest
from sheshbesh.store.models import User

from .requests import RequestIn, accept, post_request, request_json, table_options

router = APIRouter(prefix="/api/requests", tags=["lobby"])

PRESETS: tuple[tuple[str, int, str], ...] = (
    ("backgammon", 100, "delay 12s + 5m"),
    ("backgammon", 1000, "delay 12s + 10m"),
    ("long_nardy", 100, "delay 12s + 5m"),
    ("short_nardy", 100, "delay 12s + 5m"),
    ("plakoto", 100, "delay 12s + 5m"),
    ("draughts", 100, "fischer 5m + 5s"),
)
"""The lobby's buttons: (variant, stake, clock), each with its variant's defaults."""


PASSED_OVER = frozenset({"request_closed", "cannot_accept"})
"""Refusals that concern that request, not this player (taken a moment ago, its owner
now in another game): the next one is tried."""


class QuickIn(BaseModel):
    """What a quick-pairing button asks for."""

    model_config = ConfigDict(extra="forbid")

    variant: str = Field(description="one of the club's variants")
    stake: StrictInt = Field(ge=0, description="FUN per point")
    clock: str = Field(default="untimed", max_length=40, description="as for a request")


@router.get("/quick")
async def presets() -> list[dict[str, Any]]:
    """The quick-pairing buttons the lobby shows."""
    return [{"variant": v, "stake": s, "clock": c} for v, s, c in PRESETS]


@router.post("/quick", status_code=201)
async def quick_pair(body: QuickIn, request: Request) -> dict[str, Any]:
    """Play the oldest matching request of someone else, else post one: ``{"game": …}``
    when a game started, ``{"request": …}`` when this player now waits for one."""
    club = club_of(request)
    user = await require_user(request)
    wanted = RequestIn(variant=body.variant, stake=body.stake, clock=body.clock, bots=True)
    try:
        _, options = table_options(wanted)
        clock = str(TimeControl.parse(body.clock))
    except (InvalidOptions, InvalidTimeControl) as error:
        raise ApiError(str(error), status=422, code="invalid_options") from None
    for candidate in await _matching(club, user, body.variant, body.stake, clock, options):
        try:
            return {"game": await accept(club, candidate, user)}
        except ApiError as error:
            if error.code not in PASSED_OVER:
                raise
    waiting = await _own_waiting(club, user, body.variant, body.stake, clock, options)
    if waiting is not None:  # a second click on the same button: still that one request
        return {"request": waiting}
    return {"request": await post_request(club, user, wanted)}


async def _own_waiting(
    club: Club, user: User, variant: str, stake: int, clock: str, options: dict[str, Any]
) -> dict[str, Any] | None:
    async with club.db.read() as session:
        found = await session.scalars(
            select(GameRequest).where(
                GameRequest.status == "open", GameRequest.owner_id == user.id,
                GameRequest.invitee_id.is_(None), GameRequest.variant == variant,
                GameRequest.stake == stake, GameRequest.clock == clock,
            )
        )  # fmt: skip
        for request in found:
            if request.options == options:
                return request_json(request, user)
    return None


async def _matching(
    club: Club, user: User, variant: str, stake: int, clock: str, options: dict[str, Any]
) -> list[str]:
    """Open public requests of others that are exactly this game, oldest first."""
    async with club.db.read() as session:
        found = await session.scalars(
            select(GameRequest)
            .where(
                GameRequest.status == "open",
                GameRequest.invitee_id.is_(None),
                GameRequest.owner_id != user.id,
                GameRequest.variant == variant,
                GameRequest.stake == stake,
                GameRequest.clock == clock,
                GameRequest.rated.is_(True),
            )
            .order_by(GameRequest.created_at)
        )
        return [request.id for request in found if request.options == options]
