"""PubevalBot: a sensible, fast, deterministic linear baseline that beats a random mover."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.bots.arena import play_bout
from sheshbesh.bots.base import CannotPlay, RandomRaceBot
from sheshbesh.bots.pubeval import PubevalBot, evaluate, features
from sheshbesh.games.race import Position, Side
from sheshbesh.play import actions as act
from sheshbesh.play.race import RaceGame

W = Side.WHITE
START = Position.start("backgammon")


def best(position: Position, dice: tuple[int, int]) -> str:
    return max(position.legal_plays(dice), key=evaluate).notation()


@pytest.mark.parametrize(
    ("dice", "expected"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((6, 5), "24/13")],
)
def test_bg_opening_points_and_runs(dice: tuple[int, int], expected: str) -> None:
    """The plays any book gives: make the 5, 4 and bar points, run with 6-5."""
    assert best(START, dice) == expected


def test_hitting_beats_not_hitting_when_safe() -> None:
    """A Black blot on White's 5-point: pointing on it with 3-1 is the play."""
    position = Position.from_own(
        "backgammon",
        white={24: 2, 13: 5, 8: 3, 6: 5},
        black={24: 2, 13: 5, 8: 3, 6: 4, 20: 1},
    )
    assert best(position, (3, 1)) == "8/5* 6/5"


def test_the_race_weights_bear_off_rather_than_shuffle() -> None:
    position = Position.from_own("backgammon", white={6: 2, 5: 2, 1: 2}, black={6: 15})
    contact, _ = features(position.legal_plays((6, 5))[0])
    assert not contact
    assert best(position, (6, 5)) == "6/off 5/off"


def test_beats_a_random_mover_clearly() -> None:
    """Over 60 seeded games with the seats alternating, at least 54 wins (it wins ~99 %)."""
    wins = 0
    for seed in range(60):
        bots = (PubevalBot(), RandomRaceBot(seed=seed))
        if seed % 2:
            wins += play_bout((bots[1], bots[0]), "backgammon", seed=seed).winner == 1
        else:
            wins += play_bout(bots, "backgammon", seed=seed).winner == 0
    assert wins >= 54


def test_is_fast() -> None:
    plays = START.legal_plays((2, 2))
    started = time.perf_counter()
    for _ in range(20):
        max(plays, key=evaluate)
    assert (time.perf_counter() - started) / 20 < 0.05


def test_refuses_what_it_does_not_play() -> None:
    plakoto, _ = RaceGame.create("plakoto")
    with pytest.raises(CannotPlay):
        PubevalBot().choose(plakoto, W)


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 80))
def test_bf9_always_a_legal_play_and_the_same_one(seed: int, turns: int) -> None:
    """Property: from a random position, a legal play, and the same play every time."""
    rng = random.Random(seed)
    position = Position.start("backgammon", turn=rng.choice(list(Side)))
    for _ in range(turns):
        if position.outcome() is not None:
            return
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(plays).after if plays else position.pass_turn()
    if position.outcome() is not None:
        return
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    plays = position.legal_plays(dice)
    if len(plays) < 2:
        return
    chosen = max(plays, key=evaluate)
    assert chosen in plays
    assert max(plays, key=evaluate) == chosen
    game = _moving(position, dice)
    action = PubevalBot().choose(game, position.turn)
    assert action == act.PlayText(position.turn, chosen.notation())
    game.apply(action)


def _moving(position: Position, dice: tuple[int, int]) -> RaceGame:
    from sheshbesh.games.race.turn import Turn
    from sheshbesh.play.options import RaceOptions
    from sheshbesh.play.race import Phase

    return RaceGame(
        position.rules, RaceOptions.defaults("backgammon"), position, phase=Phase.MOVE,
        turn=Turn.begin(position, dice),
    )  # fmt: skip
