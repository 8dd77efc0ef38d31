"""Reading the lines of a text record: its tags, and the events each move line stands for.

Lexical only: each line is matched against :data:`LINES` and becomes one or two
:class:`Expect` (a roll and its play share a line). Whether the game agrees is
for :mod:`.import_` to find out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import TextRecordError

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
class Expect:
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


def parse_text(text: str) -> tuple[dict[str, tuple[int, str]], list[Expect]]:
    """The tags (each with its line number) and the events the move lines stand for."""
    tags: dict[str, tuple[int, str]] = {}
    expects: list[Expect] = []
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


def _line_events(number: int, line: str) -> list[Expect]:
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
            return [Expect(number, kind, side, play=play)]
        if kind not in ("opening", "rolled", "complement"):
            return [Expect(number, kind, side, dice, value)]
        if kind == "complement" and dice is not None and dice[0] != dice[1]:
            raise TextRecordError(number, f"a complement is a double, not {dice[0]}{dice[1]}")
        ignored = play == "ignored"
        first = Expect(number, kind, side, dice, ignored=ignored)
        if play is None or ignored:
            return [first]
        if kind == "opening" and side is None:
            raise TextRecordError(number, "a tied opening roll has no play")
        if play == "pass":
            return [first, Expect(number, "passed", side)]
        if not play:
            raise TextRecordError(number, "a play or 'pass' must follow the colon")
        return [first, Expect(number, "played", side, play=play)]
    raise TextRecordError(number, f"cannot read {line!r}")
