"""Move generation on bit masks: the engine under ``Position`` and ``perft``.

Internal module. Pieces are held in "ghost" masks: square ``s`` is bit
``s - 1 + (s - 1) // 10``, which leaves one unused bit after every second row.
With that gap each diagonal step is the same shift on the whole board (up-left
6, up-right 5 towards bit 0; down-left 5, down-right 6 away from it), and a step
off the board lands on an unused bit that no mask contains. So "which men can
move" or "which men can capture" is a handful of integer operations instead of
a loop over squares; only capture sequences are followed square by square.

Capture sequences (DR-7…DR-11) are walked depth first with the captured pieces
left on the board: a piece already taken is neither jumped again nor passed nor
landed on (Turkish strike), while the mover's own starting square counts as
empty. Only sequences that take the greatest number of pieces survive (DR-10).
"""

from .board import BLACK_CROWNING, SQUARES, WHITE_CROWNING, Diagonal, ray

Route = tuple[tuple[int, ...], int]
"""A capture sequence: the ghost indices visited (start first) and the captured mask."""


def ghost_index(square: int) -> int:
    """Bit index of ``square`` in a ghost mask."""
    return square - 1 + (square - 1) // 10


def to_ghost(squares: int) -> int:
    """Convert a square set (bit ``s`` for square ``s``) to a ghost mask."""
    y = squares >> 1
    return (
        (y & 0x3FF)
        | (y >> 10 & 0x3FF) << 11
        | (y >> 20 & 0x3FF) << 22
        | (y >> 30 & 0x3FF) << 33
        | (y >> 40 & 0x3FF) << 44
    )


def from_ghost(mask: int) -> int:
    """Convert a ghost mask back to a square set (bit ``s`` for square ``s``)."""
    return (
        (mask & 0x3FF)
        | (mask >> 11 & 0x3FF) << 10
        | (mask >> 22 & 0x3FF) << 20
        | (mask >> 33 & 0x3FF) << 30
        | (mask >> 44 & 0x3FF) << 40
    ) << 1


SQUARE_OF = {ghost_index(s): s for s in SQUARES}
"""Square number of each used ghost bit index."""

BOARD = sum(1 << ghost_index(s) for s in SQUARES)
"""Every used ghost bit."""

WHITE_CROWN = sum(1 << ghost_index(s) for s in WHITE_CROWNING)
BLACK_CROWN = sum(1 << ghost_index(s) for s in BLACK_CROWNING)

_SIZE = ghost_index(50) + 1


def _rays(index: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    square = SQUARE_OF[index]
    rays = (tuple((1 << ghost_index(s), ghost_index(s)) for s in ray(square, d)) for d in Diagonal)
    return tuple(r for r in rays if r)


def _jumps(index: int) -> tuple[tuple[int, int, int], ...]:
    return tuple((r[0][0], r[1][0], r[1][1]) for r in _rays(index) if len(r) > 1)


_EMPTY: tuple[()] = ()
RAYS = tuple(_rays(i) if i in SQUARE_OF else _EMPTY for i in range(_SIZE))
"""Per ghost index: each diagonal from that square as ``(bit, index)`` pairs, nearest first."""

JUMPS = tuple(_jumps(i) if i in SQUARE_OF else _EMPTY for i in range(_SIZE))
"""Per ghost index: ``(jumped bit, landing bit, landing index)`` for each diagonal."""


def _man_routes(
    at: int, live: int, free: int, taken: int, path: list[int], found: list[Route]
) -> None:
    """Follow every continuation of a man's capture from ghost index ``at``."""
    more = False
    for over, land, to in JUMPS[at]:
        if over & live and land & free:
            more = True
            path.append(to)
            _man_routes(to, live ^ over, free, taken | over, path, found)
            path.pop()
    if not more and taken:
        found.append((tuple(path), taken))


def _king_routes(
    at: int, live: int, free: int, taken: int, path: list[int], found: list[Route]
) -> None:
    """Follow every continuation of a flying king's capture from ghost index ``at``."""
    more = False
    for diagonal in RAYS[at]:
        squares = iter(diagonal)
        for bit, _ in squares:
            if not bit & free:
                break
        else:
            continue
        if not bit & live:
            continue
        victim = bit
        for bit, to in squares:
            if not bit & free:
                break
            more = True
            path.append(to)
            _king_routes(to, live ^ victim, free, taken | victim, path, found)
            path.pop()
    if not more and taken:
        found.append((tuple(path), taken))


def capture_routes(men: int, kings: int, opponents: int, free: int) -> list[Route]:
    """Every capture sequence taking the greatest number of pieces (DR-9, DR-10).

    Routes that reach the same square taking the same pieces are all listed;
    callers that want one move per outcome group them by (start, end, taken).
    """
    found: list[Route] = []
    starts = men & (  # men with a capture (DR-7: forwards and backwards)
        (opponents << 6 & free << 12)
        | (opponents << 5 & free << 10)
        | (opponents >> 5 & free >> 10)
        | (opponents >> 6 & free >> 12)
    )
    if not starts and not kings:
        return found
    while starts:
        bit = starts & -starts
        starts ^= bit
        at = bit.bit_length() - 1
        _man_routes(at, opponents, free | bit, 0, [at], found)
    rest = kings
    while rest:
        bit = rest & -rest
        rest ^= bit
        at = bit.bit_length() - 1
        _king_routes(at, opponents, free | bit, 0, [at], found)
    if len(found) < 2:
        return found
    best = max(taken.bit_count() for _, taken in found)
    return [route for route in found if route[1].bit_count() == best]


def quiet_moves(men: int, kings: int, free: int, white: bool) -> list[tuple[int, int]]:
    """Non-capturing moves as ``(from index, to index)``: men one step forward
    (DR-5), kings any distance over empty squares (DR-6)."""
    moves: list[tuple[int, int]] = []
    for shift in (6, 5):
        movers = men & (free << shift if white else free >> shift)
        while movers:
            bit = movers & -movers
            movers ^= bit
            at = bit.bit_length() - 1
            moves.append((at, at - shift if white else at + shift))
    rest = kings
    while rest:
        bit = rest & -rest
        rest ^= bit
        at = bit.bit_length() - 1
        for diagonal in RAYS[at]:
            for step, to in diagonal:
                if not step & free:
                    break
                moves.append((at, to))
    return moves


def count_quiet_moves(men: int, kings: int, free: int, white: bool) -> int:
    """How many quiet moves there are, counted on whole masks (for bulk perft)."""
    if white:
        count = (men & free << 6).bit_count() + (men & free << 5).bit_count()
    else:
        count = (men & free >> 6).bit_count() + (men & free >> 5).bit_count()
    if kings:
        for shift in (6, 5):
            reach = kings
            while reach:
                reach = reach >> shift & free
                count += reach.bit_count()
            reach = kings
            while reach:
                reach = reach << shift & free
                count += reach.bit_count()
    return count
