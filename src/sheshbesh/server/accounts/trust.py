"""How far the club trusts an account: the signup limit per address, and young accounts.

FUN is free to anyone who registers, so unlimited accounts would mean unlimited
FUN, passed on by losing on purpose to one main account. Like lichess, the club
limits registrations per address (stored, so every process counts the same rows)
and lets a fresh account do less until it has some history: an account younger
than ``young_days`` or with fewer than ``young_games`` finished games holds at most
``young_stake`` FUN in one game's escrow. Bots are the club's own and exempt. The
pattern of young accounts losing to one account is reported to the operator
(``standings.farming``, ``sheshbesh moderate --reports``).
"""

from __future__ import annotations

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError, TooMany
from sheshbesh.store.models import Game, Signup, User


def address_of(connection: HTTPConnection) -> str:
    """The client's address as the server sees it (a proxy's own, unless it forwards)."""
    return connection.client.host[:64] if connection.client else "unknown"


async def check_signup(club: Club, session: AsyncSession, address: str, now: float) -> None:
    """Refuse (429 with ``Retry-After``) a registration over any of the address's limits."""
    for count, window in club.settings.signup_limits:
        recent = list(
            await session.scalars(
                select(Signup.at)
                .where(Signup.address == address, Signup.at > now - window)
                .order_by(Signup.at.desc())
                .limit(count)
            )
        )
        if count == 0 or len(recent) >= count:
            wait = (recent[-1] + window - now) if recent else window
            raise TooMany(
                f"too many new accounts from your address: at most {count} in"
                f" {_span(window)}; try again later",
                retry_after=max(1.0, wait),
            )


async def record_signup(
    club: Club, session: AsyncSession, address: str, user_id: int, now: float
) -> None:
    """Count a registration from ``address``; rows older than every window are pruned."""
    session.add(Signup(address=address, user_id=user_id, at=now))
    longest = max((window for _, window in club.settings.signup_limits), default=0.0)
    await session.execute(delete(Signup).where(Signup.at < now - longest))


async def is_young(
    club: Club, session: AsyncSession, user: User, now: float, *, excluding: str | None = None
) -> bool:
    """Younger than ``young_days`` or fewer than ``young_games`` finished games (not a bot);
    ``excluding`` a game (the one that is just finishing, to judge the account before it)."""
    settings = club.settings
    if user.is_bot:
        return False
    if user.created_at > now - settings.young_days * 86400:
        return True
    finished = await session.scalar(
        select(func.count())
        .select_from(Game)
        .where(Game.status == "finished")
        .where(or_(Game.seat0_id == user.id, Game.seat1_id == user.id))
        .where(Game.id != (excluding or ""))
    )
    return (finished or 0) < settings.young_games


def capped(club: Club, needed: int) -> bool:
    """Whether holding ``needed`` FUN is over the young accounts' cap, so who the players
    are matters (before that, nobody need be read)."""
    cap = club.settings.young_stake
    return cap is not None and needed > cap


async def check_stake(
    club: Club, session: AsyncSession, user: User, needed: int, now: float, *, status: int = 409
) -> None:
    """Refuse holding ``needed`` FUN in one game's escrow for a young account over the cap."""
    if not capped(club, needed) or not await is_young(club, session, user, now):
        return
    raise ApiError(young_limit(club, needed), status=status, code="stake_limit")


def young_limit(club: Club, needed: int) -> str:
    """The refusal that names the limit (said to the account itself, or of "a player")."""
    settings = club.settings
    return (
        f"a new account (younger than {_span(settings.young_days * 86400)} or with fewer than"
        f" {settings.young_games} finished games) may hold at most {settings.young_stake} FUN"
        f" in a game's escrow; this needs {needed}"
    )


def _span(seconds: float) -> str:
    """A window in words.

    >>> _span(600), _span(86400), _span(7200)
    ('10 minutes', '1 day', '2 hours')
    """
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            amount = round(seconds / size)
            return f"{amount} {unit}{'s' if amount != 1 else ''}"
    return f"{round(seconds)} seconds"
