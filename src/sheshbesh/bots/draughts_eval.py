"""A hand-built evaluation of a draughts position for the alpha-beta search.

The search holds a position as four "ghost" masks (see
:mod:`sheshbesh.games.draughts.movegen`): the side to move's men and kings,
then the opponent's. Every term below is a few ``&`` and ``bit_count`` on
masks built once here, so one evaluation costs microseconds, not a loop over
fifty squares. Scores are in hundredths of a man, from the side to move's view.

The terms, each small next to material:

- **material**: a man is 100, a king 300 (a flying king is worth about three men);
- **advancement**: rows gained by men, weighted more as the board empties
  (in the middle game a far-advanced man is a liability, in the endgame a
  future king);
- **centre**: men on the six central squares hold the board together;
- **back rank**: men left on one's own back row stop the opponent crowning
  while there is a middle game to play;
- **balance**: men spread over both wings rather than piled on one;
- **tempo**: the side to move gets a small bonus (it keeps the initiative);
- **runaway men**: a man whose path to the crowning row no opponent piece can
  block, when the opponent has no king to catch it, is nearly a king already;
- **king safety**: a king on the long diagonal (46–5) cannot be shut out of
  the endgame and is hard to trap.

Endgames that RULES.md draws (DR-16, DR-17, DR-18), or that are drawn in
practice (three pieces or fewer against a lone king), are pulled towards zero.

>>> from sheshbesh.games.draughts import Position
>>> evaluate_position(Position.start())
4
>>> evaluate_position(Position.from_fen("W:W31-50:B1-19")) > 90  # a man up
True
"""

from collections.abc import Iterable

from sheshbesh.games.draughts.board import Diagonal, column, ray, row
from sheshbesh.games.draughts.movegen import ghost_index, to_ghost
from sheshbesh.games.draughts.pieces import Color
from sheshbesh.games.draughts.position import Position

MAN = 100
KING = 300
CENTRE_BONUS = 6
BACK_RANK_BONUS = 5
BALANCE_PENALTY = 3
TEMPO_BONUS = 4
LONG_DIAGONAL_BONUS = 20
RUNAWAY_BONUS = 200
RUNAWAY_ROW_COST = 25
WIN = 30_000
"""A won game (no legal move for the side to move loses, DR-13); above any evaluation."""


def _mask(squares: Iterable[int]) -> int:
    return sum(1 << ghost_index(s) for s in squares)


def _advance(square: int, white: bool) -> int:
    """Rows a man on ``square`` has gained from its own back row (0–8)."""
    return 10 - row(square) if white else row(square) - 1


def _advance_slices(white: bool) -> tuple[int, int, int, int]:
    """Bit-sliced advancement: slice ``k`` holds squares whose advance has bit ``k`` set,
    so the advancement of a whole mask is ``sum(count(mask & slice_k) << k)``."""
    slices = [0, 0, 0, 0]
    for s in range(1, 51):
        for k in range(4):
            if _advance(s, white) >> k & 1:
                slices[k] |= 1 << ghost_index(s)
    return slices[0], slices[1], slices[2], slices[3]


def _cone(square: int, white: bool) -> int:
    """Every square ahead of a man within its widening triangle up to the crowning
    row: the only squares from which an opponent man can still stop it."""
    here_row, here_col = row(square), column(square)
    cone = 0
    for s in range(1, 51):
        ahead = here_row - row(s) if white else row(s) - here_row
        if ahead > 0 and abs(column(s) - here_col) <= ahead + 1:
            cone |= 1 << ghost_index(s)
    return cone


def _runaways(white: bool) -> dict[int, tuple[int, int]]:
    """Per ghost bit of a man within four rows of crowning: (cone mask, rows to go)."""
    table: dict[int, tuple[int, int]] = {}
    for s in range(1, 51):
        to_go = row(s) - 1 if white else 10 - row(s)
        if 1 <= to_go <= 4:
            table[1 << ghost_index(s)] = (_cone(s, white), to_go)
    return table


WHITE_ADVANCE = _advance_slices(True)
BLACK_ADVANCE = _advance_slices(False)
CENTRE = _mask((22, 23, 24, 27, 28, 29))
WHITE_BACK = _mask((47, 48, 49))
BLACK_BACK = _mask((2, 3, 4))
LEFT = _mask(s for s in range(1, 51) if column(s) <= 5)
LONG_DIAGONAL = _mask((46, *ray(46, Diagonal.UP_RIGHT)))
WHITE_NEAR_CROWN = _mask(s for s in range(6, 26))
BLACK_NEAR_CROWN = _mask(s for s in range(26, 46))
WHITE_RUNAWAYS = _runaways(True)
BLACK_RUNAWAYS = _runaways(False)


def _advancement(men: int, slices: tuple[int, int, int, int]) -> int:
    return (
        (men & slices[0]).bit_count()
        + ((men & slices[1]).bit_count() << 1)
        + ((men & slices[2]).bit_count() << 2)
        + ((men & slices[3]).bit_count() << 3)
    )


def _runaway(men: int, near: int, table: dict[int, tuple[int, int]], blockers: int) -> int:
    """Bonus for men no opponent man can stop (the caller checks for opponent kings)."""
    bonus = 0
    rest = men & near
    while rest:
        bit = rest & -rest
        rest ^= bit
        cone, to_go = table[bit]
        if not cone & blockers:
            bonus += RUNAWAY_BONUS - RUNAWAY_ROW_COST * to_go
    return bonus


def _side(
    men: int, kings: int, blockers: int, blocker_kings: int, white: bool, advance_weight: int
) -> int:
    """One side's score on its own, apart from material-dependent scaling."""
    score = MAN * men.bit_count() + KING * kings.bit_count()
    if white:
        score += advance_weight * _advancement(men, WHITE_ADVANCE)
        score += BACK_RANK_BONUS * (men & WHITE_BACK).bit_count()
        if not blocker_kings and men & WHITE_NEAR_CROWN:
            score += _runaway(men, WHITE_NEAR_CROWN, WHITE_RUNAWAYS, blockers)
    else:
        score += advance_weight * _advancement(men, BLACK_ADVANCE)
        score += BACK_RANK_BONUS * (men & BLACK_BACK).bit_count()
        if not blocker_kings and men & BLACK_NEAR_CROWN:
            score += _runaway(men, BLACK_NEAR_CROWN, BLACK_RUNAWAYS, blockers)
    score += CENTRE_BONUS * (men & CENTRE).bit_count()
    left = (men & LEFT).bit_count()
    score -= BALANCE_PENALTY * abs(2 * left - men.bit_count())
    score += LONG_DIAGONAL_BONUS * bool(kings & LONG_DIAGONAL)
    return score


def evaluate(men: int, kings: int, other_men: int, other_kings: int, white: bool) -> int:
    """The score of a position for the side to move (``white`` says which colour it is).

    Masks are ghost masks; the side to move's pieces come first.
    """
    mine = men | kings
    theirs = other_men | other_kings
    pieces = mine.bit_count() + theirs.bit_count()
    weight = 1 if pieces > 30 else 2 if pieces > 20 else 4 if pieces > 10 else 6
    score = (
        _side(men, kings, theirs, other_kings, white, weight)
        - _side(other_men, other_kings, mine, kings, not white, weight)
        + TEMPO_BONUS
    )
    if pieces <= 5:
        score = _drawish(score, mine, kings, theirs, other_kings)
    return score


def _drawish(score: int, mine: int, kings: int, theirs: int, other_kings: int) -> int:
    """Scale down endings the weaker side can hold: a lone king against three pieces
    or fewer (DR-16, DR-17 draw them by count; in practice too) or a king each."""
    if score > 0 and other_kings and mine.bit_count() <= 3 and theirs.bit_count() == 1:
        return score // 8
    if score < 0 and kings and theirs.bit_count() <= 3 and mine.bit_count() == 1:
        return score // 8
    if kings and other_kings and abs(mine.bit_count() - theirs.bit_count()) <= 1:
        return score // 4
    return score


def evaluate_position(position: Position) -> int:
    """:func:`evaluate` of a rules ``Position``, for the side to move."""
    white = position.turn is Color.WHITE
    wm, wk = to_ghost(position.white_men), to_ghost(position.white_kings)
    bm, bk = to_ghost(position.black_men), to_ghost(position.black_kings)
    if white:
        return evaluate(wm, wk, bm, bk, True)
    return evaluate(bm, bk, wm, wk, False)
