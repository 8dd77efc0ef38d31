"""Pure rules of every game: positions, legal moves, outcomes, notations.

No I/O, no clocks, no randomness of its own: dice come in as arguments.
``VARIANTS`` names every game the club plays; ``find_variant`` looks one up.

>>> find_variant("plakoto").code
'PK'
"""

from .errors import InvalidPosition
from .race.rules import RACE_VARIANTS, RaceRules

VARIANTS: tuple[str, ...] = (*RACE_VARIANTS, "draughts")


def find_variant(name: str) -> RaceRules:
    """The rules of race variant ``name``; draughts has its own package."""
    try:
        return RACE_VARIANTS[name]
    except KeyError:
        raise InvalidPosition(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None


__all__ = ["VARIANTS", "find_variant"]
