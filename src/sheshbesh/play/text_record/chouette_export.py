"""Writing a chouette session's record as text: tags, then the session line by line.

The record is checked first (:func:`~..chouette_record.session_of`: seq, money,
rules), so a text file is only ever written from a log the rules made. Each
event then reads as :func:`~.chouette_lines.event_lines` says, in the light of
the table just before it; a blank line opens each game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..chouette_record import session_of
from ..chouette_session import evolve_session, from_session_created
from .chouette_lines import event_lines, joined
from .common import FORMAT


def export_chouette_text(
    record: dict[str, Any], *, seats: Sequence[str] = (), date: str | None = None
) -> str:
    """The text form of a chouette record; ``seats`` names the seats in order."""
    session = session_of(record)
    table = from_session_created(record["created"])
    lines: list[str] = []
    for event in record["events"]:
        if event["type"] == "game_started":
            lines.append("")
        lines += event_lines(event, table)
        table = evolve_session(table, event)
    tags = [("Format", FORMAT), ("Game", "chouette"), ("Seats", str(session.capacity))]
    tags += [(f"Seat{number}", name) for number, name in enumerate(seats)]
    if date is not None:
        tags.append(("Date", date))
    tags += [("Result", session.closed or "*"), ("Results", results_text(session.results))]
    head = [f'[{key} "{_quote(value)}"]' for key, value in tags]
    return "\n".join([*head, "", *joined(lines)]) + "\n"


def results_text(results: Sequence[tuple[int, int]]) -> str:
    """Each seat's running result in stakes: ``0 +3, 1 -4, 2 +1``."""
    return ", ".join(f"{seat} {amount:+d}" for seat, amount in results)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
