"""What players (and the server, for them) ask a game to do, and where dice come from.

Actions name the acting side; the game checks it may act (a spectator or the
opponent can never act for a player: the server maps each connection to a side
and the game refuses any other side with ``NotYourTurn``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sheshbesh.games.race import Side


@dataclass(frozen=True, slots=True)
class Start:
    """The server starts the game: the opening roll (BF-14)."""


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll for the turn; ``nonce`` is the roller's client nonce (PL-2)."""

    side: Side
    nonce: str | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """One step of the turn (BF-10): own point ``src`` to ``dst`` (25 bar, 0 off)."""

    side: Side
    src: int
    dst: int
    die: int | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    side: Side


@dataclass(frozen=True, slots=True)
class Confirm:
    """End the turn with the steps entered (BF-10)."""

    side: Side


@dataclass(frozen=True, slots=True)
class PlayText:
    """A whole play in one action, in notation (``"13/7(2)"``)."""

    side: Side
    text: str


@dataclass(frozen=True, slots=True)
class Double:
    side: Side


@dataclass(frozen=True, slots=True)
class Take:
    """Take a double, or (by the doubler) accept a beaver."""

    side: Side


@dataclass(frozen=True, slots=True)
class Drop:
    """Drop a double, or (by the doubler) refuse a beaver."""

    side: Side


@dataclass(frozen=True, slots=True)
class Beaver:
    side: Side


@dataclass(frozen=True, slots=True)
class Resign:
    """Offer to resign at ``level`` (BF-15)."""

    side: Side
    level: int


@dataclass(frozen=True, slots=True)
class AcceptResign:
    side: Side


@dataclass(frozen=True, slots=True)
class DeclineResign:
    side: Side


@dataclass(frozen=True, slots=True)
class Timeout:
    """The server reports that ``side`` ran out of time or left (PL-7)."""

    side: Side


Action = (
    Start | Roll | Move | Undo | Confirm | PlayText | Double | Take | Drop | Beaver
    | Resign | AcceptResign | DeclineResign | Timeout
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Rolled:
    """Dice from a :class:`DiceSource` with what must be published alongside them."""

    dice: tuple[int, ...]
    proof: dict[str, Any] | None = None
    next_commit: str | None = None


class DiceSource(Protocol):
    """Where a game's dice come from: the server's fair dice, or fixed dice in tests."""

    def roll(self, nonce: str | None, count: int) -> Rolled: ...
