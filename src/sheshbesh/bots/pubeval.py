"""A pubeval-style baseline: one linear evaluation of the position each play leaves.

Tesauro's *pubeval* showed that a linear function of the board, with one set
of weights while the armies are in contact and another for the race, already
plays a recognisable game; benches use it as the yardstick between a random
mover and a real engine. This is our own version of that idea: the features
below are in backgammon's own words and the weights were set by hand (then
checked against :class:`~sheshbesh.bots.base.RandomRaceBot` and gnubg in
``tests/bots/test_pubeval.py``), not taken from Tesauro's published table.

Every feature is read from the mover's side after the play, with the opponent
to roll. *Contact* features: pips, men hit and on the bar, blots weighted by
the direct and indirect shots at them, made points (home points and the bar
point most), the longest prime, anchors in the opponent's home, stacked
points, and checkers borne off. *Race* features: pips, checkers borne off,
checkers still outside home, wasted pips on the low points and gaps.

It plays at 0-ply, never doubles and always takes: a fast, deterministic
opponent (ties go to the first play in our generator's order).
"""

from __future__ import annotations

from sheshbesh.games.race import Play
from sheshbesh.play.race import RaceGame

from .base import MatchContext, RaceBot

OFF, BAR, HIT = 0, 25, 26
"""Slots of :attr:`Play.key`: borne off, bar, opponent checkers hit this turn."""

CONTACT = {
    "pips": 0.012,
    "hit": 0.55,
    "on_bar": -0.45,
    "shots": -0.045,
    "home_point": 0.14,
    "bar_point": 0.12,
    "outer_point": 0.05,
    "prime": 0.09,
    "anchor": 0.18,
    "back": -0.05,
    "stack": -0.035,
    "off": 0.03,
}
RACE = {
    "pips": 0.025,
    "off": 0.08,
    "outside": -0.06,
    "waste": -0.02,
    "gap": -0.02,
}
HOME_WEIGHT = (0.0, 0.2, 0.4, 0.8, 1.0, 1.2, 1.2)
"""How much a made home point is worth by its number (index 1–6): the higher the better."""


def shots_at(point: int, opponent: list[int], opponent_bar: int) -> int:
    """Rough count (out of 36) of the opponent's rolls that hit a blot on our ``point``.

    The opponent travels from our point 1 towards our 24, so it hits from
    below; its bar checkers enter on our points 1–6. Direct shots (1–6 away)
    count 11 rolls each distance, indirect ones (7–12 away) a few.
    """
    total = 0
    for distance in range(1, 13):
        source = point - distance
        if source < 0:
            break
        hitters = opponent_bar if source == 0 else opponent[source]
        if hitters:
            total += 11 if distance <= 6 else (6 if distance in (8, 9) else 3)
    return min(total, 36)


def features(play: Play) -> tuple[bool, dict[str, float]]:
    """(contact, feature values) of the position ``play`` leaves, from the mover's side."""
    key = play.key
    before = play.before
    mine = [max(0, key[p]) for p in range(25)]
    mine[OFF] = 0
    opponent = [max(0, -key[p]) for p in range(25)]
    opponent_bar = before.bar[before.turn.other] + key[HIT]
    my_bar = key[BAR]
    my_pips = sum(p * mine[p] for p in range(1, 25)) + 25 * my_bar
    their_pips = sum((25 - p) * opponent[p] for p in range(1, 25)) + 25 * opponent_bar
    highest = 25 if my_bar else max((p for p in range(1, 25) if mine[p]), default=0)
    lowest_theirs = 0 if opponent_bar else min((p for p in range(1, 25) if opponent[p]), default=25)
    off = key[OFF]
    if highest <= lowest_theirs:
        outside = sum(mine[p] for p in range(7, 25))
        waste = sum(mine[p] * (3 - p) for p in (1, 2))
        gaps = sum(1 for p in range(1, 6) if not mine[p] and any(mine[p + 1 : 7]))
        return False, {
            "pips": their_pips - my_pips,
            "off": off,
            "outside": outside,
            "waste": waste,
            "gap": gaps,
        }
    made = [p for p in range(1, 25) if mine[p] >= 2]
    values = {
        "pips": their_pips - my_pips,
        "hit": opponent_bar,
        "on_bar": my_bar,
        "shots": sum(_exposure(p, opponent, opponent_bar) for p in range(1, 25) if mine[p] == 1),
        "home_point": sum(HOME_WEIGHT[p] for p in made if p <= 6),
        "bar_point": 1.0 if 7 in made else 0.0,
        "outer_point": sum(1 for p in made if 8 <= p <= 11),
        "prime": _longest_run(made),
        "anchor": min(1, sum(1 for p in made if p >= 19)),
        "back": my_bar + sum(mine[p] for p in range(19, 25)),
        "stack": sum(max(0, mine[p] - 3) for p in range(1, 25)),
        "off": off,
    }
    return True, values


def _exposure(point: int, opponent: list[int], opponent_bar: int) -> float:
    """Shots at a blot, weighted by the pips a hit would cost (a blot at home costs most)."""
    return shots_at(point, opponent, opponent_bar) * (25 - point) / 20


def evaluate(play: Play) -> float:
    """The linear score of ``play``: the weights of its phase times its features."""
    contact, values = features(play)
    weights = CONTACT if contact else RACE
    return sum(weights[name] * value for name, value in values.items())


def _longest_run(points: list[int]) -> int:
    best = run = 0
    last = -1
    for point in points:
        run = run + 1 if point == last + 1 else 1
        best = max(best, run)
        last = point
    return best


class PubevalBot(RaceBot):
    """The linear baseline for the games on backgammon's board (BG, TN, SN)."""

    name = "pubeval"
    variants = frozenset({"backgammon", "takhte_nard", "short_nardy"})

    def choose_play(
        self,
        game: RaceGame,
        plays: tuple[Play, ...],
        context: MatchContext,
        budget: float | None,
    ) -> Play:
        return max(plays, key=evaluate)
