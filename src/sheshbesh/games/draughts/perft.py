"""Perft: the number of move sequences of a given length, the standard check of
a move generator against published counts.

One move per distinct outcome is counted (routes reaching the same square over
the same pieces are one move), which is how the published International
draughts counts are made. The walk runs on the generator's masks directly and
counts the last ply without playing it, so it measures the generator rather
than the cost of building ``Position`` values.

>>> perft(Position.start(), 3)
658
>>> perft(Position.from_fen("W:WK46:B28,24,3"), 1)
2
"""

from .movegen import (
    BLACK_CROWN,
    BOARD,
    WHITE_CROWN,
    capture_routes,
    count_quiet_moves,
    quiet_moves,
    to_ghost,
)
from .pieces import Color
from .position import Position


def perft(position: Position, depth: int) -> int:
    """Count the leaf positions ``depth`` plies below ``position``."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    white = position.turn is Color.WHITE
    men, kings = to_ghost(position.white_men), to_ghost(position.white_kings)
    other_men, other_kings = to_ghost(position.black_men), to_ghost(position.black_kings)
    if not white:
        men, kings, other_men, other_kings = other_men, other_kings, men, kings
    return _perft(men, kings, other_men, other_kings, white, depth)


def _perft(men: int, kings: int, other_men: int, other_kings: int, white: bool, depth: int) -> int:
    """Perft with the side to move first; ``white`` sets the men's direction."""
    free = BOARD & ~(men | kings | other_men | other_kings)
    routes = capture_routes(men, kings, other_men | other_kings, free)
    crown = WHITE_CROWN if white else BLACK_CROWN
    if routes:
        seen: set[tuple[int, int, int]] = set()
        total = 0
        for path, taken in routes:
            outcome = (path[0], path[-1], taken)
            if outcome in seen:
                continue
            seen.add(outcome)
            if depth == 1:
                continue
            start, end = 1 << path[0], 1 << path[-1]
            if men & start:
                moved_men, moved_kings = men ^ start, kings
                if end & crown:
                    moved_kings |= end
                else:
                    moved_men |= end
            else:
                moved_men, moved_kings = men, kings ^ start | end
            total += _perft(
                other_men & ~taken,
                other_kings & ~taken,
                moved_men,
                moved_kings,
                not white,
                depth - 1,
            )
        return len(seen) if depth == 1 else total
    if depth == 1:
        return count_quiet_moves(men, kings, free, white)
    total = 0
    for at, to in quiet_moves(men, kings, free, white):
        start, end = 1 << at, 1 << to
        if men & start:
            moved_men, moved_kings = men ^ start, kings
            if end & crown:
                moved_kings |= end
            else:
                moved_men |= end
        else:
            moved_men, moved_kings = men, kings ^ start | end
        total += _perft(other_men, other_kings, moved_men, moved_kings, not white, depth - 1)
    return total
