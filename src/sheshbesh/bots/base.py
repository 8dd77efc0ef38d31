"""The one interface every computer player has: given a game, choose an action.

A bot sees exactly what a player sees (the play layer's state object) and
returns exactly what a player could send (a play-layer action). The server
drives bots through the same ``Round.act`` path as people, so a bot can never
do what a person could not.

Race games (money games and matches) split into two questions every engine
answers differently, *which play* and *what to do with the cube*; the
:class:`RaceBot` base asks them and turns the answers into actions, so an
engine only writes :meth:`RaceBot.choose_play` and, if it has an opinion on
the cube, :meth:`RaceBot.cube_decision`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, Protocol

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.moves import Play
from sheshbesh.play import actions as act
from sheshbesh.play.draughts import (
    AcceptDraw,
    DeclineDraw,
    DraughtsAction,
    DraughtsGame,
    MoveAction,
)
from sheshbesh.play.match import Match
from sheshbesh.play.race import Phase, RaceGame

GameState = RaceGame | Match | DraughtsGame
BotAction = act.Action | DraughtsAction
CubeDecision = Literal["double", "no_double", "take", "drop", "beaver"]


class BotError(Exception):
    """A bot was asked something it cannot answer; the round goes on without it."""


class GameOver(BotError):
    """The game is finished: there is nothing to choose."""


class CannotPlay(BotError):
    """Not this bot's variant, not its turn, or a state it does not understand."""


@dataclass(frozen=True, slots=True)
class MatchContext:
    """What match play changes about a decision (BG-18, BG-19); money play is ``length == 0``.

    ``away`` is indexed by :class:`Side`: points each side still needs.
    """

    length: int = 0
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False

    @classmethod
    def of(cls, state: RaceGame | Match) -> MatchContext:
        if isinstance(state, Match):
            return cls(
                length=state.length,
                away=(state.away(Side(0)), state.away(Side(1))),
                crawford=state.crawford,
                post_crawford=state.post_crawford,
            )
        return cls()


class Bot(Protocol):
    """A computer player. ``choose`` must be pure: same state, same rng → same action."""

    name: str
    """Stable identifier, e.g. ``"gnubg:expert"`` or ``"nardy:strong"``."""
    variants: frozenset[str]
    """The variants it plays (``"draughts"`` for draughts)."""

    def choose(self, state: GameState, side: Side, *, budget: float | None = None) -> BotAction:
        """The action for ``side`` now, thinking at most about ``budget`` seconds.

        Raises :class:`GameOver` for a finished game and :class:`CannotPlay`
        when it is not ``side``'s turn or the variant is not the bot's.
        """
        ...


def check_turn(bot: Bot, state: GameState, side: Side) -> None:
    """The typed refusals every bot shares (issue 7: bad input raises, the round goes on)."""
    if state.finished:
        raise GameOver(f"{bot.name}: the game is over")
    variant = "draughts" if isinstance(state, DraughtsGame) else race_game(state).rules.name
    if variant not in bot.variants:
        raise CannotPlay(f"{bot.name} does not play {variant}")
    answering_draw = isinstance(state, DraughtsGame) and state.draw_offer is side.other
    if state.to_act is not side and not answering_draw:
        raise CannotPlay(f"{bot.name}: it is not {side.name.lower()}'s turn")


def race_game(state: RaceGame | Match | DraughtsGame) -> RaceGame:
    if isinstance(state, Match):
        return state.game
    if isinstance(state, RaceGame):
        return state
    raise CannotPlay("not a race game")


class RaceBot:
    """Shared decision flow for race variants; subclasses choose plays and cube actions."""

    name = "race"
    variants: frozenset[str] = frozenset()

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # --- what engines override ------------------------------------------------------

    def choose_play(
        self,
        game: RaceGame,
        plays: tuple[Play, ...],
        context: MatchContext,
        budget: float | None,
    ) -> Play:
        """The play to make from ``game.position`` with ``game.turn.dice``; plays has ≥ 2."""
        return plays[0]

    def cube_decision(
        self, game: RaceGame, side: Side, context: MatchContext, budget: float | None
    ) -> CubeDecision:
        """``double``/``no_double`` before rolling; ``take``/``drop``/``beaver`` when doubled."""
        return "no_double" if game.phase is Phase.ROLL else "take"

    def accepts_resignation(self, game: RaceGame, side: Side, level: int) -> bool:
        """Whether to accept the opponent's offer to resign at ``level`` (1 single … 3)."""
        return True

    # --- the flow -------------------------------------------------------------------

    def choose(self, state: GameState, side: Side, *, budget: float | None = None) -> BotAction:
        check_turn(self, state, side)
        game = race_game(state)
        context = MatchContext.of(state)  # type: ignore[arg-type]  # race_game checked it
        if game.phase is Phase.ROLL:
            wants = game.can_double(side) and self.cube_decision(game, side, context, budget)
            if wants == "double":
                return act.Double(side)
            return act.Roll(side)
        if game.phase in (Phase.DOUBLED, Phase.BEAVERED):
            answer = self.cube_decision(game, side, context, budget)
            if answer == "beaver" and game.can_beaver(side):
                return act.Beaver(side)
            return act.Drop(side) if answer == "drop" else act.Take(side)
        if game.phase is Phase.RESIGNING and game.resign_offer is not None:
            level = game.resign_offer[1]
            if self.accepts_resignation(game, side, level):
                return act.AcceptResign(side)
            return act.DeclineResign(side)
        if game.phase is Phase.MOVE and game.turn is not None:
            return self._move(game, side, context, budget)
        raise CannotPlay(f"{self.name}: nothing to choose in phase {game.phase.name}")

    def _move(
        self, game: RaceGame, side: Side, context: MatchContext, budget: float | None
    ) -> BotAction:
        turn = game.turn
        assert turn is not None
        if turn.steps:
            # Someone (a person before a takeover, or a test) entered steps: finish cleanly.
            return act.Confirm(side) if turn.complete else act.Undo(side)
        plays = turn.plays
        if not plays:
            return act.Confirm(side)
        play = plays[0] if len(plays) == 1 else self.choose_play(game, plays, context, budget)
        return act.PlayText(side, play.notation())


class DraughtsBot:
    """Shared flow for draughts bots: answer draw offers, then choose a move."""

    name = "draughts"
    variants = frozenset({"draughts"})

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, game: DraughtsGame, moves: list[str], budget: float | None) -> str:
        return moves[0]

    def accepts_draw(self, game: DraughtsGame, side: Side, budget: float | None) -> bool:
        return False

    def choose(self, state: GameState, side: Side, *, budget: float | None = None) -> BotAction:
        check_turn(self, state, side)
        if not isinstance(state, DraughtsGame):
            raise CannotPlay(f"{self.name} plays draughts only")
        if state.draw_offer is not None and state.draw_offer is side.other:
            if self.accepts_draw(state, side, budget):
                return AcceptDraw(side)
            return DeclineDraw(side)
        moves = [str(m) for m in state.board.legal_moves()]
        if not moves:
            raise CannotPlay(f"{self.name}: no legal move")
        move = moves[0] if len(moves) == 1 else self.choose_move(state, moves, budget)
        return MoveAction(side, move)


class RandomRaceBot(RaceBot):
    """Uniformly random legal plays, never doubles, always takes: the floor of every bench."""

    name = "random"

    def __init__(self, variants: frozenset[str] | None = None, *, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        from sheshbesh.games.race.rules import RACE_VARIANTS

        self.variants = variants or frozenset(RACE_VARIANTS)

    def choose_play(self, game, plays, context, budget):  # type: ignore[no-untyped-def]
        return self.rng.choice(plays)


class RandomDraughtsBot(DraughtsBot):
    name = "random"

    def choose_move(self, game: DraughtsGame, moves: list[str], budget: float | None) -> str:
        return self.rng.choice(moves)


__all__ = [
    "Bot",
    "BotAction",
    "BotError",
    "CannotPlay",
    "CubeDecision",
    "DraughtsBot",
    "GameOver",
    "GameState",
    "MatchContext",
    "Position",
    "RaceBot",
    "RandomDraughtsBot",
    "RandomRaceBot",
    "check_turn",
]
