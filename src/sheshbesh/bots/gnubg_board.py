"""Our positions, plays, cube and score in the shapes gnubg's calls take.

A gnubg *board* is two 25-slot tuples in each player's own numbering (slot 24
is the bar): ``[0]`` the player not on roll, ``[1]`` the player on roll
(:mod:`sheshbesh.games.race.ids` converts positions). gnubg's *players* are
numbered 0 and 1; we use :class:`Side` values, White 0 and Black 1, so scores
and cube owners need no renaming. A gnubg *move* is a flat tuple of
``(from, to)`` points, 1-based, 25 the bar; gnubg stops writing a move at its
first bear-off (the ``-1`` of "off" ends its C array), so such a tuple has odd
length and does not say the rest of the move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from sheshbesh.games.race import Play, Position, Side
from sheshbesh.games.race.ids import Board, gnubg_board

from .base import MatchContext

GNUBG_VARIANTS = frozenset({"backgammon", "takhte_nard", "short_nardy"})
"""Variants played on gnubg's board with gnubg's moves: BG-1…BG-7, TN-1, SN-1…SN-3."""


def board_of(position: Position) -> Board:
    """The gnubg board of ``position``, its side to move on roll."""
    return gnubg_board(position)


def swap(board: Board) -> Board:
    """The same checkers with the other player on roll."""
    return board[1], board[0]


def board_after(play: Play) -> Board:
    """The board after ``play`` with the mover still on roll (``[1]``), read off the play's key.

    The key is the generator's result from the mover's side (games/race/movegen.py):
    index 1–24 the mover's own points (opponent checkers negative), 25 the
    mover's bar, 26 the opponent checkers hit this turn. In the games on
    gnubg's board the opponent's own point ``q`` is the mover's ``25 - q``.
    """
    key = play.key
    before = play.before
    mover = (*(max(0, key[p]) for p in range(1, 25)), key[25])
    opponent_bar = before.bar[before.turn.other] + key[26]
    opponent = (*(max(0, -key[25 - q]) for q in range(1, 25)), opponent_bar)
    return opponent, mover


def apply_move(board: Board, move: Iterable[int]) -> Board:
    """Play a gnubg move (whole ``(from, to)`` pairs) on ``board``; blots hit go to the bar."""
    opponent, mover = list(board[0]), list(board[1])
    steps = list(move)
    for src, dst in zip(steps[::2], steps[1::2], strict=False):
        mover[src - 1] -= 1
        if dst > 0:
            mover[dst - 1] += 1
            if opponent[24 - dst] == 1:
                opponent[24 - dst] = 0
                opponent[24] += 1
    return tuple(opponent), tuple(mover)


def is_cut(move: tuple[int, ...]) -> bool:
    """Whether gnubg stopped writing ``move`` at a bear-off (the rest is unknown)."""
    return len(move) % 2 == 1


@dataclass(frozen=True, slots=True)
class CubeState:
    """Cube value, owner (None: centred) and the side on roll, as one evaluation sees them."""

    value: int
    owner: Side | None
    on_roll: Side

    def doubled(self) -> CubeState:
        """After a double is taken: twice the value, owned by the taker (BG-12)."""
        return CubeState(self.value * 2, self.on_roll.other, self.on_roll)

    def passed(self) -> CubeState:
        """The same cube with the other side on roll."""
        return CubeState(self.value, self.owner, self.on_roll.other)


def cube_info(
    g: ModuleType,
    state: CubeState,
    context: MatchContext,
    *,
    jacoby: bool = False,
    beavers: bool = False,
) -> dict[str, Any]:
    """gnubg's cube info for ``state`` at the match score of ``context`` (money: length 0).

    gnubg's constructor always switches Jacoby on and beavers off; a money
    game gets the table's own options (BG-15…BG-17), a match neither (BG-18).
    gnubg reads post-Crawford from the score, as BG-19 defines it.
    """
    owner = -1 if state.owner is None else int(state.owner)
    if context.length:
        score = (context.length - context.away[0], context.length - context.away[1])
    else:
        score = (0, 0)
    info: dict[str, Any] = g.cubeinfo(
        state.value, owner, int(state.on_roll), context.length, score, int(context.crawford), 0
    )
    if not context.length:
        info["jacoby"] = int(jacoby)
        info["beavers"] = int(beavers)
    return info
