"""A race game with a clock (PL-6): delay per turn, cube answers on the answerer's clock, PL-7."""

from __future__ import annotations

import pytest
from dice_sources import ListDice

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play.clock import ClockError, TimeControl
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import RaceGame
from sheshbesh.play.race_clock import flag_fall, on_clock, start_clock

W, B = Side.WHITE, Side.BLACK
CONTROL = TimeControl.parse("delay 12s + 1m")


def started() -> RaceGame:
    game, _ = RaceGame.create("backgammon", RaceOptions(cube=True))
    return game.apply(act.Start(), ListDice([(3, 1)])).game


def test_pl_6_a_turn_within_the_delay_costs_nothing() -> None:
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    done = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), None, now=10.0)
    assert done.clock.remaining(0, now=10.0) == 60.0 and done.clock.running == 1


def test_pl_6_cube_answer_runs_on_the_answerers_clock() -> None:
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    done = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), None, now=1.0)
    doubled = on_clock(done.step.game, done.clock, act.Double(B), None, now=2.0)
    assert doubled.clock.running == 0  # White answers
    taken = on_clock(doubled.step.game, doubled.clock, act.Take(W), None, now=32.0)
    assert taken.clock.remaining(0, now=32.0) == 60.0 - (30.0 - 12.0)
    assert taken.clock.running == 1 and taken.step.game.to_act is B


def test_pl_7_a_fallen_flag_forfeits_at_the_position_level() -> None:
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    assert flag_fall(game, clock, now=71.0) is None
    late = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), None, now=72.0)
    assert late.flag_fell
    result = late.step.game.result
    assert result is not None and (result.winner, result.level, result.reason) == (B, 3, "PL-7")
    assert not late.clock.ticking


def test_the_clock_must_run_for_the_side_that_acts() -> None:
    game = started()
    clock = start_clock(game, CONTROL, now=0.0).run(1, now=0.0)
    with pytest.raises(ClockError, match="runs for side 1"):
        on_clock(game, clock, act.PlayText(W, "8/5 6/5"), None, now=1.0)
