"""Farming: young accounts losing FUN to one account, reported to the operator.

Fresh accounts come with FUN; losing it on purpose to a main account passes it
on. On every :class:`GameOver` (inside the game's own transaction) a loss of a
young account (``accounts.trust``) to a person is added to the winner's
``farming`` report; once ``farm_losers`` different young accounts have lost to
him within ``farm_window``, the report is flagged and ``sheshbesh moderate
--reports`` shows it. Nothing is done to anyone automatically: as lichess's
boosting reports do, it tells a person where to look.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts import trust
from sheshbesh.server.club import Club
from sheshbesh.server.events import GameOver
from sheshbesh.store.db import insert_new
from sheshbesh.store.models import Report, User

KIND = "farming"


async def game_over(club: Club, over: GameOver) -> None:
    """Note a young account's loss to a person in the winner's report."""
    session, game, now = over.session, over.game, over.now
    losers = [seat for seat in (0, 1) if over.paid[seat] < 0]
    if not losers:
        return
    loser_seat = losers[0]
    seats = (game.seat0_id, game.seat1_id)
    loser = await session.get(User, seats[loser_seat])
    winner = await session.get(User, seats[1 - loser_seat])
    if loser is None or winner is None or loser.is_bot or winner.is_bot:
        return
    if not await trust.is_young(club, session, loser, now, excluding=game.id):
        return
    report = await _report_of(session, winner.id, now)
    window = club.settings.farm_window
    losses = [loss for loss in report.detail.get("losses", []) if loss["at"] > now - window]
    losses.append({"user_id": loser.id, "username": loser.username, "game_id": game.id,
                   "variant": game.variant, "fun": -over.paid[loser_seat], "at": now})  # fmt: skip
    report.detail = {"suspect": winner.username, "losses": losses}  # a new value: stored
    if report.flagged_at is None and len({loss["user_id"] for loss in losses}) >= (
        club.settings.farm_losers
    ):
        report.flagged_at = now


async def _report_of(session: AsyncSession, suspect_id: int, now: float) -> Report:
    """The suspect's farming report, locked for this transaction (made if none yet)."""
    values = {"kind": KIND, "suspect_id": suspect_id, "detail": {"losses": []}, "created_at": now}
    await session.execute(insert_new(session, Report, values))
    found = await session.scalar(
        select(Report)
        .where(Report.kind == KIND, Report.suspect_id == suspect_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    assert found is not None
    return found


def subscribe(club: Club) -> None:
    async def on_game_over(over: GameOver) -> None:
        await game_over(club, over)

    club.events.on(GameOver, on_game_over)
