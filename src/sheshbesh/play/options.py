"""Table options of a race game (GEN-3: chosen when the request is made).

Defaults follow RULES.md: backgammon's optional rules are off (BG-15 … BG-17),
takhte nard switches them on (TN-2), nardy tables pick Oin or Mars (NS-1),
long nardy may grant Black a last roll (LN-13).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from sheshbesh.games.race import RaceRules, find_rules

from .errors import InvalidOptions

StakeMode = Literal["oin", "mars"]
NARDY = ("short_nardy", "caucasian_nardy", "long_nardy")


@dataclass(frozen=True, slots=True)
class RaceOptions:
    """What a table chose; :meth:`check` rejects combinations RULES.md does not allow."""

    cube: bool = False
    beavers: bool = False
    jacoby: bool = False
    auto_doubles: int = 0
    """BG-15: the most automatic doubles per game (0: off)."""
    auto_play_forced: bool = True
    """BF-10: play the only legal play without asking."""
    stake_mode: StakeMode = "oin"
    last_roll: bool = False
    match_length: int = 0
    """BG-18: 0 is money play."""
    crawford: bool = False
    """BG-19: this game of a match is the Crawford game (no cube)."""

    @classmethod
    def defaults(cls, variant: str | RaceRules, **chosen: Any) -> RaceOptions:
        """The variant's default options, with ``chosen`` ones replaced, checked."""
        rules = find_rules(variant)
        base: dict[str, Any] = {"cube": rules.cube}
        if rules.name == "takhte_nard":
            base.update(beavers=True, jacoby=True, auto_doubles=1)
        base.update(chosen)
        if base.get("match_length"):
            base.update(
                {k: v for k, v in (("beavers", False), ("jacoby", False), ("auto_doubles", 0))
                 if k not in chosen}
            )  # fmt: skip
        try:
            options = cls(**base)
        except TypeError as error:
            raise InvalidOptions(f"unknown option: {error}") from None
        return options.check(rules)

    def check(self, rules: RaceRules) -> RaceOptions:
        """Raise :class:`InvalidOptions` naming the first option the game cannot have."""
        if self.cube and not rules.cube:
            raise InvalidOptions(f"{rules.name} is played without a doubling cube (NS-1)")
        if not self.cube and (self.beavers or self.auto_doubles or self.jacoby):
            raise InvalidOptions("beavers, Jacoby and automatic doubles need the cube")
        if not 0 <= self.auto_doubles <= 3:
            raise InvalidOptions(f"max automatic doubles is 1-3, not {self.auto_doubles} (BG-15)")
        if not 0 <= self.match_length <= 25:
            raise InvalidOptions(f"match length is 1-25 points, not {self.match_length} (BG-18)")
        if self.match_length and not rules.cube:
            raise InvalidOptions(f"{rules.name} has no matches: single games only (NS-1)")
        if self.match_length and (self.beavers or self.jacoby or self.auto_doubles):
            raise InvalidOptions("matches have no beavers, Jacoby or automatic doubles (BG-18)")
        if self.crawford and not self.match_length:
            raise InvalidOptions("the Crawford rule belongs to matches (BG-19)")
        if self.stake_mode not in ("oin", "mars"):
            raise InvalidOptions(f"stake mode is 'oin' or 'mars', not {self.stake_mode!r}")
        if self.stake_mode == "mars" and rules.name not in NARDY:
            raise InvalidOptions(f"Mars stakes are for nardy tables, not {rules.name} (NS-1)")
        if self.last_roll and not rules.last_roll:
            raise InvalidOptions(f"the last roll is a long nardy option, not {rules.name} (LN-13)")
        return self

    def to_json(self) -> dict[str, Any]:
        # Every field is a scalar: no deep copy (asdict's) for a view sent every move.
        return {f.name: getattr(self, f.name) for f in fields(self)}
