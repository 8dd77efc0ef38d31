"""The two sides of a race game (BF-5: the red checkers of the sources are Black)."""

from __future__ import annotations

from enum import IntEnum


class Side(IntEnum):
    """White or Black; the value indexes per-side tuples such as ``bar``."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def letter(self) -> str:
        return "W" if self is Side.WHITE else "B"

    @classmethod
    def from_letter(cls, letter: str) -> Side:
        if letter in ("W", "w"):
            return cls.WHITE
        if letter in ("B", "b"):
            return cls.BLACK
        raise ValueError(f"side must be W or B, not {letter!r}")
