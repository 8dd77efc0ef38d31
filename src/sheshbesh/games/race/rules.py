"""The eight race variants as data: what differs between them, and nothing else.

The move generator reads these fields; a variant needs code of its own only where
data cannot say it (Plakoto's mother checker, Jacquet's courier, Russian
backgammon's doubles chain), and those hooks are switched on here by a flag.

Points are in the mover's *own* numbering (BF-2): 24 is the first point of the
route, 1 the last, 25 the bar or "not yet entered", 0 borne off. ``mapping`` says
how Black's own numbers translate to the absolute index A used for storage (BF-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Mapping = Literal["opposite", "diagonal", "shared"]
LoneChecker = Literal["hit", "pin", "block"]
PrimeRule = Literal["none", "unless_passed", "unless_home_anchor"]


@dataclass(frozen=True, slots=True)
class RaceRules:
    """Rule parameters of one backgammon-family variant (RULES.md §1–§9)."""

    name: str
    code: str
    mapping: Mapping
    lone_checker: LoneChecker
    start: tuple[tuple[int, int], ...]
    """(own point, checkers) for each side at the start; 25 means not yet entered (RB)."""
    opening: Literal["U", "F"]
    """BF-14: U plays the opening dice, F rolls both dice fresh."""
    levels: tuple[int, ...]
    """Result levels this game knows: (1, 2) or (1, 2, 3) (BF-13)."""
    resign_levels: tuple[int, ...]
    cube: bool = False
    head_rule: bool = False
    """LN-5/LN-6: one checker off the head per turn, two on 6-6/4-4/3-3 in the first turn."""
    prime_rule: PrimeRule = "none"
    """LN-7 / JQ-6: the six-point run, and which exception lifts it."""
    courier: bool = False
    """JQ-5: the first checker off the start must reach home before any other moves."""
    no_cover_after_home_hit: bool = False
    """CN-2: after hitting a blot in one's home, no other checker may land on that point."""
    enter_two_first: bool = False
    """RB-5: until two checkers have entered, every step enters one."""
    doubles_chain: bool = False
    """RB-8: a full double earns the complement, a full complement earns a new roll."""
    mother_rule: bool = False
    """PK-9: a pinned mother checker ends the game."""
    last_roll: bool = False
    """LN-13 (a table option): Black may play one final turn after White finishes."""

    @property
    def has_bar(self) -> bool:
        """Games where a hit checker goes to the bar (BF-11)."""
        return self.lone_checker == "hit"

    @property
    def backgammon_level(self) -> bool:
        return 3 in self.levels

    @property
    def starts_off_board(self) -> bool:
        """RB-2: checkers start outside the board and enter like bar checkers."""
        return self.start == ((25, 15),)


_BACKGAMMON_START = ((24, 2), (13, 5), (8, 3), (6, 5))

BACKGAMMON = RaceRules(
    name="backgammon",
    code="BG",
    mapping="opposite",
    lone_checker="hit",
    start=_BACKGAMMON_START,
    opening="U",
    levels=(1, 2, 3),
    resign_levels=(1, 2, 3),
    cube=True,
)
SHORT_NARDY = RaceRules(
    name="short_nardy",
    code="SN",
    mapping="opposite",
    lone_checker="hit",
    start=_BACKGAMMON_START,
    opening="U",
    levels=(1, 2),
    resign_levels=(1, 2),
)
TAKHTE_NARD = RaceRules(
    name="takhte_nard",
    code="TN",
    mapping="opposite",
    lone_checker="hit",
    start=_BACKGAMMON_START,
    opening="U",
    levels=(1, 2, 3),
    resign_levels=(1, 2, 3),
    cube=True,
)
LONG_NARDY = RaceRules(
    name="long_nardy",
    code="LN",
    mapping="diagonal",
    lone_checker="block",
    start=((24, 15),),
    opening="F",
    levels=(1, 2),
    resign_levels=(1, 2),
    head_rule=True,
    prime_rule="unless_passed",
    last_roll=True,
)
CAUCASIAN_NARDY = RaceRules(
    name="caucasian_nardy",
    code="CN",
    mapping="opposite",
    lone_checker="hit",
    start=_BACKGAMMON_START,
    opening="U",
    levels=(1, 2),
    resign_levels=(1, 2),
    no_cover_after_home_hit=True,
)
PLAKOTO = RaceRules(
    name="plakoto",
    code="PK",
    mapping="opposite",
    lone_checker="pin",
    start=((24, 15),),
    opening="F",
    levels=(1, 2),
    resign_levels=(1, 2),
    mother_rule=True,
)
RUSSIAN_BACKGAMMON = RaceRules(
    name="russian_backgammon",
    code="RB",
    mapping="shared",
    lone_checker="hit",
    start=((25, 15),),
    opening="U",
    levels=(1, 2, 3),
    resign_levels=(1, 2, 3),
    enter_two_first=True,
    doubles_chain=True,
)
JACQUET = RaceRules(
    name="jacquet",
    code="JQ",
    mapping="diagonal",
    lone_checker="block",
    start=((24, 15),),
    opening="F",
    levels=(1, 2),
    resign_levels=(1, 2),
    prime_rule="unless_home_anchor",
    courier=True,
)

RACE_VARIANTS: dict[str, RaceRules] = {
    rules.name: rules
    for rules in (
        BACKGAMMON,
        SHORT_NARDY,
        TAKHTE_NARD,
        LONG_NARDY,
        CAUCASIAN_NARDY,
        PLAKOTO,
        RUSSIAN_BACKGAMMON,
        JACQUET,
    )
}


def to_absolute(mapping: Mapping, black: bool, own: int) -> int:
    """Absolute index A (White's own number) of a side's own point 1–24 (BF-3).

    >>> to_absolute("opposite", True, 24), to_absolute("diagonal", True, 24)
    (1, 12)
    >>> to_absolute("diagonal", True, 12), to_absolute("shared", True, 7)
    (24, 7)
    """
    if not black or mapping == "shared":
        return own
    if mapping == "opposite":
        return 25 - own
    return own + 12 if own <= 12 else own - 12


def to_own(mapping: Mapping, black: bool, absolute: int) -> int:
    """Inverse of :func:`to_absolute`: a side's own number of absolute point A."""
    if not black or mapping == "shared":
        return absolute
    if mapping == "opposite":
        return 25 - absolute
    return absolute + 12 if absolute <= 12 else absolute - 12
