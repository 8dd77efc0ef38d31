"""A club that was down: its live games' clocks and graces stood still meanwhile.

Clocks and absence marks are wall-clock times stored with each game. While every
process of the club is down nobody can act, yet without this module the time still
ran: after a restart the player to move had lost the whole outage from his reserve,
and after a long one he was forfeited the moment the club came back.

The first process to start after an outage finds every other process silent
(``nodes``: none has said it is alive for :data:`~.spectate.STALE_BEATS` beats, or
each said it stopped). The club was last alive at the latest of their marks (a clean
stop's own time, else the last heartbeat: up to one beat too early after a kill, in
the players' favour). For every live game and table, that process moves each running
clock and each absence mark on by the outage (``Clock.stood_still``), in one
transaction that also says this process is alive, under a lock: a second process
starting at the same moment finds the first alive and credits nothing twice. A
process that starts while another is alive credits nothing: the club was up.

On SQLite there is one process (DESIGN), so every mark is a past process's, even one
killed a moment ago. On PostgreSQL a process killed less than three beats ago still
looks alive: a whole cluster killed and restarted within that (30 s by default) is
charged those seconds (docs/deploy.md). Processes keep their random name per start on
purpose: the others notice a killed one by its name falling silent, and only then drop
its spectators and catch their sockets up (``spectate.Spectators.beat``).
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.clock import Clock
from sheshbesh.play.seat_clock import SeatClock
from sheshbesh.server.club import Club
from sheshbesh.store.db import serialise
from sheshbesh.store.models import Game, GameSeat, Node

from .spectate import STALE_BEATS, upsert

log = logging.getLogger(__name__)


async def credit_outage(club: Club) -> float:
    """Stand every live game's clocks still for the time the whole club was down; the
    seconds credited (0: the club was up, or has never run)."""
    now = club.now()
    async with club.db.transaction() as session:
        await serialise(session, "club-outage")
        since = await _down_since(club, session, now)
        if since is not None and since < now:
            games = await _credit(session, since, now)
            log.warning("the club was down for %.1f s; the clocks and absence marks of "
                        "%d live games stood still meanwhile", now - since, games)  # fmt: skip
        await upsert(session, Node, {"node": club.settings.node},
                     {"seen_at": now, "stopped_at": None})  # fmt: skip
    return 0.0 if since is None else max(0.0, now - since)


async def _down_since(club: Club, session: AsyncSession, now: float) -> float | None:
    """When the club was last known alive, if every other process is gone; else None.
    (Every mark is another process's: each start takes a new name, and this one has not
    said it is alive yet.)"""
    rows = (await session.execute(select(Node.node, Node.seen_at, Node.stopped_at))).all()
    if not rows:
        return None  # a new club
    if not club.db.is_sqlite:
        stale = now - STALE_BEATS * club.settings.node_heartbeat
        if any(row.stopped_at is None and row.seen_at >= stale for row in rows):
            return None  # another process is alive: the club was up
    return float(max(row.seen_at if row.stopped_at is None else row.stopped_at for row in rows))


async def _credit(session: AsyncSession, since: float, now: float) -> int:
    games = list(await session.scalars(
        select(Game).where(Game.status.in_(("live", "waiting"))).with_for_update()
    ))  # fmt: skip
    for game in games:
        game.away0 = _moved(game.away0, since, now)
        game.away1 = _moved(game.away1, since, now)
        if game.clock is None:
            continue
        if game.kind == "chouette":
            game.clock = _chouette_clock(game.clock, since, now)
        else:
            game.clock = Clock.from_state(game.clock).stood_still(since, now).to_state()
    chouettes = [game.id for game in games if game.kind == "chouette"]
    if chouettes:
        for seat in await session.scalars(
            select(GameSeat).where(GameSeat.game_id.in_(chouettes), GameSeat.away.is_not(None))
        ):  # fmt: skip
            seat.away = _moved(seat.away, since, now)
    return len(games)


def _chouette_clock(state: dict[str, Any], since: float, now: float) -> dict[str, Any]:
    """A chouette table's stored clocks: the seats' clock and the break before its next game."""
    state = dict(state)
    if state.get("clock") is not None:
        state["clock"] = SeatClock.from_state(state["clock"]).stood_still(since, now).to_state()
    at = state.get("next_game")
    if at is not None and float(at) > since:  # the break keeps what it had left
        state["next_game"] = float(at) + (now - since)
    return state


def _moved(at: float | None, since: float, now: float) -> float | None:
    """A moment counted from: moved on by the part of the outage that came after it."""
    if at is None or at >= now:
        return at
    return at + (now - max(since, at))
