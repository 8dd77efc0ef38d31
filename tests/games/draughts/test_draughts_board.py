"""Board geometry (DR-1, DR-2) and the mask layout the generator builds on it."""

import pytest

from sheshbesh.games.draughts import Diagonal, column, neighbour, ray, row
from sheshbesh.games.draughts.movegen import (
    BOARD,
    SQUARE_OF,
    from_ghost,
    ghost_index,
    to_ghost,
)

SHIFT = {
    Diagonal.UP_LEFT: -6,
    Diagonal.UP_RIGHT: -5,
    Diagonal.DOWN_LEFT: 5,
    Diagonal.DOWN_RIGHT: 6,
}


def test_dr_1_corner_squares_rows_and_columns() -> None:
    assert (row(46), column(46)) == (10, 1)
    assert (row(5), column(5)) == (1, 10)
    assert (row(1), column(1)) == (1, 2)
    assert (row(6), column(6)) == (2, 1)
    assert {(row(s) + column(s)) % 2 for s in range(1, 51)} == {1}


def test_dr_1_every_dark_square_has_one_number() -> None:
    cells = {(row(s), column(s)) for s in range(1, 51)}
    assert len(cells) == 50
    assert all(1 <= r <= 10 and 1 <= c <= 10 for r, c in cells)


@pytest.mark.parametrize("square", range(1, 51))
def test_dr_2_neighbours_are_one_diagonal_step(square: int) -> None:
    for diagonal in Diagonal:
        other = neighbour(square, diagonal)
        dr = -1 if diagonal in (Diagonal.UP_LEFT, Diagonal.UP_RIGHT) else 1
        dc = -1 if diagonal in (Diagonal.UP_LEFT, Diagonal.DOWN_LEFT) else 1
        r, c = row(square) + dr, column(square) + dc
        if 1 <= r <= 10 and 1 <= c <= 10:
            assert other is not None
            assert (row(other), column(other)) == (r, c)
        else:
            assert other is None


def test_dr_2_examples_from_the_rule() -> None:
    assert neighbour(32, Diagonal.UP_LEFT) == 27
    assert neighbour(33, Diagonal.UP_RIGHT) == 29
    assert neighbour(15, Diagonal.DOWN_RIGHT) is None
    assert neighbour(16, Diagonal.UP_LEFT) is None
    assert neighbour(3, Diagonal.UP_LEFT) is None
    assert neighbour(48, Diagonal.DOWN_LEFT) is None
    assert ray(46, Diagonal.UP_RIGHT)[-1] == 5


@pytest.mark.parametrize("square", range(1, 51))
def test_ghost_layout_turns_each_diagonal_into_one_shift(square: int) -> None:
    index = ghost_index(square)
    for diagonal, shift in SHIFT.items():
        other = neighbour(square, diagonal)
        target = index + shift
        if other is None:
            assert target < 0 or not BOARD >> target & 1
        else:
            assert target == ghost_index(other)


def test_ghost_conversion_round_trips() -> None:
    every = sum(1 << s for s in range(1, 51))
    assert to_ghost(every) == BOARD
    assert from_ghost(BOARD) == every
    for square in range(1, 51):
        assert to_ghost(1 << square) == 1 << ghost_index(square)
        assert SQUARE_OF[ghost_index(square)] == square
