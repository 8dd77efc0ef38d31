"""The review of a draughts game by dame-rs: a hand-made blunder, and totals that add up."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sheshbesh.bots.analysis_report import DRAUGHTS_SCALE, GameAnalysis, skill
from sheshbesh.bots.draughts_review import DraughtsAnalysisError, analyse_draughts, expected
from sheshbesh.bots.registry import analyse_log
from sheshbesh.games.draughts import Position
from sheshbesh.games.race import Side
from sheshbesh.play.actions import Resign
from sheshbesh.play.draughts import DraughtsAction, DraughtsGame, DraughtsOptions, MoveAction

from .test_draughts_bot import random_play

Event = dict[str, Any]
W, B = Side.WHITE, Side.BLACK
SHOT = "W:W27,28,32,33,37,38,41,42,43:B8,12,13,16,17,18,19,22,24"
"""White to move; 28-23 gives the game away (about ten men by the engine), 37-31 holds."""


def record(start: str | None, actions: list[DraughtsAction]) -> tuple[Event, list[Event]]:
    game, created = DraughtsGame.create(DraughtsOptions(start=start))
    events: list[Event] = []
    for action in actions:
        step = game.apply(action)
        events += step.events
        game = step.game
    return created, events


def first_moves(start: str, opening: list[str], plies: int) -> list[DraughtsAction]:
    """``opening``, then each side's first legal move for ``plies`` moves, then a resignation."""
    game, _ = DraughtsGame.create(DraughtsOptions(start=start))
    actions: list[DraughtsAction] = []
    for n in range(len(opening) + plies):
        side = game.to_act
        assert side is not None
        text = opening[n] if n < len(opening) else str(game.board.legal_moves()[0])
        actions.append(MoveAction(side, text))
        game = game.apply(actions[-1]).game
    side = game.to_act
    assert side is not None
    return [*actions, Resign(side, 1)]


@pytest.fixture(scope="module")
def blunder() -> tuple[Event, list[Event], GameAnalysis]:
    created, events = record(SHOT, first_moves(SHOT, ["28-23"], 5))
    return created, events, analyse_draughts(created, events, plies=1)


def test_the_deliberate_blunder_is_flagged_with_the_engines_best_move(blunder) -> None:
    _, events, analysis = blunder
    first = analysis.entries[0]
    assert (first.side, first.action, first.position) == (
        "W",
        "28-23",
        Position.from_fen(SHOT).fen(),
    )
    assert first.skill == "very bad" and first.counted and first.equity_lost >= 0.30
    assert first.best != "28-23"
    assert first.best in {str(m) for m in Position.from_fen(SHOT).legal_moves()}
    assert first.seq == events[0]["seq"] and first.luck is None and first.dice is None


def assert_totals_add_up(analysis: GameAnalysis, events: list[Event]) -> None:
    played = [e for e in events if e["type"] == "played"]
    assert [e.action for e in analysis.entries] == [e["move"] for e in played]
    for entry in analysis.entries:
        assert entry.equity_lost >= 0 and -1 <= entry.equity <= 1 and -1 <= entry.best_equity <= 1
        if entry.action == entry.best:
            assert entry.equity_lost == 0
        if entry.forced:
            assert not entry.counted
    data = json.loads(json.dumps(analysis.to_json()))
    for side in ("W", "B"):
        own = [e for e in analysis.entries if e.side == side and e.counted]
        total = data["players"][side]
        assert total["decisions"] == total["plays"] == len(own)
        assert total["cube_decisions"] == 0 and total["rolls"] == 0 and total["luck"] == 0
        assert total["error"] == pytest.approx(sum(e.equity_lost for e in own), abs=1e-3)
        assert total["blunders"] == sum(e.skill == "very bad" for e in own)
        assert total["bad"] == sum(e.skill == "bad" for e in own)
        assert total["doubtful"] == sum(e.skill == "doubtful" for e in own)
        if own:
            assert total["error_rate"] == pytest.approx(1000 * total["error"] / len(own), abs=0.1)
    assert sum(data["players"][s]["decisions"] for s in "WB") == sum(
        1 for e in analysis.entries if e.counted
    )


def test_the_review_totals_add_up_for_the_blunder_game(blunder) -> None:
    _, events, analysis = blunder
    assert_totals_add_up(analysis, events)
    assert analysis.player("W").blunders >= 1


def test_the_review_totals_add_up_over_a_long_game() -> None:
    game = random_play(11, 70)
    assert not game.finished
    actions: list[DraughtsAction] = []
    replay, _ = DraughtsGame.create()
    for move in game.board.moves:
        side = replay.to_act
        assert side is not None
        actions.append(MoveAction(side, str(move)))
        replay = replay.apply(actions[-1]).game
    created, events = record(None, [*actions, Resign(replay.to_act or W, 1)])
    analysis = analyse_draughts(created, events, plies=0)
    assert len(analysis.entries) == 70
    assert_totals_add_up(analysis, events)


def test_the_same_game_gives_the_same_review(blunder) -> None:
    created, events, analysis = blunder
    assert analyse_log([created, *events], 1) == analysis.to_json()


def test_an_unfinished_game_or_a_bad_depth_is_refused() -> None:
    created, events = record(SHOT, first_moves(SHOT, ["28-23"], 1)[:-1])
    with pytest.raises(DraughtsAnalysisError, match="not over"):
        analyse_draughts(created, events)
    with pytest.raises(DraughtsAnalysisError, match="plies"):
        analyse_draughts(created, events, plies=3)


def test_expected_result_and_the_draughts_labels() -> None:
    assert expected(0) == 0 and expected(30_000) == 1 and expected(-29_990) == -1
    assert expected(100) == pytest.approx(-expected(-100))
    losses = {men: expected(0) - expected(-100 * men) for men in (0.25, 0.5, 1)}
    assert skill(losses[0.25] + 1e-9, DRAUGHTS_SCALE.skill) == "doubtful"
    assert skill(losses[0.5] + 1e-9, DRAUGHTS_SCALE.skill) == "bad"
    assert skill(losses[1], DRAUGHTS_SCALE.skill) == "very bad"
    assert skill(expected(500) - expected(400), DRAUGHTS_SCALE.skill) == "none"  # five up: one less
