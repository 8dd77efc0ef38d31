"""The FIBS rating formula for the backgammon family: matches and money games.

FIBS (the First Internet Backgammon Server) publishes its formula; this is our
reading of it. For a match of length N between ratings that differ by D, the
underdog wins with probability

    P_upset = 1 / (10^(|D|·√N / 2000) + 1)

The winner gains 4·√N·(1 − P), where P was his own chance to win, and the loser
loses the same amount. The √N says that a longer match is less luck, so it
counts more. A player's change is multiplied by his own experience factor
K = max(1, 5 − experience/100). So a newcomer's rating moves up to five times
as fast until 400 points of experience, and experience grows by N per match.
With equal factors the two changes cancel and no rating points are made or
lost. A player's expected change is zero when the formula's probability is right.
K uses the experience *before* the match, as FIBS's ``help formula`` page says.
The MacFIBS glossary writes (experience + N)/100 instead. The two differ only
for players with less than 400 experience.

A money game counts as a 1-point match (:data:`MONEY_GAME_LENGTH`). The cube
and gammons decide the stake, not how much the game says about skill. A game
won at 16 is still one game, and a recube must not move ratings four times as
far. Ratings are pooled per variant (see ``pools``).

>>> ann, bob = FibsRating.initial(), FibsRating.initial()
>>> ann, bob = fibs_update(ann, bob, match_length=1)
>>> ann, bob
(FibsRating(rating=1510.0, experience=1), FibsRating(rating=1490.0, experience=1))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import InvalidRating

INITIAL_RATING = 1500.0
PROVISIONAL_EXPERIENCE = 400
"""Below this, the experience factor K is above 1 and the rating is still settling."""
MONEY_GAME_LENGTH = 1
"""A money game is rated as a 1-point match, whatever the cube and the gammons."""


@dataclass(frozen=True, slots=True)
class FibsRating:
    """A rating and the experience (sum of rated match lengths) that weighs its changes."""

    rating: float
    experience: int

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise InvalidRating(f"rating {self.rating!r} is not a finite number")
        if self.experience < 0:
            raise InvalidRating(f"experience {self.experience!r} is negative")

    @classmethod
    def initial(cls) -> FibsRating:
        return cls(INITIAL_RATING, 0)

    @property
    def provisional(self) -> bool:
        """True until the experience factor reaches 1: the rating still moves fast."""
        return self.experience < PROVISIONAL_EXPERIENCE

    @property
    def factor(self) -> float:
        """FIBS's experience factor K = max(1, 5 − experience/100)."""
        return max(1.0, 5.0 - self.experience / 100)

    def shown(self) -> str:
        """Two decimals as FIBS shows them; ``?`` while provisional."""
        return f"{self.rating:.2f}" + ("?" if self.provisional else "")

    def to_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "experience": self.experience}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FibsRating:
        try:
            rating, experience = data["rating"], data["experience"]
        except (KeyError, TypeError):
            raise InvalidRating(f"not a FIBS rating: {data!r}") from None
        if not isinstance(rating, int | float) or isinstance(rating, bool):
            raise InvalidRating(f"rating {rating!r} is not a number")
        if not isinstance(experience, int) or isinstance(experience, bool):
            raise InvalidRating(f"experience {experience!r} is not a whole number")
        return cls(float(rating), experience)


def fibs_win_probability(player: float, opponent: float, match_length: int) -> float:
    """The chance that ``player`` wins an N-point match against ``opponent`` (FIBS).

    >>> round(fibs_win_probability(1600, 1500, 5), 4)
    0.564
    """
    _check_length(match_length)
    x = (player - opponent) * math.sqrt(match_length) / 2000
    # 1 / (10^(−x) + 1), written so that neither branch can overflow.
    power = math.pow(10.0, -abs(x))
    return 1.0 / (power + 1.0) if x >= 0 else power / (power + 1.0)


def fibs_update(
    winner: FibsRating, loser: FibsRating, match_length: int
) -> tuple[FibsRating, FibsRating]:
    """The winner's and the loser's ratings after an N-point match (or a money game, N = 1)."""
    _check_length(match_length)
    change = (
        4.0
        * math.sqrt(match_length)
        * (1.0 - fibs_win_probability(winner.rating, loser.rating, match_length))
    )
    return (
        FibsRating(winner.rating + winner.factor * change, winner.experience + match_length),
        FibsRating(loser.rating - loser.factor * change, loser.experience + match_length),
    )


def fibs_money_game(winner: FibsRating, loser: FibsRating) -> tuple[FibsRating, FibsRating]:
    """A money game's winner and loser after it, rated as a 1-point match."""
    return fibs_update(winner, loser, MONEY_GAME_LENGTH)


def _check_length(match_length: int) -> None:
    if isinstance(match_length, bool) or not isinstance(match_length, int) or match_length < 1:
        raise InvalidRating(f"match length {match_length!r} is not a whole number ≥ 1")
