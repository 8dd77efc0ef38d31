"""The lobby's requests: post, list, cancel and accept (``socket.py`` is its live socket).

A request names the variant, the stake and the table's options. The stake is
the value of one point in a money game, or the whole prize of a match; a zero
stake is a free game (PL-3). Accepting is one transaction: the request is
claimed with a guarded ``UPDATE … WHERE status = 'open'`` (of two accepts at
once, exactly one gets the game), both sides' largest loss goes into escrow
(PL-5), the game is created with its opening roll (``rounds.start``), and the
lobby hears of it after the commit. :func:`can_accept` is the one rule for who may accept.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from sheshbesh.games import VARIANTS
from sheshbesh.games.race import find_rules
from sheshbesh.play.clock import InvalidTimeControl, TimeControl
from sheshbesh.play.draughts import DraughtsOptions
from sheshbesh.play.errors import InvalidOptions
from sheshbesh.play.options import NARDY, RaceOptions
from sheshbesh.server.accounts import trust
from sheshbesh.server.accounts.sessions import require_user, user_json, user_of
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError, Conflict, Forbidden, NotFound
from sheshbesh.server.events import RequestPosted
from sheshbesh.server.money.house import cover_bot
from sheshbesh.server.notify import notes as notify
from sheshbesh.server.relations import friends as social
from sheshbesh.server.relations import presence
from sheshbesh.server.rounds.chouette import open_table
from sheshbesh.server.rounds.round import rounds_of
from sheshbesh.server.rounds.start import kind_of, opening_exposure, start_game
from sheshbesh.server.standings import playbans
from sheshbesh.server.standings import ratings as standings
from sheshbesh.store import ledger
from sheshbesh.store.models import Game, GameSeat, User, user_named
from sheshbesh.store.models import Request as GameRequest

router = APIRouter(prefix="/api/requests", tags=["lobby"])


class RequestIn(BaseModel):
    """A new game request; options a variant does not have are refused with the rule's ID."""

    model_config = ConfigDict(extra="forbid")

    variant: str = Field(description="one of the club's variants, e.g. backgammon, draughts")
    stake: StrictInt = Field(ge=0, description="FUN per point (money) or the match prize")
    clock: str = Field(default="untimed", max_length=40,
                       description='"untimed", "delay 12s + 5m" or "fischer 5m + 3s"')  # fmt: skip
    cube: StrictBool | None = None
    beavers: StrictBool | None = None
    jacoby: StrictBool | None = None
    auto_doubles: StrictInt | None = Field(default=None, ge=0, le=3)
    match_length: StrictInt | None = Field(default=None, ge=0, le=25)
    stake_mode: Literal["oin", "mars"] | None = None
    last_roll: StrictBool | None = None
    auto_play_forced: StrictBool | None = None
    move_limit: StrictInt | None = Field(default=None, ge=0, le=1000)
    start: str | None = Field(default=None, max_length=400,
                              description="draughts: a set-up start position (FEN)")  # fmt: skip
    colour: Literal["white", "black", "random"] | None = Field(
        default=None, description="draughts: the owner's colour (white unless chosen)"
    )
    opponent: str | None = Field(default=None, max_length=20,
                                 description="a private challenge: only this player (or bot)"
                                             " sees the request and may accept it")  # fmt: skip
    bots: StrictBool = Field(
        default=False, description="a club bot may accept when nobody has in a while"
    )
    rated: StrictBool = Field(
        default=True, description="the result changes ratings (games between people only)"
    )
    seats: StrictInt | None = Field(
        default=None, ge=3, le=8,
        description="a chouette table (CH-1): its seats, 3-8; the variant is backgammon",
    )  # fmt: skip
    friends_only: StrictBool | None = Field(
        default=None, description="a chouette table: only the owner's friends take seats"
    )


RACE_FIELDS = (
    "cube",
    "beavers",
    "jacoby",
    "auto_doubles",
    "match_length",
    "stake_mode",
    "last_roll",
    "auto_play_forced",
)


def table_options(body: RequestIn) -> tuple[str, dict[str, Any]]:
    """The game kind and its checked options, or :class:`InvalidOptions`."""
    if body.variant not in VARIANTS:
        raise InvalidOptions(f"unknown variant {body.variant!r}; one of: {', '.join(VARIANTS)}")
    if body.seats is not None:
        return chouette_options(body)
    if body.friends_only is not None:
        raise InvalidOptions("friends_only is a chouette table's option (with seats);"
                             " a game for one friend names him as the opponent")  # fmt: skip
    if body.variant == "draughts":
        extra = [name for name in RACE_FIELDS if getattr(body, name) is not None]
        if extra:
            raise InvalidOptions(f"draughts has no {extra[0]} option")
        options = DraughtsOptions(start=body.start, move_limit=body.move_limit or 0).check()
        return "draughts", options.to_json() | {"colour": body.colour or "white"}
    if body.colour is not None:
        raise InvalidOptions("the colour is a draughts option: here the opening roll decides"
                             " who starts (BF-14)")  # fmt: skip
    if body.move_limit is not None or body.start is not None:
        raise InvalidOptions("the move limit and a set-up start are draughts options (DR-21)")
    chosen = {name: getattr(body, name) for name in RACE_FIELDS if getattr(body, name) is not None}
    race = RaceOptions.defaults(body.variant, **chosen)
    return ("match" if race.match_length else "race"), race.to_json()


def chouette_options(body: RequestIn) -> tuple[str, dict[str, Any]]:
    """A chouette table: backgammon, with none of the cube's options (CH-3: each member's
    own cube; no Jacoby, automatic doubles or beavers), rated unless asked not to (each
    bet rated as a money game between banker and member), open to all or to friends."""
    if body.variant != "backgammon":
        raise InvalidOptions("chouette is played on a backgammon board (CH-1)")
    chosen = [name for name in (*RACE_FIELDS, "colour", "move_limit", "start")
              if getattr(body, name) is not None]  # fmt: skip
    if chosen:
        raise InvalidOptions(f"a chouette table has no {chosen[0]} option (CH-3)")
    if body.opponent is not None:
        raise InvalidOptions("a table is not a challenge: open it to all, or to your friends"
                             " (friends_only), and they take seats from the lobby")  # fmt: skip
    return "chouette", {"friends_only": bool(body.friends_only)}


def request_json(
    request: GameRequest, owner: User, invitee: User | None = None,
    rating: dict[str, Any] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A request as the lobby lists it; ``rating`` is the owner's in the request's variant."""
    return {
        "id": request.id,
        "owner": user_json(owner) | {"rating": rating},
        "invitee": None if invitee is None else user_json(invitee),
        "bots": request.bots_may_accept,
        "rated": request.rated,
        "variant": request.variant,
        "stake": request.stake,
        "options": request.options,
        "clock": request.clock,
        "status": request.status,
        "game": request.game_id,
        "created_at": request.created_at,
        "seats": request.seats,
        "rematch_of": request.rematch_of,
    }


def can_accept(request: GameRequest, user_id: int, balance: int, needed: int) -> str | None:
    """Why ``user_id`` may not accept ``request`` (None: he may). The lobby shows the same."""
    if request.status != "open":
        return "the request is no longer open"
    if request.owner_id == user_id:
        return "you cannot accept your own request"
    if request.invitee_id is not None and request.invitee_id != user_id:
        return "this request is a private challenge to another player"
    if balance < needed:
        return f"this game needs {needed} FUN in escrow, more than you can cover"
    return None


async def playing(session: AsyncSession, user_id: int) -> str | None:
    """The id of a live game the user is seated in (a person plays one game at a time:
    nothing may start a second one, issue 17; bots play many)."""
    game = await session.scalar(
        select(Game.id)
        .where(Game.status == "live")
        .where(or_(Game.seat0_id == user_id, Game.seat1_id == user_id))
        .limit(1)
    )
    if game is None:  # or seated at a chouette table, waiting for its first game or in play
        game = await session.scalar(
            select(GameSeat.game_id)
            .join(Game, Game.id == GameSeat.game_id)
            .where(GameSeat.user_id == user_id, GameSeat.left_at.is_(None))
            .where(Game.status.in_(("waiting", "live")))
            .limit(1)
        )
    return game


async def _check_not_playing(session: AsyncSession, user: User, doing: str) -> None:
    if user.is_bot:
        return
    game = await playing(session, user.id)
    if game is not None:
        raise Conflict(f"finish your game {game} before {doing}", code="playing")


async def _hold_players(session: AsyncSession, user_ids: list[int]) -> None:
    """Lock both players' rows until the commit (PostgreSQL), in id order: two accepts of
    one player's requests at the same moment start one game, never two."""
    await session.execute(
        select(User.id).where(User.id.in_(sorted(user_ids))).order_by(User.id).with_for_update()
    )


async def _withdraw_others(
    session: AsyncSession, user_ids: list[int], keep: str
) -> list[GameRequest]:
    """The other open requests of the players whose game just started: withdrawn, so that
    no one (a bot within 30 s) starts a second game for a player who is busy."""
    found = list(
        await session.scalars(
            select(GameRequest).where(
                GameRequest.owner_id.in_(user_ids),
                GameRequest.status == "open",
                GameRequest.id != keep,
            )
        )
    )
    return [request for request in found if await close_request(session, request, "withdrawn")]


# --- routes ---------------------------------------------------------------------------


@router.post("", status_code=201)
async def create_request(body: RequestIn, request: Request) -> dict[str, Any]:
    club = club_of(request)
    user = await require_user(request)
    return await post_request(club, user, body)


Guard = Callable[[AsyncSession], Awaitable[None]]
"""What a caller checks first in :func:`post_request`'s transaction, under its own lock."""


async def post_request(
    club: Club, user: User, body: RequestIn, *, rematch_of: str | None = None,
    guard: Guard | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Every check, then the request, its challenge note and the lobby's news (one path
    for the request form, challenges and rematches). ``guard`` runs first in the write
    transaction: what made a caller post (no offer to take, no request to play) is
    decided again there, under a lock, so that two posts at once see each other."""
    check_max_stake(club, body.stake)
    kind, options = table_options(body)
    try:
        control = TimeControl.parse(body.clock)
    except InvalidTimeControl as error:
        raise ApiError(f"clock: {error}", status=422, code="invalid_clock") from None
    needed = body.stake * opening_exposure(kind, body.variant, options)
    async with club.db.transaction() as session:
        if guard is not None:
            await guard(session)
        await _check_open_requests(club, session, user)
        invitee = await _invitee(session, body.opponent, user)
        check_bot_policy(invitee, body.variant, body.stake)
        if invitee is not None and await social.blocked_between(session, user.id, invitee.id):
            raise Forbidden(f"you cannot challenge {invitee.username}", code="cannot_send")
        await _check_not_playing(session, user, "opening a new request")
        await playbans.check_not_banned(session, user.id, club.now())
        await trust.check_stake(club, session, user, needed, club.now(), status=422)
        balance = await ledger.balance_of(session, user.id)
        if balance < needed:
            raise ApiError(
                f"this request needs {needed} FUN in escrow, more than you can cover",
                status=409,
                code="insufficient_funds",
            )
        game_request = GameRequest(
            id=club.new_id(), owner_id=user.id, variant=body.variant, stake=body.stake,
            options=options, clock=str(control), status="open", created_at=club.now(),
            invitee_id=None if invitee is None else invitee.id,
            bots_may_accept=body.bots and invitee is None and kind != "chouette",
            rated=body.rated,
            seats=body.seats,
            rematch_of=rematch_of,
        )  # fmt: skip
        session.add(game_request)
        if kind == "chouette":
            await session.flush()
            game_request.game_id = (await open_table(club, session, game_request, user,
                                                     club.new_id())).id  # fmt: skip
        rating = (await standings.ratings_of(session, [user.id], body.variant))[user.id]
        notes = []
        if invitee is not None and not invitee.is_bot:
            challenge = {"request_id": game_request.id, "from": user.username,
                         "variant": body.variant, "stake": body.stake}  # fmt: skip
            if rematch_of is not None:
                challenge["rematch_of"] = rematch_of
            notes.append(await notify.add(session, club.now(), invitee.id, "challenge", challenge))
    view = request_json(game_request, user, invitee, rating)
    if game_request.game_id is not None:  # a chouette table: its seats, as the lobby lists it
        view["table"] = (await rounds_of(club).get(game_request.game_id)).summary()
    await publish_request(club, game_request, "request_added", view)
    await notify.push(club, notes)
    await club.events.emit(RequestPosted(game_request, invitee))
    return view


def check_max_stake(club: Club, stake: int) -> None:
    """Refuse a stake over the club's largest, before any query meets it (a stake past
    the database's integers would fail there)."""
    if stake > club.settings.max_stake:
        raise ApiError(f"the largest stake is {club.settings.max_stake} FUN", status=422,
                       code="invalid_stake")  # fmt: skip


async def _check_open_requests(club: Club, session: AsyncSession, user: User) -> None:
    """At most ``max_open_requests`` at once; the owner's row is held until the commit
    (PostgreSQL), so posts at the same moment are counted one after the other."""
    await session.execute(select(User.id).where(User.id == user.id).with_for_update(key_share=True))
    count = await session.scalar(
        select(func.count())
        .select_from(GameRequest)
        .where(GameRequest.owner_id == user.id, GameRequest.status == "open")
    )
    most = club.settings.max_open_requests
    if (count or 0) >= most:
        raise Conflict(
            f"you have {count} open requests, the most one may have ({most}); cancel one first",
            code="too_many_requests",
        )


async def _invitee(session: AsyncSession, name: str | None, user: User) -> User | None:
    """The player a private challenge names; refused for oneself or an unknown name."""
    if name is None:
        return None
    invitee = await user_named(session, name)
    if invitee is None:
        raise NotFound(f"no player {name!r}")
    if invitee.id == user.id:
        raise ApiError("you cannot challenge yourself", status=422, code="invalid_opponent")
    if invitee.closed_at is not None:
        raise ApiError(f"{invitee.username}'s account is closed", status=422,
                       code="invalid_opponent")  # fmt: skip
    return invitee


def check_bot_policy(invitee: User | None, variant: str, stake: int) -> None:
    """A bot challenged privately still plays only its variants, up to its stake."""
    policy = None if invitee is None else invitee.bot_policy
    if invitee is None or not invitee.is_bot or policy is None:
        return
    if variant not in policy.get("variants", ()):
        raise ApiError(f"{invitee.username} plays {', '.join(policy['variants'])}, not {variant}",
                       status=422, code="invalid_opponent")  # fmt: skip
    if stake > policy.get("max_stake", 0):
        raise ApiError(f"{invitee.username} plays for at most {policy['max_stake']} FUN",
                       status=422, code="invalid_opponent")  # fmt: skip


async def publish_request(club: Club, found: GameRequest, kind: str, data: dict[str, Any]) -> None:
    """Tell the lobby, or for a private challenge only its two players."""
    text = json.dumps({"t": kind, "d": data})
    if found.invitee_id is None:
        await club.bus.publish("lobby", text)
        return
    for uid in (found.owner_id, found.invitee_id):
        await club.bus.publish(f"user:{uid}", text)


@router.get("/variants")
async def variants() -> list[dict[str, Any]]:
    """What a request form may offer for each game: options, defaults and limits (GEN-3)."""
    out: list[dict[str, Any]] = []
    for name in VARIANTS:
        if name == "draughts":
            defaults = DraughtsOptions().to_json() | {"colour": "random"}  # the form's choice
            out.append({"variant": name, "options": ["colour", "move_limit"], "defaults": defaults})
            continue
        defaults = RaceOptions.defaults(name).to_json()
        rules = find_rules(name)
        options = (
            ["cube", "beavers", "jacoby", "auto_doubles", "match_length"] if rules.cube else []
        )
        if name in NARDY:
            options.append("stake_mode")
        if rules.last_roll:
            options.append("last_roll")
        options.append("auto_play_forced")
        out.append({"variant": name, "options": options, "defaults": defaults})
    return out


@router.get("")
async def open_requests(request: Request) -> list[dict[str, Any]]:
    club = club_of(request)
    user = await user_of(club, request)
    return await open_request_views(club, None if user is None else user.id)


async def open_request_views(club: Club, viewer: int | None = None) -> list[dict[str, Any]]:
    """Every open request ``viewer`` may see, oldest first: public ones and his challenges."""
    invitee = aliased(User)
    visible: ColumnElement[bool] = GameRequest.invitee_id.is_(None)
    if viewer is not None:
        visible = or_(visible, GameRequest.invitee_id == viewer, GameRequest.owner_id == viewer)
    async with club.db.read() as session:
        rows = await session.execute(
            select(GameRequest, User, invitee)
            .join(User, User.id == GameRequest.owner_id)
            .outerjoin(invitee, invitee.id == GameRequest.invitee_id)
            .where(GameRequest.status == "open", visible)
            .order_by(GameRequest.created_at)
        )
        found = rows.all()
        ratings = await standings.owners_ratings(
            session, [(owner.id, r.variant) for r, owner, _ in found]
        )
        views = [request_json(r, owner, to, ratings[owner.id, r.variant]) for r, owner, to in found]
    for view in views:
        if view["seats"] is not None and view["game"] is not None:  # a chouette table's seats
            view["table"] = (await rounds_of(club).get(view["game"])).summary()
    return views


@router.delete("/{request_id}")
async def cancel_request(request_id: str, request: Request) -> dict[str, Any]:
    club = club_of(request)
    user = await require_user(request)
    async with club.db.transaction() as session:
        found = await session.get(GameRequest, request_id[:20])
        if found is None:
            raise NotFound(f"no request {request_id!r}")
        if user.id not in (found.owner_id, found.invitee_id):
            raise Forbidden("only the request's owner can cancel it (or its invitee decline it)")
        if not await close_request(session, found, "cancelled"):
            raise Conflict("the request is no longer open", code="request_closed")
    await publish_request(club, found, "request_removed", {"id": found.id})
    return {"ok": True}


async def close_request(session: AsyncSession, found: GameRequest, status: str) -> bool:
    """Close an open request (cancelled, withdrawn); False if it was no longer open."""
    claimed = await session.execute(
        update(GameRequest)
        .where(GameRequest.id == found.id, GameRequest.status == "open")
        .values(status=status)
    )
    return bool(claimed.rowcount == 1)  # type: ignore[attr-defined]


@router.post("/{request_id}/accept", status_code=201)
async def accept_request(request_id: str, request: Request) -> dict[str, Any]:
    """Claim the request, escrow both stakes and start the game, all or nothing."""
    club = club_of(request)
    user = await require_user(request)
    return await accept(club, request_id, user)


async def accept(club: Club, request_id: str, user: User) -> dict[str, Any]:
    """The one way a request becomes a game, for people and bots alike."""
    game_id = club.new_id()
    async with club.db.transaction() as session:
        found = await session.get(GameRequest, request_id[:20])
        if found is None:
            raise NotFound(f"no request {request_id!r}")
        kind = kind_of(found)
        if kind == "chouette":
            raise Conflict("a chouette table is joined, not accepted: take a seat",
                           code="cannot_accept")  # fmt: skip
        needed = found.stake * opening_exposure(kind, found.variant, found.options)
        balance = await ledger.balance_of(session, user.id)
        if user.is_bot:
            balance = max(balance, needed)  # the club covers its bots' stakes (money.house)
        why = can_accept(found, user.id, balance, needed)
        if why is not None:
            code = "insufficient_funds" if "escrow" in why else "cannot_accept"
            raise ApiError(why, status=409, code=code)
        await _hold_players(session, [found.owner_id, user.id])
        await _check_not_playing(session, user, "starting another")
        owner = await session.get(User, found.owner_id)
        if owner is not None and not owner.is_bot and await playing(session, owner.id):
            raise Conflict(f"{owner.username} is playing another game now", code="cannot_accept")
        if not user.is_bot:
            await playbans.check_not_banned(session, user.id, club.now())
        await trust.check_stake(club, session, user, needed, club.now())
        if await social.blocked_between(session, user.id, found.owner_id):
            raise Forbidden("you cannot play this player", code="cannot_send")
        claimed = await session.execute(
            update(GameRequest)
            .where(GameRequest.id == found.id, GameRequest.status == "open")
            .values(status="accepted", game_id=game_id)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict("someone else accepted this request first", code="request_closed")
        if user.is_bot:
            await cover_bot(session, user, needed, club.now())
        short = owner is not None and await ledger.balance_of(session, owner.id) < needed
        if short and owner is not None and not owner.is_bot:  # he spent it since posting
            raise ApiError(  # that it cannot be covered; never how much he has
                f"this game needs {needed} FUN in escrow from each player, and its owner"
                " cannot cover that now",
                status=409,
                code="insufficient_funds",
            )
        game = await start_game(club, session, found, game_id, user.id)
        busy = [u.id for u in (owner, user) if u is not None and not u.is_bot]
        withdrawn = await _withdraw_others(session, busy, keep=found.id)
        notes = []
        if owner is not None and not owner.is_bot:
            accepted = {"game_id": game.id, "by": user.username, "variant": found.variant,
                        "stake": found.stake, "request_id": found.id}  # fmt: skip
            notes.append(await notify.add(session, club.now(), owner.id, "request_accepted",
                                          accepted))  # fmt: skip
    for closed in (found, *withdrawn):
        await publish_request(club, closed, "request_removed", {"id": closed.id})
    await notify.push(club, notes)
    await presence.refresh(club, [found.owner_id, user.id])
    round_ = await rounds_of(club).get(game.id)
    summary = round_.summary()
    await club.bus.publish("lobby", json.dumps({"t": "game_started", "d": summary}))
    started = json.dumps({"t": "game_started", "d": summary})
    for uid in (found.owner_id, user.id):
        await club.bus.publish(f"user:{uid}", started)
    return summary
