"""The club's shutdown (``app.py``'s lifespan): work cut off mid-way unwinds before the
database closes. A timeout check cancelled inside a transaction, with the database
closed under it, once held the event loop's exit for ever (session 28's test hang; a
SIGTERM at the same moment would hold the server's)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from sheshbesh.server.app import create_app
from sheshbesh.server.bots.host import BotHost
from sheshbesh.server.rounds.round import Round, Rounds
from sheshbesh.server.settings import Settings


def shut_down_mid_way(settings: Settings, cut_off: str) -> list[str]:
    """Start the club, begin a slow piece of work of the kind ``cut_off`` names, shut the
    club down while it runs, and return what happened in order."""
    seen: list[str] = []

    async def scenario() -> None:
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            club = app.state.club
            closing = club.db.close

            async def close() -> None:
                seen.append("database closed")
                await closing()

            club.db.close = close
            began = asyncio.Event()

            async def slow_work() -> None:
                began.set()
                try:
                    await asyncio.Event().wait()  # as a check waits inside a transaction
                finally:
                    await asyncio.sleep(0.05)  # the rollback's round trips
                    async with club.db.read() as session:
                        await session.execute(text("select 1"))
                    seen.append("work unwound")

            if cut_off == "timeout check":
                round_ = Round(club, "shutdown-test")
                round_.timer.check = slow_work
                club.need(Rounds).rounds[round_.id] = round_
                round_.timer.at(club.now())
            else:
                bots = club.need(BotHost)
                bots._spawn(slow_work())
            await began.wait()
        seen.append("shut down")

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    return seen


def test_a_running_timeout_check_unwinds_before_the_database_closes(
    club_settings: Settings,
) -> None:
    assert shut_down_mid_way(club_settings, "timeout check") == [
        "work unwound", "database closed", "shut down",
    ]  # fmt: skip


def test_a_bots_turn_unwinds_before_the_database_closes(club_settings: Settings) -> None:
    assert club_settings.bots
    assert shut_down_mid_way(club_settings, "bot's turn") == [
        "work unwound", "database closed", "shut down",
    ]  # fmt: skip


def test_no_bot_begins_a_turn_once_the_bots_are_halted(club_settings: Settings) -> None:
    """Between the bots' halt and the rounds' a timeout check may still run (a chouette
    break ends, a game starts): a bot's turn it would begin is never begun, since nobody
    would wait for it before the database closes."""
    begun: list[str] = []

    async def scenario() -> None:
        app = create_app(club_settings)
        async with app.router.lifespan_context(app):
            bots = app.state.club.need(BotHost)
            await bots.halt()

            async def turn() -> None:
                begun.append("turn")

            bots._spawn(turn())
            await asyncio.sleep(0)
            assert not bots.tasks

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    assert begun == []
