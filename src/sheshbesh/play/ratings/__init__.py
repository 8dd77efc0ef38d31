"""Ratings: FIBS for the backgammon family, Glicko-2 for draughts, one pool per variant.

Pure values and functions. The server loads a player's rating for a game's pool
(``rating_pool``), applies the family's formula when a rated game between two
people ends, and stores what comes back.
"""

from .errors import InvalidRating
from .fibs import FibsRating, fibs_money_game, fibs_update, fibs_win_probability
from .glicko2 import Glicko2Rating, glicko2_game, glicko2_idle, glicko2_update, rating_periods
from .pools import Family, rating_family, rating_pool

__all__ = [
    "Family",
    "FibsRating",
    "Glicko2Rating",
    "InvalidRating",
    "fibs_money_game",
    "fibs_update",
    "fibs_win_probability",
    "glicko2_game",
    "glicko2_idle",
    "glicko2_update",
    "rating_family",
    "rating_periods",
    "rating_pool",
]
