"""Post-game review of the five race games gnubg does not play, by their trained nets.

Long nardy, Caucasian nardy, Plakoto, Russian backgammon and Jacquet get the
review backgammon has (:mod:`..analysis`), in the same shape
(:mod:`..analysis_report`), so the review card and its equity graph read the same.
The log is folded with the play layer's own ``evolve``, and before each play:

* the play's error: the best play's equity minus the chosen one's, both by the
  net (the bot's own equity: its outcome outputs weighed with the table's level
  points, so mars, koks and Plakoto's mother win count as they pay). ``plies``
  0 and 1 judge at 0-ply; 2 looks one roll further (the 1-ply of the "expert"
  level) at the :data:`~.bot.WIDTH` best plays and the one played; a Russian
  backgammon double's first four moves are judged with the complement after
  them, as the bots play them (RB-8);
* the roll's luck: the equity after the roll (its best play's, before moving)
  minus the average over the rolls the side could have got, at 0-ply: the 15
  non-doubles for an opening roll (BF-14) and a Russian backgammon first turn
  (RB-8); no luck for RB-8's owed complement, which nobody rolls, and a rolled
  double worth its best first part through the complement, as that part is judged;
* a play with one choice is forced (shown, not counted), a roll that cannot be
  played is "cannot move"; LN-13's last roll is judged by its outcome, a draw
  included, which the net has no output for.

These games have no cube (NS-1, PK-10, RB-11, JQ): every decision is a play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.moves import Play
from sheshbesh.play.race import RaceGame, evolve, from_created

from ..analysis import AnalysisError
from ..analysis_report import Entry, GameAnalysis
from ..expectimax import FIRST_ROLLS, OWN_VARIANTS, level_values, rolls_for
from .bot import (
    complement_values,
    leaders,
    leaders_through_complement,
    leaves_complement,
    one_ply,
    outputs_of,
    shipped,
)
from .net import Net
from .train import best_play

Event = dict[str, Any]
Rolls = tuple[tuple[tuple[int, int], float], ...]

REVIEWED = OWN_VARIANTS
"""The variants a net reviews: those it is the club's engine for."""
DEPTH = {0: 0, 1: 0, 2: 1}
"""The net's look-ahead for each ``plies`` the route offers (see docs/decisions.md)."""


class NetAnalysisError(AnalysisError):
    """A log this review cannot judge: not one of :data:`REVIEWED`, not over, or broken
    (an :class:`~..analysis.AnalysisError`, so the route answers it as it answers gnubg's)."""


def analyse_race_net(
    created: Event, events: Iterable[Event], *, plies: int = 1, net: Net | None = None
) -> GameAnalysis:
    """The review of the finished game that ``created`` and ``events`` describe.

    ``net`` replaces the shipped weights (tests).
    """
    if plies not in DEPTH:
        raise NetAnalysisError(f"plies is 0, 1 or 2, not {plies!r}")
    if created.get("type") != "created" or created.get("variant") not in REVIEWED:
        raise NetAnalysisError(
            f"the nets review {', '.join(sorted(REVIEWED))} games, "
            f"not a {created.get('variant')!r} {created.get('type')!r} log"
        )
    log = list(events)
    try:
        games = [from_created(created)]
        for event in log:
            games.append(evolve(games[-1], event))
    except (KeyError, TypeError, ValueError, AssertionError) as error:
        raise NetAnalysisError(f"the log does not replay: {error!r}") from None
    if not games[-1].finished:
        raise NetAnalysisError("the game is not over: it is reviewed once it has ended")
    judge = _Judge(net or shipped(games[0].rules.name), games[0], DEPTH[plies])
    rolls: Rolls | None = None
    entries: list[Entry] = []
    for game, event in zip(games[:-1], log, strict=True):  # each event with the game before it
        kind = event["type"]
        if kind == "opening" and event.get("first_dice"):
            rolls = FIRST_ROLLS  # BF-14: the opening roll is never a double
        elif kind == "rolled" and not event.get("ignored"):
            rolls = rolls_for(game.position)
        elif kind == "complement":
            rolls = None  # RB-8: owed, not rolled
        elif kind in ("played", "passed") and game.turn is not None:
            entries.append(judge.entry(game, event, rolls))
    return GameAnalysis(games[0].rules.name, plies, 0, tuple(entries))


class _Judge:
    """The net's equities for one game's table (its level points)."""

    def __init__(self, net: Net, game: RaceGame, depth: int) -> None:
        self.net = net
        self.depth = depth
        self.values = level_values(game)
        self.weights = net.level_weights(self.values)

    def entry(self, game: RaceGame, event: Event, rolls: Rolls | None) -> Entry:
        turn = game.turn
        assert turn is not None
        position, final = game.position, game.final_turn
        plays, equity, through = self.judged(position, turn.dice, final)  # turn.plays
        actual = self.best_value(position, equity, through, final)
        common: dict[str, Any] = {
            "game": 1, "side": position.turn.letter, "position": position.text(),
            "position_id": position.text(), "cube": game.cube.value, "seq": event.get("seq"),
            "dice": turn.dice, "luck": self.luck(position, turn.dice, actual, rolls, final),
        }  # fmt: skip
        if event["type"] == "passed":
            return Entry("play", **common, action="cannot move", best="cannot move",
                         equity=actual, best_equity=actual, forced=True, counted=False)  # fmt: skip
        after = Position.from_text(game.rules, event["position"])
        chosen = next((i for i, play in enumerate(plays) if play.after == after), None)
        if chosen is None:
            raise NetAnalysisError(f"{event['play']!r} is not a legal play at seq {event['seq']}")
        if len(plays) == 1:
            return Entry("play", **common, action=plays[0].notation(), best=plays[0].notation(),
                         equity=actual, best_equity=actual, forced=True, counted=False)  # fmt: skip
        equities = self.ranked(position, plays, equity, through, chosen, final)
        best = max(equities, key=lambda i: equities[i])
        return Entry("play", **common, action=plays[chosen].notation(),
                     best=plays[best].notation(), equity=equities[chosen],
                     best_equity=equities[best])  # fmt: skip

    def judged(
        self, position: Position, dice: tuple[int, int], final: bool
    ) -> tuple[tuple[Play, ...], np.ndarray, dict[int, float] | None]:
        """The plays of ``dice`` (the turn's own, in its order), their 0-ply equities and,
        for a double's first four moves with a complement owed (RB-8), the
        :data:`~.bot.WIDTH` best of them through their best complement, as the 0-ply
        bot plays them (:func:`~.bot.leaders_through_complement`). The played roll's
        are worked out once, for its luck and for its play."""
        plays = position.legal_plays(dice, last_roll=final)
        if not plays:
            return plays, np.empty(0), None
        equity = self.equities(position, plays, final)
        if final or not leaves_complement(plays):
            return plays, equity, None
        return plays, equity, leaders_through_complement(self.net, plays, equity, self.weights)

    def ranked(
        self, position: Position, plays: tuple[Play, ...], equity: np.ndarray,
        through: dict[int, float] | None, chosen: int, final: bool,
    ) -> dict[int, float]:  # fmt: skip
        """Equity for the mover of the plays worth judging: all at 0-ply; at 1-ply the
        :data:`~.bot.WIDTH` best by 0-ply and the one played, each a roll further. A double's
        first four moves in Russian backgammon are judged, at 0-ply too, as the 0-ply
        bot plays them: the :data:`~.bot.WIDTH` best and the one played, each by the best
        complement after it (``through``, from :meth:`judged`)."""
        if final or (self.depth == 0 and through is None):
            return dict(enumerate(equity.tolist()))
        if self.depth == 0:
            assert through is not None
            if chosen in through:
                return through
            return through | complement_values(self.net, plays, [chosen], equity, self.weights)
        order = leaders(equity)
        judged = [*order, chosen] if chosen not in order else order
        me = position.turn
        return {i: one_ply(self.net, plays[i].after, me, self.weights) for i in judged}

    def equities(self, position: Position, plays: tuple[Play, ...], final: bool) -> np.ndarray:
        """0-ply equity for the mover after each play (LN-13's last roll: its outcome)."""
        if final:
            return np.array([self.outcome_points(play.after, position.turn) for play in plays])
        return best_play(self.net, position, plays, self.weights).equity

    def outcome_points(self, position: Position, me: Side) -> float:
        outcome = position.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        level = outcome.level
        points = 1.0 + (self.values[0] if level >= 2 else 0.0)
        points += self.values[1] if level >= 3 else 0.0
        return points if outcome.winner is me else -points

    def best_value(
        self, position: Position, equity: np.ndarray, through: dict[int, float] | None,
        final: bool,
    ) -> float:  # fmt: skip
        """The mover's equity after a roll and before moving: his best play's, at 0-ply
        (``equity`` and ``through`` from :meth:`judged`). A double whose first part leaves
        a complement owed (RB-8) is worth its best first part through the complement, as
        :meth:`ranked` judges that part: a rolled double's luck is read the way its play is."""
        if through is not None:
            return max(through.values())
        if len(equity):
            return float(equity.max())
        after = position.pass_turn()
        if final:
            return self.outcome_points(after, position.turn)
        value = float(self.net.equity(outputs_of(self.net, after), self.weights)[0])
        return value if after.turn is position.turn else -value

    def luck(
        self, position: Position, dice: tuple[int, int], actual: float, rolls: Rolls | None,
        final: bool,
    ) -> float | None:  # fmt: skip
        """The luck of ``dice``, worth ``actual`` to the mover: ``actual`` less the mean of
        every roll's value; None when the dice were not rolled (a complement)."""
        if rolls is None:
            return None
        seen = {(min(dice), max(dice)): actual}
        mean = 0.0
        for roll, chance in rolls:
            key = (min(roll), max(roll))
            if key not in seen:
                _, equity, through = self.judged(position, roll, final)
                seen[key] = self.best_value(position, equity, through, final)
            mean += chance * seen[key]
        return actual - mean


__all__ = ["DEPTH", "REVIEWED", "NetAnalysisError", "analyse_race_net"]
