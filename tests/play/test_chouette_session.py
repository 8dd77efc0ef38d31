"""A chouette table's session (issue 18): seats, the order roll, game after game.

Hand-made cases from RULES.md §10 (CH-1 three to eight seats, CH-2 the order roll
with ties rolled again among the tied, CH-9 the rotation after each game, CH-10
the escrow), the session's own rules (joins and leaves between games only, a
newcomer at the end of the rotation, a leaving banker's bank to the next in line,
the bank passed by one who cannot cover it, the end below three seats), and a
property test: whole sessions of random games with joins, leaves and timeouts keep
the money at zero, never take from a seat more than its escrow held, and replay
from their log.
"""

from __future__ import annotations

import random

import pytest
from dice_sources import ListDice, SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st
from test_chouette_forfeits import random_action

from sheshbesh.play import actions as act
from sheshbesh.play.chouette import LARGEST_LEVEL, Answer, Double, Lineup, Timeout
from sheshbesh.play.chouette_session import (
    ChouetteSession,
    Close,
    Join,
    Leave,
    PassBank,
    RollOrder,
    replay_session,
)
from sheshbesh.play.errors import IllegalAction, InvalidOptions

ANN, BEN, CID, DORA, EVE = range(5)


class Table:
    """A session and its log, acted on with the given dice."""

    def __init__(self, capacity: int = 5, dice: object = None, replays: bool = True) -> None:
        self.session, self.created = ChouetteSession.create(capacity)
        self.events: list[dict] = []
        self.dice = dice or SeededDice(1)
        self.replays = replays
        """Fold the whole log again after every action (the property test does it once)."""

    def do(self, action: object) -> list[dict]:
        step = self.session.apply(action, self.dice)  # type: ignore[arg-type]
        self.session = step.session
        self.events += step.events
        if self.replays:
            assert replay_session(self.created, self.events) == self.session
        return list(step.events)

    def seat(self, count: int) -> None:
        for _ in range(count):
            self.do(Join(self.session.taken))

    def finish_game_by_banker_timeout(self) -> None:
        """End the running game fast: the banker runs out of time on his turn or
        answering, or the waiting crew drops, until the game is over."""
        while self.session.playing:
            game = self.session.game
            assert game is not None
            self.do(Timeout(game.waiting_for()[0]))


def test_ch1_a_table_has_three_to_eight_seats():
    for capacity in (2, 9, True, "4"):
        with pytest.raises(InvalidOptions):
            ChouetteSession.create(capacity)  # type: ignore[arg-type]
    assert ChouetteSession.create(3)[0].capacity == 3


def test_ch2_the_order_roll_is_a_fair_roll_event_per_group_and_ties_roll_again():
    # CH-E1: Ann 5, Ben 6, Cid 2, Dora 5; Ann and Dora roll again: 3, 1.
    table = Table(4, ListDice([(5, 6, 2, 5), (3, 1), (3, 1)]))
    table.seat(4)
    events = table.do(act.Start())
    rolls = [e for e in events if e["type"] == "order_rolled"]
    assert [(e["seats"], e["dice"]) for e in rolls] == [
        ([0, 1, 2, 3], [5, 6, 2, 5]),
        ([0, 3], [3, 1]),
    ]
    drawn = next(e for e in events if e["type"] == "lineup_drawn")
    assert (drawn["banker"], drawn["rotation"]) == (BEN, [ANN, DORA, CID])
    game = table.session.game
    assert game is not None and game.lineup == Lineup(BEN, (ANN, DORA, CID))
    started = next(e for e in events if e["type"] == "game_started")
    assert started["game"] == 1 and table.session.number == 1
    # The board's opening roll comes right after, tagged with the game's number.
    board = [e for e in events if e["type"] == "board"]
    assert board and all(e["game"] == 1 and "game_seq" in e for e in board)


def test_ch1_a_game_needs_three_seats_and_nobody_sits_or_leaves_while_it_runs():
    table = Table(4)
    table.seat(2)
    with pytest.raises(IllegalAction, match="CH-1"):
        table.do(act.Start())
    table.seat(1)
    table.do(act.Start())
    before = table.session
    for action in (Join(3), Leave(ANN), PassBank(ANN), Close(), act.Start()):
        with pytest.raises(IllegalAction, match="between games"):
            table.do(action)
        assert table.session == before


def test_bad_seating_is_refused_and_changes_nothing():
    table = Table(3)
    table.seat(3)
    before = table.session
    with pytest.raises(IllegalAction, match="full"):
        table.do(Join(3))
    with pytest.raises(IllegalAction, match="not at the table"):
        table.do(Leave(7))
    table2 = Table(4)
    table2.seat(1)
    with pytest.raises(IllegalAction, match="next free seat is 1"):
        table2.do(Join(0))  # the same seat twice
    assert table.session == before


def test_ch9_the_next_game_follows_the_rotation_with_joins_and_leaves_between():
    table = Table(5, SeededDice(3))
    table.seat(4)
    table.do(act.Start())
    first = table.session.game
    assert first is not None
    table.finish_game_by_banker_timeout()
    done = table.session.game
    assert done is not None and done.finished and done.next_lineup is not None
    assert table.session.next_lineup() == done.next_lineup
    # Eve sits down: she goes to the end of the rotation.
    table.do(Join(4))
    following = table.session.next_lineup()
    assert following is not None and following.rotation[-1] == EVE
    assert following.banker == done.next_lineup.banker
    # The next banker leaves: the first of the rotation banks instead.
    banker = following.banker
    table.do(Leave(banker))
    after = table.session.next_lineup()
    assert after is not None and after.banker == following.rotation[0]
    assert banker not in (after.banker, *after.rotation)
    table.do(act.Start())
    game = table.session.game
    assert game is not None and game.lineup == after and table.session.number == 2


def test_pl5_a_banker_who_cannot_cover_passes_the_bank_to_the_next_in_line():
    table = Table(4)
    table.seat(4)
    table.do(act.Start())
    table.finish_game_by_banker_timeout()
    lineup = table.session.next_lineup()
    assert lineup is not None
    with pytest.raises(IllegalAction, match="not the next banker"):
        table.do(PassBank(lineup.rotation[0]))
    table.do(PassBank(lineup.banker))
    passed = table.session.next_lineup()
    assert passed == Lineup(lineup.rotation[0], (*lineup.rotation[1:], lineup.banker))
    assert table.session.bank_needs() == LARGEST_LEVEL * 3


def test_pl5_the_order_roll_comes_first_so_its_banker_may_pass_the_bank():
    # CH-E1's roll: Ben banks, then Ann, Dora, Cid. Ben cannot cover: Ann banks.
    table = Table(4, ListDice([(5, 6, 2, 5), (3, 1), (3, 1)]))
    table.seat(2)
    with pytest.raises(IllegalAction, match="CH-1"):
        table.do(RollOrder())
    table.seat(2)
    events = table.do(RollOrder())
    assert [e["type"] for e in events] == ["order_rolled", "order_rolled", "lineup_drawn"]
    assert table.session.next_lineup() == Lineup(BEN, (ANN, DORA, CID))
    with pytest.raises(IllegalAction, match="rolled once"):
        table.do(RollOrder())
    table.do(PassBank(BEN))
    started = table.do(act.Start())
    assert "order_rolled" not in [e["type"] for e in started]  # the roll stands
    game = table.session.game
    assert game is not None and game.lineup == Lineup(ANN, (DORA, CID, BEN))


def test_ch1_the_table_ends_below_three_seats_after_a_game_or_when_closed():
    table = Table(3)
    table.seat(3)
    table.do(Leave(CID))  # before any game: the table waits for a third
    assert not table.session.finished
    table.seat(1)
    table.do(act.Start())
    table.finish_game_by_banker_timeout()
    table.do(Leave(ANN))
    assert table.session.closed == "CH-1"
    with pytest.raises(IllegalAction, match="closed"):
        table.do(Join(4))
    other = Table(4)
    other.seat(3)
    other.do(Close())
    assert other.session.closed == "closed"


def test_ch10_held_counts_a_double_waiting_for_its_answer_at_its_doubled_value():
    table = Table(4)
    table.seat(4)
    table.do(act.Start())
    session = table.session
    game = session.game
    assert game is not None
    for seat in session.seats:  # between the opening and any double: 3 × cube 1
        want = LARGEST_LEVEL * (3 if seat == game.banker else 1)
        assert session.held(seat) == want
    # Play until someone may double, and double: the cubes offered count twice.
    rng = random.Random(5)
    while True:
        game = table.session.game
        assert game is not None and not game.finished
        doubler = next((s for s in game.waiting_for() if game.doublable(s)), None)
        if doubler is not None:
            break
        table.do(random_action(game, rng, 0.0))
    table.do(Double(doubler))
    game = table.session.game
    assert game is not None
    offered = game.pending or game.called
    for member in offered:
        assert table.session.held(member) == LARGEST_LEVEL * 2 * game.cube_of(member).value
    answer = game.pending[0] if game.pending else None
    if answer is not None and game.banker in game.waiting_for():
        table.do(Answer(game.banker, True, answer))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), capacity=st.integers(3, 8), games=st.integers(1, 3))
def test_whole_sessions_keep_the_money_at_zero_and_replay_from_their_log(seed, capacity, games):
    """Random sessions: people come and go between games, the games are played at random
    with timeouts; every step pays within what each seat held, the session's results
    sum to zero, and the log folds back to the live table."""
    rng = random.Random(seed)
    table = Table(capacity, SeededDice(seed), replays=False)
    table.seat(rng.randint(3, capacity))
    for _ in range(games):
        if table.session.finished:
            break
        if rng.random() < 0.5 and not table.session.full:
            table.do(Join(table.session.taken))
        if rng.random() < 0.3 and len(table.session.seats) > 3:
            table.do(Leave(rng.choice(table.session.seats)))
        table.do(act.Start())
        while table.session.playing:
            game = table.session.game
            assert game is not None
            held = {seat: table.session.held(seat) for seat in table.session.seats}
            events = table.do(random_action(game, rng, 0.01))
            paid: dict[int, int] = {}
            for event in events:
                for seat, amount in event.get("paid", ()):
                    paid[seat] = paid.get(seat, 0) + amount
            assert sum(paid.values()) == 0
            for seat, amount in paid.items():
                assert -amount <= held[seat], (seat, amount, held[seat])
            assert len(table.events) < 20_000
    assert sum(amount for _, amount in table.session.results) == 0
    assert replay_session(table.created, table.events) == table.session
