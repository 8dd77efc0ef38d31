"""Replaying a text record through :class:`~sheshbesh.play.race.RaceGame`, line by line.

Each :class:`~.parse.Expect` becomes the action the game would take, with the
record's dice handed in; the events the game makes are compared with the lines
(:func:`_mismatch`), so an imported record is a checked one. Every refusal is a
:class:`~.common.TextRecordError` naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sheshbesh.games.race import Side, find_rules

from .. import actions as act
from ..errors import PlayError
from ..options import RaceOptions
from ..race import Event, RaceGame
from ..record import make_record
from .common import FORMAT, SILENT, TextRecordError, event_line, result_text
from .parse import Expect, parse_text

CHOUETTE_TAG = re.compile(r'^\s*\[Game\s+"chouette"\]', re.MULTILINE)


def import_text(text: str) -> dict[str, Any]:
    """The record (without dice proofs) a text record describes, replayed and checked;
    a chouette session's (``[Game "chouette"]``) by :mod:`.chouette_import`."""
    if CHOUETTE_TAG.search(text):
        from .chouette_import import import_chouette_text

        return import_chouette_text(text)
    tags, expects = parse_text(text)
    created, game = _create(tags)
    dice = _Dice([e for e in expects if e.type in ("opening", "rolled")])
    replayer = _Replayer(game, dice)
    for expect in expects:
        replayer.expect(expect)
    last = expects[-1].line if expects else 1
    replayer.finish(last)
    _check_result(tags, replayer.game, last)
    return make_record(created, replayer.log)


def _create(tags: dict[str, tuple[int, str]]) -> tuple[Event, RaceGame]:
    if "Format" in tags and tags["Format"][1] != FORMAT:
        line, value = tags["Format"]
        raise TextRecordError(line, f"format {value!r} is not {FORMAT!r}")
    if "Variant" not in tags:
        raise TextRecordError(1, 'the [Variant "..."] tag is missing')
    line, variant = tags["Variant"]
    try:
        rules = find_rules(variant)
    except (KeyError, ValueError) as error:
        raise TextRecordError(line, f"unknown variant {variant!r} ({error})") from None
    chosen = RaceOptions.defaults(rules).to_json()
    if "Options" in tags:
        line, value = tags["Options"]
        for item in value.split():
            key, _, text = item.partition("=")
            if key not in chosen or not text:
                raise TextRecordError(line, f"unknown option {item!r}")
            chosen[key] = _option_value(line, chosen[key], key, text)
    try:
        game, created = RaceGame.create(rules.name, RaceOptions(**chosen))
    except PlayError as error:
        raise TextRecordError(tags.get("Options", (line, ""))[0], str(error)) from None
    if "Start" in tags and tags["Start"][1] != game.position.text():
        raise TextRecordError(tags["Start"][0], f"{rules.name} starts from {game.position.text()}")
    return created, game


def _option_value(line: int, default: Any, key: str, text: str) -> Any:
    if isinstance(default, bool):
        if text not in ("0", "1"):
            raise TextRecordError(line, f"option {key} is 0 or 1, not {text!r}")
        return text == "1"
    if isinstance(default, int):
        if not text.isdigit():
            raise TextRecordError(line, f"option {key} is a number, not {text!r}")
        return int(text)
    return text


def _check_result(tags: dict[str, tuple[int, str]], game: RaceGame, last: int) -> None:
    line, wanted = tags.get("Result", (last, "*"))
    result = game.result
    got = result_text(None if result is None else result.to_json())
    if wanted != got:
        raise TextRecordError(line, f"the result is {wanted!r} but the moves give {got!r}")
    if "Reason" in tags and result is not None and tags["Reason"][1] != result.reason:
        line, reason = tags["Reason"]
        raise TextRecordError(
            line, f"the reason is {reason!r} but the moves give {result.reason!r}"
        )


class _Dice:
    """Hands out the dice of the record's roll lines in order (no proofs)."""

    def __init__(self, lines: list[Expect]):
        self.lines = lines
        self.at = 0
        self.line = 1

    def roll(self, nonce: str | None, count: int) -> act.Rolled:
        if self.at >= len(self.lines):
            raise TextRecordError(self.line, "the game needs another roll and the record has none")
        dice = self.lines[self.at].dice
        assert dice is not None
        self.at += 1
        return act.Rolled(dice)


@dataclass
class _Replayer:
    """Drives the game with the action each line asks for; checks automatic events."""

    game: RaceGame
    dice: _Dice
    log: list[Event] = field(default_factory=list)
    pending: list[Event] = field(default_factory=list)

    def expect(self, expect: Expect) -> None:
        self.dice.line = expect.line
        if not self.pending:
            if self.game.finished:
                raise TextRecordError(expect.line, f"the game is over: no {expect.describe()}")
            self.apply(expect, self.action(expect))
        if not self.pending:
            raise TextRecordError(expect.line, f"no {expect.describe()} happens here")
        self.check(expect, self.pending.pop(0))

    def action(self, expect: Expect) -> act.Action:
        side = Side.from_letter(expect.side) if expect.side else Side.WHITE
        kind = expect.type
        if kind == "opening":
            return act.Start()
        if kind == "rolled":
            return act.Roll(side)
        if kind == "played":
            assert expect.play is not None
            return act.PlayText(side, expect.play)
        if kind in ("taken", "beaver_taken"):
            return act.Take(side)
        if kind == "resign_offered":
            return act.Resign(side, expect.value or 0)
        simple: dict[str, type[act.Double | act.Drop | act.Beaver | act.Timeout]] = {
            "doubled": act.Double,
            "dropped": act.Drop,
            "beavered": act.Beaver,
            "timeout": act.Timeout,
        }
        if kind in simple:
            return simple[kind](side)
        if kind == "resign_accepted":
            return act.AcceptResign(side)
        if kind == "resign_declined":
            return act.DeclineResign(side)
        raise TextRecordError(
            expect.line, f"{expect.describe()} does not follow from the game here"
        )

    def apply(self, expect: Expect, action: act.Action) -> None:
        try:
            step = self.game.apply(action, self.dice)
        except TextRecordError:
            raise
        except ValueError as error:
            raise TextRecordError(expect.line, str(error)) from None
        self.game = step.game
        self.log += step.events
        self.pending += [e for e in step.events if e["type"] not in SILENT]

    def check(self, expect: Expect, event: Event) -> None:
        problem = _mismatch(expect, event)
        if problem:
            raise TextRecordError(expect.line, problem)

    def finish(self, last: int) -> None:
        if self.pending:
            missing = event_line(self.pending[0], 0)
            raise TextRecordError(last, f"the record ends, but the game goes on with {missing!r}")


def _mismatch(expect: Expect, event: Event) -> str | None:
    """What differs between a line and the event the game made there (None: they agree)."""
    got = event_line(event, 0)
    if event["type"] != expect.type:
        return f"the game gives {got!r} here, not {expect.describe()}"
    if expect.side is not None and event.get("side", event.get("starter")) != expect.side:
        return f"the game gives {got!r} here (another side)"
    if expect.type == "opening" and expect.side is None and event["starter"] is not None:
        return f"the opening roll is not a tie: the game gives {got!r}"
    dice = expect.dice
    if dice is not None and expect.type != "complement" and tuple(event["dice"]) != dice:
        return f"the game gives {got!r} here"
    if expect.type == "complement" and expect.dice is not None and event["owed"] != expect.dice[0]:
        return f"the game owes {event['owed']}{event['owed']}, not {expect.dice[0]}{expect.dice[1]}"
    if expect.type == "rolled" and bool(event.get("ignored")) != expect.ignored:
        return f"this roll is {'ignored' if event.get('ignored') else 'played'} (RB-8)"
    if expect.value is not None and "cube" in event and event["cube"] != expect.value:
        return f"the cube goes to {event['cube']}, not {expect.value}"
    if expect.value is not None and "level" in event and event["level"] != expect.value:
        return f"the offer is at level {event['level']}, not {expect.value}"
    if expect.type == "played" and event.get("auto") and event["play"] != expect.play:
        return f"the only legal play is {event['play']!r}, not {expect.play!r}"
    return None
