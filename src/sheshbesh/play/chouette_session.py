"""A chouette table's session (issue 18): people sit down, the order roll, game after game.

:class:`~sheshbesh.play.chouette.ChouetteGame` plays one game; a table plays
many, as :class:`~sheshbesh.play.match.Match` plays many race games, and is
stored the same way: one log for the whole session. Seating, the order roll
(CH-2, with the fair dice: PL-2), each game's events (tagged with ``game`` and
``game_seq``) and the table's end are events of that one log, folded by
:func:`evolve_session`, so ``replay_session(created, events) == session``.

Between games (before the first, or once a game is finished):

- a person takes a free seat (:class:`Join`; seats are numbered in the order
  they are taken and never reused) and goes to the end of the rotation; a
  seated one leaves (:class:`Leave`), and is taken out of the next lineup: a
  leaving banker's place goes to the captain-to-be, who banks;
- before the first game the order is rolled (CH-2, :class:`RollOrder`, the
  server's), so that the next banker is known before the game starts;
- the next banker who cannot cover what banking holds passes the bank
  (:class:`PassBank`, the server's call, PL-5): he goes to the end of the
  rotation, as a banker who lost (CH-9), and the next in line banks;
- ``Start`` (the server's) begins the next game with the lineup as it stands
  (CH-9's after a game; the order roll first if nobody rolled it); at least
  three seats (CH-1);
- :class:`Close` ends the table (the owner, between games), and a leave that
  leaves fewer than three seats after a game has been played ends it (CH-1).

While a game runs nobody sits down or leaves: leaving a game is a timeout the
server reports (PL-7). Money is counted in stakes S, seat by seat: ``results``
sums what each seat won and lost over the session, and :meth:`held` says what
a seat's escrow must hold now (CH-10).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from . import actions as act
from .chouette import (
    LARGEST_LEVEL,
    MAX_SEATS,
    MIN_SEATS,
    Action,
    ChouetteGame,
    Lineup,
    draw_order,
)
from .chouette import evolve as evolve_game
from .chouette import from_created as game_from_created
from .errors import IllegalAction, InvalidOptions

Event = dict[str, Any]
SESSION_EVENTS = ("chouette_created", "seated", "left", "order_rolled", "lineup_drawn",
                  "bank_passed", "game_started", "closed")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Join:
    """A person takes the next free seat (the server knows who; the seat is his number)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    seat: int


@dataclass(frozen=True, slots=True)
class RollOrder:
    """The order roll before the first game (CH-2), ahead of its start so that a rolled
    banker who cannot cover banking can pass the bank first (PL-5)."""


@dataclass(frozen=True, slots=True)
class PassBank:
    """The next banker cannot cover banking (PL-5): he goes to the end of the rotation."""

    seat: int


@dataclass(frozen=True, slots=True)
class Close:
    """The table ends (its owner's word, between games)."""


SessionAction = Join | Leave | RollOrder | PassBank | Close | act.Start | Action


@dataclass(frozen=True, slots=True)
class SessionStep:
    session: ChouetteSession
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class ChouetteSession:
    """A chouette table; build with :meth:`create`, change with :meth:`apply`."""

    capacity: int
    """The seats the table offers (CH-1: 3-8)."""
    seats: tuple[int, ...] = ()
    """Who is seated now, in the order they sat down."""
    taken: int = 0
    """Seats ever taken: the next one to sit gets this number."""
    game: ChouetteGame | None = None
    number: int = 0
    """The games started so far (the one being played, or the last one)."""
    lineup: Lineup | None = None
    """The next game's lineup as CH-9 left it (before this session's joins and leaves)."""
    results: tuple[tuple[int, int], ...] = ()
    """Seat → stakes won (negative: lost) over the session, for every seat ever taken."""
    closed: str | None = None
    """Why the table ended (``"closed"``, ``"CH-1"``), or None while it is open."""
    commit: str | None = None
    """The published commitment of the next roll (PL-2), between games."""
    seq: int = 0

    @classmethod
    def create(cls, capacity: int, *, commit: str | None = None) -> tuple[ChouetteSession, Event]:
        """An empty table of ``capacity`` seats and its ``chouette_created`` event."""
        if isinstance(capacity, bool) or not isinstance(capacity, int):
            raise InvalidOptions(f"a chouette table has {MIN_SEATS}-{MAX_SEATS} seats (CH-1)")
        if not MIN_SEATS <= capacity <= MAX_SEATS:
            raise InvalidOptions(
                f"a chouette table has {MIN_SEATS}-{MAX_SEATS} seats, not {capacity} (CH-1)"
            )
        event: Event = {"type": "chouette_created", "capacity": capacity, "next_commit": commit,
                        "seq": 0}  # fmt: skip
        return from_session_created(event), event

    # --- reading ------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        """A game runs: nobody sits down or leaves."""
        return self.game is not None and not self.game.finished

    @property
    def finished(self) -> bool:
        return self.closed is not None

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.capacity

    @property
    def next_commit(self) -> str | None:
        """The commitment the next roll will be checked against."""
        if self.game is not None:
            return self.game.board.commit
        return self.commit

    def result_of(self, seat: int) -> int:
        return dict(self.results).get(seat, 0)

    def next_lineup(self) -> Lineup | None:
        """Who banks next and the rotation, with the joins and leaves since the last game
        (None before the first game: the order roll decides)."""
        if self.lineup is None:
            return None
        return _seated_lineup(self.lineup, self.seats)

    def held(self, seat: int) -> int:
        """Stakes ``seat``'s escrow must hold now (CH-10, PL-5): in a game what its bets
        can still cost, doubled cubes awaiting their answer at their doubled value;
        between games 3 for each seated person (the next banker's sum is checked when the
        game starts)."""
        if seat not in self.seats:
            return 0
        if self.playing:
            assert self.game is not None
            return self.game.exposure(seat)
        return LARGEST_LEVEL

    def bank_needs(self) -> int:
        """Stakes the next banker must hold to start the next game: 3 per member."""
        return LARGEST_LEVEL * (len(self.seats) - 1)

    def legal_actions(self, seat: int) -> list[SessionAction]:
        """What ``seat`` may do now (the server's own Start, RollOrder, PassBank and Close
        aside)."""
        if self.finished or seat not in self.seats:
            return []
        if self.playing:
            assert self.game is not None
            return list(self.game.legal_actions(seat))
        return [Leave(seat)]

    # --- acting -------------------------------------------------------------------

    def apply(self, action: SessionAction, dice: act.DiceSource | None = None) -> SessionStep:
        """Check ``action``, then return the new session and its events (nothing changes
        on error)."""
        events: list[Event] = []
        session = _Decider(self, dice, events).decide(action)
        return SessionStep(session, tuple(events))


def from_session_created(event: Event) -> ChouetteSession:
    return ChouetteSession(event["capacity"], commit=event.get("next_commit"))


def replay_session(created: Event, events: Iterable[Event]) -> ChouetteSession:
    session = from_session_created(created)
    for event in events:
        session = evolve_session(session, event)
    return session


def _seated_lineup(lineup: Lineup, seats: tuple[int, ...]) -> Lineup:
    """``lineup`` with the leavers taken out and the newcomers at the end of the rotation;
    a banker who left gives the bank to the first of the rotation."""
    order = [lineup.banker, *lineup.rotation]
    kept = [s for s in order if s in seats] + [s for s in seats if s not in order]
    if lineup.banker not in seats:
        return Lineup(kept[0], tuple(kept[1:]))
    return Lineup(lineup.banker, tuple(s for s in kept if s != lineup.banker))


def _add_paid(results: tuple[tuple[int, int], ...], paid: Iterable[Any]) -> tuple[Any, ...]:
    totals = dict(results)
    for seat, amount in paid:
        totals[seat] = totals.get(seat, 0) + amount
    return tuple(sorted(totals.items()))


# --- evolve: the only place state changes -------------------------------------------


def evolve_session(session: ChouetteSession, event: Event) -> ChouetteSession:
    """Apply one recorded session event (already checked when it was decided)."""
    kind = event["type"]
    changes: dict[str, Any] = {"seq": session.seq + 1}
    if kind == "seated":
        changes.update(seats=(*session.seats, event["seat"]), taken=event["seat"] + 1,
                       results=_add_paid(session.results, [(event["seat"], 0)]))  # fmt: skip
    elif kind == "left":
        changes["seats"] = tuple(s for s in session.seats if s != event["seat"])
    elif kind == "order_rolled":
        changes["commit"] = event.get("next_commit", session.commit)
    elif kind in ("lineup_drawn", "bank_passed"):
        changes["lineup"] = Lineup(event["banker"], tuple(event["rotation"]))
    elif kind == "game_started":
        changes.update(game=game_from_created(event["created"]), number=event["game"])
    elif kind == "closed":
        changes["closed"] = event["reason"]
    elif kind == "chouette_created":
        raise ValueError("'chouette_created' can only open a session log")
    else:
        game = session.game
        if game is None or event.get("game") != session.number:
            raise ValueError(f"an event of game {event.get('game')!r} during game {session.number}")
        inner = {k: v for k, v in event.items() if k not in ("game", "game_seq")}
        inner["seq"] = event["game_seq"]
        game = evolve_game(game, inner)
        changes["game"] = game
        if "paid" in event:
            changes["results"] = _add_paid(session.results, event["paid"])
        if game.finished and game.next_lineup is not None:
            changes["lineup"] = game.next_lineup
            changes["commit"] = game.board.commit
    return replace(session, **changes)


# --- decide: checking actions and choosing events ------------------------------------


class _Decider:
    def __init__(self, session: ChouetteSession, dice: act.DiceSource | None, out: list[Event]):
        self.session = session
        self.dice = dice
        self.out = out
        self.pending_roll = act.Rolled(())
        """The order roll's last dice, kept until ``draw_order`` says whose they were."""

    def emit(self, event: Event) -> None:
        event["seq"] = self.session.seq + 1
        self.session = evolve_session(self.session, event)
        self.out.append(event)

    def decide(self, action: SessionAction) -> ChouetteSession:
        session = self.session
        if session.finished:
            raise IllegalAction("the table is closed")
        if isinstance(action, Join):
            self.join(action.seat)
        elif isinstance(action, Leave):
            self.leave(action.seat)
        elif isinstance(action, RollOrder):
            self.roll_order()
        elif isinstance(action, PassBank):
            self.pass_bank(action.seat)
        elif isinstance(action, Close):
            self.between_games("the table closes")
            self.emit({"type": "closed", "reason": "closed"})
        elif isinstance(action, act.Start):
            self.start()
        else:
            self.play(action)
        return self.session

    def between_games(self, what: str) -> None:
        if self.session.playing:
            raise IllegalAction(f"{what} between games, not while a game runs")

    def join(self, seat: int) -> None:
        session = self.session
        self.between_games("a seat is taken")
        if session.full:
            raise IllegalAction(f"the table is full ({session.capacity} seats)")
        if seat != session.taken:
            raise IllegalAction(f"the next free seat is {session.taken}, not {seat}")
        self.emit({"type": "seated", "seat": seat})

    def leave(self, seat: int) -> None:
        session = self.session
        if seat not in session.seats:
            raise IllegalAction(f"seat {seat} is not at the table")
        self.between_games("one leaves the table")
        self.emit({"type": "left", "seat": seat})
        if session.number and len(self.session.seats) < MIN_SEATS:
            self.emit({"type": "closed", "reason": "CH-1"})

    def roll_order(self) -> None:
        self.between_games("the order is rolled")
        self.enough_seats()
        if self.session.lineup is not None:
            raise IllegalAction("the order is rolled once, before the first game (CH-2)")
        self.order_roll()

    def enough_seats(self) -> None:
        if len(self.session.seats) < MIN_SEATS:
            raise IllegalAction(f"a chouette game needs {MIN_SEATS} seated players (CH-1)")

    def pass_bank(self, seat: int) -> None:
        self.between_games("the bank passes")
        lineup = self.session.next_lineup()
        if lineup is None or lineup.banker != seat:
            raise IllegalAction(f"seat {seat} is not the next banker")
        following = Lineup(lineup.rotation[0], (*lineup.rotation[1:], seat))
        self.emit({"type": "bank_passed", "seat": seat, **following.to_json()})

    def start(self) -> None:
        session = self.session
        self.between_games("a game starts")
        self.enough_seats()
        lineup = session.next_lineup()
        if lineup is None:
            lineup = self.order_roll()
        number = session.number + 1
        _, created = ChouetteGame.create(lineup, commit=self.session.next_commit)
        self.emit({"type": "game_started", "game": number, "created": created})
        self.play(act.Start())

    def order_roll(self) -> Lineup:
        """CH-2 with the fair dice: each roll an event with its proof (PL-2)."""
        dice = self.dice
        if dice is None:
            raise IllegalAction("the order roll needs the server's dice")

        def roll(count: int) -> tuple[int, ...]:
            rolled = dice.roll(None, count)
            self.pending_roll = rolled
            return tuple(rolled.dice)

        def rolled(group: Any, faces: Any) -> None:
            proof = self.pending_roll
            event: Event = {"type": "order_rolled", "seats": list(group), "dice": list(faces)}
            if proof.proof is not None:
                event["proof"] = proof.proof
            if proof.next_commit is not None:
                event["next_commit"] = proof.next_commit
            self.emit(event)

        lineup = draw_order(list(self.session.seats), roll, rolled)
        self.emit({"type": "lineup_drawn", **lineup.to_json()})
        return lineup

    def play(self, action: Any) -> None:
        """An action of the game being played, its events tagged with the game's number."""
        session = self.session
        game = session.game
        if game is None or (game.finished and not isinstance(action, act.Start)):
            raise IllegalAction("no game is being played: the next one starts first")
        step = game.apply(action, self.dice)
        for event in step.events:
            self.emit({**event, "game": session.number, "game_seq": event["seq"]})


__all__ = [
    "SESSION_EVENTS",
    "ChouetteSession",
    "Close",
    "Join",
    "Leave",
    "PassBank",
    "RollOrder",
    "SessionStep",
    "replay_session",
]
