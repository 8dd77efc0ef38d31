"""Glicko-2 for draughts, after Glickman's "Example of the Glicko-2 system".

A player has a rating r, a rating deviation RD (how unsure the rating is) and a
volatility σ (how erratic his results are). The formulas run on Glickman's
inner scale: μ = (r − 1500)/173.7178 and φ = RD/173.7178. The volatility is found
with the Illinois algorithm that the paper gives. A newcomer starts at
1500 / 350 / 0.06, the paper's values.

**One game is one rating period**, as on lichess. The paper rates a batch of
games per period, but a club's players want to see their rating move after
each game. So the server calls :func:`glicko2_game` when a game ends, and
:func:`glicko2_idle` before that for the time a player was away. A period of
inactivity is one day (:data:`PERIOD_SECONDS`). Each idle period adds σ² to φ².
At the usual σ of 0.06, a settled RD of 50 is back near 100 after about ten
weeks away, and it takes about three years to return to the newcomer's 350.

**τ = 0.75.** The paper advises 0.3–1.2 and says to tune τ for predictive
accuracy. A new club has no games to tune on. We take lichess's value because
lichess also makes one period of each game, and it has run with 0.75 on very
many games. ``tau`` stays a parameter: tests use the paper's 0.5, and a later
tuning can change the default.

**Bounds.** Every RD we return lies between :data:`MIN_DEVIATION` (45) and
:data:`MAX_DEVIATION` (350). With one period per game, RD would otherwise shrink
so far that an active player's rating stops moving. No one is ever less known
than a newcomer. A rating with RD above :data:`PROVISIONAL_DEVIATION` (110) is
shown with a ``?``, as lichess shows it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import InvalidRating

SCALE = 173.7178
"""Glickman's factor between the Glicko scale and the inner Glicko-2 scale (400/ln 10)."""
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
TAU = 0.75
MIN_DEVIATION = 45.0
MAX_DEVIATION = 350.0
PROVISIONAL_DEVIATION = 110.0
PERIOD_SECONDS = 86_400.0
"""One rating period of inactivity: a day."""
_EPSILON = 1e-6
"""The convergence tolerance of the volatility iteration, the paper's ε."""


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """Rating, rating deviation and volatility, on the Glicko scale (1500 / 350 / 0.06)."""

    rating: float
    deviation: float
    volatility: float

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            value = getattr(self, name)
            if not math.isfinite(value):
                raise InvalidRating(f"{name} {value!r} is not a finite number")
        if self.deviation <= 0 or self.volatility <= 0:
            raise InvalidRating(
                f"deviation {self.deviation!r} and volatility {self.volatility!r} must be > 0"
            )

    @classmethod
    def initial(cls) -> Glicko2Rating:
        return cls(INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY)

    @property
    def provisional(self) -> bool:
        """True while RD > 110: too unsure to show without a ``?``."""
        return self.deviation > PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """The rating rounded, as lichess shows it: ``1500?`` while provisional."""
        return f"{round(self.rating)}" + ("?" if self.provisional else "")

    def to_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "deviation": self.deviation, "volatility": self.volatility}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Glicko2Rating:
        try:
            values = [data[name] for name in ("rating", "deviation", "volatility")]
        except (KeyError, TypeError):
            raise InvalidRating(f"not a Glicko-2 rating: {data!r}") from None
        for value in values:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise InvalidRating(f"{value!r} in {data!r} is not a number")
        return cls(*(float(value) for value in values))


def glicko2_update(
    player: Glicko2Rating,
    results: Iterable[tuple[Glicko2Rating, float]],
    *,
    tau: float = TAU,
) -> Glicko2Rating:
    """The player's rating after one period's results: (opponent, score 1 / ½ / 0) pairs.

    Steps 2–8 of Glickman's example. A period without games only widens RD.
    """
    games = [(opponent, _check_score(score)) for opponent, score in results]
    if not games:
        return glicko2_idle(player, 1.0)
    mu, phi = _inner(player)
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j, phi_j = _inner(opponent)
        g = _g(phi_j)
        expected = _expected(mu, mu_j, g)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    volatility = _new_volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + volatility * volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko2Rating(new_mu * SCALE + INITIAL_RATING, _bounded(new_phi * SCALE), volatility)


def glicko2_game(
    first: Glicko2Rating, second: Glicko2Rating, first_score: float, *, tau: float = TAU
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """Both players after one game between them, each rated against the other's old rating."""
    score = _check_score(first_score)
    return (
        glicko2_update(first, [(second, score)], tau=tau),
        glicko2_update(second, [(first, 1.0 - score)], tau=tau),
    )


def glicko2_idle(player: Glicko2Rating, periods: float) -> Glicko2Rating:
    """The player after ``periods`` rating periods without games: φ² grows by σ² per period."""
    if not math.isfinite(periods) or periods < 0:
        raise InvalidRating(f"idle periods {periods!r} must be a finite number ≥ 0")
    _, phi = _inner(player)
    phi = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    # Scaling there and back may round a hair below the start: idling never narrows.
    deviation = max(player.deviation, phi * SCALE)
    return Glicko2Rating(player.rating, _bounded(deviation), player.volatility)


def rating_periods(seconds: float) -> float:
    """How many rating periods of inactivity ``seconds`` are (negative: none)."""
    return max(0.0, seconds) / PERIOD_SECONDS


def _inner(player: Glicko2Rating) -> tuple[float, float]:
    return (player.rating - INITIAL_RATING) / SCALE, player.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g: float) -> float:
    return 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' from the Illinois algorithm on f(x) = 0, x = ln σ'²."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    low = a
    if delta * delta > phi2 + v:
        high = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = new, f_new
    return math.exp(low / 2.0)


def _check_score(score: float) -> float:
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 1:
        raise InvalidRating(f"score {score!r} is not between 0 and 1")
    return float(score)


def _bounded(deviation: float) -> float:
    return min(MAX_DEVIATION, max(MIN_DEVIATION, deviation))
