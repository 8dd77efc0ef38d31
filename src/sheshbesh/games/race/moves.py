"""Steps and plays: one checker moving by one die, and a whole turn's result.

A :class:`Play` *is* its resulting position (BF-9): two plays are equal when they
leave the same position, whatever route the checkers took. ``steps`` keeps one
route that produces it, for notation and for animating the move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .position import Position


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moving ``die`` pips in the mover's own numbering (BF-2).

    ``src`` 25 is the bar (or, in Russian backgammon, a checker not yet entered);
    ``dst`` 0 is borne off. ``hit`` marks a blot hit (or, in Plakoto, pinned).
    """

    src: int
    dst: int
    die: int
    hit: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """A legal play: the position before, one route of steps, the position after."""

    before: Position
    steps: tuple[Step, ...]
    after: Position

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.before == other.before and self.after == other.after

    def __hash__(self) -> int:
        return hash(self.after)

    def notation(self) -> str:
        """gnubg-style text in the mover's numbers: ``13/7(2)``, ``bar/22*``, ``6/off``."""
        from .notation import format_play

        return format_play(self.steps, pin=self.before.rules.lone_checker == "pin")

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<Play {self.notation()} -> {self.after.text()}>"
