"""One interface over the three kinds of table the club runs: a money game of a
race variant, a match to N points, and a draughts game.

A round never looks inside ``sheshbesh.play``: it parses a client's action with
:meth:`Table.parse`, applies it with :meth:`Table.apply`, shows the state with
:meth:`Table.view`, and asks :meth:`Table.exposure` how much each side could
still lose (PL-5) and :meth:`Table.payout` who is paid what at the end. Seats
are the club's (0: the request's owner, 1: who accepted); sides are the game's
colours; :meth:`Table.side_of` maps one to the other (SN-2: in nardy the
opening winner takes White).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play import draughts as dr
from sheshbesh.play.clock import Clock
from sheshbesh.play.clocking import clock_after
from sheshbesh.play.errors import IllegalAction, NotYourTurn
from sheshbesh.play.ids import gnubg_ids
from sheshbesh.play.match import Match, evolve_match, replay_match
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Event, Phase, RaceGame, replay
from sheshbesh.play.race import evolve as evolve_game
from sheshbesh.play.result import exposure
from sheshbesh.server.errors import BadAction


@dataclass(frozen=True, slots=True)
class Applied:
    """What one action did: the table after it, its events, and the clock after it."""

    table: Table
    events: tuple[Event, ...]
    clock: Clock | None
    notes: list[Any] = field(default_factory=list)
    """Notifications the stored action wrote (a finished game's results), pushed after commit."""


class Table:
    """Base of the three kinds; the state is an immutable game value inside."""

    kind = ""

    def __init__(self, state: Any) -> None:
        self.state = state
        self._legal_actions: list[Any] | None = None
        self._menu: list[dict[str, Any]] | None = None

    def legal_actions(self) -> list[Any]:
        """The game's legal actions, computed once per table: its state never changes, and
        a move asked for them three or four times (the parse, the menu sent, the cover
        check, the other process's fold), each a full move generation."""
        if self._legal_actions is None:
            self._legal_actions = self.state.legal_actions()
        return self._legal_actions

    # --- reading ------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return int(self.state.seq)

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    @property
    def to_act(self) -> Side | None:
        side = self.state.to_act
        return None if side is None else Side(side)

    @property
    def offer_seq(self) -> int | None:
        """The sequence number of the event that opened the cube offer the game waits on
        (a double, with a beaver after it), or ``None``: spectators are not shown an
        offer until it is answered (PL-3)."""
        return None

    def only_answered_since(self, seen: int, side: Side) -> bool:
        """Whether the one event after ``seen`` is the other side's answer to an offer of
        ``side``'s that left ``side`` to act as he was: an action he sent at ``seen`` is
        still the one he meant, and is decided, not refused as stale."""
        return False

    def offered_cube(self) -> tuple[str, int] | None:
        """The pending cube offer, ``("double" | "beaver", value asked)``, or ``None``."""
        return None

    def white_seat(self) -> int:
        return 0

    def side_of(self, seat: int) -> Side:
        return Side.WHITE if seat == self.white_seat() else Side.BLACK

    def seat_of(self, side: Side) -> int:
        return self.white_seat() if side is Side.WHITE else 1 - self.white_seat()

    def exposure(self) -> int:
        """The most stakes either side can lose from here, a pending double included."""
        return 1

    def exposure_after(self, data: Any, side: Side) -> int:
        """The exposure once ``side`` has sent the action ``data`` (one its menu offers)."""
        state, _ = self.step(self.parse(data, side), None)
        return type(self)(state).exposure()

    def payout(self) -> dict[Side, int] | None:
        """Stakes paid to each side once finished (negative: paid by); ``None`` while live."""
        result = self.state.result
        if result is None:
            return None
        return {side: amount for side, amount in result.payout}

    def view(self) -> dict[str, Any]:
        raise NotImplementedError

    def score(self) -> dict[str, int] | None:
        """A match's score, ``{"W": …, "B": …}`` (its view's ``match.score``); else None."""
        return None

    def legal(self) -> list[dict[str, Any]]:
        """The actions open to the side to act, as frames a client may send: built once per
        table, like :meth:`legal_actions` (the cover check and the menu sent to the mover
        both read it). Shared: read it, never change it."""
        if self._menu is None:
            self._menu = self.menu()
        return self._menu

    def menu(self) -> list[dict[str, Any]]:
        """:meth:`legal`, built: what each kind of table offers."""
        raise NotImplementedError

    def offered(self, side: Side) -> frozenset[str]:
        """The action types the game's menu offers ``side`` now (an answer to an offer
        included, whoever is to move)."""
        return frozenset(
            self.type_of(action)
            for action in self.legal_actions()
            if not _server(action) and action.side is side
        )

    def type_of(self, action: Any) -> str:
        raise NotImplementedError

    # --- acting -------------------------------------------------------------------

    actions: ClassVar[dict[str, Callable[[Side, dict[str, Any]], Any]]] = {}
    """Each action type a client may send, read from the frame's fields."""
    refusals: ClassVar[dict[str, str]] = {}
    """Why the menu does not offer an action type (the common reason, with its rule)."""

    def parse(self, data: Any, side: Side) -> Any:
        """The action a client's frame asks for, if the menu offers ``side`` its type now.

        Malformed fields are a :class:`BadAction`; a well-formed action the menu does
        not offer is refused here, as ``NotYourTurn`` (nothing is offered to the side)
        or ``IllegalAction``, so it never reaches the game (issue 16). An offered type
        goes on to the game, which checks the details (the step, the level…).
        """
        kind = _kind(data)
        if kind not in self.actions:
            raise BadAction(f"unknown action {kind!r}; one of: {', '.join(self.actions)}")
        action = self.actions[kind](side, data)
        offered = self.offered(side)
        if kind in offered:
            return action
        if not offered or side is not self.to_act:
            waiting = "nobody" if self.to_act is None else self.to_act.name.lower()
            raise NotYourTurn(f"{side.name.lower()} cannot {kind} now: waiting for {waiting}")
        why = self.refusals.get(kind, f"{kind} is not possible now")
        raise IllegalAction(f"{why}; you may: {', '.join(sorted(offered))}")

    def step(self, action: Any, dice: act.DiceSource | None) -> tuple[Any, tuple[Event, ...]]:
        raise NotImplementedError

    def timeout(self, side: Side) -> Any:
        return act.Timeout(side)

    def start(self, dice: act.DiceSource | None) -> tuple[Table, tuple[Event, ...]]:
        """Apply the server's own actions the game waits for (opening rolls); else nothing."""
        return self, ()

    def apply(
        self, action: Any, dice: act.DiceSource | None, clock: Clock | None, now: float
    ) -> Applied:
        """Apply ``action`` at ``now``; a fallen flag turns it into the running side's timeout.

        The clock follows the game by :func:`sheshbesh.play.clocking.clock_after`,
        the one rule every table keeps: a turn's end presses it, an answer owed by
        the other side (a double, a beaver, a resignation) runs that side's clock
        with a delay of its own and holds the mover's turn, which the answer gives
        back with the delay it had left (PL-6), the end stops it. ``before`` is
        read before the action, the rest after the server's own actions too (a
        match's next opening roll), so the clock runs for whoever the next game
        waits for.
        """
        before = self.to_act
        if clock is not None and clock.control.timed:
            flagged = clock.flagged(now)
            if flagged is not None:
                action = self.timeout(Side(flagged))
        state, events = self.step(action, dice)
        table: Table = type(self)(state)
        table, started = table.start(dice)
        events = (*events, *started)
        after = None if clock is None else clock_after(clock, before, table, events, now)
        return Applied(table, events, after)

    def to_json(self, data: Any) -> Any:
        return data

    def fold(self, events: list[Event]) -> Table:
        """The table after ``events`` that another process decided and stored (the same
        fold a replay of the log makes, from here on instead of from the start)."""
        state = self.state
        for event in events:
            state = self.evolve(state, event)
        return type(self)(state)

    @staticmethod
    def evolve(state: Any, event: Event) -> Any:
        raise NotImplementedError


# --- race: money games and matches ----------------------------------------------------

RACE_ACTIONS: dict[str, Callable[[Side, dict[str, Any]], act.Action]] = {
    "roll": lambda side, d: act.Roll(side, _opt_str(d, "nonce")),
    "move": lambda side, d: act.Move(side, _int(d, "from"), _int(d, "to"), _opt_int(d, "die")),
    "undo": lambda side, d: act.Undo(side),
    "confirm": lambda side, d: act.Confirm(side),
    "play": lambda side, d: act.PlayText(side, _str(d, "text")),
    "double": lambda side, d: act.Double(side),
    "take": lambda side, d: act.Take(side),
    "drop": lambda side, d: act.Drop(side),
    "beaver": lambda side, d: act.Beaver(side),
    "resign": lambda side, d: act.Resign(side, _int(d, "level")),
    "accept_resign": lambda side, d: act.AcceptResign(side),
    "decline_resign": lambda side, d: act.DeclineResign(side),
}


RACE_TYPES: dict[type, str] = {
    act.Roll: "roll", act.Move: "move", act.Undo: "undo", act.Confirm: "confirm",
    act.PlayText: "play", act.Double: "double", act.Take: "take", act.Drop: "drop",
    act.Beaver: "beaver", act.Resign: "resign", act.AcceptResign: "accept_resign",
    act.DeclineResign: "decline_resign",
}  # fmt: skip
RACE_REFUSALS = {
    "roll": "you roll at the start of your turn",
    "move": "there is no step to enter now",
    "undo": "there is no step to take back",
    "confirm": "there is no complete play to confirm",
    "play": "there are no dice to play now",
    "double": "you may not double now (BG-11, BG-13, BG-14, BG-19)",
    "take": "there is no double to take (BG-12)",
    "drop": "there is no double to drop (BG-12)",
    "beaver": "you may not beaver now (BG-16)",
    "resign": "you may offer to resign once per turn, on your turn (BF-15)",
    "accept_resign": "there is no resignation offer to answer (BF-15)",
    "decline_resign": "there is no resignation offer to answer (BF-15)",
}


def race_action_json(action: act.Action) -> dict[str, Any]:
    """The frame a client sends for ``action`` (the inverse of :meth:`RaceTable.parse`)."""
    if isinstance(action, act.Move):
        frame: dict[str, Any] = {"type": "move", "from": action.src, "to": action.dst}
        if action.die is not None:
            frame["die"] = action.die
        return frame
    if isinstance(action, act.Resign):
        return {"type": "resign", "level": action.level}
    return {"type": RACE_TYPES[type(action)]}


class RaceTable(Table):
    """One money game of a race variant (a :class:`RaceGame`)."""

    kind = "race"
    actions = RACE_ACTIONS
    refusals = RACE_REFUSALS

    @classmethod
    def create(cls, variant: str, options: RaceOptions, commit: str) -> tuple[Table, Event]:
        game, created = RaceGame.create(variant, options, commit=commit)
        return cls(game), created

    @classmethod
    def replay(cls, created: Event, events: list[Event]) -> Table:
        return cls(replay(created, events))

    @staticmethod
    def evolve(state: Any, event: Event) -> Any:
        return evolve_game(state, event)

    @property
    def game(self) -> RaceGame:
        return self.state  # type: ignore[no-any-return]

    def white_seat(self) -> int:
        return self.game.white_seat

    @property
    def offer_seq(self) -> int | None:
        """A double is one event (``doubled``) and a beaver one more (``beavered``)."""
        phase = self.game.phase
        if self.finished or phase not in (Phase.DOUBLED, Phase.BEAVERED):
            return None
        return self.seq if phase is Phase.DOUBLED else self.seq - 1

    def offered_cube(self) -> tuple[str, int] | None:
        if self.offer_seq is None:
            return None
        cube = self.game.cube.value  # a beaver has turned it already; a double has not
        return ("double", cube * 2) if self.game.phase is Phase.DOUBLED else ("beaver", cube)

    def exposure(self) -> int:
        game = self.game
        cube = game.cube.value * (2 if game.phase is Phase.DOUBLED else 1)
        return exposure(game.rules, game.options, cube, doubled=game.doubled)

    def offered(self, side: Side) -> frozenset[str]:
        offered = super().offered(side)
        return offered | {"play"} if "move" in offered else offered  # a whole play at once

    def type_of(self, action: Any) -> str:
        return RACE_TYPES[type(action)]

    def step(self, action: Any, dice: act.DiceSource | None) -> tuple[Any, tuple[Event, ...]]:
        step = self.state.apply(action, dice)
        return step.game, step.events

    def start(self, dice: act.DiceSource | None) -> tuple[Table, tuple[Event, ...]]:
        if self.state.phase is not Phase.OPENING:
            return self, ()
        state, events = self.step(act.Start(), dice)
        return type(self)(state), events

    def menu(self) -> list[dict[str, Any]]:
        return [race_action_json(a) for a in self.legal_actions() if not _server(a)]

    def view(self) -> dict[str, Any]:
        return race_view(self.game) | {"kind": self.kind}


def race_view(game: RaceGame, ids: dict[str, str] | None = None) -> dict[str, Any]:
    """The game as clients see it (built for every move: kept cheap). ``ids``: gnubg's
    IDs when the caller has them (a match's carry its score), else the money game's."""
    position = game.position
    turn = game.turn
    to_act = game.to_act
    text = position.text()
    return {
        "variant": game.rules.name,
        "options": game.options.to_json(),
        "phase": game.phase.name.lower(),
        "position": text,
        "board": text if turn is None else turn.board().text(),
        "turn": position.turn.letter,
        "to_act": None if to_act is None else to_act.letter,
        "white_seat": game.white_seat,
        "dice": None if turn is None else list(turn.dice),
        "steps": [] if turn is None else [[s.src, s.dst, s.die] for s in turn.steps],
        "cube": game.cube.to_json(),
        "pips": {"W": position.pips(Side.WHITE), "B": position.pips(Side.BLACK)},
        "borne_off": {"W": position.borne_off(Side.WHITE), "B": position.borne_off(Side.BLACK)},
        "resign_offer": None
        if game.resign_offer is None
        else {"side": game.resign_offer[0].letter, "level": game.resign_offer[1]},
        "final_turn": game.final_turn,
        "resign_declined": game.resign_declined,
        "commit": game.commit,
        "result": None if game.result is None else game.result.to_json(),
        "last": None
        if game.before_play is None
        else {"side": game.before_play.turn.letter, "before": game.before_play.text()},
        "ids": gnubg_ids(game) if ids is None else ids,
    }


class MatchTable(RaceTable):
    """A match to N points: the stake is the whole prize, paid once (BG-18)."""

    kind = "match"

    @classmethod
    def create_match(
        cls, variant: str, length: int, options: RaceOptions, commit: str
    ) -> tuple[Table, Event]:
        match, created = Match.create(variant, length, options, commit=commit)
        return cls(match), created

    @classmethod
    def replay(cls, created: Event, events: list[Event]) -> Table:
        return cls(replay_match(created, events))

    @staticmethod
    def evolve(state: Any, event: Event) -> Any:
        return evolve_match(state, event)

    @property
    def game(self) -> RaceGame:
        return self.state.game  # type: ignore[no-any-return]

    def exposure(self) -> int:
        return 1

    def step(self, action: Any, dice: act.DiceSource | None) -> tuple[Any, tuple[Event, ...]]:
        step = self.state.apply(action, dice)
        return step.match, step.events

    def start(self, dice: act.DiceSource | None) -> tuple[Table, tuple[Event, ...]]:
        if self.state.finished or self.game.phase is not Phase.OPENING:
            return self, ()
        state, events = self.step(act.Start(), dice)
        return type(self)(state), events

    def score(self) -> dict[str, int] | None:
        match: Match = self.state
        return {"W": match.score[Side.WHITE], "B": match.score[Side.BLACK]}

    def view(self) -> dict[str, Any]:
        match: Match = self.state
        score = (match.score[Side.WHITE], match.score[Side.BLACK])
        ids = gnubg_ids(match.game, length=match.length, score=score, crawford=match.crawford)
        return race_view(match.game, ids) | {
            "kind": self.kind,
            "match": {
                "length": match.length,
                "score": self.score(),
                "game": match.number,
                "crawford": match.crawford,
                "result": None if match.result is None else match.result.to_json(),
            },
            "result": None if match.result is None else match.result.to_json(),
        }


# --- draughts -------------------------------------------------------------------------

DRAUGHTS_ACTIONS: dict[str, Callable[[Side, dict[str, Any]], Any]] = {
    "move": lambda side, d: dr.MoveAction(side, _str(d, "text")),
    "offer_draw": lambda side, d: dr.OfferDraw(side, _opt_str(d, "move")),
    "accept_draw": lambda side, d: dr.AcceptDraw(side),
    "decline_draw": lambda side, d: dr.DeclineDraw(side),
    "resign": lambda side, d: act.Resign(side, 1),
}


DRAUGHTS_TYPES: dict[type, str] = {
    dr.MoveAction: "move", dr.OfferDraw: "offer_draw", dr.AcceptDraw: "accept_draw",
    dr.DeclineDraw: "decline_draw", act.Resign: "resign",
}  # fmt: skip
DRAUGHTS_REFUSALS = {
    "move": "there is no move to make now",
    "offer_draw": "a draw may be offered on one's turn, once, after 40 moves each (DR-19)",
    "accept_draw": "there is no draw offer to answer (DR-19)",
    "decline_draw": "there is no draw offer to answer (DR-19)",
    "resign": "you resign on your turn (DR-13)",
}


class DraughtsTable(Table):
    kind = "draughts"
    actions = DRAUGHTS_ACTIONS
    refusals = DRAUGHTS_REFUSALS

    @classmethod
    def create(cls, options: dr.DraughtsOptions) -> tuple[Table, Event]:
        game, created = dr.DraughtsGame.create(options)
        return cls(game), created

    @classmethod
    def replay(cls, created: Event, events: list[Event]) -> Table:
        return cls(dr.replay(created, events))

    @staticmethod
    def evolve(state: Any, event: Event) -> Any:
        return dr.evolve(state, event)

    def type_of(self, action: Any) -> str:
        return DRAUGHTS_TYPES[type(action)]

    def only_answered_since(self, seen: int, side: Side) -> bool:
        """DR-19: he offered a draw at this ply and moves on; the opponent declined it
        meanwhile (no offer stands, no ply since his: the decline was the last event)."""
        game: dr.DraughtsGame = self.state
        return (
            seen == self.seq - 1
            and not game.finished
            and game.to_act is side
            and game.draw_offer is None
            and game.last_offer == (side, game.plies)
        )

    def step(self, action: Any, dice: act.DiceSource | None) -> tuple[Any, tuple[Event, ...]]:
        step = self.state.apply(action)
        return step.game, step.events

    def menu(self) -> list[dict[str, Any]]:
        frames: list[dict[str, Any]] = []
        mover = self.state.to_act
        for action in self.legal_actions():
            if getattr(action, "side", mover) is not mover:
                continue  # the answer to an offer made before the move is not the mover's
            if isinstance(action, dr.MoveAction):
                frames.append({"type": "move", "text": action.text})
            elif isinstance(action, dr.OfferDraw):
                frames.append({"type": "offer_draw", "move": action.move})
            elif isinstance(action, dr.AcceptDraw):
                frames.append({"type": "accept_draw"})
            elif isinstance(action, dr.DeclineDraw):
                frames.append({"type": "decline_draw"})
            elif isinstance(action, act.Resign):
                frames.append({"type": "resign"})
        return frames

    def view(self) -> dict[str, Any]:
        game: dr.DraughtsGame = self.state
        to_act = game.to_act
        return {
            "kind": self.kind,
            "variant": "draughts",
            "options": game.options.to_json(),
            "position": game.position.fen(),
            "to_act": None if to_act is None else to_act.letter,
            "white_seat": 0,
            "moves": [str(move) for move in game.board.moves],
            "draw_offer": None if game.draw_offer is None else game.draw_offer.letter,
            "result": None if game.result is None else game.result.to_json(),
        }


KINDS: dict[str, type[Table]] = {"race": RaceTable, "match": MatchTable, "draughts": DraughtsTable}


def replay_table(kind: str, created: Event, events: list[Event]) -> Table:
    return KINDS[kind].replay(created, events)  # type: ignore[attr-defined, no-any-return]


# --- frame fields ---------------------------------------------------------------------


def _server(action: Any) -> bool:
    return isinstance(action, act.Start | act.Timeout | act.PlayText)


def _kind(data: Any) -> str:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadAction("an action is an object with a 'type'")
    return str(data["type"])


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadAction(f"{name!r} must be a whole number")
    return value


def _opt_int(data: dict[str, Any], name: str) -> int | None:
    return None if data.get(name) is None else _int(data, name)


def _str(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise BadAction(f"{name!r} must be a string of 1-200 characters")
    return value


def _opt_str(data: dict[str, Any], name: str) -> str | None:
    return None if data.get(name) is None else _str(data, name)
