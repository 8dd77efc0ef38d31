"""The draughts bot: alpha-beta search at four named levels, in pure Python.

=========  ======================  ===========  =================================
level      depth                   time a move  character
=========  ======================  ===========  =================================
``easy``   2 plies (+ captures)    ≤ 0.2 s      random noise of about ⅓ man a move
``medium`` 4 plies (+ captures)    ≤ 0.5 s      plain search
``hard``   as deep as time allows  0.5 s
``expert`` as deep as time allows  1.5 s        stays within 2 s a move
=========  ======================  ===========  =================================

A ``budget`` given to ``choose`` caps a level's time, never raises it.
Fixed-depth levels (and any level given ``max_nodes``) choose the same move for
the same game and seed on every machine; timed levels go as deep as the
machine allows, so their choice can vary with its speed.

py-draughts ships engines, but they know neither our draw rules (DR-14…DR-18,
DR-21) nor our game state, and its import pulls in a web stack; so the club
searches itself (positions and moves as masks, :mod:`.draughts_moves`):

- negamax alpha-beta with principal-variation windows and iterative
  deepening; the clock (or a node cap) is read inside the search, and an
  unfinished iteration keeps a move it proved better, else the last one's;
- a transposition table keyed by the position (one int) holding depth, bound,
  score and best move, which is also the first move tried;
- killer moves per ply and a history table order the quiet moves; captures
  are forced (DR-9), so their order matters little;
- quiescence: at the horizon a position with a capture pending is searched
  on, captures only, until it is quiet; a forced move (the only legal one)
  does not use up depth;
- the rules' draws as far as the search sees: one king against one king
  (DR-18), a repeated position (DR-14, a draw at its first repetition, as
  engines count it), the 25-move king rule (DR-15), the 16- and 5-move counts
  against a lone king (DR-16, DR-17) and the table's move limit adjudicated
  on material (DR-21); a side without a legal move loses (DR-13).

Draw offers (DR-19) are answered from a short search: the bot accepts when it
stands clearly worse, or when an endgame is dead equal.

>>> from sheshbesh.games.race import Side
>>> from sheshbesh.play.draughts import DraughtsGame, DraughtsOptions
>>> shot = "W:W26,29-31,36,37,43,44:B8,13,17-20,22,23"  # 30-25! 23x34 25x3: four for one
>>> game, _ = DraughtsGame.create(DraughtsOptions(start=shot))
>>> AlphaBetaBot("medium").choose(game, Side.WHITE)
MoveAction(side=<Side.WHITE: 0>, text='30-25')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sheshbesh.games.draughts.game import Game
from sheshbesh.games.race import Side
from sheshbesh.play.draughts import DraughtsGame

from .base import CannotPlay, DraughtsBot
from .draughts_eval import WIN, evaluate
from .draughts_moves import (
    KING_PLIES,
    SearchMove,
    State,
    adjudicated,
    can_step,
    captures,
    endgame_count,
    generate,
    has_move,
    play,
    position_key,
    position_state,
    root_moves,
)

MAX_PLY = 96
"""Deepest ply the search reaches, extensions and quiescence included."""
WON = WIN - MAX_PLY
"""Scores beyond this are forced wins (``WIN - ply``) or losses."""
TABLE_SIZE = 300_000
"""Transposition table entries kept before the table is cleared."""
CHECK_EVERY = 255
"""Nodes between looks at the clock (a mask: one less than a power of two)."""

LATE = 3
"""Moves tried before this one (table move, killers, best by history) are never reduced."""
REDUCE_FROM = 3
"""Late quiet moves are first searched one ply shallower from this depth on."""

EXACT, LOWER, UPPER = 0, 1, 2


class _Stop(Exception):
    """The clock or the node cap ran out inside the search."""


@dataclass(frozen=True, slots=True)
class Found:
    """What a search found: the best move, its score for the side to move, the
    last depth completed and the nodes visited."""

    best: SearchMove
    score: int
    depth: int
    nodes: int
    moves: tuple[SearchMove, ...] = ()
    """Every root move, in the order the generator gave them."""
    scores: tuple[int, ...] = ()
    """With ``exact_root``: each root move's score at the last completed depth."""


class Searcher:
    """One search: iterative deepening from a ``Game`` to ``max_depth`` or the deadline.

    ``seconds`` and ``max_nodes`` bound the work (either may be ``None``); the
    first iteration always finishes unless a bound stops it, and a move is
    always found. ``exact_root`` searches every root move with an open window,
    so ``Found.scores`` holds true scores (for a bot that adds noise).
    """

    def __init__(
        self,
        *,
        max_depth: int = 64,
        seconds: float | None = None,
        max_nodes: int | None = None,
        exact_root: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.max_depth = max(1, min(max_depth, MAX_PLY // 2))
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.exact_root = exact_root
        self.clock = clock
        self.deadline = float("inf")
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int, SearchMove | None]] = {}
        self.killers: list[list[SearchMove | None]] = [[None, None] for _ in range(MAX_PLY + 1)]
        self.history: dict[tuple[int, int], int] = {}
        self.path: list[int] = []
        self.limit = MAX_PLY + 1
        self._partial: tuple[int, int] | None = None

    # --- the driver -------------------------------------------------------------------

    def run(self, game: Game, move_limit: int = 0) -> Found:
        """Search ``game``'s position; ``move_limit`` is the table's DR-21 limit (0: off)."""
        started = self.clock()
        if self.seconds is not None:
            self.deadline = started + self.seconds
        state = position_state(game.position)
        moves = generate(*state)
        if not moves:
            raise ValueError(f"no legal move in {game.position.fen()}")
        self.path = [position_key(*position_state(p)) for p in game.reversible[:-1]]
        if move_limit:
            self.limit = max(0, 2 * move_limit - len(game.moves))
        quiet, group, group_plies = game.king_moves, _group_value(game), game.endgame_plies
        order = list(range(len(moves)))
        best, score, depth, scores = 0, 0, 0, [0] * len(moves)
        for depth_now in range(1, self.max_depth + 1):
            try:
                found = self._root(state, moves, order, depth_now, quiet, group, group_plies)
            except _Stop:
                break
            best, score, depth, scores = found[0], found[1], depth_now, found[2]
            order.sort(key=lambda i: -scores[i])
            order.remove(best)
            order.insert(0, best)
            if len(moves) == 1 or abs(score) > WON:
                break
            if self.seconds is not None and self.clock() - started > 0.6 * self.seconds:
                break  # the next iteration would most likely not finish
        if self._partial is not None:
            best, score = self._partial  # proven better than the last iteration's move
        exact = tuple(scores) if self.exact_root else ()
        return Found(moves[best], score, depth, self.nodes, tuple(moves), exact)

    def _root(
        self,
        state: State,
        moves: list[SearchMove],
        order: list[int],
        depth: int,
        quiet: int,
        group: int,
        group_plies: int,
    ) -> tuple[int, int, list[int]]:
        men, kings, other_men, other_kings, white = state
        self.path.append(position_key(*state))
        alpha, best = -WIN - 1, order[0]
        scores = [-WIN - 1] * len(moves)
        self._partial = None
        try:
            for n, i in enumerate(order):
                move = moves[i]
                child = play(men, kings, other_men, other_kings, white, move)
                progress = bool(move[2]) or bool(men >> move[0] & 1)
                args = (child, depth - 1, 1, quiet, group, group_plies, progress)
                if self.exact_root:
                    score = -self._child(*args, -WIN - 1, WIN + 1)
                elif n == 0:
                    score = -self._child(*args, -WIN - 1, -alpha)
                else:
                    score = -self._child(*args, -alpha - 1, -alpha)
                    if score > alpha:
                        score = -self._child(*args, -WIN - 1, -alpha)
                scores[i] = score
                if score > alpha:
                    alpha, best = score, i
                    if n > 0:
                        self._partial = (best, score)
        finally:
            self.path.pop()
        self._partial = None
        return best, alpha, scores

    def _child(
        self,
        child: State,
        depth: int,
        ply: int,
        quiet: int,
        group: int,
        group_plies: int,
        progress: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """Search a position reached by one move, updating the draw counters."""
        men, kings, other_men, other_kings, white = child
        quiet = 0 if progress else quiet + 1
        if (men | kings | other_men | other_kings).bit_count() <= 4:
            now = endgame_count(men, kings, other_men, other_kings)
            group_plies = group_plies + 1 if now and now == group else 0
            group = now
        else:
            group, group_plies = 0, 0
        return self._search(
            men, kings, other_men, other_kings, white, depth, ply, quiet, group, group_plies,
            alpha, beta,
        )  # fmt: skip

    # --- the tree ---------------------------------------------------------------------

    def _search(
        self,
        men: int,
        kings: int,
        other_men: int,
        other_kings: int,
        white: bool,
        depth: int,
        ply: int,
        quiet: int,
        group: int,
        group_plies: int,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self._check_bounds()
        key = position_key(men, kings, other_men, other_kings, white)
        # draws by rule (DR-14…DR-18); a side without a move loses first (DR-13)
        if not men and not other_men and kings.bit_count() == 1 == other_kings.bit_count():
            return 0
        if quiet >= 4 and key in self.path[-quiet:]:
            return 0
        if (group and group_plies >= group) or quiet >= KING_PLIES:
            if has_move(men, kings, other_men, other_kings, white):
                return 0
            return ply - WIN
        if ply >= self.limit:
            if has_move(men, kings, other_men, other_kings, white):
                return adjudicated(men, kings, other_men, other_kings) * (WIN - ply)
            return ply - WIN

        entry = self.table.get(key)
        hint: SearchMove | None = None
        if entry is not None:
            e_depth, bound, e_score, hint = entry
            if e_depth >= depth:
                if e_score > WON:
                    e_score -= ply
                elif e_score < -WON:
                    e_score += ply
                if bound == EXACT:
                    return e_score
                if bound == LOWER and e_score >= beta:
                    return e_score
                if bound == UPPER and e_score <= alpha:
                    return e_score

        if depth <= 0:  # quiescence: only a pending capture is searched on
            moves = captures(men, kings, other_men, other_kings)
            if not moves:
                if can_step(men, kings, other_men, other_kings, white):
                    return evaluate(men, kings, other_men, other_kings, white)
                return ply - WIN
            capture = True
        else:
            moves = generate(men, kings, other_men, other_kings, white)
            if not moves:
                return ply - WIN
            capture = bool(moves[0][2])
        if ply >= MAX_PLY:
            return evaluate(men, kings, other_men, other_kings, white)
        next_depth = depth if len(moves) == 1 and depth > 0 else depth - 1
        if len(moves) > 1:
            self._order(moves, hint, ply, capture)

        original_alpha = alpha
        reduce = not capture and depth >= REDUCE_FROM
        best_score, best_move = -WIN - 1, moves[0]
        self.path.append(key)
        try:
            for n, move in enumerate(moves):
                at, _, taken = move
                progress = bool(taken) or bool(men >> at & 1)
                child = play(men, kings, other_men, other_kings, white, move)
                args = (child, next_depth, ply + 1, quiet, group, group_plies, progress)
                if n == 0:
                    score = -self._child(*args, -beta, -alpha)
                else:
                    if n >= LATE and reduce:  # a late quiet move: look less deep first
                        late = (child, next_depth - 1, ply + 1, quiet, group, group_plies, progress)
                        score = -self._child(*late, -alpha - 1, -alpha)
                    else:
                        score = alpha + 1
                    if score > alpha:
                        score = -self._child(*args, -alpha - 1, -alpha)
                    if alpha < score < beta:
                        score = -self._child(*args, -beta, -alpha)
                if score > best_score:
                    best_score, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not taken:
                                self._remember(move, ply, depth)
                            break
        finally:
            self.path.pop()

        if len(self.table) >= TABLE_SIZE:
            self.table.clear()
        bound = UPPER if best_score <= original_alpha else LOWER if best_score >= beta else EXACT
        stored = best_score
        if stored > WON:
            stored += ply
        elif stored < -WON:
            stored -= ply
        self.table[key] = (depth, bound, stored, best_move)
        return best_score

    def _check_bounds(self) -> None:
        if self.clock() > self.deadline:
            raise _Stop
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Stop

    # --- move ordering ----------------------------------------------------------------

    def _order(
        self, moves: list[SearchMove], hint: SearchMove | None, ply: int, capture: bool
    ) -> None:
        """Table move first, then killers, then by history (quiet moves only)."""
        if not capture:
            history = self.history
            moves.sort(key=lambda m: history.get((m[0], m[1]), 0), reverse=True)
            for killer in self.killers[ply]:
                if killer is not None and killer in moves:
                    moves.remove(killer)
                    moves.insert(0, killer)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)

    def _remember(self, move: SearchMove, ply: int, depth: int) -> None:
        """A quiet move that caused a cutoff: a killer at this ply, and history credit."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        step = move[0], move[1]
        self.history[step] = self.history.get(step, 0) + depth * depth


def _group_value(game: Game) -> int:
    return 0 if game.endgame is None else game.endgame.value


# --- the bot ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """How one named level searches."""

    depth: int
    """Deepest iteration (plies before quiescence)."""
    seconds: float
    """Time a move, unless the ``budget`` is smaller."""
    noise: int = 0
    """Largest random change to each root move's score, in hundredths of a man."""


LEVELS: dict[str, Level] = {
    "easy": Level(depth=2, seconds=0.2, noise=35),
    "medium": Level(depth=4, seconds=0.5),
    "hard": Level(depth=40, seconds=0.5),
    "expert": Level(depth=40, seconds=1.5),
}
"""The named levels, weakest first."""

DRAW_SECONDS = 0.3
"""Most time spent deciding on a draw offer."""
CLEARLY_WORSE = -150
"""Accept a draw when the search says the bot stands at least this badly."""
DEAD_EQUAL = 15
"""…or when an endgame (few pieces, or kings on both sides) is this close to level."""
ENDGAME_PIECES = 12


class AlphaBetaBot(DraughtsBot):
    """Alpha-beta search at a named level (see :data:`LEVELS`).

    ``max_nodes`` caps the nodes of each search, which makes timed levels
    reproducible (tests, benches on shared machines).
    """

    def __init__(
        self, level: str = "hard", *, seed: int | None = None, max_nodes: int | None = None
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown draughts level {level!r}: one of {', '.join(LEVELS)}")
        super().__init__(seed=seed)
        self.level = level
        self.settings = LEVELS[level]
        self.max_nodes = max_nodes
        self.name = f"alphabeta:{level}"
        self.last_depth = 0
        """Depth the last completed iteration reached (for benches and logs)."""

    def _searcher(self, seconds: float, budget: float | None, *, exact: bool = False) -> Searcher:
        if budget is not None:
            seconds = min(seconds, max(budget, 0.0))
        return Searcher(
            max_depth=self.settings.depth,
            seconds=seconds,
            max_nodes=self.max_nodes,
            exact_root=exact,
        )

    def choose_move(self, game: DraughtsGame, moves: list[str], budget: float | None) -> str:
        noise = self.settings.noise
        searcher = self._searcher(self.settings.seconds, budget, exact=bool(noise))
        found = searcher.run(game.board, game.options.move_limit)
        self.last_depth = found.depth
        best = found.best
        if noise and found.scores:
            noisy = [s + self.rng.randint(-noise, noise) for s in found.scores]
            best = found.moves[max(range(len(noisy)), key=noisy.__getitem__)]
        text = str(root_moves(game.position)[best])
        if text not in moves:
            raise CannotPlay(f"{self.name}: the search chose {text}, not a legal move")
        return text

    def accepts_draw(self, game: DraughtsGame, side: Side, budget: float | None) -> bool:
        searcher = self._searcher(DRAW_SECONDS, budget)
        searcher.max_depth = min(searcher.max_depth, 6)
        found = searcher.run(game.board, game.options.move_limit)
        score = found.score if game.to_act is side else -found.score
        if score <= CLEARLY_WORSE:
            return True
        p = game.position
        pieces = (p.white_men | p.white_kings | p.black_men | p.black_kings).bit_count()
        kings_each = bool(p.white_kings) and bool(p.black_kings)
        return abs(score) <= DEAD_EQUAL and (pieces <= ENDGAME_PIECES or kings_each)
