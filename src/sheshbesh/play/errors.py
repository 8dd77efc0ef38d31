"""Typed errors of the game flow; each becomes a clear message at the edge.

    ValueError
     └── PlayError
          ├── NotYourTurn      an action by a side that may not act now
          ├── IllegalAction    an action the current phase does not allow
          └── InvalidOptions   table options that contradict the game's rules

Rules errors from ``sheshbesh.games`` (``IllegalPlay``…) pass through unchanged.
"""


class PlayError(ValueError):
    """Base of the game-flow errors."""


class NotYourTurn(PlayError):
    """The side named in the action may not act now."""


class IllegalAction(PlayError):
    """The action is not allowed in the current phase (e.g. a take with no double)."""


class InvalidOptions(PlayError):
    """Table options the game does not allow (e.g. a cube in long nardy)."""
