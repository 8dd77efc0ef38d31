"""Typed errors of the rules layer.

Every error is a ``ValueError`` so callers that only care about "bad input" can
catch one thing; the server turns each into a clear message at the edge::

    ValueError
     └── GameError
          ├── InvalidPosition   a position (text, ID, board) that cannot exist
          ├── InvalidDice       dice outside 1–6, or a roll the position cannot take
          ├── InvalidPlay       play text that does not parse (syntax)
          ├── IllegalPlay       a well-formed play that is not legal here
          ├── AmbiguousPlay     play text that matches several legal plays
          └── GameOver          asking a finished game for plays

Messages name the offending token, e.g. ``point 7 holds both colours``.
"""


class GameError(ValueError):
    """Base of every rules error."""


class InvalidPosition(GameError):
    """A position that cannot exist: wrong checker counts, two colours on a point, bad text."""


class InvalidDice(GameError):
    """Dice outside 1–6, or a roll this position cannot be played with."""


class InvalidPlay(GameError):
    """Play notation that does not parse."""


class IllegalPlay(GameError):
    """A play that parses but is not one of the legal plays for this roll."""


class AmbiguousPlay(GameError):
    """Play notation that matches more than one legal play."""


class GameOver(GameError):
    """The game has ended; there is nothing left to play."""
