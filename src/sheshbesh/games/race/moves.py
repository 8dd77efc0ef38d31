"""Steps and plays: one checker moving by one die, and a whole turn's result.

A :class:`Play` *is* its resulting position (BF-9): two plays are equal when they
leave the same position, whatever route the checkers took. ``steps`` keeps one
route that produces it, for notation and for animating the move.
"""

from __future__ import annotations

from collections.abc import Callable
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


RawStep = tuple[int, int, int, bool]
"""(src, dst, die, hit): a step as the search records it, before it becomes a :class:`Step`."""


class Play:
    """A legal play: the position before, one route of steps, the position after.

    The generator hands out plays by the dozen and most are only compared or
    counted, so the route and the resulting position are built on first use.
    """

    __slots__ = ("_after", "_build", "_key", "_raw", "_steps", "before")

    def __init__(
        self,
        before: Position,
        raw: tuple[RawStep, ...],
        key: tuple[int, ...],
        build: Callable[[tuple[int, ...]], Position],
    ) -> None:
        self.before = before
        self._raw = raw
        self._key = key
        self._build = build
        self._after: Position | None = None
        self._steps: tuple[Step, ...] | None = None

    @property
    def key(self) -> tuple[int, ...]:
        """The resulting board as the generator sees it, from the mover's side."""
        return self._key

    @property
    def after(self) -> Position:
        """The position after the play, with the next side to roll."""
        if self._after is None:
            self._after = self._build(self._key)
        return self._after

    @property
    def steps(self) -> tuple[Step, ...]:
        """One route of single-die steps that produces this play, in playing order."""
        if self._steps is None:
            self._steps = tuple(Step(*raw) for raw in self._raw)
        return self._steps

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        if self.before == other.before:
            return self._key == other._key
        return False

    def __hash__(self) -> int:
        return hash(self._key)

    def notation(self) -> str:
        """gnubg-style text in the mover's numbers: ``13/7(2)``, ``bar/22*``, ``6/off``."""
        from .notation import format_play

        return format_play(self.steps, pin=self.before.rules.lone_checker == "pin")

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<Play {self.notation()} -> {self.after.text()}>"
