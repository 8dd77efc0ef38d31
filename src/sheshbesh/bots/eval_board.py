"""The board as an evaluation sees it: both sides in their own numbers, plus shared tables.

The move generator hands out each play's result as a flat tuple from the
mover's side (``Play.key``, see ``games/race/movegen.py``). An evaluation wants
the same facts for *both* sides, each in its own numbering (BF-2), because every
feature (pips, blocks, shots) is then one function called twice. :class:`Board`
is that view; ``cross[n]`` turns a point in one side's numbers into the other's
(an involution in all three mappings of BF-3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import mul

from sheshbesh.games.race.movegen import BAR, HITS, OFF, PINS, WAITING
from sheshbesh.games.race.rules import Mapping

CROSS: dict[Mapping, tuple[int, ...]] = {
    "opposite": tuple([0] + [25 - n for n in range(1, 25)] + [25]),
    "diagonal": tuple([0] + [n + 12 if n <= 12 else n - 12 for n in range(1, 25)] + [25]),
    "shared": tuple(range(26)),
}
"""My own point n → the opponent's own number of that point (0 and 25 stay put)."""


def _roll_masks() -> tuple[int, ...]:
    """For each distance 0–25, the set of the 36 rolls that carry one checker that far."""
    masks = [0] * 26
    for a in range(1, 7):
        for b in range(1, 7):
            bit = 1 << ((a - 1) * 6 + b - 1)
            reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
            for distance in reach:
                if distance <= 25:
                    masks[distance] |= bit
    return tuple(masks)


REACH = _roll_masks()
"""``REACH[d]``: bit mask of rolls (of 36) with which a checker can travel ``d`` pips.

Intermediate points are not checked: shots are an estimate, and blocked
routes are rare enough that the generator's exactness is not worth the time.
"""


@dataclass(slots=True)
class Board:
    """Both sides' checkers, each in its own numbers: index 0 borne off, 25 bar/unentered.

    ``me`` is the side the score is for (the one that just moved). ``me_facing[n]``
    is how many opposing checkers stand on *my* point n (1–24), so a feature can
    read "is my point n closed" without translating. ``me_pinned[n]`` is 1 where
    one of my checkers is pinned on my point n (Plakoto; all zero elsewhere).
    """

    me: list[int]
    them: list[int]
    me_facing: list[int]
    them_facing: list[int]
    me_pinned: list[int]
    them_pinned: list[int]
    me_bar: int
    them_bar: int
    cross: tuple[int, ...]


NO_PINS = [0] * 26


def board_from_key(
    key: tuple[int, ...],
    mapping: Mapping,
    them_off: int,
    them_bar: int,
    them_waiting: int,
) -> Board:
    """The :class:`Board` of a search tuple; the opponent's off/bar/unentered come from outside.

    A play's key does not carry the opponent's borne-off and bar counts (only the
    checkers hit in this turn), so the caller passes them from the position before.
    """
    cross = CROSS[mapping]
    cells = key[1:25]
    me_bar = key[BAR]
    me = [key[OFF], *[c if c > 0 else 0 for c in cells], me_bar + key[WAITING]]
    me_facing = [0, *[-c if c < 0 else 0 for c in cells], 0]
    them = [me_facing[n] for n in cross]
    bar = them_bar + key[HITS]
    them[OFF] = them_off
    them[25] = bar + them_waiting
    them_facing = [me[n] for n in cross]
    them_facing[0] = them_facing[25] = 0
    me_pinned = them_pinned = NO_PINS
    if len(key) > PINS + 24:
        pins = key[PINS + 1 : PINS + 25]
        me_pinned = [0, *[1 if p > 0 else 0 for p in pins], 0]
        mine = [0, *[1 if p < 0 else 0 for p in pins], 0]
        them_pinned = [mine[n] for n in cross]
    return Board(me, them, me_facing, them_facing, me_pinned, them_pinned, me_bar, bar, cross)


NUMBERS = tuple(range(26))
OUTSIDE = tuple(max(0, n - 6) for n in range(26))
"""Pips each checker still has to travel to reach home (own 1–6)."""
BEHIND = tuple(max(0, n - 18) for n in range(26))
"""Pips each checker still has to travel to leave own 19–24 (the backgammon zone, BG-8)."""


def pips(side: list[int], pinned: list[int]) -> int:
    """Pip count in the side's own numbers (bar and unentered count 25)."""
    total: int = sum(map(mul, side, NUMBERS))
    if pinned is not NO_PINS:
        total += sum(map(mul, pinned, NUMBERS))
    return total


def weighed(side: list[int], pinned: list[int], weights: tuple[int, ...]) -> int:
    """Sum of ``weights[n]`` over the side's checkers, pinned ones included."""
    total: int = sum(map(mul, side, weights))
    if pinned is not NO_PINS:
        total += sum(map(mul, pinned, weights))
    return total


WASTE = (0.0, 2.0, 1.5, 1.0, 0.6, 0.3, 0.1)
"""Pips a checker on home point 1–6 wastes on average when it is borne off (deep is costly)."""


def wastage(side: list[int]) -> float:
    """Extra pips a bear-off loses to dice larger than needed.

    Pips alone say two checkers on the 1-point are a 2-pip race; they take a
    whole roll.
    """
    waste: float = sum(map(mul, side[:7], WASTE))
    return waste


def rolls_floor(side: list[int]) -> float:
    """Pips-equivalent of the rolls needed to take the remaining checkers off.

    About 2.33 checkers come off per roll (two, or four on a double).
    """
    return 8.17 * (15 - side[OFF]) / 2.33


TEMPO = 4.5
"""Being on roll is worth about half an average roll (8.17 pips), a little more in long races."""

SLOPE = 1.2
"""Steepness of the race formula, set so a 12 % lead on roll at 100 pips wins about 79 %
(the take point of the racing rules of thumb) and an even race on roll about 60 %."""


def race_chance(mine: float, theirs: float, me_on_roll: bool) -> float:
    """Chance that the side with ``mine`` effective pips wins a race against ``theirs``.

    A normal approximation in logistic form: the spread of a race grows with
    the square root of the pips still to travel.

    >>> round(race_chance(100, 100, True), 2) > 0.5 > round(race_chance(100, 100, False), 2)
    True
    """
    lead = theirs - mine + (TEMPO if me_on_roll else -TEMPO)
    return logistic(SLOPE * lead / spread(mine + theirs))


def spread(pips: float) -> float:
    """How many pips of luck a race of ``pips`` (both sides together) still holds."""
    return 0.9 * math.sqrt(pips) + 2.0


def logistic(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def block_runs(held: list[bool], side: list[int], weights: tuple[float, ...]) -> float:
    """Pips-equivalent cost to ``side`` of runs of blocked points ahead of its checkers.

    ``held[n]`` says whether the opponent holds ``side``'s own point n (closed to
    it). A run of length L costs ``weights[L]`` for each checker 1–6 pips behind
    it, half that for checkers 7–12 behind: a checker far back has time.
    ``weights`` has an entry for every length up to a full prime (index 6).
    """
    cost = 0.0
    if True not in held:
        return cost
    n = 1
    top = len(weights) - 1
    while n <= 24:
        if not held[n]:
            n += 1
            continue
        low = n
        while n <= 24 and held[n]:
            n += 1
        weight = weights[min(n - low, top)]
        if weight:
            near = sum(side[n : n + 6])
            far = sum(side[n + 6 : n + 12])
            cost += weight * (near + 0.5 * far)
    return cost


def shots(blot_at: int, attackers: list[int], cross: tuple[int, ...]) -> int:
    """The rolls (bit mask of 36) with which an attacker can land on my point ``blot_at``.

    ``attackers`` are the opponent's occupied points in *its* numbers (25 for the
    bar or unentered); it moves down its numbers, so only checkers above reach.
    """
    target = cross[blot_at]
    mask = 0
    for m in attackers:
        if m > target:
            mask |= REACH[m - target]
    return mask


__all__ = [
    "CROSS",
    "REACH",
    "SLOPE",
    "TEMPO",
    "Board",
    "block_runs",
    "board_from_key",
    "logistic",
    "pips",
    "race_chance",
    "rolls_floor",
    "shots",
    "spread",
    "wastage",
    "weighed",
]
