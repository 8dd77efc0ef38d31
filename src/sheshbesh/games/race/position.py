"""A race-game position as an immutable value with a canonical text form.

Storage uses the absolute index A (White's own numbering, BF-3): ``points[A - 1]``
is positive for White checkers and negative for Black ones. Everything a rule
needs between turns is inside the value: checkers on the bar, Russian
backgammon's not-yet-entered checkers (``waiting``) and owed complement
(``owed``), Plakoto's pinned checkers (``pins``). Long nardy's first turn and
Jacquet's courier are read off the checkers (docs/decisions.md says why).

The text form (docs/notation.md) mirrors draughts FEN::

    W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5

side to move, then each colour's checkers as absolute points (``AxN`` for N
checkers, ``bar``, ``new`` for not yet entered, ``Ap`` for a checker pinned at A),
then ``:c5`` when a Russian backgammon complement of 5-5 is owed.

>>> p = Position.start("backgammon")
>>> p.text()
'W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5'
>>> Position.from_text("backgammon", p.text()) == p
True
>>> p.pips(Side.WHITE), p.pips(Side.BLACK)
(167, 167)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import InvalidPosition
from .outcome import Outcome
from .rules import RACE_VARIANTS, RaceRules, to_absolute, to_own
from .side import Side

if TYPE_CHECKING:
    from .moves import Play

CHECKERS = 15


def find_rules(variant: str | RaceRules) -> RaceRules:
    """The rules of a race variant by name (``"long_nardy"``) or the rules themselves."""
    if isinstance(variant, RaceRules):
        return variant
    try:
        return RACE_VARIANTS[variant]
    except KeyError:
        names = ", ".join(RACE_VARIANTS)
        raise InvalidPosition(f"unknown race variant {variant!r} (known: {names})") from None


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers, bar, pins and side to move of one race variant; compare by value."""

    rules: RaceRules
    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    waiting: tuple[int, int] = (0, 0)
    pins: tuple[int, ...] = (0,) * 24
    """+1: a White checker pinned under Black's at A; -1: a Black one under White's."""
    turn: Side = Side.WHITE
    owed: int = 0
    """RB-8: the complement die the side to move still plays four times (0: none)."""
    off: tuple[int, int] = field(init=False, compare=False, repr=False)
    """Checkers borne off per side; derived from the rest, kept because rules ask often."""

    def __post_init__(self) -> None:
        off = (CHECKERS - self._in_play(Side.WHITE), CHECKERS - self._in_play(Side.BLACK))
        object.__setattr__(self, "off", off)
        _validate(self)

    # --- construction -------------------------------------------------------------

    @classmethod
    def start(cls, variant: str | RaceRules, turn: Side = Side.WHITE) -> Position:
        """The starting position (BG-2, LN-2, PK-2, RB-2, JQ-2 …) with ``turn`` to move."""
        rules = find_rules(variant)
        layout: dict[int | str, int] = dict(rules.start)
        return cls.from_own(rules, white=layout, black=layout, turn=turn)

    @classmethod
    def from_own(
        cls,
        variant: str | RaceRules,
        *,
        white: Mapping[int | str, int],
        black: Mapping[int | str, int],
        turn: Side = Side.WHITE,
        white_pinned: Iterable[int] = (),
        black_pinned: Iterable[int] = (),
        owed: int = 0,
    ) -> Position:
        """Build from each side's *own* point numbers, the way RULES.md writes examples.

        Keys are own points 1–24, ``"bar"`` (or 25 where the game has a bar) and
        ``"new"`` (or 25 in Russian backgammon: not yet entered). Pinned checkers
        are listed by own point and are not counted in ``white``/``black``.

        >>> p = Position.from_own("long_nardy", white={24: 14, 18: 1}, black={24: 15})
        >>> p.text()
        'W:W18,24x14:B12x15'
        """
        rules = find_rules(variant)
        points = [0] * 24
        bar = [0, 0]
        waiting = [0, 0]
        pins = [0] * 24
        sides = ((Side.WHITE, white, white_pinned), (Side.BLACK, black, black_pinned))
        for side, layout, pinned in sides:
            sign = 1 if side is Side.WHITE else -1
            for key, count in layout.items():
                if count < 0:
                    raise InvalidPosition(f"negative checker count {count} on {key}")
                if key == "new" or (key == 25 and rules.starts_off_board):
                    waiting[side] += count
                elif key == "bar" or key == 25:
                    bar[side] += count
                elif isinstance(key, int) and 1 <= key <= 24:
                    a = to_absolute(rules.mapping, side is Side.BLACK, key)
                    if points[a - 1] * sign < 0:
                        raise InvalidPosition(f"point A{a} holds both colours")
                    points[a - 1] += sign * count
                else:
                    raise InvalidPosition(f"no such point {key!r}")
            for own in pinned:
                a = to_absolute(rules.mapping, side is Side.BLACK, own)
                pins[a - 1] += sign
        return cls(
            rules, tuple(points), (bar[0], bar[1]), (waiting[0], waiting[1]),
            tuple(pins), turn, owed,
        )  # fmt: skip

    @classmethod
    def from_text(cls, variant: str | RaceRules, text: str) -> Position:
        """Parse the canonical text form (ranges of tokens in any order are accepted)."""
        rules = find_rules(variant)
        fields = text.strip().split(":")
        if len(fields) not in (3, 4):
            raise InvalidPosition(
                f"position text {text!r} must look like 'W:W<checkers>:B<checkers>'"
            )
        try:
            turn = Side.from_letter(fields[0])
        except ValueError as error:
            raise InvalidPosition(f"position text {text!r}: {error}") from None
        points = [0] * 24
        bar = [0, 0]
        waiting = [0, 0]
        pins = [0] * 24
        for side, checkers in zip(Side, fields[1:3], strict=True):
            if checkers[:1].upper() != side.letter:
                raise InvalidPosition(f"field {checkers!r} should start with {side.letter}")
            sign = 1 if side is Side.WHITE else -1
            for token in filter(None, checkers[1:].split(",")):
                label, count = _split_count(token)
                if label == "bar":
                    bar[side] += count
                elif label == "new":
                    waiting[side] += count
                elif label.endswith("p"):
                    a = _absolute_point(label[:-1], token)
                    if count != 1 or pins[a - 1]:
                        raise InvalidPosition(f"{token!r}: a point pins at most one checker")
                    pins[a - 1] = sign
                else:
                    a = _absolute_point(label, token)
                    if points[a - 1] * sign < 0:
                        raise InvalidPosition(f"point A{a} holds both colours ({token!r})")
                    if points[a - 1]:
                        raise InvalidPosition(f"point A{a} is listed twice ({token!r})")
                    points[a - 1] = sign * count
        owed = 0
        if len(fields) == 4:
            owed_field = fields[3]
            if len(owed_field) != 2 or owed_field[0] != "c" or owed_field[1] not in "123456":
                raise InvalidPosition(f"unknown extra field {owed_field!r} (expected c1…c6)")
            owed = int(owed_field[1])
        return cls(
            rules, tuple(points), (bar[0], bar[1]), (waiting[0], waiting[1]),
            tuple(pins), turn, owed,
        )  # fmt: skip

    @classmethod
    def from_id(
        cls, pid: str, variant: str | RaceRules = "backgammon", turn: Side = Side.WHITE
    ) -> Position:
        """Decode a gnubg position ID (backgammon-board games); ``turn`` is on roll."""
        from .ids import from_position_id

        return from_position_id(pid, variant, turn)

    def id(self) -> str:
        """gnubg's position ID with the side to move on roll (backgammon-board games)."""
        from .ids import position_id

        return position_id(self)

    def text(self) -> str:
        """The canonical text form; ``from_text`` of it gives back an equal position."""
        tokens: dict[int, list[str]] = {1: [], -1: []}  # by sign: White's, Black's
        for side, sign in ((Side.WHITE, 1), (Side.BLACK, -1)):
            if self.bar[side]:
                tokens[sign].append(_with_count("bar", self.bar[side]))
            if self.waiting[side]:
                tokens[sign].append(_with_count("new", self.waiting[side]))
        for a, (count, pin) in enumerate(zip(self.points, self.pins, strict=True), start=1):
            if pin:  # a pinned checker before the free ones on its point
                tokens[pin].append(f"{a}p")
            if count:
                tokens[1 if count > 0 else -1].append(_with_count(str(a), abs(count)))
        fields = [self.turn.letter, "W" + ",".join(tokens[1]), "B" + ",".join(tokens[-1])]
        if self.owed:
            fields.append(f"c{self.owed}")
        return ":".join(fields)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Position.from_text({self.rules.name!r}, {self.text()!r})"

    # --- reading ------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.rules.name

    def own(self, side: Side, point: int) -> int:
        """How many of ``side``'s free checkers stand on its own point 1–24."""
        a = to_absolute(self.rules.mapping, side is Side.BLACK, point)
        count = self.points[a - 1]
        return max(0, count if side is Side.WHITE else -count)

    def pinned(self, side: Side, point: int) -> bool:
        """Whether one of ``side``'s checkers is pinned on its own point (PK-5)."""
        a = to_absolute(self.rules.mapping, side is Side.BLACK, point)
        return self.pins[a - 1] == (1 if side is Side.WHITE else -1)

    def on_board(self, side: Side) -> int:
        """Checkers of ``side`` on points, pinned ones included."""
        sign = 1 if side is Side.WHITE else -1
        free = sum(c * sign for c in self.points if c * sign > 0)
        return free + sum(1 for p in self.pins if p == sign)

    def _in_play(self, side: Side) -> int:
        return self.on_board(side) + self.bar[side] + self.waiting[side]

    def borne_off(self, side: Side) -> int:
        return self.off[side]

    def pips(self, side: Side) -> int:
        """Pip count: the sum of own point numbers, bar and unentered counting 25.

        One pass over the absolute points, numbering only the occupied ones: every
        move's state view counts both sides (it was 1–2 % of a server's time)."""
        black = side is Side.BLACK
        sign = -1 if black else 1
        mapping = self.rules.mapping
        total = 25 * (self.bar[side] + self.waiting[side])
        for a, (count, pin) in enumerate(zip(self.points, self.pins, strict=True), start=1):
            held = max(0, count * sign) + (pin == sign)
            if held:
                total += held * to_own(mapping, black, a)
        return total

    def outcome(self) -> Outcome | None:
        """The result if the game is over (BF-13, BG-8, NS-4, PK-9, RB-10), else None."""
        from .outcome import judge

        return judge(self)

    def is_first_turn(self, side: Side | None = None) -> bool:
        """Whether ``side`` (default: the side to move) has not moved yet.

        Read off the checkers: in long nardy and Jacquet all 15 still on the start,
        in Russian backgammon none entered. Both hold only before a side's first
        play, because a first turn can never be blocked completely.
        """
        side = self.turn if side is None else side
        if self.rules.starts_off_board:
            return self.waiting[side] == CHECKERS
        (start_point, _), *_ = self.rules.start
        return len(self.rules.start) == 1 and self.own(side, start_point) == CHECKERS

    # --- playing ------------------------------------------------------------------

    def legal_plays(self, dice: tuple[int, int], *, last_roll: bool = False) -> tuple[Play, ...]:
        """Every distinct legal play for ``dice`` (BF-9), in a stable order.

        An empty tuple means the dice cannot be used and the turn passes
        (:meth:`pass_turn`). ``last_roll`` asks for Black's final turn of LN-13
        after White has borne off; a finished game otherwise raises ``GameOver``.

        >>> p = Position.start("backgammon")
        >>> [play.notation() for play in p.legal_plays((3, 1))][:3]
        ['24/23 24/21', '24/20', '24/21 8/7']
        >>> len(p.legal_plays((3, 1)))
        16
        """
        from .movegen import generate

        return generate(self, dice, last_roll=last_roll)

    def pass_turn(self) -> Position:
        """The position after a roll that cannot be played: the other side is on roll."""
        return Position(
            self.rules, self.points, self.bar, self.waiting, self.pins, self.turn.other, 0
        )

    def play(self, dice: tuple[int, int], notation: str) -> Play:
        """Find the legal play that ``notation`` (``"13/7(2)"``) names for ``dice``."""
        from .notation import resolve

        return resolve(self, dice, notation)


def _split_count(token: str) -> tuple[str, int]:
    label, sep, count = token.partition("x")
    if not sep:
        return label, 1
    if not count.isdigit() or not 1 <= int(count) <= CHECKERS:
        raise InvalidPosition(f"bad checker count in {token!r}")
    return label, int(count)


def _absolute_point(label: str, token: str) -> int:
    if not label.isdigit() or not 1 <= int(label) <= 24:
        raise InvalidPosition(f"bad point {token!r}: points are 1-24, 'bar' or 'new'")
    return int(label)


def _with_count(label: str, count: int) -> str:
    return label if count == 1 else f"{label}x{count}"


def _validate(position: Position) -> None:
    """Reject anything that cannot arise in play, naming the problem."""
    rules = position.rules
    if len(position.points) != 24 or len(position.pins) != 24:
        raise InvalidPosition("a race board has 24 points")
    for side in Side:
        if position.bar[side] < 0 or position.waiting[side] < 0:
            raise InvalidPosition(f"{side.name.lower()} has a negative bar or unentered count")
        if position.bar[side] and not rules.has_bar:
            raise InvalidPosition(f"{rules.name} has no bar ({side.name.lower()} has bar checkers)")
        if position.waiting[side] and not rules.starts_off_board:
            raise InvalidPosition(f"{rules.name} has no unentered checkers")
        total = position.on_board(side) + position.bar[side] + position.waiting[side]
        if total > CHECKERS:
            raise InvalidPosition(f"{side.name.lower()} has {total} checkers; at most 15")
    for a, pin in enumerate(position.pins, start=1):
        if pin and rules.lone_checker != "pin":
            raise InvalidPosition(f"{rules.name} has no pins (A{a})")
        if pin and position.points[a - 1] * pin >= 0:
            raise InvalidPosition(f"the checker pinned at A{a} needs an opposing checker on top")
    if position.owed and not (rules.doubles_chain and 1 <= position.owed <= 6):
        raise InvalidPosition(f"{rules.name} has no owed complement (c{position.owed})")
    both_off = all(position.borne_off(side) == CHECKERS for side in Side)
    if both_off and not rules.last_roll:
        raise InvalidPosition("both sides have borne off every checker")


__all__ = ["CHECKERS", "Position", "find_rules", "to_own"]
