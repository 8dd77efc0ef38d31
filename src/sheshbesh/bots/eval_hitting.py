"""What hitting adds to the race: Russian backgammon and Caucasian nardy (and the BG board).

A blot left where the opponent can reach it may be sent back to the bar
(BF-11, RB-7), losing every pip it travelled plus the wait to re-enter; made
points (two or more checkers) close landing spots, build primes and make the
opponent's bar checkers wait. Costs are in pips, added to the payer's count.
"""

from __future__ import annotations

from .eval_board import block_runs, shots

PRIME = (0.0, 0.3, 1.0, 2.5, 5.0, 9.0, 16.0)
"""Cost per checker close behind a run of 0–6 made points of the opponent."""

ENTRY = (0.0, 0.3, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Cost per checker on the bar facing 0–6 closed entry points (six: it cannot enter)."""

WAITING = 0.2
"""RB-2: unentered checkers are not forced in, so a closed entry quarter hurts them less."""

TRAPPED = 1.0
"""Cost per checker is this times the square of the made points among its next six.

Runs miss the checker facing four made points with gaps between them; this
sees it. Weighed against gnubg's 0-ply judgement of 400 backgammon and
Caucasian nardy positions, it cut the average error per move by a fifth.
Russian backgammon leaves it out (:data:`SHARED_TRAPPED`): there the points
ahead belong to an opponent going the same way, who takes them along.
"""

SHARED_TRAPPED = 0.0
"""RB-1: in 400 self-play games at 0-ply, the squared term won only 46 % against none."""

HIT = 4.0
"""Besides the pips, a hit costs the tempo of entering again."""


def hitting_cost(
    side: list[int],
    facing: list[int],
    other: list[int],
    side_bar: int,
    other_bar: int,
    cross: tuple[int, ...],
    exposed: float,
    trapped: float = TRAPPED,
) -> float:
    """Pips ``side`` effectively loses to primes, a closed entry and its blots.

    ``facing`` is the opponent's checkers on ``side``'s points. ``exposed`` weighs
    the blots: 1 when the opponent rolls next and can hit at once, less when
    ``side`` rolls first and may still tidy up.
    """
    held = [count >= 2 for count in facing]
    cost = block_runs(held, side, PRIME)
    if trapped:
        for n in range(7, 26):
            if side[n]:
                ahead = sum(held[max(n - 6, 1) : min(n, 25)])
                if ahead:
                    cost += trapped * side[n] * ahead * ahead
    entry = ENTRY[sum(held[19:25])]
    cost += entry * (side_bar + WAITING * (side[25] - side_bar))
    if exposed:
        # BF-11: bar checkers enter before anything else moves, so only they attack.
        attackers = [25] if other_bar else [m for m in range(1, 26) if other[m]]
        for n in range(1, 25):
            if side[n] == 1:
                mask = shots(n, attackers, cross)
                if mask:
                    cost += exposed * mask.bit_count() / 36 * (25 - n + HIT + entry)
    return cost


__all__ = ["hitting_cost"]
