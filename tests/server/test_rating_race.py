"""Two rated games ending at the same moment for a player new to the pool (PostgreSQL).

A club bot plays many people at once, so its first rated games in a variant can end
together. Each game's end rates it in the transaction that stores the last move and
the payout; if both transactions added the bot's first rating row, the second commit
would fail on the one-row-per-pool constraint and take the game's last move with it.
The first transaction makes the row as it rates, so the second waits at that row and
then rates from where the first left it.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import select, text

from sheshbesh.server.standings import ratings
from sheshbesh.store.db import Database
from sheshbesh.store.models import Game, Rating, RatingChange, User


async def _fresh(url: str) -> Database:
    db = Database(url)
    await db.migrate()
    return db


async def _people(db: Database) -> dict[str, int]:
    async with db.transaction() as session:
        users = {name: User(username=name, username_key=name, password_hash="x",
                            is_bot=name == "gnubot", created_at=0.0)
                 for name in ("gnubot", "ann", "bob")}  # fmt: skip
        session.add_all(users.values())
        await session.flush()
        ids = {name: user.id for name, user in users.items()}
        for game_id, person in (("g-ann", "ann"), ("g-bob", "bob")):
            session.add(Game(id=game_id, kind="game", variant="backgammon", stake=100,
                             control="", seat0_id=ids["gnubot"], seat1_id=ids[person],
                             status="finished", created_at=0.0, rated=True))  # fmt: skip
        return ids


async def _waiting_on_a_lock(db: Database) -> bool:
    async with db.read() as session:
        waiting = await session.scalar(text(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ))  # fmt: skip
    return bool(waiting)


async def _race(url: str) -> tuple[dict[str, int], list[Rating], list[RatingChange]]:
    db = await _fresh(url)
    ids = await _people(db)
    bots = {ids["gnubot"]}
    rated = asyncio.Event()

    async def second() -> None:
        async with db.transaction() as session:
            game = await session.get(Game, "g-bob")
            assert game is not None
            await ratings.rate_game(session, game, 0, 1, bots, 2.0)
            rated.set()

    async with db.transaction() as session:
        game = await session.get(Game, "g-ann")
        assert game is not None
        await ratings.rate_game(session, game, 0, 1, bots, 1.0)
        racing = asyncio.create_task(second())
        # The second game has rated too (both would add the row) or waits at the row.
        while not rated.is_set() and not racing.done() and not await _waiting_on_a_lock(db):
            await asyncio.sleep(0.01)
        assert not rated.is_set(), "the second game rated the bot past the first one's lock"
    await racing
    async with db.read() as session:
        rows = list(await session.scalars(select(Rating)))
        changes = list(await session.scalars(select(RatingChange).order_by(RatingChange.at)))
    await db.close()
    return ids, rows, changes


def test_two_games_ending_at_once_rate_a_newcomer_bot_one_after_the_other(postgres_url):
    ids, rows, changes = asyncio.run(_race(postgres_url))
    assert [(row.user_id, row.pool, row.games) for row in rows] == [
        (ids["gnubot"], "backgammon", 2)
    ]  # the people's ratings do not move against a bot, and get no row
    first, second = changes
    assert (first.game_id, second.game_id) == ("g-ann", "g-bob")
    assert first.before == ratings.initial("backgammon").rating
    assert second.before == first.after < second.after  # the second rated from the first
