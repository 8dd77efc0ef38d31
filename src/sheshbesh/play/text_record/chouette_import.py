"""Replaying a chouette text record through :class:`~..chouette_session.ChouetteSession`.

Each line someone's action makes first becomes that action
(:func:`~.chouette_lines.line_event`, then
:func:`~..chouette_replay.action_for`), with the dice of the file's roll lines
handed in; every line the session then gives (:func:`~.chouette_lines.event_lines`)
must be the file's next line, so an imported session is a checked one, its
payments and lineups included. Every refusal is a
:class:`~.common.TextRecordError` naming the line.
"""

from __future__ import annotations

import re
from typing import Any

from ..chouette_record import make_session_record
from ..chouette_replay import RecordedDice, action_for, rolled_of
from ..chouette_session import ChouetteSession, evolve_session
from .chouette_export import results_text
from .chouette_lines import event_lines, line_event, split
from .common import FORMAT, TextRecordError
from .parse import TAG

Tags = dict[str, tuple[int, str]]


def import_chouette_text(text: str) -> dict[str, Any]:
    """The record (without dice proofs) a chouette text record describes, replayed."""
    tags, lines = _read(text)
    if "Format" in tags and tags["Format"][1] != FORMAT:
        line, value = tags["Format"]
        raise TextRecordError(line, f"format {value!r} is not {FORMAT!r}")
    line, capacity = tags.get("Seats", (1, ""))
    if not capacity.isdigit():
        raise TextRecordError(line, 'a chouette record needs [Seats "3-8"]')
    try:
        session, created = ChouetteSession.create(int(capacity))
    except ValueError as error:
        raise TextRecordError(line, str(error)) from None
    session, log = _Replayer(session, lines).run()
    _check_tags(tags, session, lines[-1][0] if lines else 1)
    return make_session_record(created, log)


def _read(text: str) -> tuple[Tags, list[tuple[int, str]]]:
    """The tags and the event lines (a roll-and-play line split in two), numbered."""
    tags: Tags = {}
    lines: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = " ".join(raw.split())
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            tag = TAG.fullmatch(line)
            if tag is None:
                raise TextRecordError(number, f'a tag is [Name "value"], not {line!r}')
            if lines:
                raise TextRecordError(number, f"tag {tag[1]} after the moves")
            tags[tag[1]] = (number, re.sub(r"\\(.)", r"\1", tag[2]))
            continue
        lines += [(number, part) for part in split(line)]
    return tags, lines


class _Replayer:
    """The session driven line by line: an action where the rules wait for one, else the
    next line the last action gave, compared with the file's."""

    def __init__(self, session: ChouetteSession, lines: list[tuple[int, str]]):
        self.session = session
        self.lines = lines
        events = [e for _, line in lines if (e := line_event(line)) is not None]
        self.dice = RecordedDice([r for e in events if (r := rolled_of(e)) is not None])

    def run(self) -> tuple[ChouetteSession, list[dict[str, Any]]]:
        log: list[dict[str, Any]] = []
        made: list[str] = []
        for number, line in self.lines:
            if not made:
                events = self.act(number, line)
                made = self.lines_of(events)
                log += events
            given = made.pop(0)
            if given != line:
                raise TextRecordError(number, f"the game gives {given!r} here, not {line!r}")
        if made:
            last = self.lines[-1][0] if self.lines else 1
            raise TextRecordError(last, f"the record ends, but the game goes on with {made[0]!r}")
        return self.session, log

    def act(self, number: int, line: str) -> list[dict[str, Any]]:
        """Apply the action ``line`` stands for; the session before it is kept for
        reading the events it made."""
        event = line_event(line)
        if event is None:
            raise TextRecordError(number, f"{line!r} follows from nothing here: nobody acts"
                                          " with it and the rules do not write it")  # fmt: skip
        try:
            step = self.session.apply(action_for(event, self.session), self.dice)
        except ValueError as error:
            raise TextRecordError(number, str(error)) from None
        self.before, self.session = self.session, step.session
        if not step.events:
            raise TextRecordError(number, f"{line!r} changes nothing")
        return list(step.events)

    def lines_of(self, events: list[dict[str, Any]]) -> list[str]:
        table, out = self.before, []
        for event in events:
            out += event_lines(event, table)
            table = evolve_session(table, event)
        return out


def _check_tags(tags: Tags, session: ChouetteSession, last: int) -> None:
    """``Result`` and ``Results`` must be what the lines give (missing: not checked)."""
    line, wanted = tags.get("Result", (last, session.closed or "*"))
    if wanted != (session.closed or "*"):
        raise TextRecordError(line, f"the result is {wanted!r} but the lines give "
                                    f"{session.closed or '*'!r}")  # fmt: skip
    if "Results" in tags:
        line, wanted = tags["Results"]
        got = results_text(session.results)
        if " ".join(wanted.split()) != got:
            raise TextRecordError(line, f"the results are {wanted!r} but the payments give {got!r}")
