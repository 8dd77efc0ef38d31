"""From the generator's masks to ordered ``Move`` values.

Internal module. Legal moves are listed in one fixed order, by path and then by
captured squares, because bots and hints read them in that order. Quiet moves
come from a table built once (a move is a value, so one object per (from, to)
serves every position) and are emitted already in order; capture routes are
grouped into one move per outcome.
"""

from .move import Move
from .movegen import RAYS, SQUARE_OF, Route, from_ghost

QUIET: dict[int, dict[int, Move]] = {
    at: {to: Move((square, SQUARE_OF[to])) for diagonal in RAYS[at] for _, to in diagonal}
    for at, square in SQUARE_OF.items()
}
"""Per ghost index: every quiet move from that square, keyed by target index."""


def quiet_moves(men: int, kings: int, free: int, white: bool) -> list[Move]:
    """Men's steps forward (DR-5) and kings' flights (DR-6), ordered by path."""
    if white:
        left, right, to_left, to_right = men & free << 6, men & free << 5, -6, -5
    else:
        left, right, to_left, to_right = men & free >> 5, men & free >> 6, 5, 6
    movers = left | right | kings
    moves: list[Move] = []
    while movers:
        bit = movers & -movers
        movers ^= bit
        at = bit.bit_length() - 1
        table = QUIET[at]
        if bit & kings:
            targets: list[int] = []
            for diagonal in RAYS[at]:
                for step, to in diagonal:
                    if not step & free:
                        break
                    targets.append(to)
            targets.sort()
            moves.extend(table[to] for to in targets)
        else:
            if bit & left:
                moves.append(table[at + to_left])
            if bit & right:
                moves.append(table[at + to_right])
    return moves


def capture_moves(routes: list[Route]) -> dict[tuple[int, ...], Move]:
    """Every capture route, as squares, and the move it stands for.

    Routes reaching the same square over the same pieces are one move whose
    path is the smallest of them; different pieces make different moves even
    when the squares match at both ends (DR-11).
    """
    grouped: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
    for path, taken in routes:
        grouped.setdefault((path[0], path[-1], taken), []).append(tuple(SQUARE_OF[i] for i in path))
    found: dict[tuple[int, ...], Move] = {}
    for (_, _, taken), paths in grouped.items():
        squares = from_ghost(taken)
        move = Move(min(paths), tuple(s for s in range(1, 51) if squares >> s & 1))
        for path in paths:
            found[path] = move
    return found


def ordered(moves: list[Move]) -> tuple[Move, ...]:
    """Distinct moves by path, then captured squares."""
    return tuple(sorted(set(moves), key=lambda m: (m.path, m.captured)))
