"""Rounds: the one owner of each live game in this process (STYLE: one owner per game).

A :class:`Round` handles one command at a time under its lock. It checks who
acts and at which sequence number, applies the action through
``sheshbesh.play`` in memory, and stores the events, the dice box, the clock
and the ledger rows together (DESIGN principles 3 and 4). Only after the
commit is anyone told, through the bus.

A move that moves no money joins the group commit (``store.group``); one that
does writes its ledger rows in one transaction with its events, under the
game's row lock. Several processes may serve one game (on PostgreSQL): each
keeps its table current from the bus's messages (:meth:`Round.follow`), and a
write names the sequence number its move was decided at, so a process that was
behind writes nothing, catches up from the stored log and decides again
(:class:`sheshbesh.store.group.Behind`). docs/decisions.md says why this and
not a lock per move or one owner per game.

Time is the server's: the clock is read at the moment the command is handled,
and a timer per round ends the game when a flag falls or when the player to act
has been away longer than the grace (PL-7), so no game and no FUN is ever stuck.
A game that a player has never opened is aborted instead, and every stake goes
back: nobody can win by accepting the request of someone who has left (issue 16).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.games.race import Side
from sheshbesh.play.clock import Clock
from sheshbesh.server.accounts.avatars import avatar_url
from sheshbesh.server.club import Club
from sheshbesh.server.errors import (
    ApiError,
    Conflict,
    Forbidden,
    NotFound,
)
from sheshbesh.server.events import RoundLoaded, RoundMoved, TurnAwaits
from sheshbesh.server.money import escrow
from sheshbesh.server.standings import ratings as standings
from sheshbesh.store.group import Behind, GroupWriter, MoveWrite
from sheshbesh.store.models import Game, User, players_of

from .attendance import Attendance
from .chouette import ChouetteRound
from .log import events_after, flag_allowance, keep_dice, locked_game, stored_dice
from .store import store_aborted, store_applied
from .tables import Applied, Table, replay_table
from .timer import CheckTimer

log = logging.getLogger(__name__)
ARRIVAL = 15.0
"""Seconds a player may take to open a game he just started before "your turn" is sent."""
COVER_TTL = 30.0
"""Seconds a menu trusts its read of whether a cube raise can be covered."""
CATCH_UPS = 3
"""Times an action is decided again after another process stored a move first."""
RAISES = frozenset({"double", "beaver"})
"""The menu's actions that raise what the escrow holds (PL-5), left off when uncovered."""
FOLLOWED = GroupWriter.COLUMNS
"""The game row's columns a move of the group commit changes (``store.group``)."""
HELD = ("held0", "held1")
"""The columns a move that moves money changes besides (the escrow, PL-5): sent with
it, another process folds a double as it folds a plain move, with no read of the row."""


class Round(Attendance):
    """A live game as this process knows it: the table, the clock and who is here."""

    def __init__(self, club: Club, game_id: str) -> None:
        self.club = club
        self.id = game_id
        self.lock = asyncio.Lock()
        self.table: Table | None = None
        self.game: Game | None = None
        self.names: dict[int, str] = {}
        self.here: dict[int, int] = {0: 0, 1: 0}
        """Connections per seat in this process."""
        self.timer = CheckTimer(f"round {game_id}", self.expire, club.now)
        self.bot_seats: dict[int, str] = {}
        """Seat → engine of each seat a club bot plays (``server.bots`` acts for it)."""
        self.avatars: dict[int, str] = {}
        """User id → the avatar's URL, with its version (as ``user_json`` gives it)."""
        self.ratings: dict[int, dict[str, Any]] = {}
        """User id → rating in this game's variant (and, once rated, its change)."""
        self.uncovered: frozenset[str] = frozenset()
        """Answers on the menu that the escrow cannot cover now (a beaver): left off it."""
        self.covers: dict[tuple[int, int, int], tuple[bool, float]] = {}
        """(needed, held0, held1) → whether the wallets could cover it, and when read."""
        self.before_offer: Table | None = None
        """The table before the latest cube offer (what spectators see while it waits, PL-3)."""
        self._clock_seen: tuple[dict[str, Any], Clock] | None = None
        """The stored clock state last read, and the clock it holds (:meth:`_clock_of`)."""

    # --- loading --------------------------------------------------------------------

    async def load(self) -> None:
        async with self.club.db.read() as session:
            game = await session.get(Game, self.id)
            if game is None:
                raise NotFound(f"no game {self.id!r}")
            events = await events_after(session, self.id, -1)
            users = list(await session.scalars(
                select(User).where(User.id.in_([game.seat0_id, game.seat1_id]))
            ))  # fmt: skip
            self.names = {user.id: user.username for user in users}
            self.avatars = {user.id: avatar_url(user) for user in users}
            engines = {user.id: user.bot_engine for user in users if user.bot_engine}
            self.bot_seats = {
                seat: engines[uid]
                for seat, uid in enumerate((game.seat0_id, game.seat1_id))
                if uid in engines
            }
            await self._read_ratings(session, game)
        self.game = game
        self.table = replay_table(game.kind, events[0], events[1:])
        await self.check_cover()

    async def _read_ratings(self, session: AsyncSession, game: Game) -> None:
        seats = list(players_of(game))
        ratings = await standings.ratings_of(session, seats, game.variant)
        changes = await standings.changes_of(session, game.id) if game.status != "live" else {}
        self.ratings = {uid: ratings[uid] | {"change": changes.get(uid)} for uid in seats}

    async def catch_up(self, session: AsyncSession, game: Game) -> Table:
        """The table at the stored sequence number (another process may have moved on)."""
        table = self.table
        assert table is not None
        if game.seq > table.seq:
            missed = await events_after(session, self.id, table.seq)
            if missed and missed[0]["seq"] == table.seq + 1:
                return table.fold(missed)
        if game.seq != table.seq:
            events = await events_after(session, self.id, -1)
            table = replay_table(game.kind, events[0], events[1:])
        return table

    # --- reading --------------------------------------------------------------------

    @property
    def seats(self) -> tuple[int, int]:
        assert self.game is not None
        return players_of(self.game)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        seat0, seat1 = self.seats
        return 0 if user_id == seat0 else 1 if user_id == seat1 else None

    def players(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "id": uid, "username": self.names.get(uid, "?"),
             "avatar": self.avatars.get(uid),
             "is_bot": seat in self.bot_seats, "rating": self.ratings.get(uid)}
            for seat, uid in enumerate(self.seats)
        ]  # fmt: skip

    def clock(self) -> Clock | None:
        assert self.game is not None
        return self._clock_of(self.game.clock)

    def _clock_of(self, state: dict[str, Any] | None) -> Clock | None:
        """The clock a stored ``state`` holds, read once: a move asks for it again and
        again (its decision or its fold, its message, the next deadline), and a move
        gives the row a new state rather than changing the one it had."""
        if state is None:
            return None
        seen = self._clock_seen
        if seen is None or seen[0] is not state:
            seen = self._clock_seen = (state, Clock.from_state(state))
        return seen[1]

    def clock_json(self, now: float, *, offer_hidden: bool = False) -> dict[str, Any] | None:
        """The clock at ``now``; ``offer_hidden``: as it stood before a pending offer (PL-3)."""
        clock = self.clock()
        if clock is None:
            return None
        if offer_hidden:
            clock = clock.before_offer()
        return clock.to_json(max(now, clock.at or now))

    def to_act_seat(self) -> int | None:
        assert self.table is not None
        side = self.table.to_act
        if side is None or self.table.finished or not self.live:
            return None
        return self.table.seat_of(side)

    def aborted(self) -> dict[str, Any] | None:
        """Who never arrived, when the game was aborted for it (None: it was not)."""
        game = self.game
        if game is None or game.status != "aborted":
            return None
        return {"absent": list((game.result or {}).get("absent", []))}

    def presence(self) -> list[dict[str, Any]]:
        game = self.game
        assert game is not None
        now = self.club.now()
        return [
            {"seat": seat, "online": away is None, "since": away,
             "deadline": None if away is None else away + self._grace(game, seat), "now": now}
            for seat, away in enumerate((game.away0, game.away1))
        ]  # fmt: skip

    def _grace(self, game: Game, seat: int) -> float:
        """How long ``seat`` may stay away: the arrival's grace until he has opened the
        game once, then the abandonment grace (PL-7)."""
        settings = self.club.settings
        arrived = game.arrived0 if seat == 0 else game.arrived1
        return settings.abandon_grace if arrived else settings.arrival

    def shown_seq(self) -> int:
        """The sequence number spectators see: the last before a cube offer still waiting
        for its answer (PL-3), else the game's."""
        assert self.table is not None
        offer = self.table.offer_seq
        return self.table.seq if offer is None else offer - 1

    async def shown(self) -> Table:
        """The table as spectators see it: the game before a cube offer that still waits
        for its answer (PL-3), the fold of the stored log up to :meth:`shown_seq`."""
        table = self.table
        assert table is not None and self.game is not None
        seq = self.shown_seq()
        if seq == table.seq:
            return table
        if self.before_offer is None or self.before_offer.seq != seq:
            async with self.club.db.read() as session:
                events = await events_after(session, self.id, -1)
            before = [event for event in events[1:] if event["seq"] <= seq]
            self.before_offer = replay_table(self.game.kind, events[0], before)
        return self.before_offer

    def summary(self) -> dict[str, Any]:
        """The game as the lobby's "now playing" list shows it (to anyone: PL-3)."""
        game, table = self.game, self.table
        assert game is not None and table is not None
        return {
            "id": game.id,
            "kind": game.kind,
            "variant": game.variant,
            "stake": game.stake,
            "control": game.control,
            "players": self.players(),
            "white_seat": table.white_seat(),
            "score": table.score(),
            "spectators": game.spectators,
            "status": game.status,
            "seq": self.shown_seq(),
        }

    def legal(self) -> list[dict[str, Any]]:
        """The menu of the side to act, without what the escrow cannot cover."""
        assert self.table is not None
        return [frame for frame in self.table.legal() if frame["type"] not in self.uncovered]

    async def check_cover(self) -> None:
        """Leave a double or a beaver off the menu when the escrow could not hold what it
        raises (PL-5: a cube action beyond a player's free balance is not offered), so a
        player is never offered what the money would refuse; sent anyway, it is refused."""
        self.uncovered = frozenset()
        game, table, seat = self.game, self.table, None
        if game is not None and table is not None and game.stake > 0:
            seat = self.to_act_seat()
        if seat is None or table is None or game is None:
            return
        menu = table.legal()
        raises = [{"type": kind} for kind in sorted(RAISES) if {"type": kind} in menu]
        if not raises:
            return
        uncovered = set()
        now = self.club.now()
        for frame in raises:
            needed = game.stake * table.exposure_after(frame, table.side_of(seat))
            if not await self._covers(game, needed, now):
                uncovered.add(frame["type"])
        self.uncovered = frozenset(uncovered)

    async def _covers(self, game: Game, needed: int, now: float) -> bool:
        """Whether both players could put ``needed`` in escrow, as read at most
        :data:`COVER_TTL` ago: the same answer serves every turn at this cube (it was
        three queries a move). A player plays one game at a time, so only a purchase can
        make it stale, and then the escrow still refuses the raise (PL-5)."""
        key = (needed, game.held0, game.held1)
        known = self.covers.get(key)
        if known is not None and now - known[1] < COVER_TTL:
            return known[0]
        async with self.club.db.read() as session:
            covered = await escrow.can_cover(self.club, session, game, needed, now)
        self.covers = {k: v for k, v in self.covers.items() if now - v[1] < COVER_TTL}
        self.covers[key] = (covered, now)  # a few cube levels at most: nothing piles up
        return covered

    def snapshot(self, seat: int | None, now: float, shown: Table | None = None) -> dict[str, Any]:
        """The game at ``now`` for ``seat``; with ``shown`` (:meth:`shown`, for a spectator)
        the game as that table has it, so a pending cube offer stays hidden (PL-3)."""
        table, game = self.table, self.game
        assert table is not None and game is not None
        hidden = shown is not None and shown is not table
        view = shown if shown is not None else table
        to_act = self.to_act_seat()
        if hidden:
            side = view.to_act
            to_act = None if side is None or view.finished else view.seat_of(side)
        return self.summary() | {
            "seq": view.seq,
            "you": seat,
            "state": view.view(),
            "clock": self.clock_json(now, offer_hidden=hidden),
            "held": self.held(view),
            "presence": self.presence(),
            "aborted": self.aborted(),
            "to_act": to_act,
            "legal": self.legal() if seat is not None and seat == to_act and not hidden else None,
        }

    def held(self, table: Table) -> int:
        """What each player holds in the game's escrow with ``table`` as it stands: the
        stake times the most the game can still cost (PL-4, PL-5; 0 once it is over or
        aborted, its stakes returned). Given the table a viewer is shown, so a pending cube
        offer's raise stays hidden."""
        assert self.game is not None
        if table.finished or self.game.status == "aborted":
            return 0
        return self.game.stake * table.exposure()

    async def snapshot_for(self, seat: int | None, now: float) -> dict[str, Any]:
        """A player's snapshot, or a spectator's (seat ``None``) without a pending offer."""
        return self.snapshot(seat, now, None if seat is not None else await self.shown())

    # --- acting ---------------------------------------------------------------------

    async def act(self, user_id: int | None, seen: int, data: Any) -> int:
        """A player's action on the game at sequence ``seen``; returns the new sequence."""
        async with self.lock:
            applied, row = await self._decide_current(user_id, seen, data)
        await self.publish(applied, row)
        return applied.table.seq

    async def _decide_current(
        self, user_id: int | None, seen: int, data: Any
    ) -> tuple[Applied, dict[str, Any] | None]:
        """:meth:`_decide`, caught up from the stored log whenever another process stored a
        move first, a few times at most; refused ``stale`` when the game is not where the
        player saw it (he claims a move nobody stored, or the game keeps moving)."""
        for _ in range(CATCH_UPS):
            try:
                return await self._decide(user_id, seen, data)
            except Behind:
                known = self.table.seq if self.table is not None else -1
                await self._catch_up_stored()
                if seen > known and self.table is not None and self.table.seq == known:
                    break
        raise Conflict("the game is not where this action was sent; resync and try again",
                       code="stale")  # fmt: skip

    def _check(self, game: Game, table: Table, user_id: int | None, seen: int) -> int:
        """The acting seat, or the reason this user may not act now at ``seen``."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise Forbidden("only the game's players can act; spectators watch",
                            code="not_a_player")  # fmt: skip
        if game.status != "live":
            raise Conflict("the game is over", code="game_over")
        if seen != table.seq and not table.only_answered_since(seen, table.side_of(seat)):
            raise Conflict(
                f"stale action: it was sent at move {seen}, the game is at {table.seq};"
                " resync and try again",
                code="stale",
            )
        return seat

    async def _decide(
        self, user_id: int | None, seen: int, data: Any
    ) -> tuple[Applied, dict[str, Any] | None]:
        """Decide in memory, then store; with the game row's new columns (what the other
        processes need to follow it), or None when the move ended the game."""
        game, table = self.game, self.table
        assert game is not None and table is not None
        if seen > table.seq and self.seat_of(user_id) is not None:
            raise Behind(f"the player saw move {seen}; this process knows {table.seq}")
        seat = self._check(game, table, user_id, seen)
        action = table.parse(data, table.side_of(seat))
        dice = stored_dice(self.club, game)
        clock, now = self._clock_now(game)
        applied = table.apply(action, dice, clock, now)
        after = applied.table
        moves_money = after.finished or game.stake * after.exposure() > min(game.held0, game.held1)
        if moves_money:
            async with self.club.db.transaction() as session:
                row = await locked_game(session, self.id)
                if row.seq != table.seq or row.status != "live":
                    raise Behind(f"game {self.id} moved on from {table.seq}")
                await store_applied(self.club, session, row, applied, now)
                keep_dice(row, dice)
            self._adopt(applied, row)
            if after.finished:  # the other processes reload an ended game (its result)
                return applied, None
            return applied, {name: getattr(row, name) for name in (*FOLLOWED, *HELD)}
        columns = {
            "seq": after.seq,
            "clock": game.clock if applied.clock is None else applied.clock.to_state(),
            "dice_secret": game.dice_secret if dice is None else dice.box.secret.hex(),
            "next_roll": game.next_roll if dice is None else dice.box.next_roll,
            "at": now,
        }
        await self.club.db.group.write(MoveWrite(self.id, table.seq, list(applied.events), columns))
        self._follow_columns(columns)
        self.table = after
        return applied, columns

    def _follow_columns(self, columns: dict[str, Any]) -> None:
        assert self.game is not None
        for name in FOLLOWED:
            setattr(self.game, name, columns[name])
        for name in HELD:
            if name in columns:
                setattr(self.game, name, columns[name])

    async def _catch_up_stored(self) -> None:
        """The game as stored, after another process moved it (or ended it) first, or
        changed it otherwise (a presence mark: :meth:`refresh`). Under the lock."""
        async with self.club.db.read() as session:
            game = await session.get(Game, self.id)
            if game is None:
                raise NotFound(f"no game {self.id!r}")
            self.table = await self.catch_up(session, game)
            self.game = game
        await self.check_cover()

    def follow(self, message: dict[str, Any]) -> bool:
        """Fold a move another process stored and published into this round, without the
        database. False when the message does not follow on from this table (a gap, or a
        move that ended the game): the caller refreshes from the stored log."""
        table, row = self.table, message.get("row")
        events = message.get("events") or []
        if table is None or self.game is None:
            return False
        if table.seq >= message.get("seq", -1):
            return True  # this process decided it, or has folded it already
        if row is None or not events or events[0]["seq"] != table.seq + 1:
            return False
        if self.lock.locked():
            return False  # deciding here at this moment: the stored log settles it
        self.table = table.fold(events)
        self._follow_columns(row)
        # What the deciding process left off the menu; a raise the game does not offer
        # now is in the set too, which changes nothing (it is not on the table's menu),
        # and spares this process a move generation per move.
        menu = {frame["type"] for frame in message.get("legal") or ()}
        self.uncovered = RAISES - menu
        self.schedule()
        return True

    def _clock_now(self, game: Game) -> tuple[Clock | None, float]:
        """The stored clock and the server's time, never before the clock's last event."""
        clock = self._clock_of(game.clock)
        now = self.club.now()
        if clock is not None and clock.at is not None:
            now = max(now, clock.at)
        return clock, now

    async def expire(self) -> None:
        """End the game if the running flag fell or the player to act stayed away (PL-7);
        abort it instead while a player has never opened it (issue 16, item 4)."""
        async with self.lock:
            applied, aborted = None, False
            async with self.club.db.transaction() as session:
                game = await locked_game(session, self.id)
                if game.status != "live":
                    self.game = game
                    return
                table = await self.catch_up(session, game)
                self.table, self.game = table, game
                side = self._forfeiter(game, table)
                absent = never_arrived(game)
                late = self._overdue(game, absent)
                if absent and (side is not None or late):
                    blamed = self._blamed(table, side, absent, late)
                    await store_aborted(session, game, blamed, self.club.now())
                    aborted = True
                elif side is not None:
                    applied = await self._apply(session, game, table, table.timeout(side))
            if applied is not None:
                self._adopt(applied, game)
        if applied is not None:
            await self.publish(applied)
        if aborted:
            await self.publish_abort()
        self.schedule()

    def _forfeiter(self, game: Game, table: Table) -> Side | None:
        now = self.club.now()
        clock = self.clock()
        if clock is not None and clock.control.timed:
            fell_by = now - flag_allowance(self.club.db.is_sqlite)  # a write may be on its way
            flagged = clock.flagged(max(fell_by, clock.at or fell_by))
            if flagged is not None:
                return Side(flagged)
        seat = self.to_act_seat()
        if seat is None:
            return None
        away = away_of(game, seat)
        if away is not None and now >= away + self._grace(game, seat):
            return table.side_of(seat)
        return None

    def _overdue(self, game: Game, seats: tuple[int, ...]) -> tuple[int, ...]:
        """Those of these seats that have been away for their whole grace, whoever is to act."""
        now = self.club.now()
        return tuple(seat for seat in seats
                     if now >= (away_of(game, seat) or now) + self._grace(game, seat))  # fmt: skip

    @staticmethod
    def _blamed(
        table: Table, side: Side | None, absent: tuple[int, ...], late: tuple[int, ...]
    ) -> tuple[int, ...]:
        """Whose absence aborts the game: the seat whose flag fell (or grace ran out) when
        that player never came, else those overdue, else everyone who never came.

        The player who accepted a request is on his way to the game when it starts; on a
        slow connection a one-second flag of the other may fall before he is in. The
        abort is for the other's absence, and says so, not "both never arrived".
        """
        forfeiter = None if side is None else table.seat_of(side)
        if forfeiter in absent:
            return (forfeiter,)
        return late or absent

    async def _apply(self, session: AsyncSession, game: Game, table: Table, action: Any) -> Applied:
        club = self.club
        dice = stored_dice(self.club, game)
        clock, now = self._clock_now(game)
        applied = table.apply(action, dice, clock, now)
        await store_applied(club, session, game, applied, now)
        keep_dice(game, dice)
        return applied

    def _adopt(self, applied: Applied, game: Game) -> None:
        self.table = applied.table
        self.game = game

    async def publish(self, applied: Applied, row: dict[str, Any] | None = None) -> None:
        """Tell every process's sockets, then this club's packages (``RoundMoved``); ``row``:
        the game row's columns after the move (and the escrow, after one that moved money),
        for the processes that follow this game in memory (:meth:`follow`; never sent to
        a client)."""
        table = applied.table
        seat = self.to_act_seat()
        await self.check_cover()
        message = self.message(list(applied.events), table)
        if row is not None:
            message["row"] = {name: row[name] for name in (*FOLLOWED, *HELD) if name in row}
        if table.finished:
            async with self.club.db.read() as session:
                assert self.game is not None
                await self._read_ratings(session, self.game)
            message["players"] = self.players()
        await self.club.bus.publish_data(f"game:{self.id}", message)
        game_ended = any(event["type"] == "game_finished" for event in applied.events)
        moved = RoundMoved(
            game_id=self.id,
            seats=self.seats,
            notes=tuple(applied.notes),
            finished=table.finished,
            game_ended=game_ended,
            summary=self.summary() if table.finished or game_ended else None,
        )
        if not table.finished:
            await self._tell_absent(applied, seat)
        await self.club.events.emit(moved)
        self.schedule()

    def message_now(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """:meth:`message` for ``events`` with the table as this round has it now."""
        assert self.table is not None
        return self.message(events, self.table)

    def message(self, events: list[dict[str, Any]], table: Table) -> dict[str, Any]:
        """The bus message that tells every process's sockets about ``events`` and the
        game as ``table`` has it after them."""
        seat = self.to_act_seat()
        return {
            "events": events,
            "seq": table.seq,
            "state": table.view(),
            "clock": self.clock_json(self.club.now()),
            "held": self.held(table),
            "to_act": seat,
            "legal": self.legal() if seat is not None else None,
            "offer": table.offer_seq,
        }

    async def publish_abort(self) -> None:
        """Tell every process's sockets that the game was aborted, then this club's packages
        (a finished ``RoundMoved``: "now playing" drops it, friends see the players stand up)."""
        await self.club.bus.publish_data(f"game:{self.id}", {"aborted": self.aborted()})
        moved = RoundMoved(game_id=self.id, seats=self.seats, notes=(), finished=True,
                           game_ended=True, summary=self.summary())  # fmt: skip
        await self.club.events.emit(moved)

    async def _tell_absent(self, applied: Applied, to_act: int | None) -> None:
        """Tell a player who is not in the room what waits for him (PL-8; ``notify`` words
        it): a double or a beaver offered in this action, a draw offered (to the side
        that answers it, whoever is to move), else his turn."""
        table = applied.table
        told: set[int] = set()
        kinds = {event["type"] for event in applied.events}
        cube = table.offered_cube()
        if cube is not None and to_act is not None and kinds & {"doubled", "beavered"}:
            await self._tell(to_act, offer=cube[0], cube=cube[1])
            told.add(to_act)
        for event in applied.events:
            if event["type"] == "draw_offered":
                seat = table.seat_of(Side.from_letter(event["side"]).other)
                await self._tell(seat, offer="draw")
                told.add(seat)
        if to_act is not None and to_act not in told:
            await self._tell(to_act)

    async def _tell(self, seat: int, *, offer: str | None = None, cube: int | None = None) -> None:
        """Emit :class:`TurnAwaits` for ``seat`` if he is away (not a bot, not still on the
        way from the lobby to a game just begun)."""
        game = self.game
        assert game is not None
        away = game.away0 if seat == 0 else game.away1
        if seat in self.bot_seats:
            return
        if away is None or (away == game.created_at and self.club.now() - away < ARRIVAL):
            return  # here, or still on the way from the lobby to a game just begun
        other = self.names.get(self.seats[1 - seat], "?")
        await self.club.events.emit(
            TurnAwaits(self.id, self.seats[seat], game.variant, other, offer=offer, cube=cube)
        )

    # --- presence -------------------------------------------------------------------

    @property
    def live(self) -> bool:
        return self.game is not None and self.game.status == "live"

    async def restarted(self) -> None:
        """This process has just started: nobody is known to be at the game, so every
        person's seat is away until a socket of his arrives (PL-7; issue 16, item 5: after a
        crash an absent player was counted present, and his game held its escrow for ever).
        A seat stored as present is away from now; one already away keeps its mark, so a
        restart gives nobody a new grace (an outage itself is credited: ``outage``). A
        process that still holds one of his sockets says so again at once (:meth:`refresh`)."""
        now = self.club.now()
        for seat in (0, 1):
            if self.live and seat not in self.bot_seats and self.here[seat] == 0:
                assert self.game is not None
                away = away_of(self.game, seat)
                await self._mark(seat, now if away is None else away)

    async def _store_mark(self, seat: int, away: float | None) -> float:
        values: dict[str, Any] = {f"away{seat}": away}
        if away is None:
            values[f"arrived{seat}"] = True  # he has opened the game: no abort any more
        async with self.club.db.writing() as connection:  # one statement, no ORM
            await connection.execute(
                update(Game.__table__).where(Game.id == self.id).values(values)  # type: ignore[arg-type]
            )
        self._remember_mark(seat, away)
        assert self.game is not None
        return self._grace(self.game, seat)

    def _remember_mark(self, seat: int, away: float | None) -> bool:
        game = self.game
        if game is None:
            return False
        setattr(game, f"away{seat}", away)
        if away is None:
            setattr(game, f"arrived{seat}", True)  # he has opened the game: no abort any more
        return True

    async def refresh(self) -> None:
        """Reload after another process changed the game (presence, events); a seat it
        marked away while one of his sockets is open here is marked present again."""
        async with self.lock:
            before = self.table.seq if self.table is not None else -1
            await self._catch_up_stored()
            self.advanced(before, self.table.seq if self.table is not None else -1)
        game = self.game
        if game is not None:
            for seat in (0, 1):
                await self._present_again(seat, away_of(game, seat))
        self.schedule()

    # --- timers ---------------------------------------------------------------------

    def deadline(self) -> float:
        """When this round must next check for a fallen flag or an absent player."""
        game, table = self.game, self.table
        if game is None or table is None or game.status != "live":
            return math.inf
        now = self.club.now()
        deadline = math.inf
        clock = self.clock()
        if clock is not None and clock.control.timed:
            wait = clock.time_to_flag(max(now, clock.at or now))
            if wait is not None:
                deadline = now + wait + flag_allowance(self.club.db.is_sqlite)
        seat = self.to_act_seat()
        if seat is not None:
            away = away_of(game, seat)
            if away is not None:
                deadline = min(deadline, away + self._grace(game, seat))
        for seat in never_arrived(game):
            deadline = min(deadline, (away_of(game, seat) or now) + self._grace(game, seat))
        return deadline

    def schedule(self) -> None:
        self.timer.at(self.deadline())

    def stop(self) -> None:
        self.timer.stop()


def away_of(game: Game, seat: int) -> float | None:
    return game.away0 if seat == 0 else game.away1


def never_arrived(game: Game) -> tuple[int, ...]:
    """The seats whose player has not opened the game since it began (a bot always has)."""
    return tuple(seat for seat, arrived in enumerate((game.arrived0, game.arrived1))
                 if not arrived)  # fmt: skip


AnyRound = Round | ChouetteRound
"""A two-player game's round or a chouette table's."""


class Rounds:
    """This process's rounds, loaded on first use; at start, every live game's (for timers)."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.rounds: dict[str, AnyRound] = {}
        self.loading: dict[str, asyncio.Future[AnyRound]] = {}

    async def get(self, game_id: str) -> AnyRound:
        found = self.rounds.get(game_id)
        if found is not None:
            return found
        if game_id in self.loading:
            return await self.loading[game_id]
        future: asyncio.Future[AnyRound] = asyncio.get_running_loop().create_future()
        self.loading[game_id] = future
        try:
            round_ = await self._new(game_id)
            await round_.load()
            self.rounds[game_id] = round_
            round_.schedule()
            future.set_result(round_)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self.loading[game_id]
        await self.club.events.emit(RoundLoaded(game_id))
        return round_

    async def _new(self, game_id: str) -> AnyRound:
        async with self.club.db.read() as session:
            kind = await session.scalar(select(Game.kind).where(Game.id == game_id))
        if kind == "chouette":
            return ChouetteRound(self.club, game_id)
        return Round(self.club, game_id)

    async def start(self) -> None:
        """Load every live game so that its timers run even if nobody reconnects; nobody
        counts as present at any of them until he does (:meth:`Round.restarted`)."""
        async with self.club.db.read() as session:
            ids = list(await session.scalars(
                select(Game.id).where(Game.status.in_(("live", "waiting")))
            ))  # fmt: skip
        for game_id in ids:
            with contextlib.suppress(ApiError):
                round_ = await self.get(game_id)
                await round_.restarted()

    def forget_finished(self) -> None:
        """Drop finished games nobody is connected to (they reload from the log on demand)."""
        for game_id, round_ in list(self.rounds.items()):
            if (
                round_.game is not None
                and round_.game.status != "live"
                and not any(round_.here.values())
            ):
                round_.stop()
                del self.rounds[game_id]

    async def halt(self) -> None:
        """Stop every round's timer and wait for the checks already running to unwind:
        the database closes next (see :meth:`CheckTimer.halt`)."""
        await asyncio.gather(*(round_.timer.halt() for round_ in self.rounds.values()))


def rounds_of(club: Club) -> Rounds:
    """This process's rounds (``app.py`` provides them when the club starts)."""
    return club.need(Rounds)
