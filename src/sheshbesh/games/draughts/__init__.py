"""International draughts (10×10) as RULES.md section 11 (DR-*) describes it."""

from .errors import (
    AmbiguousMove,
    DraughtsError,
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidPdn,
    InvalidPosition,
)
from .move import Move, format_move
from .perft import perft
from .pieces import Color, Piece
from .position import Position

__all__ = [
    "AmbiguousMove",
    "Color",
    "DraughtsError",
    "GameOver",
    "IllegalMove",
    "InvalidMove",
    "InvalidPdn",
    "InvalidPosition",
    "Move",
    "Piece",
    "Position",
    "format_move",
    "perft",
]
