"""Our text format for race games: a line-oriented record people can read and replay.

gnubg's ``.mat`` covers backgammon and takhte nard (:mod:`.mat`), PDN covers
draughts; this format covers every race variant (long, Caucasian and short nardy,
Plakoto, Russian backgammon, Jacquet...). docs/record-format.md is its grammar.
Tag lines first, then one line per event, in order::

    [Variant "long_nardy"]
    [Result "W 1"]

    opening 5-3 W
    1. W 53: 24/16
    1. B 62: 24/18 24/22

The JSON record stays the source of truth and the only one with dice proofs; a
text record keeps the dice and the confirmed plays (never steps or undos), and
:func:`import_text` replays it through :class:`~.race.RaceGame`, so an imported
record is a checked one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sheshbesh.games.race import Position, Side, find_rules

from . import actions as act
from .errors import PlayError
from .options import RaceOptions
from .race import Event, RaceGame
from .record import make_record

FORMAT = "sheshbesh-text/1"
SILENT = ("step", "undo", "finished")
"""Events with no line: steps and undos are not records of play, the result is a tag."""


class TextRecordError(PlayError):
    """A text record that cannot be read or does not replay; names the line."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


# --- export ---------------------------------------------------------------------------


def export_text(
    record: dict[str, Any], *, white: str = "White", black: str = "Black", date: str | None = None
) -> str:
    """The text form of a race-game record (see docs/record-format.md)."""
    if record.get("game") != "race":
        raise ValueError(f"the text format holds race games, not {record.get('game')!r}")
    created = record["created"]
    events = [e for e in record["events"] if e["type"] not in SILENT]
    results = [e["result"] for e in record["events"] if e["type"] == "finished"]
    result = results[-1] if results else None
    rules = find_rules(created["variant"])
    options = " ".join(f"{k}={_option_text(v)}" for k, v in created["options"].items())
    tags = [("Format", FORMAT), ("Variant", rules.name), ("White", white), ("Black", black)]
    if date is not None:
        tags.append(("Date", date))
    tags += [("Options", options), ("Result", _result_text(result))]
    if result is not None:
        tags.append(("Reason", result["reason"]))
    tags.append(("Start", Position.start(rules).text()))
    lines = [f'[{key} "{_quote(value)}"]' for key, value in tags]
    return "\n".join([*lines, "", *_body(events)]) + "\n"


def _body(events: list[Event]) -> list[str]:
    lines: list[str] = []
    turns, mover = 0, None
    i = 0
    while i < len(events):
        event = events[i]
        after = events[i + 1] if i + 1 < len(events) else None
        kind = event["type"]
        side = event.get("starter") if kind == "opening" and event.get("first_dice") else None
        side = event["side"] if kind == "rolled" else side
        if side is not None and side != mover:
            turns, mover = turns + 1, side
        line = _line(event, (turns + 1) // 2)
        if kind in ("opening", "rolled", "complement") and _opens_turn(event):
            if after is not None and after["type"] in ("played", "passed"):
                line += ": " + (after["play"] if after["type"] == "played" else "pass")
                event, i = after, i + 1
                after = events[i + 1] if i + 1 < len(events) else None
        elif kind == "rolled" and event.get("ignored"):
            line += ": ignored"
        lines.append(line)
        i += 1
    return lines


def _opens_turn(event: Event) -> bool:
    """Whether a play follows this event (a tie or a bare opening roll has none)."""
    if event["type"] == "opening":
        return bool(event.get("first_dice"))
    return not event.get("ignored")


def _line(event: Event, number: int) -> str:
    kind = event["type"]
    side = event.get("side", "")
    if kind == "opening":
        first, second = event["dice"]
        starter = f" {event['starter']}" if event["starter"] else ""
        return f"opening {first}-{second}{starter}"
    if kind == "rolled":
        return f"{number}. {side} {''.join(map(str, event['dice']))}"
    if kind == "complement":
        return f"{side} complement {event['owed']}{event['owed']}"
    simple = {
        "auto_double": f"auto double {event.get('cube')}",
        "played": f"{side} plays {event.get('play')}",
        "passed": f"{side} passes",
        "last_roll": f"last roll {side}",
        "doubled": f"{side} doubles {event.get('cube')}",
        "taken": f"{side} takes",
        "beavered": f"{side} beavers",
        "beaver_taken": f"{side} takes beaver",
        "dropped": f"{side} drops",
        "resign_offered": f"{side} resigns {event.get('level')}",
        "resign_accepted": f"{side} accepts",
        "resign_declined": f"{side} declines",
        "timeout": f"{side} times out",
    }
    if kind not in simple:
        raise ValueError(f"unknown event type {kind!r}")
    return simple[kind]


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _result_text(result: dict[str, Any] | None) -> str:
    if result is None:
        return "*"
    if result["winner"] is None:
        return "draw"
    return f"{result['winner']} {result['points']}"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# --- reading lines --------------------------------------------------------------------

TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
NUMBER = r"(?:\d+\.\s*)?"
PLAY = r"(?::\s*(?P<play>.*?))?"
LINES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern + r"\s*"))
    for kind, pattern in (
        ("opening", rf"opening (?P<d1>[1-6])-(?P<d2>[1-6])(?: (?P<side>[WB]))?{PLAY}"),
        ("auto_double", r"auto double (?P<value>\d+)"),
        ("rolled", rf"{NUMBER}(?P<side>[WB]) (?P<d1>[1-6])(?P<d2>[1-6]){PLAY}"),
        ("complement", rf"(?P<side>[WB]) complement (?P<d1>[1-6])(?P<d2>[1-6]){PLAY}"),
        ("played", r"(?P<side>[WB]) plays (?P<play>\S.*?)"),
        ("passed", r"(?P<side>[WB]) passes"),
        ("last_roll", r"last roll (?P<side>[WB])"),
        ("doubled", r"(?P<side>[WB]) doubles (?P<value>\d+)"),
        ("beaver_taken", r"(?P<side>[WB]) takes beaver"),
        ("taken", r"(?P<side>[WB]) takes"),
        ("beavered", r"(?P<side>[WB]) beavers"),
        ("dropped", r"(?P<side>[WB]) drops"),
        ("resign_offered", r"(?P<side>[WB]) resigns (?P<value>\d+)"),
        ("resign_accepted", r"(?P<side>[WB]) accepts"),
        ("resign_declined", r"(?P<side>[WB]) declines"),
        ("timeout", r"(?P<side>[WB]) times out"),
    )
)


@dataclass(frozen=True, slots=True)
class _Expect:
    """One event a line stands for: its type and the fields it must carry."""

    line: int
    type: str
    side: str | None = None
    dice: tuple[int, int] | None = None
    value: int | None = None
    play: str | None = None
    ignored: bool = False

    def describe(self) -> str:
        return self.type.replace("_", " ")


def _parse(text: str) -> tuple[dict[str, tuple[int, str]], list[_Expect]]:
    tags: dict[str, tuple[int, str]] = {}
    expects: list[_Expect] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            tag = TAG.fullmatch(line)
            if tag is None:
                raise TextRecordError(number, f'a tag is [Name "value"], not {line!r}')
            if expects:
                raise TextRecordError(number, f"tag {tag[1]} after the moves")
            tags[tag[1]] = (number, re.sub(r"\\(.)", r"\1", tag[2]))
            continue
        expects += _line_events(number, line)
    return tags, expects


def _line_events(number: int, line: str) -> list[_Expect]:
    for kind, pattern in LINES:
        match = pattern.fullmatch(line)
        if match is None:
            continue
        found = match.groupdict()
        side = found.get("side")
        dice = (int(found["d1"]), int(found["d2"])) if found.get("d1") else None
        value = int(found["value"]) if found.get("value") else None
        play = found.get("play")
        if kind == "played":
            return [_Expect(number, kind, side, play=play)]
        if kind not in ("opening", "rolled", "complement"):
            return [_Expect(number, kind, side, dice, value)]
        if kind == "complement" and dice is not None and dice[0] != dice[1]:
            raise TextRecordError(number, f"a complement is a double, not {dice[0]}{dice[1]}")
        ignored = play == "ignored"
        first = _Expect(number, kind, side, dice, ignored=ignored)
        if play is None or ignored:
            return [first]
        if kind == "opening" and side is None:
            raise TextRecordError(number, "a tied opening roll has no play")
        if play == "pass":
            return [first, _Expect(number, "passed", side)]
        if not play:
            raise TextRecordError(number, "a play or 'pass' must follow the colon")
        return [first, _Expect(number, "played", side, play=play)]
    raise TextRecordError(number, f"cannot read {line!r}")


# --- import ---------------------------------------------------------------------------


def import_text(text: str) -> dict[str, Any]:
    """The record (without dice proofs) a text record describes, replayed and checked."""
    tags, expects = _parse(text)
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
    got = _result_text(None if result is None else result.to_json())
    if wanted != got:
        raise TextRecordError(line, f"the result is {wanted!r} but the moves give {got!r}")
    if "Reason" in tags and result is not None and tags["Reason"][1] != result.reason:
        line, reason = tags["Reason"]
        raise TextRecordError(
            line, f"the reason is {reason!r} but the moves give {result.reason!r}"
        )


class _Dice:
    """Hands out the dice of the record's roll lines in order (no proofs)."""

    def __init__(self, lines: list[_Expect]):
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

    def expect(self, expect: _Expect) -> None:
        self.dice.line = expect.line
        if not self.pending:
            if self.game.finished:
                raise TextRecordError(expect.line, f"the game is over: no {expect.describe()}")
            self.apply(expect, self.action(expect))
        if not self.pending:
            raise TextRecordError(expect.line, f"no {expect.describe()} happens here")
        self.check(expect, self.pending.pop(0))

    def action(self, expect: _Expect) -> act.Action:
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

    def apply(self, expect: _Expect, action: act.Action) -> None:
        try:
            step = self.game.apply(action, self.dice)
        except TextRecordError:
            raise
        except ValueError as error:
            raise TextRecordError(expect.line, str(error)) from None
        self.game = step.game
        self.log += step.events
        self.pending += [e for e in step.events if e["type"] not in SILENT]

    def check(self, expect: _Expect, event: Event) -> None:
        problem = _mismatch(expect, event)
        if problem:
            raise TextRecordError(expect.line, problem)

    def finish(self, last: int) -> None:
        if self.pending:
            missing = _line(self.pending[0], 0)
            raise TextRecordError(last, f"the record ends, but the game goes on with {missing!r}")


def _mismatch(expect: _Expect, event: Event) -> str | None:
    """What differs between a line and the event the game made there (None: they agree)."""
    got = _line(event, 0)
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
