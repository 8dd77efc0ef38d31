"""The club's bots: accounts that accept requests by a policy and play like people.

A bot is a user marked ``is_bot`` with an engine (``gnubg:expert``) and a policy
(variants, the largest stake). It never logs in: :class:`BotHost` acts for it
through the same ``Round.act`` as a person's socket, so the server checks a
bot's actions exactly as it checks anyone's, and the bot's clock runs as a
person's does. Engines think in worker processes: search is CPU-bound and
the event loop serves every other game meanwhile. The bots' workers are
theirs alone: a game's review runs in the reviewer's own (``reviews``).

A bot takes a request in two ways: a private challenge to it (it accepts after
``bot_delay``), or a public request that allows bots and that no person took
within ``bot_patience`` seconds. The club covers its bots' stakes from the
``grants`` account when a bot runs low (``money.house``), so a bot is
never unable to play and the ledger still sums to zero.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.bots import BotError
from sheshbesh.bots.registry import decide_from_log, decide_seat_from_log, make_bot
from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play import draughts as dr
from sheshbesh.play.clock import TimeControl
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.server.events import RequestPosted, RoundLoaded, RoundMoved
from sheshbesh.server.lobby.requests import RequestIn, accept, table_options
from sheshbesh.server.money.house import cover_bot
from sheshbesh.server.rounds.chouette import ChouetteRound
from sheshbesh.server.rounds.chouette_table import action_frame as chouette_frame
from sheshbesh.server.rounds.log import events_after
from sheshbesh.server.rounds.round import Round, rounds_of
from sheshbesh.server.rounds.start import opening_exposure
from sheshbesh.server.rounds.tables import race_action_json
from sheshbesh.store import ledger
from sheshbesh.store.models import Request as GameRequest
from sheshbesh.store.models import User, user_named

from . import roster as bot_roster
from .roster import BotSpec
from .workers import Workers

log = logging.getLogger(__name__)

ACCOUNT_ATTEMPTS = 3
RETRY_WAITS = (1.0, 4.0, 15.0)
"""Seconds before a bot asks again after failing to answer a position (a worker that
died, the database gone a moment); after the last, it leaves the game (``Attendance.gone``)."""
"""Passes at creating bot accounts when other processes on the same database race us."""


def action_frame(action: Any) -> dict[str, Any]:
    """The client frame for a bot's action (what a person's socket would send)."""
    if isinstance(action, act.PlayText):
        return {"type": "play", "text": action.text}
    if isinstance(action, dr.MoveAction):
        return {"type": "move", "text": action.text}
    if isinstance(action, dr.OfferDraw):
        return {"type": "offer_draw", "move": action.move}
    if isinstance(action, dr.AcceptDraw):
        return {"type": "accept_draw"}
    if isinstance(action, dr.DeclineDraw):
        return {"type": "decline_draw"}
    return race_action_json(action)


def seed_for(game_id: str, seq: int) -> int:
    """A bot's randomness per decision: the same game at the same move decides the same."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{seq}".encode()).digest()[:8], "big")


class BotHost:
    """This process's bots: the accounts, the requests they wait on, the moves they think."""

    def __init__(self, club: Club, roster: tuple[BotSpec, ...] | None = None) -> None:
        self.club = club
        self.roster = bot_roster.ROSTER if roster is None else roster
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ids: dict[str, int] = {}
        """Username → user id of every bot account this club has."""
        self.specs: dict[int, BotSpec] = {}
        self.workers = Workers(club.settings.bot_workers)
        """The processes that think for the bots, and for nothing else."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.halted = False
        """The club is shutting down: no bot begins a turn (:meth:`halt`)."""
        self.thinking: dict[str, int] = {}
        """Game id → the sequence number a bot is answering (one decision per game at once)."""
        self.failed: dict[str, tuple[int, int]] = {}
        """Game id (a table's, with the seat) → (the sequence number, how often the bot
        failed to answer it)."""

    # --- accounts ---------------------------------------------------------------------

    async def start(self) -> None:
        """Create missing bot accounts (each with the usual grant), then wake waiting requests."""
        self.loop = asyncio.get_running_loop()
        playable: list[BotSpec] = []
        for spec in self.roster:
            try:
                make_bot(spec.engine)
            except BotError as error:
                log.warning("bot %s left out: %s", spec.username, error)
                continue
            playable.append(spec)
        for attempt in range(ACCOUNT_ATTEMPTS):
            # Processes sharing one database start together; the one that loses the race to
            # create an account rolls back and finds the winner's account on the next pass.
            try:
                made = await self._accounts(playable)
            except IntegrityError:
                if attempt == ACCOUNT_ATTEMPTS - 1:
                    raise
                log.info("bot accounts were being created by another process; looking again")
                continue
            break
        for spec, user_id in made:
            self.ids[spec.username] = user_id
            self.specs[user_id] = spec
        async with self.club.db.read() as session:
            waiting = list(await session.scalars(
                select(GameRequest).where(GameRequest.status == "open")
            ))  # fmt: skip
        for found in waiting:
            self._consider(found, elapsed=self.club.now() - found.created_at)

    async def _accounts(self, specs: list[BotSpec]) -> list[tuple[BotSpec, int]]:
        made: list[tuple[BotSpec, int]] = []
        async with self.club.db.transaction() as session:
            for spec in specs:
                user = await self._account(session, spec)
                if user is not None:
                    made.append((spec, user.id))
        return made

    async def _account(self, session: AsyncSession, spec: BotSpec) -> User | None:
        user = await user_named(session, spec.username)
        if user is not None and not user.is_bot:
            log.warning("bot %s left out: a person has that name", spec.username)
            return None
        if user is None:
            user = User(username=spec.username, username_key=spec.username.lower(),
                        password_hash="!bot", is_bot=True, created_at=self.club.now())  # fmt: skip
            session.add(user)
            await session.flush()
            wallet = await ledger.open_wallet(session, user.id)
            grants = await ledger.system_account(session, "grants")
            entries = [(grants, -ledger.GRANT), (wallet, ledger.GRANT)]
            await ledger.transfer(session, "grant", entries, now=self.club.now())
        user.bot_engine, user.bot_policy = spec.engine, spec.policy()
        return user

    def listing(self) -> list[dict[str, Any]]:
        return [
            {"username": spec.username, "id": self.ids[spec.username], "engine": spec.engine}
            | spec.policy()
            for spec in self.roster
            if spec.username in self.ids
        ]

    def seat_bots(self, exclude: set[int]) -> list[int]:
        """The bots that may take a chouette seat (they play backgammon), not in ``exclude``."""
        return [
            self.ids[spec.username]
            for spec in self.roster
            if spec.username in self.ids
            and "backgammon" in spec.variants
            and self.ids[spec.username] not in exclude
        ]

    # --- requests ---------------------------------------------------------------------

    def request_posted(self, found: GameRequest, invitee: User | None) -> None:
        self._consider(found, elapsed=0.0)

    def _consider(self, found: GameRequest, *, elapsed: float) -> None:
        settings = self.club.settings
        if found.invitee_id is not None:
            spec = self.specs.get(found.invitee_id)
            if spec is not None:
                self._spawn(self._accept(found.id, found.invitee_id, settings.bot_delay - elapsed))
            return
        if not found.bots_may_accept:
            return
        for spec in self.roster:
            bot_id = self.ids.get(spec.username)
            if bot_id is not None and spec.takes(found):
                self._spawn(self._accept(found.id, bot_id, settings.bot_patience - elapsed))
                return

    async def _accept(self, request_id: str, bot_id: int, wait: float) -> None:
        await asyncio.sleep(max(0.0, wait))
        async with self.club.db.read() as session:
            bot = await session.get(User, bot_id)
        if bot is None:
            return
        try:
            await accept(self.club, request_id, bot)
        except ApiError as error:  # taken by a person meanwhile, cancelled, …
            log.info("bot %s did not take request %s: %s", bot.username, request_id, error)

    async def exhibition(self, first: str, second: str, body: RequestIn) -> dict[str, Any]:
        """Two bots play each other (an operator's show game; tests of the whole path)."""
        kind, options = table_options(body)
        control = TimeControl.parse(body.clock)
        async with self.club.db.transaction() as session:
            owner = await session.get(User, self.ids[first])
            assert owner is not None
            needed = body.stake * opening_exposure(kind, body.variant, options)
            await cover_bot(session, owner, needed, self.club.now())
            found = GameRequest(
                id=self.club.new_id(), owner_id=owner.id, variant=body.variant, stake=body.stake,
                options=options, clock=str(control), status="open", created_at=self.club.now(),
                invitee_id=self.ids[second], bots_may_accept=False,
            )  # fmt: skip
            session.add(found)
        async with self.club.db.read() as session:
            acceptor = await session.get(User, self.ids[second])
        assert acceptor is not None
        return await accept(self.club, found.id, acceptor)

    # --- playing ----------------------------------------------------------------------

    def subscribe(self) -> None:
        """Hear of new requests and of every change of a round (the club's events)."""

        def on_request(posted: RequestPosted) -> None:
            self.request_posted(posted.request, posted.invitee)

        def on_round(changed: RoundMoved | RoundLoaded) -> None:
            round_ = rounds_of(self.club).rounds.get(changed.game_id)
            if isinstance(round_, Round):
                self.poke(round_)
            elif isinstance(round_, ChouetteRound):
                self.poke_table(round_)

        self.club.events.on(RequestPosted, on_request)
        self.club.events.on(RoundMoved, on_round)
        self.club.events.on(RoundLoaded, on_round)

    def poke(self, round_: Round) -> None:
        """Called after every change of a round: if a bot must act now, let it think."""
        if not round_.bot_seats or not round_.live or round_.table is None:
            return
        seat = acting_seat(round_)
        if seat is None or seat not in round_.bot_seats:
            return
        seq = round_.table.seq
        if self.thinking.get(round_.id) == seq:
            return
        self.thinking[round_.id] = seq
        self._spawn(self._act(round_, seat, seq))

    async def _act(self, round_: Round, seat: int, seq: int) -> None:
        try:
            await asyncio.sleep(self.club.settings.bot_delay)
            table = round_.table
            if table is None or table.seq != seq or not round_.live:
                return
            engine = round_.bot_seats[seat]
            side = table.side_of(seat)
            budget = self._budget(round_, side)
            async with self.club.db.read() as session:
                log_ = await events_after(session, round_.id, -1)
            if len(log_) != seq + 1:
                return  # the game moved on meanwhile; the next poke decides
            kind = round_.game.kind if round_.game is not None else table.kind
            try:
                action = await self._think(engine, round_.id, kind, log_, side, budget,
                                           seed_for(round_.id, seq))  # fmt: skip
            except BotError as error:
                # The bot cannot answer: its clock runs on as a person's would (PL-7).
                log.warning("bot %s in game %s: %s", engine, round_.id, error)
                self._failed(round_, seat, seq, round_.id, lambda: self.poke(round_))
                return
            frame = action_frame(action)
            if frame["type"] in round_.uncovered:  # a beaver the escrow cannot hold: take
                frame = {"type": "take"}
            await round_.act(round_.seats[seat], seq, frame)
            self.failed.pop(round_.id, None)
        except ApiError as error:
            log.info("bot in game %s refused at %s: %s", round_.id, seq, error)
            self._failed(round_, seat, seq, round_.id, lambda: self.poke(round_))
        except Exception:
            log.exception("bot in game %s failed at %s", round_.id, seq)
            self._failed(round_, seat, seq, round_.id, lambda: self.poke(round_))
        finally:
            if self.thinking.get(round_.id) == seq:
                del self.thinking[round_.id]

    def _failed(self, round_: Round | ChouetteRound, seat: int, seq: int, key: str,
                again: Callable[[], None]) -> None:  # fmt: skip
        """A bot that did not answer asks again a little later (``again``: nothing else
        would wake it, the game waits for its move); after :data:`RETRY_WAITS`, it leaves
        the game, which PL-7 then forfeits after the grace, as it would a player gone.
        Without this an untimed game against a bot that failed once waited for ever, its
        stakes held."""
        before, times = self.failed.get(key, (seq, 0))
        times = times + 1 if before == seq else 1
        self.failed[key] = (seq, times)
        self._spawn(self._again(round_, seat, seq, key, times, again))

    async def _again(self, round_: Round | ChouetteRound, seat: int, seq: int, key: str,
                     times: int, again: Callable[[], None]) -> None:  # fmt: skip
        if times > len(RETRY_WAITS):
            self.failed.pop(key, None)
            log.warning("bot in game %s leaves seat %s: %d answers at %s failed", round_.id,
                        seat, times - 1, seq)  # fmt: skip
            await round_.gone(seat)
            return
        await asyncio.sleep(RETRY_WAITS[times - 1])
        again()

    def poke_table(self, round_: ChouetteRound) -> None:
        """After every change of a chouette table: each bot seat with something on its menu
        thinks (several at once while a double is answered; each answers on his own)."""
        table, game = round_.table, round_.game
        if not round_.bot_seats or table is None or game is None or game.status != "live":
            return
        for seat in table.acting():
            key = f"{round_.id}:{seat}"
            if seat not in round_.bot_seats or self.thinking.get(key) == table.seq:
                continue
            self.thinking[key] = table.seq
            self._spawn(self._act_seat(round_, seat, table.seq, key))

    async def _act_seat(self, round_: ChouetteRound, seat: int, seq: int, key: str) -> None:
        try:
            await asyncio.sleep(self.club.settings.bot_delay)
            table = round_.table
            if table is None or table.seq != seq or seat not in round_.bot_seats:
                return
            async with self.club.db.read() as session:
                log_ = await events_after(session, round_.id, -1)
            if len(log_) != seq + 1:
                return  # the table moved on meanwhile; the next poke decides
            clock = round_.seat_clock()
            budget = None
            if clock is not None:
                budget = max(0.05, min(2.0, clock.remaining(seat, self.club.now()) / 20))
            try:
                action = await self.workers.run(
                    decide_seat_from_log, round_.bot_seats[seat], round_.id, log_, seat, budget,
                    seed_for(round_.id, seq) ^ seat,
                )  # fmt: skip
            except BotError as error:
                log.warning("bot at table %s seat %s: %s", round_.id, seat, error)
                self._failed(round_, seat, seq, key, lambda: self.poke_table(round_))
                return
            if action is not None:
                await round_.act(round_.seated[seat], seq, chouette_frame(action))
            self.failed.pop(key, None)
        except ApiError as error:
            log.info("bot at table %s seat %s refused at %s: %s", round_.id, seat, seq, error)
            self._failed(round_, seat, seq, key, lambda: self.poke_table(round_))
        except Exception:
            log.exception("bot at table %s seat %s failed at %s", round_.id, seat, seq)
            self._failed(round_, seat, seq, key, lambda: self.poke_table(round_))
        finally:
            if self.thinking.get(key) == seq:
                del self.thinking[key]

    def _budget(self, round_: Round, side: Side) -> float | None:
        """The bot's own time when its clock is short: a twentieth of what is left."""
        clock = round_.clock()
        if clock is None or not clock.control.timed:
            return None
        left = clock.remaining(int(side), self.club.now())
        return max(0.05, min(2.0, left / 20))

    async def _think(self, engine: str, game_id: str, kind: str, log_: list[dict[str, Any]],
                     side: Side, budget: float | None, seed: int) -> Any:  # fmt: skip
        return await self.workers.run(decide_from_log, engine, game_id, kind, log_, side, budget,
                                      seed)  # fmt: skip

    # --- housekeeping -----------------------------------------------------------------

    def _spawn(self, work: Any) -> None:
        if self.halted:  # shutting down: a timeout check may still start a game
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def halt(self) -> None:
        """Cancel the bots' turns and wait for them to unwind before the database closes
        (a turn cut off inside a transaction must not find it closed under it). No turn
        begins after this: the rounds' timers still run until they are halted next."""
        self.halted = True
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.workers.stop()


def acting_seat(round_: Round) -> int | None:
    """The seat whose answer the game waits for (a draw offer is answered off-turn)."""
    table = round_.table
    if table is None or table.finished:
        return None
    state = table.state
    if isinstance(state, dr.DraughtsGame) and state.draw_offer is not None:
        return table.seat_of(state.draw_offer.other)
    return round_.to_act_seat()
