"""GNU Backgammon as a club bot, at gnubg's own named levels.

=============  ============  ======================  ==============
level          checker play  cube decisions          noise (σ)
=============  ============  ======================  ==============
beginner       0-ply         1-ply                   0.20
casual         0-ply         1-ply                   0.12
intermediate   0-ply         1-ply                   0.06
advanced       0-ply         1-ply                   0.025
expert         0-ply         1-ply                   0
world_class    2-ply         2-ply                   0
=============  ============  ======================  ==============

The names are the ones gnubg's players know. *Noise* is a normal error with
standard deviation σ (in cube-normalised equity) added to every play's and
every cube action's equity before the bot picks the best: a beginner misjudges
close plays often and clear ones seldom. It is drawn from ``self.rng``, so a
seeded bot repeats itself exactly (gnubg's own noise would not follow our seed).
``world_class`` searches two rolls ahead through gnubg's "normal" move filter
(the best play and up to 8 within 0.16 go on from the 0-ply screen); given a
``budget`` below :attr:`Level.seconds` it plays at 0-ply instead.

The bot chooses among *our* legal plays (gnubg only ranks them) and answers
cubes and resignations from gnubg's evaluation (:mod:`.gnubg_eval`), match-aware
through gnubg's cube info: score, Crawford, post-Crawford (BG-18, BG-19).
It plays backgammon and takhte nard (TN-1: backgammon's rules; the table's
beavers and Jacoby reach gnubg's cube info) and short nardy, whose checkers move
exactly as backgammon's (SN-1…SN-3) and which has no cube and its own scoring
(SN-4); gnubg's cubeless odds are scored by the table's Oin or Mars rules there.
Caucasian nardy is not offered: CN-2 changes which plays exist near the home
board in a way gnubg's nets never saw, and issue 7 gives it our own bot.

All gnubg calls run on one thread (:mod:`.gnubg_engine`): ``choose`` is safe
from any thread, one decision at a time per process.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import ModuleType

from sheshbesh.games.race import Play, Side
from sheshbesh.play import actions as act
from sheshbesh.play.race import Phase, RaceGame

from . import gnubg_engine
from .base import (
    BotAction,
    CubeDecision,
    GameState,
    MatchContext,
    RaceBot,
    check_turn,
    race_game,
)
from .gnubg_board import GNUBG_VARIANTS
from .gnubg_eval import CubeEquities, Evaluator


@dataclass(frozen=True, slots=True)
class Level:
    """How deep the bot looks and how much it errs."""

    name: str
    plies: int
    noise: float
    seconds: float = 0.0
    """The budget this level needs per decision; with less it drops to 0-ply."""


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 0, 0.20),
        Level("casual", 0, 0.12),
        Level("intermediate", 0, 0.06),
        Level("advanced", 0, 0.025),
        Level("expert", 0, 0.0),
        Level("world_class", 2, 0.0, seconds=1.0),
    )
}
"""The levels from weakest to strongest."""


class GnubgBot(RaceBot):
    """Plays, cubes and resignation answers from GNU Backgammon's evaluation."""

    variants = GNUBG_VARIANTS

    def __init__(self, level: str = "expert", *, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        if level not in LEVELS:
            raise ValueError(f"no gnubg level {level!r} (levels: {', '.join(LEVELS)})")
        self.level = LEVELS[level]
        self.name = f"gnubg:{level}"

    def level_for(self, budget: float | None) -> Level:
        """This bot's level, or its 0-ply form when the budget is too short for it."""
        if budget is not None and budget < self.level.seconds:
            return replace(self.level, plies=0, seconds=0.0)
        return self.level

    def choose_play(
        self,
        game: RaceGame,
        plays: tuple[Play, ...],
        context: MatchContext,
        budget: float | None,
    ) -> Play:
        level = self.level_for(budget)
        turn = game.turn
        assert turn is not None

        def job(g: ModuleType) -> list[tuple[Play, float]]:
            evaluator = Evaluator(g, game, context, plies=level.plies)
            return evaluator.rank(game.position, turn.dice, plays)

        ranked = gnubg_engine.run(job)
        if not level.noise:
            return ranked[0][0]
        return max(ranked, key=lambda item: item[1] + self.rng.gauss(0.0, level.noise))[0]

    def cube_decision(
        self, game: RaceGame, side: Side, context: MatchContext, budget: float | None
    ) -> CubeDecision:
        level = self.level_for(budget)
        if game.phase is Phase.BEAVERED:
            take, drop = gnubg_engine.run(
                lambda g: Evaluator(g, game, context, plies=level.plies).beaver_take(game.position)
            )
            return "take" if self._noisy(take) >= self._noisy(drop) else "drop"
        equities = self._noisy_cube(
            gnubg_engine.run(
                lambda g: Evaluator(g, game, context, plies=level.plies).cube_equities(
                    game.position
                )
            )
        )
        if game.phase is Phase.ROLL:
            return "double" if equities.double else "no_double"
        if not equities.take:
            return "drop"
        return "beaver" if equities.beaver and game.can_beaver(side) else "take"

    def choose(self, state: GameState, side: Side, *, budget: float | None = None) -> BotAction:
        """As :meth:`RaceBot.choose`, but a resignation is judged at the match score.

        (``RaceBot.accepts_resignation`` is not given the match context.)
        """
        check_turn(self, state, side)
        game = race_game(state)
        if game.phase is Phase.RESIGNING and game.resign_offer is not None:
            context = MatchContext.of(state)  # type: ignore[arg-type]  # race_game checked it
            if self.accepts(game, side, game.resign_offer[1], context):
                return act.AcceptResign(side)
            return act.DeclineResign(side)
        return super().choose(state, side, budget=budget)

    def accepts_resignation(self, game: RaceGame, side: Side, level: int) -> bool:
        """A money game's answer (:meth:`choose` passes a match's score to :meth:`accepts`)."""
        return self.accepts(game, side, level, MatchContext())

    def accepts(self, game: RaceGame, side: Side, level: int, context: MatchContext) -> bool:
        """Accept when the offer is worth at least playing on (cubeless, at this level's depth)."""
        plies = self.level.plies

        def job(g: ModuleType) -> tuple[float, float]:
            evaluator = Evaluator(g, game, context, plies=plies)
            return evaluator.resignation(game.position, side, level)

        accept, play_on = gnubg_engine.run(job)
        return accept >= play_on

    def _noisy(self, equity: float) -> float:
        return equity + self.rng.gauss(0.0, self.level.noise) if self.level.noise else equity

    def _noisy_cube(self, equities: CubeEquities) -> CubeEquities:
        if not self.level.noise:
            return equities
        return CubeEquities(
            self._noisy(equities.no_double),
            self._noisy(equities.double_take),
            self._noisy(equities.double_pass),
        )
