"""A match to N points (BG-18): a sequence of race games, one state machine, one log.

``match.apply(action, dice)`` hands the action to the game being played and,
when that game ends, scores it, then either ends the match (a side reached N,
BG-18) or starts the next game, which waits for the server's ``Start``. The
game right after a side first reaches N − 1 is the Crawford game, played
without the cube; the games after it use the cube again (BG-19, BG-E8). A
timeout or a player leaving loses the whole match (BG-20, PL-7).

The match log is flat, so it is stored and replayed like a game's: game events
appear as the game wrote them plus ``"game"`` (its number) and ``"game_seq"``
(its number inside the game), and ``"seq"`` counts the whole match. Between
games come ``game_finished`` (result and score), ``game_started`` (with the
next game's ``created`` event, so the log replays) and ``match_finished``.
``replay_match(created, events) == match`` always (DESIGN principle 3).

One dice source serves the whole match: each new game starts from the
commitment the last one left published, so ``verify_events([created, *events])``
checks every roll of the match in one pass (PL-2).

>>> from sheshbesh.play import actions as act
>>> from sheshbesh.games.race import Side
>>> match, created = Match.create("backgammon", 3)
>>> match.score, match.number, match.crawford, match.to_act is None
((0, 0), 1, False, True)
>>> match.legal_actions()
[Start()]

Money sessions are single :class:`~sheshbesh.play.race.RaceGame` s; no match is needed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sheshbesh.games.race import Side

from . import actions as act
from .errors import IllegalAction, InvalidOptions
from .options import RaceOptions
from .race import Event, Phase, RaceGame, Step, evolve, from_created
from .result import Result

MATCH_EVENTS = ("match_created", "game_finished", "game_started", "match_finished")
"""The event types the match writes itself; every other event belongs to a game."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The end of a match: winner, final score, why, and the stake paid once (BG-18).

    ``payout`` has the shape of :attr:`Result.payout`: stake multipliers per side,
    +1 to the winner and −1 from the loser, summing to zero.

    >>> r = MatchResult.won(Side.BLACK, (3, 5), "BG-18")
    >>> r.paid_to(Side.WHITE), r.paid_to(Side.BLACK)
    (-1, 1)
    >>> MatchResult.from_json(r.to_json()) == r
    True
    """

    winner: Side
    score: tuple[int, int]
    reason: str
    payout: tuple[tuple[Side, int], ...]

    @classmethod
    def won(cls, winner: Side, score: tuple[int, int], reason: str) -> MatchResult:
        return cls(winner, score, reason, ((winner, 1), (winner.other, -1)))

    def paid_to(self, side: Side) -> int:
        return dict(self.payout).get(side, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner.letter,
            "score": list(self.score),
            "reason": self.reason,
            "payout": {side.letter: amount for side, amount in self.payout},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchResult:
        payout = tuple((Side.from_letter(k), int(v)) for k, v in data["payout"].items())
        score = (int(data["score"][0]), int(data["score"][1]))
        return cls(Side.from_letter(data["winner"]), score, data["reason"], payout)


@dataclass(frozen=True, slots=True)
class MatchStep:
    """The match after an action and the events that led there, in order."""

    match: Match
    events: tuple[Event, ...]

    @property
    def after(self) -> Match:
        """The match after the action, under the name :mod:`sheshbesh.play.clocking` reads."""
        return self.match


@dataclass(frozen=True, slots=True)
class Match:
    """The whole state of a match; build with :meth:`create`, change with :meth:`apply`.

    ``score`` is indexed by :class:`Side` (colours stay with their players for
    the whole match, BG-3); ``results`` holds the finished games' results.
    """

    length: int
    options: RaceOptions
    """The table's options for every game (``crawford`` is set per game)."""
    game: RaceGame
    number: int = 1
    score: tuple[int, int] = (0, 0)
    crawford_played: bool = False
    results: tuple[Result, ...] = ()
    result: MatchResult | None = None
    seq: int = 0

    @classmethod
    def create(
        cls,
        variant: str,
        length: int,
        options: RaceOptions | None = None,
        *,
        commit: str | None = None,
    ) -> tuple[Match, Event]:
        """A new match whose first game waits for ``Start``, and its ``match_created`` event.

        ``options`` default to the variant's match defaults (BG-18: no beavers,
        Jacoby or automatic doubles); their ``match_length`` is set to ``length``.

        >>> Match.create("backgammon", 26)
        Traceback (most recent call last):
        ...
        sheshbesh.play.errors.InvalidOptions: match length is 1-25 points, not 26 (BG-18)
        """
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= 25:
            raise InvalidOptions(f"match length is 1-25 points, not {length!r} (BG-18)")
        if options is None:
            options = RaceOptions.defaults(variant, match_length=length)
        options = replace(options, match_length=length, crawford=False)
        _, game_created = RaceGame.create(variant, options, commit=commit)
        event: Event = {
            "type": "match_created",
            "variant": game_created["variant"],
            "length": length,
            "options": options.to_json(),
            "created": game_created,
            "next_commit": commit,
            "seq": 0,
        }
        return from_match_created(event), event

    # --- reading ------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.game.rules.name

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def crawford(self) -> bool:
        """BG-19: the game being played is the Crawford game (no cube)."""
        return self.game.options.crawford

    @property
    def post_crawford(self) -> bool:
        """BG-19: the Crawford game is over; the cube is back."""
        return self.crawford_played and not self.crawford

    @property
    def to_act(self) -> Side | None:
        """The side whose action the match waits for (None: the server, or the end)."""
        return None if self.finished else self.game.to_act

    def away(self, side: Side) -> int:
        """Points ``side`` still needs to win the match."""
        return max(0, self.length - self.score[side])

    def can_double(self, side: Side) -> bool:
        return not self.finished and self.game.can_double(side)

    def legal_actions(self) -> list[act.Action]:
        """The current game's menu; nothing once the match is over."""
        return [] if self.finished else self.game.legal_actions()

    # --- acting -------------------------------------------------------------------

    def apply(self, action: act.Action, dice: act.DiceSource | None = None) -> MatchStep:
        """Play ``action`` in the current game; score, start or end games as it ends them.

        Nothing changes on error: the game's typed errors pass through, and any
        action after the end is an :class:`IllegalAction`.
        """
        if self.finished:
            raise IllegalAction("the match is over")
        events: list[Event] = []
        decider = _Decider(self, events)
        if isinstance(action, act.Timeout) and self.game.phase is Phase.OPENING:
            decider.finish(action.side.other, "BG-20")
        else:
            decider.adopt(self.game.apply(action, dice))
            if decider.match.game.finished:
                decider.game_over(forfeit=isinstance(action, act.Timeout))
        return MatchStep(decider.match, tuple(events))


def from_match_created(event: Event) -> Match:
    """The new match a ``match_created`` event describes."""
    options = RaceOptions(**event["options"])
    return Match(event["length"], options, from_created(event["created"]))


def replay_match(created: Event, events: Iterable[Event]) -> Match:
    """Fold a stored match log: the match it describes, event by event."""
    match = from_match_created(created)
    for event in events:
        match = evolve_match(match, event)
    return match


def evolve_match(match: Match, event: Event) -> Match:
    """Apply one recorded match event (already checked when it was decided)."""
    kind = event["type"]
    seq = match.seq + 1
    if kind == "game_finished":
        result = Result.from_json(event["result"])
        score = (int(event["score"][0]), int(event["score"][1]))
        return replace(match, score=score, results=(*match.results, result), seq=seq)
    if kind == "game_started":
        game = from_created(event["created"])
        crawford_played = match.crawford_played or game.options.crawford
        return replace(
            match, game=game, number=event["game"], crawford_played=crawford_played, seq=seq
        )
    if kind == "match_finished":
        return replace(match, result=MatchResult.from_json(event["result"]), seq=seq)
    if kind in MATCH_EVENTS:
        raise ValueError(f"{kind!r} can only open a match log")
    if event.get("game") != match.number:
        raise ValueError(f"an event of game {event.get('game')!r} during game {match.number}")
    return replace(match, game=evolve(match.game, event), seq=seq)


class _Decider:
    """Turns one match action into match events, applying each as it goes."""

    def __init__(self, match: Match, out: list[Event]):
        self.match = match
        self.out = out

    def emit(self, event: Event) -> None:
        event["seq"] = self.match.seq + 1
        self.match = evolve_match(self.match, event)
        self.out.append(event)

    def adopt(self, step: Step) -> None:
        """The game's events, numbered in the match; the game already folded them."""
        match = self.match
        for offset, event in enumerate(step.events, 1):
            seq = match.seq + offset
            self.out.append({**event, "game": match.number, "game_seq": event["seq"], "seq": seq})
        self.match = replace(match, game=step.game, seq=match.seq + len(step.events))

    def game_over(self, *, forfeit: bool) -> None:
        """Score the finished game; end the match (BG-18, BG-20) or start the next game."""
        match = self.match
        result = match.game.result
        assert result is not None
        score = list(match.score)
        if result.winner is not None:
            score[result.winner] += result.points
        self.emit(
            {"type": "game_finished", "game": match.number, "result": result.to_json(),
             "score": score}
        )  # fmt: skip
        if forfeit:
            assert result.winner is not None
            self.finish(result.winner, "BG-20")
        elif result.winner is not None and score[result.winner] >= match.length:
            self.finish(result.winner, "BG-18")
        else:
            self.next_game()

    def next_game(self) -> None:
        """BG-19: Crawford when a side first stands at N − 1; the commitment carries over."""
        match = self.match
        crawford = not match.crawford_played and max(match.score) == match.length - 1
        options = replace(match.options, crawford=crawford)
        _, created = RaceGame.create(match.variant, options, commit=match.game.commit)
        self.emit(
            {"type": "game_started", "game": match.number + 1, "crawford": crawford,
             "created": created}
        )  # fmt: skip

    def finish(self, winner: Side, reason: str) -> None:
        result = MatchResult.won(winner, self.match.score, reason)
        self.emit({"type": "match_finished", "result": result.to_json()})
