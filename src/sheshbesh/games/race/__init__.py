"""The backgammon family: one rules engine, eight variants described as data.

>>> from sheshbesh.games.race import Position
>>> p = Position.start("long_nardy")
>>> [play.notation() for play in p.legal_plays((6, 6))]
['24/18(2)']
"""

from .moves import Play, Step
from .notation import format_play, parse_play
from .outcome import Outcome
from .position import Position, find_rules
from .rules import RACE_VARIANTS, RaceRules
from .side import Side

__all__ = [
    "RACE_VARIANTS",
    "Outcome",
    "Play",
    "Position",
    "RaceRules",
    "Side",
    "Step",
    "find_rules",
    "format_play",
    "parse_play",
]
