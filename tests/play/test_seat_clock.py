"""Clocks for N seats (chouette, PL-6 for seats): hand-made cases and random games.

PL-6 as RULES.md words it: the delay belongs to the turn. A banker's turn that his
double interrupts goes on, once the answers are in, with the delay it had left;
each answerer runs on his own clock with a delay of his own; a new captain's turn
starts with a full delay. Then chouette games played at random, their clock
followed after every action: a fallen flag always names a seat the game waits for
(so the server's Timeout is legal), reserves only ever shrink (there is no
increment in a delay control), and no held delay grows.
"""

from __future__ import annotations

import json
import random

import pytest
from dice_sources import SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st
from test_chouette_forfeits import random_action

from sheshbesh.play import actions as act
from sheshbesh.play.chouette import ChouetteGame, Timeout, draw_order
from sheshbesh.play.clock import ClockError, TimeControl
from sheshbesh.play.seat_clock import SeatClock, follow

DELAY = TimeControl.parse("delay 10s + 1m")


def test_pl6_each_answerer_has_his_own_clock_and_the_banker_keeps_his_turns_delay():
    clock = follow(SeatClock.start(DELAY, (0, 1, 2, 3)), (0,), now=0.0)
    clock = follow(clock, (1, 2, 3), now=7.0, offer=True)  # 3 s of delay left, held
    assert clock.held == ((0, 3.0),) and clock.seats_running == (1, 2, 3)
    clock = follow(clock, (2, 3), now=12.0)  # seat 1 answered in 5 s: inside his delay
    assert clock.remaining(1, now=99.0) == 60.0
    clock = follow(clock, (3,), now=25.0)  # seat 2 took 18 s: 8 past his delay
    assert clock.remaining(2, now=99.0) == 52.0
    assert clock.remaining(3, now=25.0) == 52.0 and clock.delay_left(3, now=25.0) == 0.0
    clock = follow(clock, (0,), now=30.0)  # all answered: the banker's turn goes on
    assert clock.delay_left(0, now=30.0) == 3.0 and clock.held == ()
    assert clock.remaining(0, now=40.0) == 53.0


def test_pl6_a_new_turn_or_a_new_captain_gets_a_full_delay():
    clock = follow(SeatClock.start(DELAY, (0, 1, 2)), (1,), now=0.0)
    clock = follow(clock, (2,), now=4.0)  # the captain replaced: seat 2 takes the turn over
    assert clock.delay_left(2, now=4.0) == 10.0
    clock = follow(clock, (0,), now=6.0, turn_over=True)
    assert clock.delay_left(0, now=6.0) == 10.0 and clock.held == ()


def test_pl7_a_delay_without_reserve_flags_only_when_the_delay_is_spent():
    """``delay 30s + 0s``: each turn has its 30 s and nothing after (PL-7 forfeits only a
    player out of time; the flag once fell at a turn's first second)."""
    clock = follow(SeatClock.start(TimeControl.parse("delay 30s + 0s"), (0, 1, 2)), (1,), now=0.0)
    assert clock.flagged(now=1.0) is None and clock.flagged(now=29.9) is None
    assert clock.time_to_flag(now=1.0) == 29.0 and clock.flagged(now=30.0) == 1
    clock = follow(clock, (2,), now=20.0, turn_over=True)  # a move in time: a new full delay
    assert clock.flagged(now=49.9) is None and clock.flagged(now=50.0) == 2


def test_a_flag_falls_for_the_lowest_seat_first_and_untimed_never_falls():
    clock = follow(SeatClock.start(DELAY, (0, 1, 2)), (2, 1), now=0.0)
    assert clock.time_to_flag(now=0.0) == 70.0 and clock.flagged(now=69.9) is None
    assert clock.flagged(now=70.0) == 1
    untimed = follow(SeatClock.start(TimeControl.untimed(), (0, 1, 2)), (0,), now=0.0)
    assert untimed.flagged(now=10**9) is None and untimed.time_to_flag(now=0.0) is None


def test_a_newcomer_gets_a_full_reserve():
    clock = SeatClock.start(DELAY, (0, 1, 2)).with_seat(3)
    assert clock.remaining(3, now=0.0) == 60.0


def after_step(clock: SeatClock, game: ChouetteGame, events: list[dict], now: float) -> SeatClock:
    """The server's rule for a chouette table: the clocks of whoever the game waits for."""
    kinds = {e["type"] for e in events} | {e["e"]["type"] for e in events if e["type"] == "board"}
    offer = bool(kinds & {"banker_doubled", "crew_doubled"})
    turn_over = bool(kinds & {"played", "passed"})
    return follow(clock, game.waiting_for(), now, offer=offer, turn_over=turn_over)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(3, 8))
def test_random_games_flag_only_seats_the_game_waits_for(seed, seats):
    rng = random.Random(seed)
    lineup = draw_order(list(range(seats)), lambda n: [rng.randint(1, 6) for _ in range(n)])
    game, _ = ChouetteGame.create(lineup)
    dice = SeededDice(seed)
    now = 0.0
    step = game.apply(act.Start(), dice)
    game = step.game
    clock = after_step(SeatClock.start(DELAY, range(seats)), game, list(step.events), now)
    actions = 0
    while not game.finished and actions < 3000:
        actions += 1
        before = {seat: clock.remaining(seat, now) for seat in range(seats)}
        now += rng.choice([0.5, 3.0, 9.0, 14.0])
        flagged = clock.flagged(now)
        if flagged is not None:
            assert flagged in game.waiting_for()
            action: object = Timeout(flagged)
        else:
            action = random_action(game, rng, 0.0)
        step = game.apply(action, dice)  # type: ignore[arg-type]
        game = step.game
        clock = after_step(clock, game, list(step.events), now)
        for seat in range(seats):
            assert clock.remaining(seat, now) <= before[seat]
        assert all(0 <= delay <= DELAY.delay for _, delay in clock.held)


def test_a_stored_seat_clock_comes_back_exactly() -> None:
    """The table's row keeps the clock as JSON: running, held and reserves survive it."""
    clock = SeatClock.start(TimeControl.parse("delay 10s + 1m"), (0, 1, 2))
    clock = follow(clock, (0,), now=0.25)
    clock = follow(clock, (1, 2), now=4.5, offer=True)
    stored = json.loads(json.dumps(clock.to_state()))
    assert SeatClock.from_state(stored) == clock
    with pytest.raises(ClockError):
        SeatClock.from_state({"control": "delay 10s + 1m"})
