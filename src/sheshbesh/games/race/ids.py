"""gnubg boards and position IDs for the games that share backgammon's board.

gnubg describes a position as two 25-slot lists in each player's own numbering,
``[0]`` the player not on roll and ``[1]`` the player on roll (slot 24 is the
bar). Backgammon, short nardy, takhte nard and Caucasian nardy use exactly that
board, so their positions convert both ways; the ID does not say which colour
is on roll, so the caller names it (White by default).

>>> from sheshbesh.games.race import Position
>>> Position.from_id("4HPwATDgc/ABMA") == Position.start("backgammon")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidPosition
from .gnubg_id import decode_position_id, encode_position_id
from .position import CHECKERS, Position, find_rules
from .rules import RaceRules, to_own
from .side import Side

Board = tuple[tuple[int, ...], tuple[int, ...]]


def gnubg_board(position: Position) -> Board:
    """The gnubg board of ``position`` with its side to move on roll."""
    _check_variant(position.rules)

    mapping = position.rules.mapping

    def side(who: Side) -> tuple[int, ...]:
        # Its own numbering, filled in one pass over the absolute points (these
        # boards have no pins): the ID goes with every move's view.
        black = who is Side.BLACK
        sign = -1 if black else 1
        cells = [0] * 25
        for a, count in enumerate(position.points, start=1):
            if count * sign > 0:
                cells[to_own(mapping, black, a) - 1] = count * sign
        cells[24] = position.bar[who]
        return tuple(cells)

    return side(position.turn.other), side(position.turn)


def from_gnubg_board(
    board: Sequence[Sequence[int]], variant: str | RaceRules = "backgammon",
    turn: Side = Side.WHITE,
) -> Position:  # fmt: skip
    """The position whose gnubg board is ``board``, ``turn`` being the side on roll."""
    rules = find_rules(variant)
    _check_variant(rules)
    if len(board) != 2 or any(len(cells) != 25 for cells in board):
        raise InvalidPosition("a gnubg board is two lists of 25 checker counts")
    layouts: dict[Side, dict[int | str, int]] = {}
    for who, cells in ((turn.other, board[0]), (turn, board[1])):
        layout: dict[int | str, int] = {p: cells[p - 1] for p in range(1, 25) if cells[p - 1]}
        if cells[24]:
            layout["bar"] = cells[24]
        if sum(cells) > CHECKERS:
            raise InvalidPosition(f"{who.name.lower()} has {sum(cells)} checkers; at most 15")
        layouts[who] = layout
    for own in range(1, 25):
        if board[1][own - 1] and board[0][24 - own]:
            raise InvalidPosition(f"point {own} of the player on roll holds both colours")
    return Position.from_own(rules, white=layouts[Side.WHITE], black=layouts[Side.BLACK], turn=turn)


def position_id(position: Position) -> str:
    """gnubg's 14-character position ID, side to move on roll."""
    return encode_position_id(gnubg_board(position))


def from_position_id(
    pid: str, variant: str | RaceRules = "backgammon", turn: Side = Side.WHITE
) -> Position:
    """Decode a gnubg position ID; ``turn`` is the colour of the player on roll."""
    return from_gnubg_board(decode_position_id(pid), variant, turn)


def _check_variant(rules: RaceRules) -> None:
    if rules.mapping != "opposite" or rules.lone_checker != "hit":
        raise InvalidPosition(f"gnubg position IDs describe backgammon boards, not {rules.name}")
