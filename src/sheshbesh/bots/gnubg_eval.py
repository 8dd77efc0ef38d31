"""What gnubg thinks of a race game: our plays ranked, cube equities, outcome odds.

Every equity here is for the side on roll. In money play it is per unit of the
cube as it stands (gnubg's *normalised* equity: +1 wins the cube's value); in
a match it is gnubg's match equity, match winning chances mapped linearly so
that winning the cube's value is +1 and losing it −1.

**Plays.** In backgammon and takhte nard gnubg's own move search ranks the
plays (``find_best_moves``: cubeful, match-aware, with gnubg's move filters),
and each gnubg move is matched to one of *our* legal plays by the board it
leaves, so our rules stay the authority. Where that cannot work, each of our
plays is judged as the position it leaves (gnubg's cubeless outcome odds,
scored by the table's rules; in a match gnubg's match equity):

* short nardy, whose scoring gnubg does not know (SN-4, NS-2/NS-3: Oin pays a
  win, Mars pays a mars twice, nothing pays three); its board, moves, hitting,
  entering and bearing off are backgammon's (SN-1…SN-3), so gnubg's nets
  judge the checkers well and only the scoring is ours;
* bear-offs, where gnubg stops writing a move at its first checker off
  (:func:`~.gnubg_board.is_cut`), so its list cannot be matched;
* any disagreement between gnubg's list and ours (there is none in the
  differential tests; this keeps a bot playing if one ever appears).

**Cube.** One roll ahead, as gnubg's own 1-ply cube analysis: *no double* is
the average over the 36 rolls of the best play's cubeful equity with the cube
as it is, *double/take* the same with the cube doubled and turned, *double/pass*
the cube's value. A roll that cannot be played passes the turn: the opponent's
turn is valued the same way one level further down, then statically.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from sheshbesh.games.race import Play, Position, Side
from sheshbesh.games.race.ids import Board
from sheshbesh.play.cube import MAX_CUBE
from sheshbesh.play.options import NARDY
from sheshbesh.play.race import RaceGame

from .base import MatchContext
from .gnubg_board import (
    CubeState,
    apply_move,
    board_after,
    board_of,
    cube_info,
    is_cut,
    swap,
)

Odds = tuple[float, float, float, float, float]
"""gnubg's outputs for the side on roll: win, win gammon, win backgammon, lose gammon,
lose backgammon (gammon odds include backgammons)."""

ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((d1, d2), 1 if d1 == d2 else 2) for d1 in range(1, 7) for d2 in range(d1, 7)
)
"""The 21 distinct rolls with their weight out of 36."""

SCREEN = (8, 0.16)
"""gnubg's "normal" move filter: after the 0-ply screen, the best play and up to 8
more within 0.16 of it go on to the deeper search."""


def invert(odds: Odds) -> Odds:
    """The same odds seen by the other side."""
    win, win_g, win_bg, lose_g, lose_bg = odds
    return 1.0 - win, lose_g, lose_bg, win_g, win_bg


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per cube of each result level, as this table pays them."""

    gammon: int = 2
    backgammon: int = 3

    @classmethod
    def of(cls, game: RaceGame) -> Scoring:
        """BG-8/BG-9, BG-17 (Jacoby: singles until someone doubles), NS-2…NS-4."""
        options = game.options
        if game.rules.name in NARDY:
            mars = 2 if options.stake_mode == "mars" else 1
            return cls(mars, mars)
        if options.jacoby and not game.doubled and not options.match_length:
            return cls(1, 1)
        return cls(2, 3 if game.rules.backgammon_level else 2)

    def value(self, level: int) -> int:
        return (1, self.gammon, self.backgammon)[min(max(level, 1), 3) - 1]

    def equity(self, odds: Odds) -> float:
        """Expected points per cube for the side whose ``odds`` these are."""
        win, win_g, win_bg, lose_g, lose_bg = odds
        extra_g, extra_bg = self.gammon - 1, self.backgammon - self.gammon
        return 2 * win - 1 + extra_g * (win_g - lose_g) + extra_bg * (win_bg - lose_bg)


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """A cube decision for the side on roll, in equity for that side."""

    no_double: float
    double_take: float
    double_pass: float

    @property
    def double(self) -> bool:
        """Doubling gains: the opponent's best answer still leaves more than not doubling."""
        return min(self.double_take, self.double_pass) > self.no_double

    @property
    def take(self) -> bool:
        """The doubled side loses less by taking (equal counts as a take)."""
        return self.double_take <= self.double_pass

    @property
    def beaver(self) -> bool:
        """The taker is the favourite after taking (money play only)."""
        return self.double_take < 0

    def to_json(self) -> dict[str, float]:
        return {
            "no_double": round(self.no_double, 4),
            "double_take": round(self.double_take, 4),
            "double_pass": round(self.double_pass, 4),
        }


class Evaluator:
    """gnubg's view of one game at one depth; call its methods on gnubg's thread only.

    ``plies`` is the depth of checker-play evaluation (0 static, 2 looks two
    rolls ahead); cube decisions search one roll and then play at ``plies``.
    ``every_play`` scores every play at full depth (analysis) instead of only
    the plays gnubg's filter keeps.
    """

    def __init__(
        self,
        g: ModuleType,
        game: RaceGame,
        context: MatchContext,
        *,
        plies: int = 0,
        every_play: bool = False,
    ) -> None:
        self.g = g
        self.game = game
        self.context = context
        self.plies = plies
        self.every_play = every_play
        self.scoring = Scoring.of(game)
        self.match = bool(context.length)
        self.gnubg_moves = game.rules.cube
        """Backgammon and takhte nard: gnubg's move search knows their scoring."""
        self.cubeful = game.options.cube
        self.jacoby = game.options.jacoby
        self.beavers = game.options.beavers

    # --- shapes ----------------------------------------------------------------------

    def state(self, position: Position) -> CubeState:
        cube = self.game.cube
        return CubeState(cube.value, cube.owner, position.turn)

    def info(self, state: CubeState) -> dict[str, Any]:
        return cube_info(self.g, state, self.context, jacoby=self.jacoby, beavers=self.beavers)

    def _context(self, plies: int, cubeful: bool) -> dict[str, Any]:
        context: dict[str, Any] = self.g.evalcontext(int(cubeful), plies, 1, 0, 0.0)
        return context

    def _filters(self, plies: int) -> list[dict[str, Any]]:
        extra, threshold = (1000, 10.0) if self.every_play else SCREEN
        levels = [
            {"ply": plies, "level": 0, "acceptmoves": 0, "extramoves": extra,
             "threshold": threshold},
        ]  # fmt: skip
        levels += [
            {"ply": plies, "level": level, "acceptmoves": -1, "extramoves": 0, "threshold": 0.0}
            for level in range(1, plies)
        ]
        return levels

    # --- units: equities for one cube, and values comparable across cubes --------------

    def absolute(self, equity: float, state: CubeState) -> float:
        """Money: points; match: winning chances (both for the side on roll)."""
        if self.match:
            return float(self.g.eq2mwc(equity, self.info(state)))
        return equity * state.value

    def normalised(self, value: float, state: CubeState) -> float:
        if self.match:
            return float(self.g.mwc2eq(value, self.info(state)))
        return value / state.value

    def flip(self, value: float) -> float:
        return 1.0 - value if self.match else -value

    # --- plays -----------------------------------------------------------------------

    def rank(
        self, position: Position, dice: tuple[int, int], plays: tuple[Play, ...]
    ) -> list[tuple[Play, float]]:
        """``[(play, equity), …]`` best first: gnubg's order, so deeper-searched plays lead."""
        if self.gnubg_moves:
            ranked = self._rank_by_search(position, dice, plays)
            if ranked is not None:
                return ranked
        return self._rank_by_evaluation(position, plays)

    def _rank_by_search(
        self, position: Position, dice: tuple[int, int], plays: tuple[Play, ...]
    ) -> list[tuple[Play, float]] | None:
        board = board_of(position)
        info = self.info(self.state(position))
        context = self._context(self.plies, self.cubeful)
        filters = self._filters(self.plies) if self.plies else None
        args = (board, info, context, dice) + ((filters,) if filters else ())
        moves = self.g.findbestmoves(*args)
        if any(is_cut(entry["move"]) for entry in moves):
            return None
        by_board = {board_after(play): play for play in plays}
        ranked = []
        for entry in moves:
            play = by_board.pop(apply_move(board, entry["move"]), None)
            if play is not None:
                ranked.append((play, float(entry["score"])))
        return None if by_board else ranked

    def _rank_by_evaluation(
        self, position: Position, plays: tuple[Play, ...]
    ) -> list[tuple[Play, float]]:
        state = self.state(position).passed()
        ranked = sorted(
            ((play, -self.static(swap(board_after(play)), state, 0))
             for play in plays),
            key=lambda item: -item[1],
        )  # fmt: skip
        if not self.plies:
            return ranked
        extra, threshold = (len(ranked), 10.0) if self.every_play else SCREEN
        best = ranked[0][1]
        keep = [item for item in ranked[: extra + 1] if best - item[1] <= threshold]
        deeper = sorted(
            ((play, -self.static(swap(board_after(play)), state, self.plies))
             for play, _ in keep),
            key=lambda item: -item[1],
        )  # fmt: skip
        return deeper + ranked[len(keep) :]

    def static(self, board: Board, state: CubeState, plies: int) -> float:
        """Cubeless equity for the side on roll of ``board`` (gnubg's odds, our scoring).

        Money and match equities alike are antisymmetric: the other side's is the negation.
        """
        out = self.g.evaluate(board, self.info(state), self._context(plies, False))
        if self.match:
            return float(out[5])
        return self.scoring.equity(tuple(out[:5]))

    # --- rolls and the cube ------------------------------------------------------------

    def best_after_roll(self, position: Position, dice: tuple[int, int]) -> float | None:
        """Equity of the best play of ``dice`` for the side to move (None: no play)."""
        if self.gnubg_moves:
            state = self.state(position)
            value = self._best_value(board_of(position), state, dice, self.plies)
            return None if value is None else self.normalised(value, state)
        plays = position.legal_plays(dice)
        if not plays:
            return None
        return self._rank_by_evaluation(position, plays)[0][1]

    def pass_equity(self, position: Position) -> float:
        """Equity for the side to move of a roll it cannot play (the opponent rolls next)."""
        state = self.state(position)
        board = board_of(position)
        if self.gnubg_moves:
            value = self.flip(self._pre_roll(swap(board), state.passed(), 1))
            return self.normalised(value, state)
        return -self.static(swap(board), state.passed(), 0)

    def cube_equities(self, position: Position) -> CubeEquities:
        """No double, double/take and double/pass for the side to move (before rolling)."""
        board = board_of(position)
        state = self.state(position)
        no_double = self._average(board, state, 2)
        double_take = self._average(board, state.doubled(), 2)
        double_pass = self._cash(state)
        return CubeEquities(
            self.normalised(no_double, state),
            self.normalised(double_take, state),
            self.normalised(double_pass, state),
        )

    def beaver_take(self, position: Position) -> tuple[float, float]:
        """After a beaver (BG-16): the doubler's equity taking, and dropping, per cube now."""
        state = self.state(position)
        take = self._average(board_of(position), state, 2)
        return self.normalised(take, state), -0.5

    def may_double(self, state: CubeState) -> bool:
        return (
            self.cubeful
            and not self.context.crawford
            and state.owner in (None, state.on_roll)
            and state.value < MAX_CUBE
        )

    def _cash(self, state: CubeState) -> float:
        return self.absolute(1.0, state)

    def _best_value(
        self, board: Board, state: CubeState, dice: tuple[int, int], plies: int
    ) -> float | None:
        info = self.info(state)
        filters = self._filters(plies) if plies else None
        args = (board, info, self._context(plies, self.cubeful), dice)
        moves = self.g.findbestmoves(*args, *((filters,) if filters else ()))
        if not moves:
            return None
        return self.absolute(float(moves[0]["score"]), state)

    def _average(self, board: Board, state: CubeState, depth: int) -> float:
        """The value, before rolling, of playing each roll as well as gnubg can."""
        plies = max(self.plies - 1, 0)
        total = 0.0
        dance: float | None = None
        for dice, weight in ROLLS:
            value = self._best_value(board, state, dice, plies)
            if value is None:
                if dance is None:
                    dance = self.flip(self._pre_roll(swap(board), state.passed(), depth - 1))
                value = dance
            total += weight * value
        return total / 36

    def _pre_roll(self, board: Board, state: CubeState, depth: int) -> float:
        """The value for the side on roll before it rolls, its own cube action included."""
        if depth <= 0:
            return self.absolute(self.static(board, state, 0), state)
        no_double = self._average(board, state, depth)
        if not self.may_double(state):
            return no_double
        double = min(self._average(board, state.doubled(), depth), self._cash(state))
        return max(no_double, double)

    # --- resignations --------------------------------------------------------------------

    def resignation(self, position: Position, answerer: Side, level: int) -> tuple[float, float]:
        """(accepting, playing on) for ``answerer``: points per cube, or match winning chances.

        Playing on is valued cubeless, from the position before the resigner's
        roll: a resignation is offered on the resigner's own turn (BF-15).
        """
        state = self.state(position)
        info = self.info(state)
        out = self.g.evaluate(board_of(position), info, self._context(self.plies, False))
        if not self.match:
            odds: Odds = tuple(float(x) for x in out[:5])  # type: ignore[assignment]
            if position.turn is not answerer:
                odds = invert(odds)
            return float(self.scoring.value(level)), self.scoring.equity(odds)
        chances = float(self.g.eq2mwc(float(out[5]), info))
        playing_on = chances if position.turn is answerer else 1.0 - chances
        points = self.scoring.value(level) * self.game.cube.value
        return self.chances_after_win(answerer, points), playing_on

    def chances_after_win(self, winner: Side, points: int) -> float:
        """``winner``'s match winning chances once this game gives it ``points`` (gnubg's table)."""
        away = list(self.context.away)
        away[winner] -= points
        loser = winner.other
        if away[winner] <= 0:
            return 1.0
        pre, post, _ = self.g.met(max(self.context.length, 2))
        after_crawford = self.context.crawford or 1 in self.context.away
        if not after_crawford:
            return float(pre[away[winner] - 1][away[loser] - 1])
        if away[winner] == 1:
            return 1.0 - float(post[away[loser] - 1])
        return float(post[away[winner] - 1])
