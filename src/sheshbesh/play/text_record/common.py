"""What both directions of the text format share: its name, its error, and how an event reads.

:func:`event_line` is the one place an event becomes a line: :mod:`.export`
writes records with it, and :mod:`.import_` uses it to show the reader what the
replayed game did instead of what the file says, so the two cannot disagree.
"""

from __future__ import annotations

from typing import Any

from ..errors import PlayError
from ..race import Event

FORMAT = "sheshbesh-text/1"
SILENT = ("step", "undo", "finished")
"""Events with no line: steps and undos are not records of play, the result is a tag."""


class TextRecordError(PlayError):
    """A text record that cannot be read or does not replay; names the line."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


def event_line(event: Event, number: int) -> str:
    """The line of one event; *number* is the move number a roll line starts with."""
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


def result_text(result: dict[str, Any] | None) -> str:
    """The ``Result`` tag's value: ``*`` (not over), ``draw``, or the winner and points."""
    if result is None:
        return "*"
    if result["winner"] is None:
        return "draw"
    return f"{result['winner']} {result['points']}"
