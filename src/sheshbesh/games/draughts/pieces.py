"""Colours and pieces: White and Black, each with men and kings."""

from enum import Enum


class Color(Enum):
    """A side; the value is its FEN letter. White moves first (DR-4).

    >>> Color.WHITE.opponent
    <Color.BLACK: 'B'>
    """

    WHITE = "W"
    BLACK = "B"

    @property
    def opponent(self) -> "Color":
        """The other side."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class Piece(Enum):
    """What can stand on a square; the value is how a FEN list writes it."""

    WHITE_MAN = "W"
    WHITE_KING = "WK"
    BLACK_MAN = "B"
    BLACK_KING = "BK"

    @property
    def color(self) -> Color:
        """The side that owns the piece."""
        return Color.WHITE if self in (Piece.WHITE_MAN, Piece.WHITE_KING) else Color.BLACK

    @property
    def is_king(self) -> bool:
        """True for a king (DR-6, DR-8), False for a man."""
        return self in (Piece.WHITE_KING, Piece.BLACK_KING)
