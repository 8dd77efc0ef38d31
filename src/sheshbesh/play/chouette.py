"""Chouette (CH-1 … CH-10): one backgammon board, a banker against a crew, a cube per bet.

The board is an ordinary :class:`~sheshbesh.play.race.RaceGame` of backgammon
without a cube (BG-1 … BG-9): the banker plays White, the crew's captain plays
Black. Around it this module keeps what chouette adds: the rotation order, one
cube per crew member, the doubling windows at the start of each turn, drops that
pay at once, captaincy passing on, the settlement and the next game's lineup.

Participants are seats (0 … n-1, the order they sat down); the server maps them
to players. As in ``race.py``, ``apply(action, dice)`` returns ``Step(game,
events)`` and every change goes through :func:`evolve`, so the stored log replays
to the live state. Board events travel wrapped as ``{"type": "board", "e": …}``.

Doubling windows (CH-5, CH-7), before the board's roll:

- the banker's turn: he may double any set of the cubes he may turn; each doubled
  member then takes or drops, in any order; the banker then rolls;
- the crew's turn: any member still in may call a double on his own cube until
  the captain acts; the captain's double, or his roll, closes the window and the
  banker answers each called cube. A captain who chose to roll rolls as soon as
  the last answer is in (he is still captain: only called cubes were at stake).

Decisions of our own (docs/decisions.md): the banker plays White; a bettor's call
is seen by the table when made (crew members may consult anyway, CH-4), the
window closes when the captain acts; the captain stays first in the rotation
order, so a new captain moves to the front and the dropped one to the end; a
captain who runs out of time on his turn drops his cube (its value now, PL-7)
and the next member still in takes the turn over where it stands; a banker who
runs out of time on his turn loses the board at the forfeit level (PL-7).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

from sheshbesh.games.race import Side

from . import actions as act
from .cube import Cube
from .errors import IllegalAction, InvalidOptions, NotYourTurn
from .options import RaceOptions
from .race import Phase as BoardPhase
from .race import RaceGame
from .race import evolve as evolve_board
from .race import from_created as board_from_created
from .result import forfeit_level

Event = dict[str, Any]
BANKER, CREW = Side.WHITE, Side.BLACK
MIN_SEATS, MAX_SEATS = 3, 8
"""CH-1: three to eight participants."""
LARGEST_LEVEL = 3
"""CH-10: a crew member's escrow is 3 × cube × S (a backgammon)."""


class Phase(IntEnum):
    BOARD = 0
    """The board game runs; at the start of a turn its doubling window is open."""
    CREW_ANSWERS = 1
    """The banker doubled: each doubled member takes or drops (CH-5)."""
    BANKER_ANSWERS = 2
    """Crew members doubled: the banker takes or drops each cube (CH-7)."""
    FINISHED = 9


@dataclass(frozen=True, slots=True)
class Lineup:
    """Who banks and the rotation order; ``rotation[0]`` is the captain (CH-2)."""

    banker: int
    rotation: tuple[int, ...]

    @property
    def captain(self) -> int:
        return self.rotation[0]

    def to_json(self) -> dict[str, Any]:
        return {"banker": self.banker, "rotation": list(self.rotation)}


def draw_order(
    seats: Sequence[int],
    roll: Callable[[int], Sequence[int]],
    rolled: Callable[[Sequence[int], Sequence[int]], None] | None = None,
) -> Lineup:
    """CH-2: one die each, highest banks; ties are rolled again among the tied only.

    ``roll(n)`` gives n dice (the server's fair dice; fixed dice in tests);
    ``rolled(group, dice)``, if given, hears each roll with the seats it was for.

    >>> rolls = iter([(5, 6, 2, 5), (3, 1)])  # CH-E1: Ann, Ben, Cid, Dora
    >>> draw_order([0, 1, 2, 3], lambda n: next(rolls))
    Lineup(banker=1, rotation=(0, 3, 2))
    """
    if not MIN_SEATS <= len(seats) <= MAX_SEATS or len(set(seats)) != len(seats):
        raise InvalidOptions(f"chouette is for {MIN_SEATS}-{MAX_SEATS} distinct participants")

    def ranked(group: Sequence[int]) -> list[int]:
        dice = list(roll(len(group)))
        if len(dice) != len(group) or not all(1 <= d <= 6 for d in dice):
            raise ValueError(f"{len(group)} dice expected, got {dice}")
        if rolled is not None:
            rolled(group, dice)
        order: list[int] = []
        for value in sorted(set(dice), reverse=True):
            tied = [seat for seat, die in zip(group, dice, strict=True) if die == value]
            order += tied if len(tied) == 1 else ranked(tied)
        return order

    order = ranked(list(seats))
    return Lineup(order[0], tuple(order[1:]))


@dataclass(frozen=True, slots=True)
class Double:
    """The banker doubles ``cubes`` (crew seats; empty: every cube he may turn), or a
    crew member calls a double on his own cube (``cubes`` left empty)."""

    seat: int
    cubes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Answer:
    """Take or drop a double: a crew member answers for his own cube, the banker for
    the cube of crew seat ``cube``."""

    seat: int
    take: bool
    cube: int | None = None


BoardMove = act.Roll | act.Move | act.Undo | act.Confirm | act.PlayText


@dataclass(frozen=True, slots=True)
class Board:
    """A move on the board (roll, step, undo, confirm, a whole play) by banker or captain.

    Nothing else reaches the board (GEN-3): it would allow a resignation, its own
    cube and a timeout, which chouette replaces with drops (CH-10), each member's
    cube (CH-3) and :class:`Timeout` (PL-7).
    """

    seat: int
    action: BoardMove


@dataclass(frozen=True, slots=True)
class Timeout:
    """The server reports that ``seat`` ran out of time or left (PL-7)."""

    seat: int


Action = act.Start | Double | Answer | Board | Timeout


@dataclass(frozen=True, slots=True)
class Step:
    game: ChouetteGame
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """One chouette game; build with :meth:`create`, change with :meth:`apply`."""

    board: RaceGame
    lineup: Lineup
    cubes: tuple[tuple[int, Cube], ...]
    """Crew seat → his cube, in seat order."""
    out: frozenset[int] = frozenset()
    """Crew members who left this game by a drop or a forfeit."""
    phase: Phase = Phase.BOARD
    pending: tuple[int, ...] = ()
    """Doubled cubes still waiting for their answer."""
    takers: tuple[int, ...] = ()
    """Members who took a banker's double in the current answer round (CH-6)."""
    called: tuple[int, ...] = ()
    """Crew members who called a double in the open crew window."""
    window_closed: bool = False
    """The doubling window of this turn has passed: the roller may only roll."""
    roll_after: bool = False
    """The captain chose to roll while bettors' doubles were called."""
    paid: tuple[tuple[int, int], ...] = ()
    """Stakes that changed hands so far, per seat (drops, forfeits, the settlement)."""
    winner: str | None = None
    """``"banker"`` or ``"crew"`` once finished, as judged for the rotation (CH-9)."""
    reason: str | None = None
    next_lineup: Lineup | None = None
    seq: int = 0

    # --- creation and replay ------------------------------------------------------

    @classmethod
    def create(cls, lineup: Lineup, *, commit: str | None = None) -> tuple[ChouetteGame, Event]:
        seats = (lineup.banker, *lineup.rotation)
        if not MIN_SEATS <= len(seats) <= MAX_SEATS or len(set(seats)) != len(seats):
            raise InvalidOptions(f"chouette is for {MIN_SEATS}-{MAX_SEATS} distinct participants")
        _, board_created = RaceGame.create("backgammon", RaceOptions(), commit=commit)
        event: Event = {"type": "created", "game": "chouette", **lineup.to_json(),
                        "board": board_created}  # fmt: skip
        return from_created(event), {**event, "seq": 0}

    # --- reading ------------------------------------------------------------------

    @property
    def banker(self) -> int:
        return self.lineup.banker

    @property
    def captain(self) -> int:
        return self.lineup.captain

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def cube_of(self, seat: int) -> Cube:
        return dict(self.cubes)[seat]

    @property
    def crew_in(self) -> tuple[int, ...]:
        """Crew members still betting, in rotation order (the captain first)."""
        return tuple(seat for seat in self.lineup.rotation if seat not in self.out)

    @property
    def window_open(self) -> bool:
        """The start of a turn, before its roll, with this turn's doubles not yet made."""
        return (
            self.phase is Phase.BOARD
            and self.board.phase is BoardPhase.ROLL
            and not self.window_closed
        )

    def side_of(self, seat: int) -> Side | None:
        """The board side ``seat`` plays now: the banker White, the captain Black."""
        if seat == self.banker:
            return BANKER
        if seat == self.captain and not self.finished:
            return CREW
        return None

    def doublable(self, seat: int) -> tuple[int, ...]:
        """The cubes ``seat`` may double now (crew seats)."""
        if not self.window_open:
            return ()
        turn = self.board.position.turn
        if seat == self.banker and turn is BANKER:
            return tuple(s for s in self.crew_in if self.cube_of(s).can_double(BANKER))
        if seat in self.crew_in and turn is CREW and seat not in self.called:
            return (seat,) if self.cube_of(seat).can_double(CREW) else ()
        return ()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose action the game waits for (several while doubles are answered)."""
        if self.finished or self.board.phase is BoardPhase.OPENING:
            return ()
        if self.phase is Phase.CREW_ANSWERS:
            return self.pending
        if self.phase is Phase.BANKER_ANSWERS:
            return (self.banker,)
        side = self.board.to_act
        return (self.banker,) if side is BANKER else (self.captain,)

    def exposure(self, seat: int) -> int:
        """CH-10: stakes to hold in escrow now (a member 3 × cube, the banker their sum).

        A cube doubled and not yet answered counts at its doubled value: the escrow
        holds the largest loss the answer can bring, from the moment of the offer (PL-5).
        """
        if seat == self.banker:
            return sum(LARGEST_LEVEL * self.at_stake(s) for s in self.crew_in)
        if seat in self.crew_in:
            return LARGEST_LEVEL * self.at_stake(seat)
        return 0

    def at_stake(self, member: int) -> int:
        """A member's cube value, doubled while a double of it (the banker's, or one he
        called) waits for its answer."""
        value = self.cube_of(member).value
        return 2 * value if member in self.pending or member in self.called else value

    def payout(self) -> tuple[tuple[int, int], ...]:
        """Stakes each seat received (negative: paid) so far; always sums to zero."""
        totals = dict.fromkeys((self.banker, *self.lineup.rotation), 0)
        for seat, amount in self.paid:
            totals[seat] += amount
        return tuple(totals.items())

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (a bot's or a fuzzer's menu)."""
        if self.board.phase is BoardPhase.OPENING:
            return [act.Start()]
        if self.finished:
            return []
        found: list[Action] = []
        if self.phase is Phase.CREW_ANSWERS and seat in self.pending:
            found += [Answer(seat, True), Answer(seat, False)]
        elif self.phase is Phase.BANKER_ANSWERS and seat == self.banker:
            for cube in self.pending:
                found += [Answer(seat, True, cube), Answer(seat, False, cube)]
        elif self.phase is Phase.BOARD:
            side = self.side_of(seat)
            if side is not None and self.board.to_act is side:
                moves = act.Roll | act.Move | act.Undo | act.Confirm
                found += [
                    Board(seat, a) for a in self.board.legal_actions() if isinstance(a, moves)
                ]
            if self.doublable(seat):
                found.append(Double(seat))
        return found

    # --- acting -------------------------------------------------------------------

    def apply(self, action: Action, dice: act.DiceSource | None = None) -> Step:
        """Check ``action``, then return the new game and its events (nothing changes on error)."""
        events: list[Event] = []
        game = _Decider(self, dice, events).decide(action)
        return Step(game, tuple(events))


def from_created(event: Event) -> ChouetteGame:
    lineup = Lineup(event["banker"], tuple(event["rotation"]))
    cubes = tuple((seat, Cube()) for seat in sorted(lineup.rotation))
    return ChouetteGame(board_from_created(event["board"]), lineup, cubes)


def replay(created: Event, events: Iterable[Event]) -> ChouetteGame:
    game = from_created(created)
    for event in events:
        game = evolve(game, event)
    return game


# --- evolve: the only place state changes -------------------------------------------


def evolve(game: ChouetteGame, event: Event) -> ChouetteGame:
    """Apply one recorded event (already checked when it was decided)."""
    kind = event["type"]
    changes: dict[str, Any] = {"seq": game.seq + 1}
    if kind == "board":
        board = evolve_board(game.board, event["e"])
        changes["board"] = board
        if event["e"]["type"] in ("played", "passed"):  # a new turn: a new window
            changes.update(window_closed=False, called=())
    elif kind == "banker_doubled":
        changes.update(phase=Phase.CREW_ANSWERS, pending=tuple(event["cubes"]), takers=())
    elif kind == "double_called":
        changes["called"] = (*game.called, event["seat"])
    elif kind == "crew_doubled":
        changes.update(phase=Phase.BANKER_ANSWERS, pending=tuple(event["cubes"]), called=(),
                       roll_after=event["roll_after"])  # fmt: skip
    elif kind == "cube_taken":
        member = event["cube"]
        taker = CREW if game.phase is Phase.CREW_ANSWERS else BANKER
        changes["cubes"] = _set_cube(game.cubes, member, game.cube_of(member).taken_by(taker))
        changes["pending"] = tuple(s for s in game.pending if s != member)
        if taker is CREW:
            changes["takers"] = (*game.takers, member)
    elif kind in ("cube_dropped", "forfeited"):
        member = event["cube"]
        changes["out"] = game.out | {member}
        changes["pending"] = tuple(s for s in game.pending if s != member)
        changes["paid"] = (*game.paid, *((s, a) for s, a in event["paid"]))
    elif kind == "answers_in":
        changes.update(phase=Phase.BOARD, pending=(), takers=(), window_closed=True,
                       lineup=Lineup(game.banker, tuple(event["rotation"])))  # fmt: skip
        if not event.get("roll_next"):
            changes["roll_after"] = False
    elif kind == "captain_replaced":
        changes["lineup"] = Lineup(game.banker, tuple(event["rotation"]))
    elif kind == "rolling_on":
        changes["roll_after"] = False
    elif kind == "finished":
        changes.update(
            phase=Phase.FINISHED, pending=(), winner=event["winner"], reason=event["reason"],
            paid=(*game.paid, *((s, a) for s, a in event["paid"])),
            next_lineup=Lineup(event["next"]["banker"], tuple(event["next"]["rotation"])),
        )  # fmt: skip
    elif kind != "timeout":
        raise ValueError(f"unknown event type {kind!r}")
    return replace(game, **changes)


def _set_cube(cubes: tuple[tuple[int, Cube], ...], seat: int, cube: Cube) -> tuple[Any, ...]:
    return tuple((s, cube if s == seat else c) for s, c in cubes)


# --- decide: checking actions and choosing events ------------------------------------


def _check_board_move(move: object) -> None:
    """Refuse what the board would take but chouette does not (GEN-3), naming why."""
    if isinstance(move, BoardMove):
        return
    if isinstance(move, act.Resign | act.AcceptResign | act.DeclineResign):
        raise IllegalAction("no resignation in chouette (CH-10): a member leaves by a drop")
    if isinstance(move, act.Double | act.Take | act.Drop | act.Beaver):
        raise IllegalAction(
            "the board has no cube: each member's own cube (CH-3) is doubled and answered"
            " with chouette's Double and Answer"
        )
    if isinstance(move, act.Timeout):
        raise IllegalAction("a timeout is the server's Timeout of a seat (PL-7), not a board move")
    raise IllegalAction(f"{move!r} is not a move on the board (roll, step, undo, confirm, play)")


class _Decider:
    def __init__(self, game: ChouetteGame, dice: act.DiceSource | None, out: list[Event]):
        self.game = game
        self.dice = dice
        self.out = out

    def emit(self, event: Event) -> None:
        event["seq"] = self.game.seq + 1
        self.game = evolve(self.game, event)
        self.out.append(event)

    def on_board(self, action: act.Action) -> None:
        """Play ``action`` on the board and wrap what it produced; settle if it ended."""
        step = self.game.board.apply(action, self.dice)
        for board_event in step.events:
            self.emit({"type": "board", "e": board_event})
        if self.game.board.finished:
            self.settle()

    def decide(self, action: Action) -> ChouetteGame:
        game = self.game
        if game.finished:
            raise IllegalAction("the game is over")
        if isinstance(action, act.Start):
            self.on_board(action)
            return self.game
        if game.board.phase is BoardPhase.OPENING:
            raise IllegalAction("the game has not started")
        if isinstance(action, Timeout):
            self.on_timeout(action.seat)
        elif isinstance(action, Double):
            self.on_double(action)
        elif isinstance(action, Answer):
            self.on_answer(action)
        elif isinstance(action, Board):
            self.on_board_action(action)
        else:
            raise IllegalAction(f"not a chouette action: {action!r}")
        return self.game

    # -- the board

    def on_board_action(self, action: Board) -> None:
        game = self.game
        _check_board_move(action.action)
        if game.phase is not Phase.BOARD:
            raise NotYourTurn("the doubles must be answered first")
        side = game.side_of(action.seat)
        if side is None or game.board.to_act is not side:
            raise NotYourTurn(f"seat {action.seat} does not move on the board now")
        move = replace(action.action, side=side)
        if isinstance(move, act.Roll) and game.window_open and side is CREW and game.called:
            # CH-7: the captain's roll closes the window; the called cubes go first.
            self.emit({"type": "crew_doubled", "cubes": list(game.called), "roll_after": True})
            return
        self.on_board(move)

    # -- doubles

    def on_double(self, action: Double) -> None:
        game, seat = self.game, action.seat
        may = game.doublable(seat)
        if not may:
            raise IllegalAction(f"seat {seat} may not double now (CH-5, CH-7)")
        if seat == game.banker:
            cubes = action.cubes or may
            if not set(cubes) <= set(may) or len(set(cubes)) != len(cubes):
                raise IllegalAction(f"the banker may double only the cubes {list(may)} (CH-5)")
            self.emit({"type": "banker_doubled", "cubes": [s for s in game.crew_in if s in cubes]})
            return
        if action.cubes not in ((), (seat,)):
            raise IllegalAction("a crew member doubles his own cube only (CH-3)")
        self.emit({"type": "double_called", "seat": seat})
        if seat == game.captain:  # the captain's double closes the window at once
            called = [s for s in self.game.crew_in if s in self.game.called]
            self.emit({"type": "crew_doubled", "cubes": called, "roll_after": False})

    def on_answer(self, action: Answer) -> None:
        game, seat = self.game, action.seat
        if game.phase is Phase.CREW_ANSWERS:
            if seat not in game.pending or action.cube not in (None, seat):
                raise NotYourTurn(f"seat {seat} has no double to answer")
            member, payer_is_member = seat, True
        elif game.phase is Phase.BANKER_ANSWERS:
            if seat != game.banker:
                raise NotYourTurn("the banker answers the crew's doubles")
            if action.cube not in game.pending:
                raise IllegalAction(f"answer one of the doubled cubes {list(game.pending)}")
            member, payer_is_member = action.cube, False
        else:
            raise IllegalAction("there is no double to answer")
        if action.take:
            self.emit({"type": "cube_taken", "cube": member})
        else:
            self.drop(member, payer_is_member)
        if not self.game.pending:
            self.answers_in()

    def drop(self, member: int, member_pays: bool, kind: str = "cube_dropped") -> None:
        """A drop pays the cube's value before the double at once, to the other side of
        that cube (CH-5, CH-7); a forfeiting captain's cube pays its value now (PL-7)."""
        game = self.game
        amount = game.cube_of(member).value
        sign = -1 if member_pays else 1
        paid = [[member, sign * amount], [game.banker, -sign * amount]]
        self.emit({"type": kind, "cube": member, "paid": paid})

    def answers_in(self) -> None:
        """Every double answered: captaincy (CH-6, CH-7), the end if nobody is left."""
        game = self.game
        rotation = self.passed_on(game, game.takers if game.phase is Phase.CREW_ANSWERS else ())
        if not [s for s in rotation if s not in game.out]:
            self.emit({"type": "answers_in", "rotation": list(rotation)})
            self.last_member_left(rotation[-1], banker_won=game.phase is Phase.CREW_ANSWERS)
            return
        same_captain = rotation[0] == game.captain
        roll_next = game.roll_after and same_captain
        self.emit({"type": "answers_in", "rotation": list(rotation), "roll_next": roll_next})
        if roll_next:
            self.emit({"type": "rolling_on"})
            self.on_board(act.Roll(CREW))

    @staticmethod
    def passed_on(game: ChouetteGame, takers: Sequence[int]) -> tuple[int, ...]:
        """The rotation once the captain left: the first taker (else the first member
        still in) leads, the old captain goes to the end (CH-6, CH-7)."""
        rotation = game.lineup.rotation
        captain = rotation[0]
        if captain not in game.out:
            return rotation
        staying = [s for s in rotation[1:] if s not in game.out]
        if not staying:
            return (*rotation[1:], captain)
        first_taker = [s for s in rotation if s in takers]
        leader = first_taker[0] if first_taker else staying[0]
        rest = [s for s in rotation[1:] if s != leader]
        return (leader, *rest, captain)

    # -- timeouts

    def on_timeout(self, seat: int) -> None:
        game = self.game
        if seat not in game.waiting_for():
            raise IllegalAction(f"nothing waits on seat {seat}")
        self.emit({"type": "timeout", "seat": seat})
        if game.phase is Phase.CREW_ANSWERS:  # an unanswered double is a drop
            self.drop(seat, member_pays=True)
            if not self.game.pending:
                self.answers_in()
        elif game.phase is Phase.BANKER_ANSWERS:
            for member in game.pending:
                self.drop(member, member_pays=False)
            self.answers_in()
        elif seat == game.banker:
            level = forfeit_level(game.board.position, BANKER)
            self.settle(winner=CREW, level=level, reason="PL-7")
        else:  # PL-7: the captain drops his cube at its value now and is replaced (CH-7)
            self.drop(seat, member_pays=True, kind="forfeited")
            rotation = self.passed_on(self.game, ())
            if not [s for s in rotation if s not in self.game.out]:
                self.emit({"type": "answers_in", "rotation": list(rotation)})
                self.last_member_left(seat, banker_won=True)
                return
            # The new captain takes the turn over where it stands: the dice and steps
            # if rolled, else the open window with the bettors' calls in it.
            self.emit({"type": "captain_replaced", "rotation": list(rotation)})

    # -- the end

    def settle(self, winner: Side | None = None, level: int = 0, reason: str = "") -> None:
        """CH-8: the board's result settles every member still in: level × cube × S."""
        game = self.game
        if winner is None:
            result = game.board.result
            assert result is not None and result.winner is not None
            winner, level, reason = result.winner, result.level, result.reason
        sign = 1 if winner is CREW else -1
        paid: list[list[int]] = []
        for member in game.crew_in:
            amount = sign * level * game.cube_of(member).value
            paid += [[member, amount], [game.banker, -amount]]
        self.finish("crew" if winner is CREW else "banker", reason, paid, game.captain)

    def last_member_left(self, member: int, *, banker_won: bool) -> None:
        """CH-8: nobody is left betting; CH-9 judges by how that member left."""
        self.finish("banker" if banker_won else "crew", "CH-8", [], member)

    def finish(self, winner: str, reason: str, paid: list[list[int]], captain: int) -> None:
        game = self.game
        others = [s for s in game.lineup.rotation if s != captain]
        if winner == "crew":  # CH-9: the captain banks, the old banker goes to the end
            following = Lineup(captain, (*others, game.banker))
        else:
            following = Lineup(game.banker, (*others, captain))
        self.emit({"type": "finished", "winner": winner, "reason": reason, "paid": paid,
                   "next": following.to_json()})  # fmt: skip


__all__ = [
    "Answer",
    "Board",
    "ChouetteGame",
    "Double",
    "Lineup",
    "Phase",
    "Step",
    "Timeout",
    "draw_order",
    "replay",
]
