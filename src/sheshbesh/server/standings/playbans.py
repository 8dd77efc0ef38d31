"""Play-bans as the club stores and enforces them (the schedule is pure: ``play/playban.py``).

An offence is stored when a game ends by a timeout of the player to act while
none of his sockets was open (he had left the room: ``away`` was set). A
player who is banned cannot post or accept requests until the ban ends; the
refusal says why and until when, and the profile shows it to the player.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.playban import WINDOW, PlayBan, current_ban, next_ban_if_offence
from sheshbesh.server.errors import ApiError
from sheshbesh.store.models import Offence


class PlayBanned(ApiError):
    status, code = 403, "playban"


async def offences_of(session: AsyncSession, user_id: int, now: float) -> list[float]:
    """When the user's offences happened (two windows back: the older one numbers the newer)."""
    rows = await session.scalars(
        select(Offence.at).where(Offence.user_id == user_id, Offence.at > now - 2 * WINDOW)
    )
    return list(rows)


async def record_offence(session: AsyncSession, user_id: int, game_id: str, now: float) -> None:
    session.add(Offence(user_id=user_id, game_id=game_id, at=now))


async def check_not_banned(session: AsyncSession, user_id: int, now: float) -> None:
    """Refuse with :class:`PlayBanned` while a ban runs."""
    ban = current_ban(await offences_of(session, user_id, now), now)
    if ban is not None:
        minutes = max(1, round(ban.remaining(now) / 60))
        raise PlayBanned(
            f"you let {ban.offence} games time out while away in the last 7 days;"
            f" you can play again in {minutes} min",
        )


async def standing(session: AsyncSession, user_id: int, now: float) -> dict[str, Any]:
    """What the player's own profile shows: offences, the ban if any, the next step."""
    offences = await offences_of(session, user_id, now)
    ban = current_ban(offences, now)
    following = next_ban_if_offence(offences, now)
    return {
        "offences": sum(1 for at in offences if at > now - WINDOW),
        "ban": None if ban is None else _ban_json(ban),
        "next": None if following is None else {"seconds": following.seconds},
    }


def _ban_json(ban: PlayBan) -> dict[str, Any]:
    return {"offence": ban.offence, "started": ban.started, "until": ban.until}
