"""Quick pairing: one click plays a common game (issue 17, "Lobby").

The lobby shows a row of buttons, each a game, a stake and a clock with the game's
default options. A click accepts the oldest open public request of someone else
that is exactly that (same variant, stake, clock, options and rating choice); when
there is none, or every one is taken first by someone else, it posts that request
instead, so the next person who clicks the same button plays him. Both ways go
through the lobby's own :func:`post_request` and :func:`accept`, with every check
they make (one game at a time, funds, play-bans, blocks). Clicks at the same moment
look again in the post's transaction, under a lock on the button (``store.db.serialise``):
one player's several clicks leave one request, and two players' clicks start one game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.clock import InvalidTimeControl, TimeControl
from sheshbesh.play.errors import InvalidOptions
from sheshbesh.server.accounts.sessions import require_user
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError
from sheshbesh.store.db import serialise
from sheshbesh.store.models import Request as GameRequest
from sheshbesh.store.models import User

from .requests import (
    Guard,
    RequestIn,
    accept,
    check_max_stake,
    post_request,
    request_json,
    table_options,
)

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
    check_max_stake(club, body.stake)  # before a query meets it
    wanted = RequestIn(variant=body.variant, stake=body.stake, clock=body.clock, bots=True)
    try:
        _, options = table_options(wanted)
        clock = str(TimeControl.parse(body.clock))
    except (InvalidOptions, InvalidTimeControl) as error:
        raise ApiError(str(error), status=422, code="invalid_options") from None
    button = Button(body.variant, body.stake, clock, options)
    async with club.db.read() as session:
        candidates = await _matching(session, user, button)
    passed: set[str] = set()
    while True:  # each turn passes over at least one request more, so it ends
        game = await _play_first(club, user, candidates, passed)
        if game is not None:
            return {"game": game}
        try:
            posted = await post_request(club, user, wanted, guard=_first_look(user, button, passed))
        except _Waiting as waiting:  # a second click on the same button: still that one request
            return {"request": waiting.view}
        except _Matched as matched:  # posted a moment ago by another click: play it
            candidates = matched.ids
        else:
            return {"request": posted}


@dataclass(frozen=True, slots=True)
class Button:
    """The game a click asks for, exactly."""

    variant: str
    stake: int
    clock: str
    options: dict[str, Any]

    @property
    def lock(self) -> str:
        """The name :func:`serialise` locks: every click on this button, whoever clicks."""
        options = json.dumps(self.options, sort_keys=True)
        return f"quick:{self.variant}:{self.stake}:{self.clock}:{options}"


class _Waiting(Exception):
    """This player's own request for the button is open: no second one."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(view["id"])
        self.view = view


class _Matched(Exception):
    """Others' requests for the button are open now: play one, post none."""

    def __init__(self, ids: list[str]) -> None:
        super().__init__(ids)
        self.ids = ids


async def _play_first(
    club: Club, user: User, candidates: list[str], passed: set[str]
) -> dict[str, Any] | None:
    """The game of the first candidate this player gets; those passed over are added to
    ``passed``, so that they are not offered again."""
    for candidate in candidates:
        try:
            return await accept(club, candidate, user)
        except ApiError as error:
            if error.code not in PASSED_OVER:
                raise
            passed.add(candidate)
    return None


def _first_look(user: User, button: Button, passed: set[str]) -> Guard:
    """The look before posting, again in the post's own transaction under the button's
    lock: of clicks at one moment, each later one sees the request the first posted,
    his own (no duplicate) or another's (the two play, rather than both waiting)."""

    async def guard(session: AsyncSession) -> None:
        await serialise(session, button.lock)
        matching = [id_ for id_ in await _matching(session, user, button) if id_ not in passed]
        if matching:
            raise _Matched(matching)
        waiting = await _own_waiting(session, user, button)
        if waiting is not None:
            raise _Waiting(waiting)

    return guard


async def _own_waiting(session: AsyncSession, user: User, button: Button) -> dict[str, Any] | None:
    found = await session.scalars(
        select(GameRequest).where(
            GameRequest.status == "open", GameRequest.owner_id == user.id,
            GameRequest.invitee_id.is_(None), GameRequest.variant == button.variant,
            GameRequest.stake == button.stake, GameRequest.clock == button.clock,
        )
    )  # fmt: skip
    for request in found:
        if request.options == button.options:
            return request_json(request, user)
    return None


async def _matching(session: AsyncSession, user: User, button: Button) -> list[str]:
    """Open public requests of others that are exactly this game, oldest first."""
    found = await session.scalars(
        select(GameRequest)
        .where(
            GameRequest.status == "open",
            GameRequest.invitee_id.is_(None),
            GameRequest.owner_id != user.id,
            GameRequest.variant == button.variant,
            GameRequest.stake == button.stake,
            GameRequest.clock == button.clock,
            GameRequest.rated.is_(True),
        )
        .order_by(GameRequest.created_at)
    )
    return [request.id for request in found if request.options == button.options]
