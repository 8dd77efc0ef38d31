"""One game of a race variant as a state machine: actions in, events out.

``game.apply(action, dice)`` checks the action against the phase and the rules
and returns ``Step(game, events)``. Every change of state goes through
:func:`evolve`, one event at a time, so the stored log replays to exactly the
live state (DESIGN principle 3): ``replay(created, events) == game``.

Turn flow (BG-4, BF-10): ROLL (the side to move may double, resign or roll) →
MOVE (steps one at a time with undo, or a whole play; confirm) → the next ROLL.
A double opens DOUBLED (take / drop / beaver), a beaver BEAVERED (the doubler
takes or drops), a resignation offer RESIGNING (accept / decline).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

from sheshbesh.games.race import Position, RaceRules, Side, find_rules
from sheshbesh.games.race.turn import Turn

from . import actions as act
from .cube import MAX_CUBE, Cube
from .errors import IllegalAction, NotYourTurn
from .options import RaceOptions
from .result import Result, forfeit_level, score

Event = dict[str, Any]
WINNER_TAKES_WHITE = ("short_nardy", "caucasian_nardy", "long_nardy")
"""SN-2, CN-1, LN-3: the opening winner plays White; elsewhere colours are fixed."""


class Phase(IntEnum):
    """Ordered so that ``phase >= Phase.FINISHED`` is the one test for the end."""

    OPENING = 0
    ROLL = 1
    DOUBLED = 2
    BEAVERED = 3
    MOVE = 4
    RESIGNING = 5
    FINISHED = 9


@dataclass(frozen=True, slots=True)
class Step:
    """The game after an action and the events that led there, in order."""

    game: RaceGame
    events: tuple[Event, ...]

    @property
    def after(self) -> RaceGame:
        """The game after the action, under the name :mod:`sheshbesh.play.clocking` reads."""
        return self.game


@dataclass(frozen=True, slots=True)
class RaceGame:
    """The whole state of one game; build with :meth:`create`, change with :meth:`apply`."""

    rules: RaceRules
    options: RaceOptions
    position: Position
    phase: Phase = Phase.OPENING
    turn: Turn | None = None
    cube: Cube = field(default_factory=Cube)
    doubled: bool = False
    """BG-17: a double was offered in this game (automatic doubles do not count)."""
    auto_doubles: int = 0
    resign_offer: tuple[Side, int] | None = None
    resign_declined: bool = False
    """BF-15: at most one offer per turn."""
    resume: Phase = Phase.ROLL
    final_turn: bool = False
    """LN-13: Black is playing the last roll."""
    white_seat: int = 0
    result: Result | None = None
    commit: str | None = None
    """The published commitment of the next roll's seed (PL-2)."""
    before_play: Position | None = None
    """The position before the last play, so a board can mark that play's checkers until
    the next one (issue 17); None before the first play and after a pass."""
    seq: int = 0

    # --- creation and replay ------------------------------------------------------

    @classmethod
    def create(
        cls, variant: str, options: RaceOptions | None = None, *, commit: str | None = None
    ) -> tuple[RaceGame, Event]:
        """A new game waiting for its opening roll, and its ``created`` event."""
        rules = find_rules(variant)
        options = (options or RaceOptions.defaults(rules)).check(rules)
        event: Event = {
            "type": "created",
            "variant": rules.name,
            "options": options.to_json(),
            "next_commit": commit,
        }
        return from_created(event), {**event, "seq": 0}

    # --- reading ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase >= Phase.FINISHED

    @property
    def to_act(self) -> Side | None:
        """The side whose action the game waits for (None: the server's opening roll)."""
        mover = self.position.turn
        if self.phase in (Phase.ROLL, Phase.MOVE, Phase.BEAVERED):
            return mover
        if self.phase is Phase.DOUBLED:
            return mover.other
        if self.phase is Phase.RESIGNING and self.resign_offer is not None:
            return self.resign_offer[0].other
        return None

    def can_double(self, side: Side) -> bool:
        """BG-11: own turn before rolling, cube ours or centred, no Crawford, cap 64."""
        return (
            self.phase is Phase.ROLL
            and side is self.position.turn
            and self.options.cube
            and not self.options.crawford
            and not self.final_turn
            and self.cube.can_double(side)
        )

    def can_beaver(self, side: Side) -> bool:
        """BG-16: the doubled side may beaver when allowed and the cube stays within 64."""
        return (
            self.phase is Phase.DOUBLED
            and side is self.position.turn.other
            and self.options.beavers
            and self.cube.value * 4 <= MAX_CUBE
        )

    def can_resign(self, side: Side) -> bool:
        """BF-15: during one's own turn, once per turn."""
        return (
            self.phase in (Phase.ROLL, Phase.MOVE)
            and side is self.position.turn
            and not self.resign_declined
            and not self.final_turn
        )

    def legal_actions(self) -> list[act.Action]:
        """Every action the side to act may take now (a bot's or a fuzzer's menu)."""
        side = self.to_act
        if self.phase is Phase.OPENING:
            return [act.Start()]
        if side is None or self.finished:
            return []
        actions: list[act.Action] = []
        if self.phase is Phase.ROLL:
            actions.append(act.Roll(side))
            if self.can_double(side):
                actions.append(act.Double(side))
        elif self.phase is Phase.MOVE and self.turn is not None:
            actions += [act.Move(side, s.src, s.dst, s.die) for s in self.turn.legal_steps()]
            if self.turn.steps:
                actions.append(act.Undo(side))
            if self.turn.complete and self.turn.plays:
                actions.append(act.Confirm(side))
        elif self.phase in (Phase.DOUBLED, Phase.BEAVERED):
            actions += [act.Take(side), act.Drop(side)]
            if self.can_beaver(side):
                actions.append(act.Beaver(side))
        elif self.phase is Phase.RESIGNING:
            actions += [act.AcceptResign(side), act.DeclineResign(side)]
        if self.can_resign(side):
            actions += [act.Resign(side, level) for level in self.rules.resign_levels]
        return actions

    # --- acting -------------------------------------------------------------------

    def apply(self, action: act.Action, dice: act.DiceSource | None = None) -> Step:
        """Check ``action``, then return the new game and its events (nothing changes on error)."""
        events: list[Event] = []
        game = _Decider(self, dice, events).decide(action)
        return Step(game, tuple(events))


def from_created(event: Event) -> RaceGame:
    """The initial game a ``created`` event describes."""
    rules = find_rules(event["variant"])
    options = RaceOptions(**event["options"]).check(rules)
    position = Position.start(rules)
    cube = Cube()
    return RaceGame(rules, options, position, cube=cube, commit=event.get("next_commit"))


def replay(created: Event, events: Iterable[Event]) -> RaceGame:
    """Fold a stored log: the game it describes, event by event."""
    game = from_created(created)
    for event in events:
        game = evolve(game, event)
    return game


# --- evolve: the only place state changes -------------------------------------------


def evolve(game: RaceGame, event: Event) -> RaceGame:
    """Apply one recorded event (already checked when it was decided)."""
    kind = event["type"]
    side = Side.from_letter(event["side"]) if event.get("side") else None
    changes: dict[str, Any] = {"seq": game.seq + 1}
    if "next_commit" in event:
        changes["commit"] = event["next_commit"]
    position = game.position
    if kind == "opening":
        if event["starter"] is not None:
            starter = Side.from_letter(event["starter"])
            changes["white_seat"] = event.get("white_seat", game.white_seat)
            position = replace(position, turn=starter)
            changes["position"] = position
            if event["first_dice"]:
                changes["phase"] = Phase.MOVE
                changes["turn"] = Turn.begin(position, _pair(event["first_dice"]))
            else:
                changes["phase"] = Phase.ROLL
    elif kind == "auto_double":
        changes["cube"] = Cube(event["cube"], None)
        changes["auto_doubles"] = game.auto_doubles + 1
    elif kind == "rolled":
        if not event.get("ignored"):
            changes["phase"] = Phase.MOVE
            changes["turn"] = Turn.begin(position, _pair(event["dice"]), last_roll=game.final_turn)
    elif kind == "step":
        assert game.turn is not None
        changes["turn"] = game.turn.step(event["src"], event["dst"], event["die"])
    elif kind == "undo":
        assert game.turn is not None
        changes["turn"] = game.turn.undo()
    elif kind in ("played", "passed"):
        if kind == "played":
            after = Position.from_text(game.rules, event["position"])
        else:
            after = position.pass_turn()
        changes.update(position=after, turn=None, phase=Phase.ROLL, resign_declined=False,
                       before_play=position if kind == "played" else None)  # fmt: skip
    elif kind == "complement":
        owed = event["owed"]
        changes.update(phase=Phase.MOVE, turn=Turn.begin(position, (owed, owed)))
    elif kind == "last_roll":
        changes.update(final_turn=True, phase=Phase.ROLL)
    elif kind == "doubled":
        changes.update(phase=Phase.DOUBLED, doubled=True)
    elif kind == "taken":
        assert side is not None
        changes.update(cube=game.cube.taken_by(side), phase=Phase.ROLL)
    elif kind == "beavered":
        assert side is not None
        changes.update(phase=Phase.BEAVERED, cube=game.cube.beavered_by(side))
    elif kind == "beaver_taken":
        changes.update(phase=Phase.ROLL)
    elif kind == "resign_offered":
        assert side is not None
        changes.update(
            phase=Phase.RESIGNING, resign_offer=(side, event["level"]), resume=game.phase
        )
    elif kind == "resign_declined":
        changes.update(phase=game.resume, resign_offer=None, resign_declined=True)
    elif kind == "finished":
        changes.update(phase=Phase.FINISHED, result=Result.from_json(event["result"]), turn=None)
    elif kind not in ("dropped", "resign_accepted", "timeout"):
        raise ValueError(f"unknown event type {kind!r}")
    return replace(game, **changes)


def _pair(dice: list[int]) -> tuple[int, int]:
    return dice[0], dice[1]


# --- what the dice decide (the verifier checks records against these too) ------------


def opening_of(rules: RaceRules, dice: Sequence[int]) -> Event:
    """BF-14: what an opening roll (White's die, Black's die) decides, as its event says it.

    ``starter`` (None on a tie, which is rolled again), ``white_seat`` where the
    winner takes White (SN-2, CN-1, LN-3), and ``first_dice``, the starter's first
    roll in variant U (high die first; None in variant F, where he rolls afresh).

    >>> from sheshbesh.games.race import find_rules
    >>> opening_of(find_rules("backgammon"), (3, 5))
    {'starter': 'B', 'first_dice': [5, 3]}
    >>> opening_of(find_rules("long_nardy"), (6, 2))
    {'starter': 'W', 'white_seat': 0, 'first_dice': None}
    >>> opening_of(find_rules("backgammon"), (4, 4))
    {'starter': None, 'first_dice': None}
    """
    first, second = dice[0], dice[1]
    if first == second:
        return {"starter": None, "first_dice": None}
    winner_seat = 0 if first > second else 1
    decided: Event
    if rules.name in WINNER_TAKES_WHITE:
        decided = {"starter": Side.WHITE.letter, "white_seat": winner_seat}
    else:
        decided = {"starter": Side(winner_seat).letter}
    decided["first_dice"] = [max(dice[:2]), min(dice[:2])] if rules.opening == "U" else None
    return decided


def ignores(rules: RaceRules, dice: Sequence[int], *, first_turn: bool) -> bool:
    """RB-8: a double thrown on a side's first turn is ignored and rolled again."""
    return rules.doubles_chain and dice[0] == dice[1] and first_turn


# --- decide: checking actions and choosing events ------------------------------------


class _Decider:
    """Turns one action into events, applying each as it goes."""

    def __init__(self, game: RaceGame, dice: act.DiceSource | None, out: list[Event]):
        self.game = game
        self.dice = dice
        self.out = out

    def emit(self, event: Event) -> None:
        event["seq"] = self.game.seq + 1
        self.game = evolve(self.game, event)
        self.out.append(event)

    def roll(self, nonce: str | None, count: int = 2) -> act.Rolled:
        if self.dice is None:
            raise IllegalAction("this action needs dice, and no dice source was given")
        return self.dice.roll(nonce, count)

    def dice_fields(self, rolled: act.Rolled) -> Event:
        fields: Event = {"dice": list(rolled.dice)}
        if rolled.proof is not None:
            fields["proof"] = rolled.proof
        if rolled.next_commit is not None:
            fields["next_commit"] = rolled.next_commit
        return fields

    def decide(self, action: act.Action) -> RaceGame:
        game = self.game
        if game.finished:
            raise IllegalAction("the game is over")
        if isinstance(action, act.Start):
            self.opening()
            return self.game
        if isinstance(action, act.Timeout):
            if game.phase is Phase.OPENING:
                raise IllegalAction("the game has not started")
            self.emit({"type": "timeout", "side": action.side.letter})
            self.forfeit(action.side)
            return self.game
        side = action.side
        handler = {
            act.Roll: self.on_roll,
            act.Move: self.on_move,
            act.Undo: self.on_undo,
            act.Confirm: self.on_confirm,
            act.PlayText: self.on_play_text,
            act.Double: self.on_double,
            act.Take: self.on_take,
            act.Drop: self.on_drop,
            act.Beaver: self.on_beaver,
            act.Resign: self.on_resign,
            act.AcceptResign: self.on_resign_answer,
            act.DeclineResign: self.on_resign_answer,
        }[type(action)]
        if game.to_act is not side:
            who = "nobody" if game.to_act is None else game.to_act.name.lower()
            raise NotYourTurn(f"{side.name.lower()} cannot act now: waiting for {who}")
        handler(action)  # type: ignore[operator]
        return self.game

    # -- opening

    def opening(self) -> None:
        game = self.game
        if game.phase is not Phase.OPENING:
            raise IllegalAction("the game has already started")
        while True:
            rolled = self.roll(None, 2)
            decided = opening_of(game.rules, rolled.dice)
            event: Event = {"type": "opening", **self.dice_fields(rolled), **decided}
            self.emit(event)
            if decided["starter"] is None:
                if self.auto_double_allowed():
                    self.emit({"type": "auto_double", "cube": self.game.cube.value * 2})
                continue
            if decided["first_dice"]:
                self.after_roll()
            return

    def auto_double_allowed(self) -> bool:
        """BG-15: money play, option on, and fewer automatic doubles than the limit."""
        game = self.game
        options = game.options
        return (
            options.cube
            and not options.match_length
            and game.auto_doubles < options.auto_doubles
            and game.cube.value * 2 <= MAX_CUBE
        )

    # -- rolling and moving

    def on_roll(self, action: act.Roll) -> None:
        if self.game.phase is not Phase.ROLL:
            raise IllegalAction("you can roll only at the start of your turn")
        side = action.side
        while True:
            rolled = self.roll(action.nonce, 2)
            d1, d2 = rolled.dice[0], rolled.dice[1]
            event: Event = {"type": "rolled", "side": side.letter, **self.dice_fields(rolled)}
            position = self.game.position
            if ignores(position.rules, (d1, d2), first_turn=position.is_first_turn()):
                event["ignored"] = "RB-8"
                self.emit(event)
                continue
            self.emit(event)
            break
        self.after_roll()

    def after_roll(self) -> None:
        """Pass when nothing moves; play the only play when the table asks for it."""
        turn = self.game.turn
        assert turn is not None
        side = self.game.position.turn
        if not turn.plays:
            self.emit({"type": "passed", "side": side.letter})
            self.after_play(side)
        elif len(turn.plays) == 1 and self.game.options.auto_play_forced:
            self.played(turn.plays[0], auto=True)

    def on_move(self, action: act.Move) -> None:
        turn = self.moving()
        next_turn = turn.step(action.src, action.dst, action.die)
        step = next_turn.steps[-1]
        self.emit(
            {"type": "step", "side": action.side.letter, "src": step.src, "dst": step.dst,
             "die": step.die}
        )  # fmt: skip

    def on_undo(self, action: act.Undo) -> None:
        self.moving().undo()
        self.emit({"type": "undo", "side": action.side.letter})

    def on_confirm(self, action: act.Confirm) -> None:
        self.played(self.moving().play())

    def on_play_text(self, action: act.PlayText) -> None:
        self.played(self.moving().play_text(action.text))

    def moving(self) -> Turn:
        if self.game.phase is not Phase.MOVE or self.game.turn is None:
            raise IllegalAction("there are no dice to play: roll first")
        return self.game.turn

    def played(self, play: Any, *, auto: bool = False) -> None:
        side = self.game.position.turn
        event: Event = {
            "type": "played",
            "side": side.letter,
            "play": play.notation(),
            "position": play.after.text(),
        }
        if auto:
            event["auto"] = True
        self.emit(event)
        self.after_play(side)

    def after_play(self, mover: Side) -> None:
        """End of a play: a result, LN-13's last roll, RB-8's complement, or the next turn."""
        game = self.game
        position = game.position
        outcome = position.outcome()
        if game.final_turn:
            assert outcome is not None
            self.finish(outcome.winner, outcome.level, game.cube.value, outcome.rule)
            return
        if outcome is not None:
            last_roll = (
                game.options.last_roll and outcome.winner is Side.WHITE and mover is Side.WHITE
            )
            if last_roll:
                self.emit({"type": "last_roll", "side": Side.BLACK.letter})
                return
            self.finish(outcome.winner, outcome.level, game.cube.value, outcome.rule)
            return
        if position.owed and position.turn is mover:
            owed = position.owed
            self.emit({"type": "complement", "side": mover.letter, "owed": owed})
            self.after_roll()

    def forfeit(self, loser: Side) -> None:
        """PL-7: ``loser`` ran out of time or stayed away; the opponent wins.

        In money play a side that owed an answer to a cube offer drops it and pays
        what the drop pays: a double, the cube before the offer (BG-12); a beaver,
        the value the doubler's own double reached (BG-16). Otherwise (and in a
        match, where the match is lost, BG-20) the level is the one the position
        would have if the opponent bore off now, times the cube, counted by
        :func:`score` as a finished game is (Jacoby included, BF-15).
        """
        game = self.game
        cube = game.cube.value
        owed = game.phase in (Phase.DOUBLED, Phase.BEAVERED) and game.to_act is loser
        if owed and not game.options.match_length:
            before = cube if game.phase is Phase.DOUBLED else cube // 2
            self.finish(loser.other, 1, before, "PL-7")
            return
        self.finish(loser.other, forfeit_level(game.position, loser), cube, "PL-7")

    def finish(self, winner: Side | None, level: int, cube: int, reason: str) -> None:
        game = self.game
        result = score(game.rules, game.options, winner, level, cube, reason, doubled=game.doubled)
        self.emit({"type": "finished", "result": result.to_json()})

    # -- the cube

    def on_double(self, action: act.Double) -> None:
        if not self.game.can_double(action.side):
            raise IllegalAction(self.why_no_double(action.side))
        self.emit({"type": "doubled", "side": action.side.letter, "cube": self.game.cube.value * 2})

    def why_no_double(self, side: Side) -> str:
        game = self.game
        if not game.options.cube:
            return "this game is played without the cube"
        if game.options.crawford:
            return "no doubling in the Crawford game (BG-19)"
        if game.phase is not Phase.ROLL:
            return "a double is offered only before rolling (BG-11)"
        if game.cube.value >= MAX_CUBE:
            return "the cube is at 64 (BG-14)"
        return "the opponent owns the cube (BG-13)"

    def on_take(self, action: act.Take) -> None:
        if self.game.phase is Phase.DOUBLED:
            self.emit({"type": "taken", "side": action.side.letter})
        elif self.game.phase is Phase.BEAVERED:
            self.emit({"type": "beaver_taken", "side": action.side.letter})
        else:
            raise IllegalAction("there is no double to take")

    def on_drop(self, action: act.Drop) -> None:
        game = self.game
        if game.phase is Phase.DOUBLED:
            self.emit({"type": "dropped", "side": action.side.letter})
            self.finish(action.side.other, 1, game.cube.value, "BG-12")
        elif game.phase is Phase.BEAVERED:
            self.emit({"type": "dropped", "side": action.side.letter})
            self.finish(action.side.other, 1, game.cube.value // 2, "BG-16")
        else:
            raise IllegalAction("there is no double to drop")

    def on_beaver(self, action: act.Beaver) -> None:
        if not self.game.can_beaver(action.side):
            why = "beavers are off" if not self.game.options.beavers else "no beaver now"
            raise IllegalAction(f"{why} (BG-16)")
        self.emit({"type": "beavered", "side": action.side.letter})

    # -- resigning

    def on_resign(self, action: act.Resign) -> None:
        game = self.game
        allowed = game.rules.resign_levels
        if action.level not in allowed:
            raise IllegalAction(
                f"resignation level {action.level} is not one of {list(allowed)} (BF-15)"
            )
        if not game.can_resign(action.side):
            raise IllegalAction("you may offer to resign once per turn, on your turn (BF-15)")
        self.emit({"type": "resign_offered", "side": action.side.letter, "level": action.level})

    def on_resign_answer(self, action: act.AcceptResign | act.DeclineResign) -> None:
        game = self.game
        if game.resign_offer is None:
            raise IllegalAction("there is no resignation offer to answer (BF-15)")
        resigner, level = game.resign_offer
        if isinstance(action, act.AcceptResign):
            self.emit({"type": "resign_accepted", "side": action.side.letter})
            self.finish(resigner.other, level, game.cube.value, "BF-15")
        else:
            self.emit({"type": "resign_declined", "side": action.side.letter})
