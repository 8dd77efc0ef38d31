"""FMJD FEN: the text form of a draughts position.

``W:W31-50:B1-20`` is side to move, then White's and Black's pieces; a ``K``
marks a king. Input may use ranges (``31-50``, ``K46-48``), any order of the
two lists, spaces, lower case and a trailing full stop. Output is canonical:
``W:`` or ``B:``, White's list then Black's, each ascending, kings marked
``K``, no ranges, so that one position has exactly one text.

>>> format_fen(*parse_fen("b:b k3 , 1-2:w k46"))
'B:WK46:B1,2,K3'
"""

import re

from .errors import InvalidPosition
from .pieces import Color

Placement = tuple[Color, int, int, int, int]
"""Side to move, then square sets (bit ``s`` for square ``s``): White men,
White kings, Black men, Black kings."""

_ITEM = re.compile(r"(K?)(\d+)(?:-(\d+))?")
_CROWNING = {Color.WHITE: range(1, 6), Color.BLACK: range(46, 51)}


def _square(token: str, number: str) -> int:
    square = int(number)
    if not 1 <= square <= 50:
        raise InvalidPosition(f"square {square} is off the board in FEN token {token!r}")
    return square


def _read_side(field: str) -> tuple[Color, int, int]:
    """Read one colour's list, e.g. ``WK46,31-33``, into (colour, men, kings)."""
    color = Color(field[0])
    men = kings = 0
    body = field[1:]
    if not body:
        return color, men, kings
    for token in body.split(","):
        match = _ITEM.fullmatch(token)
        if match is None:
            raise InvalidPosition(f"bad FEN token {token!r} in {field!r}")
        first = _square(token, match[2])
        last = _square(token, match[3]) if match[3] else first
        if last < first:
            raise InvalidPosition(f"range runs backwards in FEN token {token!r}")
        for square in range(first, last + 1):
            bit = 1 << square
            if (men | kings) & bit:
                raise InvalidPosition(f"square {square} is listed twice in {field!r}")
            if match[1]:
                kings |= bit
            elif square in _CROWNING[color]:
                raise InvalidPosition(
                    f"a {color.name.lower()} man cannot stand on its crowning square "
                    f"{square} (FEN token {token!r}); write K{square} for a king"
                )
            else:
                men |= bit
    return color, men, kings


def parse_fen(text: str) -> Placement:
    """Read FMJD FEN into a placement; ``InvalidPosition`` names the bad token."""
    cleaned = re.sub(r"\s+", "", text).upper().removesuffix(".")
    fields = cleaned.split(":")
    if len(fields) != 3 or fields[0] not in ("W", "B"):
        raise InvalidPosition(f"FEN must look like 'W:W31-50:B1-20', got {text!r}")
    sides: dict[Color, tuple[int, int]] = {}
    for field in fields[1:]:
        if field[:1] not in ("W", "B"):
            raise InvalidPosition(f"FEN list {field!r} must start with W or B")
        color, men, kings = _read_side(field)
        if color in sides:
            raise InvalidPosition(f"FEN lists {color.name.lower()} twice: {field!r}")
        sides[color] = (men, kings)
    white_men, white_kings = sides[Color.WHITE]
    black_men, black_kings = sides[Color.BLACK]
    both = (white_men | white_kings) & (black_men | black_kings)
    if both:
        square = (both & -both).bit_length() - 1
        raise InvalidPosition(f"square {square} holds both colours in {text!r}")
    return Color(fields[0]), white_men, white_kings, black_men, black_kings


def _list(men: int, kings: int) -> str:
    return ",".join(
        f"K{s}" if kings >> s & 1 else str(s) for s in range(1, 51) if (men | kings) >> s & 1
    )


def format_fen(
    turn: Color, white_men: int, white_kings: int, black_men: int, black_kings: int
) -> str:
    """Write the canonical FEN of a placement."""
    return f"{turn.value}:W{_list(white_men, white_kings)}:B{_list(black_men, black_kings)}"
