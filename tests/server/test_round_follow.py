"""Several processes deciding one game (issue 20): each round decides in memory, and the
store, not a row lock, keeps the log whole.

Two :class:`Round` objects on one database stand for two processes that serve the
same game (they share nothing but the database, as two processes do; the bus is
this test's own, so what each publishes is read here). Checked on PostgreSQL, where
several processes may serve a game:

- a round that is behind the stored log catches up and decides the player's action
  (he saw a move this round had not heard of);
- two rounds deciding the same turn at the same moment: the store writes one, the
  other writes nothing and its player is told ``stale``; the log has no gap and no
  second move;
- a game ended elsewhere (aborted) takes no move from a round that still thinks it live;
- one batch of the group commit writes a move decided at its game's stored sequence number,
  all its events in their order, and nothing of a move decided at an older one;
- :meth:`Round.follow` folds a published move into the other round without the
  database (a double that raised the escrow too), and refuses a message that does not
  follow on from its table.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from in_process import run_club, statements_sent
from sqlalchemy import select, update
from test_ledger import make_user

from sheshbesh.play.clock import Clock
from sheshbesh.server.chat import rooms as chat
from sheshbesh.server.chat.readers import ChatItem
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.server.rounds.channel import Batch, CatchUp, ChatAgain, Hub, Socket, _write
from sheshbesh.server.rounds.round import Round
from sheshbesh.server.rounds.start import start_game
from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database
from sheshbesh.store.group import Behind, GroupWriter, MoveWrite
from sheshbesh.store.models import Game, GameEvent, User
from sheshbesh.store.models import Request as GameRequest

Body = Callable[[Club, int, int], Awaitable[None]]


@pytest.fixture
def pg_settings(postgres_url: str) -> Settings:
    return Settings(database_url=postgres_url, password_profile="fast")


def run(settings: Settings, body: Body, clock: str = "untimed") -> None:
    """``body(club, ann, bob)`` with a draughts game ``g1`` started: Ann White, to move."""

    async def main(club: Club) -> None:
        db = club.db
        ann, bob = await make_user(db, "ann", 1000), await make_user(db, "bob", 1000)
        request = GameRequest(owner_id=ann, variant="draughts", stake=0, clock=clock,
                              options={"colour": "white"}, rated=False, seats=None)  # fmt: skip
        async with db.transaction() as session:
            await start_game(club, session, request, "g1", bob)
        await body(club, ann, bob)

    run_club(settings, main)


async def loaded(club: Club) -> Round:
    round_ = Round(club, "g1")
    await round_.load()
    return round_


def first_move(round_: Round) -> dict[str, Any]:
    assert round_.table is not None
    return next(frame for frame in round_.table.legal() if frame["type"] == "move")


class Page:
    """The far end of a socket for a real writer (``_write``): the frames it was sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (30 s at most: the assertions after it say what was missing)."""
    for _ in range(600):
        if condition():
            return
        await asyncio.sleep(0.05)


async def stored_seqs(club: Club) -> list[int]:
    async with club.db.read() as session:
        rows = await session.scalars(
            select(GameEvent.seq).where(GameEvent.game_id == "g1").order_by(GameEvent.seq)
        )
        return list(rows)


def test_a_round_behind_the_log_catches_up_and_decides(pg_settings: Settings) -> None:
    async def body(club: Club, ann: int, bob: int) -> None:
        one, two = await loaded(club), await loaded(club)
        seq = await one.act(ann, 0, first_move(one))
        assert seq == 1 and two.table is not None and two.table.seq == 0
        # Bob saw Ann's move through process one; process two has not heard of it.
        seq = await two.act(bob, 1, first_move(one))
        assert seq == 2 and two.table.seq == 2
        assert await stored_seqs(club) == [0, 1, 2]
        # And back: process one is behind now, Ann's next move is decided there.
        assert await one.act(ann, 2, first_move(two)) == 3
        assert await stored_seqs(club) == [0, 1, 2, 3]

    run(pg_settings, body)


def test_a_rounds_clock_is_read_once_for_each_state_the_row_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move asks for the clock again and again (its decision, its message, the next
    deadline): the stored state is read into a clock once, and the next move's state,
    a new one, is read again, so the clock is never the one before the move."""
    read: list[dict[str, Any]] = []
    real = Clock.from_state

    def counted(_cls: type[Clock], state: dict[str, Any]) -> Clock:
        read.append(state)
        return real(state)

    async def body(club: Club, ann: int, bob: int) -> None:
        one = await loaded(club)
        assert one.game is not None
        monkeypatch.setattr(Clock, "from_state", classmethod(counted))
        before = one.clock()
        assert before is not None and before.control.timed
        one.deadline(), one.clock_json(club.now()), one.clock()
        assert len(read) == 1
        await one.act(ann, 0, first_move(one))
        after = one.clock()
        assert after == real(one.game.clock) and after != before
        one.deadline(), one.clock_json(club.now())
        assert len(read) == 2

    run(sqlite_settings(tmp_path), body, clock="delay 12s + 5m")


def test_two_rounds_deciding_one_turn_store_one_move(pg_settings: Settings) -> None:
    async def body(club: Club, ann: int, bob: int) -> None:
        one, two = await loaded(club), await loaded(club)
        assert one.table is not None and two.table is not None
        moves = [frame for frame in one.table.legal() if frame["type"] == "move"]
        assert len(moves) >= 2
        # Ann's two tabs, on two processes, each send a different move at move 0.
        assert await one.act(ann, 0, moves[0]) == 1
        with pytest.raises(ApiError) as refused:
            await two.act(ann, 0, moves[1])
        assert refused.value.code == "stale"
        assert await stored_seqs(club) == [0, 1]
        async with club.db.read() as session:
            game = await session.get(Game, "g1")
            stored = await session.scalar(
                select(GameEvent.event).where(GameEvent.game_id == "g1", GameEvent.seq == 1)
            )
        assert game is not None and game.seq == 1
        assert stored is not None and stored["move"] == moves[0]["text"]
        assert two.table.seq == 1  # it caught up with the move that was stored

    run(pg_settings, body)


def test_a_game_ended_elsewhere_takes_no_move(pg_settings: Settings) -> None:
    async def body(club: Club, ann: int, bob: int) -> None:
        one = await loaded(club)
        async with club.db.writing() as connection:  # another process aborted it
            await connection.execute(
                update(Game.__table__).where(Game.id == "g1").values(status="aborted")  # type: ignore[arg-type]
            )
        with pytest.raises(ApiError) as refused:
            await one.act(ann, 0, first_move(one))
        assert refused.value.code == "game_over"
        assert await stored_seqs(club) == [0]

    run(pg_settings, body)


def test_one_batch_writes_the_current_move_whole_and_nothing_of_a_stale_one(
    pg_settings: Settings,
) -> None:
    async def body(club: Club, ann: int, bob: int) -> None:
        request = GameRequest(owner_id=bob, variant="draughts", stake=0, clock="untimed",
                              options={"colour": "white"}, rated=False, seats=None)  # fmt: skip
        async with club.db.transaction() as session:
            await start_game(club, session, request, "g2", ann)
            g1, g2 = await session.get(Game, "g1"), await session.get(Game, "g2")
        assert g1 is not None and g2 is not None and g1.seq == g2.seq == 0

        def write(game: Game, old: int, kinds: list[str]) -> MoveWrite:
            events = [{"seq": game.seq + 1 + i, "type": kind} for i, kind in enumerate(kinds)]
            columns = {"seq": game.seq + len(kinds), "clock": game.clock, "at": 1.5,
                       "dice_secret": game.dice_secret, "next_roll": game.next_roll}  # fmt: skip
            return MoveWrite(game.id, old, events, columns)

        writer = club.db.group
        batches = writer.batches
        current, stale = write(g1, 0, ["move", "turn", "clock"]), write(g2, 7, ["move"])
        done = await asyncio.gather(writer.write(current), writer.write(stale),
                                    return_exceptions=True)  # fmt: skip
        assert done[0] is None and isinstance(done[1], Behind)
        assert writer.batches == batches + 1  # both went in one batch
        async with club.db.read() as session:
            rows = (await session.execute(
                select(GameEvent.game_id, GameEvent.seq, GameEvent.event, GameEvent.at)
                .where(GameEvent.seq > 0).order_by(GameEvent.id)
            )).all()  # fmt: skip
            games = {g.id: g.seq for g in await session.scalars(select(Game))}
        assert [(r.game_id, r.seq, r.event["type"], r.at) for r in rows] == [
            ("g1", 1, "move", 1.5),
            ("g1", 2, "turn", 1.5),
            ("g1", 3, "clock", 1.5),
        ]
        assert games == {"g1": 3, "g2": 0}

    run(pg_settings, body)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_failed_batch_fails_only_its_bad_move_and_the_writer_goes_on(
    database: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """A batch that fails leaves nothing of itself (on PostgreSQL its one statement is its
    own transaction: the games' update goes back with the refused insert); its moves are
    tried again one by one, each caller hears how his went (the good ones were left
    waiting for ever before), and the writer goes on."""
    settings = (
        request.getfixturevalue("pg_settings") if database == "postgresql"
        else Settings(database_url=str(tmp_path / "club.db"), password_profile="fast")
    )  # fmt: skip

    async def body(club: Club, ann: int, bob: int) -> None:
        request = GameRequest(owner_id=bob, variant="draughts", stake=0, clock="untimed",
                              options={"colour": "white"}, rated=False, seats=None)  # fmt: skip
        async with club.db.transaction() as session:
            await start_game(club, session, request, "g2", ann)

        def write(game_id: str, event_seq: int) -> MoveWrite:
            columns = {"seq": 1, "clock": None, "at": 2.5, "dice_secret": None, "next_roll": 1}
            return MoveWrite(game_id, 0, [{"seq": event_seq, "type": "move"}], columns)

        writer = club.db.group
        bad, good = write("g1", 0), write("g2", 1)  # g1's event 0 is stored: one per seq
        done = await asyncio.gather(writer.write(bad), writer.write(good), return_exceptions=True)
        assert type(done[0]).__name__ in ("UniqueViolationError", "IntegrityError")
        assert done[1] is None
        assert await stored_seqs(club) == [0]
        async with club.db.read() as session:
            games = {g.id: g.seq for g in await session.scalars(select(Game))}
        assert games == {"g1": 0, "g2": 1}
        await writer.write(write("g1", 1))
        assert await stored_seqs(club) == [0, 1]

    run(settings, body)


def sqlite_settings(tmp_path: Path) -> Settings:
    return Settings(database_url=str(tmp_path / "club.db"), password_profile="fast")


def move_of_g1(seq: int) -> MoveWrite:
    """Game g1's move to ``seq`` (decided at ``seq - 1``), one event."""
    columns = {"seq": seq, "clock": None, "at": 2.5, "dice_secret": None, "next_roll": 1}
    return MoveWrite("g1", seq - 1, [{"seq": seq, "type": "move"}], columns)


def test_while_moves_keep_coming_the_writer_lingers_until_the_batch_is_full(
    tmp_path: Path,
) -> None:
    """A move queued while a batch is being written means moves keep coming: the next
    batch waits for company (the linger) and goes as soon as it holds ``cap`` moves.
    The linger here is an hour, so only the cap can have sent the second batch."""

    async def body(club: Club, ann: int, bob: int) -> None:
        writer = GroupWriter(club.db, linger=3600.0, cap=3)
        async with club.db._write_lock:  # the first batch's write waits on SQLite's lock
            first = asyncio.ensure_future(writer.write(move_of_g1(1)))
            while writer.running is None or writer.queue:  # the writer took it as its batch
                await asyncio.sleep(0)
            second = asyncio.ensure_future(writer.write(move_of_g1(2)))
        await first
        while writer.full is None:  # written; now lingering, move 2 queued alone
            await asyncio.sleep(0)
        assert writer.batches == 1 and not second.done()
        third = asyncio.ensure_future(writer.write(move_of_g1(3)))
        await asyncio.sleep(0)
        assert writer.full is not None and not writer.full.is_set()  # two of three
        fourth = asyncio.ensure_future(writer.write(move_of_g1(4)))
        await asyncio.gather(second, third, fourth)
        assert (writer.batches, writer.moves) == (2, 4)
        assert await stored_seqs(club) == [0, 1, 2, 3, 4]

    run(sqlite_settings(tmp_path), body)


def test_a_move_that_finds_the_writer_idle_is_written_at_once(tmp_path: Path) -> None:
    """No linger for the first batch: a quiet club's move waits for nobody (an hour's
    linger would hold this test up for an hour)."""

    async def body(club: Club, ann: int, bob: int) -> None:
        writer = GroupWriter(club.db, linger=3600.0)
        await writer.write(move_of_g1(1))
        await writer.write(move_of_g1(2))  # the writer had gone idle again
        assert (writer.batches, writer.moves) == (2, 2)
        assert await stored_seqs(club) == [0, 1, 2]

    run(sqlite_settings(tmp_path), body)


def test_the_linger_is_postgresqls_unless_set(postgres_url: str, tmp_path: Path) -> None:
    assert Database(postgres_url).group.linger == GroupWriter.LINGER > 0
    assert Database(str(tmp_path / "a.db")).group.linger == 0
    assert Database(postgres_url, linger=0).group.linger == 0
    assert Settings.from_env().group_linger is None


def test_follow_folds_a_published_move_without_the_database(pg_settings: Settings) -> None:
    async def body(club: Club, ann: int, bob: int) -> None:
        heard: list[dict[str, Any]] = []
        await club.bus.subscribe("game:g1", heard.append)
        one, two = await loaded(club), await loaded(club)
        await one.act(ann, 0, first_move(one))
        (message,) = heard
        assert "row" in message and message["row"]["seq"] == 1
        await club.db.close()  # nothing below may touch the database
        assert two.follow(message)
        assert one.table is not None and two.table is not None and two.game is not None
        assert two.table.view() == one.table.view() and two.table.seq == 1
        assert one.game is not None and two.game.clock == one.game.clock
        assert two.follow(message)  # heard twice: already there
        gap = dict(message, seq=3, events=[dict(e, seq=3) for e in message["events"]])
        assert not two.follow(gap)
        assert not two.follow({k: v for k, v in message.items() if k != "row"} | {"seq": 2})

    run(pg_settings, body)


def test_follow_folds_a_double_that_raised_the_escrow_without_the_database(
    pg_settings: Settings,
) -> None:
    """A double raises what each side holds (PL-5) in the game's own transaction (nine
    statements, the game's row written once: it was twelve, the row twice); its
    message carries the escrow's columns, so the other process folds it as it folds a
    plain move (it used to read the row and the log again for each one)."""

    async def body(club: Club, ann: int, bob: int) -> None:
        request = GameRequest(owner_id=ann, variant="backgammon", stake=10, clock="untimed",
                              options={"cube": True}, rated=False, seats=None)  # fmt: skip
        async with club.db.transaction() as session:
            await start_game(club, session, request, "g2", bob)
        heard: list[dict[str, Any]] = []
        await club.bus.subscribe("game:g2", heard.append)
        one, two = Round(club, "g2"), Round(club, "g2")
        await one.load()
        await two.load()
        double = None
        for _ in range(20):
            assert one.table is not None
            seat = one.to_act_seat()
            assert seat is not None
            menu = one.table.legal()
            double = next((f for f in menu if f["type"] == "double"), None)
            if double is not None:
                break
            plain = next(f for f in menu if f["type"] in ("roll", "confirm", "move"))
            await one.act(one.seats[seat], one.table.seq, plain)
            assert two.follow(heard[-1])
        assert double is not None and one.game is not None and one.table is not None
        held = (one.game.held0, one.game.held1)
        with statements_sent(club.db) as sent:
            await one.act(one.seats[seat], one.table.seq, double)
        statements = [" ".join(statement.split()[:3]) for statement in sent]
        # Stored in one transaction of nine statements, the game's row written once.
        assert statements.count("UPDATE games SET") == 1, statements
        assert len(statements) == 9, statements
        message = heard[-1]
        assert [e["type"] for e in message["events"]] == ["doubled"]
        assert (message["row"]["held0"], message["row"]["held1"]) == (2 * held[0], 2 * held[1])
        await club.db.close()  # nothing below may touch the database
        assert two.follow(message)
        assert two.game is not None and two.table is not None
        assert (two.game.held0, two.game.held1) == (one.game.held0, one.game.held1)
        assert two.table.view() == one.table.view() and two.game.seq == one.game.seq

    run(pg_settings, body)


def test_a_move_that_does_not_fold_still_reaches_the_sockets(pg_settings: Settings) -> None:
    """A message the round cannot fold (here a tampered move) is logged and left to a
    refresh from the stored log; the process's sockets get it all the same."""

    async def body(club: Club, ann: int, bob: int) -> None:
        heard: list[dict[str, Any]] = []
        await club.bus.subscribe("game:g1", heard.append)
        one, two = await loaded(club), await loaded(club)
        await one.act(ann, 0, first_move(one))
        (message,) = heard
        tampered = dict(message, events=[dict(e, move="1-50") for e in message["events"]])
        with pytest.raises(ValueError):  # the rules refuse the move: nothing folds
            two.follow(tampered)
        hub = Hub(club, two)
        socket = Socket(ws=None, seat=1)  # type: ignore[arg-type]  # only its queue is used
        hub.sockets.add(socket)
        hub.on_message(tampered)
        batch = socket.queue.get_nowait()
        assert isinstance(batch, Batch) and [seq for seq, _ in batch.events] == [1]
        assert two.table is not None
        for _ in range(600):  # the refresh from the stored log, in the background
            if two.table.seq == 1:
                break
            await asyncio.sleep(0.05)
        assert two.table.seq == 1

    run(pg_settings, body)


def test_a_seats_presence_from_another_process_is_held_without_reading_the_game(
    pg_settings: Settings,
) -> None:
    """PL-7's marks: a process that stores one publishes everything it changed, so the
    others take it as it is (each arrival cost every other process serving the game a
    reload of the row and its log). A seat heard away while one of its sockets is open
    in this process is marked present again, here and in the database."""

    async def body(club: Club, ann: int, bob: int) -> None:
        heard: list[dict[str, Any]] = []
        await club.bus.subscribe(
            "game:g1", lambda m: heard.append(json.loads(m) if isinstance(m, str) else m)
        )
        one, two = await loaded(club), await loaded(club)
        assert two.game is not None and not two.game.arrived0
        await one.arrive(0)
        arrived = heard[-1]["presence"]
        await one.leave(0)
        left = heard[-1]["presence"]
        assert arrived["online"] and not left["online"]
        with statements_sent(club.db) as sent:
            await two.heard_presence(arrived)
            assert (two.game.away0, two.game.arrived0) == (None, True)
            await two.heard_presence(left)
            assert two.game.away0 == left["since"] and two.game.arrived0
            assert two.deadline() <= left["deadline"]  # its grace timer runs here too
        assert sent == []
        # Bob's page is open on this process; another process says he left (his other tab).
        two.here[1] = 1
        await two.heard_presence({"seat": 1, "online": False, "since": club.now()})
        assert two.game.away1 is None and heard[-1]["presence"]["seat"] == 1
        assert heard[-1]["presence"]["online"]
        async with club.db.read() as session:
            stored = await session.get(Game, "g1")
            assert stored is not None and stored.away1 is None and stored.arrived1

    run(pg_settings, body)


def test_a_catch_up_sends_the_sockets_what_this_process_never_heard(
    pg_settings: Settings,
) -> None:
    """Another process dropped its move's message (Redis away), then said ``catch_up``:
    this process reads the game back and hands its sockets the stored move."""

    async def body(club: Club, ann: int, bob: int) -> None:
        one, two = await loaded(club), await loaded(club)
        await one.act(ann, 0, first_move(one))  # its message never reaches ``two``
        hub = Hub(club, two)
        socket = Socket(ws=None, seat=1)  # type: ignore[arg-type]  # only its queue is used
        hub.sockets.add(socket)
        hub.on_message('{"catch_up":true}')
        # The chat's histories first (lines may have been lost too). The reload finds the
        # move: the socket is told to catch up from the log (its writer sends event 1;
        # test_a_reload_that_finds_moves… follows that), and the resync then hands it
        # the latest stored event as a message would have.
        assert isinstance(await asyncio.wait_for(socket.queue.get(), 20), ChatAgain)
        assert isinstance(await asyncio.wait_for(socket.queue.get(), 20), CatchUp)
        batch = await asyncio.wait_for(socket.queue.get(), 20)
        assert isinstance(batch, Batch) and [seq for seq, _ in batch.events] == [1]
        assert two.table is not None and two.table.seq == 1

    run(pg_settings, body)


def test_a_reload_that_finds_moves_no_message_brought_sends_them_to_every_socket(
    pg_settings: Settings,
) -> None:
    """A process killed between storing a move and publishing it: the mover's page opens
    again on this process, whose reload finds the move; the opponent's socket here was
    never told (the bench saw him wait for ever). Now the hub sends each socket what
    the stored log has beyond what it was sent."""

    async def body(club: Club, ann: int, bob: int) -> None:
        one, two = await loaded(club), await loaded(club)
        hub = Hub(club, two)
        page = Page()
        sent = page.sent
        socket = Socket(ws=page, seat=1)  # type: ignore[arg-type]
        hub.sockets.add(socket)
        writer = asyncio.create_task(_write(club, two, socket, 0))
        try:  # its first frames: the state at v=0
            await until(lambda: socket.last == 0 and any(f["t"] == "state" for f in sent))
            sent.clear()
            await one.act(ann, 0, first_move(one))  # stored; its message never reaches two
            await two.refresh()  # as a socket opening here would
            await until(lambda: any(f["t"] == "legal" for f in sent))
            kinds = [(f["t"], f.get("v")) for f in sent]
            assert kinds[0] == ("event", 1) and ("legal", 1) in kinds, kinds
            assert socket.last == 1
            await two.refresh()  # nothing new: nothing sent again
            hub.catch_up_sockets()
            socket.put('{"t":"mark"}')  # sent once the catch-up before it was handled
            await until(lambda: sent[-1] == {"t": "mark"})
            assert [f for f in sent if f["t"] == "event"] == [sent[0]]
            assert sent[-1] == {"t": "mark"}
        finally:
            writer.cancel()

    run(pg_settings, body)


def test_a_chat_line_no_message_brought_reaches_the_socket_with_the_history_again(
    pg_settings: Settings,
) -> None:
    """A line of the players' room stored while the bus lost its message: after a
    catch-up the writer sends the room's history again (the client shows it in place
    of its lines), and a line both in it and queued is sent once."""

    async def body(club: Club, ann: int, bob: int) -> None:
        two = await loaded(club)
        page = Page()
        sent = page.sent
        socket = Socket(ws=page, seat=1)  # type: ignore[arg-type]
        writer = asyncio.create_task(_write(club, two, socket, None))
        try:  # its first frames, the players' room's history last
            await until(lambda: any(f["t"] == "chat_history" for f in sent))
            assert [f["d"]["lines"] for f in sent if f["t"] == "chat_history"] == [[]]
            async with club.db.read() as session:
                user = await session.get(User, ann)
            line = await chat.post(club, user, chat.Room.game("g1", "players"), "lost")
            sent.clear()
            socket.put(ChatAgain())
            socket.put(ChatItem.of(line))  # the line's message after all: already shown
            socket.put('{"t":"mark"}')
            await until(lambda: bool(sent) and sent[-1] == {"t": "mark"})
            assert [f["t"] for f in sent] == ["chat_history", "mark"]
            assert [x["text"] for x in sent[0]["d"]["lines"]] == ["lost"]
        finally:
            writer.cancel()

    run(pg_settings, body)


def test_a_players_page_back_behind_the_log_tells_every_process_the_latest_event(
    pg_settings: Settings,
) -> None:
    """The bench's kill -9 once left a player waiting for ever: his opponent's move was
    stored by a process killed before it published it; the mover's page came back on a
    second process, and the waiting player's socket sat on a third, which never heard
    of it. A seat's page back behind the stored log now has its process publish the
    latest event again, for every process; a page that is current says nothing."""

    async def body(club: Club, ann: int, bob: int) -> None:
        killed = await loaded(club)
        await killed.act(ann, 0, first_move(killed))  # stored; its message is lost with it
        heard: list[dict[str, Any]] = []
        await club.bus.subscribe("game:g1", heard.append)  # the third process
        here = await loaded(club)

        async def page_opens(seat: int | None, since: int) -> None:
            page = Page()
            socket = Socket(ws=page, seat=seat)  # type: ignore[arg-type]
            writer = asyncio.create_task(_write(club, here, socket, since))
            try:  # the histories come after any retelling
                await until(lambda: any(f["t"] == "chat_history" for f in page.sent))
                assert socket.last == 1
            finally:
                writer.cancel()

        await page_opens(1, 1)  # Bob's page, current: nothing said
        await page_opens(None, 0)  # a spectator's, behind: he moved nothing
        assert heard == []
        await page_opens(0, 0)  # Ann's, behind: the move she sent before the kill
        assert [(m["seq"], [e["seq"] for e in m["events"]]) for m in heard] == [(1, [1])]
        assert heard[0]["to_act"] == 1 and heard[0]["legal"]

    run(pg_settings, body)
