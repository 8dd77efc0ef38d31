"""International draughts (10×10), played as RULES.md section 11 (DR-*) says.

Positions are FMJD FEN values, moves are DR-4 notation, games are the fold of
their moves and read and write as PDN. Pure: no I/O, clocks or randomness.

>>> moves_for_fen("W:W32:B1,28")
[{'move': '32x23', 'fen': 'B:W23:B1'}]
"""

from .board import Diagonal, column, neighbour, ray, row
from .errors import (
    AmbiguousMove,
    DraughtsError,
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidPdn,
    InvalidPosition,
)
from .game import Endgame, Game, Outcome, Termination, adjudicate, endgame
from .move import Move, format_move
from .pdn import PdnGame, read_pdn, write_pdn
from .perft import perft
from .pieces import Color, Piece
from .position import Position


def moves_for_fen(fen: str) -> list[dict[str, str]]:
    """Every legal move of a FEN position with the FEN after it, for the CLI.

    Raises ``InvalidPosition`` (a ``ValueError``) naming the bad token.
    """
    position = Position.from_fen(fen)
    return [{"move": str(m), "fen": position.apply(m).fen()} for m in position.legal_moves()]


__all__ = [
    "AmbiguousMove",
    "Color",
    "Diagonal",
    "DraughtsError",
    "Endgame",
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidMove",
    "InvalidPdn",
    "InvalidPosition",
    "Move",
    "Outcome",
    "PdnGame",
    "Piece",
    "Position",
    "Termination",
    "adjudicate",
    "column",
    "endgame",
    "format_move",
    "moves_for_fen",
    "neighbour",
    "perft",
    "ray",
    "read_pdn",
    "row",
    "write_pdn",
]
