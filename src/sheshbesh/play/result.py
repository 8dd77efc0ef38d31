"""The end of a game: level, points and what each participant's stake pays.

``payout`` maps each participant to a multiple of the stake S: positive is paid
to him, negative paid by him, and the values always sum to zero, so the wallet
can settle any number of participants (chouette later) from one dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheshbesh.games.race import Position, RaceRules, Side

from .options import NARDY, RaceOptions

END_RULES = (
    "BF-13", "BF-15", "BG-12", "BG-16", "BG-18", "BG-20", "LN-13", "PK-9", "PL-7",
    "DR-13", "DR-14", "DR-15", "DR-16", "DR-17", "DR-18", "DR-19", "DR-21", "CH-8",
)  # fmt: skip
"""Every rule a game or match can end by: a result's ``reason`` is one of them, and
the client words each (``result.rule.*``) so a player reads why, not only the ID."""


@dataclass(frozen=True, slots=True)
class Result:
    """Who won, how (``reason`` cites the rule), for how many points and stakes."""

    winner: Side | None
    level: int
    cube: int
    points: int
    reason: str
    payout: tuple[tuple[Side, int], ...]

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def paid_to(self, side: Side) -> int:
        return dict(self.payout).get(side, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": None if self.winner is None else self.winner.letter,
            "level": self.level,
            "cube": self.cube,
            "points": self.points,
            "reason": self.reason,
            "payout": {side.letter: amount for side, amount in self.payout},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        winner = None if data["winner"] is None else Side.from_letter(data["winner"])
        payout = tuple((Side.from_letter(k), int(v)) for k, v in data["payout"].items())
        return cls(winner, data["level"], data["cube"], data["points"], data["reason"], payout)


def score(
    rules: RaceRules,
    options: RaceOptions,
    winner: Side | None,
    level: int,
    cube: int,
    reason: str,
    *,
    doubled: bool = False,
) -> Result:
    """Points and stake multipliers of a finished game.

    BG-9 value = level × cube (BG-17 Jacoby: singles only while nobody doubled in
    a money game); NS-2/NS-3 Oin pays 1, Mars pays 2 for a mars; PK-11, RB-11,
    JQ-10 the loser pays level × S; in a match (BG-18) games score points and the
    stake is settled once for the match, so a game pays nothing.

    >>> from sheshbesh.games.race import find_rules
    >>> bg = find_rules("backgammon")
    >>> score(bg, RaceOptions(cube=True), Side.WHITE, 2, 4, "BF-13").paid_to(Side.BLACK)
    -8
    """
    if winner is None:
        return Result(None, 0, cube, 0, reason, ((Side.WHITE, 0), (Side.BLACK, 0)))
    if options.jacoby and not doubled and not options.match_length:
        level = min(level, 1)
    points = level * cube
    if options.match_length:
        stakes = 0
    elif rules.name in NARDY:
        stakes = 2 if options.stake_mode == "mars" and level >= 2 else 1
    else:
        stakes = points
    return Result(winner, level, cube, points, reason, ((winner, stakes), (winner.other, -stakes)))


def exposure(rules: RaceRules, options: RaceOptions, cube: int, *, doubled: bool = False) -> int:
    """PL-5: the largest multiple of S a side can still lose at this cube. With Jacoby
    (BG-17) and nobody having doubled, :func:`score` counts every win single, played out,
    resigned or forfeited (BF-15, PL-7), so the cube is the most (``doubled``: a double
    has been offered, as :func:`score` is told)."""
    if options.match_length:
        return 1
    if rules.name in NARDY:
        return 2 if options.stake_mode == "mars" else 1
    if options.jacoby and not doubled:
        return cube
    return max(rules.levels) * cube


def forfeit_level(position: Position, loser: Side) -> int:
    """PL-7: the level the opponent gets if he bore off now (gammon/backgammon/mars tests)."""
    from sheshbesh.games.race.outcome import level_for_loser

    level = level_for_loser(position, loser)
    return min(level, max(position.rules.levels))
