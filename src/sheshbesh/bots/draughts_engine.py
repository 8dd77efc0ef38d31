"""The draughts top level: dame-rs proposes a move, our rules decide whether it stands.

`dame-rs <https://pypi.org/project/dame-rs/>`_ (MIT, import ``dame``) is a
compiled International draughts engine, far deeper in a second than our
pure-Python search (:mod:`.draughts_search`). It plays by the FMJD rules, as we
do, but the club's referee stays our own ``Position.legal_moves`` (DR-5…DR-12):

- the engine sees the game from the last irreversible move on (a man move or
  a capture), pushed move by move, so it knows which positions could repeat
  (DR-14) and how long the kings have shuffled (DR-15…DR-17);
- its answer, a :class:`Proposal` (start, end, captured squares), is matched
  against our legal moves; our moves are one per outcome (start, end and the
  pieces taken), as the engine's are, so the match is exact, multi-captures
  and promotions included (a promotion is only where the move ends, DR-12);
- a proposal that is not one of our legal moves, or an engine that fails, is
  logged and the move comes from our alpha-beta at its ``expert`` level.

The engine knows neither the table's move limit (DR-21) nor our lone-king
draw (DR-18, which ends the game before any search). Draw offers are answered
as our alpha-beta answers them (:data:`.draughts_search.CLEARLY_WORSE`,
:data:`.draughts_search.DEAD_EQUAL`), from the engine's score.

>>> from sheshbesh.games.draughts import Position
>>> str(legal_move(Position.from_fen("W:W32,45:B27,28,19"), Proposal(32, 14, (19, 28))))
'32x23x14'
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from sheshbesh.games.draughts import Game, Move, Position
from sheshbesh.games.race import Side
from sheshbesh.play.draughts import DraughtsGame

from .base import DraughtsBot
from .draughts_search import (
    CLEARLY_WORSE,
    DEAD_EQUAL,
    DRAW_SECONDS,
    ENDGAME_PIECES,
    AlphaBetaBot,
)

log = logging.getLogger(__name__)

LEVELS: dict[str, float] = {"master": 1.0}
"""Named levels and their seconds a move (a ``budget`` caps them, never raises them)."""
HASH_MB = 32
"""The engine's transposition table; it is kept from move to move."""
FALLBACK_LEVEL = "expert"
"""The alpha-beta level that moves when the engine's proposal is refused."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """The engine's answer: the move as start, end and captured squares, and its score.

    ``score`` is in hundredths of a man for the side to move (a forced win is
    near +30 000); ``None`` when the engine gave none.
    """

    start: int
    end: int
    captured: tuple[int, ...] = ()
    score: int | None = None


def legal_move(position: Position, proposal: Proposal) -> Move | None:
    """Our legal move that ``proposal`` names, or ``None`` when there is none."""
    key = (proposal.start, proposal.end, tuple(sorted(proposal.captured)))
    for move in position.legal_moves():
        if (move.start, move.end, move.captured) == key:
            return move
    return None


def engine_module() -> Any:
    """The ``dame`` module, so the rules and the club load without the compiled wheel."""
    import dame  # a compiled wheel; imported on first use, as gnubg is

    return dame


def engine_board(game: Game) -> Any:
    """A ``dame.Board`` at ``game``'s position, with the moves since the last irreversible one.

    Raises ``ValueError`` when the engine refuses the position or one of the moves.
    """
    dame = engine_module()
    since = len(game.reversible) - 1
    board = dame.Board(game.reversible[0].fen())
    for move in game.moves[len(game.moves) - since :]:
        board.push(engine_move(board, move))
    return board


def engine_move(board: Any, move: Move) -> Any:
    """The engine's move on ``board`` that is our ``move``; ``ValueError`` if it has none."""
    key = (move.start, move.end, list(move.captured))
    for candidate in board.legal_moves:
        if (candidate.from_square, candidate.to_square, sorted(candidate.captured)) == key:
            return candidate
    raise ValueError(f"dame-rs has no move {move} in {board.fen()}")


def proposal_of(result: Any) -> Proposal | None:
    """A ``dame.SearchResult`` as a :class:`Proposal` (``None`` when it has no move)."""
    move = result.best_move
    if move is None:
        return None
    return Proposal(move.from_square, move.to_square, tuple(sorted(move.captured)), result.score)


class DameBot(DraughtsBot):
    """dame-rs at a named level (see :data:`LEVELS`), refereed by our rules.

    ``max_nodes`` caps each search and clears the engine's table first, so a
    capped bot gives the same move for the same game on every machine (tests,
    the review); otherwise the engine thinks for the level's seconds.
    """

    def __init__(
        self, level: str = "master", *, seed: int | None = None, max_nodes: int | None = None
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown dame level {level!r}: one of {', '.join(LEVELS)}")
        super().__init__(seed=seed)
        self.level = level
        self.seconds = LEVELS[level]
        self.max_nodes = max_nodes
        self.name = f"dame:{level}"
        self.engine = engine_module().Engine(hash_mb=HASH_MB)
        self.fallback = AlphaBetaBot(FALLBACK_LEVEL, seed=seed, max_nodes=max_nodes)
        self.refused = 0
        """Proposals refused by our rules so far (each one is logged)."""

    # --- what the engine answers --------------------------------------------------------

    def propose(self, game: Game, seconds: float) -> Proposal | None:
        """Ask the engine for its move in ``game``'s position within ``seconds``."""
        board = engine_board(game)
        if self.max_nodes is not None:
            self.engine.clear()
            result = self.engine.search(board, nodes=self.max_nodes)
        else:
            result = self.engine.search(board, time=max(seconds, 0.01))
        return proposal_of(result)

    # --- the bot ------------------------------------------------------------------------

    def _seconds(self, cap: float, budget: float | None) -> float:
        return cap if budget is None else min(cap, max(budget, 0.0))

    def _ask(self, game: Game, seconds: float) -> Proposal | None:
        """The engine's proposal, or ``None`` (logged) when the engine fails."""
        try:
            return self.propose(game, seconds)
        except Exception as error:  # an engine's failure must never cost the bot its move
            log.warning("%s: dame-rs failed in %s: %r", self.name, game.position.fen(), error)
            return None

    def choose_move(self, game: DraughtsGame, moves: list[str], budget: float | None) -> str:
        started = time.perf_counter()
        seconds = self._seconds(self.seconds, budget)
        proposal = self._ask(game.board, seconds)
        move = None if proposal is None else legal_move(game.position, proposal)
        if move is not None and str(move) in moves:
            return str(move)
        self.refused += 1
        log.warning(
            "%s: proposal %s refused in %s (not a legal move by DR-5…DR-12); alpha-beta moves",
            self.name, proposal, game.position.fen(),
        )  # fmt: skip
        left = max(0.05, seconds - (time.perf_counter() - started))
        return self.fallback.choose_move(game, moves, left)

    def accepts_draw(self, game: DraughtsGame, side: Side, budget: float | None) -> bool:
        proposal = self._ask(game.board, self._seconds(DRAW_SECONDS, budget))
        if proposal is None or proposal.score is None:
            return self.fallback.accepts_draw(game, side, budget)
        score = proposal.score if game.to_act is side else -proposal.score
        if score <= CLEARLY_WORSE:
            return True
        p = game.position
        pieces = (p.white_men | p.white_kings | p.black_men | p.black_kings).bit_count()
        kings_each = bool(p.white_kings) and bool(p.black_kings)
        return abs(score) <= DEAD_EQUAL and (pieces <= ENDGAME_PIECES or kings_each)
