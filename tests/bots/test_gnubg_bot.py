"""GnubgBot: legal actions in every variant it claims, gnubg's own choices, cube and match sense.

gnubg itself is the oracle for checker play (its ``find_best_move``); cube
positions are races whose right answer any backgammon player knows (the
8–9–12 % racing rule), checked against the equities the bot computes.
Every gnubg call goes through ``gnubg_engine.run``: gnubg may only be called
from the thread that imported it.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.bots import gnubg_engine
from sheshbesh.bots.arena import RandomDice, play_bout
from sheshbesh.bots.base import CannotPlay, GameOver, MatchContext
from sheshbesh.bots.gnubg_board import CubeState, apply_move, board_after, board_of, cube_info
from sheshbesh.bots.gnubg_bot import LEVELS, GnubgBot
from sheshbesh.bots.gnubg_eval import Evaluator, Scoring
from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.turn import Turn
from sheshbesh.play import actions as act
from sheshbesh.play.cube import Cube
from sheshbesh.play.draughts import DraughtsGame, DraughtsOptions
from sheshbesh.play.match import Match
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Phase, RaceGame

W, B = Side.WHITE, Side.BLACK
START = Position.start("backgammon")
RACE_DOUBLE_TAKE = "W:W4x3,5x3,6x4,8x3,13x2:B12x3,16,17x3,19x4,20x3,23"
"""White 101 pips, Black 113 (12 % behind after White's roll): double, take."""
RACE_DOUBLE_PASS = "W:W4x3,5x3,6x4,8x3,13x2:B12x4,17x3,19x4,20x3,21"
"""White 101 pips, Black 119: double, pass."""
BLITZ = "W:W2x2,3x2,4x2,5x2,6x3,8x2,13x2:Bbarx2,1,12x5,17x3,19x4"
"""Black has two men on the bar against a five-point board: too good to double."""


def game_at(
    text: str,
    phase: Phase = Phase.ROLL,
    *,
    variant: str = "backgammon",
    options: RaceOptions | None = None,
    cube: Cube | None = None,
    dice: tuple[int, int] | None = None,
    resign: tuple[Side, int] | None = None,
) -> RaceGame:
    position = Position.from_text(variant, text)
    options = options or RaceOptions.defaults(variant)
    turn = Turn.begin(position, dice) if dice else None
    return RaceGame(
        position.rules, options, position, phase=phase, turn=turn,
        cube=cube or Cube(), resign_offer=resign,
    )  # fmt: skip


def match_at(text: str, length: int, away: tuple[int, int], *, crawford: bool = False) -> Match:
    """A match to ``length`` with each side ``away`` points from winning, before the roll."""
    options = RaceOptions.defaults("backgammon", match_length=length)
    game = game_at(text, options=replace(options, crawford=crawford))
    score = (length - away[0], length - away[1])
    post = 1 in away and not crawford
    return Match(length, options, game, number=2, score=score, crawford_played=crawford or post)


def gnubg_best(game: RaceGame) -> Any:
    """gnubg's own ``find_best_move`` (0-ply, cubeful) as the board it leaves."""
    assert game.turn is not None
    position = game.position
    state = CubeState(game.cube.value, game.cube.owner, position.turn)

    def job(g: Any) -> Any:
        info = cube_info(g, state, MatchContext(), jacoby=game.options.jacoby)
        return g.find_best_move(
            board_of(position), info, g.evalcontext(1, 0, 1, 0, 0.0), game.turn.dice
        )

    return gnubg_engine.run(job)


# --- the checker play gnubg would make --------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "expected"), [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 5), "24/13")]
)
def test_bg_opening_rolls_are_gnubgs(dice: tuple[int, int], expected: str) -> None:
    """BF-14/BG-3: the opening plays every strong player makes."""
    for level in ("expert", "world_class"):
        action = GnubgBot(level).choose(game_at(START.text(), Phase.MOVE, dice=dice), W)
        assert action == act.PlayText(W, expected)


def test_expert_plays_gnubgs_find_best_move_in_random_positions() -> None:
    """Our play leaves the board gnubg's own best move leaves (no bear-offs: gnubg cuts those)."""
    rng = random.Random(7)
    checked = 0
    bot = GnubgBot("expert")
    for _ in range(3):
        position = Position.start("backgammon")
        while position.outcome() is None and checked < 60:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            game = game_at(position.text(), Phase.MOVE, dice=dice)
            plays = position.legal_plays(dice)
            best = gnubg_best(game)
            if len(plays) > 1 and len(best) % 2 == 0:
                action = bot.choose(game, position.turn)
                assert isinstance(action, act.PlayText)
                chosen = position.play(dice, action.text)
                assert board_after(chosen) == apply_move(board_of(position), best), position.text()
                checked += 1
            position = rng.choice(plays).after if plays else position.pass_turn()
    assert checked >= 40


def test_every_one_of_our_plays_is_ranked_once() -> None:
    """gnubg's list and ours hold the same plays, bear-offs and short nardy included."""
    rng = random.Random(11)
    for variant in ("backgammon", "short_nardy"):
        position = Position.start(variant)
        while position.outcome() is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(dice)
            if plays:
                game = game_at(position.text(), Phase.MOVE, variant=variant, dice=dice)
                ranked = gnubg_engine.run(
                    lambda g, game=game, dice=dice, plays=plays: Evaluator(
                        g, game, MatchContext()
                    ).rank(game.position, dice, plays)
                )
                assert sorted(p.notation() for p, _ in ranked) == sorted(
                    p.notation() for p in plays
                )
            position = rng.choice(plays).after if plays else position.pass_turn()


def test_bear_off_plays_are_ranked_by_evaluation() -> None:
    """gnubg stops writing a move at its first checker off; the bot still bears off well."""
    game = game_at("W:W1x2,2x2,3x2,6:B19x3,20x2", Phase.MOVE, dice=(6, 1))
    action = GnubgBot("expert").choose(game, W)
    assert action == act.PlayText(W, "6/off 1/off")


# --- scoring ------------------------------------------------------------------------------


def test_each_table_scores_gammons_its_own_way() -> None:
    """BG-8/BG-9, BG-17 Jacoby, NS-2…NS-4 Oin and Mars: the equity of one set of odds."""
    odds = (0.7, 0.3, 0.1, 0.05, 0.0)  # win, gammon, backgammon, lose gammon, lose backgammon
    tables = {
        "backgammon": RaceOptions.defaults("backgammon"),
        "jacoby": RaceOptions.defaults("backgammon", jacoby=True),
        "oin": RaceOptions.defaults("short_nardy"),
        "mars": RaceOptions.defaults("short_nardy", stake_mode="mars"),
    }
    equities = {}
    for name, options in tables.items():
        variant = "short_nardy" if name in ("oin", "mars") else "backgammon"
        game = replace(game_at(START.text(), variant=variant), options=options)
        equities[name] = Scoring.of(game).equity(odds)
    assert equities["oin"] == pytest.approx(0.4) == equities["jacoby"]
    assert equities["mars"] == pytest.approx(0.4 + 0.25)
    assert equities["backgammon"] == pytest.approx(0.4 + 0.25 + 0.1)
    assert Scoring.of(replace(game_at(START.text(), options=tables["jacoby"]), doubled=True)) == (
        Scoring(2, 3)
    )


# --- the cube ---------------------------------------------------------------------------


def test_bg_clear_double_and_take() -> None:
    """BG-11/BG-12: 12 % ahead in a long race is a double and a take."""
    game = game_at(RACE_DOUBLE_TAKE)
    assert GnubgBot("expert").choose(game, W) == act.Double(W)
    doubled = replace(game, phase=Phase.DOUBLED, doubled=True)
    assert GnubgBot("expert").choose(doubled, B) == act.Take(B)


def test_bg_clear_double_and_pass() -> None:
    game = game_at(RACE_DOUBLE_PASS)
    for level in ("expert", "world_class"):
        assert GnubgBot(level).choose(game, W) == act.Double(W)
        doubled = replace(game, phase=Phase.DOUBLED, doubled=True)
        assert GnubgBot(level).choose(doubled, B) == act.Drop(B)


def test_bg_too_good_to_double_plays_on_for_the_gammon() -> None:
    game = game_at(BLITZ)
    equities = gnubg_engine.run(
        lambda g: Evaluator(g, game, MatchContext()).cube_equities(game.position)
    )
    assert equities.no_double > equities.double_pass
    assert GnubgBot("expert").choose(game, W) == act.Roll(W)


def test_no_double_from_the_start_in_money_play() -> None:
    assert GnubgBot("expert").choose(game_at(START.text()), W) == act.Roll(W)


def test_tn_beaver_when_the_doubler_is_the_underdog() -> None:
    """BG-16/TN-2: doubled by a side 12 pips behind in the race, Black beavers."""
    behind = Position.from_own(
        "takhte_nard",
        white={13: 3, 9: 1, 8: 3, 6: 4, 5: 3, 2: 1},
        black={13: 2, 8: 3, 6: 4, 5: 3, 4: 3},
    )
    assert (behind.pips(W), behind.pips(B)) == (113, 101)
    game = game_at(behind.text(), Phase.DOUBLED, variant="takhte_nard")
    assert game.options.beavers
    assert GnubgBot("expert").choose(replace(game, doubled=True), B) == act.Beaver(B)


# --- match play (BG-18, BG-19) ------------------------------------------------------------


def test_post_crawford_trailer_doubles_at_once_where_money_play_would_not() -> None:
    """BG-19: 2-away against 1-away after the Crawford game, the trailer doubles at once."""
    trailing = match_at(START.text(), 5, (2, 1))
    assert MatchContext.of(trailing).post_crawford
    assert GnubgBot("expert").choose(trailing, W) == act.Double(W)
    assert GnubgBot("expert").choose(game_at(START.text()), W) == act.Roll(W)


def test_no_double_in_the_crawford_game_even_when_it_would_win() -> None:
    """BG-19: a double/pass race, but this is the Crawford game: just roll."""
    crawford = match_at(RACE_DOUBLE_PASS, 5, (3, 1), crawford=True)
    assert not crawford.can_double(W)
    assert GnubgBot("world_class").choose(crawford, W) == act.Roll(W)
    money = game_at(RACE_DOUBLE_PASS)
    assert GnubgBot("world_class").choose(money, W) == act.Double(W)


def test_the_leader_post_crawford_never_doubles() -> None:
    """1-away against 4-away after Crawford: the leader's cube is dead, even in a pass race."""
    leading = match_at(RACE_DOUBLE_PASS, 5, (1, 4))
    assert GnubgBot("expert").choose(leading, W) == act.Roll(W)


# --- resignations (BF-15) ------------------------------------------------------------------


def test_resignations_are_judged_against_the_gammon_chances() -> None:
    """Facing a blitz, a single resignation is declined and a gammon accepted."""
    blitzed = Position.from_text("backgammon", BLITZ).pass_turn()  # Black to move, resigning
    for level, answer in ((1, act.DeclineResign(W)), (2, act.AcceptResign(W))):
        game = game_at(blitzed.text(), Phase.RESIGNING, resign=(B, level))
        assert GnubgBot("expert").choose(game, W) == answer


def test_a_lost_race_resignation_is_accepted() -> None:
    behind = Position.from_text("backgammon", RACE_DOUBLE_PASS).pass_turn()
    game = game_at(behind.text(), Phase.RESIGNING, resign=(B, 1))
    assert GnubgBot("expert").choose(game, W) == act.AcceptResign(W)


# --- refusals, levels, determinism, threads -------------------------------------------------


def test_finished_game_raises_game_over() -> None:
    over = replace(game_at(START.text()), phase=Phase.FINISHED)
    with pytest.raises(GameOver):
        GnubgBot("expert").choose(over, W)


def test_draughts_and_plakoto_raise_cannot_play() -> None:
    draughts, _ = DraughtsGame.create(DraughtsOptions())
    with pytest.raises(CannotPlay):
        GnubgBot("expert").choose(draughts, W)
    plakoto, _ = RaceGame.create("plakoto")
    plakoto = plakoto.apply(act.Start(), RandomDice(1)).game
    with pytest.raises(CannotPlay):
        GnubgBot("expert").choose(plakoto, plakoto.to_act or W)


def test_not_your_turn_raises_cannot_play() -> None:
    with pytest.raises(CannotPlay):
        GnubgBot("expert").choose(game_at(START.text()), B)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="grandmaster"):
        GnubgBot("grandmaster")


def test_levels_are_ordered_and_differ_in_play() -> None:
    levels = list(LEVELS.values())
    assert (levels[0].name, levels[-1].name) == ("beginner", "world_class")
    assert all(a.noise >= b.noise and a.plies <= b.plies for a, b in pairwise(levels))
    differ = 0
    for seed in range(6):
        for dice in ((2, 1), (5, 4), (4, 3), (6, 2)):
            game = game_at(START.text(), Phase.MOVE, dice=dice)
            beginner = GnubgBot("beginner", seed=seed).choose(game, W)
            differ += beginner != GnubgBot("expert", seed=seed).choose(game, W)
    assert differ > 0


def test_a_seeded_bot_repeats_itself() -> None:
    def bout() -> Any:
        bots = (GnubgBot("beginner", seed=5), GnubgBot("casual", seed=6))
        return play_bout(bots, "backgammon", seed=11, cube=True)

    first, second = bout(), bout()
    assert (first.winner, first.points, first.actions) == (
        second.winner, second.points, second.actions,
    )  # fmt: skip


def test_a_short_budget_drops_world_class_to_0_ply() -> None:
    bot = GnubgBot("world_class")
    assert bot.level_for(None).plies == 2
    assert bot.level_for(0.1).plies == 0
    game = game_at(START.text(), Phase.MOVE, dice=(2, 2))
    assert bot.choose(game, W, budget=0.1) == GnubgBot("expert").choose(game, W)


def test_choose_from_a_worker_thread_never_crashes() -> None:
    """The server may call from a worker thread: an answer or a typed refusal, never a segfault."""
    game = game_at(START.text(), Phase.MOVE, dice=(6, 4))
    outcome: list[object] = []

    def work() -> None:
        try:
            outcome.append(GnubgBot("world_class").choose(game, W))
        except gnubg_engine.EngineUnavailable as error:
            outcome.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    answer = outcome[0]
    if isinstance(answer, act.PlayText):
        assert game.apply(answer).game.phase is Phase.ROLL
    else:
        assert isinstance(answer, gnubg_engine.EngineUnavailable)


# --- never an illegal action ---------------------------------------------------------------

TABLES = [
    ("backgammon", {"cube": True}, 0),
    ("backgammon", {"cube": True, "jacoby": True, "beavers": True}, 0),
    ("backgammon", {}, 3),
    ("takhte_nard", {}, 0),
    ("short_nardy", {}, 0),
    ("short_nardy", {"stake_mode": "mars"}, 0),
]


WALK_WEIGHTS: dict[type, float] = {
    act.Move: 10.0, act.Confirm: 10.0, act.Undo: 0.5, act.Roll: 6.0, act.Double: 1.0,
    act.Take: 6.0, act.Beaver: 2.0, act.Drop: 1.0, act.Resign: 0.1,
    act.AcceptResign: 1.0, act.DeclineResign: 3.0, act.Start: 1.0,
}  # fmt: skip
"""A random walk that reaches every phase: mostly moving, sometimes cubes, rarely resigns."""


def random_state(
    variant: str,
    options: dict[str, Any],
    length: int,
    seed: int,
    walk: int,
    stop: Phase | None = None,
) -> Any:
    """A game or match after ``walk`` random legal actions, then on until it is in ``stop``."""
    rng = random.Random(seed)
    dice = RandomDice(seed)
    state: Any
    if length:
        state, _ = Match.create(variant, length)
    else:
        state, _ = RaceGame.create(variant, RaceOptions.defaults(variant, **options))
    for count in range(walk + 2000):
        game = state.game if length else state
        if state.finished or (count >= walk and stop in (None, game.phase)):
            break
        actions = [a for a in state.legal_actions() if type(a) in WALK_WEIGHTS]
        weights = [WALK_WEIGHTS[type(a)] for a in actions]
        step = state.apply(rng.choices(actions, weights)[0], dice)
        state = step.match if length else step.game
    return state


@settings(max_examples=60)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    walk=st.integers(0, 250),
    stop=st.sampled_from([None, Phase.ROLL, Phase.MOVE, Phase.DOUBLED, Phase.RESIGNING]),
    level=st.sampled_from(list(LEVELS)),
)
def test_bf9_bot_actions_are_always_legal(
    table: tuple[str, dict[str, Any], int], seed: int, walk: int, stop: Phase | None, level: str
) -> None:
    """Property: from any state random play reaches, the bot's action is accepted by the game."""
    variant, options, length = table
    state = random_state(variant, options, length, seed, walk, stop)
    bot = GnubgBot(level, seed=seed)
    if state.finished:
        with pytest.raises(GameOver):
            bot.choose(state, W)
        return
    side = state.to_act
    if side is None:  # a match between games: the server starts the next one
        return
    action = bot.choose(state, side)
    state.apply(action, RandomDice(seed))
