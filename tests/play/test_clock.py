"""Clocks (PL-6 time controls, PL-7 flag fall): time is passed in, nothing sleeps.

Property tests use times that are multiples of 1/64 s, so float arithmetic is exact
and "every second is accounted for" can be checked with ``==``; one property uses
arbitrary floats to check that ``time_to_flag`` and ``flagged`` agree anyway.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sheshbesh.play.clock
from sheshbesh.games.race import Side
from sheshbesh.play.clock import (
    Clock,
    ClockError,
    FlagFell,
    InvalidTimeControl,
    TimeControl,
)

WHITE, BLACK = 0, 1
DELAY = TimeControl.parse("delay 12s + 5m")
FISCHER = TimeControl.parse("fischer 5m + 3s")


def started(control: TimeControl = DELAY, side: int = WHITE, now: float = 0.0) -> Clock:
    return Clock.start(control).run(side, now)


# Time controls (PL-6) ---------------------------------------------------------


def test_pl6_text_forms_of_the_two_kinds_and_untimed() -> None:
    assert TimeControl("delay", reserve=300, delay=12) == DELAY
    assert TimeControl("fischer", reserve=300, increment=3) == FISCHER
    assert TimeControl.parse("untimed") == TimeControl.untimed()
    assert not TimeControl.untimed().timed
    assert [str(c) for c in (DELAY, FISCHER, TimeControl.untimed())] == [
        "delay 12s + 5m",
        "fischer 5m + 3s",
        "untimed",
    ]
    assert str(TimeControl("delay", reserve=5400, delay=7200)) == "delay 2h + 90m"
    assert str(TimeControl("fischer", reserve=0.5, increment=2.25)) == "fischer 0.5s + 2.25s"
    assert TimeControl.parse("  Fischer 1.5m+0.5s ") == TimeControl("fischer", 90, increment=0.5)


def test_pl6_delay_without_reserve_is_a_per_move_time() -> None:
    assert TimeControl.parse("delay 30s + 0s").reserve == 0


seconds = st.floats(min_value=0, max_value=86400, allow_nan=False)


@given(
    st.one_of(
        st.tuples(seconds, seconds)
        .filter(lambda dr: dr[0] > 0 or dr[1] > 0)
        .map(lambda dr: TimeControl("delay", reserve=dr[1], delay=dr[0])),
        st.tuples(seconds.filter(lambda r: r > 0), seconds).map(
            lambda ri: TimeControl("fischer", reserve=ri[0], increment=ri[1])
        ),
        st.just(TimeControl.untimed()),
    )
)
def test_pl6_str_and_parse_round_trip(control: TimeControl) -> None:
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "text"),
        ("delay", "text"),
        ("delay 12s", "text"),
        ("delay 12s + 5m + 1s", "text"),
        ("fischer 5m - 3s", "text"),
        ("bronstein 5m + 3s", "text"),
        ("none", "text"),
        ("delay 12 + 5m", "text"),
        ("delay 12x + 5m", "text"),
        ("delay -1s + 5m", "text"),
        ("delay inf + 5m", "text"),
        ("delay nans + 5m", "text"),
        ("delay 1e999s + 5m", "delay"),
        ("delay 12s + 25h", "reserve"),
        ("fischer 1441m + 3s", "reserve"),
        ("delay 0s + 0s", "reserve"),
        ("fischer 0s + 3s", "reserve"),
    ],
)
def test_pl6_bad_control_texts_name_the_field(text: str, field: str) -> None:
    with pytest.raises(InvalidTimeControl) as error:
        TimeControl.parse(text)
    assert error.value.field == field
    assert str(error.value).startswith(f"{field}: ")


@pytest.mark.parametrize(
    ("fields", "bad"),
    [
        ({"kind": "hourglass", "reserve": 60}, "kind"),
        ({"kind": "delay", "reserve": -1, "delay": 12}, "reserve"),
        ({"kind": "delay", "reserve": 300, "delay": -0.5}, "delay"),
        ({"kind": "fischer", "reserve": 300, "increment": -3}, "increment"),
        ({"kind": "delay", "reserve": 300, "delay": 86400.5}, "delay"),
        ({"kind": "fischer", "reserve": math.inf, "increment": 3}, "reserve"),
        ({"kind": "fischer", "reserve": 300, "increment": math.nan}, "increment"),
        ({"kind": "fischer", "reserve": True, "increment": 3}, "reserve"),
        ({"kind": "fischer", "reserve": "5m", "increment": 3}, "reserve"),
        ({"kind": "delay", "reserve": 0, "delay": 0}, "reserve"),
        ({"kind": "fischer", "reserve": 0, "increment": 3}, "reserve"),
        ({"kind": "delay", "reserve": 300, "delay": 12, "increment": 3}, "increment"),
        ({"kind": "fischer", "reserve": 300, "delay": 12, "increment": 3}, "delay"),
        ({"kind": "untimed", "reserve": 300}, "reserve"),
    ],
)
def test_pl6_invalid_controls_name_the_field(fields: dict[str, object], bad: str) -> None:
    with pytest.raises(InvalidTimeControl) as error:
        TimeControl(**fields)  # type: ignore[arg-type]
    assert error.value.field == bad


# Charging time (PL-6) ---------------------------------------------------------


def test_pl6_delay_is_consumed_before_the_reserve() -> None:
    clock = started(DELAY, WHITE, now=10.0)
    assert clock.delay_left(16.0) == 6.0
    assert clock.remaining(WHITE, 16.0) == 300.0
    assert clock.delay_left(30.0) == 0.0
    assert clock.remaining(WHITE, 30.0) == 292.0  # 20 s: 12 free, 8 from the reserve
    after = clock.press(30.0)
    assert after.remaining(WHITE, 30.0) == 292.0
    assert after.running == BLACK and after.delay_left(30.0) == 12.0
    assert after.remaining(BLACK, 40.0) == 300.0  # the other side's reserve waits


def test_pl6_turn_shorter_than_the_delay_costs_nothing() -> None:
    clock = started(DELAY)
    for now in (5.0, 17.0, 20.0, 32.0):  # turns of 5, 12 (the whole delay), 3 and 12 s
        clock = clock.press(now)
    assert clock.remaining(WHITE, 32.0) == clock.remaining(BLACK, 32.0) == 300.0


def test_pl6_fischer_increment_is_added_when_the_move_is_completed() -> None:
    clock = started(FISCHER, BLACK)
    assert clock.remaining(BLACK, 1.0) == 299.0  # no delay: the reserve runs at once
    clock = clock.press(1.0)
    assert clock.remaining(BLACK, 1.0) == 302.0  # a quick move gains time
    clock = clock.press(61.0)
    assert clock.remaining(WHITE, 61.0) == 243.0
    assert clock.to_json(61.0) == {"white": 243.0, "black": 302.0, "running": 1, "delay_left": 0}


def test_pl6_run_starts_a_turn_with_a_fresh_delay_and_charges_the_running_side() -> None:
    clock = started(DELAY).run(BLACK, now=20.0)  # e.g. the flow ends a turn with no increment
    assert clock.remaining(WHITE, 20.0) == 292.0
    assert clock.running == BLACK and clock.delay_left(20.0) == 12.0


def test_pl6_pause_and_resume_do_not_refresh_the_delay() -> None:
    clock = started(DELAY)
    paused = clock.pause(now=4.0)  # White doubled: the decision is Black's
    assert paused.running is None and paused.delay_left(1000.0) == 8.0
    assert paused.remaining(WHITE, 1000.0) == 300.0  # a pause costs nothing
    resumed = paused.resume(WHITE, now=1000.0)
    assert resumed.delay_left(1000.0) == 8.0  # not 12: the delay is per turn
    assert resumed.remaining(WHITE, 1010.0) == 298.0
    # farming: pausing and resuming again and again never buys a second delay
    for now in range(1010, 1100, 10):
        resumed = resumed.pause(float(now)).resume(WHITE, now + 5.0)
    ran = 4 + 10 + 8 * 5 + 5  # 0–4, 1000–1010, eight 5 s stretches, 1095–1100
    assert resumed.remaining(WHITE, 1100.0) == 300.0 - (ran - 12.0)


def test_pl6_resume_only_continues_the_paused_turn() -> None:
    with pytest.raises(ClockError, match="use run"):
        Clock.start(DELAY).resume(WHITE, 0.0)
    with pytest.raises(ClockError, match="already running"):
        started(DELAY).resume(WHITE, 1.0)
    with pytest.raises(ClockError, match="White's, not Black's"):
        started(DELAY).pause(1.0).resume(BLACK, 2.0)
    with pytest.raises(ClockError, match="already stopped"):
        started(DELAY).pause(1.0).pause(2.0)


def test_pl6_an_answer_has_its_own_delay_and_the_held_turn_keeps_what_it_had_left() -> None:
    doubled = started(DELAY).interrupt(BLACK, now=5.0)  # White doubled after 5 s
    assert doubled.running == BLACK and doubled.held == (WHITE, 7.0)
    assert doubled.delay_left(5.0) == 12.0 and doubled.remaining(WHITE, 5.0) == 300.0
    beavered = doubled.interrupt(WHITE, now=25.0)  # Black beavered after 20 s
    assert beavered.remaining(BLACK, 25.0) == 292.0 and beavered.delay_left(25.0) == 12.0
    assert beavered.held == (WHITE, 7.0)  # still the doubler's turn that is held
    resumed = beavered.give_back(now=30.0)  # White took the beaver in 5 s
    assert resumed.running == WHITE and resumed.held is None
    assert resumed.delay_left(30.0) == 7.0 and resumed.remaining(WHITE, 30.0) == 300.0
    assert resumed.remaining(WHITE, 40.0) == 297.0  # 7 free, then the reserve


def test_pl6_only_a_running_clock_is_interrupted_and_only_a_held_turn_given_back() -> None:
    with pytest.raises(ClockError, match="nothing to give back"):
        started(DELAY).give_back(1.0)
    with pytest.raises(ClockError, match="no turn to interrupt"):
        started(DELAY).pause(1.0).interrupt(BLACK, 2.0)
    with pytest.raises(FlagFell):
        started(DELAY).interrupt(BLACK, 0.0).give_back(400.0)
    # a new turn (run, press) drops what was held
    assert started(DELAY).interrupt(BLACK, 1.0).run(WHITE, 2.0).held is None
    assert started(DELAY).interrupt(BLACK, 1.0).press(2.0).held is None


def test_pl6_sides_may_be_the_race_engines_side_enum() -> None:
    clock = Clock.start(DELAY).run(Side.BLACK, 0.0).press(20.0)
    assert clock.running == Side.WHITE
    assert clock.remaining(Side.BLACK, 20.0) == 292.0
    assert type(clock.to_state()["turn"]) is int
    with pytest.raises(ClockError, match="side must be"):
        clock.remaining(2, 20.0)


# Flag fall (PL-7) -------------------------------------------------------------


def test_pl7_flag_falls_exactly_at_the_boundary() -> None:
    clock = started(DELAY, BLACK, now=100.0)  # deadline: 100 + 12 + 300
    assert clock.time_to_flag(100.0) == 312.0
    assert clock.flagged(411.5) is None and clock.remaining(BLACK, 411.5) == 0.5
    assert clock.flagged(412.0) == BLACK  # remaining == 0 is a fallen flag
    assert clock.remaining(BLACK, 412.0) == 0.0 and clock.time_to_flag(412.0) == 0.0
    assert clock.remaining(BLACK, 9999.0) == 0.0  # never negative
    assert clock.flagged(411.5) is None and clock.press(411.5).remaining(BLACK, 411.5) == 0.5


def test_pl7_a_per_move_time_without_reserve_flags_when_the_delay_is_gone() -> None:
    clock = started(TimeControl.parse("delay 30s + 0s"))
    assert clock.remaining(WHITE, 10.0) == 0.0 and clock.flagged(10.0) is None
    assert clock.flagged(30.0) == WHITE
    assert clock.press(29.0).remaining(WHITE, 29.0) == 0.0


def test_pl7_a_press_after_the_flag_fell_raises_and_changes_nothing() -> None:
    clock = started(FISCHER)
    state = clock.to_state()
    with pytest.raises(FlagFell, match=r"White's flag fell at 300\.0") as error:
        clock.press(301.0)
    assert (error.value.side, error.value.fell_at) == (WHITE, 300.0)
    with pytest.raises(FlagFell):
        clock.run(BLACK, 300.0)
    assert clock.to_state() == state
    with pytest.raises(dataclasses.FrozenInstanceError):
        clock.turn = BLACK  # type: ignore[misc]


def test_pl7_pausing_a_fallen_flag_stops_the_clock_at_zero() -> None:
    over = started(FISCHER).press(10.0).pause(500.0)  # the timeout ends the game
    assert over.flagged(600.0) == BLACK
    assert over.to_json(600.0) == {"white": 293.0, "black": 0.0, "running": None, "delay_left": 0}
    assert over.time_to_flag(600.0) is None


def test_pl7_untimed_games_never_flag() -> None:
    clock = started(TimeControl.untimed())
    for now in (1e6, 2e6, 3e9):
        assert clock.flagged(now) is None and clock.time_to_flag(now) is None
        assert clock.remaining(clock.running or 0, now) == math.inf
        clock = clock.press(now)
    assert clock.running == BLACK
    assert clock.to_json(4e9) == {"white": None, "black": None, "running": 1, "delay_left": None}
    assert json.dumps(clock.to_state())  # stays plain JSON


# Bad events --------------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        lambda c: c.press(9.0),
        lambda c: c.pause(9.0),
        lambda c: c.run(BLACK, 9.0),
        lambda c: c.remaining(WHITE, 9.0),
        lambda c: c.delay_left(9.0),
        lambda c: c.flagged(9.0),
        lambda c: c.time_to_flag(9.0),
        lambda c: c.to_json(9.0),
        lambda c: c.pause(12.0).resume(WHITE, 11.0),
    ],
)
def test_time_going_backwards_raises_and_changes_nothing(event: object) -> None:
    clock = started(DELAY, WHITE, now=10.0)
    state = clock.to_state()
    with pytest.raises(ClockError, match="time went backwards"):
        event(clock)  # type: ignore[operator]
    assert clock.to_state() == state and clock.press(10.0).running == BLACK


@pytest.mark.parametrize("now", [math.nan, math.inf, -math.inf])
def test_a_time_that_is_no_time_raises(now: float) -> None:
    with pytest.raises(ClockError, match="finite"):
        started(DELAY).remaining(WHITE, now)


def test_pressing_a_stopped_clock_raises() -> None:
    for clock in (Clock.start(DELAY), started(DELAY).pause(5.0)):
        with pytest.raises(ClockError, match="stopped"):
            clock.press(6.0)


# Storing and showing -------------------------------------------------------------


def test_state_survives_json_exactly() -> None:
    clock = started(DELAY, now=0.1).press(13.7).pause(15.3)
    restored = Clock.from_state(json.loads(json.dumps(clock.to_state())))
    assert restored == clock
    assert restored.resume(BLACK, 99.9).to_json(120.0) == clock.resume(BLACK, 99.9).to_json(120.0)
    held = started(DELAY, now=0.1).interrupt(BLACK, 3.3)
    assert Clock.from_state(json.loads(json.dumps(held.to_state()))) == held


def test_a_clock_stored_before_held_turns_existed_reads_as_holding_none() -> None:
    state = started(DELAY).to_state()
    del state["held"]
    assert Clock.from_state(state) == started(DELAY)


@pytest.mark.parametrize(
    "change",
    [
        {"control": "delay 12s"},
        {"reserves": [300.0]},
        {"reserves": [300.0, -1.0]},
        {"turn": 2},
        {"turn": None, "ticking": True},
        {"turn_delay": 13.0},
        {"at": "soon"},
        {"held": [2, 1.0]},
        {"held": [0, 13.0]},
        {"held": 7},
    ],
)
def test_from_state_rejects_what_no_clock_could_have_stored(change: dict[str, object]) -> None:
    state = started(DELAY).to_state() | change
    with pytest.raises(ClockError):
        Clock.from_state(state)


def test_clock_module_imports_nothing_impure() -> None:
    tree = ast.parse(Path(sheshbesh.play.clock.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__", "dataclasses", "math", "re", "typing"}


# Properties (PL-6, PL-7) ---------------------------------------------------------

ticks = st.integers(min_value=0, max_value=64 * 400).map(lambda n: n / 64)  # exact in floats
timed_controls = st.one_of(
    st.tuples(ticks, ticks)
    .filter(lambda dr: dr[0] > 0 or dr[1] > 0)
    .map(lambda dr: TimeControl("delay", reserve=dr[1], delay=dr[0])),
    st.tuples(ticks.filter(lambda r: r > 0), ticks).map(
        lambda ri: TimeControl("fischer", reserve=ri[0], increment=ri[1])
    ),
)
# each turn: how long it runs, and how long it is paused in between (None: no pause)
turns = st.lists(st.tuples(ticks, st.none() | ticks), max_size=40)


@given(
    control=timed_controls,
    origin=st.integers(-(64 * 10**6), 64 * 10**6).map(lambda n: n / 64),
    first=st.sampled_from([WHITE, BLACK]),
    steps=turns,
)
def test_pl6_pl7_every_second_is_accounted_for(
    control: TimeControl, origin: float, first: int, steps: list[tuple[float, float | None]]
) -> None:
    clock, now = Clock.start(control).run(first, origin), origin
    ran = [0.0, 0.0]  # time each side's clock ran
    delay_used = [0.0, 0.0]
    increments = [0.0, 0.0]
    for length, pause in steps:
        side = clock.running
        assert side is not None
        before = (clock.remaining(WHITE, now), clock.remaining(BLACK, now))
        delay_before, to_flag = clock.delay_left(now), clock.time_to_flag(now)
        assert to_flag is not None and to_flag > 0
        now += length
        left = clock.remaining(side, now)
        assert left <= before[side] and clock.remaining(1 - side, now) == before[1 - side]
        fallen = clock.flagged(now) == side
        assert fallen == (left == 0 and clock.delay_left(now) == 0)
        assert fallen == (clock.time_to_flag(now) == 0) == (length >= to_flag)
        if fallen:
            with pytest.raises(FlagFell):
                clock.press(now)
            ran[side] += to_flag
            delay_used[side] += delay_before
            clock = clock.pause(now)
            assert clock.flagged(now) == side
            break
        ran[side] += length
        delay_used[side] += delay_before - clock.delay_left(now)
        if pause is None:
            clock = clock.press(now)
            increments[side] += control.increment
            assert clock.remaining(side, now) == left + control.increment
            assert clock.running == 1 - side and clock.delay_left(now) == control.delay
        else:
            clock = clock.pause(now)
            now += pause
            clock = clock.resume(side, now)
            assert clock.remaining(side, now) == left  # a pause costs nothing
    for side in (WHITE, BLACK):
        reserve_used = control.reserve + increments[side] - clock.remaining(side, now)
        assert ran[side] == delay_used[side] + reserve_used
        assert delay_used[side] <= control.delay * (len(steps) + 1)


@given(
    control=timed_controls,
    origin=st.floats(min_value=-1e9, max_value=1e9),
    gaps=st.lists(st.floats(min_value=0, max_value=1e4), max_size=6),
    probe=st.floats(min_value=0, max_value=1e5),
)
def test_pl7_time_to_flag_schedules_a_check_that_finds_the_flag(
    control: TimeControl, origin: float, gaps: list[float], probe: float
) -> None:
    clock, now = Clock.start(control).run(WHITE, origin), origin
    for gap in gaps:
        now += gap
        if clock.flagged(now) is not None:
            break
        clock = clock.press(now)
    now += probe
    side, wait = clock.running, clock.time_to_flag(now)
    assert side is not None and wait is not None and wait >= 0
    assert clock.flagged(now + wait) == side
    fallen = clock.flagged(now) == side
    assert fallen == (wait == 0)
    assert fallen == (clock.remaining(side, now) == 0 and clock.delay_left(now) == 0)


@given(control=timed_controls, steps=turns, later=ticks)
def test_pl6_stored_clocks_lose_and_gain_nothing(
    control: TimeControl, steps: list[tuple[float, float | None]], later: float
) -> None:
    clock, now = Clock.start(control).run(WHITE, 0.0), 0.0
    for length, pause in steps:
        if clock.flagged(now + length) is not None:
            break
        now += length
        clock = clock.press(now) if pause is None else clock.pause(now)
        stored = json.loads(json.dumps(clock.to_state()))
        restored = Clock.from_state(stored)
        assert restored == clock
        assert restored.to_json(now + later) == clock.to_json(now + later)
        if pause is not None:
            now += pause
            assert restored.turn is not None
            clock = restored.resume(restored.turn, now)
