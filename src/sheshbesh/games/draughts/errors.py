"""Typed errors of the draughts rules.

Every error is a ``ValueError``, so a caller that only cares about "bad input"
catches one thing; the server turns each into a clear message at the edge::

    ValueError
     └── DraughtsError
          ├── InvalidPosition   FEN text or a placement that cannot exist
          ├── InvalidMove       move text that does not parse (syntax)
          ├── IllegalMove       a well-formed move that is not legal here
          ├── AmbiguousMove     a short form (``32x14``) matching several legal moves
          ├── InvalidPdn        PDN text that cannot be read (tags, move text, result)
          └── GameOver          a move offered to a finished game

Messages name the offending token, e.g. ``square 51 is off the board in 'W51'``.
"""


class DraughtsError(ValueError):
    """Base of every draughts rules error."""


class InvalidPosition(DraughtsError):
    """A position that cannot exist: bad FEN, a square twice, a man on its crowning row."""


class InvalidMove(DraughtsError):
    """Move notation that does not parse."""


class IllegalMove(DraughtsError):
    """A move that parses but is not one of the legal moves of the position."""


class AmbiguousMove(DraughtsError):
    """Short capture notation that matches more than one legal move."""


class InvalidPdn(DraughtsError):
    """PDN text that cannot be read."""


class GameOver(DraughtsError):
    """The game has ended by a rule; no further move may be played."""
