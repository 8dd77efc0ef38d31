"""A draughts position as a value: where the pieces stand and who is to move.

Positions are immutable and compare and hash by their canonical FEN, so they
can be dictionary keys, repetition counters and test fixtures. What the draw
rules need beyond the placement (earlier positions, move counters) lives in
``Game``, which is the history of a game.

>>> start = Position.start()
>>> start.fen() == "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(
...     map(str, range(1, 21)))
True
>>> [str(m) for m in start.legal_moves()][:3]
['31-26', '31-27', '32-27']
>>> after = start.apply(start.parse_move("32-28"))
>>> after.turn, after.piece_at(28)
(<Color.BLACK: 'B'>, <Piece.WHITE_MAN: 'W'>)
"""

from dataclasses import dataclass, field

from .board import BLACK_CROWNING, WHITE_CROWNING
from .errors import AmbiguousMove, IllegalMove, InvalidPosition
from .fen import format_fen, parse_fen
from .legal import capture_moves, ordered, quiet_moves
from .move import Move, read_notation
from .movegen import BOARD, capture_routes, to_ghost
from .pieces import Color, Piece

_BOARD_SQUARES = sum(1 << s for s in range(1, 51))
_WHITE_CROWN = sum(1 << s for s in WHITE_CROWNING)
_BLACK_CROWN = sum(1 << s for s in BLACK_CROWNING)


def _squares(mask: int) -> tuple[int, ...]:
    return tuple(s for s in range(1, 51) if mask >> s & 1)


@dataclass(frozen=True, slots=True)
class Position:
    """The placement of all men and kings and the side to move (DR-3, DR-4).

    Each piece set is a square set: bit ``s`` is set when such a piece stands
    on square ``s``. Usually built with ``from_fen`` or ``start``; a placement no
    game can reach (a square twice, a man on its crowning row) is refused with
    ``InvalidPosition`` however it is built.
    """

    turn: Color
    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    _moves: tuple[Move, ...] | None = field(
        default=None, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        """Refuse placements no game can reach, so every ``Position`` is sound."""
        sets = (self.white_men, self.white_kings, self.black_men, self.black_kings)
        seen = 0
        for mask in sets:
            if mask & ~_BOARD_SQUARES or mask & seen:
                bad = mask & (~_BOARD_SQUARES | seen)
                raise InvalidPosition(
                    f"square {(bad & -bad).bit_length() - 1} is off the board or taken twice"
                )
            seen |= mask
        for mask, row in ((self.white_men, _WHITE_CROWN), (self.black_men, _BLACK_CROWN)):
            if mask & row:
                square = (mask & row & -(mask & row)).bit_length() - 1
                raise InvalidPosition(f"a man cannot stand on its crowning square {square}")

    @classmethod
    def from_fen(cls, fen: str) -> "Position":
        """Read FMJD FEN (ranges allowed); ``InvalidPosition`` on bad text.

        >>> Position.from_fen("W:WK46,31:B3").fen()
        'W:W31,K46:B3'
        """
        return cls(*parse_fen(fen))

    @classmethod
    def start(cls) -> "Position":
        """The opening position: Black men on 1–20, White men on 31–50, White to move."""
        return cls.from_fen("W:W31-50:B1-20")

    def fen(self) -> str:
        """The canonical FEN: ascending lists, kings marked ``K``, no ranges."""
        return format_fen(
            self.turn, self.white_men, self.white_kings, self.black_men, self.black_kings
        )

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    def piece_at(self, square: int) -> Piece | None:
        """What stands on ``square``, or ``None`` when it is empty."""
        bit = 1 << square
        for piece, mask in (
            (Piece.WHITE_MAN, self.white_men),
            (Piece.WHITE_KING, self.white_kings),
            (Piece.BLACK_MAN, self.black_men),
            (Piece.BLACK_KING, self.black_kings),
        ):
            if mask & bit:
                return piece
        return None

    def men(self, color: Color) -> tuple[int, ...]:
        """Squares of ``color``'s men, ascending."""
        return _squares(self.white_men if color is Color.WHITE else self.black_men)

    def kings(self, color: Color) -> tuple[int, ...]:
        """Squares of ``color``'s kings, ascending."""
        return _squares(self.white_kings if color is Color.WHITE else self.black_kings)

    def _sides(self) -> tuple[int, int, int, int]:
        """Ghost masks: mover's men and kings, then the opponent's."""
        if self.turn is Color.WHITE:
            return (
                to_ghost(self.white_men),
                to_ghost(self.white_kings),
                to_ghost(self.black_men),
                to_ghost(self.black_kings),
            )
        return (
            to_ghost(self.black_men),
            to_ghost(self.black_kings),
            to_ghost(self.white_men),
            to_ghost(self.white_kings),
        )

    def _captures(self) -> dict[tuple[int, ...], Move]:
        """Every maximal capture route (as squares) and the move it stands for."""
        men, kings, other_men, other_kings = self._sides()
        free = BOARD & ~(men | kings | other_men | other_kings)
        return capture_moves(capture_routes(men, kings, other_men | other_kings, free))

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, one per outcome, ordered by path then captured squares.

        Captures take precedence and must take the most pieces (DR-9, DR-10);
        otherwise men step forward and kings fly (DR-5, DR-6).

        >>> [str(m) for m in Position.from_fen("W:W31,32,33:B28,3").legal_moves()]
        ['32x23', '33x22']
        """
        moves = self._moves
        if moves is None:
            men, kings, other_men, other_kings = self._sides()
            free = BOARD & ~(men | kings | other_men | other_kings)
            routes = capture_routes(men, kings, other_men | other_kings, free)
            if routes:
                moves = ordered(list(capture_moves(routes).values()))
            else:
                moves = tuple(quiet_moves(men, kings, free, self.turn is Color.WHITE))
            object.__setattr__(self, "_moves", moves)  # a cache, not part of the value
        return moves

    def parse_move(self, text: str) -> Move:
        """Read DR-4 notation against this position.

        A capture may be written with every landing square (any route that
        gives the move) or, when that is unambiguous, start and end only.

        >>> p = Position.from_fen("W:W32,45:B27,28,19")
        >>> p.parse_move("32x14")
        Move(path=(32, 23, 14), captured=(19, 28))
        """
        squares, capture = read_notation(text)
        token = text.strip()
        if capture:
            routes = self._captures()
            if len(squares) > 2:
                found = routes.get(squares)
                if found is None:
                    raise IllegalMove(f"capture {token} is not legal in {self.fen()}")
                return found
            matches = {m for m in routes.values() if (m.start, m.end) == squares}
        else:
            matches = {m for m in self.legal_moves() if m.path == squares and not m.captured}
        if not matches:
            legal = self.legal_moves()
            why = "; a capture is compulsory (DR-9)" if legal and legal[0].captured else ""
            raise IllegalMove(f"move {token} is not legal in {self.fen()}{why}")
        if len(matches) > 1:
            options = ", ".join(sorted(str(m) for m in matches))
            raise AmbiguousMove(f"move {token} could be any of {options}; write every square")
        return matches.pop()

    def apply(self, move: Move) -> "Position":
        """The position after ``move``; ``IllegalMove`` if it is not legal here.

        Captured pieces come off together at the end (DR-11); a man is crowned
        only when its move ends on the far row (DR-12).
        """
        if move not in self.legal_moves():
            raise IllegalMove(f"move {move} is not legal in {self.fen()}")
        return self._play(move)

    def _play(self, move: Move) -> "Position":
        """Apply a move known to be legal."""
        white = self.turn is Color.WHITE
        men, kings, other_men, other_kings = (
            (self.white_men, self.white_kings, self.black_men, self.black_kings)
            if white
            else (self.black_men, self.black_kings, self.white_men, self.white_kings)
        )
        start, end = 1 << move.start, 1 << move.end
        if men & start:
            men ^= start
            if move.end in (WHITE_CROWNING if white else BLACK_CROWNING):
                kings |= end
            else:
                men |= end
        else:
            kings = kings ^ start | end
        taken = sum(1 << s for s in move.captured)
        other_men &= ~taken
        other_kings &= ~taken
        if white:
            return Position(Color.BLACK, men, kings, other_men, other_kings)
        return Position(Color.WHITE, other_men, other_kings, men, kings)
