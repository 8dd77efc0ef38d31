"""Random complete games of every race variant through the state machine.

Random legal actions (cube actions and resignations included) always end the
game with a valid result; folding the recorded log gives exactly the live game;
the payout multipliers always sum to zero.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from dice_sources import SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.games.errors import GameError
from sheshbesh.games.race import RACE_VARIANTS, Side
from sheshbesh.play import actions as act
from sheshbesh.play.errors import PlayError
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Phase, RaceGame, replay

MAX_ACTIONS = 6000


def options_for(variant: str, rng: random.Random) -> RaceOptions:
    chosen = {}
    rules = RACE_VARIANTS[variant]
    if rules.cube:
        chosen = {
            "beavers": rng.random() < 0.5,
            "jacoby": rng.random() < 0.5,
            "auto_doubles": rng.randint(0, 3),
        }
        chosen["cube"] = True
    if variant in ("short_nardy", "caucasian_nardy", "long_nardy"):
        chosen["stake_mode"] = rng.choice(["oin", "mars"])
    if variant == "long_nardy":
        chosen["last_roll"] = rng.random() < 0.5
    chosen["auto_play_forced"] = rng.random() < 0.5
    return RaceOptions.defaults(variant, **chosen)


def pick(actions: list[act.Action], rng: random.Random) -> act.Action:
    """Mostly play on; now and then double, beaver, drop, undo or resign."""
    kinds: dict[type, list[act.Action]] = {}
    for action in actions:
        kinds.setdefault(type(action), []).append(action)

    def chance(kind: type, p: float) -> act.Action | None:
        return rng.choice(kinds[kind]) if kind in kinds and rng.random() < p else None

    choice = (
        chance(act.AcceptResign, 0.3)
        or chance(act.DeclineResign, 1.0)
        or chance(act.Beaver, 0.15)
        or chance(act.Take, 0.75)
        or chance(act.Drop, 1.0)
        or chance(act.Resign, 0.004)
        or chance(act.Double, 0.08)
        or chance(act.Undo, 0.05)
        or chance(act.Confirm, 1.0)
        or chance(act.Roll, 1.0)
        or chance(act.Move, 1.0)
    )
    return choice or rng.choice(actions)


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_end_validly_and_replay_exactly(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    game, created = RaceGame.create(variant, options_for(variant, rng))
    dice = SeededDice(seed)
    log = []
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        actions = game.legal_actions()
        assert actions, (game.phase, game.position.text())
        step = game.apply(pick(actions, rng), dice)
        assert [e["seq"] for e in step.events] == list(
            range(game.seq + 1, game.seq + 1 + len(step.events))
        )
        game = step.game
        log += step.events
    assert game.phase is Phase.FINISHED and game.result is not None
    result = game.result
    assert sum(amount for _, amount in result.payout) == 0
    if result.winner is None:
        assert result.points == 0
    else:
        assert result.level in game.rules.levels or result.reason == "BF-15"
        assert result.points == result.level * result.cube
    assert replay(created, log) == game


def off_menu(game: RaceGame) -> list[act.Action]:
    """Every kind of action, from both sides, that the menu does not list now."""
    legal = set(game.legal_actions())
    made: list[act.Action] = []
    for side in Side:
        made += [
            act.Roll(side), act.Undo(side), act.Confirm(side), act.Double(side),
            act.Take(side), act.Drop(side), act.Beaver(side), act.AcceptResign(side),
            act.DeclineResign(side), act.Move(side, 13, 7), act.Move(side, 25, 30, 9),
            act.PlayText(side, "13/7 8/7"), act.PlayText(side, "bar/99"),
            *(act.Resign(side, level) for level in (0, 1, 2, 3, 9)),
        ]  # fmt: skip
    return [action for action in made if action not in legal]


@pytest.mark.parametrize("variant", sorted(RACE_VARIANTS))
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_actions_off_the_menu_raise_typed_errors_in_every_phase(variant: str, seed: int) -> None:
    """Issue 16: an action the menu does not offer is a typed refusal (``PlayError`` or the
    rules' ``GameError``), never an assertion or a lookup failing inside the game."""
    rng = random.Random(seed)
    game, _ = RaceGame.create(variant, options_for(variant, rng))
    dice = SeededDice(seed)
    phases = set()
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        phases.add(game.phase)
        for action in off_menu(game):
            with contextlib.suppress(PlayError, GameError):
                game.apply(action, dice)
        game = game.apply(pick(game.legal_actions(), rng), dice).game
    assert phases >= {Phase.ROLL, Phase.MOVE}
