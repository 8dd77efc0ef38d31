"""What the race rules decide with the dice, checked against a record (PL-2).

The commitments fix every roll's dice, but a roll event also says how many dice
were rolled and what they decided: the opening's starter, White's seat and first
dice (BF-14; SN-2, CN-1, LN-3) and the rolls RB-8 ignores. None of that is in
the proof, so :class:`RaceDiceRules` follows a race or match record and names
each such field that the seed's dice contradict; ``record.verify_dice`` hands
it to :func:`~sheshbesh.play.dice.verify_events`. The browser's ``fairdice.js``
makes the same checks with the same words.

A side's first turn is read off the events (it has no ``played`` event yet in
this game), as it must be for the browser, which has no positions; RB-8's
first turn is the same, since a first turn can never be blocked completely.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheshbesh.games.race import RaceRules, find_rules

from .dice import _short
from .race import ignores, opening_of

ROLL_DICE = {"opening": 2, "rolled": 2}
"""The events that roll in a race game or a match, and how many dice each rolls."""
SIDES = {"W": "White", "B": "Black"}


class RaceDiceRules:
    """A :class:`~sheshbesh.play.dice.RollRules` for race game and match records."""

    def __init__(self) -> None:
        self.variant: object = None
        self.rules: RaceRules | None = None
        self.told = False
        """This game's unknown variant was already reported."""
        self.played: set[str] = set()
        """The sides with a ``played`` event in this game: their first turn is over."""

    def see(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind in ("created", "match_created"):
            self._new_game(event.get("variant"))
        elif kind == "game_started":
            created = event.get("created")
            self._new_game(created.get("variant") if isinstance(created, Mapping) else None)
        elif kind == "played" and isinstance(event.get("side"), str):
            self.played.add(event["side"])

    def dice_count(self, event: Mapping[str, Any]) -> int | None:
        kind = event.get("type")
        return ROLL_DICE.get(kind) if isinstance(kind, str) else None

    def problems(self, event: Mapping[str, Any], dice: tuple[int, ...]) -> list[str]:
        if self.rules is None:
            if self.told:
                return []
            self.told = True
            return [
                f"the record's variant {_short(self.variant)} is not a race variant, "
                "so the rules cannot check its rolls"
            ]
        if event.get("type") == "opening":
            return self._opening(event, dice)
        return self._rolled(event, dice)

    def _new_game(self, variant: object) -> None:
        self.variant, self.told, self.played = variant, False, set()
        try:
            self.rules = find_rules(variant) if isinstance(variant, str) else None
        except ValueError:
            self.rules = None

    def _opening(self, event: Mapping[str, Any], dice: tuple[int, ...]) -> list[str]:
        assert self.rules is not None
        decided = opening_of(self.rules, dice)
        problems = []
        starter = event.get("starter")
        if repr(starter) != repr(decided["starter"]):
            problems.append(
                f"the opening roll decides {_who(decided['starter'])} starts "
                f"but the record says {_who(starter)}"
            )
        seat, wanted = event.get("white_seat", 0), decided.get("white_seat", 0)
        if repr(seat) != repr(wanted):
            problems.append(
                f"the opening roll gives White seat {wanted} but the record says {_short(seat)}"
            )
        first = event.get("first_dice")
        if repr(first) != repr(decided["first_dice"]):
            problems.append(
                f"the opening roll gives first dice {decided['first_dice']} "
                f"but the record says {_short(first)}"
            )
        return problems

    def _rolled(self, event: Mapping[str, Any], dice: tuple[int, ...]) -> list[str]:
        assert self.rules is not None
        side = event.get("side")
        first_turn = not isinstance(side, str) or side not in self.played
        if ignores(self.rules, dice, first_turn=first_turn):
            if event.get("ignored") != "RB-8":
                return [
                    f"dice {list(dice)} are a double on a first turn, which RB-8 ignores, "
                    "but the record plays them"
                ]
        elif "ignored" in event:
            return [
                f"dice {list(dice)} are marked ignored, but only a double on a side's "
                "first turn in Russian backgammon is ignored (RB-8)"
            ]
        return []


def _who(side: object) -> str:
    if side is None:
        return "nobody"
    return SIDES[side] if isinstance(side, str) and side in SIDES else _short(side)
