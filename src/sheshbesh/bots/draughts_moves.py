"""The search's view of a draughts position: four masks, moves as int triples.

Internal to the draughts bot. The search never builds ``Position`` or ``Move``
values, which would cost more than the search itself: a position is four ghost
masks (see :mod:`sheshbesh.games.draughts.movegen`), the side to move's men
and kings first, and its colour; a move is ``(from, to, taken)``. Moves come
from the rules' own bit-mask generator, the one ``Position.legal_moves`` uses
and that is checked against py-draughts, so the search plays exactly our rules
(DR-5…DR-12); :func:`root_moves` ties its moves back to DR-4 notation, and the
bot's tests compare the two move for move on random positions.

Also here: what the draw rules need to know about a position (DR-13…DR-18,
DR-21), as cheap tests on masks.

>>> from sheshbesh.games.draughts import Position
>>> state = position_state(Position.from_fen("W:W32:B28,1"))
>>> moves = generate(*state)
>>> [str(root_moves(Position.from_fen("W:W32:B28,1"))[m]) for m in moves]
['32x23']
>>> play(*state, moves[0])[4]  # Black to move after it
False
"""

from sheshbesh.games.draughts.move import Move
from sheshbesh.games.draughts.movegen import (
    BLACK_CROWN,
    BOARD,
    WHITE_CROWN,
    capture_routes,
    ghost_index,
    quiet_moves,
    to_ghost,
)
from sheshbesh.games.draughts.pieces import Color
from sheshbesh.games.draughts.position import Position

State = tuple[int, int, int, int, bool]
"""Side to move's men and kings, the opponent's men and kings (ghost masks), and
whether the side to move is White."""

SearchMove = tuple[int, int, int]
"""``(from, to, taken)``: ghost bit indices of the start and end squares, and the
ghost mask of the captured pieces (0 for a quiet move)."""

KING_PLIES = 50
"""DR-15: 25 king moves each without a man move or capture draw."""
SIXTEEN, FIVE = 32, 10
"""DR-16, DR-17: plies allowed against a lone king with three or two pieces."""


def generate(
    men: int, kings: int, other_men: int, other_kings: int, white: bool
) -> list[SearchMove]:
    """Every legal move of the side to move, one per outcome (DR-9, DR-10)."""
    moves = captures(men, kings, other_men, other_kings)
    if moves:
        return moves
    free = BOARD & ~(men | kings | other_men | other_kings)
    return [(at, to, 0) for at, to in quiet_moves(men, kings, free, white)]


def captures(men: int, kings: int, other_men: int, other_kings: int) -> list[SearchMove]:
    """The captures the side to move must choose from (DR-9…DR-11); empty when none."""
    free = BOARD & ~(men | kings | other_men | other_kings)
    routes = capture_routes(men, kings, other_men | other_kings, free)
    if len(routes) < 2:
        return [(path[0], path[-1], taken) for path, taken in routes]
    return list(dict.fromkeys((path[0], path[-1], taken) for path, taken in routes))


def can_step(men: int, kings: int, other_men: int, other_kings: int, white: bool) -> bool:
    """Whether the side to move has a quiet move: a man step (DR-5) or a king move (DR-6)."""
    free = BOARD & ~(men | kings | other_men | other_kings)
    steps = (free << 6 | free << 5) if white else (free >> 5 | free >> 6)
    return bool(men & steps or kings & (free << 6 | free << 5 | free >> 5 | free >> 6))


def play(
    men: int, kings: int, other_men: int, other_kings: int, white: bool, move: SearchMove
) -> tuple[int, int, int, int, bool]:
    """The position after ``move``, the new side to move first (DR-11, DR-12)."""
    at, to, taken = move
    start = 1 << at
    if men & start:
        end = 1 << to
        men ^= start
        if end & (WHITE_CROWN if white else BLACK_CROWN):
            kings |= end
        else:
            men |= end
    else:
        kings ^= start | 1 << to
    if taken:
        return other_men & ~taken, other_kings & ~taken, men, kings, not white
    return other_men, other_kings, men, kings, not white


def position_key(men: int, kings: int, other_men: int, other_kings: int, white: bool) -> int:
    """The position as one int: pieces by owner and kind, and the side to move."""
    return men | kings << 55 | other_men << 110 | other_kings << 165 | white << 220


def has_move(men: int, kings: int, other_men: int, other_kings: int, white: bool) -> bool:
    """Whether the side to move can move at all (DR-13), counting captures."""
    return can_step(men, kings, other_men, other_kings, white) or bool(
        captures(men, kings, other_men, other_kings)
    )


def endgame_count(men: int, kings: int, other_men: int, other_kings: int) -> int:
    """The DR-16/DR-17 count that applies (plies allowed), or 0 for none."""
    for lone_men, lone_kings, rest_men, rest_kings in (
        (men, kings, other_men, other_kings),
        (other_men, other_kings, men, kings),
    ):
        if not lone_men and lone_kings.bit_count() == 1 and rest_kings:
            pieces = (rest_men | rest_kings).bit_count()
            return SIXTEEN if pieces == 3 else FIVE if pieces == 2 else 0
    return 0


def adjudicated(men: int, kings: int, other_men: int, other_kings: int) -> int:
    """DR-21 for the side to move: 1 won (more pieces, then more kings), -1 lost, 0 drawn."""
    mine = ((men | kings).bit_count(), kings.bit_count())
    theirs = ((other_men | other_kings).bit_count(), other_kings.bit_count())
    return (mine > theirs) - (mine < theirs)


def position_state(position: Position) -> tuple[int, int, int, int, bool]:
    """The search's view of a position: the side to move's masks first."""
    p = position
    wm, wk = to_ghost(p.white_men), to_ghost(p.white_kings)
    bm, bk = to_ghost(p.black_men), to_ghost(p.black_kings)
    if p.turn is Color.WHITE:
        return wm, wk, bm, bk, True
    return bm, bk, wm, wk, False


def search_move(move: Move) -> SearchMove:
    """A rules ``Move`` as the search writes it."""
    taken = to_ghost(sum(1 << s for s in move.captured))
    return ghost_index(move.start), ghost_index(move.end), taken


def root_moves(position: Position) -> dict[SearchMove, Move]:
    """The legal moves of ``position`` keyed as the search writes them, in the rules' order."""
    return {search_move(m): m for m in position.legal_moves()}
