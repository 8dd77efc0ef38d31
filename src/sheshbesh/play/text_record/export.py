"""Writing a race-game record as text: the tag lines, then one line per event.

Plays are joined to the roll before them (``1. W 53: 24/16``); steps, undos
and the ``finished`` event get no line (:data:`~.common.SILENT`), the result is
the ``Result`` and ``Reason`` tags. Reading the text back is :mod:`.import_`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheshbesh.games.race import Position, find_rules

from ..race import Event
from .common import FORMAT, SILENT, event_line, result_text


def export_text(
    record: dict[str, Any],
    *,
    white: str = "White",
    black: str = "Black",
    date: str | None = None,
    seats: Sequence[str] = (),
) -> str:
    """The text form of a race-game record, or of a chouette session's (whose ``seats``
    are named in order; see docs/record-format.md)."""
    if record.get("game") == "chouette":
        from .chouette_export import export_chouette_text

        return export_chouette_text(record, seats=seats, date=date)
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
    tags += [("Options", options), ("Result", result_text(result))]
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
        line = event_line(event, (turns + 1) // 2)
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


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
