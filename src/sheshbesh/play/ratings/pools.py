"""Which formula rates a variant, and which rating a game changes.

The two families use different formulas. The backgammon family (every race
variant) uses FIBS, because match length matters there and FIBS is the rating
backgammon players know. Draughts uses Glicko-2, because its games can be drawn
and its players know it from lichess and lidraughts.

**One rating per variant**, as lichess keeps one per variant. Long nardy and
plakoto take different skills from backgammon. A shared number would let a
strong backgammon player farm newcomers at plakoto, and it would tell opponents
little. Matches and money games of one variant share that variant's rating,
since a money game is rated as a 1-point match. The pool's name is the variant's
name, so new variants need no table here.

>>> rating_family("plakoto"), rating_pool("plakoto")
('backgammon', 'plakoto')
>>> rating_family("draughts")
'draughts'
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from sheshbesh.games import VARIANTS

from .errors import InvalidRating

Family: TypeAlias = Literal["backgammon", "draughts"]


def rating_family(variant: str) -> Family:
    """``"draughts"`` (Glicko-2) for draughts, ``"backgammon"`` (FIBS) for every race variant."""
    if variant not in VARIANTS:
        raise InvalidRating(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return "draughts" if variant == "draughts" else "backgammon"


def rating_pool(variant: str) -> str:
    """The name under which a player's rating for ``variant`` is kept: the variant itself."""
    rating_family(variant)
    return variant
