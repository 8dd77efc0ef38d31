"""What a blocking game adds to the race: long nardy (LN) and Jacquet (JQ).

Nothing is ever hit in these games (LN-4, JQ-4), so the only fights are about
space: a run of points one side holds is a wall the other must wait behind,
and the side that keeps its checkers mobile wins the race the pips predict.
Costs are in pips, added to the pip count of the side that pays them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .eval_board import block_runs

WALL = (0.0, 0.0, 0.5, 1.2, 2.5, 4.5, 8.0)
"""Cost per checker waiting close behind a run of 0–6 of the opponent's points.

A single point costs nothing: a lone opposing checker only closes one landing
spot. Six in a row (allowed only past a checker ahead, LN-7 / JQ-6) cannot be
crossed at all until it breaks.
"""

HEAD = 2.0
"""LN-5: one checker leaves the head per turn, so each one still there is a tempo owed."""

STACK = 0.6
"""Checkers piled beyond three on a point are spare moves nobody can use."""

SPREAD = 0.5
"""Each distinct point held outside home is a landing spot and the seed of a wall."""

MOBILITY = 0.35
"""Cost per checker is this times the square of the closed points among its next six.

A closed point in the opponent's home counts fully (it stays closed until he
bears off); elsewhere it counts 0.6 (it may open as he moves on). Points 7–12
ahead count half: there is time before the checker reaches them.
"""

STRAGGLER = 0.6
"""Cost per checker still in front of the opponent's home, per opposing checker near home.

The opponent's home fills as his checkers arrive (own 1–12 for him), and a
checker that has not crossed it by then waits behind a wall that only
bearing off removes: the classic way to lose a blocking game from ahead.
"""

STRAGGLE_WEIGHT = tuple(min(max(n - 12, 0), 6) / 6 for n in range(26))
"""How much of the opponent's home a checker on my point n still has to cross."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights that differ between the two blocking games."""

    wall: tuple[float, ...] = WALL
    straggler: float = STRAGGLER


LONG_NARDY = Weights()
JACQUET = Weights(wall=tuple(0.5 * cost for cost in WALL), straggler=2 * STRAGGLER)
"""Jacquet prices walls at half and stragglers at double what long nardy does.

Without a head rule (JQ-8) any number of checkers leave the start in one turn,
so a wall holds fewer of them back and the opponent's home fills sooner; and a
run of six needs both own 2 and 1 first (JQ-6). At 0-ply against the random
mover, over the same 800 dice sequences, these weights won 96.6 % where long
nardy's won 94.1 %, mostly by bringing the last checkers past the opponent's
home in time (bench, 1000 games: easy 96.2 %, medium 96.8 %).
"""

WEIGHTS = {"jacquet": JACQUET}
"""Variants that do not use :data:`LONG_NARDY`."""


def weights_for(variant: str) -> Weights:
    return WEIGHTS.get(variant, LONG_NARDY)


def blocking_cost(
    side: list[int],
    facing: list[int],
    other: list[int],
    cross: tuple[int, ...],
    head_rule: bool,
    weights: Weights = LONG_NARDY,
) -> float:
    """Pips ``side`` effectively loses to walls, stragglers, a crowded head and stacks.

    ``facing`` is the opponent's checkers on ``side``'s points: every one of them
    closes the point (LN-4), so runs count at any height.
    """
    held = [count > 0 for count in facing]
    cost = block_runs(held, side, weights.wall)
    # total[n]: closed weight of points 1..n (a point in his home stays closed longest)
    total = [0.0] * 26
    running = 0.0
    for n in range(1, 25):
        if held[n]:
            running += 1.0 if cross[n] <= 6 else 0.6
        total[n] = running
    arriving = sum(other[1:13])
    for n in range(7, 25):
        count = side[n]
        if count:
            near = total[n - 7] if n > 7 else 0.0
            far = total[n - 13] if n > 13 else 0.0
            ahead = total[n - 1] - near + 0.5 * (near - far)
            cost += MOBILITY * count * ahead * ahead
            if n > 12:
                # Diagonal games: the opponent's home (his 1–6) is my 13–18, still ahead.
                cost += weights.straggler * count * arriving * STRAGGLE_WEIGHT[n]
            if count > 3 and n < 24:
                cost += STACK * (count - 3)
    head = side[24]
    if head_rule and head > 1:
        cost += HEAD * (head - 1)
    spread = sum(1 for count in side[7:24] if count)
    cost -= SPREAD * min(spread, 6)
    return cost


__all__ = ["JACQUET", "LONG_NARDY", "Weights", "blocking_cost", "weights_for"]
