"""Now playing and watching: the list of live games, a game's page data and its record.

Anyone, logged in or not, may list live games and open any of them read-only
(the game socket in ``channel.py`` gives spectators the same events as the
players). A cube offer waiting for its answer is not shown to anyone but the
players (PL-3): the list, the game's page and its record stop before it.
Spectator counts live in the games table so every process shows the same number.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.record import FORMAT
from sheshbesh.server.accounts.sessions import user_of
from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError, NotFound, log_failure
from sheshbesh.store.models import Game, Node, Watchers

from .chouette_table import ChouetteTable
from .log import events_after
from .round import AnyRound, rounds_of
from .tables import replay_table

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("/live")
async def live_games(request: Request) -> list[dict[str, Any]]:
    """Every game being played now, newest first (the lobby's "now playing")."""
    return await live_summaries(club_of(request))


async def live_summaries(club: Club) -> list[dict[str, Any]]:
    """The summary of every live game, newest first."""
    async with club.db.read() as session:
        ids = list(
            await session.scalars(
                select(Game.id).where(Game.status == "live").order_by(Game.created_at.desc())
            )
        )
    rounds = rounds_of(club)
    return [(await rounds.get(game_id)).summary() for game_id in ids]


@router.get("/{game_id}")
async def game_page(game_id: str, request: Request) -> dict[str, Any]:
    """A game's summary and state (live or finished) as a spectator sees it; its players
    see a pending cube offer too (PL-3)."""
    club = club_of(request)
    round_ = await rounds_of(club).get(game_id[:20])
    if not club.db.is_sqlite:  # another process may have moved the game on meanwhile
        await round_.refresh()
    if await _is_player(club, request, round_):
        return round_.snapshot(None, club.now())
    return await round_.snapshot_for(None, club.now())


@router.get("/{game_id}/record")
async def game_record(game_id: str, request: Request) -> Response:
    """The game's sheshbesh record (its event log), for export and dice verification;
    while a cube offer waits for its answer, only its players get the log to its end."""
    game, events = await _visible_events(club_of(request), request, game_id)
    record = {"format": FORMAT, "game": game.kind, "created": events[0], "events": events[1:]}
    return Response(json.dumps(record, indent=1), media_type="application/json")


@router.get("/{game_id}/position")
async def game_position(
    game_id: str, request: Request, seq: int = Query(ge=0, le=1_000_000)
) -> dict[str, Any]:
    """The game as it stood after its event ``seq`` (the room's move list, clicked): the
    state a board draws, as the live game's frames have it. Spectators reach no further
    than the record shows them (PL-3)."""
    game, events = await _visible_events(club_of(request), request, game_id)
    last = events[-1]["seq"]
    if seq > last:
        raise ApiError(f"the game has no event {seq} yet (the last is {last})",
                       status=422, code="no_such_event")  # fmt: skip
    before = [e for e in events[1:] if e["seq"] <= seq]
    if game.kind == "chouette":
        return {"seq": seq, "last": last, "state": ChouetteTable.replay(events[0], before).view()}
    return {"seq": seq, "last": last, "state": replay_table(game.kind, events[0], before).view()}


async def _visible_events(
    club: Club, request: Request, game_id: str
) -> tuple[Game, list[dict[str, Any]]]:
    """A game's stored events as the asker may see them: all of them, except that while
    a cube offer waits for its answer a spectator's stop before it (PL-3)."""
    async with club.db.read() as session:
        game = await session.get(Game, game_id[:20])
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        events = await events_after(session, game.id, -1)
    if game.status == "live":
        round_ = await rounds_of(club).get(game.id)
        if not club.db.is_sqlite:
            await round_.refresh()
        if not await _is_player(club, request, round_):
            shown = round_.shown_seq()
            events = [event for event in events if event["seq"] <= shown]
    return game, events


async def _is_player(club: Club, request: Request, round_: AnyRound) -> bool:
    user = await user_of(club, request)
    return round_.seat_of(None if user is None else user.id) is not None


WINDOW = 1.0
"""Seconds during which one game's further spectator joins and leaves are summed into one
write and one lobby frame (issue 16: 299 joins a second sent 60 000 lobby frames)."""
STALE_BEATS = 3
"""Heartbeats a process may miss before its spectators stop counting (it died)."""


class Spectators:
    """Spectator counts, written and announced at most once a :data:`WINDOW` per game.

    The first change after a quiet window goes out at once (a lone spectator sees
    himself counted); the changes during the window that follows go out at its
    end, in one write and one ``game_updated`` frame. Each process writes its own
    count of each game (``watchers``) and the game's count is their sum over the
    processes alive (issue 20): every process says it is alive each
    ``node_heartbeat`` seconds (``nodes``), and the rows of one that has been
    silent for :data:`STALE_BEATS` beats are swept by the others, so spectators of
    a process killed without a word stop being counted.
    """

    def __init__(self, club: Club) -> None:
        self.club = club
        self.here: dict[str, int] = {}
        """This process's spectators by game."""
        self.pending: set[str] = set()
        self.windows: dict[str, asyncio.Task[None]] = {}
        self.beating: asyncio.Task[None] | None = None
        self.others: set[str] | None = None
        """The other processes alive at the last beat (None before the first)."""

    async def start(self) -> None:
        """Say this process is alive, now and every beat; sweep the dead ones' counts."""
        try:
            await self.beat()
        except Exception as error:  # never a reason not to start: the next beat tries again
            log_failure(log, "the first spectator heartbeat", error)
        self.beating = asyncio.create_task(self._beat_on())

    async def count(self, round_: AnyRound, delta: int) -> None:
        self.here[round_.id] = max(0, self.here.get(round_.id, 0) + delta)
        self.pending.add(round_.id)
        if round_.id in self.windows:
            return  # written when the window closes
        self.windows[round_.id] = asyncio.create_task(self._window(round_))
        await self._write(round_)

    async def _window(self, round_: AnyRound) -> None:
        try:
            while True:
                await asyncio.sleep(WINDOW)
                if round_.id not in self.pending:
                    return
                await self._write(round_)
        except Exception as error:
            log_failure(log, f"game {round_.id}: the spectator count", error)
        finally:
            self.windows.pop(round_.id, None)

    async def _write(self, round_: AnyRound) -> None:
        if round_.id not in self.pending:
            return
        self.pending.discard(round_.id)
        club, node = self.club, self.club.settings.node
        async with club.db.transaction() as session:
            await upsert(session, Watchers, {"game_id": round_.id, "node": node},
                       {"count": self.here[round_.id]})  # fmt: skip
            total = await self._store_total(session, round_.id)
        await self._announce(round_.id, total)

    async def _store_total(self, session: AsyncSession, game_id: str) -> int:
        """The game's count, summed over the processes alive, stored on its row."""
        total = int(await session.scalar(
            select(func.coalesce(func.sum(Watchers.count), 0)).where(Watchers.game_id == game_id)
        ) or 0)  # fmt: skip
        await session.execute(update(Game).where(Game.id == game_id).values(spectators=total))
        return total

    async def _announce(self, game_id: str, total: int) -> None:
        round_ = rounds_of(self.club).rounds.get(game_id)
        if round_ is not None and round_.game is not None:
            round_.game.spectators = total  # the rest of the row is the round's own
            if round_.game.status == "live":
                await self.club.bus.publish(
                    "lobby", json.dumps({"t": "game_updated", "d": round_.summary()})
                )

    async def beat(self) -> None:
        """This process is alive; the processes silent too long lose their spectators.

        A process gone since the last beat (found silent here, or swept by another) may
        have stored a move, a request or a payout and died before publishing it: nothing
        will ever tell this process's sockets, so every one of them is caught up from the
        database (the bus's recovery, as after a Redis loss; issue 20)."""
        club, node = self.club, self.club.settings.node
        now = club.now()
        stale = now - STALE_BEATS * club.settings.node_heartbeat
        async with club.db.transaction() as session:
            await upsert(session, Node, {"node": node}, {"seen_at": now, "stopped_at": None})
            rows = (await session.execute(select(Node.node, Node.seen_at, Node.stopped_at))).all()
            dead = [name for name, seen_at, _ in rows if seen_at < stale]
            alive = {name for name, seen_at, stopped in rows
                     if seen_at >= stale and stopped is None} - {node}  # fmt: skip
            games: list[str] = []
            if dead:
                games = list(set(await session.scalars(
                    select(Watchers.game_id).where(Watchers.node.in_(dead))
                )))  # fmt: skip
                await session.execute(delete(Watchers).where(Watchers.node.in_(dead)))
                await session.execute(delete(Node).where(Node.node.in_(dead)))
            totals = {game_id: await self._store_total(session, game_id) for game_id in games}
        for game_id, total in totals.items():
            await self._announce(game_id, total)
        gone, self.others = (self.others or set()) - alive, alive
        if gone:
            log.warning("process %s went silent; catching up from the database", sorted(gone))
            await club.bus.recover()

    async def _beat_on(self) -> None:
        while True:
            await asyncio.sleep(self.club.settings.node_heartbeat)
            try:
                await self.beat()
            except Exception as error:
                log_failure(log, "the spectator heartbeat", error)

    async def stop(self) -> None:
        """Write what is pending, stop beating and say when this process stopped (the
        app's shutdown: a club whose processes all stopped credits its games' clocks
        from the last one's stop, ``rounds.outage``)."""
        if self.beating is not None:
            self.beating.cancel()
            await asyncio.gather(self.beating, return_exceptions=True)
        for task in list(self.windows.values()):
            task.cancel()
        rounds = rounds_of(self.club)
        for game_id in list(self.pending):
            round_ = rounds.rounds.get(game_id)
            if round_ is not None:
                with contextlib.suppress(Exception):
                    await self._write(round_)
        now = self.club.now()
        try:
            async with self.club.db.transaction() as session:
                await upsert(session, Node, {"node": self.club.settings.node},
                             {"seen_at": now, "stopped_at": now})  # fmt: skip
        except Exception as error:  # the database is away: the last beat says about when
            log_failure(log, "the stop mark", error)


async def upsert(session: AsyncSession, kind: Any, key: dict[str, Any],
               values: dict[str, Any]) -> None:  # fmt: skip
    """Set ``values`` on the row of ``kind`` with ``key``, inserting it if there is none;
    safe when another process inserts the same row at the same moment."""
    where = [getattr(kind, name) == value for name, value in key.items()]
    updated = await session.execute(update(kind).where(*where).values(values))
    if updated.rowcount:  # type: ignore[attr-defined]
        return
    try:
        async with session.begin_nested():
            session.add(kind(**key, **values))
    except IntegrityError:  # inserted meanwhile: update it
        await session.execute(update(kind).where(*where).values(values))


def spectators_of(club: Club) -> Spectators:
    found = club.extras.get("spectators")
    if found is None:
        found = club.extras["spectators"] = Spectators(club)
    assert isinstance(found, Spectators)
    return found


async def count_spectator(club: Club, round_: AnyRound, delta: int) -> None:
    """A spectator joined (+1) or left (-1) the game (written now or within a window)."""
    await spectators_of(club).count(round_, delta)


async def reset_spectators(club: Club) -> None:
    """At start on SQLite (one process), nobody is watching yet."""
    async with club.db.transaction() as session:
        await session.execute(delete(Watchers))
        await session.execute(update(Game).values(spectators=0))
