"""The draughts top level: dame-rs proposes, our rules referee (issue 19).

The engine is the real one throughout; the only test double is a bot whose
``propose`` (the engine's *answer*) is replaced, to check the fallback when
an answer is not legal by our rules. Searches are capped by nodes, so every
run chooses the same moves on any machine.
"""

import logging
import random

import dame  # a dependency of the club (pyproject.toml): missing, these tests fail
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.bots.draughts_engine import (
    DameBot,
    Proposal,
    engine_board,
    engine_move,
    legal_move,
)
from sheshbesh.bots.draughts_search import AlphaBetaBot
from sheshbesh.bots.registry import make_bot
from sheshbesh.games.draughts import Game, Move, Position
from sheshbesh.games.race import Side
from sheshbesh.play.draughts import (
    AcceptDraw,
    DeclineDraw,
    DraughtsGame,
    DraughtsOptions,
    MoveAction,
    OfferDraw,
)

from .test_draughts_bot import lopsided_game, pass_turn, placements, random_play

DETERMINISTIC = settings(derandomize=True, database=None, deadline=None)
NODES = 4_000


def game_at(fen: str) -> DraughtsGame:
    game, _ = DraughtsGame.create(DraughtsOptions(start=fen))
    return game


def engine_moves(position: Position) -> dict[tuple[int, int, tuple[int, ...]], object]:
    """The engine's legal moves keyed as ours are told apart: start, end, captured."""
    board = dame.Board(position.fen())
    return {(m.from_square, m.to_square, tuple(sorted(m.captured))): m for m in board.legal_moves}


def our_moves(position: Position) -> dict[tuple[int, int, tuple[int, ...]], Move]:
    return {(m.start, m.end, m.captured): m for m in position.legal_moves()}


def same_moves(position: Position) -> None:
    """Both generators give the same moves, and each leads to the same position."""
    ours = our_moves(position)
    theirs = engine_moves(position)
    assert set(ours) == set(theirs), position.fen()
    for key, move in ours.items():
        board = dame.Board(position.fen())
        board.push(theirs[key])
        assert Position.from_fen(board.fen()) == position.apply(move), (position.fen(), str(move))


# --- the engine's notation mapped to ours, on hand-made positions ------------------------


@pytest.mark.parametrize(
    ("fen", "proposal", "ours"),
    [
        ("W:W31-50:B1-20", Proposal(32, 28), "32-28"),  # a quiet move
        ("B:W32:B19", Proposal(19, 23), "19-23"),  # Black moves down the board
        ("W:W32,45:B27,28,19", Proposal(32, 14, (28, 19)), "32x23x14"),  # DR-E2, two taken
        ("W:WK46:B28,24,3", Proposal(46, 30, (24, 28)), "46x19x30"),  # DR-E6, a king's route
        ("W:WK46:B28,24,3", Proposal(46, 35, (24, 28)), "46x19x35"),
        ("W:WK22:B9,10,31", Proposal(22, 15, (9, 10)), "22x4x15"),  # DR-E8, Turkish strike
        ("W:W14:B8,9,45", Proposal(14, 12, (8, 9)), "14x3x12"),  # DR-E3, no crown in passing
        ("W:W14:B9,45", Proposal(14, 3, (9,)), "14x3"),  # DR-E4, crowned where it ends
        ("W:W6:B45", Proposal(6, 1), "6-1"),  # a quiet promotion
    ],
)
def test_a_proposal_maps_to_our_move(fen: str, proposal: Proposal, ours: str) -> None:
    position = Position.from_fen(fen)
    move = legal_move(position, proposal)
    assert move is not None and str(move) == ours
    same_moves(position)


@pytest.mark.parametrize(
    ("fen", "proposal"),
    [
        ("W:W31,32,33:B28,3", Proposal(31, 26)),  # DR-E1: a capture is compulsory
        ("W:W32,45:B27,28,19", Proposal(32, 21, (27,))),  # DR-E2: the majority rule
        ("W:W14:B8,9,45", Proposal(14, 3, (9,))),  # DR-E3: must go on capturing
        ("W:WK46:B28,24,3", Proposal(46, 23, (28,))),  # DR-E6: must land where it continues
        ("W:W32:B1", Proposal(32, 27, (28,))),  # takes a piece that is not there
    ],
)
def test_a_proposal_that_is_not_our_move_maps_to_none(fen: str, proposal: Proposal) -> None:
    assert legal_move(Position.from_fen(fen), proposal) is None


def test_promotion_the_bot_plays_it_and_the_man_is_crowned() -> None:
    game = game_at("W:W6:B45")
    action = DameBot(max_nodes=NODES).choose(game, Side.WHITE)
    assert action == MoveAction(Side.WHITE, "6-1")
    assert game.apply(action).game.position.fen() == "B:WK1:B45"


def test_the_bot_takes_the_multi_capture_the_majority_rule_asks_for() -> None:
    game = game_at("W:W32,45:B27,28,19")  # DR-E2
    assert DameBot(max_nodes=NODES).choose(game, Side.WHITE) == MoveAction(Side.WHITE, "32x23x14")


def test_the_engine_sees_the_moves_since_the_last_irreversible_one() -> None:
    """Kings shuffling: the engine's board is the position after them, with their history."""
    game = Game.begin(Position.from_fen("W:WK46,31,32,33:BK5,18,19,20"))
    for text in ("46-41", "5-10", "41-46", "10-5"):
        game = game.play(text)
    board = engine_board(game)
    assert Position.from_fen(board.fen()) == game.position
    assert [m.hub() for m in board.move_stack] == ["46-41", "5-10", "41-46", "10-5"]
    game = game.play("31-27")  # a man moved: nothing before it can repeat
    assert engine_board(game).move_stack == []


def test_engine_move_refuses_a_move_the_engine_does_not_have() -> None:
    board = dame.Board("W:W31,32,33:B28,3")
    with pytest.raises(ValueError, match="31-26"):
        engine_move(board, Move((31, 26)))


# --- differential: the engine agrees with our rules on many positions --------------------


@settings(DETERMINISTIC, max_examples=150)
@given(st.integers(0, 10**6), st.integers(0, 150))
def test_engine_moves_equal_ours_after_random_play(seed: int, plies: int) -> None:
    game = random_play(seed, plies)
    if not game.finished:
        same_moves(game.position)


@settings(DETERMINISTIC, max_examples=300)
@given(placements())
def test_engine_moves_equal_ours_with_kings_anywhere(position: Position) -> None:
    if position.legal_moves():
        same_moves(position)


@settings(DETERMINISTIC, max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 150))
def test_the_engines_proposals_are_legal_after_random_play(seed: int, plies: int) -> None:
    game = random_play(seed, plies)
    if game.finished:
        return
    bot = DameBot(max_nodes=2_000)
    proposal = bot.propose(game.board, 0.1)
    assert proposal is not None and legal_move(game.position, proposal) is not None
    side = game.to_act
    assert side is not None
    game.apply(bot.choose(game, side))  # raises if it is not legal
    assert bot.refused == 0


# --- the fallback: our alpha-beta moves when the answer is not legal ----------------------


class Proposes(DameBot):
    """The real bot, with the engine's answer replaced by a fixed one."""

    def __init__(self, answer: Proposal | Exception | None) -> None:
        super().__init__(max_nodes=NODES)
        self.answer = answer

    def propose(self, game: Game, seconds: float) -> Proposal | None:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    "answer",
    [Proposal(45, 40), Proposal(32, 21, (27,)), None, RuntimeError("engine crashed")],
    ids=["quiet-when-a-capture-is-due", "fewer-than-the-majority", "no-move", "engine-error"],
)
def test_an_answer_our_rules_refuse_falls_back_to_alpha_beta(
    answer: Proposal | Exception | None, caplog: pytest.LogCaptureFixture
) -> None:
    game = game_at("W:W32,35,45:B19,27,28,30")  # 32x23x14 or 35x24x13, each takes two
    bot = Proposes(answer)
    with caplog.at_level(logging.WARNING, logger="sheshbesh.bots.draughts_engine"):
        action = bot.choose(game, Side.WHITE)
    expected = AlphaBetaBot("expert", max_nodes=NODES).choose(game, Side.WHITE)
    assert action == expected and bot.refused == 1
    assert "alpha-beta moves" in caplog.text
    game.apply(action)


def test_an_answer_our_rules_accept_is_played_without_fallback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = game_at("W:W31,32,33:B28,3")
    bot = Proposes(Proposal(33, 22, (28,)))
    with caplog.at_level(logging.WARNING):
        assert bot.choose(game, Side.WHITE) == MoveAction(Side.WHITE, "33x22")
    assert bot.refused == 0 and "refused" not in caplog.text


# --- draw offers: our logic, the engine's score ----------------------------------------


def test_dr_19_the_side_behind_accepts_a_draw_offer() -> None:
    game, ahead = lopsided_game()
    if game.to_act is not ahead:
        game = pass_turn(game)
    offered = game.apply(OfferDraw(ahead)).game
    assert DameBot(max_nodes=NODES).choose(offered, ahead.other) == AcceptDraw(ahead.other)


def test_dr_19_the_side_ahead_declines_a_draw_offer() -> None:
    game, ahead = lopsided_game()
    behind = ahead.other
    if game.to_act is not behind:
        game = pass_turn(game)
    offered = game.apply(OfferDraw(behind)).game
    assert DameBot(max_nodes=NODES).choose(offered, ahead) == DeclineDraw(ahead)


# --- as the club makes it --------------------------------------------------------------


def test_the_registry_makes_the_top_level_and_refuses_an_unknown_one() -> None:
    from sheshbesh.bots.base import CannotPlay

    bot = make_bot("dame:master")
    assert bot.name == "dame:master" and bot.variants == frozenset({"draughts"})
    with pytest.raises(CannotPlay):
        make_bot("dame:grandmaster")


def test_a_whole_game_against_alpha_beta_stays_legal() -> None:
    """Every move of a game goes through ``apply``; the engine is never refused."""
    from sheshbesh.bots.arena import play_bout

    rng = random.Random(3)
    game, _ = DraughtsGame.create()
    for _ in range(4):  # a varied opening
        side = game.to_act
        assert side is not None
        game = game.apply(MoveAction(side, str(rng.choice(game.board.legal_moves())))).game
    top = DameBot(max_nodes=1_500)
    bout = play_bout((top, AlphaBetaBot("medium", max_nodes=1_500)), "draughts", start=game)
    assert bout.actions > 0 and top.refused == 0
