"""Helpers for tests that use GNU Backgammon (PyPI ``gnubg``) as the oracle."""

from __future__ import annotations

import gnubg

from sheshbesh.games.race import Play
from sheshbesh.games.race.ids import Board

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
CUBE = gnubg.cubeinfo()
CONTEXT = gnubg.evalcontext(0, 0, 1, 0, 0.0)


def mover_view(play: Play) -> Board:
    """The board after ``play`` with the mover still as gnubg's ``[1]`` (read off its key)."""
    key = play.key
    opponent_bar = play.before.bar[play.before.turn.other] + key[26]
    mover = (*(max(0, key[p]) for p in range(1, 25)), key[25])
    opponent = (*(max(0, -key[25 - q]) for q in range(1, 25)), opponent_bar)
    return opponent, mover


def apply_steps(board: Board, steps: list[tuple[int, int]]) -> Board:
    """Play gnubg (from, to) pairs on a board: 25 is the bar, 0 off; blots are hit."""
    opponent, mover = list(board[0]), list(board[1])
    for src, dst in steps:
        mover[src - 1] -= 1
        if dst > 0:
            mover[dst - 1] += 1
            if opponent[24 - dst] == 1:
                opponent[24 - dst] = 0
                opponent[24] += 1
    return tuple(opponent), tuple(mover)


def gnubg_steps(move: tuple[int, ...]) -> tuple[list[tuple[int, int]], bool]:
    """gnubg's move tuple as steps, and whether it was cut at a bear-off."""
    steps = []
    for i in range(0, len(move), 2):
        src = move[i]
        if src == 0:
            return steps, False
        dst = move[i + 1] if i + 1 < len(move) else 0
        steps.append((src, dst))
        if dst == 0:
            return steps, True
    return steps, False
