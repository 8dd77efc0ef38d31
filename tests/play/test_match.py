"""Matches to N points (BG-18 … BG-20, BG-E8, PL-7) through the match state machine."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from dice_sources import ListDice, SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st
from test_race_properties import pick

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play.dice import verify_events
from sheshbesh.play.errors import IllegalAction, InvalidOptions, NotYourTurn
from sheshbesh.play.fair import FairDice
from sheshbesh.play.match import Match, MatchResult, evolve_match, replay_match
from sheshbesh.play.race import Event, Phase

W, B = Side.WHITE, Side.BLACK


Dice = ListDice | SeededDice | FairDice | None


def play(match: Match, dice: Dice, *actions: act.Action) -> Match:
    for action in actions:
        match = match.apply(action, dice).match
    return match


def opening_for(starter: Side) -> ListDice:
    """Opening dice 3-1 for ``starter`` (White's die is rolled first)."""
    return ListDice([(3, 1)] if starter is W else [(1, 3)])


def concede(match: Match, loser: Side, level: int = 1) -> Match:
    """A short game: ``loser`` opens, then resigns at ``level``; the winner accepts."""
    match = play(match, opening_for(loser), act.Start())
    return play(match, None, act.Resign(loser, level), act.AcceptResign(loser.other))


def drop(match: Match, loser: Side) -> Match:
    """A short game: ``loser`` opens 3-1, the winner doubles, ``loser`` drops."""
    match = play(match, opening_for(loser), act.Start(), act.PlayText(loser, "8/5 6/5"))
    return play(match, None, act.Double(loser.other), act.Drop(loser))


# --- BG-18: length, scoring, the end --------------------------------------------------


@pytest.mark.parametrize("length", [0, 26, -1])
def test_bg_18_match_length_is_1_to_25(length: int) -> None:
    with pytest.raises(InvalidOptions, match=r"1-25 points"):
        Match.create("backgammon", length)


def test_bg_18_matches_only_for_cube_variants_without_money_options() -> None:
    with pytest.raises(InvalidOptions, match="no matches"):
        Match.create("long_nardy", 5)
    match, _ = Match.create("takhte_nard", 25)
    options = match.game.options
    assert (options.match_length, options.beavers, options.jacoby, options.auto_doubles) == (
        25, False, False, 0,
    )  # fmt: skip


def test_bg_18_a_game_scores_its_value_and_the_first_to_n_wins() -> None:
    match, _ = Match.create("backgammon", 3)
    match = drop(match, loser=B)
    assert match.score == (1, 0) and match.number == 2 and not match.finished
    assert match.results[0].points == 1 and match.results[0].reason == "BG-12"
    match = concede(match, loser=W, level=2)
    assert match.score == (1, 2) and match.number == 3
    match = concede(match, loser=B, level=2)
    assert match.finished and match.score == (3, 2)
    assert match.result == MatchResult.won(W, (3, 2), "BG-18")
    assert match.result.paid_to(W) == 1 and match.result.paid_to(B) == -1


def test_bg_18_a_game_worth_more_than_needed_just_ends_the_match() -> None:
    match, _ = Match.create("backgammon", 2)
    match = concede(match, loser=W, level=3)
    assert match.finished and match.score == (0, 3)
    assert match.result is not None and match.result.winner is B


def test_bg_18_games_pay_nothing_the_match_settles_the_stake_once() -> None:
    match, _ = Match.create("backgammon", 1)
    match = concede(match, loser=W, level=3)
    assert match.results[0].payout == ((B, 0), (W, 0))
    assert match.result is not None and dict(match.result.payout) == {B: 1, W: -1}


def test_each_new_game_waits_for_the_servers_start() -> None:
    match, _ = Match.create("backgammon", 5)
    assert match.to_act is None and match.legal_actions() == [act.Start()]
    step = drop(match, loser=W).apply(act.Start(), ListDice([(6, 5)]))
    kinds = [e["type"] for e in step.events]
    assert kinds == ["opening"] and step.match.game.phase is Phase.MOVE
    finish = drop(match, loser=W)
    assert finish.game.phase is Phase.OPENING and finish.number == 2


def test_game_end_events_embed_the_next_games_created_event() -> None:
    match, _ = Match.create("backgammon", 5)
    match = play(match, opening_for(B), act.Start(), act.PlayText(B, "8/5 6/5"))
    step = match.apply(act.Double(W)).match.apply(act.Drop(B))
    kinds = [e["type"] for e in step.events]
    assert kinds == ["dropped", "finished", "game_finished", "game_started"]
    started = step.events[-1]
    assert started["game"] == 2 and started["crawford"] is False
    assert started["created"]["type"] == "created" and started["created"]["seq"] == 0
    finished = step.events[-2]
    assert finished["score"] == [1, 0] and finished["result"]["winner"] == "W"
    assert [e.get("game") for e in step.events[:2]] == [1, 1]


# --- BG-19 and BG-E8: the Crawford game -----------------------------------------------


def test_bg_e8_crawford_at_4_2_then_the_cube_again_at_4_3() -> None:
    match, _ = Match.create("backgammon", 5)
    match = concede(match, loser=W, level=2)
    match = concede(match, loser=B, level=2)
    match = concede(match, loser=B, level=2)
    assert match.score == (4, 2) and match.crawford and not match.post_crawford
    opened = play(match, opening_for(B), act.Start(), act.PlayText(B, "8/5 6/5"))
    assert not opened.can_double(W) and act.Double(W) not in opened.legal_actions()
    match = concede(match, loser=W)
    assert match.score == (4, 3) and not match.crawford and match.post_crawford
    opened = play(match, opening_for(B), act.Start(), act.PlayText(B, "8/5 6/5"))
    assert opened.can_double(W) and act.Double(W) in opened.legal_actions()


def test_bg_19_the_crawford_game_comes_once_even_when_both_reach_n_minus_1() -> None:
    match, _ = Match.create("backgammon", 3)
    match = concede(match, loser=B, level=2)
    assert match.crawford and match.game.options.crawford
    match = concede(match, loser=W, level=2)
    assert match.score == (2, 2) and not match.crawford and match.post_crawford
    match = drop(match, loser=W)
    assert match.result == MatchResult.won(B, (2, 3), "BG-18")


def test_bg_19_reaching_n_minus_1_by_a_gammon_starts_the_crawford_game() -> None:
    match, _ = Match.create("backgammon", 3)
    match = concede(match, loser=W, level=2)
    assert match.score == (0, 2) and match.crawford


def test_bg_19_no_crawford_game_in_a_one_point_match() -> None:
    match, _ = Match.create("backgammon", 1)
    match = play(match, opening_for(B), act.Start(), act.PlayText(B, "8/5 6/5"))
    assert not match.crawford and match.can_double(W)


def test_bg_19_doubling_in_the_crawford_game_is_refused_and_changes_nothing() -> None:
    match, _ = Match.create("backgammon", 3)
    match = concede(match, loser=B, level=2)
    match = play(match, opening_for(B), act.Start(), act.PlayText(B, "8/5 6/5"))
    with pytest.raises(IllegalAction, match=r"Crawford game \(BG-19\)"):
        match.apply(act.Double(W))
    assert match.game.phase is Phase.ROLL and match.game.cube.value == 1


# --- BG-20 / PL-7: a timeout loses the match ------------------------------------------


def test_bg_20_pl_7_a_timeout_during_a_game_loses_the_match() -> None:
    match, _ = Match.create("backgammon", 5)
    match = concede(match, loser=B, level=2)
    match = concede(match, loser=B, level=1)
    assert match.score == (3, 0)
    match = play(match, opening_for(B), act.Start(), act.PlayText(B, "8/5 6/5"))
    step = match.apply(act.Timeout(W))
    kinds = [e["type"] for e in step.events]
    assert kinds == ["timeout", "finished", "game_finished", "match_finished"]
    done = step.match
    assert done.results[-1].reason == "PL-7" and done.results[-1].winner is B
    assert done.result is not None and done.result.winner is B
    assert done.result.reason == "BG-20" and done.result.paid_to(W) == -1


def test_bg_20_a_player_who_leaves_between_games_loses_the_match() -> None:
    match, _ = Match.create("backgammon", 5)
    match = concede(match, loser=W, level=2)
    assert match.game.phase is Phase.OPENING
    step = match.apply(act.Timeout(B))
    assert [e["type"] for e in step.events] == ["match_finished"]
    assert step.match.result == MatchResult.won(W, (0, 2), "BG-20")
    assert len(step.match.results) == 1


# --- bad input: typed errors, nothing changes -----------------------------------------


def test_bad_input_wrong_side_is_not_your_turn_and_changes_nothing() -> None:
    match, _ = Match.create("backgammon", 3)
    match = play(match, opening_for(W), act.Start())
    with pytest.raises(NotYourTurn, match="black cannot act now: waiting for white"):
        match.apply(act.PlayText(B, "8/5 6/5"))
    with pytest.raises(NotYourTurn):
        match.apply(act.Roll(B), ListDice([(6, 6)]))
    assert match.game.phase is Phase.MOVE and match.seq == 1


def test_bad_input_start_twice_and_actions_after_the_end() -> None:
    match, _ = Match.create("backgammon", 1)
    opened = play(match, opening_for(W), act.Start())
    with pytest.raises(IllegalAction, match="already started"):
        opened.apply(act.Start(), ListDice([(6, 5)]))
    done = concede(match, loser=W)
    for action in (act.Start(), act.Timeout(B), act.Roll(W)):
        with pytest.raises(IllegalAction, match="the match is over"):
            done.apply(action, ListDice([(6, 5)]))
    assert done.legal_actions() == [] and done.to_act is None


def test_a_log_event_of_another_game_is_refused() -> None:
    match, _ = Match.create("backgammon", 3)
    with pytest.raises(ValueError, match="game 2 during game 1"):
        evolve_match(match, {"type": "undo", "side": "W", "game": 2})
    with pytest.raises(ValueError, match="open a match log"):
        evolve_match(match, {"type": "match_created"})


# --- the log: numbering, replay, fair dice across games ---------------------------------


def test_the_match_log_is_numbered_and_replays_with_fair_dice_checked_in_one_pass() -> None:
    rng = random.Random(7)
    fair = FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.random()}")
    match, created = Match.create("backgammon", 3, commit=fair.commit)
    log: list[Event] = []
    while not match.finished:
        step = match.apply(pick(match.legal_actions(), rng), fair)
        match, log = step.match, log + list(step.events)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert replay_match(created, log) == match
    games = {e["game"] for e in log if "game_seq" in e}
    assert games == set(range(1, match.number + 1)) and match.number >= 2
    verdict = verify_events([created, *log])
    assert verdict.honest, verdict.problems
    assert verdict.rolls_checked > 10


# --- property: random matches ---------------------------------------------------------


def random_match(variant: str, length: int, seed: int, timeout_chance: float) -> tuple[
    Match, Event, list[Event]
]:  # fmt: skip
    rng = random.Random(seed)
    match, created = Match.create(variant, length)
    dice = SeededDice(seed)
    log: list[Event] = []
    while not match.finished:
        actions = match.legal_actions()
        assert actions, (match.game.phase, match.game.position.text())
        action = pick(actions, rng)
        if rng.random() < timeout_chance and match.game.phase is not Phase.OPENING:
            action = act.Timeout(rng.choice([W, B]))
        step = match.apply(action, dice)
        match, log = step.match, log + list(step.events)
    return match, created, log


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(["backgammon", "takhte_nard"]),
    length=st.integers(1, 9),
    seed=st.integers(0, 2**32),
    timeouts=st.sampled_from([0.0, 0.002]),
)
def test_random_matches_end_validly_and_replay_exactly(
    variant: str, length: int, seed: int, timeouts: float
) -> None:
    match, created, log = random_match(variant, length, seed, timeouts)
    result = match.result
    assert result is not None
    assert sum(amount for _, amount in result.payout) == 0
    assert dict(result.payout) == {result.winner: 1, result.winner.other: -1}
    assert result.score == match.score
    if result.reason == "BG-18":
        assert match.score[result.winner] >= length > match.score[result.winner.other]
    else:
        assert result.reason == "BG-20"
    assert sum(r.points for r in match.results) == sum(match.score)
    for game_result in match.results:
        assert game_result.payout and sum(a for _, a in game_result.payout) == 0
    crawford, seen = [], False
    for finished, started in pairwise(log):
        if started["type"] == "game_started":
            expected = not seen and max(finished["score"]) == length - 1
            assert started["crawford"] is expected, (finished["score"], length)
            seen = seen or expected
            crawford += [started["game"]] if expected else []
    for number in crawford:
        assert not any(e["type"] == "doubled" and e.get("game") == number for e in log)
    assert replay_match(created, log) == match
