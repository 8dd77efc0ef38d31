"""Chouette seats played by bots: whole games with only legal actions, and gnubg's cube
judgement on each bet (CH-5, CH-7) in positions whose answer is not in doubt."""

from __future__ import annotations

import dataclasses
import random

import pytest

from sheshbesh.bots.base import CannotPlay, GameOver, RandomRaceBot
from sheshbesh.bots.chouette import ChouetteSeat
from sheshbesh.bots.expectimax import FALLBACK_VARIANTS, ExpectimaxBot
from sheshbesh.bots.registry import make_bot
from sheshbesh.games.race import Position
from sheshbesh.play import actions as act
from sheshbesh.play import chouette as ch
from sheshbesh.play.race import Phase as BoardPhase


class Dice:
    """Dice from a list, then from a seeded generator."""

    def __init__(self, seed: int, first: list[tuple[int, ...]] | None = None) -> None:
        self.first = list(first or [])
        self.rng = random.Random(seed)

    def roll(self, nonce: str | None, count: int) -> act.Rolled:
        if self.first:
            return act.Rolled(self.first.pop(0))
        return act.Rolled(tuple(self.rng.randint(1, 6) for _ in range(count)))


LINEUP = ch.Lineup(1, (0, 3, 2))  # CH-E1: Ben banks; Ann captains; Dora, Cid bet


def gnubg_seat(level: str = "beginner", seed: int = 1) -> ChouetteSeat:
    try:
        return ChouetteSeat(make_bot(f"gnubg:{level}", seed=seed))  # type: ignore[arg-type]
    except CannotPlay as error:
        pytest.skip(f"gnubg unavailable: {error}")


def play_out(game: ch.ChouetteGame, seats: dict[int, ChouetteSeat], seed: int) -> ch.ChouetteGame:
    """Drive a whole game as a server would: bettors first in the crew's window, then
    whoever the game waits for; every action must be legal."""
    dice = Dice(seed)
    game = game.apply(act.Start(), dice).game
    for _ in range(5000):
        if game.finished:
            return game
        if game.window_open and game.board.position.turn is ch.CREW:
            for bettor in game.crew_in[1:]:
                called = seats[bettor].choose(game, bettor)
                if called is not None:
                    game = game.apply(called, dice).game
        seat = game.waiting_for()[0]
        action = seats[seat].choose(game, seat)
        assert action is not None, f"seat {seat} was waited for and did nothing"
        game = game.apply(action, dice).game
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gnubg_seats_play_a_whole_chouette_with_only_legal_actions(seed):
    seats = {seat: gnubg_seat(seed=seed + seat) for seat in range(4)}
    game, _ = ch.ChouetteGame.create(LINEUP)
    final = play_out(game, seats, seed)
    assert final.finished and final.next_lineup is not None
    assert sum(amount for _, amount in final.payout()) == 0


def test_mixed_engines_share_a_table():
    seats = {
        0: ChouetteSeat(RandomRaceBot(seed=1)),
        1: gnubg_seat(),
        2: ChouetteSeat(ExpectimaxBot("easy", seed=2, variants=FALLBACK_VARIANTS)),
        3: ChouetteSeat(RandomRaceBot(seed=3)),
    }
    game, _ = ch.ChouetteGame.create(LINEUP)
    assert play_out(game, seats, 7).finished


def on_board(text: str, dice: list[tuple[int, int]] | None = None) -> ch.ChouetteGame:
    """CH-E1's lineup after the opening, with the board set at ``text`` before a roll."""
    game, _ = ch.ChouetteGame.create(LINEUP)
    game = game.apply(act.Start(), Dice(0, [(1, 3)])).game
    game = game.apply(ch.Board(0, act.PlayText(ch.CREW, "8/5 6/5")), None).game
    board = dataclasses.replace(
        game.board, position=Position.from_text("backgammon", text), phase=BoardPhase.ROLL
    )
    return dataclasses.replace(game, board=board)


# Bear-offs with no gammon left: the side on roll fails only to 1-2 and 2-1 (34/36), and
# the other side is off next roll. A money game's answer: double, pass.
BANKER_WAY_AHEAD = "W:W3,1:B24"
CREW_WAY_AHEAD = "B:W1:B24,22"


def test_the_banker_doubles_every_cube_when_the_crew_must_drop_and_they_do():
    banker = gnubg_seat("expert")  # no noise: the answer is gnubg's own
    game = on_board(BANKER_WAY_AHEAD)
    double = banker.choose(game, 1)
    assert double == ch.Double(1, (0, 3, 2))
    game = game.apply(double).game
    for member in (0, 3, 2):
        assert gnubg_seat("expert").choose(game, member) == ch.Answer(member, take=False)


def test_the_crew_doubles_and_the_banker_drops_when_the_crew_is_way_ahead():
    # The mirror image: Black (the crew) on roll.
    game = on_board(CREW_WAY_AHEAD)
    seat = gnubg_seat("expert")
    assert seat.choose(game, 3) == ch.Double(3)  # a bettor calls
    game = game.apply(ch.Double(3)).game
    assert seat.choose(game, 0) == ch.Double(0)  # the captain doubles too
    game = game.apply(ch.Double(0)).game
    assert game.pending == (0, 3)
    assert seat.choose(game, 1) == ch.Answer(1, take=False, cube=0)


def test_no_double_in_the_opening_and_a_bettor_lets_the_window_pass():
    game, _ = ch.ChouetteGame.create(LINEUP)
    game = game.apply(act.Start(), Dice(0, [(3, 1)])).game  # the banker opens 3-1
    game = game.apply(ch.Board(1, act.PlayText(ch.BANKER, "8/5 6/5")), None).game
    seat = gnubg_seat("expert")
    assert game.window_open and game.board.position.turn is ch.CREW
    assert seat.choose(game, 3) is None
    assert seat.choose(game, 0) == ch.Board(0, act.Roll(ch.CREW))


def test_refusals_are_typed():
    seat = ChouetteSeat(RandomRaceBot(seed=1))
    game, _ = ch.ChouetteGame.create(LINEUP)
    with pytest.raises(CannotPlay, match="starts the game"):
        seat.choose(game, 1)
    game = on_board(BANKER_WAY_AHEAD)
    with pytest.raises(CannotPlay, match="nothing waits"):
        seat.choose(game, 0)  # the banker's turn: the captain has nothing to do
    game = game.apply(ch.Double(1, (3,))).game
    with pytest.raises(CannotPlay, match="no double"):
        seat.choose(game, 2)
    with pytest.raises(CannotPlay, match="backgammon"):
        ChouetteSeat(RandomRaceBot(frozenset({"plakoto"}), seed=1))
    ended = game.apply(ch.Answer(3, take=True)).game.apply(ch.Timeout(1)).game
    assert ended.finished and ended.reason == "PL-7"
    with pytest.raises(GameOver):
        seat.choose(ended, 1)


def test_random_tables_of_three_to_eight_random_bots_finish():
    rng = random.Random(5)
    for size in range(3, 9):
        seats = {s: ChouetteSeat(RandomRaceBot(seed=s)) for s in range(size)}
        lineup = ch.draw_order(list(range(size)), lambda n: [rng.randint(1, 6) for _ in range(n)])
        game, _ = ch.ChouetteGame.create(lineup)
        assert play_out(game, seats, size).finished
