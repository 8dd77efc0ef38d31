"""The doubling cube (BG-10 … BG-17): value, owner, and who may turn it."""

from __future__ import annotations

from dataclasses import dataclass

from sheshbesh.games.race import Side

MAX_CUBE = 64
"""BG-14, TN-3: the cube stops at 64."""


@dataclass(frozen=True, slots=True)
class Cube:
    """Cube value and owner (None: in the middle).

    >>> Cube().can_double(Side.WHITE), Cube(2, Side.BLACK).can_double(Side.WHITE)
    (True, False)
    >>> Cube().taken_by(Side.BLACK)
    Cube(value=2, owner=<Side.BLACK: 1>)
    """

    value: int = 1
    owner: Side | None = None

    def can_double(self, side: Side) -> bool:
        """BG-11/BG-13: the cube is in the middle or owned by ``side``, and below 64."""
        return self.owner in (None, side) and self.value < MAX_CUBE

    def taken_by(self, taker: Side) -> Cube:
        """BG-12: a take doubles the value and gives the cube to the taker."""
        return Cube(self.value * 2, taker)

    def beavered_by(self, beaverer: Side) -> Cube:
        """BG-16: take and redouble at once, keeping the cube (value × 4)."""
        return Cube(self.value * 4, beaverer)

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "owner": None if self.owner is None else self.owner.letter}
