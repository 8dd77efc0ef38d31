"""Our own bot for the race variants gnubg does not play: expectimax over the 21 rolls.

Every level starts from the hand-built evaluation (:mod:`.race_eval`) of every
legal play (0-ply). Higher levels then look ahead at the few plays the
evaluation likes best: 1-ply averages the opponent's best reply over his 21
rolls, 2-ply adds one more roll of ours. Each deeper iteration only runs while
the budget lasts; a candidate whose search ran out of time is dropped, so the
bot always answers with the best play found at the deepest depth it finished.

Levels (``budget`` is the most seconds one decision takes; a smaller budget
passed to :meth:`choose` shortens it):

========  ========================================================  ======
level     search                                                    budget
========  ========================================================  ======
easy      0-ply; one play in five is one of the 3 best, at random   0.2 s
medium    0-ply                                                     0.5 s
hard      1-ply on the 8 best 0-ply plays                           1.0 s
expert    1-ply on the 16 best, then 2-ply on the 3 best of those   1.6 s
========  ========================================================  ======

It claims its own five variants (long and Caucasian nardy, Plakoto, Russian
backgammon, Jacquet); the same evaluation also plays backgammon, short nardy
and takhte nard when asked to (``variants=FALLBACK_VARIANTS``), as a fallback
behind gnubg.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.moves import Play
from sheshbesh.games.race.rules import RACE_VARIANTS
from sheshbesh.play.options import NARDY
from sheshbesh.play.race import Phase, RaceGame

from .base import CannotPlay, CubeDecision, MatchContext, RaceBot
from .race_eval import Evaluator

OWN_VARIANTS = frozenset(
    {"long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet"}
)
"""The variants this bot is the club's engine for (issue 7), and what it claims by default."""
FALLBACK_VARIANTS = frozenset(RACE_VARIANTS)
"""Everything the evaluation understands: pass as ``variants`` to play the gnubg games too."""


@dataclass(frozen=True, slots=True)
class Level:
    """How hard one level thinks."""

    name: str
    widths: tuple[int, ...]
    """Plays searched at 1-ply, 2-ply …, best of the previous depth first; () is 0-ply only."""
    slip: float
    """How often the bot takes one of the next best plays instead of its first choice.

    Noise on the equities would not do: in a long blocking game every play is
    worth almost the same, so any noise that shows in a short race is chaos there.
    """
    budget: float
    """The most seconds one decision takes."""

    @property
    def depth(self) -> int:
        return len(self.widths)


LEVELS = {
    level.name: level
    for level in (
        Level("easy", (), 0.2, 0.2),
        Level("medium", (), 0.0, 0.5),
        Level("hard", (8,), 0.0, 1.0),
        Level("expert", (16, 3), 0.0, 1.6),
    )
}

ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls with their chances."""
FIRST_ROLLS = tuple(((a, b), 1 / 15) for (a, b), _ in ROLLS if a != b)
"""RB-8: a double on a first turn is rolled again, so only the 15 others happen."""

DOUBLE_WINDOW = (0.68, 0.88)
"""Win chances at which to double: below it is too early, above it play on for more."""
TAKE_EQUITY = -0.6
"""Take while the game is worth more than a drop (-0.5): owning the cube is worth a little."""
BEAVER_EQUITY = 0.05
SLIP_CHOICES = 3
"""A slip picks at random among this many of the best plays."""
COMPLEMENT_WIDTH = 6
"""RB-8: plays whose owed complement is played out before they are ranked."""


@dataclass(slots=True)
class SearchReport:
    """What the last play decision did (for tests, the bench and curious players)."""

    depth: int = 0
    """Deepest look-ahead that decided the play (0: evaluation only)."""
    searched: int = 0
    """Plays valued at that depth."""
    plays: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    out_of_time: bool = False


class _OutOfTime(Exception):
    """The budget ran out in the middle of valuing a play."""


def rolls_for(position: Position) -> tuple[tuple[tuple[int, int], float], ...]:
    """The rolls the side to move may get, with chances (RB-8 changes them)."""
    if position.owed:
        return (((position.owed, position.owed), 1.0),)
    if position.rules.doubles_chain and position.is_first_turn():
        return FIRST_ROLLS
    return ROLLS


def keeps_roll(plays: tuple[Play, ...]) -> bool:
    """RB-8: plays that use all four moves of a double leave the same side to roll.

    Every play of one roll uses the same number of dice (BF-9), so the first says it.
    """
    return bool(plays) and plays[0].before.rules.doubles_chain and len(plays[0].steps) == 4


def level_values(game: RaceGame) -> tuple[float, float]:
    """What a double and a triple win add over a single win at this table (NS-2, NS-3, BG-17)."""
    options = game.options
    if game.rules.name in NARDY:
        return (1.0, 0.0) if options.stake_mode == "mars" else (0.0, 0.0)
    if options.jacoby and game.cube.value == 1 and not options.match_length:
        return 0.0, 0.0
    return 1.0, 1.0


class ExpectimaxBot(RaceBot):
    """Expectimax over the dice with a hand-built evaluation, at one of :data:`LEVELS`.

    It claims :data:`OWN_VARIANTS` unless given ``variants`` (up to
    :data:`FALLBACK_VARIANTS`). ``clock`` is injectable so that tests can run a
    search against a fake time.
    """

    def __init__(
        self,
        level: str = "hard",
        *,
        seed: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        variants: frozenset[str] = OWN_VARIANTS,
    ) -> None:
        super().__init__(seed=seed)
        if level not in LEVELS:
            known = ", ".join(LEVELS)
            raise CannotPlay(f"expectimax has no level {level!r} (known: {known})")
        unknown = variants - RACE_VARIANTS.keys()
        if unknown:
            raise CannotPlay(f"expectimax plays race variants only, not {sorted(unknown)}")
        self.variants = variants
        self.level = LEVELS[level]
        self.name = f"expectimax:{level}"
        self.clock = clock
        self.report = SearchReport()
        self._evaluators: dict[tuple[str, tuple[float, float]], Evaluator] = {}

    # --- the two questions ------------------------------------------------------------

    def choose_play(
        self,
        game: RaceGame,
        plays: tuple[Play, ...],
        context: MatchContext,
        budget: float | None,
    ) -> Play:
        started = self.clock()
        deadline = started + self._budget(budget)
        evaluator = self.evaluator(game)
        counted = evaluator.evaluations
        me = game.position.turn
        try:
            ranked = self._rank(plays, evaluator, me)
            report = SearchReport(depth=0, searched=len(plays), plays=len(plays))
            for depth, width in enumerate(self.level.widths, start=1):
                planned = ranked[:width]
                valued = self._deepen(planned, evaluator, me, depth, deadline)
                if not valued:
                    break
                ranked = valued
                report.depth, report.searched = depth, len(valued)
                if len(valued) < min(len(planned), 2):
                    break  # out of time: a deeper look would compare too few plays
        finally:
            evaluator.cache.clear()  # positions of one decision rarely recur in the next
        report.out_of_time = self.clock() > deadline
        report.evaluations = evaluator.evaluations - counted
        report.seconds = self.clock() - started
        self.report = report
        return ranked[0][1]

    def cube_decision(
        self, game: RaceGame, side: Side, context: MatchContext, budget: float | None
    ) -> CubeDecision:
        """Double inside :data:`DOUBLE_WINDOW`; take above :data:`TAKE_EQUITY` (0-ply, cubeless).

        Only backgammon and takhte nard have a cube; match scores are not weighed.
        """
        chance, equity = self.evaluator(game).chances(game.position, side)
        if game.phase is Phase.ROLL:
            low, high = DOUBLE_WINDOW
            return "double" if low <= chance < high else "no_double"
        if game.phase is Phase.DOUBLED and equity >= BEAVER_EQUITY:
            return "beaver"
        return "take" if equity >= TAKE_EQUITY else "drop"

    def accepts_resignation(self, game: RaceGame, side: Side, level: int) -> bool:
        """Accept when the offer is worth at least what the evaluation expects to win."""
        evaluator = self.evaluator(game)
        offered = 1.0 + (evaluator.double_value if level >= 2 else 0.0)
        offered += evaluator.triple_value if level >= 3 else 0.0
        return offered >= evaluator.position(game.position, side)

    # --- search -----------------------------------------------------------------------

    def evaluator(self, game: RaceGame) -> Evaluator:
        """The evaluation for this game's variant and stakes, kept between moves."""
        values = level_values(game)
        index = (game.rules.name, values)
        if index not in self._evaluators:
            self._evaluators[index] = Evaluator(game.rules, values)
        return self._evaluators[index]

    def _budget(self, budget: float | None) -> float:
        return self.level.budget if budget is None else max(0.0, min(budget, self.level.budget))

    def _rank(
        self, plays: tuple[Play, ...], evaluator: Evaluator, me: Side
    ) -> list[tuple[float, Play]]:
        """Plays by 0-ply equity, best first; ties keep the generator's order."""
        keeps = keeps_roll(plays)
        scored = []
        for index, play in enumerate(plays):
            scored.append((evaluator.play(play, keeps), -index, play))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        if keeps:
            # RB-8: a full double owes the complement at once; look at it for the best few.
            for rank in range(min(COMPLEMENT_WIDTH, len(scored))):
                _, order, play = scored[rank]
                if play.after.owed:
                    settled = self._complement(play.after, evaluator, me, 0, None)
                    scored[rank] = (settled, order, play)
            scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        if self.level.slip and self.rng.random() < self.level.slip:
            slipped = scored.pop(self.rng.randrange(min(SLIP_CHOICES, len(scored))))
            scored.insert(0, slipped)
        return [(value, play) for value, _, play in scored]

    def _deepen(
        self,
        candidates: list[tuple[float, Play]],
        evaluator: Evaluator,
        me: Side,
        depth: int,
        deadline: float,
    ) -> list[tuple[float, Play]]:
        """Value ``candidates`` at ``depth`` in order until the deadline; best first."""
        valued = []
        for order, (_, play) in enumerate(candidates):
            try:
                value = self._after_play(play, evaluator, me, depth, deadline)
            except _OutOfTime:
                break
            valued.append((value, -order, play))
        valued.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [(value, play) for value, _, play in valued]

    def _after_play(
        self, play: Play, evaluator: Evaluator, me: Side, depth: int, deadline: float | None
    ) -> float:
        """Equity for ``me`` after ``play``, looking ``depth`` rolls ahead."""
        after = play.after
        if after.owed:
            return self._complement(after, evaluator, me, depth, deadline)
        return self._chance(after, evaluator, me, depth, deadline)

    def _complement(
        self, position: Position, evaluator: Evaluator, me: Side, depth: int, deadline: float | None
    ) -> float:
        """RB-8: the owed complement is played at once by the same side; it picks its best."""
        if position.outcome() is not None:  # the play bore off the last checker: nothing owed
            return evaluator.position(position, me)
        owed = position.owed
        plays = position.legal_plays((owed, owed))
        if not plays:
            return self._chance(position.pass_turn(), evaluator, me, depth, deadline)
        mover = position.turn
        keeps = keeps_roll(plays)
        if depth == 0:
            best = max(evaluator.play(play, keeps) for play in plays)
            return best if mover is me else -best
        # Deeper, the complements the evaluation likes best are searched.
        ranked = sorted(plays, key=lambda play: evaluator.play(play, keeps), reverse=True)[:3]
        values = [self._after_play(play, evaluator, me, depth, deadline) for play in ranked]
        return max(values) if mover is me else min(values)

    def _chance(
        self, position: Position, evaluator: Evaluator, me: Side, depth: int, deadline: float | None
    ) -> float:
        """Equity for ``me`` of ``position`` before its side to move rolls, ``depth`` rolls deep."""
        if depth == 0 or position.outcome() is not None:
            return evaluator.position(position, me)
        mover = position.turn
        total = 0.0
        for dice, chance in rolls_for(position):
            if deadline is not None and self.clock() > deadline:
                raise _OutOfTime
            plays = position.legal_plays(dice)
            if not plays:
                value = self._chance(position.pass_turn(), evaluator, me, depth - 1, deadline)
                total += chance * value
                continue
            keeps = keeps_roll(plays)
            if depth == 1:
                best = max(evaluator.play(play, keeps) for play in plays)
                value = best if mover is me else -best
            else:
                # Deeper, the mover's reply is the one its evaluation likes best.
                reply = max(plays, key=lambda play: evaluator.play(play, keeps))
                value = self._after_play(reply, evaluator, me, depth - 1, deadline)
            total += chance * value
        return total


__all__ = [
    "FALLBACK_VARIANTS",
    "LEVELS",
    "OWN_VARIANTS",
    "ExpectimaxBot",
    "Level",
    "SearchReport",
    "rolls_for",
]
