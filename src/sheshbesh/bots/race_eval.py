"""Hand-built evaluation of race-variant positions, for the expectimax bot.

Every feature is priced in pips and added to the pip count of the side that
pays it (a blot that may be hit, a checker behind a wall, a pinned checker, a
crowded head); the two *effective* pip counts then go through one race
formula, which gives a win chance. So a pinned checker and a 20-pip deficit
weigh the same, and a feature matters more when the race is short, as it does.

Scores are **cubeless equity per unit stake for the side that just moved**
(the side the search tuple belongs to), with the opponent on roll unless the
mover keeps the roll (RB-8): win chance minus loss chance, plus the extra
value of doubles (gammon / mars) and triples where the table pays them. A win
counts 1, a double win ``1 + level_values[0]``, a triple win adds
``level_values[1]`` more. Equity is antisymmetric: the opponent's score of the
same position is its negative.

PK-E1: White pins Black's blot with 6-2 rather than moving on:

>>> from sheshbesh.games.race import Position
>>> p = Position.from_own("plakoto", white={24: 13, 19: 1, 13: 1}, black={24: 14, 20: 1})
>>> evaluator = Evaluator(p.rules, level_values=(1.0, 0.0))
>>> max(p.legal_plays((6, 2)), key=evaluator.play).notation()
'13/5^'
"""

from __future__ import annotations

from sheshbesh.games.race import Position, RaceRules, Side
from sheshbesh.games.race.movegen import to_search
from sheshbesh.games.race.moves import Play

from .eval_board import (
    BEHIND,
    OUTSIDE,
    SLOPE,
    TEMPO,
    Board,
    board_from_key,
    logistic,
    pips,
    race_chance,
    rolls_floor,
    spread,
    wastage,
    weighed,
)
from .eval_hitting import SHARED_TRAPPED, TRAPPED, hitting_cost
from .eval_nardy import blocking_cost, weights_for
from .eval_plakoto import pinning_cost

Assessment = tuple[float, float]
"""(win chance, equity) for the side a search tuple belongs to."""

ROLLING_EXPOSURE = 0.25
"""How much the blots of the side on roll count: it moves before anyone can hit them."""

CACHE_LIMIT = 200_000
"""Entries kept before the cache starts afresh (a 2-ply decision makes tens of thousands)."""


class Evaluator:
    """Scores positions of one variant; keep one per game and reuse it (it caches).

    ``level_values`` is what a double and a triple win add over a single win:
    ``(1, 1)`` in backgammon money play, ``(1, 0)`` in a Mars table or Plakoto,
    ``(0, 0)`` in an Oin table where a mars pays nothing extra (NS-2).
    """

    def __init__(self, rules: RaceRules, level_values: tuple[float, float] = (1.0, 1.0)) -> None:
        self.rules = rules
        self.double_value = level_values[0] if 2 in rules.levels else 0.0
        self.triple_value = level_values[1] if 3 in rules.levels else 0.0
        self.trapped = SHARED_TRAPPED if rules.mapping == "shared" else TRAPPED
        self.blocking = weights_for(rules.name)
        self.cache: dict[tuple[object, ...], Assessment] = {}
        self.evaluations = 0

    # --- entry points ---------------------------------------------------------------

    def play(self, play: Play, keeps_roll: bool = False) -> float:
        """Equity, for the side that made ``play``, of the position it leaves.

        ``keeps_roll``: the mover rolls again (RB-8, after all four moves of a
        double); the caller knows it from the dice, the play does not say.
        """
        before = play.before
        them = before.turn.other
        return self.assess(
            play.key, before.off[them], before.bar[them], before.waiting[them], keeps_roll
        )[1]

    def position(self, position: Position, side: Side) -> float:
        """Equity for ``side`` of ``position``, with ``position.turn`` to roll."""
        return self.chances(position, side)[1]

    def chances(self, position: Position, side: Side) -> Assessment:
        """(win chance, equity) for ``side``, with ``position.turn`` to roll."""
        them = position.turn.other
        chance, equity = self.assess(
            to_search(position), position.off[them], position.bar[them], position.waiting[them],
            True,
        )  # fmt: skip
        if side is position.turn:
            return chance, equity
        return 1.0 - chance, -equity

    def assess(
        self,
        key: tuple[int, ...],
        them_off: int,
        them_bar: int,
        them_waiting: int,
        me_on_roll: bool,
    ) -> Assessment:
        """(win chance, equity) of a search tuple for the side it belongs to ("me")."""
        index = (key, them_off, them_bar, them_waiting, me_on_roll)
        found = self.cache.get(index)
        if found is not None:
            return found
        if len(self.cache) >= CACHE_LIMIT:
            self.cache.clear()
        self.evaluations += 1
        board = board_from_key(key, self.rules.mapping, them_off, them_bar, them_waiting)
        result = self._terminal(board)
        if result is None:
            result = self._estimate(board, me_on_roll)
        self.cache[index] = result
        return result

    # --- the estimate ----------------------------------------------------------------

    def _terminal(self, board: Board) -> Assessment | None:
        """Exact values of finished games (BF-13, LN-13, PK-9), else None."""
        me, them = board.me, board.them
        if me[0] == 15:
            if them[0] == 15:
                return 0.5, 0.0  # LN-13: Black's last roll brought it level
            return 1.0, self._win_value(self._level(them, board.them_pinned))
        if them[0] == 15:
            return 0.0, -self._win_value(self._level(me, board.me_pinned))
        if self.rules.mother_rule and (board.me_pinned[24] or board.them_pinned[24]):
            if board.me_pinned[24] and board.them_pinned[24]:
                return 0.5, 0.0
            if board.them_pinned[24] and not me[24]:
                return 1.0, self._win_value(2)
            if board.me_pinned[24] and not them[24]:
                return 0.0, -self._win_value(2)
        return None

    def _level(self, loser: list[int], pinned: list[int]) -> int:
        if loser[0]:
            return 1
        if self.rules.backgammon_level and (loser[25] or any(loser[19:25]) or any(pinned[19:25])):
            return 3
        return 2

    def _win_value(self, level: int) -> float:
        value = 1.0
        if level >= 2:
            value += self.double_value
        if level >= 3:
            value += self.triple_value
        return value

    def _estimate(self, board: Board, me_on_roll: bool) -> Assessment:
        me, them, cross = board.me, board.them, board.cross
        me_pinned, them_pinned = board.me_pinned, board.them_pinned
        mine = max(pips(me, me_pinned) + wastage(me), rolls_floor(me))
        theirs = max(pips(them, them_pinned) + wastage(them), rolls_floor(them))
        my_exposure = ROLLING_EXPOSURE if me_on_roll else 1.0
        their_exposure = 1.0 if me_on_roll else ROLLING_EXPOSURE
        lone = self.rules.lone_checker
        if lone == "block":
            head = self.rules.head_rule
            weights = self.blocking
            mine += blocking_cost(me, board.me_facing, them, cross, head, weights)
            theirs += blocking_cost(them, board.them_facing, me, cross, head, weights)
        elif lone == "pin":
            mine += pinning_cost(
                me, board.me_facing, me_pinned, them, them_pinned, cross, my_exposure
            )
            theirs += pinning_cost(
                them, board.them_facing, them_pinned, me, me_pinned, cross, their_exposure
            )
        else:
            trapped = self.trapped
            mine += hitting_cost(
                me, board.me_facing, them, board.me_bar, board.them_bar, cross, my_exposure,
                trapped,
            )  # fmt: skip
            theirs += hitting_cost(
                them, board.them_facing, me, board.them_bar, board.me_bar, cross, their_exposure,
                trapped,
            )  # fmt: skip
        mine = max(mine, 1.0)
        theirs = max(theirs, 1.0)
        chance = race_chance(mine, theirs, me_on_roll)
        equity = 2.0 * chance - 1.0
        if self.double_value or self.triple_value:
            my_double, my_triple = self._big_win(them, them_pinned, mine, me_on_roll)
            their_double, their_triple = self._big_win(me, me_pinned, theirs, not me_on_roll)
            loss = 1.0 - chance
            equity += self.double_value * (chance * my_double - loss * their_double)
            equity += self.triple_value * (chance * my_triple - loss * their_triple)
        return chance, equity

    def _big_win(
        self, loser: list[int], pinned: list[int], winner_pips: float, winner_on_roll: bool
    ) -> tuple[float, float]:
        """Chances, given a win, that it is a double (and a triple): the loser's race home.

        The loser saves the double by bearing one checker off (NS-4, BG-8): he
        needs every checker home and one more die, while the winner needs all
        his effective pips.
        """
        if loser[0]:
            return 0.0, 0.0
        tempo = TEMPO if winner_on_roll else -TEMPO
        save = 3.0 + weighed(loser, pinned, OUTSIDE)
        double = logistic(SLOPE * (save - winner_pips + tempo) / spread(save + winner_pips))
        triple = 0.0
        if self.triple_value:
            behind = weighed(loser, pinned, BEHIND)
            if behind:
                margin = behind + 2.0 - winner_pips + tempo
                triple = double * logistic(SLOPE * margin / spread(behind + winner_pips))
        return double, triple


__all__ = ["Assessment", "Evaluator"]
