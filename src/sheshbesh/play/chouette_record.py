"""Records of chouette sessions (issue 18): one table's whole session as one JSON log.

A chouette table is stored as one game of kind ``"chouette"`` whose log is the
:class:`~.chouette_session.ChouetteSession`'s: its ``chouette_created`` event,
then every event ``apply`` returned, numbered by ``seq``. The record is that
log, ``{"format": ..., "game": "chouette", "created": ..., "events": [...]}``,
as the server's ``/api/games/{id}/record`` serves it.

Checking a record (:func:`check_session`) asks three things, each problem
naming its event as ``event N (seq S)``, N counting from the created event 0:

- the ``seq`` numbers run 0, 1, 2…, so no event is missing, added or moved;
- the money adds up: every payment (a drop, a forfeit, a settlement) sums to
  zero, and so does each game (CH-5, CH-7, CH-8, PL-7);
- the log is what the rules make: each event someone's action made is turned
  back into that action and replayed with the record's dice
  (:mod:`.chouette_replay`), and every event the rules then emit (payments,
  lineups, captaincy, the order roll's outcome) must be the recorded one.

:func:`verify_session` adds the dice (PL-2): the order rolls and the board's
rolls are one sequence of fair rolls from one box, read from the board events
where they are wrapped (``{"type": "board", "e": {...}}``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .chouette_replay import RecordedDice, action_for, rolled_of
from .chouette_session import ChouetteSession, from_session_created, replay_session
from .dice import DiceVerdict, verify_events
from .dice_rules import RaceDiceRules
from .record import FORMAT, InvalidRecord

Event = dict[str, Any]
GAME = "chouette"


def make_session_record(created: Event, events: Iterable[Event]) -> dict[str, Any]:
    """The JSON record of a session's log (``record.dumps`` writes it)."""
    return {"format": FORMAT, "game": GAME, "created": created, "events": list(events)}


def session_of(record: dict[str, Any]) -> ChouetteSession:
    """The session a record describes, replayed through the rules; the first problem
    :func:`check_session` finds is an :class:`~.record.InvalidRecord`."""
    problems, session = check_session(record)
    if problems or session is None:
        raise InvalidRecord(problems[0] if problems else "the record does not replay")
    return session


def check_session(record: dict[str, Any]) -> tuple[list[str], ChouetteSession | None]:
    """Every problem of the record (seq, money, rules) and, when it replays, the session."""
    if record.get("game") != GAME:
        return [f"not a chouette record: game {record.get('game')!r}"], None
    created, events = record.get("created"), record.get("events")
    if not isinstance(created, dict) or created.get("type") != "chouette_created":
        return ["event 0: a chouette record opens with its 'chouette_created' event"], None
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        return ["the record's events must be a list of JSON objects"], None
    problems = _seq_problems([created, *events]) or _money_problems(events)
    if problems:
        return problems, None
    try:
        session = _Replay(created, events).run()
    except _Mismatch as mismatch:
        return [str(mismatch)], None
    if replay_session(created, events) != session:  # the fold and the rules must agree
        return ["the log folds to another table than the rules make"], None
    return [], session


def verify_session(record: dict[str, Any]) -> DiceVerdict:
    """PL-2 over the whole session (order rolls and board rolls), then
    :func:`check_session`'s problems: the verdict ``sheshbesh verify-dice`` prints."""
    verdict = verify_events(dice_log(record), ChouetteDiceRules())
    problems, _ = check_session(record)
    return DiceVerdict(verdict.rolls_checked, (*verdict.problems, *problems))


def dice_log(record: dict[str, Any]) -> list[Any]:
    """The record's events as the dice audit reads them, one for one: a board event is
    the board's own (with the session's seq), a game's start its board's created event."""
    events = record.get("events")
    return [record.get("created"), *(map(_unwrapped, events) if isinstance(events, list) else ())]


def _unwrapped(event: Any) -> Any:
    if not isinstance(event, dict):
        return event
    if event.get("type") == "board" and isinstance(event.get("e"), dict):
        return {**event["e"], "seq": event.get("seq")}
    created = event.get("created")
    if event.get("type") == "game_started" and isinstance(created, dict):
        board = created.get("board")
        if isinstance(board, dict):
            return {**board, "seq": event.get("seq")}
    return event


class ChouetteDiceRules(RaceDiceRules):
    """The board's rolls are backgammon's (:class:`RaceDiceRules`); an order roll has one
    die per seat it was for (CH-2), and what it decides is the replay's to check."""

    def dice_count(self, event: Mapping[str, Any]) -> int | None:
        if event.get("type") == "order_rolled":
            seats = event.get("seats")
            return len(seats) if isinstance(seats, list) and seats else None
        return super().dice_count(event)

    def problems(self, event: Mapping[str, Any], dice: tuple[int, ...]) -> list[str]:
        if event.get("type") == "order_rolled":
            return []
        return super().problems(event, dice)


def where(index: int, event: Event) -> str:
    """How a problem names an event: its place in the log, its seq, what it is."""
    kind = event.get("type")
    if kind == "board" and isinstance(event.get("e"), dict):
        kind = f"board {event['e'].get('type')}"
    game = f" of game {event['game']}" if "game" in event and kind != "game_started" else ""
    return f"event {index} (seq {event.get('seq')}, {kind}{game})"


def _seq_problems(log: list[Event]) -> list[str]:
    for index, event in enumerate(log):
        if event.get("seq") != index:
            return [
                f"event {index} has seq {event.get('seq')!r}, not {index}: "
                "an event is missing, added or out of place"
            ]
    return []


def _money_problems(events: list[Event]) -> list[str]:
    """Every payment sums to zero, and so does each game (what was paid in it)."""
    problems: list[str] = []
    games: dict[Any, int] = {}
    for index, event in enumerate(events, 1):
        paid = event.get("paid")
        if paid is None:
            continue
        try:
            total = sum(amount for _, amount in paid)
        except (TypeError, ValueError):
            problems.append(
                f"{where(index, event)}: payments {paid!r} are not [seat, stakes] pairs"
            )
            continue
        if total:
            problems.append(f"{where(index, event)}: the payments {paid} sum to {total:+}, not 0")
        games[event.get("game")] = games.get(event.get("game"), 0) + total
    problems += [f"game {game}: its payments sum to {t:+}, not 0" for game, t in games.items() if t]
    return problems


class _Mismatch(Exception):
    """The first event where the record and the rules part."""


class _Replay:
    """The record's actions applied in turn; each emitted event compared with the record's."""

    def __init__(self, created: Event, events: list[Event]):
        self.created = created
        self.events = events
        self.dice = RecordedDice([r for e in events if (r := rolled_of(e)) is not None])

    def run(self) -> ChouetteSession:
        session = from_session_created(self.created)
        made: list[Event] = []
        for index, recorded in enumerate(self.events, 1):
            if not made:
                session, made = self.act(index, recorded, session)
            event = made.pop(0)
            if event != recorded:
                raise _Mismatch(f"{where(index, recorded)}: {_difference(recorded, event)}")
        if made:
            last = len(self.events)
            raise _Mismatch(f"the record ends at event {last}, but the rules go on with "
                            f"{where(last + 1, made[0])}: the log is cut short")  # fmt: skip
        return session

    def act(self, index: int, recorded: Event, session: ChouetteSession) -> tuple[Any, list[Event]]:
        try:
            step = session.apply(action_for(recorded, session), self.dice)
        except (KeyError, TypeError, ValueError) as error:
            raise _Mismatch(f"{where(index, recorded)}: the rules refuse it: {error}") from None
        return step.session, json.loads(json.dumps(step.events))


def _difference(recorded: Event, made: Event) -> str:
    """What the record says that the rules do not, field by field."""
    if recorded.get("type") != made.get("type"):
        return (
            f"the record has a {recorded.get('type')!r} event, the rules make {made.get('type')!r}"
        )
    inner = recorded.get("e")
    if recorded.get("type") == "board" and isinstance(inner, dict) and inner != made["e"]:
        if inner.get("type") != made["e"].get("type"):
            return f"the record has board {inner.get('type')!r}, the rules {made['e']['type']!r}"
        recorded, made = inner, made["e"]
    keys = sorted(set(recorded) | set(made), key=lambda k: (k != "paid", k))
    key = next(k for k in keys if recorded.get(k) != made.get(k))
    return f"the record has {key} {recorded.get(key)!r}, the rules give {made.get(key)!r}"


__all__ = [
    "GAME",
    "ChouetteDiceRules",
    "check_session",
    "dice_log",
    "make_session_record",
    "session_of",
    "verify_session",
]
