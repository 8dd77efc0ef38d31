"""Factories for chouette tests: a game with its log, CH-E1's lineup, board shortcuts.

Seats in the examples: Ann 0, Ben 1, Cid 2, Dora 3. Money is counted in stakes S.
"""

from __future__ import annotations

import dataclasses

import pytest
from dice_sources import ListDice

from sheshbesh.games.race import Position, Side
from sheshbesh.play import actions as act
from sheshbesh.play.chouette import Board, ChouetteGame, Lineup, replay
from sheshbesh.play.cube import Cube
from sheshbesh.play.race import Phase as BoardPhase

ANN, BEN, CID, DORA = 0, 1, 2, 3
CH_E1 = Lineup(BEN, (ANN, DORA, CID))


class Table:
    """A game with its log: every step is applied, and the log must replay to it."""

    def __init__(self, lineup: Lineup = CH_E1, dice: list[tuple[int, ...]] | None = None):
        self.game, self.created = ChouetteGame.create(lineup)
        self.events: list[dict] = []
        self.dice = ListDice(dice or [])

    def do(self, action: object) -> list[dict]:
        """Apply ``action``; unless the game was set up by hand, its log must replay to it."""
        step = self.game.apply(action, self.dice)  # type: ignore[arg-type]
        self.game = step.game
        self.events += step.events
        if self.created is not None:
            assert replay(self.created, self.events) == self.game
        return list(step.events)

    def refused(self, action: object, error: type[Exception], words: str | None = None) -> None:
        before = self.game
        with pytest.raises(error, match=words):
            self.game.apply(action, self.dice)  # type: ignore[arg-type]
        assert self.game == before

    def set_board(self, text: str) -> None:
        """Put the board at a position at the start of a turn, its doubling window open
        (the examples' shortcut)."""
        position = Position.from_text("backgammon", text)
        board = dataclasses.replace(self.game.board, position=position, phase=BoardPhase.ROLL)
        self.game = dataclasses.replace(self.game, board=board, window_closed=False, called=())
        self.created = None  # a set-up board has no log of its own to replay

    def set_cube(self, seat: int, cube: Cube) -> None:
        """Give crew member ``seat`` the cube an earlier double would have left him."""
        cubes = tuple((s, cube if s == seat else c) for s, c in self.game.cubes)
        self.game = dataclasses.replace(self.game, cubes=cubes)
        self.created = None

    def do_set(self, action: object) -> list[dict]:
        step = self.game.apply(action, self.dice)  # type: ignore[arg-type]
        self.game = step.game
        return list(step.events)


def started(crew_first: bool = True) -> Table:
    """CH-E1's lineup after the opening: the captain (Black) opened 3-1 with 8/5 6/5."""
    table = Table(dice=[(1, 3) if crew_first else (3, 1)])
    table.do(act.Start())
    mover = table.game.captain if crew_first else BEN
    table.do(Board(mover, act.PlayText(Side.BLACK if crew_first else Side.WHITE, "8/5 6/5")))
    return table


def bear_off(table: Table, seat: int) -> list[dict]:
    """Play the rolled dice step by step (the last checkers off) until the game ends."""
    events: list[dict] = []
    while not table.game.finished:
        menu = [a for a in table.game.legal_actions(seat) if isinstance(a, Board)]
        confirm = [a for a in menu if isinstance(a.action, act.Confirm)]
        events += table.do_set(confirm[0] if confirm else menu[0])
    return events


def paid(game: ChouetteGame) -> dict[int, int]:
    return dict(game.payout())


__all__ = ["ANN", "BEN", "CH_E1", "CID", "DORA", "Table", "bear_off", "paid", "started"]
