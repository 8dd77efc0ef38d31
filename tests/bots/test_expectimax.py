"""ExpectimaxBot: legal actions only, within its budget, and the obvious play where there is one.

Which level beats which is the bench's question (``bench/bots.py``), not a unit
test's: a small sample proves nothing and a large one is slow. Time is faked
where a test depends on it, so nothing here depends on the machine's speed.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from sheshbesh.bots.arena import RandomDice, new_game, play_bout
from sheshbesh.bots.base import CannotPlay, GameOver, RandomRaceBot
from sheshbesh.bots.expectimax import (
    FALLBACK_VARIANTS,
    LEVELS,
    OWN_VARIANTS,
    ExpectimaxBot,
    rolls_for,
)
from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.rules import RACE_VARIANTS
from sheshbesh.games.race.turn import Turn
from sheshbesh.play import actions as act
from sheshbesh.play.draughts import DraughtsGame, DraughtsOptions
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Phase, RaceGame

W, B = Side.WHITE, Side.BLACK


def frozen_clock() -> float:
    """Time stands still: every planned search depth completes."""
    return 0.0


def racing_clock() -> itertools.count[float]:
    """Ten seconds pass between any two looks at the clock: every budget is spent at once."""
    return itertools.count(0.0, 10.0)


def moving(position: Position, dice: tuple[int, int], **changes: object) -> RaceGame:
    """A game waiting for ``position.turn`` to play ``dice``."""
    rules = position.rules
    options = RaceOptions.defaults(rules)
    turn = Turn.begin(position, dice, last_roll=bool(changes.get("final_turn")))
    return RaceGame(rules, options, position, phase=Phase.MOVE, turn=turn, **changes)  # type: ignore[arg-type]


def chosen(bot: ExpectimaxBot, game: RaceGame) -> Position:
    """The position after the play ``bot`` chooses (checked legal by the turn itself)."""
    side = game.position.turn
    action = bot.choose(game, side)
    assert isinstance(action, act.PlayText)
    assert game.turn is not None
    return game.turn.play_text(action.text).after


def advanced(variant: str, seed: int, actions: int, *, to_move: bool = False):  # type: ignore[no-untyped-def]
    """A game ``actions`` random actions after the opening, and its dice.

    ``to_move``: go on rolling until someone has a choice of plays to make.
    """
    dice = RandomDice(seed)
    state = new_game(variant, cube=RACE_VARIANTS[variant].cube, seed=seed)
    mover = RandomRaceBot(seed=seed)
    for count in itertools.count():
        if state.finished:
            break
        if count >= actions and (not to_move or state.phase is Phase.MOVE):
            break
        side = state.to_act
        state = state.apply(mover.choose(state, side), dice).game
    return state, dice


# --- never illegal ----------------------------------------------------------------------


@settings(max_examples=50)
@given(
    variant=st.sampled_from(sorted(RACE_VARIANTS)),
    seed=st.integers(0, 10**6),
    actions=st.integers(0, 250),
    level=st.sampled_from(sorted(LEVELS)),
    to_move=st.booleans(),
)
# RB-8: a doubles play that bears off the last checker leaves the complement owed and the game over.
@example(variant="russian_backgammon", seed=200, actions=200, level="expert", to_move=True)
def test_bf9_every_action_is_legal(variant, seed, actions, level, to_move):
    """Random positions of every variant: the action the bot returns is one the game accepts."""
    state, dice = advanced(variant, seed, actions, to_move=to_move)
    assume(not state.finished)
    side = state.to_act
    bot = ExpectimaxBot(level, seed=seed, variants=FALLBACK_VARIANTS)
    action = bot.choose(state, side, budget=0.02)
    state.apply(action, dice)  # raises IllegalAction / IllegalPlay / NotYourTurn if not


@pytest.mark.parametrize("variant", sorted(OWN_VARIANTS))
def test_a_whole_game_between_two_levels(variant):
    """Through the play layer from the opening to the result, as the server drives bots."""
    bots = (ExpectimaxBot("easy", seed=1), ExpectimaxBot("medium", seed=2))
    bout = play_bout(bots, variant, seed=3)
    assert bout.winner in (0, 1, None)


def test_bg10_a_whole_takhte_nard_game_with_the_cube():
    """TN-2: cube, beavers and an automatic double; every cube action is legal too."""
    bots = (
        ExpectimaxBot("medium", seed=1, variants=FALLBACK_VARIANTS),
        ExpectimaxBot("easy", seed=2, variants=FALLBACK_VARIANTS),
    )
    bout = play_bout(bots, "takhte_nard", seed=5, cube=True)
    assert bout.points >= 1


# --- refusals -----------------------------------------------------------------------------


def test_a_finished_game_raises_game_over():
    state, dice = advanced("plakoto", 1, 0)
    side = state.to_act
    state = state.apply(act.Resign(side, 1), dice).game
    state = state.apply(act.AcceptResign(side.other), dice).game
    with pytest.raises(GameOver):
        ExpectimaxBot("medium").choose(state, side)


def test_a_draughts_game_raises_cannot_play():
    game, _ = DraughtsGame.create(DraughtsOptions())
    with pytest.raises(CannotPlay):
        ExpectimaxBot("medium").choose(game, W)


def test_not_its_turn_or_not_its_variant_raises_cannot_play():
    state, _ = advanced("jacquet", 2, 0)
    with pytest.raises(CannotPlay):
        ExpectimaxBot("medium").choose(state, state.to_act.other)
    backgammon, _ = advanced("backgammon", 2, 0)
    with pytest.raises(CannotPlay):
        ExpectimaxBot("medium").choose(backgammon, backgammon.to_act)


def test_an_unknown_level_or_variant_is_refused():
    with pytest.raises(CannotPlay):
        ExpectimaxBot("grandmaster")
    with pytest.raises(CannotPlay):
        ExpectimaxBot("easy", variants=frozenset({"draughts"}))


def test_it_claims_its_own_five_variants_by_default():
    assert ExpectimaxBot("easy").variants == OWN_VARIANTS
    assert {"long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet"} == (
        OWN_VARIANTS
    )


# --- budget and depth ---------------------------------------------------------------------

WIDE = Position.from_own(
    "plakoto", white={24: 9, 19: 2, 17: 2, 13: 2}, black={24: 11, 20: 2, 15: 2}
)


def test_a_spent_budget_still_answers_with_the_best_evaluated_play():
    """When time is up before any look-ahead finishes, the 0-ply choice stands."""
    game = moving(WIDE, (6, 4))
    bot = ExpectimaxBot("expert", clock=racing_clock().__next__)
    after = chosen(bot, game)
    assert bot.report.depth == 0 and bot.report.out_of_time
    shallow = ExpectimaxBot("medium")
    assert after == chosen(shallow, game)


@pytest.mark.parametrize("budget", [0.0, 0.01])
def test_a_tiny_budget_still_gives_a_legal_play(budget):
    game = moving(WIDE, (6, 4))
    bot = ExpectimaxBot("expert")
    action = bot.choose(game, W, budget=budget)
    assert isinstance(action, act.PlayText)
    game.apply(action)
    assert bot.report.depth <= 2


def test_hard_looks_one_roll_ahead_and_expert_two():
    """With time standing still every planned depth completes, over the planned widths."""
    position = Position.from_own("long_nardy", white={6: 4, 5: 4, 4: 3, 2: 2}, black={3: 10, 6: 5})
    game = moving(position, (5, 2))
    plays = len(game.turn.plays)
    hard = ExpectimaxBot("hard", clock=frozen_clock)
    chosen(hard, game)
    assert (hard.report.depth, hard.report.searched) == (1, min(8, plays))
    expert = ExpectimaxBot("expert", clock=frozen_clock)
    chosen(expert, game)
    assert (expert.report.depth, expert.report.searched) == (2, min(3, plays))


def test_same_seed_same_choices():
    """Easy slips at random, but from its seed: the same game gets the same answers."""
    games = [moving(WIDE, dice) for dice in ((6, 4), (5, 1), (3, 3), (2, 1))]
    first = [chosen(ExpectimaxBot("easy", seed=9), game) for game in games]
    again = [chosen(ExpectimaxBot("easy", seed=9), game) for game in games]
    assert first == again


def test_rb8_rolls_after_a_first_turn_double_and_an_owed_complement():
    start = Position.start("russian_backgammon")
    assert len(rolls_for(start)) == 15
    assert sum(chance for _, chance in rolls_for(start)) == pytest.approx(1.0)
    owed = Position.from_own("russian_backgammon", white={6: 10, 1: 5}, black={20: 15}, owed=5)
    assert rolls_for(owed) == (((5, 5), 1.0),)
    assert sum(chance for _, chance in rolls_for(Position.start("plakoto"))) == pytest.approx(1.0)


# --- the obvious play -------------------------------------------------------------------

LEVELS_TO_CHECK = ("medium", "hard")


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_pk_e1_pins_the_blot(level):
    """PK-E1: with 6-2, 13/5^ pins Black's blot on W5 (Black's 20)."""
    position = Position.from_own("plakoto", white={24: 13, 19: 1, 13: 1}, black={24: 14, 20: 1})
    after = chosen(ExpectimaxBot(level), moving(position, (6, 2)))
    assert after.pinned(B, 20)


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_ln9_bears_off_rather_than_moving_in(level):
    """LN-9: racing home with 5-3, both dice take a checker off."""
    position = Position.from_own(
        "long_nardy", white={6: 3, 5: 2, 3: 2, 1: 1}, black={4: 5, 1: 4, 2: 4, 3: 2}
    )
    after = chosen(ExpectimaxBot(level), moving(position, (5, 3)))
    assert after.borne_off(W) == 9


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_ln7_makes_the_five_point_wall_in_front_of_the_head(level):
    """LN-4/LN-7: 13/11 completes 11–7 in front of Black's 12 waiting checkers (legal: 5 < 6)."""
    position = Position.from_own(
        "long_nardy",
        white={24: 9, 10: 1, 9: 1, 8: 1, 7: 1, 13: 1, 15: 1},
        black={24: 12, 2: 3},
    )
    after = chosen(ExpectimaxBot(level), moving(position, (2, 1)))
    assert after.own(W, 11) == 1 and after.own(W, 13) == 0


def test_ln13_black_draws_on_the_last_roll_when_it_can():
    """LN-E7 (a): Black's last two checkers on its 3 and 1, roll 3-1: both off, a draw."""
    position = Position.from_own("long_nardy", white={}, black={3: 1, 1: 1}, turn=B)
    after = chosen(ExpectimaxBot("hard"), moving(position, (3, 1), final_turn=True))
    assert after.outcome() is not None and after.outcome().is_draw


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_cn_e3_hits_and_covers_outside_home(level):
    """CN-E3: 13/9* 12/9 hits and makes the point at once (CN-2 only forbids it at home)."""
    position = Position.from_own(
        "caucasian_nardy",
        white={13: 5, 12: 1, 8: 3, 6: 4, 24: 2},
        black={16: 1, 24: 2, 8: 7, 6: 5},
    )
    after = chosen(ExpectimaxBot(level), moving(position, (4, 3)))
    assert after.bar[B] == 1 and after.own(W, 9) == 2


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_rb7_hits_the_blot_in_front(level):
    """RB-7: Black's blot on 16 sits two pips in front of White's checker on 18."""
    position = Position.from_own(
        "russian_backgammon", white={25: 10, 20: 2, 18: 1, 15: 2}, black={25: 12, 16: 1, 21: 2}
    )
    after = chosen(ExpectimaxBot(level), moving(position, (3, 2)))
    assert after.bar[B] == 1


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_jq9_bears_off_when_it_can(level):
    position = Position.from_own(
        "jacquet", white={6: 3, 5: 2, 3: 2, 1: 1}, black={4: 5, 1: 4, 2: 4, 3: 2}
    )
    after = chosen(ExpectimaxBot(level), moving(position, (4, 3)))
    assert after.borne_off(W) == 8


STRAGGLER_POSITION = Position.from_own(
    "jacquet",
    white={17: 1, 15: 3, 12: 1, 10: 1, 8: 5, 2: 3, 1: 1},
    black={1: 2, 4: 1, 6: 1, 7: 1, 9: 1, 10: 1, 12: 2, 16: 4, 17: 1, 23: 1},
)
"""White's 17 and 15s stand in Black's home (White's 13–18), nine of Black's checkers are
on their way there, and nothing holds them back at the start (JQ-8)."""


@pytest.mark.parametrize("level", LEVELS_TO_CHECK)
def test_jq8_runs_the_straggler_out_of_the_opponents_home(level):
    """JQ-8: no head rule, so Black's home fills fast; 4-3 plays 17/10, not 10/3."""
    after = chosen(ExpectimaxBot(level), moving(STRAGGLER_POSITION, (4, 3)))
    assert after.own(W, 17) == 0 and after.own(W, 10) == 2


# --- the cube (backgammon and takhte nard only) -------------------------------------------

RACE_DOUBLE_TAKE = "W:W4x3,5x3,6x4,8x3,13x2:B12x3,16,17x3,19x4,20x3,23"
"""White 101 pips, Black 113: about 12 % ahead on roll, a double and a take."""
RACE_DROP = "W:W1x3,2x3,3x3:B12x3,16,17x3,19x4,20x3,23"
"""White needs two or three rolls, Black about fourteen: too good to double, an easy drop."""


def cube_game(text: str, phase: Phase) -> RaceGame:
    position = Position.from_text("backgammon", text)
    options = RaceOptions.defaults("backgammon")
    return RaceGame(position.rules, options, position, phase=phase)


def test_bg11_doubles_a_twelve_percent_race_lead_and_the_opponent_takes():
    bot = ExpectimaxBot("medium", variants=FALLBACK_VARIANTS)
    assert bot.choose(cube_game(RACE_DOUBLE_TAKE, Phase.ROLL), W) == act.Double(W)
    assert bot.choose(cube_game(RACE_DOUBLE_TAKE, Phase.DOUBLED), B) == act.Take(B)


def test_bg12_does_not_double_a_won_race_and_drops_it():
    bot = ExpectimaxBot("medium", variants=FALLBACK_VARIANTS)
    assert bot.choose(cube_game(RACE_DROP, Phase.ROLL), W) == act.Roll(W)
    assert bot.choose(cube_game(RACE_DROP, Phase.DOUBLED), B) == act.Drop(B)
