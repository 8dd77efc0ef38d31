"""What both directions of ``.mat`` share: the variants the format holds, and its error.

:mod:`.export` refuses to write, and :mod:`.import_` to replay, a variant gnubg
does not play; both check it here so the two refusals cannot drift apart.
"""

from __future__ import annotations

from ..errors import PlayError

MAT_VARIANTS = ("backgammon", "takhte_nard")
"""The variants gnubg plays: backgammon's board, moves and cube (TN-1)."""


class MatError(PlayError):
    """A log that ``.mat`` cannot hold, or a ``.mat`` text that does not replay (with its line)."""


def check_variant(variant: str) -> None:
    """Raise :class:`MatError` unless gnubg's ``.mat`` format holds *variant*."""
    if variant not in MAT_VARIANTS:
        raise MatError(f"gnubg's .mat format has no {variant}; it holds {', '.join(MAT_VARIANTS)}")
