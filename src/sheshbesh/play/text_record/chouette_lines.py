"""How a chouette session's events read as lines, and what an action's line stands for.

:func:`event_lines` is the one place an event becomes lines: the export writes
them, and the import replays the session and compares the lines each event
gives with the file's, so the two directions cannot disagree. An event reads in
the light of the table just before it (the cube a take turns, who pays a drop).
:func:`line_event` goes the other way for the lines an action makes first:
it gives the event with just the fields :func:`~..chouette_replay.action_for`
reads, and the dice of a roll line.

The board is the one game of backgammon: ``W`` is the banker, ``B`` the captain,
and its lines are the race format's, without move numbers (a captain may change
in the middle of a turn). A roll and the play that follows it share a line
(:func:`joined`, :func:`split`).
"""

from __future__ import annotations

import re
from typing import Any

from ..chouette import Phase
from ..chouette_session import ChouetteSession

Event = dict[str, Any]
ROLL = r"(?:opening [1-6]-[1-6] (?P<opener>[WB])|(?P<roller>[WB]) [1-6][1-6])"
JOINED = re.compile(rf"(?P<roll>{ROLL}): (?P<play>\S.*)")
ROLL_ALONE = re.compile(ROLL)
SILENT_BOARD = ("step", "undo", "finished")
"""Board events with no line: the confirmed play is written, the settlement ends the game."""


def seats_text(seats: Any) -> str:
    return " ".join(str(seat) for seat in seats)


def lineup_text(event: Event) -> str:
    return f"banker {event['banker']}, crew {seats_text(event['rotation'])}"


def event_lines(event: Event, before: ChouetteSession) -> list[str]:
    """The lines of one event of the session's log (none for the silent ones)."""
    kind = event["type"]
    line = _session_line(event)
    if line is not None or kind == "chouette_created":
        return [line] if line is not None else []
    game = before.game
    assert game is not None
    member: Any = event.get("cube")
    if kind == "board":
        return _board_line(event["e"])
    if kind in ("cube_taken", "cube_dropped"):
        word = "takes" if kind == "cube_taken" else "drops"
        value = game.cube_of(member).value
        banker = game.phase is Phase.BANKER_ANSWERS
        who = f"banker {word} {member}" if banker else f"{member} {word}"
        return [f"{who}, cube {2 * value}" if kind == "cube_taken" else f"{who}, pays {value}"]
    if kind in ("answers_in", "captain_replaced"):
        changed = tuple(event["rotation"]) != game.lineup.rotation
        return [f"crew now {seats_text(event['rotation'])}"] if changed else []
    if kind == "finished":
        members = ", ".join(f"{s} {a:+d}" for s, a in event["paid"] if s != game.banker)
        said = f"{event['winner']} wins ({event['reason']})" + (f": {members}" if members else "")
        return [said, f"next: {lineup_text(event['next'])}"]
    if kind == "banker_doubled":
        return [f"banker doubles {seats_text(event['cubes'])}"]
    if kind == "double_called":
        return [f"{event['seat']} doubles"]
    if kind == "crew_doubled":
        rolls = ", the captain rolls" if event["roll_after"] else ""
        return [f"crew doubles {seats_text(event['cubes'])}{rolls}"]
    if kind == "forfeited":
        return [f"{member} forfeits, pays {game.cube_of(member).value}"]
    if kind == "timeout":
        return [f"{event['seat']} times out"]
    if kind == "rolling_on":
        return []
    raise ValueError(f"unknown event type {kind!r}")


def _session_line(event: Event) -> str | None:
    """The line of a session event (None: a game's event, or the silent created)."""
    kind = event["type"]
    if kind in ("seated", "left"):
        return f"{kind} {event['seat']}"
    if kind == "order_rolled":
        return f"order {seats_text(event['seats'])}: {seats_text(event['dice'])}"
    if kind == "lineup_drawn":
        return f"drawn: {lineup_text(event)}"
    if kind == "bank_passed":
        return f"{event['seat']} passes the bank: {lineup_text(event)}"
    if kind == "game_started":
        return f"game {event['game']}: {lineup_text(event['created'])}"
    if kind == "closed":
        return "table closed" + ("" if event["reason"] == "closed" else f" ({event['reason']})")
    return None


def _board_line(inner: Event) -> list[str]:
    kind, side = inner["type"], inner.get("side")
    if kind in SILENT_BOARD:
        return []
    if kind == "opening":
        first, second = inner["dice"]
        return [f"opening {first}-{second}" + (f" {inner['starter']}" if inner["starter"] else "")]
    if kind == "rolled":
        return [f"{side} {''.join(map(str, inner['dice']))}"]
    if kind == "played":
        return [f"{side} plays {inner['play']}"]
    if kind == "passed":
        return [f"{side} passes"]
    raise ValueError(f"no chouette board has a {kind!r} event")


def joined(lines: list[str]) -> list[str]:
    """A roll and the play (or pass) right after it, by the same side, on one line."""
    out: list[str] = []
    for line in lines:
        roll = ROLL_ALONE.fullmatch(out[-1]) if out else None
        side = roll and (roll["opener"] or roll["roller"])
        if side and line.startswith(f"{side} plays "):
            out[-1] += ": " + line.removeprefix(f"{side} plays ")
        elif side and line == f"{side} passes":
            out[-1] += ": pass"
        else:
            out.append(line)
    return out


def split(line: str) -> list[str]:
    """The lines a joined roll-and-play line stands for."""
    match = JOINED.fullmatch(line)
    if match is None:
        return [line]
    side = match["opener"] or match["roller"]
    play = match["play"]
    return [match["roll"], f"{side} passes" if play == "pass" else f"{side} plays {play}"]


LINE_EVENTS: tuple[tuple[re.Pattern[str], Any], ...] = tuple(
    (re.compile(pattern), make)
    for pattern, make in (
        (r"seated (\d+)", lambda m: {"type": "seated", "seat": int(m[1])}),
        (r"left (\d+)", lambda m: {"type": "left", "seat": int(m[1])}),
        (r"(\d+) passes the bank: .*", lambda m: {"type": "bank_passed", "seat": int(m[1])}),
        (r"table closed", lambda m: {"type": "closed"}),
        (r"game \d+: .*", lambda m: {"type": "game_started"}),
        (r"order [\d ]+: ([1-6](?: [1-6])*)",
         lambda m: {"type": "order_rolled", "dice": [int(d) for d in m[1].split()]}),
        (r"opening ([1-6])-([1-6])(?: [WB])?",
         lambda m: _board({"type": "opening", "dice": [int(m[1]), int(m[2])]})),
        (r"([WB]) ([1-6])([1-6])",
         lambda m: _board({"type": "rolled", "side": m[1], "dice": [int(m[2]), int(m[3])]})),
        (r"([WB]) plays (\S.*)", lambda m: _board({"type": "played", "side": m[1], "play": m[2]})),
        (r"banker doubles ([\d ]+)",
         lambda m: {"type": "banker_doubled", "cubes": [int(s) for s in m[1].split()]}),
        (r"(\d+) doubles", lambda m: {"type": "double_called", "seat": int(m[1])}),
        (r"crew doubles [\d ]+, the captain rolls",
         lambda m: {"type": "crew_doubled", "roll_after": True}),
        (r"(?:banker takes (\d+)|(\d+) takes), cube \d+",
         lambda m: {"type": "cube_taken", "cube": int(m[1] or m[2])}),
        (r"(?:banker drops (\d+)|(\d+) drops), pays \d+",
         lambda m: {"type": "cube_dropped", "cube": int(m[1] or m[2])}),
        (r"(\d+) times out", lambda m: {"type": "timeout", "seat": int(m[1])}),
    )
)  # fmt: skip


def _board(inner: Event) -> Event:
    return {"type": "board", "e": inner}


def line_event(line: str) -> Event | None:
    """The event an action line makes first, with the fields its action needs and its
    dice (None: a line the rules write by themselves, or none this format has)."""
    for pattern, make in LINE_EVENTS:
        match = pattern.fullmatch(line)
        if match is not None:
            event: Event = make(match)
            return event
    return None
