"""The one error of the rating code, under the game-flow errors.

    ValueError
     └── PlayError
          └── InvalidRating   a rating, score, match length or variant that cannot be rated

The server stores ratings and reads them back; a stored value that fails here is
corrupt data, and saying which field is wrong beats rating from it.
"""

from ..errors import PlayError


class InvalidRating(PlayError):
    """A value the rating formulas cannot use; the message names the field."""
