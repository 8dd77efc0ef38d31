"""A move and its notation (DR-4).

A quiet move is written ``32-28``; a capture lists every landing square,
``32x23x14``, so that two captures ending on the same square by different
routes over different pieces read differently. The FMJD short form ``32x14``
is read by ``Position.parse_move``, which knows the position and can tell
whether it is unambiguous.

>>> move = Move((32, 23, 14), (19, 28))
>>> str(move), move.start, move.end, move.is_capture
('32x23x14', 32, 14, True)
>>> read_notation("32x14")
((32, 14), True)
"""

import re
from dataclasses import dataclass

from .errors import InvalidMove

_NOTATION = re.compile(r"\d+(?:-\d+|(?:x\d+)+)")


@dataclass(frozen=True, slots=True)
class Move:
    """One move: the squares the piece visits and the pieces it takes.

    ``path`` is the start square and every landing square; ``captured`` the
    squares of the captured pieces, ascending. Where several routes reach the
    same square over the same pieces they are one move, and ``path`` is the
    smallest of those routes in numeric order, so equal moves compare equal.
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @property
    def start(self) -> int:
        """The square the piece leaves."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The square the piece stops on."""
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """True when the move takes at least one piece."""
        return bool(self.captured)

    def __str__(self) -> str:
        return "x".join(map(str, self.path)) if self.captured else f"{self.path[0]}-{self.path[1]}"


def format_move(move: Move) -> str:
    """The DR-4 notation of a move; the inverse of ``Position.parse_move``."""
    return str(move)


def read_notation(text: str) -> tuple[tuple[int, ...], bool]:
    """Split move text into its squares and whether it is written as a capture.

    Only syntax is checked here; ``InvalidMove`` names the bad text or square.
    """
    token = text.strip()
    if not _NOTATION.fullmatch(token):
        raise InvalidMove(f"bad move text {text!r}: expected e.g. '32-28' or '32x23x14'")
    capture = "x" in token
    squares = tuple(int(part) for part in re.split("[-x]", token))
    for square in squares:
        if not 1 <= square <= 50:
            raise InvalidMove(f"square {square} is off the board in move {token!r}")
    if not capture and squares[0] == squares[1]:
        raise InvalidMove(f"move {token!r} does not leave its square")
    return squares, capture
