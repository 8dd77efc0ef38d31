"""One game of International draughts as a state machine: actions in, events out.

The same shape as :mod:`sheshbesh.play.race`: ``game.apply(action)`` checks the
action and returns ``Step(game, events)``; every change goes through
:func:`evolve`, one event at a time, so ``replay(created, events) == game``
(DESIGN principle 3). There are no dice, so ``apply`` takes none and the
``created`` event carries no commitment.

A turn is one move (DR-4: White first). The game ends by itself when the side
to move has no legal move (DR-13) or a draw rule applies (DR-14…DR-18), and by
action on a resignation (DR-13), an accepted draw offer (DR-19), a timeout or
abandonment reported by the server (PL-7, always a loss, never adjudicated) or
adjudication (DR-21: the table's move limit, or the server must stop the game).

Draw offers (DR-19) come in the two forms over-the-board play knows:
``OfferDraw(side)`` is made on one's own turn before moving, and
``OfferDraw(side, move)`` plays the move and offers with it, as the FMJD rules
ask (move, then offer, then press the clock). Either way each player must have
completed 40 moves when the offer is made: before the move for the first form,
after it for the second. The offer stands until the opponent accepts, declines
or moves (then it lapses); he may answer at any moment while it stands, even
while the offerer is still thinking, because an answer is not a move. One offer
per turn, and none while another stands.

The clock stays beside the game (docs/decisions.md, "Clocks beside the game"):
the game never reads time. :func:`sheshbesh.play.clocking.on_clock` applies an
action with the clock, as for every table: each move presses it, answers to a
draw offer leave it running, a fallen flag becomes a ``Timeout``.

>>> game, created = DraughtsGame.create()
>>> step = game.apply(MoveAction(Side.WHITE, "32-28"))
>>> [e["type"] for e in step.events], step.game.to_act
(['played'], <Side.BLACK: 1>)
>>> replay(created, step.events) == step.game
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from enum import IntEnum
from typing import Any

from sheshbesh.games.draughts import Color, Game, InvalidPosition, Position, adjudicate
from sheshbesh.games.draughts.game import DRAW_OFFER_MOVES
from sheshbesh.games.race import Side

from .actions import Resign, Timeout
from .errors import IllegalAction, InvalidOptions, NotYourTurn
from .result import Result

Event = dict[str, Any]
VARIANT = "draughts"
MAX_MOVE_LIMIT = 1000
"""A table move limit above this is a typo: no draughts game is that long."""


# --- actions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveAction:
    """Play one move in DR-4 notation (the FMJD short form ``32x14`` when unambiguous)."""

    side: Side
    text: str


@dataclass(frozen=True, slots=True)
class OfferDraw:
    """Offer a draw on one's own turn (DR-19), before ``move`` or together with it."""

    side: Side
    move: str | None = None


@dataclass(frozen=True, slots=True)
class AcceptDraw:
    side: Side


@dataclass(frozen=True, slots=True)
class DeclineDraw:
    side: Side


@dataclass(frozen=True, slots=True)
class Adjudicate:
    """The server must stop the game without a result from the rules (DR-21)."""


DraughtsAction = MoveAction | OfferDraw | AcceptDraw | DeclineDraw | Resign | Timeout | Adjudicate


# --- options and results -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DraughtsOptions:
    """What a table chose (GEN-3): a set-up start and the DR-21 move limit, both off by default.

    >>> DraughtsOptions(move_limit=80).check().move_limit
    80
    >>> DraughtsOptions(move_limit=-1).check()
    Traceback (most recent call last):
    ...
    sheshbesh.play.errors.InvalidOptions: move limit: 0 (off) or 1-1000 moves each, not -1 (DR-21)
    """

    start: str | None = None
    """FEN of a set-up position (lessons, problems, imported PDN); ``None`` is DR-3."""
    move_limit: int = 0
    """DR-21: once each side has made this many moves the game is adjudicated (0: off)."""

    def check(self) -> DraughtsOptions:
        """The options with the start in canonical FEN, or :class:`InvalidOptions`."""
        if isinstance(self.move_limit, bool) or not isinstance(self.move_limit, int):
            raise InvalidOptions(f"move limit: a number of moves, not {self.move_limit!r}")
        if not 0 <= self.move_limit <= MAX_MOVE_LIMIT:
            raise InvalidOptions(
                f"move limit: 0 (off) or 1-{MAX_MOVE_LIMIT} moves each, not {self.move_limit}"
                " (DR-21)"
            )
        if self.start is None:
            return self
        try:
            start = Position.from_fen(self.start)
        except InvalidPosition as error:
            raise InvalidOptions(f"start position: {error}") from None
        decided = Game.begin(start).outcome()
        if decided is not None:
            raise InvalidOptions(f"the start position {start.fen()} is decided: {decided.reason}")
        return replace(self, start=None if start == Position.start() else start.fen())

    def start_position(self) -> Position:
        return Position.start() if self.start is None else Position.from_fen(self.start)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DraughtsOptions:
        try:
            return cls(**data).check()
        except TypeError as error:
            raise InvalidOptions(f"unknown option: {error}") from None


def result_for(winner: Side | None, reason: str) -> Result:
    """DR-22: the winner receives the stake S from the loser; a draw returns both stakes.

    A win is one point at level 1 with no cube; ``reason`` is the rule ID.

    >>> result_for(Side.BLACK, "DR-13").payout
    ((<Side.BLACK: 1>, 1), (<Side.WHITE: 0>, -1))
    >>> result_for(None, "DR-14").points
    0
    """
    if winner is None:
        return Result(None, 0, 1, 0, reason, ((Side.WHITE, 0), (Side.BLACK, 0)))
    return Result(winner, 1, 1, 1, reason, ((winner, 1), (winner.other, -1)))


def side_of(color: Color) -> Side:
    return Side.WHITE if color is Color.WHITE else Side.BLACK


def color_of(side: Side) -> Color:
    return Color.WHITE if side is Side.WHITE else Color.BLACK


# --- the game ------------------------------------------------------------------------


class Phase(IntEnum):
    """Ordered so that ``phase >= Phase.FINISHED`` is the one test for the end."""

    MOVE = 0
    FINISHED = 9


@dataclass(frozen=True, slots=True)
class Step:
    """The game after an action and the events that led there, in order."""

    game: DraughtsGame
    events: tuple[Event, ...]

    @property
    def after(self) -> DraughtsGame:
        """The game after the action, under the name :mod:`sheshbesh.play.clocking` reads."""
        return self.game


@dataclass(frozen=True, slots=True)
class DraughtsGame:
    """The whole state of one game; build with :meth:`create`, change with :meth:`apply`.

    ``board`` is the rules' :class:`~sheshbesh.games.draughts.Game`: the position
    with every move played and the draw counters. ``draw_offer`` is the side whose
    offer stands; ``last_offer`` the side and ply of the latest offer (one per turn).
    """

    options: DraughtsOptions
    board: Game
    phase: Phase = Phase.MOVE
    draw_offer: Side | None = None
    last_offer: tuple[Side, int] | None = None
    result: Result | None = None
    seq: int = 0

    @classmethod
    def create(cls, options: DraughtsOptions | None = None) -> tuple[DraughtsGame, Event]:
        """A new game with White to move (or the set-up side), and its ``created`` event."""
        options = (options or DraughtsOptions()).check()
        event: Event = {"type": "created", "variant": VARIANT, "options": options.to_json()}
        return from_created(event), {**event, "seq": 0}

    # --- reading ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase >= Phase.FINISHED

    @property
    def position(self) -> Position:
        return self.board.position

    @property
    def to_act(self) -> Side | None:
        """The side to move; ``None`` once the game is over."""
        return None if self.finished else side_of(self.board.turn)

    @property
    def plies(self) -> int:
        return len(self.board.moves)

    def moves_made(self, side: Side) -> int:
        return self.board.moves_made(color_of(side))

    def can_offer_draw(self, side: Side, *, with_move: bool = False) -> bool:
        """DR-19: on one's own turn, no offer standing, one per turn, 40 moves each.

        With ``with_move`` the count is taken after the move that carries the offer.
        """
        if side is not self.to_act or self.draw_offer is not None:
            return False
        if self.last_offer == (side, self.plies):
            return False
        own = self.moves_made(side) + (1 if with_move else 0)
        return min(own, self.moves_made(side.other)) >= DRAW_OFFER_MOVES

    def can_answer_draw(self, side: Side) -> bool:
        """The opponent of a standing offer may accept or decline it, on any turn."""
        return not self.finished and self.draw_offer is side.other

    def can_resign(self, side: Side) -> bool:
        """DR-13: on one's own turn."""
        return side is self.to_act

    def legal_actions(self) -> list[DraughtsAction]:
        """Every action a player may take now (a bot's or a fuzzer's menu).

        Moves are in the rules' order; once DR-19 allows, each move is listed a
        second time with a draw offer attached. A standing offer's answers are
        the offered side's, whoever is to move. Server actions (``Timeout``,
        ``Adjudicate``) are not listed.
        """
        side = self.to_act
        if side is None:
            return []
        moves = [str(m) for m in self.board.legal_moves()]
        actions: list[DraughtsAction] = [MoveAction(side, m) for m in moves]
        if self.can_offer_draw(side):
            actions.append(OfferDraw(side))
        if self.can_offer_draw(side, with_move=True):
            actions += [OfferDraw(side, m) for m in moves]
        if self.draw_offer is not None:
            answering = self.draw_offer.other
            actions += [AcceptDraw(answering), DeclineDraw(answering)]
        actions.append(Resign(side, 1))
        return actions

    # --- acting -------------------------------------------------------------------

    def apply(self, action: DraughtsAction) -> Step:
        """Check ``action``, then return the new game and its events (nothing changes on error).

        Raises ``NotYourTurn``, ``IllegalAction``, or the rules' ``IllegalMove``,
        ``InvalidMove`` and ``AmbiguousMove`` for a move that cannot be played.
        """
        events: list[Event] = []
        game = _Decider(self, events).decide(action)
        return Step(game, tuple(events))


def from_created(event: Event) -> DraughtsGame:
    """The initial game a ``created`` event describes."""
    if event.get("variant") != VARIANT:
        raise ValueError(f"not a draughts game: variant {event.get('variant')!r}")
    options = DraughtsOptions.from_json(event["options"])
    return DraughtsGame(options, Game.begin(options.start_position()))


def replay(created: Event, events: Iterable[Event]) -> DraughtsGame:
    """Fold a stored log: the game it describes, event by event."""
    game = from_created(created)
    for event in events:
        game = evolve(game, event)
    return game


# --- evolve: the only place state changes -------------------------------------------


def evolve(game: DraughtsGame, event: Event) -> DraughtsGame:
    """Apply one recorded event (checked when it was decided; a move is checked again).

    A ``played`` event is replayed through the rules, since the draw counters
    live there, and its ``position`` must match: a tampered log fails loudly.
    """
    if event.get("seq", game.seq + 1) != game.seq + 1:
        raise ValueError(f"event {event.get('seq')!r} out of order after {game.seq}")
    kind = event["type"]
    side = Side.from_letter(event["side"]) if event.get("side") else None
    changes: dict[str, Any] = {"seq": game.seq + 1}
    if kind == "played":
        board = game.board.play(event["move"])
        if board.position.fen() != event["position"]:
            raise ValueError(f"move {event['move']} gives {board.position.fen()}, not the logged")
        changes["board"] = board
        if game.draw_offer is not None and game.draw_offer is not side:
            changes["draw_offer"] = None  # DR-19: the offer lapses when the opponent moves
    elif kind == "draw_offered":
        assert side is not None
        changes.update(draw_offer=side, last_offer=(side, game.plies))
    elif kind == "draw_declined":
        changes["draw_offer"] = None
    elif kind == "finished":
        changes.update(
            phase=Phase.FINISHED, result=Result.from_json(event["result"]), draw_offer=None
        )
    elif kind not in ("draw_accepted", "resigned", "timeout", "adjudicated"):
        raise ValueError(f"unknown event type {kind!r}")
    return replace(game, **changes)


# --- decide: checking actions and choosing events ------------------------------------


class _Decider:
    """Turns one action into events, applying each as it goes."""

    def __init__(self, game: DraughtsGame, out: list[Event]):
        self.game = game
        self.out = out

    def emit(self, event: Event) -> None:
        event["seq"] = self.game.seq + 1
        self.game = evolve(self.game, event)
        self.out.append(event)

    def decide(self, action: DraughtsAction) -> DraughtsGame:
        game = self.game
        if game.finished:
            raise IllegalAction("the game is over")
        if isinstance(action, Timeout):
            self.emit({"type": "timeout", "side": action.side.letter})
            self.finish(action.side.other, "PL-7")
        elif isinstance(action, Adjudicate):
            self.adjudicate("server")
        elif isinstance(action, AcceptDraw | DeclineDraw):
            self.on_answer(action)
        else:
            if action.side is not game.to_act:
                who = "nobody" if game.to_act is None else game.to_act.name.lower()
                raise NotYourTurn(f"{action.side.name.lower()} cannot act now: {who} is to move")
            if isinstance(action, MoveAction):
                self.play(action.text)
            elif isinstance(action, OfferDraw):
                self.on_offer(action)
            else:
                self.on_resign(action)
        return self.game

    # -- moves and the automatic end

    def play(self, text: str) -> None:
        game = self.game
        move = game.position.parse_move(text)
        side = side_of(game.board.turn)
        after = game.position.apply(move).fen()
        self.emit({"type": "played", "side": side.letter, "move": str(move), "position": after})
        outcome = self.game.board.outcome()
        if outcome is not None:
            winner = None if outcome.winner is None else side_of(outcome.winner)
            self.finish(winner, outcome.termination.value)
        elif self.limit_reached():
            self.adjudicate("move_limit")

    def limit_reached(self) -> bool:
        limit = self.game.options.move_limit
        return bool(limit) and min(self.game.moves_made(s) for s in Side) >= limit

    def adjudicate(self, why: str) -> None:
        """DR-21: more pieces wins, then more kings, else a draw."""
        self.emit({"type": "adjudicated", "why": why})
        outcome = adjudicate(self.game.position)
        self.finish(None if outcome.winner is None else side_of(outcome.winner), "DR-21")

    def finish(self, winner: Side | None, reason: str) -> None:
        self.emit({"type": "finished", "result": result_for(winner, reason).to_json()})

    # -- draw offers

    def on_offer(self, action: OfferDraw) -> None:
        game = self.game
        side = action.side
        if not game.can_offer_draw(side, with_move=action.move is not None):
            raise IllegalAction(self.why_no_offer(side, with_move=action.move is not None))
        if action.move is None:
            self.emit({"type": "draw_offered", "side": side.letter})
            return
        self.play(action.move)
        if not self.game.finished:
            self.emit({"type": "draw_offered", "side": side.letter})

    def why_no_offer(self, side: Side, *, with_move: bool) -> str:
        game = self.game
        if game.draw_offer is not None:
            return f"{game.draw_offer.name.lower()}'s draw offer is standing (DR-19)"
        if game.last_offer == (side, game.plies):
            return "one draw offer per turn (DR-19)"
        own = game.moves_made(side) + (1 if with_move else 0)
        return (
            f"a draw may be offered only after each player has completed {DRAW_OFFER_MOVES}"
            f" moves; {side.name.lower()} will have {own}, {side.other.name.lower()}"
            f" {game.moves_made(side.other)} (DR-19)"
        )

    def on_answer(self, action: AcceptDraw | DeclineDraw) -> None:
        game = self.game
        side = action.side
        if game.draw_offer is None:
            raise IllegalAction("there is no draw offer to answer (DR-19)")
        if not game.can_answer_draw(side):
            raise NotYourTurn(f"{side.name.lower()} cannot answer its own draw offer")
        if isinstance(action, AcceptDraw):
            self.emit({"type": "draw_accepted", "side": side.letter})
            self.finish(None, "DR-19")
        else:
            self.emit({"type": "draw_declined", "side": side.letter})

    # -- resigning

    def on_resign(self, action: Resign) -> None:
        if action.level != 1:
            raise IllegalAction(f"draughts has one way to resign, level 1, not {action.level}")
        self.emit({"type": "resigned", "side": action.side.letter})
        self.finish(action.side.other, "DR-13")
