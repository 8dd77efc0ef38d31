"""A chouette table as the rounds see it: seats, not sides (issue 18).

The two-player :class:`~sheshbesh.server.rounds.tables.Table` maps two seats to
two colours and waits for one side at a time. A chouette table waits for
several seats at once (each doubled member answers on his own), gives each seat
its own menu, and holds a different escrow per seat (CH-10), so it has an
interface of its own over :class:`~sheshbesh.play.chouette_session.ChouetteSession`:
:meth:`ChouetteTable.parse` reads a client's frame for a seat,
:meth:`ChouetteTable.legal` is a seat's menu, :meth:`ChouetteTable.holds` what
each seat's escrow must hold, and :meth:`ChouetteTable.view` the table as a
viewer may see it.

Frames a client sends (the board's are the race game's, for banker and captain):
``roll``, ``move`` {from, to, die}, ``undo``, ``confirm``, ``play`` {text};
``double`` {cubes: the crew seats the banker doubles; a member leaves it out};
``take`` / ``drop`` {cube: the member's seat, for the banker; a member leaves it out}.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play import chouette as ch
from sheshbesh.play.chouette_session import (
    ChouetteSession,
    SessionAction,
    evolve_session,
    replay_session,
)
from sheshbesh.play.errors import IllegalAction, NotYourTurn
from sheshbesh.server.errors import BadAction

from .tables import RACE_ACTIONS, _kind, race_action_json, race_view

Event = dict[str, Any]
BOARD_TYPES = ("roll", "move", "undo", "confirm", "play")
ANSWER_EVENTS = ("banker_doubled", "crew_doubled")
"""Events that ask questions several seats answer, each from his own ``seen``."""
OFFER_EVENTS = ("banker_doubled", "double_called", "crew_doubled")
"""Events that open a cube offer (PL-3: spectators see it once it is answered)."""


Stepped = tuple["ChouetteTable", tuple[Event, ...]]


class ChouetteTable:
    """A table's whole session as one value; change it only through :meth:`step`."""

    kind = "chouette"

    def __init__(self, session: ChouetteSession, asked: int | None = None,
                 opened: int | None = None) -> None:  # fmt: skip
        self.session = session
        self.asked = asked
        """The seq of the event that asked the questions now waiting (answers are checked
        against it, not against the latest seq: others answer meanwhile)."""
        self.opened = opened
        """The seq of the first event of the cube offer now waiting (PL-3), or None."""

    @classmethod
    def create(cls, capacity: int, commit: str) -> tuple[ChouetteTable, Event]:
        session, created = ChouetteSession.create(capacity, commit=commit)
        return cls(session), created

    @classmethod
    def replay(cls, created: Event, events: list[Event]) -> ChouetteTable:
        table = cls(replay_session(created, []))
        for event in events:
            table = table.after([event])
        return table

    # --- reading ------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.session.seq

    @property
    def finished(self) -> bool:
        """The table is closed (its session ended): not one game of it."""
        return self.session.finished

    @property
    def playing(self) -> bool:
        return self.session.playing

    @property
    def game(self) -> ch.ChouetteGame | None:
        return self.session.game

    @property
    def offer_seq(self) -> int | None:
        return self.opened

    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose action the game waits for now (none between games)."""
        game = self.game
        if game is None or not self.playing:
            return ()
        return game.waiting_for()

    def acting(self) -> tuple[int, ...]:
        """The seats with something on their menu now (a bettor in the crew's window
        too, though the game does not wait for him)."""
        return tuple(seat for seat in self.session.seats if self.legal(seat))

    def holds(self) -> dict[int, int]:
        """Stakes each seated person's escrow must hold now (CH-10, PL-5)."""
        return {seat: self.session.held(seat) for seat in self.session.seats}

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """The frames ``seat`` may send now (between games: none on the board)."""
        if not self.playing:
            return []
        frames: list[dict[str, Any]] = []
        for action in self.session.legal_actions(seat):
            if isinstance(action, ch.Board):
                frames.append(race_action_json(action.action))
            elif isinstance(action, ch.Double):
                assert self.game is not None
                cubes = self.game.doublable(seat)
                frames.append({"type": "double", "cubes": list(cubes)})
            elif isinstance(action, ch.Answer):
                frame: dict[str, Any] = {"type": "take" if action.take else "drop"}
                frame["cube"] = seat if action.cube is None else action.cube
                frames.append(frame)
        return frames

    def is_answer(self, data: Any) -> bool:
        return isinstance(data, dict) and data.get("type") in ("take", "drop")

    # --- acting -------------------------------------------------------------------

    def parse(self, data: Any, seat: int) -> SessionAction:
        """The action ``seat``'s frame asks for; malformed fields are a ``BadAction``,
        an action the seat may not take now an ``IllegalAction`` or ``NotYourTurn``
        (the game checks the details)."""
        kind = _kind(data)
        game = self.game
        if kind in ("resign", "accept_resign", "decline_resign", "beaver"):
            raise IllegalAction(f"no {kind} in chouette (CH-3, CH-10): a member leaves by a drop")
        if kind not in (*BOARD_TYPES, "double", "take", "drop"):
            allowed = ", ".join((*BOARD_TYPES, "double", "take", "drop"))
            raise BadAction(f"unknown chouette action {kind!r}; one of: {allowed}")
        if game is None or not self.playing:
            raise NotYourTurn("no game is being played: the next one has not started")
        if kind in BOARD_TYPES:
            parse: Callable[[Side, dict[str, Any]], Any] = RACE_ACTIONS[kind]
            side = game.side_of(seat) or ch.CREW
            return ch.Board(seat, parse(side, data))
        if kind == "double":
            return ch.Double(seat, _seats(data, "cubes"))
        cube = data.get("cube")
        if cube is not None and (isinstance(cube, bool) or not isinstance(cube, int)):
            raise BadAction("cube must be the seat number of a crew member")
        if seat != game.banker:
            if cube not in (None, seat):
                raise NotYourTurn("each member answers the double of his own cube only (CH-5)")
            cube = None
        return ch.Answer(seat, kind == "take", cube)

    def step(self, action: SessionAction, dice: act.DiceSource | None) -> Stepped:
        """The table after ``action`` and the events it stored (nothing changes on error)."""
        step = self.session.apply(action, dice)
        return self.after(step.events, step.session), step.events

    def after(self, events: Any, session: ChouetteSession | None = None) -> ChouetteTable:
        """This table with ``events`` folded in (``session``: already folded)."""
        asked, opened = self.asked, self.opened
        folded = self.session
        for event in events:
            if session is None:
                folded = evolve_session(folded, event)
            kind = event["type"]
            if kind in ANSWER_EVENTS:
                asked = event["seq"]
            if kind in OFFER_EVENTS and opened is None:
                opened = event["seq"]
            if kind in ("answers_in", "finished", "game_started"):
                asked = opened = None
        return ChouetteTable(session if session is not None else folded, asked, opened)

    # --- showing ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The table for everyone seated (PL-3's hiding is done by showing an earlier table)."""
        session = self.session
        game = self.game
        return {
            "kind": self.kind,
            "capacity": session.capacity,
            "seated": list(session.seats),
            "number": session.number,
            "playing": self.playing,
            "closed": session.closed,
            "results": {str(seat): won for seat, won in session.results},
            "next": None if (lineup := session.next_lineup()) is None else lineup.to_json(),
            "holds": {str(seat): need for seat, need in self.holds().items()},
            "game": None if game is None else game_view(game),
        }


def game_view(game: ch.ChouetteGame) -> dict[str, Any]:
    """One chouette game: the board, who banks and captains, each member's cube."""
    return {
        "banker": game.banker,
        "captain": game.captain,
        "rotation": list(game.lineup.rotation),
        "phase": game.phase.name.lower(),
        "waiting_for": list(game.waiting_for()),
        "crew": [
            {
                "seat": seat,
                "cube": cube.value,
                "owner": None
                if cube.owner is None
                else ("banker" if cube.owner is ch.BANKER else "member"),
                "out": seat in game.out,
                "pending": seat in game.pending,
                "called": seat in game.called,
            }
            for seat, cube in game.cubes
        ],
        "window_open": game.window_open,
        "winner": game.winner,
        "reason": game.reason,
        "paid": {str(seat): amount for seat, amount in game.payout()},
        "board": race_view(game.board) | {"kind": "race"},
    }


def _seats(data: dict[str, Any], name: str) -> tuple[int, ...]:
    value = data.get(name, [])
    if (
        not isinstance(value, list)
        or len(value) > ch.MAX_SEATS
        or not all(isinstance(seat, int) and not isinstance(seat, bool) for seat in value)
    ):
        raise BadAction(f"{name} must be a list of crew seat numbers")
    return tuple(value)


def action_frame(action: Any) -> dict[str, Any]:
    """The frame a client sends for a chouette ``action`` (the inverse of
    :meth:`ChouetteTable.parse`): how a bot's decision reaches the table."""
    if isinstance(action, ch.Board):
        move = action.action
        if isinstance(move, act.PlayText):
            return {"type": "play", "text": move.text}
        return race_action_json(move)
    if isinstance(action, ch.Double):
        return {"type": "double", "cubes": list(action.cubes)}
    if isinstance(action, ch.Answer):
        frame: dict[str, Any] = {"type": "take" if action.take else "drop"}
        if action.cube is not None:
            frame["cube"] = action.cube
        return frame
    raise ValueError(f"not a seat's action: {action!r}")
