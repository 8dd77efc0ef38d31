"""Post-game analysis with gnubg: every play and cube action of a finished game, judged.

The server keeps each game as its event log; :func:`analyse_events` folds the
log with the play layer's own ``evolve`` (so the analysis sees exactly the
game that was played) and, before each decision, asks gnubg (:mod:`.gnubg_eval`):

* a roll and its play: gnubg's best play among *our* legal plays, the equity of
  each, the equity lost, and the luck of the roll (the best play's equity with
  these dice minus the average over all rolls; over the 15 non-doubles for an
  opening roll, BF-14);
* a cube decision (rolling while the cube was available, or doubling):
  no double / double-take / double-pass, and what the doubler lost;
* the answer to a double: take, drop or beaver, and what the taker lost.

Plays are judged at ``plies`` depth with every play searched equally deep, so
the losses compare like with like; cube decisions look one roll further; luck
is judged at 0-ply, as gnubg does. It analyses backgammon, takhte nard and short
nardy (the games :class:`~.gnubg_bot.GnubgBot` plays), single games and matches.
A game still in play is refused: the analysis would be an engine whispering
to the players (and to spectators who talk to them).

The analysis is pure (no I/O, no clock); it takes seconds, so the server runs
it in a worker process, one apart from its bots' (``server/bots/reviews.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from sheshbesh.games.race import Position, Side
from sheshbesh.play.match import Match, evolve_match, from_match_created
from sheshbesh.play.race import Phase, RaceGame, evolve, from_created

from . import gnubg_engine
from .analysis_report import CLOSE_CUBE, Entry, GameAnalysis
from .base import MatchContext
from .gnubg_board import GNUBG_VARIANTS
from .gnubg_eval import ROLLS, Evaluator

Event = dict[str, Any]
OPENING_ROLLS = tuple(((d1, d2), 2) for d1 in range(1, 7) for d2 in range(d1 + 1, 7))
"""BF-14: the opening roll is never a double."""
ANSWERS = {"taken": "take", "dropped": "drop", "beavered": "beaver"}


class AnalysisError(ValueError):
    """A game this analysis cannot judge: not a gnubg variant, not over, or a broken log."""


def analyse_events(created: Event, events: Iterable[Event], *, plies: int = 1) -> GameAnalysis:
    """The analysis of the game (``created``) or match (``match_created``) the log describes.

    ``events`` are the stored events after the created one, in order.
    ``plies`` (0–2) is how far gnubg looks when it judges a play.
    """
    if plies not in (0, 1, 2):
        raise AnalysisError(f"plies is 0, 1 or 2, not {plies!r}")
    log = list(events)
    state = _start(created)
    variant = _game(state).rules.name
    if variant not in GNUBG_VARIANTS:
        raise AnalysisError(f"gnubg does not analyse {variant} (only {', '.join(GNUBG_VARIANTS)})")
    final = state
    for event in log:
        final = _fold(final, event)
    if not final.finished:
        raise AnalysisError("the game is not over: it is analysed once it has ended")
    entries = gnubg_engine.run(lambda g: _Walker(g, plies).walk(state, log))
    length = state.length if isinstance(state, Match) else 0
    return GameAnalysis(variant, plies, length, tuple(entries))


def _start(created: Event) -> RaceGame | Match:
    try:
        if created.get("type") == "match_created":
            return from_match_created(created)
        if created.get("type") == "created" and created.get("variant") != "draughts":
            return from_created(created)
    except (KeyError, TypeError, ValueError) as error:
        raise AnalysisError(f"not a race game's created event: {error!r}") from None
    raise AnalysisError(f"not a race game or match: {created.get('type')!r} event")


def _fold(state: RaceGame | Match, event: Event) -> RaceGame | Match:
    try:
        if isinstance(state, Match):
            return evolve_match(state, event)
        return evolve(state, event)
    except (KeyError, TypeError, ValueError, AssertionError) as error:
        raise AnalysisError(
            f"the log does not replay at seq {event.get('seq')}: {error!r}"
        ) from None


def _game(state: RaceGame | Match) -> RaceGame:
    return state.game if isinstance(state, Match) else state


class _Walker:
    """Walks the log once, judging each decision in the state just before it."""

    def __init__(self, g: ModuleType, plies: int) -> None:
        self.g = g
        self.plies = plies
        self.entries: list[Entry] = []
        self.opening = False

    def walk(self, state: RaceGame | Match, events: list[Event]) -> list[Entry]:
        for event in events:
            game = _game(state)
            context = MatchContext.of(state)
            number = state.number if isinstance(state, Match) else 1
            self.see(game, context, number, event)
            state = _fold(state, event)
        return self.entries

    def see(self, game: RaceGame, context: MatchContext, number: int, event: Event) -> None:
        kind = event["type"]
        if kind == "opening":
            self.opening = bool(event.get("first_dice"))
        elif kind == "rolled" and not event.get("ignored"):
            self.opening = False
            if game.can_double(Side.from_letter(event["side"])):
                self.cube(game, context, number, "no double", event.get("seq"))
        elif kind == "doubled":
            self.cube(game, context, number, "double", event.get("seq"))
        elif kind in ("taken", "dropped", "beavered") and game.phase is Phase.DOUBLED:
            self.response(game, context, number, ANSWERS[kind], event.get("seq"))
        elif kind in ("played", "passed") and game.turn is not None:
            self.play(game, context, number, event)

    # --- plays -----------------------------------------------------------------------

    def play(self, game: RaceGame, context: MatchContext, number: int, event: Event) -> None:
        position = game.position
        turn = game.turn
        assert turn is not None
        luck_eval = Evaluator(self.g, game, context, plies=0)
        luck, actual = self.luck(luck_eval, position, turn.dice)
        common = self.common(game, number, position, event.get("seq"))
        if event["type"] == "passed":
            self.entries.append(
                Entry("play", **common, action="cannot move", best="cannot move",
                      equity=actual, best_equity=actual, dice=turn.dice, forced=True,
                      luck=luck, counted=False)
            )  # fmt: skip
            return
        after = Position.from_text(game.rules, event["position"])
        played = next((play for play in turn.plays if play.after == after), None)
        if played is None:
            raise AnalysisError(f"{event['play']!r} is not a legal play at seq {event.get('seq')}")
        if len(turn.plays) == 1:
            equity = best_equity = actual
            best = played
        else:
            evaluator = Evaluator(self.g, game, context, plies=self.plies, every_play=True)
            ranked = evaluator.rank(position, turn.dice, turn.plays)
            best, best_equity = ranked[0]
            equity = dict(ranked)[played]
        self.entries.append(
            Entry("play", **common, action=played.notation(), best=best.notation(),
                  equity=equity, best_equity=best_equity, dice=turn.dice,
                  forced=len(turn.plays) == 1, luck=luck, counted=len(turn.plays) > 1)
        )  # fmt: skip

    def luck(
        self, evaluator: Evaluator, position: Position, dice: tuple[int, int]
    ) -> tuple[float, float]:
        """(luck of ``dice``, equity after their best play), at 0-ply."""
        rolls = OPENING_ROLLS if self.opening else ROLLS
        passing: list[float] = []

        def value(roll: tuple[int, int]) -> float:
            best = evaluator.best_after_roll(position, roll)
            if best is None:
                if not passing:
                    passing.append(evaluator.pass_equity(position))
                return passing[0]
            return best

        values = {roll: value(roll) for roll, _ in rolls}
        mean = sum(values[roll] * weight for roll, weight in rolls) / sum(w for _, w in rolls)
        actual = values[(min(dice), max(dice))]
        return actual - mean, actual

    # --- the cube --------------------------------------------------------------------

    def cube(
        self, game: RaceGame, context: MatchContext, number: int, action: str, seq: int | None
    ) -> None:
        """The side on roll's cube decision: double (at the opponent's best answer) or not."""
        position = game.position
        equities = Evaluator(self.g, game, context, plies=self.plies).cube_equities(position)
        answers = [equities.double_take, equities.double_pass]
        if game.options.beavers and game.cube.value * 4 <= 64:
            answers.append(max(2 * equities.double_take, -2.0))
        doubling = min(answers)
        best = "double" if doubling > equities.no_double else "no double"
        chosen = doubling if action == "double" else equities.no_double
        close = action == "double" or doubling - equities.no_double > -CLOSE_CUBE
        self.entries.append(
            Entry("cube", **self.common(game, number, position, seq), action=action, best=best,
                  equity=chosen, best_equity=max(doubling, equities.no_double),
                  cube_equities=equities, counted=close)
        )  # fmt: skip

    def response(
        self, game: RaceGame, context: MatchContext, number: int, action: str, seq: int | None
    ) -> None:
        """The doubled side's answer, in its own equity (take −DT, drop −DP, beaver −2·DT)."""
        position = game.position
        equities = Evaluator(self.g, game, context, plies=self.plies).cube_equities(position)
        options = {"take": -equities.double_take, "drop": -equities.double_pass}
        if game.can_beaver(position.turn.other):
            options["beaver"] = min(-2 * equities.double_take, 2.0)
        best = max(options, key=lambda name: options[name])
        common = self.common(game, number, position, seq)
        common["side"] = position.turn.other.letter
        self.entries.append(
            Entry("response", **common, action=action, best=best, equity=options[action],
                  best_equity=options[best], cube_equities=equities)
        )  # fmt: skip

    def common(
        self, game: RaceGame, number: int, position: Position, seq: int | None
    ) -> dict[str, Any]:
        owner = game.cube.owner
        return {
            "game": number,
            "side": position.turn.letter,
            "position": position.text(),
            "position_id": position.id(),
            "cube": game.cube.value,
            "cube_owner": None if owner is None else owner.letter,
            "seq": seq,
        }
