"""Differential test: our move generator against py-draughts (the oracle).

Both generators walk the same seeded random games from the start (openings,
middle games with multi-captures, kings, endgames) and random king endings;
at every ply the two move sets must be identical as (start, end, captured
pieces), and the position after each move must have the same FEN.
"""

import random

import draughts
import pytest

from sheshbesh.games.draughts import Color, Position

GAMES = 500
MAX_PLIES = 160
Outcome = tuple[int, int, frozenset[int]]


def their_fen(board: draughts.BaseBoard) -> str:
    return str(board.fen).removeprefix('[FEN "').removesuffix('"]')


def their_moves(board: draughts.BaseBoard) -> dict[Outcome, draughts.Move]:
    return {
        (m.square_list[0] + 1, m.square_list[-1] + 1, frozenset(c + 1 for c in m.captured_list)): m
        for m in board.legal_moves
    }


def our_moves(position: Position) -> dict[Outcome, object]:
    return {(m.start, m.end, frozenset(m.captured)): m for m in position.legal_moves()}


def compare_all_results(position: Position, board: draughts.BaseBoard) -> None:
    theirs = their_moves(board)
    for move in position.legal_moves():
        other = theirs[move.start, move.end, frozenset(move.captured)]
        board.push(other)
        assert their_fen(board) == position.apply(move).fen(), (position.fen(), str(move))
        board.pop()


def play_random_game(seed: int) -> tuple[int, int, int]:
    """Walk one game; return (plies, captures of 2+ pieces, king moves) seen."""
    rng = random.Random(seed)
    position = Position.start()
    board = draughts.Board.from_fen(position.fen())
    multi = kings = 0
    for ply in range(MAX_PLIES):
        ours = our_moves(position)
        theirs = their_moves(board)
        assert ours.keys() == theirs.keys(), position.fen()
        if not ours:
            return ply, multi, kings
        if ply % 10 == 0 or any(len(k[2]) > 1 for k in ours):
            compare_all_results(position, board)
        move = position.legal_moves()[rng.randrange(len(ours))]
        multi += len(move.captured) > 1
        kings += move.start in position.kings(position.turn)
        board.push(theirs[move.start, move.end, frozenset(move.captured)])
        position = position.apply(move)
        assert their_fen(board) == position.fen()
    return MAX_PLIES, multi, kings


@pytest.mark.slow
def test_same_moves_as_py_draughts_over_random_games() -> None:
    plies = multi = kings = 0
    for seed in range(GAMES):
        p, m, k = play_random_game(seed)
        plies, multi, kings = plies + p, multi + m, kings + k
    # the walk really reached multi-captures and king play
    assert plies > 40_000 and multi > 1_000 and kings > 2_000, (plies, multi, kings)


def random_ending(rng: random.Random) -> Position:
    """A few men and kings anywhere they may stand."""
    squares = rng.sample(range(1, 51), rng.randint(2, 9))
    sets = [0, 0, 0, 0]
    for square in squares:
        kind = rng.randrange(4)
        if (kind == 0 and square <= 5) or (kind == 2 and square >= 46):
            kind += 1
        sets[kind] |= 1 << square
    return Position(rng.choice(list(Color)), *sets)


@pytest.mark.slow
def test_same_moves_as_py_draughts_in_random_endings() -> None:
    rng = random.Random(2024)
    for _ in range(3_000):
        position = random_ending(rng)
        board = draughts.Board.from_fen(position.fen())
        assert our_moves(position).keys() == their_moves(board).keys(), position.fen()
        compare_all_results(position, board)
