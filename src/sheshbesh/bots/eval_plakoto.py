"""What pinning adds to the race in Plakoto (PK-4 … PK-9).

A pinned checker cannot move and stops its owner bearing off (PK-5, PK-8)
until the pinner leaves, and pinners in their own home rarely leave early; a
pinned mother ends the game once the pinner has left his start (PK-9). Costs
are in pips, added to the pip count of the side that pays them.
"""

from __future__ import annotations

from .eval_board import block_runs, shots

WALL = (0.0, 0.3, 1.0, 2.5, 5.0, 9.0, 16.0)
"""Cost per checker close behind a run of 0–6 closed points (PK-4)."""

MOTHER = 60.0
"""PK-9: a pinned mother while the pinner still has checkers at his start: nearly lost."""

RISK = 0.8
"""Not every shot is taken: pinning can cost the pinner a blot of his own."""


def pin_cost(point: int) -> float:
    """What one checker pinned on own ``point`` costs: more the further from home.

    A pin in the opponent's home (own 19–23) lasts until he bears off; one on
    own 1–6 is held by checkers that still have to travel, so it ends sooner.
    """
    if point == 24:
        return MOTHER
    return 8.0 + 0.7 * point


def pinning_cost(
    side: list[int],
    facing: list[int],
    side_pinned: list[int],
    other: list[int],
    other_pinned: list[int],
    cross: tuple[int, ...],
    exposed: float,
) -> float:
    """Pips ``side`` effectively loses to its pinned checkers, walls and pinnable blots.

    ``facing`` is the opponent's free checkers on ``side``'s points; a lone one
    closes the point only where it pins (PK-4). ``exposed`` weighs the blots: 1
    when the opponent rolls next, less when ``side`` rolls first and may cover them.
    """
    held = [
        count >= 2 or (count == 1 and pinned == 1)
        for count, pinned in zip(facing, side_pinned, strict=True)
    ]
    cost = block_runs(held, side, WALL)
    if 1 in side_pinned:
        for n in range(1, 25):
            if side_pinned[n]:
                cost += pin_cost(n)
    if exposed:
        attackers = [m for m in range(1, 25) if other[m]]
        for n in range(1, 25):
            # A lone checker sitting on a pinned one owns the point: it cannot be pinned (PK-5).
            if side[n] == 1 and not other_pinned[cross[n]]:
                mask = shots(n, attackers, cross)
                if mask:
                    cost += exposed * RISK * mask.bit_count() / 36 * pin_cost(n)
    return cost


__all__ = ["pin_cost", "pinning_cost"]
