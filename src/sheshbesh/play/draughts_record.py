"""Records of draughts games: the event log as JSON, and PDN export and import.

The JSON record is the one source of truth, as for race games
(:mod:`sheshbesh.play.record`), with ``"game": "draughts"``. PDN is what other
draughts programs read: :func:`export_pdn` writes the played game with the
rules package's ``write_pdn`` (tags Event, Site, Date, White, Black, Result,
GameType "20", FEN for a set-up start), and :func:`import_pdn` turns PDN back
into our events, so an imported game replays through the same state machine.

PDN records moves and a result, not why a game ended, so the export adds the
PGN ``Termination`` tag where the moves do not explain the result:
``"time forfeit"`` (PL-7), ``"adjudication"`` (DR-21), else ``"normal"``.
The import rebuilds the ending from the moves, the result and that tag:

- the moves end the game (DR-13…DR-18): the result must agree;
- ``*``: the game is still going;
- ``time forfeit``: the loser's timeout; ``adjudication``: DR-21;
- otherwise a win is the loser's resignation when he is to move, else his
  forfeit (PL-7: in our rules the side not to move can lose no other way); a
  draw is an agreed draw (DR-19) when the 40 moves each are played, else an
  adjudication that gives a draw.

Anything else (a result the rules contradict) is an ``InvalidPdn``.

>>> from sheshbesh.games.race import Side
>>> from sheshbesh.play.actions import Resign
>>> game, _ = DraughtsGame.create()
>>> game = game.apply(MoveAction(Side.WHITE, "32-28")).game
>>> game = game.apply(Resign(Side.BLACK, 1)).game
>>> text = export_pdn(game, white="Ann", black="Bob", date="2025.05.01")
>>> print(text)
[Event "sheshbesh"]
[Date "2025.05.01"]
[White "Ann"]
[Black "Bob"]
[Result "2-0"]
[GameType "20"]
[Termination "normal"]
<BLANKLINE>
1. 32-28 2-0
<BLANKLINE>
>>> (created, events), = import_pdn(text)
>>> [e["type"] for e in events], replay(created, events).result == game.result
(['played', 'resigned', 'finished'], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sheshbesh.games.draughts import InvalidPdn, PdnGame, read_pdn, write_pdn
from sheshbesh.games.draughts.pdn import GAME_TYPE
from sheshbesh.games.race import Side

from .actions import Resign, Timeout
from .draughts import (
    VARIANT,
    AcceptDraw,
    Adjudicate,
    DraughtsAction,
    DraughtsGame,
    DraughtsOptions,
    Event,
    MoveAction,
    OfferDraw,
    replay,
)
from .errors import PlayError
from .record import FORMAT, InvalidRecord
from .result import Result

UNKNOWN_DATE = "????.??.??"
_RESULTS = {Side.WHITE: "2-0", Side.BLACK: "0-2", None: "1-1"}
_TERMINATION = {"PL-7": "time forfeit", "DR-21": "adjudication"}


def make_record(created: Event, events: Iterable[Event]) -> dict[str, Any]:
    """The JSON record of a draughts game (``record.dumps`` writes it)."""
    return {"format": FORMAT, "game": VARIANT, "created": created, "events": list(events)}


def game_of(record: dict[str, Any]) -> DraughtsGame:
    """The game a draughts record describes (its events folded)."""
    if record.get("game") != VARIANT:
        raise InvalidRecord(f"not a draughts record: game {record.get('game')!r}")
    try:
        return replay(record["created"], record["events"])
    except (KeyError, TypeError, ValueError, AssertionError) as error:
        raise InvalidRecord(f"the events do not replay: {error!r}") from None


def pdn_result(result: Result | None) -> str:
    """The PDN result of a game: ``2-0``, ``0-2``, ``1-1``, or ``*`` while it goes on."""
    return "*" if result is None else _RESULTS[result.winner]


def export_pdn(
    game: DraughtsGame,
    *,
    white: str = "?",
    black: str = "?",
    event: str = "sheshbesh",
    date: str = UNKNOWN_DATE,
    site: str | None = None,
) -> str:
    """The played game as PDN; ``date`` is ``YYYY.MM.DD`` (passed in: no clock is read here)."""
    tags = [("Event", event)]
    if site is not None:
        tags.append(("Site", site))
    tags += [("Date", date), ("White", white), ("Black", black), ("GameType", GAME_TYPE)]
    if game.result is not None:
        tags.append(("Termination", _TERMINATION.get(game.result.reason, "normal")))
    return write_pdn(PdnGame(game.board, tuple(tags), pdn_result(game.result)))


def import_pdn(text: str) -> list[tuple[Event, list[Event]]]:
    """Every game of PDN text as our ``created`` event and event log.

    Raises ``InvalidPdn`` for unreadable text, an illegal move, or a result
    the rules cannot give.
    """
    return [events_of(record) for record in read_pdn(text)]


def events_of(record: PdnGame) -> tuple[Event, list[Event]]:
    """One read PDN game as a ``created`` event and the events that replay it."""
    try:
        game, created = DraughtsGame.create(DraughtsOptions(start=record.game.start.fen()))
    except PlayError as error:
        raise InvalidPdn(f"FEN tag: {error}") from None
    log: list[Event] = []
    for move in record.game.moves:  # read_pdn checked them: the game goes on until the last
        assert game.to_act is not None
        step = game.apply(MoveAction(game.to_act, str(move)))
        game, log = step.game, log + list(step.events)
    wanted = record.final_result
    if game.finished or wanted == "*":
        if pdn_result(game.result) != wanted:
            raise InvalidPdn(f"the moves give {pdn_result(game.result)}, the PDN says {wanted}")
        return created, log
    termination = dict(record.tags).get("Termination", "normal")
    for actions in _endings(game, wanted, termination):
        ended, events = _try(game, actions)
        if ended is not None and pdn_result(ended.result) == wanted:
            return created, log + events
    raise InvalidPdn(
        f"result {wanted} ({termination}) after {game.plies} plies is not one the rules can give"
    )


def _endings(game: DraughtsGame, wanted: str, termination: str) -> list[list[DraughtsAction]]:
    """The ways to end ``game`` with ``wanted`` that the module docstring lists, in order."""
    mover = game.to_act
    assert mover is not None
    if termination == "adjudication":
        return [[Adjudicate()]]
    winner = {"2-0": Side.WHITE, "0-2": Side.BLACK}.get(wanted)
    if winner is not None:
        if termination == "time forfeit" or winner is mover:
            return [[Timeout(winner.other)]]
        return [[Resign(mover, 1)]]
    if wanted == "1-1" and termination != "time forfeit":
        return [[OfferDraw(mover), AcceptDraw(mover.other)], [Adjudicate()]]
    return []


def _try(
    game: DraughtsGame, actions: list[DraughtsAction]
) -> tuple[DraughtsGame | None, list[Event]]:
    events: list[Event] = []
    try:
        for action in actions:
            step = game.apply(action)
            game, events = step.game, events + list(step.events)
    except PlayError:
        return None, []
    return game, events
