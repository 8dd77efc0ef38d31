"""One clock for every table (PL-6, PL-7): the rule of ``clock_after`` case by case, and
``on_clock`` / ``flag_fall`` / ``start_clock`` on race games and matches (draughts:
test_draughts_flow.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from dice_sources import ListDice

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play.clock import Clock, ClockError, TimeControl
from sheshbesh.play.clocking import clock_after, flag_fall, on_clock, start_clock
from sheshbesh.play.match import Match
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import RaceGame

W, B = Side.WHITE, Side.BLACK
CONTROL = TimeControl.parse("delay 12s + 1m")
PLAYED = ({"type": "played"},)


@dataclass(frozen=True)
class At:
    """A game reduced to what the clock reads of it."""

    to_act: Side | None
    finished: bool = False


def running(side: Side, now: float = 0.0) -> Clock:
    return Clock.start(CONTROL).run(int(side), now)


def started() -> RaceGame:
    game, _ = RaceGame.create("backgammon", RaceOptions(cube=True))
    return game.apply(act.Start(), ListDice([(3, 1)])).game


# --- the rule, case by case ----------------------------------------------------------------


def test_pl_6_the_end_stops_the_clock_and_a_stopped_clock_stays_so() -> None:
    stopped = clock_after(running(W), W, At(None, finished=True), PLAYED, now=5.0)
    assert stopped.running is None and stopped.remaining(0, now=9.0) == 60.0
    assert clock_after(stopped, None, At(None, finished=True), (), now=9.0) == stopped


def test_pl_6_waiting_for_nobody_stops_the_clock() -> None:
    """A match between games waits for the server's opening roll."""
    stopped = clock_after(running(W), W, At(None), PLAYED, now=5.0)
    assert stopped.running is None and stopped.delay_left(now=5.0) == 7.0


def test_pl_6_a_clock_not_running_starts_for_the_side_to_act() -> None:
    fresh = clock_after(Clock.start(CONTROL), W, At(W), (), now=3.0)
    assert fresh.running == 0 and fresh.delay_left(now=3.0) == 12.0
    paused = running(W).pause(now=20.0)
    again = clock_after(paused, None, At(B), (), now=30.0)
    assert again.running == 1 and again.remaining(0, now=30.0) == 52.0


def test_pl_6_the_same_side_to_act_leaves_the_clock_alone() -> None:
    clock = running(W)
    assert clock_after(clock, W, At(W), ({"type": "step"},), now=4.0) is clock


def test_pl_6_a_turn_end_presses_the_clock() -> None:
    pressed = clock_after(running(W), W, At(B), ({"type": "passed"},), now=20.0)
    assert pressed.running == 1 and pressed.remaining(0, now=20.0) == 52.0


def test_pl_6_a_press_that_lands_on_the_wrong_side_runs_the_side_to_act() -> None:
    """The clock ran for Black while White acted; White's press must not leave Black's clock
    running while Black is not to act (here: White is to act again)."""
    clock = clock_after(running(B), None, At(W), PLAYED, now=5.0)
    assert clock.running == 0 and clock.remaining(1, now=5.0) == 60.0


def test_pl_6_an_answer_owed_mid_turn_runs_the_answerers_clock() -> None:
    answer = clock_after(running(W), W, At(B), ({"type": "resign_offered"},), now=30.0)
    assert answer.running == 1 and answer.remaining(0, now=30.0) == 42.0
    assert answer.delay_left(now=30.0) == 12.0


# --- the calls, on race games and matches ----------------------------------------------------


def test_pl_6_start_clock_needs_a_side_to_act() -> None:
    game, _ = RaceGame.create("backgammon")
    with pytest.raises(ClockError, match="opening roll"):
        start_clock(game, CONTROL, now=0.0)
    match, _ = Match.create("backgammon", 1)
    over = match.apply(act.Start(), ListDice([(3, 1)])).match.apply(act.Timeout(W)).match
    with pytest.raises(ClockError, match="game is over"):
        start_clock(over, CONTROL, now=0.0)


def test_pl_6_a_match_stops_the_clock_between_games_and_start_runs_it() -> None:
    match, _ = Match.create("backgammon", 3)
    match = match.apply(act.Start(), ListDice([(3, 1)])).match
    clock = start_clock(match, CONTROL, now=0.0)
    offered = on_clock(match, clock, act.Resign(W, 1), now=5.0)
    assert offered.clock.running == 1
    ended = on_clock(offered.step.match, offered.clock, act.AcceptResign(B), now=20.0)
    assert ended.step.match.number == 2 and ended.step.match.to_act is None
    assert ended.clock.running is None
    second = on_clock(ended.step.match, ended.clock, act.Start(), ListDice([(1, 3)]), now=50.0)
    assert second.step.match.to_act is B and second.clock.running == 1
    # Black answered in 15 s (12 free, 3 from his reserve); the 30 s between games cost nobody.
    assert second.clock.remaining(1, now=50.0) == 57.0
    assert second.clock.delay_left(now=50.0) == 12.0


def test_bg_20_pl_7_a_fallen_flag_loses_the_match() -> None:
    match, _ = Match.create("backgammon", 3)
    match = match.apply(act.Start(), ListDice([(3, 1)])).match
    clock = start_clock(match, CONTROL, now=0.0)
    assert flag_fall(match, clock, now=71.0) is None
    late = on_clock(match, clock, act.PlayText(W, "8/5 6/5"), now=72.0)
    assert late.flag_fell and not late.clock.ticking
    result = late.step.match.result
    assert result is not None and (result.winner, result.reason) == (B, "BG-20")
    assert flag_fall(match, clock, now=72.0) == late


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


def test_pl_6_the_doubler_resumes_with_the_delay_he_had_left() -> None:
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    done = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), now=1.0)
    doubled = on_clock(done.step.game, done.clock, act.Double(B), now=6.0)  # 5 s of 12
    taken = on_clock(doubled.step.game, doubled.clock, act.Take(W), now=10.0)
    assert taken.clock.running == 1 and taken.clock.delay_left(now=10.0) == 7.0


def test_pl_6_the_answer_has_a_delay_of_its_own_and_the_doublers_turn_goes_on() -> None:
    """The taker thinks 30 s (12 free, 18 from his reserve); the doubler, back on turn,
    spends the 7 s he had left and then his reserve: no second, no fresh delay."""
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    done = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), now=1.0)
    doubled = on_clock(done.step.game, done.clock, act.Double(B), now=6.0)
    assert doubled.clock.running == 0 and doubled.clock.delay_left(now=6.0) == 12.0
    taken = on_clock(doubled.step.game, doubled.clock, act.Take(W), now=36.0)
    assert taken.clock.remaining(0, now=36.0) == 60.0 - 18.0
    assert taken.clock.remaining(1, now=36.0 + 7.0) == 60.0
    assert taken.clock.remaining(1, now=36.0 + 10.0) == 57.0
    rolled = on_clock(taken.step.game, taken.clock, act.Roll(B), ListDice([(6, 5)]), now=40.0)
    assert rolled.clock.running == 1 and rolled.clock.delay_left(now=40.0) == 3.0


def test_pl_6_after_a_beaver_and_its_take_the_doubler_resumes_with_the_delay_he_had_left() -> None:
    """BG-16 and PL-6: the beaver is an offer too, so the doubler answers it with a delay
    of its own; once he takes, his turn goes on with the 7 s it had left before the double."""
    game, _ = RaceGame.create("backgammon", RaceOptions(cube=True, beavers=True))
    game = game.apply(act.Start(), ListDice([(3, 1)])).game
    clock = start_clock(game, CONTROL, now=0.0)
    done = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), now=1.0)
    doubled = on_clock(done.step.game, done.clock, act.Double(B), now=6.0)  # 5 s of 12
    beavered = on_clock(doubled.step.game, doubled.clock, act.Beaver(W), now=9.0)
    assert beavered.clock.running == 1 and beavered.clock.delay_left(now=9.0) == 12.0
    assert beavered.clock.remaining(0, now=9.0) == 60.0  # White answered within his delay
    taken = on_clock(beavered.step.game, beavered.clock, act.Take(B), now=29.0)
    assert taken.step.game.cube.value == 4 and taken.clock.running == 1
    assert taken.clock.remaining(1, now=29.0) == 60.0 - 8.0  # 20 s for the answer, 12 free
    assert taken.clock.delay_left(now=29.0) == 7.0


def test_pl_6_a_declined_resignation_gives_the_mover_back_the_delay_he_had_left() -> None:
    """BF-15: an offer to resign is answered like a double, on the answerer's clock."""
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    offered = on_clock(game, clock, act.Resign(W, 1), now=4.0)
    declined = on_clock(offered.step.game, offered.clock, act.DeclineResign(B), now=40.0)
    assert declined.clock.running == 0 and declined.clock.delay_left(now=40.0) == 8.0
    assert declined.clock.remaining(1, now=40.0) == 60.0 - 24.0
    assert declined.clock.remaining(0, now=40.0) == 60.0


def test_pl_6_in_a_match_the_doubler_resumes_and_the_next_game_starts_afresh() -> None:
    """The held delay is the turn's: a take gives it back, a drop ends the game and the
    next game's first turn has a full delay (nothing carries over between games)."""
    match, _ = Match.create("backgammon", 5)
    match = match.apply(act.Start(), ListDice([(3, 1)])).match
    clock = start_clock(match, CONTROL, now=0.0)
    done = on_clock(match, clock, act.PlayText(W, "8/5 6/5"), now=1.0)
    doubled = on_clock(done.step.match, done.clock, act.Double(B), now=10.0)  # 9 s of 12
    taken = on_clock(doubled.step.match, doubled.clock, act.Take(W), now=15.0)
    assert taken.clock.running == 1 and taken.clock.delay_left(now=15.0) == 3.0
    rolled = on_clock(taken.step.match, taken.clock, act.Roll(B), ListDice([(6, 5)]), now=16.0)
    played = on_clock(rolled.step.match, rolled.clock, act.PlayText(B, "24/18 13/8"), now=17.0)
    assert played.clock.running == 0 and played.clock.delay_left(now=17.0) == 12.0
    redoubled = on_clock(played.step.match, played.clock, act.Double(W), now=20.0)
    dropped = on_clock(redoubled.step.match, redoubled.clock, act.Drop(B), now=21.0)
    assert dropped.step.match.number == 2 and dropped.clock.running is None
    second = on_clock(dropped.step.match, dropped.clock, act.Start(), ListDice([(1, 3)]), now=30.0)
    assert second.clock.running == 1 and second.clock.delay_left(now=30.0) == 12.0


@pytest.mark.parametrize("starter", [W, B])
def test_pl_6_a_next_game_begun_in_the_ending_action_starts_afresh(starter: Side) -> None:
    """The server plays a match's next opening roll in the action that ends a game: the
    new game's first turn has a full delay and nothing held, whoever starts it. (The
    held resignation turn was given back to White with 7 s; Black, the side that had
    acted, kept his spent delay.)"""
    offered = running(W).interrupt(1, now=5.0)  # White offers to resign: (0, 7 s) held
    ending = ({"type": "resign_accepted"}, {"type": "game_finished"},
              {"type": "game_started"}, {"type": "opening_rolled"})  # fmt: skip
    after = clock_after(offered, B, At(starter), ending, now=20.0)
    assert after.running == int(starter) and after.held is None
    assert after.delay_left(now=20.0) == 12.0
    assert after.remaining(1, now=20.0) == 60.0 - 3.0  # Black's 15 s answer: 12 free


def test_pl_7_a_flag_that_falls_on_a_pending_double_drops_it() -> None:
    """Money play: the doubled side's own answer clock runs out: a drop at the cube
    before the offer (BG-12), not a forfeit at the position's level."""
    game = started()
    clock = start_clock(game, CONTROL, now=0.0)
    done = on_clock(game, clock, act.PlayText(W, "8/5 6/5"), now=1.0)
    doubled = on_clock(done.step.game, done.clock, act.Double(B), now=2.0)
    assert flag_fall(doubled.step.game, doubled.clock, now=2.0 + 71.0) is None
    fallen = flag_fall(doubled.step.game, doubled.clock, now=2.0 + 72.0)
    assert fallen is not None and not fallen.clock.ticking
    result = fallen.step.game.result
    assert result is not None and (result.winner, result.points, result.reason) == (B, 1, "PL-7")


def test_bg_20_in_a_match_a_flag_that_falls_on_a_pending_double_loses_the_match() -> None:
    match, _ = Match.create("backgammon", 3)
    match = match.apply(act.Start(), ListDice([(3, 1)])).match
    clock = start_clock(match, CONTROL, now=0.0)
    done = on_clock(match, clock, act.PlayText(W, "8/5 6/5"), now=1.0)
    doubled = on_clock(done.step.match, done.clock, act.Double(B), now=2.0)
    fallen = flag_fall(doubled.step.match, doubled.clock, now=2.0 + 72.0)
    assert fallen is not None
    result = fallen.step.match.result
    assert result is not None and (result.winner, result.reason) == (B, "BG-20")
