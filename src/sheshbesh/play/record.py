"""Game records: the event log as JSON, the one source of truth for a game.

A record is ``{"format": "sheshbesh-record/1", "game": "race", "created": {...},
"events": [...]}``; folding ``events`` over ``created`` gives the game
(:func:`game_of`), the fair-dice verifier reads the same events, and exports
read the same record. A chouette table's record (``"game": "chouette"``) is its
whole session's log; :mod:`.chouette_record` replays and checks it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .dice import DiceVerdict, verify_events
from .dice_rules import RaceDiceRules
from .race import Event, RaceGame, replay

if TYPE_CHECKING:
    from .chouette_session import ChouetteSession
    from .draughts import DraughtsGame
    from .match import Match

FORMAT = "sheshbesh-record/1"


class InvalidRecord(ValueError):
    """A record that is not JSON, not ours, or whose events do not replay."""


def make_record(created: Event, events: Iterable[Event], game: str = "race") -> dict[str, Any]:
    """A record of a race game (``game="race"``), a match (``game="match"``) or a chouette
    session (``game="chouette"``)."""
    return {"format": FORMAT, "game": game, "created": created, "events": list(events)}


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1)


def loads(text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord(f"not JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise InvalidRecord(f"not a sheshbesh record (expected format {FORMAT!r})")
    if not isinstance(record.get("created"), dict) or not isinstance(record.get("events"), list):
        raise InvalidRecord("a record needs 'created' and 'events'")
    return record


def game_of(record: dict[str, Any]) -> RaceGame:
    """The race game the record describes (its events folded)."""
    if record.get("game") != "race":
        raise InvalidRecord(f"not a race-game record: {record.get('game')!r}")
    try:
        return replay(record["created"], record["events"])
    except (KeyError, TypeError, ValueError, AssertionError) as error:
        raise InvalidRecord(f"the events do not replay: {error!r}") from None


def any_game_of(record: dict[str, Any]) -> RaceGame | DraughtsGame | Match | ChouetteSession:
    """The game (or match, or chouette session) of a record of any kind."""
    if record.get("game") == "chouette":
        from .chouette_record import session_of

        return session_of(record)
    if record.get("game") == "draughts":
        from .draughts_record import game_of as draughts_game_of

        return draughts_game_of(record)
    if record.get("game") == "match":
        from .match import replay_match

        try:
            return replay_match(record["created"], record["events"])
        except (KeyError, TypeError, ValueError, AssertionError) as error:
            raise InvalidRecord(f"the events do not replay: {error!r}") from None
    return game_of(record)


def verify_dice(record: dict[str, Any]) -> DiceVerdict:
    """Recompute every roll of the record (PL-2): the created event commits to roll 1.

    Each roll must also have two dice and say what they decide (the opening's
    starter and first dice, RB-8's ignored rolls; see :mod:`.dice_rules`), and a
    record that calls itself draughts must have no rolls at all. A chouette session's
    rolls (its order rolls and its board's) are checked with its seq, money and rules
    (:func:`~.chouette_record.verify_session`).
    """
    if record.get("game") == "chouette":
        from .chouette_record import verify_session

        return verify_session(record)
    verdict = verify_events([record["created"], *record["events"]], RaceDiceRules())
    if record.get("game") == "draughts" and verdict.rolls_checked:
        kind = "record kind 'draughts' has rolls, but draughts is played without dice"
        return DiceVerdict(verdict.rolls_checked, (*verdict.problems, kind))
    return verdict
