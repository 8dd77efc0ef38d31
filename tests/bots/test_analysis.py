"""Post-game analysis: a hand-made game with a deliberate blunder and a bad double, judged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sheshbesh.bots.analysis import AnalysisError, analyse_events
from sheshbesh.bots.analysis_report import luck_label, rating, skill
from sheshbesh.bots.arena import RandomDice
from sheshbesh.bots.gnubg_bot import GnubgBot
from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play.actions import Rolled
from sheshbesh.play.draughts import DraughtsGame, DraughtsOptions
from sheshbesh.play.match import Match
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import RaceGame

W, B = Side.WHITE, Side.BLACK
Event = dict[str, Any]


class ListDice:
    """The rolls given, in order."""

    def __init__(self, *rolls: tuple[int, int]) -> None:
        self.rolls = list(rolls)

    def roll(self, nonce: str | None, count: int) -> Rolled:
        return Rolled(self.rolls.pop(0))


def record(variant: str, actions: list[act.Action], dice: ListDice) -> tuple[Event, list[Event]]:
    game, created = RaceGame.create(variant, RaceOptions.defaults(variant))
    events: list[Event] = []
    for action in [act.Start(), *actions]:
        step = game.apply(action, dice)
        events += step.events
        game = step.game
    return created, events


BLUNDER_GAME = [
    act.PlayText(W, "8/7 8/5"),  # 3-1 from the start: 8/5 6/5 is the play
    act.Roll(B),
    act.PlayText(B, "13/8 13/11"),
    act.Double(W),  # far too early
    act.Take(B),
    act.Roll(W),
    act.PlayText(W, "24/14"),
    act.Resign(B, 1),
    act.AcceptResign(W),
]


@pytest.fixture(scope="module")
def blunder_game() -> tuple[Event, list[Event]]:
    return record("backgammon", BLUNDER_GAME, ListDice((3, 1), (5, 2), (6, 4)))


def test_the_deliberate_blunder_is_flagged_with_gnubgs_play(
    blunder_game: tuple[Event, list[Event]],
) -> None:
    analysis = analyse_events(*blunder_game)
    first = analysis.entries[0]
    assert (first.kind, first.side, first.dice) == ("play", "W", (3, 1))
    assert (first.action, first.best) == ("8/7 8/5", "8/5 6/5")
    assert first.equity_lost > 0.16
    assert first.skill == "very bad"
    assert first.luck is not None


def test_the_early_double_is_a_cube_error_and_the_take_is_right(
    blunder_game: tuple[Event, list[Event]],
) -> None:
    analysis = analyse_events(*blunder_game)
    double = next(e for e in analysis.entries if e.kind == "cube" and e.action == "double")
    assert (double.side, double.best) == ("W", "no double")
    assert double.equity_lost > 0.04
    assert double.cube_equities is not None
    take = next(e for e in analysis.entries if e.kind == "response")
    assert (take.side, take.action, take.best, take.equity_lost) == ("B", "take", "take", 0.0)


def test_player_totals_add_up(blunder_game: tuple[Event, list[Event]]) -> None:
    analysis = analyse_events(*blunder_game, plies=0)
    for summary in analysis.players:
        own = [e for e in analysis.entries if e.side == summary.side]
        counted = [e for e in own if e.counted]
        assert summary.decisions == len(counted)
        assert summary.error == pytest.approx(sum(e.equity_lost for e in counted))
        assert summary.luck == pytest.approx(sum(e.luck for e in own if e.luck is not None))
        assert summary.blunders == sum(e.skill == "very bad" for e in counted)
    white = analysis.player("W")
    assert white.blunders >= 1 and white.plays == 2 and white.cube_decisions == 1
    assert white.error_rate > analysis.player("B").error_rate
    assert white.rating == "awful"
    data = json.loads(json.dumps(analysis.to_json()))
    assert data["players"]["W"]["blunders"] == white.blunders
    assert data["entries"][0]["best"] == "8/5 6/5"


def test_gnubgs_thresholds() -> None:
    assert [skill(x) for x in (0.01, 0.05, 0.1, 0.2)] == ["none", "doubtful", "bad", "very bad"]
    assert [luck_label(x) for x in (-0.7, -0.4, 0.0, 0.4, 0.7)] == [
        "very unlucky", "unlucky", "none", "lucky", "very lucky",
    ]  # fmt: skip
    assert [rating(x) for x in (0.001, 0.01, 0.05)] == ["supernatural", "advanced", "awful"]


def test_a_match_between_bots_is_analysed_game_by_game() -> None:
    dice = RandomDice(4)
    match, created = Match.create("backgammon", 3)
    events: list[Event] = []
    bots = (GnubgBot("intermediate", seed=1), GnubgBot("beginner", seed=2))
    while not match.finished:
        side = match.to_act
        action = act.Start() if side is None else bots[side].choose(match, side)
        step = match.apply(action, dice)
        events += step.events
        match = step.match
    analysis = analyse_events(created, events, plies=0)
    assert analysis.match_length == 3
    assert {e.game for e in analysis.entries} == set(range(1, match.number + 1))
    assert sum(s.rolls for s in analysis.players) == sum(
        e.luck is not None for e in analysis.entries
    )
    json.dumps(analysis.to_json())


@pytest.mark.parametrize("stake_mode", ["oin", "mars"])
def test_short_nardy_blunders_are_flagged_too(stake_mode: str) -> None:
    """SN-4: no cube, the table's own scoring; breaking the 6-point with 4-3 is still bad."""
    game, created = RaceGame.create(
        "short_nardy", RaceOptions.defaults("short_nardy", stake_mode=stake_mode)
    )
    dice = ListDice((4, 3))
    events: list[Event] = []
    for action in (act.Start(), act.PlayText(W, "6/2 6/3"), act.Resign(B, 1), act.AcceptResign(W)):
        step = game.apply(action, dice)
        events += step.events
        game = step.game
    (entry,) = analyse_events(created, events).entries
    assert entry.kind == "play" and entry.cube == 1
    assert entry.equity_lost > 0.08
    assert entry.best in ("24/21 13/9", "24/21 24/20", "24/20 13/10", "13/10 13/9")


def test_games_it_cannot_analyse_raise_analysis_error(
    blunder_game: tuple[Event, list[Event]],
) -> None:
    created, events = blunder_game
    with pytest.raises(AnalysisError, match="not over"):
        analyse_events(created, events[:-3])
    with pytest.raises(AnalysisError, match="plies"):
        analyse_events(created, events, plies=3)
    _, plakoto_created = RaceGame.create("plakoto")
    with pytest.raises(AnalysisError, match="plakoto"):
        analyse_events(plakoto_created, [])
    _, draughts_created = DraughtsGame.create(DraughtsOptions())
    with pytest.raises(AnalysisError):
        analyse_events(draughts_created, [])


def test_each_entry_names_the_event_it_judges_and_the_cube_it_saw(
    blunder_game: tuple[Event, list[Event]],
) -> None:
    """The review links a decision to the replay by ``seq``, and draws the cube where it was."""
    created, events = blunder_game
    numbered = [{**event, "seq": seq} for seq, event in enumerate(events, start=1)]
    analysis = analyse_events(created, numbered, plies=0)
    by_seq = {event["seq"]: event for event in numbered}
    judged = {"play": ("played", "passed"), "cube": ("rolled", "doubled"),
              "response": ("taken", "dropped", "beavered")}  # fmt: skip
    for entry in analysis.entries:
        assert entry.seq is not None
        assert by_seq[entry.seq]["type"] in judged[entry.kind]
    double = next(e for e in analysis.entries if e.kind == "cube" and e.action == "double")
    assert (double.cube, double.cube_owner) == (1, None)
    after_take = [e for e in analysis.entries if e.seq is not None and e.seq > double.seq]
    last_play = [e for e in after_take if e.kind == "play"][-1]
    assert (last_play.cube, last_play.cube_owner) == (2, "B")
    assert analysis.to_json()["entries"][0]["seq"] == analysis.entries[0].seq
