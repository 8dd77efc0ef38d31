"""Post-game review of a draughts game by dame-rs, in the shape of gnubg's reviews.

Each position of the finished game is searched once, with the same node
budget (so a review is the same on every machine), for its best move and its
score. A move's error is the score of the best move minus the score of the
move played, the latter read from the search of the position it led to, seen
from the other side. Scores are hundredths of a man; the review turns them
into an *expected result* for the player to move, from −1 (lost) to +1 (won),

    expected(score) = 2 / (1 + exp(−score / 150)) − 1,

as lichess turns centipawns into winning chances: a man lost near level
matters (about 0.3, a blunder), the same man lost when five up hardly does. A
finished position is worth its result (DR-13…DR-19). That expected result is
the review's "equity", so the review card and its graph read as for
backgammon, with draughts' own labels (:data:`.analysis_report.DRAUGHTS_SCALE`).
Draughts has no dice, so no luck; a forced move (the only legal one) is shown
and not counted.

The best move is always one of *our* legal moves (the engine's proposal
matched as the bot matches it); if the engine proposes none of ours, the
played move stands as the best and the position is not counted.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from sheshbesh.games.draughts import Game
from sheshbesh.play.draughts import DraughtsGame, evolve, from_created, side_of

from .analysis_report import DRAUGHTS_SCALE, Entry, GameAnalysis
from .draughts_engine import engine_board, engine_module, legal_move, proposal_of

Event = dict[str, Any]

NODES = {0: 20_000, 1: 100_000, 2: 500_000}
"""Nodes searched per position at each depth the route offers (0–2, as for gnubg)."""
SCORE_SCALE = 150.0
"""Hundredths of a man at which the expected result is 2/(1+e⁻¹)−1 ≈ 0.46."""
MATE = 20_000
"""Scores beyond this are forced wins or losses."""


class DraughtsAnalysisError(ValueError):
    """A log this review cannot judge: not draughts, not over, or broken."""


def expected(score: int) -> float:
    """The engine's score as an expected result for the side to move, −1 to +1."""
    if abs(score) >= MATE:
        return math.copysign(1.0, score)
    return 2 / (1 + math.exp(-score / SCORE_SCALE)) - 1


def analyse_draughts(created: Event, events: Iterable[Event], *, plies: int = 1) -> GameAnalysis:
    """The review of the finished draughts game that ``created`` and ``events`` describe."""
    if plies not in NODES:
        raise DraughtsAnalysisError(f"plies is 0, 1 or 2, not {plies!r}")
    try:
        game = from_created(created)
        states = [game]
        log = list(events)
        for event in log:
            states.append(evolve(states[-1], event))
    except (KeyError, TypeError, ValueError) as error:
        raise DraughtsAnalysisError(f"not a draughts log that replays: {error!r}") from None
    if not states[-1].finished:
        raise DraughtsAnalysisError("the game is not over: it is analysed once it has ended")
    judge = _Judge(NODES[plies])
    entries = [
        judge.entry(before, event, states[i + 1])
        for i, (before, event) in enumerate(zip(states[:-1], log, strict=True))
        if event["type"] == "played"
    ]
    return GameAnalysis("draughts", plies, 0, tuple(entries))


class _Judge:
    """Searches each position once (positions repeat in a game: kept by their history)."""

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes
        self.engine = engine_module().Engine(hash_mb=16)
        self.seen: dict[tuple[str, int], tuple[float, Any]] = {}

    def value(self, board: Game) -> tuple[float, Any]:
        """(expected result for the side to move, the engine's proposal or ``None``)."""
        key = (board.position.fen(), len(board.reversible))
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self._search(board)
        return found

    def _search(self, board: Game) -> tuple[float, Any]:
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0.0, None
            return (1.0 if outcome.winner is board.turn else -1.0), None
        self.engine.clear()  # the same review on every machine, whatever came before
        result = self.engine.search(engine_board(board), nodes=self.nodes)
        return expected(result.score), proposal_of(result)

    def entry(self, before: DraughtsGame, event: Event, after: DraughtsGame) -> Entry:
        board = before.board
        played = board.position.parse_move(event["move"])
        moves = board.position.legal_moves()
        mover = side_of(board.turn)
        best_value, proposal = self.value(board)
        best = None if proposal is None else legal_move(board.position, proposal)
        forced = len(moves) == 1
        judged = best is not None
        if forced or best is None or best == played:
            value, best = best_value, played
        else:
            value = -self.value(after.board)[0]
        return Entry(
            "play", game=1, side=mover.letter, position=board.position.fen(),
            position_id=board.position.fen(), cube=1, action=str(played), best=str(best),
            equity=value, best_equity=best_value, forced=forced,
            counted=judged and not forced,
            seq=event.get("seq"), scale=DRAUGHTS_SCALE,
        )  # fmt: skip
