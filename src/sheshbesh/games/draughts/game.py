"""A game of draughts as the fold of its moves, and how it ends (DR-13…DR-21).

A ``Position`` cannot know whether it occurred before or how long the kings
have been shuffling, so ``Game`` carries that: the positions since the last
irreversible move (for repetition), the count of king-only moves, and the
endgame count of the 16- and 5-move rules. Each ``play`` returns a new value;
the server stores the moves and can rebuild the same ``Game`` by replaying.

>>> game = Game.begin(Position.from_fen("W:WK1:BK50"))
>>> game.outcome()
Outcome(winner=None, termination=<Termination.LONE_KINGS: 'DR-18'>)
>>> game = Game.begin().play("32-28").play("19-23")
>>> game.position.fen()[:12], game.outcome() is None
('W:W28,31,33,', True)
"""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .errors import GameOver
from .move import Move
from .pieces import Color
from .position import Position

DRAW_OFFER_MOVES = 40
"""Each side must have completed this many moves before a draw may be offered (DR-19)."""


class Termination(Enum):
    """Why a game ended; the value is the rule ID in RULES.md."""

    NO_LEGAL_MOVE = "DR-13"
    REPETITION = "DR-14"
    TWENTY_FIVE_MOVES = "DR-15"
    SIXTEEN_MOVES = "DR-16"
    FIVE_MOVES = "DR-17"
    LONE_KINGS = "DR-18"
    ADJUDICATION = "DR-21"


_REASONS = {
    Termination.NO_LEGAL_MOVE: "no legal move",
    Termination.REPETITION: "threefold repetition",
    Termination.TWENTY_FIVE_MOVES: "25 king moves each without a man move or capture",
    Termination.SIXTEEN_MOVES: "16 moves each with three pieces against a lone king",
    Termination.FIVE_MOVES: "5 moves each with two pieces against a lone king",
    Termination.LONE_KINGS: "one king against one king",
    Termination.ADJUDICATION: "adjudicated on material",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winner (``None`` for a draw) and the rule that ended it."""

    winner: Color | None
    termination: Termination

    @property
    def reason(self) -> str:
        """The rule ID and what it says, e.g. ``'DR-14 threefold repetition'``."""
        return f"{self.termination.value} {_REASONS[self.termination]}"

    @property
    def result(self) -> str:
        """The PDN result: ``2-0`` White wins, ``0-2`` Black wins, ``1-1`` draw."""
        return {Color.WHITE: "2-0", Color.BLACK: "0-2", None: "1-1"}[self.winner]


class Endgame(Enum):
    """The material groups that start a drawing count against a lone king."""

    SIXTEEN_MOVES = 32
    """DR-16: three pieces, at least one a king; value is the plies allowed."""
    FIVE_MOVES = 10
    """DR-17: two pieces, at least one a king; value is the plies allowed."""


def _lone_king(men: int, kings: int) -> bool:
    return men == 0 and kings.bit_count() == 1


def endgame(position: Position) -> Endgame | None:
    """The endgame count that applies to this material, if any (DR-16, DR-17).

    >>> endgame(Position.from_fen("W:WK1,K2,K3:BK50"))
    <Endgame.SIXTEEN_MOVES: 32>
    >>> endgame(Position.from_fen("W:WK1,7:BK50")), endgame(Position.from_fen("W:W6,7:BK50"))
    (<Endgame.FIVE_MOVES: 10>, None)
    """
    p = position
    for lone, (men, kings) in (
        ((p.white_men, p.white_kings), (p.black_men, p.black_kings)),
        ((p.black_men, p.black_kings), (p.white_men, p.white_kings)),
    ):
        if _lone_king(*lone) and kings:
            pieces = men.bit_count() + kings.bit_count()
            if pieces == 3:
                return Endgame.SIXTEEN_MOVES
            if pieces == 2:
                return Endgame.FIVE_MOVES
    return None


def adjudicate(position: Position) -> Outcome:
    """Decide a game stopped without a result (DR-21): more pieces wins, then more
    kings, else a draw. Not for timeouts or abandonment, which lose (PL-7).

    >>> adjudicate(Position.from_fen("W:W31,32:BK1,2")).winner
    <Color.BLACK: 'B'>
    """
    p = position
    white = (p.white_men | p.white_kings).bit_count(), p.white_kings.bit_count()
    black = (p.black_men | p.black_kings).bit_count(), p.black_kings.bit_count()
    if white == black:
        return Outcome(None, Termination.ADJUDICATION)
    return Outcome(Color.WHITE if white > black else Color.BLACK, Termination.ADJUDICATION)


@dataclass(frozen=True, slots=True)
class Game:
    """A game from its first position through every move played.

    ``reversible`` holds the positions since the last man move or capture,
    the current one last: only those can repeat (DR-14). ``king_moves`` counts
    plies in a row in which a king moved without capturing (DR-15).
    ``endgame_plies`` counts plies since the material entered the current
    ``endgame`` group (DR-16, DR-17).
    """

    start: Position
    moves: tuple[Move, ...]
    position: Position
    reversible: tuple[Position, ...]
    king_moves: int
    endgame: Endgame | None
    endgame_plies: int

    @classmethod
    def begin(cls, start: Position | None = None) -> "Game":
        """A game with no moves yet, from ``start`` (default: the opening position)."""
        first = Position.start() if start is None else start
        return cls(first, (), first, (first,), 0, endgame(first), 0)

    @classmethod
    def replay(cls, start: Position, moves: Iterable[Move | str]) -> "Game":
        """Rebuild a game from its moves, checking each."""
        game = cls.begin(start)
        for move in moves:
            game = game.play(move)
        return game

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self.position.turn

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves that may be played now; none once the game is over."""
        return () if self.outcome() is not None else self.position.legal_moves()

    def play(self, move: Move | str) -> "Game":
        """The game after ``move`` (a ``Move`` or its notation).

        Raises ``GameOver`` after the end, ``IllegalMove``/``InvalidMove``/
        ``AmbiguousMove`` for a move that cannot be played here.
        """
        ended = self.outcome()
        if ended is not None:
            raise GameOver(f"move {move} comes after the end of the game ({ended.reason})")
        before = self.position
        chosen = before.parse_move(move) if isinstance(move, str) else move
        after = before.apply(chosen)
        king = before.piece_at(chosen.start)
        progress = chosen.is_capture or king is None or not king.is_king
        group = endgame(after)
        return Game(
            self.start,
            (*self.moves, chosen),
            after,
            (after,) if progress else (*self.reversible, after),
            0 if progress else self.king_moves + 1,
            group,
            self.endgame_plies + 1 if group is not None and group is self.endgame else 0,
        )

    def moves_made(self, color: Color) -> int:
        """How many moves ``color`` has completed in this game."""
        first = (len(self.moves) + 1) // 2
        return first if color is self.start.turn else len(self.moves) - first

    def can_offer_draw(self, side: Color) -> bool:
        """Whether ``side`` may offer a draw now (DR-19): on its own turn, in a
        game still going, after each player completed at least 40 moves."""
        return (
            side is self.turn
            and all(self.moves_made(c) >= DRAW_OFFER_MOVES for c in Color)
            and self.outcome() is None
        )

    def outcome(self) -> Outcome | None:
        """How the game ended by rule, or ``None`` while it goes on.

        A side without a legal move loses (DR-13) before any draw rule is
        looked at, so a win on the last move a count allows still counts.
        """
        p = self.position
        if not p.legal_moves():
            return Outcome(p.turn.opponent, Termination.NO_LEGAL_MOVE)
        if _lone_king(p.white_men, p.white_kings) and _lone_king(p.black_men, p.black_kings):
            return Outcome(None, Termination.LONE_KINGS)
        if self.reversible.count(p) >= 3:
            return Outcome(None, Termination.REPETITION)
        if self.endgame is not None and self.endgame_plies >= self.endgame.value:
            termination = (
                Termination.SIXTEEN_MOVES
                if self.endgame is Endgame.SIXTEEN_MOVES
                else Termination.FIVE_MOVES
            )
            return Outcome(None, termination)
        if self.king_moves >= 50:
            return Outcome(None, Termination.TWENTY_FIVE_MOVES)
        return None
