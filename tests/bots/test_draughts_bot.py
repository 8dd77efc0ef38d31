"""The alpha-beta draughts bot: legal, sharp where it must be, polite on bad input.

Hypothesis runs derandomized and without a database, so every run is the same.
Timed levels are given ``max_nodes`` where a test needs the same move on any
machine; no test asserts on timing beyond "a move came back".
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.bots.arena import new_game
from sheshbesh.bots.base import CannotPlay, GameOver
from sheshbesh.bots.draughts_eval import WIN
from sheshbesh.bots.draughts_moves import generate, play, position_state, root_moves
from sheshbesh.bots.draughts_search import LEVELS, AlphaBetaBot, Searcher
from sheshbesh.games.draughts import Color, Game, Position
from sheshbesh.games.race import Side
from sheshbesh.play.actions import Resign
from sheshbesh.play.draughts import (
    AcceptDraw,
    DeclineDraw,
    DraughtsGame,
    DraughtsOptions,
    MoveAction,
    OfferDraw,
)

DETERMINISTIC = settings(derandomize=True, database=None, deadline=None)


def game_at(fen: str, **options: int) -> DraughtsGame:
    game, _ = DraughtsGame.create(DraughtsOptions(start=fen, **options))
    return game


def random_play(seed: int, plies: int) -> DraughtsGame:
    """The game after up to ``plies`` uniformly random moves from the start."""
    rng = random.Random(seed)
    game, _ = DraughtsGame.create()
    for _ in range(plies):
        if game.finished:
            break
        side = game.to_act
        assert side is not None
        move = rng.choice(game.board.legal_moves())
        game = game.apply(MoveAction(side, str(move))).game
    return game


@st.composite
def placements(draw: st.DrawFn) -> Position:
    """Any placement the rules allow, kings included: no man on its crowning row."""
    squares = draw(st.lists(st.integers(1, 50), unique=True, min_size=2, max_size=24))
    kinds = draw(st.lists(st.sampled_from("mMkK"), min_size=len(squares), max_size=len(squares)))
    sets = {"m": 0, "M": 0, "k": 0, "K": 0}
    for square, kind in zip(squares, kinds, strict=True):
        if kind == "M" and square <= 5:
            kind = "K"
        if kind == "m" and square >= 46:
            kind = "k"
        sets[kind] |= 1 << square
    turn = draw(st.sampled_from(list(Color)))
    return Position(turn, sets["M"], sets["K"], sets["m"], sets["k"])


def same_moves(position: Position) -> None:
    """The search's moves and positions after them equal the rules', move for move."""
    state = position_state(position)
    ours = generate(*state)
    rules = root_moves(position)
    assert len(ours) == len(set(ours)) and set(ours) == set(rules), position.fen()
    for move in ours:
        assert play(*state, move) == position_state(position.apply(rules[move])), (
            position.fen(),
            str(rules[move]),
        )


# --- the search's moves are the rules' moves --------------------------------------------


@settings(DETERMINISTIC, max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 120))
def test_search_moves_equal_the_rules_after_random_play(seed: int, plies: int) -> None:
    same_moves(random_play(seed, plies).position)


@settings(DETERMINISTIC, max_examples=200)
@given(placements())
def test_search_moves_equal_the_rules_with_kings_anywhere(position: Position) -> None:
    same_moves(position)


def perft(state: tuple[int, int, int, int, bool], depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(*state, m), depth - 1) for m in generate(*state))


@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [
        ("W:W31-50:B1-20", 4, 4_265),  # the published opening count (tests/games/.../perft.txt)
        ("W:W25,27,28,30,32-35,37,38:B12-14,16,18,19,21,23,24,26", 6, 590),  # Woldouby
        ("W:WK46:B28,24,3", 1, 2),  # DR-E6: 46x19x30, 46x19x35
        ("W:WK22:B9,10,31", 1, 1),  # DR-E8: 22x4x15 only
    ],
)
def test_search_perft_matches_the_rules(fen: str, depth: int, count: int) -> None:
    from sheshbesh.games.draughts import perft as rules_perft

    position = Position.from_fen(fen)
    assert perft(position_state(position), depth) == rules_perft(position, depth) == count


# --- never an illegal move ---------------------------------------------------------------


@settings(DETERMINISTIC, max_examples=100)
@given(st.integers(0, 10**6), st.integers(0, 140), st.sampled_from(["easy", "medium", "hard"]))
def test_never_an_illegal_move_after_random_play(seed: int, plies: int, level: str) -> None:
    game = random_play(seed, plies)
    if game.finished:
        return
    side = game.to_act
    assert side is not None
    action = AlphaBetaBot(level, seed=seed, max_nodes=3_000).choose(game, side)
    assert isinstance(action, MoveAction)
    game.apply(action)  # raises if it is not legal


@settings(DETERMINISTIC, max_examples=60)
@given(placements(), st.sampled_from(["easy", "medium"]))
def test_never_an_illegal_move_in_random_placements(position: Position, level: str) -> None:
    if Game.begin(position).outcome() is not None:
        return  # decided: not a game a bot is asked about
    game = game_at(position.fen())
    side = game.to_act
    assert side is not None
    action = AlphaBetaBot(level, seed=1, max_nodes=2_000).choose(game, side)
    assert isinstance(action, MoveAction)
    game.apply(action)


@pytest.mark.parametrize(
    "fen",
    [
        "W:W32,45:B27,28,19",  # DR-E2: the majority rule
        "W:WK46:B28,24,3",  # DR-E6: the king must land where the capture goes on
        "W:W22:B9,10,31",  # DR-E8: the Turkish strike
        "W:WK46,K5,31,32:BK50,K1,17,19,28",  # kings on both sides, captures for white
        "B:W27,28,33,38,39,K44:B6,12,17,18,19,K49",  # black to move with a king
        "W:W11,12,13,K44:B2,7,8,9,K45",  # a man three rows from crowning, kings each
    ],
)
@pytest.mark.parametrize("level", ["easy", "expert"])
def test_legal_moves_with_kings_and_multi_captures(fen: str, level: str) -> None:
    game = game_at(fen)
    side = game.to_act
    assert side is not None
    action = AlphaBetaBot(level, seed=1, max_nodes=5_000).choose(game, side)
    assert isinstance(action, MoveAction)
    game.apply(action)


# --- it plays well where it must ----------------------------------------------------------

SHOT = "W:W26,29,30,31,36,37,43,44:B8,13,17,18,19,20,22,23"
"""30-25! forces 23x34, then 25x14x23x12x3 takes four and crowns."""

BREAKTHROUGH = "W:W25,29,30:B9,17,18"

HANGING = "W:W26,31,33,35,36,38:B9,10,15,20,22,24"
"""Only 26-21 and 31-27 keep every man: 33-28, 35-30, 38-32 and 33-29 hang one."""


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_takes_the_winning_shot(level: str) -> None:
    game = game_at(SHOT)
    action = AlphaBetaBot(level, max_nodes=20_000).choose(game, Side.WHITE)
    assert action == MoveAction(Side.WHITE, "30-25")


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_does_not_hang_a_man(level: str) -> None:
    game = game_at(HANGING)
    action = AlphaBetaBot(level, max_nodes=20_000).choose(game, Side.WHITE)
    assert action in (MoveAction(Side.WHITE, "26-21"), MoveAction(Side.WHITE, "31-27"))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_breaks_through_to_crown(level: str) -> None:
    """29-23! 18x29 30-24 29x20 25x14x3: two men given, two taken, and a king."""
    game = game_at(BREAKTHROUGH)
    action = AlphaBetaBot(level, max_nodes=20_000).choose(game, Side.WHITE)
    assert action == MoveAction(Side.WHITE, "29-23")


def test_dr_18_a_capture_into_king_against_king_is_scored_a_draw() -> None:
    """White must take the man; one king against one king is drawn at once (DR-18)."""
    found = Searcher(max_depth=4).run(Game.begin(Position.from_fen("W:WK46:BK5,28")))
    assert found.score == 0


def test_dr_21_the_move_limit_is_adjudicated_on_material() -> None:
    """With one move each left, a man up is a win by adjudication, seen from the root."""
    game = game_at("W:W31-50:B1-19", move_limit=1)
    found = Searcher(max_depth=4).run(game.board, game.options.move_limit)
    assert found.score == WIN - 2


# --- budgets and determinism -------------------------------------------------------------


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_tiny_budget_still_gives_a_legal_move(level: str) -> None:
    game = random_play(3, 30)
    side = game.to_act
    assert side is not None
    action = AlphaBetaBot(level, seed=5).choose(game, side, budget=0.01)
    game.apply(action)


def test_same_seed_same_moves() -> None:
    def moves(seed: int) -> list[str]:
        bot, game = AlphaBetaBot("easy", seed=seed), random_play(11, 10)
        played = []
        for _ in range(12):
            side = game.to_act
            assert side is not None
            action = bot.choose(game, side)
            assert isinstance(action, MoveAction)
            played.append(action.text)
            game = game.apply(action).game
        return played

    assert moves(7) == moves(7)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown draughts level"):
        AlphaBetaBot("grandmaster")


# --- bad input ---------------------------------------------------------------------------


def test_a_finished_game_raises_game_over() -> None:
    game, _ = DraughtsGame.create()
    over = game.apply(Resign(Side.WHITE, 1)).game
    with pytest.raises(GameOver):
        AlphaBetaBot("easy").choose(over, Side.BLACK)


def test_a_race_game_raises_cannot_play() -> None:
    with pytest.raises(CannotPlay):
        AlphaBetaBot("easy").choose(new_game("backgammon", seed=1), Side.WHITE)


def test_not_its_turn_raises_cannot_play() -> None:
    game, _ = DraughtsGame.create()
    with pytest.raises(CannotPlay):
        AlphaBetaBot("easy").choose(game, Side.BLACK)


# --- draw offers (DR-19) ------------------------------------------------------------------


def lopsided_game() -> tuple[DraughtsGame, Side]:
    """A game past 40 moves each, no kings, one side at least three men up; and that side."""
    for seed in range(200):
        game = random_play(seed, 81)
        p = game.position
        if game.finished or p.white_kings or p.black_kings:
            continue
        lead = p.white_men.bit_count() - p.black_men.bit_count()
        if abs(lead) >= 3:
            return game, Side.WHITE if lead > 0 else Side.BLACK
    raise AssertionError("no lopsided game among the seeds")


def pass_turn(game: DraughtsGame) -> DraughtsGame:
    """The game after the side to move plays its first legal move."""
    side = game.to_act
    assert side is not None
    return game.apply(MoveAction(side, str(game.board.legal_moves()[0]))).game


def test_dr_19_the_side_behind_accepts_a_draw_offer() -> None:
    game, ahead = lopsided_game()
    if game.to_act is not ahead:  # the leader offers on its own turn
        game = pass_turn(game)
    offered = game.apply(OfferDraw(ahead)).game
    answer = AlphaBetaBot("hard", max_nodes=5_000).choose(offered, ahead.other)
    assert answer == AcceptDraw(ahead.other)


def test_dr_19_the_side_ahead_declines_a_draw_offer() -> None:
    game, ahead = lopsided_game()
    behind = ahead.other
    if game.to_act is not behind:
        game = pass_turn(game)
    offered = game.apply(OfferDraw(behind)).game
    answer = AlphaBetaBot("hard", max_nodes=5_000).choose(offered, ahead)
    assert answer == DeclineDraw(ahead)


def test_accepts_a_dead_equal_king_ending_and_not_the_opening() -> None:
    bot = AlphaBetaBot("hard", max_nodes=5_000)
    ending = game_at("W:WK1,K16:BK45,K35")
    assert bot.accepts_draw(ending, Side.BLACK, None)
    opening, _ = DraughtsGame.create()
    assert not bot.accepts_draw(opening, Side.BLACK, None)
