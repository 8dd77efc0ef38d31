"""RULES.md §6, Caucasian nardy (CN-1 … CN-3, CN-E1 … CN-E3).

Short nardy with one more rule: no hit-and-cover in one's home (CN-2). Each
example is also played in short nardy, where the covering plays are legal.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheshbesh.games.errors import IllegalPlay
from sheshbesh.games.race import RACE_VARIANTS, Position, Side

Dice = tuple[int, int]
Notations = Callable[[Position, Dice], set[str]]

RULES = RACE_VARIANTS["caucasian_nardy"]
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def both(white: dict[int | str, int], black: dict[int | str, int]) -> tuple[Position, Position]:
    """The same position in Caucasian and in short nardy."""
    return (
        Position.from_own("caucasian_nardy", white=white, black=black),
        Position.from_own("short_nardy", white=white, black=black),
    )


def test_cn_1_as_short_nardy() -> None:
    short = RACE_VARIANTS["short_nardy"]
    assert Position.start("caucasian_nardy").text() == Position.start("short_nardy").text()
    assert (RULES.mapping, RULES.opening, RULES.cube) == (short.mapping, short.opening, False)
    assert RULES.levels == RULES.resign_levels == (1, 2)
    # NS-4: a backgammon in BG is a mars here.
    mars = Position.from_own("caucasian_nardy", white={}, black={"bar": 1, 19: 1, 6: 13})
    outcome = mars.outcome()
    assert outcome is not None and (outcome.winner, outcome.level) == (Side.WHITE, 2)


@pytest.mark.parametrize(
    "text",
    [
        "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5",
        "B:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5",
        "W:Wbar,4,6x4,8x3,13x4,24x2:B1x2,5,12x4,17x3,19x5",
    ],
)
def test_cn_1_plays_as_short_nardy_without_a_home_hit(text: str, notations: Notations) -> None:
    caucasian = Position.from_text("caucasian_nardy", text)
    short = Position.from_text("short_nardy", text)
    for dice in ROLLS:
        if not any(step.hit and step.dst <= 6 for p in short.legal_plays(dice) for step in p.steps):
            assert notations(caucasian, dice) == notations(short, dice)


HOME = both({10: 1, 7: 1, 13: 13}, {21: 1, 1: 14})
"""A Black blot on White's 4, White's 1 open."""


def test_cn_2_the_hitter_may_move_on() -> None:
    caucasian, _ = HOME
    assert caucasian.play((3, 3), "7/4*/1 13/10(2)")


def test_cn_2_no_other_checker_lands_on_the_hit_point() -> None:
    caucasian, short = HOME
    assert short.play((3, 3), "10/4 7/4* 13/10")
    with pytest.raises(IllegalPlay):
        caucasian.play((3, 3), "10/4 7/4* 13/10")


def test_cn_2_not_even_on_the_way() -> None:
    caucasian, short = HOME
    assert short.play((3, 3), "7/4* 10/1")
    with pytest.raises(IllegalPlay):
        caucasian.play((3, 3), "7/4* 10/1")


def test_cn_2_bearing_off_is_unaffected() -> None:
    # White's last two checkers, a Black blot on White's 2: hit, then bear off.
    caucasian, _ = both({5: 1, 3: 1}, {23: 1, 1: 14})
    play = caucasian.play((3, 3), "5/2*/off 3/off")
    outcome = play.after.outcome()
    assert outcome is not None and outcome.winner is Side.WHITE
    with pytest.raises(IllegalPlay):
        caucasian.play((3, 1), "5/2* 3/2")
    assert caucasian.play((3, 1), "5/2*/1")


def test_cn_3_maximisation_respects_the_rule(notations: Notations) -> None:
    # Both dice can be used only by covering the hit on White's 4, so in CN only
    # one die is played, and it is the larger (BF-9.3).
    black = {21: 1, 24: 2, 4: 2, 5: 2, 22: 2, 20: 2, 6: 4}
    caucasian, short = both({8: 1, 7: 1, 24: 13}, black)
    assert notations(short, (4, 3)) == {"8/4* 7/4"}
    assert notations(caucasian, (4, 3)) == {"8/4*"}


EXAMPLE = both({10: 1, 7: 2, 6: 5, 13: 5, 24: 2}, {21: 1, 24: 2, 13: 4, 8: 3, 6: 5})


@pytest.mark.parametrize("text", ["10/4* 6/3", "10/4* 24/21", "13/7 7/4*", "24/18 7/4*"])
def test_cn_e1_legal(text: str) -> None:
    caucasian, short = EXAMPLE
    assert caucasian.play((6, 3), text)
    assert short.play((6, 3), text)


@pytest.mark.parametrize("text", ["10/4* 7/4", "7/4* 10/4"])
def test_cn_e1_no_cover_of_the_hit_point(text: str) -> None:
    caucasian, short = EXAMPLE
    assert short.play((6, 3), text)
    with pytest.raises(IllegalPlay):
        caucasian.play((6, 3), text)


def test_cn_e1_the_hitter_cannot_go_on_to_1() -> None:
    caucasian, _ = EXAMPLE
    with pytest.raises(IllegalPlay):
        caucasian.play((6, 3), "10/4*/1")


@pytest.mark.parametrize("text", ["7/4*(2) 13/10(2)", "10/7 7/4*(2) 6/3"])
def test_cn_e2_illegal(text: str) -> None:
    caucasian, short = EXAMPLE
    assert short.play((3, 3), text)
    with pytest.raises(IllegalPlay):
        caucasian.play((3, 3), text)


@pytest.mark.parametrize("text", ["7/4* 13/10(2) 6/3", "10/7 7/4* 13/10 6/3"])
def test_cn_e2_legal(text: str) -> None:
    caucasian, _ = EXAMPLE
    assert caucasian.play((3, 3), text)


def test_cn_e3_hit_and_cover_outside_home() -> None:
    caucasian, _ = both({13: 5, 12: 1, 8: 3, 6: 4, 24: 2}, {16: 1, 24: 2, 8: 7, 6: 5})
    play = caucasian.play((4, 3), "13/9* 12/9")
    assert play.after.own(play.before.turn, 9) == 2
