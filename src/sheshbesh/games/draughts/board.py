"""The 10×10 board: square numbers, rows, columns and diagonals.

Only the 50 dark squares are played on, numbered 1–50 row by row from Black's
side (DR-1). The move generator works on bit masks, but everything it knows
about the board comes from the functions here, written straight from the
formulas of DR-1 and DR-2 so a test can check one against the other.

>>> row(46), column(46), row(5), column(5)
(10, 1, 1, 10)
>>> neighbour(32, Diagonal.UP_LEFT), neighbour(32, Diagonal.UP_RIGHT)
(27, 28)
>>> ray(46, Diagonal.UP_RIGHT)
(41, 37, 32, 28, 23, 19, 14, 10, 5)
"""

from enum import Enum

SQUARES = range(1, 51)
"""Square numbers of the dark squares, 1–50 (DR-1)."""

WHITE_CROWNING = frozenset(range(1, 6))
"""Black's back row: a White man whose move ends here becomes a king (DR-12)."""

BLACK_CROWNING = frozenset(range(46, 51))
"""White's back row: a Black man whose move ends here becomes a king (DR-12)."""


class Diagonal(Enum):
    """The four diagonal directions; "up" is towards row 1, White's forward."""

    UP_LEFT = "up-left"
    UP_RIGHT = "up-right"
    DOWN_LEFT = "down-left"
    DOWN_RIGHT = "down-right"


def row(square: int) -> int:
    """Row 1–10 of a square; row 1 is Black's back row (DR-1)."""
    return (square - 1) // 5 + 1


def column(square: int) -> int:
    """Column 1–10 of a square, counted from White's left (DR-1)."""
    k = square - 5 * (row(square) - 1)
    return 2 * k if row(square) % 2 == 1 else 2 * k - 1


def neighbour(square: int, diagonal: Diagonal) -> int | None:
    """The adjacent square along ``diagonal``, or ``None`` off the board (DR-2)."""
    r = row(square)
    k = square - 5 * (r - 1)
    odd = r % 2 == 1
    if diagonal in (Diagonal.UP_LEFT, Diagonal.UP_RIGHT) and r == 1:
        return None
    if diagonal in (Diagonal.DOWN_LEFT, Diagonal.DOWN_RIGHT) and r == 10:
        return None
    left = diagonal in (Diagonal.UP_LEFT, Diagonal.DOWN_LEFT)
    if odd and not left and k == 5:
        return None
    if not odd and left and k == 1:
        return None
    step = {
        (True, Diagonal.UP_LEFT): -5,
        (True, Diagonal.UP_RIGHT): -4,
        (True, Diagonal.DOWN_LEFT): 5,
        (True, Diagonal.DOWN_RIGHT): 6,
        (False, Diagonal.UP_LEFT): -6,
        (False, Diagonal.UP_RIGHT): -5,
        (False, Diagonal.DOWN_LEFT): 4,
        (False, Diagonal.DOWN_RIGHT): 5,
    }[odd, diagonal]
    return square + step


def ray(square: int, diagonal: Diagonal) -> tuple[int, ...]:
    """Every square from ``square`` (exclusive) to the edge along ``diagonal``."""
    squares: list[int] = []
    here = neighbour(square, diagonal)
    while here is not None:
        squares.append(here)
        here = neighbour(here, diagonal)
    return tuple(squares)
