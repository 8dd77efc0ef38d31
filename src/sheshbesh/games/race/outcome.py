"""Who won a race game and at which level (BF-13, BG-8, NS-4, LN-11, PK-9/10, RB-10, JQ-10).

Levels multiply the stake: 1 single, 2 gammon or mars, 3 backgammon. A draw
(Plakoto's two pinned mothers) has no winner and level 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .side import Side

if TYPE_CHECKING:
    from .position import Position

LEVEL_NAMES = {0: "draw", 1: "single", 2: "double", 3: "triple"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: ``winner`` (None for a draw), ``level`` and the rule that decided."""

    winner: Side | None
    level: int
    rule: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None


def judge(position: Position) -> Outcome | None:
    """The outcome of ``position`` if the game is over, else None."""
    finished = [side for side in Side if position.borne_off(side) == 15]
    if len(finished) == 2:
        return Outcome(None, 0, "LN-13")
    for side in finished:
        if position.borne_off(side) == 15:
            return Outcome(side, level_for_loser(position, side.other), "BF-13")
    if position.rules.mother_rule:
        return _mother(position)
    return None


def level_for_loser(position: Position, loser: Side) -> int:
    """The level the winner gets against ``loser`` as the checkers stand now.

    Also used for forfeits (PL-7), which judge the position as if the opponent had
    just borne off. BG-8 / RB-10: a triple needs nothing borne off and a straggler
    on the bar, unentered, or in the loser's own 19–24.
    """
    rules = position.rules
    if position.borne_off(loser) > 0:
        return 1
    if rules.backgammon_level:
        stragglers = position.bar[loser] + position.waiting[loser]
        stragglers += sum(position.own(loser, p) + position.pinned(loser, p) for p in range(19, 25))
        if stragglers:
            return 3
    return 2


def _mother(position: Position) -> Outcome | None:
    """PK-9: a pinned mother (last checker on one's own 24) ends the game."""
    white_pinned = position.pinned(Side.WHITE, 24)
    black_pinned = position.pinned(Side.BLACK, 24)
    if white_pinned and black_pinned:
        return Outcome(None, 0, "PK-9")
    for victim, pinned in ((Side.WHITE, white_pinned), (Side.BLACK, black_pinned)):
        pinner = victim.other
        if pinned and position.own(pinner, 24) == 0 and not position.pinned(pinner, 24):
            return Outcome(pinner, 2, "PK-9")
    return None
