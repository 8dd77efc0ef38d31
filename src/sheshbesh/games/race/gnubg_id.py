"""GNU Backgammon position IDs and match IDs, written from the format in gnubg's manual.

A *position ID* is 14 base64 characters holding an 80-bit key. The key is built
from a board in gnubg's convention: a pair of 25 checker counts, ``board[0]`` for
the player **not** on roll and ``board[1]`` for the player on roll, each indexed
by that player's own point number minus one (index 24 is the bar). Borne-off
checkers are not stored. For ``board[0]`` and then ``board[1]``, for each of the
25 slots in order, the key gets one ``1`` bit per checker and then a ``0`` bit;
bit 0 of the key is the lowest bit of its first byte.

The manual says the player on roll is written first; gnubg itself (1.1.0, the
oracle our tests use) writes ``board[0]`` first, the side that is *not* on roll,
and so do we. In gnubg's move and evaluation calls ``board[1]`` is on roll.

A *match ID* is 12 base64 characters holding a 72-bit key: see :class:`MatchId`.

This module is a codec. It checks what the format can say (slot counts, at most
15 checkers a side, bit ranges) and nothing about the rules: a point held by both
sides encodes and decodes (Plakoto pins need it), where gnubg's own decoder
refuses it. The variant's position checks the board.

>>> start = decode_position_id("4HPwATDgc/ABMA")
>>> start[1][:8], start[1][12], start[1][23]
((0, 0, 0, 0, 0, 5, 0, 3), 5, 2)
>>> encode_position_id(start)
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from sheshbesh.games.errors import InvalidPosition

__all__ = [
    "GameState",
    "MatchId",
    "Resignation",
    "decode_position_id",
    "encode_position_id",
]

_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_SLOTS = 25
_MAX_CHECKERS = 15
_SIDES = ("board[0] (not on roll)", "board[1] (on roll)")


def encode_position_id(board: tuple[Sequence[int], Sequence[int]]) -> str:
    """The 14-character gnubg position ID of ``board`` (``[0]`` not on roll, ``[1]`` on roll).

    >>> encode_position_id(((0,) * 25, (0,) * 25))
    'AAAAAAAAAAAAAA'
    >>> encode_position_id(((0,) * 23 + (8, 8), (0,) * 25))
    Traceback (most recent call last):
    ...
    sheshbesh.games.errors.InvalidPosition: board[0] (not on roll) has 16 checkers, at most 15
    """
    if len(board) != 2:
        raise InvalidPosition(f"board has {len(board)} sides, expected 2 (not on roll, on roll)")
    key = 0
    bit = 0
    for side, counts in enumerate(board):
        if len(counts) != _SLOTS:
            raise InvalidPosition(
                f"board[{side}] has {len(counts)} slots, expected 25 (points 1-24, then the bar)"
            )
        for slot, count in enumerate(counts):
            if not _is_int(count) or not 0 <= count <= _MAX_CHECKERS:
                raise InvalidPosition(f"board[{side}][{slot}] is {count!r}, not a count 0-15")
            key |= ((1 << count) - 1) << bit
            bit += count + 1
        if sum(counts) > _MAX_CHECKERS:
            raise InvalidPosition(f"{_SIDES[side]} has {sum(counts)} checkers, at most 15")
    return _encode_base64(key, 10)


def decode_position_id(pid: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board of a gnubg position ID: ``[0]`` not on roll, ``[1]`` on roll, 25 slots each.

    >>> board = decode_position_id("sGfwATDgc/ABMA")  # after 8/5 6/5, opponent on roll
    >>> board[0][:8]
    (0, 0, 0, 0, 2, 4, 0, 2)
    >>> decode_position_id("4HPw")
    Traceback (most recent call last):
    ...
    sheshbesh.games.errors.InvalidPosition: position ID '4HPw' has 4 characters, expected 14
    """
    key = _decode_base64(pid, "position ID", 10)
    sides: list[tuple[int, ...]] = []
    bit = 0
    for side in range(2):
        counts: list[int] = []
        checkers = 0
        for _slot in range(_SLOTS):
            count = 0
            while key >> bit & 1:
                count += 1
                checkers += 1
                bit += 1
                if checkers > _MAX_CHECKERS:
                    raise InvalidPosition(
                        f"position ID {pid!r} gives {_SIDES[side]} more than 15 checkers"
                    )
            counts.append(count)
            bit += 1
        sides.append(tuple(counts))
    if key >> bit:
        last = key.bit_length() - 1
        raise InvalidPosition(
            f"position ID {pid!r} sets bit {last}, past the board's last bit ({bit - 1})"
        )
    return sides[0], sides[1]


class GameState(IntEnum):
    """Bits 9-11 of a match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """Bits 14-15 of a match ID: the resignation on offer, made by the player not on turn."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


# Field widths in key order, lowest bits first (the manual's bits 1-66, then the Jacoby bit).
_MATCH_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1)
_MATCH_BITS = sum(_MATCH_WIDTHS)
_MAX_15_BITS = (1 << 15) - 1
_CUBES = frozenset(1 << n for n in range(16))


@dataclass(frozen=True, slots=True)
class MatchId:
    """The fields of a gnubg match ID; the defaults are gnubg's (money, no game started).

    ``cube`` is the cube's value (stored as its log2), ``cube_owner`` 0, 1 or ``None``
    when centred. ``dice_owner`` is the player on roll, or who rolled ``dice``;
    ``turn`` is the player to decide now: the doubled or resigned-to player while
    ``double_offered`` or a ``resignation`` is pending, else the dice owner.
    ``dice`` is ``(0, 0)`` before the roll, else kept higher die first as gnubg
    writes them. ``match_length`` 0 is a money game.
    ``jacoby`` is bit 67, which gnubg writes but its manual does not list; it is
    stored inverted, so IDs that leave it clear mean the Jacoby rule is on.

    >>> MatchId().id()
    'MAAAAAAAAAAA'
    >>> m = MatchId.from_id("cAmgAAAAAAAE")
    >>> m.match_length, m.score, m.dice_owner, m.turn, m.game_state.name, m.jacoby
    (5, (0, 0), 1, 1, 'PLAYING', False)
    >>> MatchId(cube=3)
    Traceback (most recent call last):
    ...
    sheshbesh.games.errors.InvalidPosition: cube 3 is not a power of two from 1 to 32768
    """

    cube: int = 1
    cube_owner: int | None = None
    dice_owner: int = 0
    crawford: bool = False
    game_state: GameState = GameState.NONE
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True

    def __post_init__(self) -> None:
        if not _is_int(self.cube) or self.cube not in _CUBES:
            raise InvalidPosition(f"cube {self.cube!r} is not a power of two from 1 to 32768")
        if self.cube_owner is not None and self.cube_owner not in (0, 1):
            raise InvalidPosition(f"cube owner {self.cube_owner!r} is not 0, 1 or None (centred)")
        for name in ("dice_owner", "turn"):
            if getattr(self, name) not in (0, 1):
                raise InvalidPosition(f"{name} {getattr(self, name)!r} is not player 0 or 1")
        for name in ("crawford", "double_offered", "jacoby"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidPosition(f"{name} {getattr(self, name)!r} is not a bool")
        try:
            object.__setattr__(self, "game_state", GameState(self.game_state))
        except ValueError:
            raise InvalidPosition(f"game state {self.game_state!r} is not 0-4") from None
        try:
            object.__setattr__(self, "resignation", Resignation(self.resignation))
        except ValueError:
            raise InvalidPosition(f"resignation {self.resignation!r} is not 0-3") from None
        if not _is_pair(self.dice, 6) or (0 in self.dice and self.dice != (0, 0)):
            raise InvalidPosition(f"dice {self.dice!r} are not two of 1-6, or (0, 0) before a roll")
        object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))
        if not _is_int(self.match_length) or not 0 <= self.match_length <= _MAX_15_BITS:
            raise InvalidPosition(f"match length {self.match_length!r} is not 0 (money) to 32767")
        if not _is_pair(self.score, _MAX_15_BITS):
            raise InvalidPosition(f"score {self.score!r} is not two numbers from 0 to 32767")

    @classmethod
    def from_id(cls, text: str) -> MatchId:
        """Parse a 12-character match ID; ``InvalidPosition`` names what is wrong."""
        key = _decode_base64(text, "match ID", 9)
        if key >> _MATCH_BITS:
            raise InvalidPosition(f"match ID {text!r} sets unused bits 68-72")
        values: list[int] = []
        for width in _MATCH_WIDTHS:
            values.append(key & ((1 << width) - 1))
            key >>= width
        cube, owner, dice_owner, crawford, state, turn, double, resign, d1, d2 = values[:10]
        length, score0, score1, no_jacoby = values[10:]
        if owner == 2:
            raise InvalidPosition(f"match ID {text!r} has cube owner bits 10 (0, 1 or 11 only)")
        if state > GameState.DROPPED:
            raise InvalidPosition(f"match ID {text!r} has game state {state} (0-4 only)")
        try:
            return cls(
                cube=1 << cube,
                cube_owner=None if owner == 3 else owner,
                dice_owner=dice_owner,
                crawford=bool(crawford),
                game_state=GameState(state),
                turn=turn,
                double_offered=bool(double),
                resignation=Resignation(resign),
                dice=(d1, d2),
                match_length=length,
                score=(score0, score1),
                jacoby=not no_jacoby,
            )
        except InvalidPosition as error:
            raise InvalidPosition(f"match ID {text!r}: {error}") from None

    def id(self) -> str:
        """The 12-character match ID, as gnubg writes it."""
        values = (
            self.cube.bit_length() - 1,
            3 if self.cube_owner is None else self.cube_owner,
            self.dice_owner,
            int(self.crawford),
            int(self.game_state),
            self.turn,
            int(self.double_offered),
            int(self.resignation),
            *self.dice,
            self.match_length,
            *self.score,
            int(not self.jacoby),
        )
        key = 0
        shift = 0
        for value, width in zip(values, _MATCH_WIDTHS, strict=True):
            key |= value << shift
            shift += width
        return _encode_base64(key, 9)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair(value: object, top: int) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(_is_int(v) and 0 <= v <= top for v in value)
    )


def _encode_base64(key: int, size: int) -> str:
    return binascii.b2a_base64(key.to_bytes(size, "little"), newline=False).decode().rstrip("=")


def _decode_base64(text: str, what: str, size: int) -> int:
    """The key in ``text`` (``size`` bytes, little-endian), refusing anything but gnubg's form."""
    length = (size * 8 + 5) // 6
    if not isinstance(text, str) or len(text) != length:
        found = f"{len(text)} characters" if isinstance(text, str) else type(text).__name__
        raise InvalidPosition(f"{what} {text!r} has {found}, expected {length}")
    for index, char in enumerate(text):
        if char not in _BASE64:
            raise InvalidPosition(
                f"{what} {text!r} has {char!r} at {index}, not a base64 character"
            )
    raw = binascii.a2b_base64(text + "=" * (-len(text) % 4))
    if _encode_base64(int.from_bytes(raw, "little"), size) != text:
        raise InvalidPosition(f"{what} {text!r} ends in {text[-1]!r}, which sets unused bits")
    return int.from_bytes(raw, "little")
