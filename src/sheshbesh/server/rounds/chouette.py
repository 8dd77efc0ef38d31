"""A chouette table's round: the one owner of a table in this process (issue 18).

A table is one ``games`` row of kind ``chouette`` whose log is the whole
session (docs/chouette.md): seating, the order roll, every game's events. Like
:class:`~sheshbesh.server.rounds.round.Round`, a :class:`ChouetteRound` takes
one command at a time under its lock, in one transaction that locks the row,
catches up with what another process stored, applies the command through
``sheshbesh.play`` and stores its events, the seats' escrow (``money.seats``)
and the clock together; only after the commit is anyone told.

What differs from two seats:

- several seats act at once: each doubled member answers on his own, so an
  answer is checked against the event that asked it (``table.asked``), not the
  latest sequence number; every other action keeps the exact check;
- each seat has its own menu (``legal`` by seat), its own clock
  (:class:`~sheshbesh.play.seat_clock.SeatClock`) and its own presence
  (``game_seats.away``); a fallen flag or an absence past the grace is the
  game's ``Timeout(seat)`` (PL-7), one seat at a time;
- between games there is a break (``chouette_break``): leavers are refunded,
  newcomers sit down, then the next game starts (CH-9's lineup, or the order
  roll before the first, CH-2; a banker who cannot cover banking passes the
  bank, PL-5). Seats away at the start, or short of a seat's hold, are
  unseated and refunded first;
- a game's end is always stored (CH-8, PL-7): the next game's holds are raised
  after it only as far as the wallets allow, and whoever is left short is
  unseated when the next game starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play import actions as act
from sheshbesh.play import chouette as ch
from sheshbesh.play.chouette_session import Close, Join, Leave, PassBank, RollOrder, SessionAction
from sheshbesh.play.clock import TimeControl
from sheshbesh.play.dice import DiceBox
from sheshbesh.play.errors import IllegalAction
from sheshbesh.play.fair import FairDice
from sheshbesh.play.ratings import rating_pool
from sheshbesh.play.seat_clock import SeatClock, follow
from sheshbesh.server.accounts.avatars import avatar_url
from sheshbesh.server.club import Club
from sheshbesh.server.errors import (
    ApiError,
    Conflict,
    Forbidden,
    NotFound,
)
from sheshbesh.server.events import BetsSettled, RoundMoved, TableClosed, TurnAwaits
from sheshbesh.server.money import seats as money
from sheshbesh.server.money.house import cover_bot
from sheshbesh.server.standings import ratings as standings
from sheshbesh.store.models import Game, GameEvent, GameSeat, Notification, User
from sheshbesh.store.models import Request as GameRequest

from .attendance import Attendance
from .chouette_table import ChouetteTable
from .log import events_after, flag_allowance, keep_dice, locked_game, stored_dice
from .timer import CheckTimer

log = logging.getLogger(__name__)
ARRIVAL = 15.0
"""Seconds a seated person may be away when a game starts before he is unseated."""


Done = tuple[list[dict[str, Any]], "ChouetteTable"]
"""A command's events and the table after them."""


@dataclass
class Seat:
    """A seat as the round knows it (the ``game_seats`` row's columns it needs)."""

    user_id: int
    held: int = 0
    away: float | None = None
    arrived: bool = False
    left: bool = False


class ChouetteRound(Attendance):
    """A chouette table as this process knows it: the session, the seats, who is here."""

    kind = "chouette"

    def __init__(self, club: Club, game_id: str) -> None:
        self.club = club
        self.id = game_id
        self.lock = asyncio.Lock()
        self.table: ChouetteTable | None = None
        self.game: Game | None = None
        self.seat_rows: dict[int, Seat] = {}
        """Every seat ever taken at the table (a leaver's too: old events name him)."""
        self.names: dict[int, str] = {}
        self.avatars: dict[int, str] = {}
        self.bot_seats: dict[int, str] = {}
        self.here: dict[int, int] = defaultdict(int)
        self.timer = CheckTimer(f"chouette {game_id}", self.expire, club.now)
        self.before_offer: ChouetteTable | None = None
        self.ratings: dict[int, dict[str, Any]] = {}
        self.uncovered: frozenset[str] = frozenset()
        self.notes: list[Notification] = []
        """Notes the command under way stored (a table's end), pushed after its commit."""

    # --- loading --------------------------------------------------------------------

    async def load(self) -> None:
        async with self.club.db.read() as session:
            game = await session.get(Game, self.id)
            if game is None:
                raise NotFound(f"no game {self.id!r}")
            events = await events_after(session, self.id, -1)
            await self._read_seats(session)
            await self._read_ratings(session)
        self.game = game
        self.table = ChouetteTable.replay(events[0], events[1:])

    async def _read_seats(self, session: AsyncSession) -> None:
        rows = list(await session.scalars(select(GameSeat).where(GameSeat.game_id == self.id)))
        self.seat_rows = {
            row.seat: Seat(row.user_id, row.held, row.away, row.arrived, row.left_at is not None)
            for row in rows
        }
        ids = [row.user_id for row in rows]
        users = list(await session.scalars(select(User).where(User.id.in_(ids)))) if ids else []
        self.names = {user.id: user.username for user in users}
        self.avatars = {user.id: avatar_url(user) for user in users}
        engines = {user.id: user.bot_engine for user in users if user.bot_engine}
        self.bot_seats = {
            seat: engines[row.user_id]
            for seat, row in self.seat_rows.items()
            if row.user_id in engines and not row.left
        }

    async def _read_ratings(self, session: AsyncSession) -> None:
        """Each seated player's backgammon rating and what this table did to it: read when
        the table is loaded and after a command that seats someone or settles a bet."""
        ids = sorted({row.user_id for row in self.seat_rows.values()})
        ratings = await standings.ratings_of(session, ids, rating_pool("backgammon"))
        changes = await standings.changes_of(session, self.id)
        self.ratings = {uid: ratings[uid] | {"change": changes.get(uid)} for uid in ids}

    async def catch_up(self, session: AsyncSession, game: Game) -> ChouetteTable:
        table = self.table
        assert table is not None
        if game.seq != table.seq:
            events = await events_after(session, self.id, -1)
            table = ChouetteTable.replay(events[0], events[1:])
        await self._read_seats(session)
        return table

    def follow(self, message: dict[str, Any]) -> bool:
        """Whether this round already has the game as ``message`` leaves it (a table
        always catches up from the stored log: it locks its row for every action)."""
        return self.table is not None and self.table.seq >= message.get("seq", -1)

    # --- reading --------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """The table takes players and moves: waiting for its first game, or in session."""
        return self.game is not None and self.game.status in ("waiting", "live")

    @property
    def seated(self) -> dict[int, int]:
        """Seat → user id of everyone seated now."""
        return {seat: row.user_id for seat, row in self.seat_rows.items() if not row.left}

    @property
    def seats(self) -> tuple[int, ...]:
        """The user ids seated now (the players friends see at this table)."""
        return tuple(self.seated.values())

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for seat, uid in self.seated.items():
            if uid == user_id:
                return seat
        return None

    def players(self) -> list[dict[str, Any]]:
        table = self.table
        results = {} if table is None else dict(table.session.results)
        return [
            {"seat": seat, "id": row.user_id, "username": self.names.get(row.user_id, "?"),
             "avatar": self.avatars.get(row.user_id), "is_bot": seat in self.bot_seats,
             "left": row.left, "result": results.get(seat, 0), "held": row.held,
             "rating": self.ratings.get(row.user_id)}
            for seat, row in sorted(self.seat_rows.items())
        ]  # fmt: skip

    def seat_clock(self) -> SeatClock | None:
        assert self.game is not None
        return self._seat_clock(self.game)

    def next_game_at(self) -> float | None:
        """When the break ends and the next game starts (None: a game runs, or not yet)."""
        if self.game is None or self.table is None:
            return None
        return self._next_game_at(self.game, self.table)

    @staticmethod
    def _next_game_at(game: Game, table: ChouetteTable) -> float | None:
        if game.status != "live" or table.playing or table.finished:
            return None
        at = (game.clock or {}).get("next_game")
        return None if at is None else float(at)

    def clock_json(self, now: float) -> dict[str, Any] | None:
        clock = self.seat_clock()
        return None if clock is None else clock.to_json(now)

    def presence(self) -> list[dict[str, Any]]:
        grace = self.club.settings.abandon_grace
        now = self.club.now()
        return [
            {"seat": seat, "online": row.away is None, "since": row.away,
             "deadline": None if row.away is None else row.away + grace, "now": now}
            for seat, row in sorted(self.seat_rows.items()) if not row.left
        ]  # fmt: skip

    def aborted(self) -> dict[str, Any] | None:
        return None

    def shown_seq(self) -> int:
        """What spectators see: the log up to a cube offer still waiting (PL-3)."""
        assert self.table is not None
        opened = self.table.offer_seq
        return self.table.seq if opened is None else opened - 1

    async def shown(self) -> ChouetteTable:
        table = self.table
        assert table is not None
        seq = self.shown_seq()
        if seq == table.seq:
            return table
        if self.before_offer is None or self.before_offer.seq != seq:
            async with self.club.db.read() as session:
                events = await events_after(session, self.id, -1)
            kept = [event for event in events[1:] if event["seq"] <= seq]
            self.before_offer = ChouetteTable.replay(events[0], kept)
        return self.before_offer

    def to_act_seats(self, table: ChouetteTable | None = None) -> list[int]:
        table = table or self.table
        if table is None or not self.live:
            return []
        return list(table.acting())

    def legal_by_seat(self, table: ChouetteTable | None = None) -> dict[str, list[Any]]:
        table = table or self.table
        if table is None or not self.live:
            return {}
        return {str(seat): table.legal(seat) for seat in table.acting()}

    def crew_seats(self, number: int) -> frozenset[int]:
        """The crew of game ``number`` while it is the table's latest (CH-4: they share a
        room; its banker never reads it)."""
        table = self.table
        if table is None or table.game is None or table.session.number != number:
            return frozenset()
        return frozenset(table.game.lineup.rotation)

    def check_proposal(self, text: str) -> None:
        """A crew member's proposed play must be one the captain may make with his dice now
        (CH-4); the board is asked on a copy, nothing changes."""
        table = self.table
        game = None if table is None else table.game
        if game is None or table is None or not table.playing or game.board.to_act is not ch.CREW:
            raise ApiError("a play is proposed while the captain has dice to play",
                           status=409, code="not_your_turn")  # fmt: skip
        try:
            game.board.apply(act.PlayText(ch.CREW, text), None)
        except ValueError as error:  # the rules' refusals (IllegalPlay, PlayError)
            raise ApiError(f"not a play the captain may make: {error}", status=422,
                           code="illegal_move") from None  # fmt: skip

    def summary(self) -> dict[str, Any]:
        """The table as the lobby's "now playing" list shows it."""
        game, table = self.game, self.table
        assert game is not None and table is not None
        return {
            "id": game.id,
            "kind": game.kind,
            "variant": game.variant,
            "stake": game.stake,
            "control": game.control,
            "players": [p for p in self.players() if not p["left"]],
            "capacity": table.session.capacity,
            "white_seat": 0,
            "score": None,
            "spectators": game.spectators,
            "status": game.status,
            "seq": self.shown_seq(),
        }

    def state_json(self, table: ChouetteTable) -> dict[str, Any]:
        return table.view() | {"next_game_at": self.next_game_at(), "players": self.players()}

    def snapshot(
        self, seat: int | None, now: float, shown: ChouetteTable | None = None
    ) -> dict[str, Any]:
        table = self.table
        assert table is not None
        view = shown if shown is not None else table
        hidden = view is not table
        legal = table.legal(seat) if seat is not None and self.live else None
        return self.summary() | {
            "seq": view.seq,
            "you": seat,
            "state": self.state_json(view),
            "clock": self.clock_json(now),
            "held": None,
            "presence": self.presence(),
            "aborted": None,
            "to_act": None if hidden else self.to_act_seats(view),
            "legal": legal or None,
        }

    async def snapshot_for(self, seat: int | None, now: float) -> dict[str, Any]:
        return self.snapshot(seat, now, None if seat is not None else await self.shown())

    def message_now(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """:meth:`message` for ``events`` with the table as this round has it now."""
        assert self.table is not None
        return self.message(events, self.table)

    def message(self, events: list[dict[str, Any]], table: ChouetteTable) -> dict[str, Any]:
        """The bus message that tells every process's sockets about ``events``."""
        return {
            "events": events,
            "seq": table.seq,
            "state": self.state_json(table),
            "clock": self.clock_json(self.club.now()),
            "held": None,
            "to_act": self.to_act_seats(table),
            "legal": self.legal_by_seat(table),
            "offer": table.offer_seq,
        }

    # --- acting ---------------------------------------------------------------------

    async def act(self, user_id: int | None, seen: int, data: Any) -> int:
        """A seated person's action on the game at ``seen``; returns the new sequence."""

        async def work(session: AsyncSession, game: Game, table: ChouetteTable) -> Done:
            seat = self._check(game, table, user_id, seen, data)
            now = self.club.now()
            clock = self._seat_clock(game)
            if clock is not None and clock.flagged(now) is not None:
                self._later(0.0)
                raise Conflict("a clock has run out: the game moves on first; resync",
                               code="stale")  # fmt: skip
            return await self._apply(session, game, table, table.parse(data, seat), now)

        _, after = await self._run(work)
        return after.seq

    async def _run(self, work: Callable[[AsyncSession, Game, ChouetteTable], Awaitable[Done]]
                   ) -> Done:  # fmt: skip
        """One command: under the lock, in one transaction with the table's row locked and
        caught up; the round adopts the result and everyone is told after the commit."""
        async with self.lock:
            self.notes = []
            async with self.club.db.transaction() as session:
                game = await locked_game(session, self.id)
                table = await self.catch_up(session, game)
                events, after = await work(session, game, table)
                await self._read_seats(session)
                if any(e["type"] == "seated" or e.get("paid") for e in events):
                    await self._read_ratings(session)
            self.game, self.table = game, after
            notes, self.notes = tuple(self.notes), []
        await self.publish(events, after, notes)
        return events, after

    def _check(self, game: Game, table: ChouetteTable, user_id: int | None, seen: int,
               data: Any) -> int:  # fmt: skip
        seat = self.seat_of(user_id)
        if seat is None:
            raise Forbidden("only the table's seated players can act; spectators watch",
                            code="not_a_player")  # fmt: skip
        if game.status != "live":
            raise Conflict("the table is not playing", code="game_over")
        fresh = seen == table.seq
        if table.is_answer(data) and table.asked is not None:
            fresh = table.asked <= seen <= table.seq  # others answer meanwhile: not stale
        if not fresh:
            raise Conflict(
                f"stale action: it was sent at move {seen}, the table is at {table.seq};"
                " resync and try again",
                code="stale",
            )
        return seat

    async def _apply(
        self, session: AsyncSession, game: Game, table: ChouetteTable, action: SessionAction,
        now: float,
    ) -> Done:  # fmt: skip
        """Apply ``action``, store its events, money and clock; the table after it."""
        dice = stored_dice(self.club, game)
        after, events = table.step(action, dice)
        await self._store(session, game, table, after, list(events), now)
        keep_dice(game, dice)
        return list(events), after

    async def _store(self, session: AsyncSession, game: Game, before: ChouetteTable,
                     after: ChouetteTable, events: list[dict[str, Any]],
                     now: float) -> None:  # fmt: skip
        """Write the events, the seats' money and the clock of one command."""
        for event in events:
            session.add(GameEvent(game_id=game.id, seq=event["seq"], event=event, at=now))
        game.seq = after.seq
        stake = game.stake
        for event in events:
            if event["type"] == "left":
                await money.release_seat(session, game, event["seat"], event["seq"], now)
            elif event.get("paid"):
                payments: dict[int, int] = defaultdict(int)
                for seat, amount in event["paid"]:
                    payments[seat] += amount * stake
                if any(payments.values()):
                    await money.pay_seats(session, game, payments, event["seq"], now)
                if game.rated:
                    bets = await self._bets(session, event)
                    await self.club.events.emit(BetsSettled(session, game, bets, now))
        if after.finished:  # the table ends: every seat still taken gets its hold back
            for seat in await money.seats_of(session, game):
                await money.release_seat(session, game, seat, after.seq, now)
            game.status = "finished"
            game.finished_at = now
            game.result = {"reason": after.session.closed,
                           "results": after.view()["results"]}  # fmt: skip
            game.clock = None
            closed = TableClosed(session, game, await self._points(session, after), now)
            await self.club.events.emit(closed)
            self.notes += closed.notes
            return
        if stake:
            needs = {seat: need * stake for seat, need in after.holds().items()}
            await self._cover_bots(session, needs, now)
            if after.playing:
                await money.hold_seats(self.club, session, game, needs, after.seq, now)
            else:
                await self._hold_between(session, game, needs, events, after.seq, now)
                await money.trim_seats(session, game, needs, after.seq, now)
        game.clock = self._clock_after(game, before, after, events, now)

    async def _hold_between(
        self, session: AsyncSession, game: Game, needs: dict[int, int],
        events: list[dict[str, Any]], seq: int, now: float,
    ) -> None:  # fmt: skip
        """Between games a newcomer holds a seat's 3 × S or does not sit down (CH-10). A
        seat already taken is raised if its wallet covers it, else keeps what it holds
        (seat by seat once one is short): a loser who cannot refill must never undo the
        end of a game (CH-8); the next start unseats him (:meth:`_start`)."""
        joined = {event["seat"] for event in events if event["type"] == "seated"}
        if joined:
            await money.hold_seats(self.club, session, game, {s: needs[s] for s in joined},
                                   seq, now)  # fmt: skip
        taken = {seat: need for seat, need in needs.items() if seat not in joined}
        if not await self._holds(session, game, taken, seq, now):
            for seat, need in sorted(taken.items()):
                await self._holds(session, game, {seat: need}, seq, now)

    async def _holds(self, session: AsyncSession, game: Game, needs: dict[int, int], seq: int,
                     now: float) -> bool:  # fmt: skip
        """Raise the seats' holds to ``needs`` (FUN) if they can be covered (PL-5); if
        not, nothing changes and the answer is False."""
        try:
            async with session.begin_nested():
                await self._cover_bots(session, needs, now)
                await money.hold_seats(self.club, session, game, needs, seq, now)
        except ApiError:
            return False
        return True

    async def _sitters(self, session: AsyncSession) -> dict[int, int]:
        """Seat → the person who took it, as stored (another process may have seated him)."""
        rows = await session.execute(
            select(GameSeat.seat, GameSeat.user_id).where(GameSeat.game_id == self.id)
        )
        return dict(rows.all())

    async def _points(self, session: AsyncSession, table: ChouetteTable) -> dict[int, int]:
        """Each person's result at the table in points, over all the seats he took."""
        points: dict[int, int] = defaultdict(int)
        results = dict(table.session.results)
        for seat, user_id in (await self._sitters(session)).items():
            points[user_id] += results.get(seat, 0)
        return dict(points)

    async def _bets(
        self, session: AsyncSession, event: dict[str, Any]
    ) -> tuple[tuple[int, int, bool], ...]:
        """The bets an event pays: its ``paid`` comes in pairs, the member's share and then
        the banker's (``play/chouette.py``), as (banker, member, the banker won)."""
        paid = event["paid"]
        who = await self._sitters(session)
        pairs = zip(paid[::2], paid[1::2], strict=True)
        return tuple((who[banker], who[member], amount < 0)
                     for (member, amount), (banker, _) in pairs)  # fmt: skip

    def _clock_after(self, game: Game, before: ChouetteTable, after: ChouetteTable,
                     events: list[dict[str, Any]], now: float) -> dict[str, Any]:  # fmt: skip
        """The seats' clocks after ``events`` (PL-6: the clocks of the seats the game waits
        for run; each game starts with full reserves) and when the break ends."""
        state = dict(game.clock or {})
        kinds = {event["type"] for event in events}
        control = TimeControl.parse(game.control)
        clock = self._seat_clock(game)
        if "game_started" in kinds and control.timed:
            clock = SeatClock.start(control, after.session.seats)
        if clock is not None:
            for seat in after.session.seats:
                clock = clock.with_seat(seat)
            boards = {event["e"]["type"] for event in events if event["type"] == "board"}
            clock = follow(clock, after.waiting_for(), now,
                           offer=bool(kinds & {"banker_doubled", "crew_doubled"}),
                           turn_over=bool(boards & {"played", "passed"}))  # fmt: skip
        state["clock"] = None if clock is None else clock.to_state()
        if before.playing and not after.playing:
            state["next_game"] = now + self.club.settings.chouette_break
        elif after.playing:
            state["next_game"] = None
        return state

    async def _cover_bots(self, session: AsyncSession, needs: dict[int, int], now: float) -> None:
        """The club covers what its bots hold (``money.house``), as in two-player games."""
        for seat, need in needs.items():
            if seat in self.bot_seats:
                bot = await session.get(User, self.seat_rows[seat].user_id)
                if bot is not None:
                    await cover_bot(session, bot, need, now)

    def _seat_clock(self, game: Game) -> SeatClock | None:
        state = (game.clock or {}).get("clock")
        return None if state is None else SeatClock.from_state(state)

    # --- the session: seats, start, close -------------------------------------------

    async def join(self, user: User) -> int:
        """Seat ``user`` at the next free seat, holding 3 × S (CH-10); a table that this
        fills starts its first game."""

        async def work(session: AsyncSession, game: Game, table: ChouetteTable) -> Done:
            if game.status not in ("waiting", "live"):
                raise Conflict("the table is closed", code="game_over")
            if self.seat_of(user.id) is not None:
                raise Conflict("you already have a seat at this table", code="already_seated")
            if table.session.full:
                raise Conflict(f"the table is full ({table.session.capacity} seats)",
                               code="table_full")  # fmt: skip
            if table.playing:
                raise Conflict("a game is being played: take a seat between games",
                               code="game_running")  # fmt: skip
            now = self.club.now()
            row = await money.take_seat(session, game, table.session.taken, user.id, now)
            row.away = None if user.is_bot else now
            row.arrived = user.is_bot
            if user.is_bot:  # the club covers its bots' stakes (money.house)
                self.bot_seats[row.seat] = user.bot_engine or ""
                self.seat_rows[row.seat] = Seat(user.id)
            return await self._apply(session, game, table, Join(row.seat), now)

        _, after = await self._run(work)
        seat = after.session.seats[-1]
        if after.session.full and self.game is not None and self.game.status == "waiting":
            with contextlib.suppress(ApiError):
                await self.start_next(None)
        return seat

    async def leave_table(self, user: User) -> None:
        """Give up a seat between games: its hold comes back."""

        async def work(session: AsyncSession, game: Game, table: ChouetteTable) -> Done:
            seat = self.seat_of(user.id)
            if seat is None or game.status not in ("waiting", "live"):
                raise Conflict("you have no seat at this table", code="not_a_player")
            if table.playing:
                raise Conflict("leave between games: leaving a game forfeits it (PL-7)",
                               code="game_running")  # fmt: skip
            done = await self._apply(session, game, table, Leave(seat), self.club.now())
            if game.status == "waiting" and not self.seated.keys() - {seat}:
                done = await self._apply(session, game, done[1], Close(), self.club.now())
            return done

        await self._run(work)

    async def close(self, user: User | None) -> None:
        """End the table between games (its owner's word); every hold comes back."""

        async def work(session: AsyncSession, game: Game, table: ChouetteTable) -> Done:
            if user is not None and self.owner_id != user.id:
                raise Forbidden("only the table's owner closes it", code="not_owner")
            if game.status not in ("waiting", "live") or table.finished:
                raise Conflict("the table is closed", code="game_over")
            if table.playing:
                raise Conflict("the table closes between games", code="game_running")
            return await self._apply(session, game, table, Close(), self.club.now())

        await self._run(work)

    @property
    def owner_id(self) -> int | None:
        row = self.seat_rows.get(0)
        return None if row is None else row.user_id

    async def start_next(self, user: User | None) -> None:
        """Start the next game now: the owner's word (at least three seated), or the
        break's end (``user`` None)."""

        async def work(session: AsyncSession, game: Game, table: ChouetteTable) -> Done:
            if user is not None and self.owner_id != user.id:
                raise Forbidden("only the table's owner starts its games", code="not_owner")
            if game.status not in ("waiting", "live") or table.finished:
                raise Conflict("the table is closed", code="game_over")
            if table.playing:
                raise Conflict("a game is being played", code="game_running")
            return await self._start(session, game, table)

        await self._run(work)

    async def _start(self, session: AsyncSession, game: Game, table: ChouetteTable
                     ) -> tuple[list[dict[str, Any]], ChouetteTable]:  # fmt: skip
        now = self.club.now()
        events: list[dict[str, Any]] = []
        for seat, row in sorted(self.seat_rows.items()):  # away, or short: unseated
            if not row.left and not await self._ready(session, game, table, seat, now):
                done, table = await self._apply(session, game, table, Leave(seat), now)
                events += done
                if table.finished:
                    return events, table
        if len(table.session.seats) < ch.MIN_SEATS:
            raise Conflict(f"a chouette game needs {ch.MIN_SEATS} seated players (CH-1)",
                           code="too_few_players")  # fmt: skip
        if table.session.next_lineup() is None:  # CH-2 first: its banker is checked too
            done, table = await self._apply(session, game, table, RollOrder(), now)
            events += done
        for _ in range(len(table.session.seats)):  # PL-5: who cannot bank passes the bank
            lineup = table.session.next_lineup()
            if lineup is None or not game.stake:
                break
            need = table.session.bank_needs() * game.stake
            if await self._holds(session, game, {lineup.banker: need}, table.seq, now):
                break
            done, table = await self._apply(session, game, table, PassBank(lineup.banker), now)
            events += done
        game.status = "live"
        done, table = await self._apply(session, game, table, act.Start(), now)
        return events + done, table

    async def _ready(self, session: AsyncSession, game: Game, table: ChouetteTable, seat: int,
                     now: float) -> bool:  # fmt: skip
        """Whether a seated person plays the next game: he is here (or still on his way
        from the lobby) and holds a seat's 3 × S (CH-10), which a lost game may have left
        his wallet unable to refill (:meth:`_hold_between`)."""
        away = self.seat_rows[seat].away
        if away is not None and now - away >= ARRIVAL:
            return False
        need = table.session.held(seat) * game.stake
        return not need or await self._holds(session, game, {seat: need}, table.seq, now)

    # --- timers ---------------------------------------------------------------------

    async def expire(self) -> None:
        """A fallen flag or an absence past the grace is the seat's timeout (PL-7); the
        break's end starts the next game, or ends a table too small for one (CH-1)."""
        start = False
        ended: list[str] = []

        async def work(session: AsyncSession, game: Game, table: ChouetteTable) -> Done:
            nonlocal start, ended
            if game.status == "waiting" and self._owner_gone():
                # Its owner left before the first game: the table ends, every hold back.
                ended = await close_requests_of(session, game.id)
                return await self._apply(session, game, table, Close(), self.club.now())
            if game.status != "live":
                return [], table
            seat = self._forfeiter(game, table)
            if seat is not None:
                return await self._apply(session, game, table, ch.Timeout(seat), self.club.now())
            at = self._next_game_at(game, table)
            start = at is not None and self.club.now() >= at
            return [], table

        await self._run(work)
        for request_id in ended:
            message = {"t": "request_removed", "d": {"id": request_id}}
            await self.club.bus.publish("lobby", json.dumps(message))
        if start:
            try:
                await self.start_next(None)
            except ApiError as error:
                log.info("chouette %s: the next game cannot start: %s", self.id, error.message)
                await self._close_short()
        self.schedule()

    async def _close_short(self) -> None:
        """The break is over and the game cannot start (too few players): the table ends."""
        with contextlib.suppress(ApiError, IllegalAction):
            await self.close(None)

    def _forfeiter(self, game: Game, table: ChouetteTable) -> int | None:
        now = self.club.now()
        clock = self._seat_clock(game)
        if clock is not None:
            flagged = clock.flagged(now - flag_allowance(self.club.db.is_sqlite))
            if flagged is not None and flagged in table.waiting_for():
                return flagged
        grace = self.club.settings.abandon_grace
        for seat in table.waiting_for():
            row = self.seat_rows.get(seat)
            if row is not None and row.away is not None and now >= row.away + grace:
                return seat
        return None

    def _owner_gone(self) -> bool:
        """Before the first game: the owner has been away for the grace (at least the
        15 s he has to go from the lobby to the room)."""
        return self.club.now() >= self._owner_deadline()

    def _owner_deadline(self) -> float:
        owner = self.seat_rows.get(0)
        if owner is None or owner.away is None:
            return math.inf
        return owner.away + max(self.club.settings.abandon_grace, ARRIVAL)

    def deadline(self) -> float:
        game, table = self.game, self.table
        owner = self.seat_rows.get(0)
        if game is not None and game.status == "waiting" and owner is not None:
            return self._owner_deadline()
        if game is None or table is None or game.status != "live":
            return math.inf
        now = self.club.now()
        deadline = math.inf
        clock = self.seat_clock()
        if clock is not None:
            wait = clock.time_to_flag(now)
            if wait is not None:
                deadline = now + wait + flag_allowance(self.club.db.is_sqlite)
        grace = self.club.settings.abandon_grace
        for seat in table.waiting_for():
            row = self.seat_rows.get(seat)
            if row is not None and row.away is not None:
                deadline = min(deadline, row.away + grace)
        at = self.next_game_at()
        if at is not None:
            deadline = min(deadline, at)
        return deadline

    def schedule(self) -> None:
        self.timer.at(self.deadline())

    def _later(self, delay: float) -> None:
        self.timer.at(self.club.now() + delay)

    def stop(self) -> None:
        self.timer.stop()

    # --- telling --------------------------------------------------------------------

    async def publish(self, events: list[dict[str, Any]], table: ChouetteTable,
                      notes: tuple[Notification, ...] = ()) -> None:  # fmt: skip
        """Adopt ``table``, tell every process's sockets, then this club's packages (and
        push ``notes``, stored with the events)."""
        self.table = table
        if not events:
            return
        await self.club.bus.publish_data(f"game:{self.id}", self.message(events, table))
        game_ended = any(event["type"] in ("finished", "closed") for event in events)
        started = any(event["type"] == "game_started" for event in events)
        moved = RoundMoved(
            game_id=self.id,
            seats=self.seats,
            notes=notes,
            finished=table.finished,
            game_ended=game_ended or started,
            summary=self.summary() if table.finished or game_ended or started else None,
        )
        if not table.finished:
            await self._tell_absent(events, table)
        await self.club.events.emit(moved)
        self.schedule()

    async def _tell_absent(self, events: list[dict[str, Any]], table: ChouetteTable) -> None:
        """PL-8: an away seat hears that the game waits for him: a doubled member (or the
        banker facing the crew's doubles) of the double, a banker or captain of his turn."""
        game = table.game
        if game is None or not table.playing:
            return
        kinds = {event["type"] for event in events}
        offered = bool(kinds & {"banker_doubled", "crew_doubled"})
        boards = {event["e"]["type"] for event in events if event["type"] == "board"}
        turned = bool(kinds & {"game_started", "captain_replaced", "answers_in"})
        if not offered and not turned and not boards & {"played", "passed"}:
            return
        for seat in game.waiting_for():
            row = self.seat_rows.get(seat)
            if row is None or row.away is None or seat in self.bot_seats:
                continue
            if not row.arrived and self.club.now() - row.away < ARRIVAL:
                continue  # still on his way from the lobby
            cube = 2 * game.cube_of(seat).value if offered and seat in game.pending else None
            facing = game.captain if seat == game.banker else game.banker
            other = self.names.get(self.seat_rows[facing].user_id, "?")
            await self.club.events.emit(
                TurnAwaits(self.id, row.user_id, "chouette", other,
                           offer="double" if offered else None, cube=cube)
            )  # fmt: skip

    # --- presence -------------------------------------------------------------------

    async def restarted(self) -> None:
        """This process has just started: every person seated is away until he comes,
        from now, or from the mark he had (a restart gives nobody a new grace)."""
        now = self.club.now()
        for seat in list(self.seated):
            if self.live and seat not in self.bot_seats and self.here[seat] == 0:
                away = self.seat_rows[seat].away
                await self._mark(seat, now if away is None else away)

    async def _store_mark(self, seat: int, away: float | None) -> float:
        values: dict[str, Any] = {"away": away}
        if away is None:
            values["arrived"] = True
        async with self.club.db.writing() as connection:
            await connection.execute(
                update(GameSeat.__table__)  # type: ignore[arg-type]
                .where(GameSeat.game_id == self.id, GameSeat.seat == seat)
                .values(values)
            )
        self._remember_mark(seat, away)
        return self.club.settings.abandon_grace

    def _remember_mark(self, seat: int, away: float | None) -> bool:
        row = self.seat_rows.get(seat)
        if row is None:
            return False
        row.away = away
        row.arrived = row.arrived or away is None
        return not row.left

    async def refresh(self) -> None:
        """Reload after another process changed the table (presence, events)."""
        async with self.lock, self.club.db.read() as session:
            game = await session.get(Game, self.id)
            if game is not None:
                before = self.table.seq if self.table is not None else -1
                self.table = await self.catch_up(session, game)
                self.game = game
                self.advanced(before, self.table.seq)
        for seat, row in list(self.seat_rows.items()):
            if not row.left:
                await self._present_again(seat, row.away)
        self.schedule()


async def open_table(
    club: Club, session: AsyncSession, found: Any, owner: User, game_id: str
) -> Game:
    """Create a chouette table for the request ``found``: its row (``waiting`` until its
    first game), its log's first event and the owner in seat 0 holding 3 × S (CH-10), in
    the caller's transaction (the one that stores the request)."""
    now = club.now()
    dice = FairDice(DiceBox.open(club.new_seed), club.new_seed, lambda: club.new_id())
    table, created = ChouetteTable.create(found.seats, dice.commit)
    control = TimeControl.parse(found.clock)
    game = Game(
        id=game_id, kind="chouette", variant="backgammon", stake=found.stake,
        control=str(control), seat0_id=None, seat1_id=None, status="waiting", seq=0,
        dice_secret=dice.box.secret.hex(), next_roll=dice.box.next_roll,
        clock={"clock": None, "next_game": None}, held0=0, held1=0,
        away0=None, away1=None, arrived0=True, arrived1=True,
        spectators=0, created_at=now, rated=bool(found.rated),
    )  # fmt: skip
    session.add(game)
    session.add(GameEvent(game_id=game_id, seq=0, event=created, at=now))
    await session.flush()
    row = await money.take_seat(session, game, 0, owner.id, now)
    row.away, row.arrived = now, False
    after, events = table.step(Join(0), None)
    for event in events:
        session.add(GameEvent(game_id=game_id, seq=event["seq"], event=event, at=now))
    game.seq = after.seq
    if game.stake:
        need = after.holds()[0] * game.stake
        await money.hold_seats(club, session, game, {0: need}, after.seq, now)
    return game


async def close_requests_of(session: AsyncSession, game_id: str) -> list[str]:
    """The lobby request of a table that ends: no longer open; its id."""
    ids = list(await session.scalars(
        select(GameRequest.id).where(GameRequest.game_id == game_id,
                                     GameRequest.status == "open")
    ))  # fmt: skip
    await session.execute(
        update(GameRequest).where(GameRequest.id.in_(ids)).values(status="withdrawn")
    )
    return ids
