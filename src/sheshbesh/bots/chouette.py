"""A chouette seat played by any race bot (CH-1 … CH-10).

Chouette is one backgammon board with a bet per crew member, so a seat's every
question is one a two-player money game already asks: the banker's or the
captain's play is the board's play, and each cube is judged as a money game of
that board with that member's cube (its value and owner). GNU Backgammon's
cubeful evaluation therefore answers chouette's cube questions too, at whatever
level the engine plays.

A bettor is never waited for: in the crew's window :meth:`ChouetteSeat.choose`
returns his double, or ``None`` when he lets the window pass.
"""

from __future__ import annotations

from dataclasses import replace

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play import chouette as ch
from sheshbesh.play.options import RaceOptions
from sheshbesh.play.race import Phase as BoardPhase
from sheshbesh.play.race import RaceGame

from .base import CannotPlay, GameOver, MatchContext, RaceBot

MONEY = MatchContext()
"""Each bet is a money game (chouette has no matches)."""


class ChouetteSeat:
    """One seat's decisions, made by ``engine`` (a :class:`RaceBot` that plays backgammon)."""

    def __init__(self, engine: RaceBot) -> None:
        if "backgammon" not in engine.variants:
            raise CannotPlay(f"{engine.name} does not play backgammon, chouette's board")
        self.engine = engine
        self.name = f"chouette/{engine.name}"

    def choose(
        self, game: ch.ChouetteGame, seat: int, *, budget: float | None = None
    ) -> ch.Action | None:
        """The seat's action now; ``None`` for a bettor who lets the crew's window pass.

        Raises :class:`GameOver` for a finished game and :class:`CannotPlay` when
        the game waits for nothing from ``seat``.
        """
        if game.finished:
            raise GameOver(f"{self.name}: the game is over")
        if game.board.phase is BoardPhase.OPENING:
            raise CannotPlay(f"{self.name}: the server starts the game")
        if game.phase is ch.Phase.CREW_ANSWERS:
            if seat not in game.pending:
                raise CannotPlay(f"{self.name}: seat {seat} has no double to answer")
            return ch.Answer(seat, self._takes(game, seat, ch.CREW, budget))
        if game.phase is ch.Phase.BANKER_ANSWERS:
            if seat != game.banker:
                raise CannotPlay(f"{self.name}: the banker answers the crew's doubles")
            member = game.pending[0]
            return ch.Answer(seat, self._takes(game, member, ch.BANKER, budget), member)
        side = game.side_of(seat)
        doubles = [m for m in game.doublable(seat) if self._doubles(game, m, budget)]
        if doubles:
            return ch.Double(seat, tuple(doubles) if seat == game.banker else ())
        if side is None or game.board.to_act is not side:
            if seat in game.crew_in and game.window_open and game.board.position.turn is ch.CREW:
                return None  # a bettor who does not double now
            raise CannotPlay(f"{self.name}: nothing waits on seat {seat}")
        move = self.engine.choose(game.board, side, budget=budget)
        if not isinstance(move, act.Roll | act.Move | act.Undo | act.Confirm | act.PlayText):
            raise CannotPlay(f"{self.name}: {self.engine.name} chose {move!r} on the board")
        return ch.Board(seat, move)

    # --- each bet as a money game --------------------------------------------------

    def _doubles(self, game: ch.ChouetteGame, member: int, budget: float | None) -> bool:
        """Whoever is on roll doubles ``member``'s cube when a money game would."""
        view = _bet(game, member, BoardPhase.ROLL)
        roller = game.board.position.turn
        return self.engine.cube_decision(view, roller, MONEY, budget) == "double"

    def _takes(
        self, game: ch.ChouetteGame, member: int, answerer: Side, budget: float | None
    ) -> bool:
        view = _bet(game, member, BoardPhase.DOUBLED)
        return self.engine.cube_decision(view, answerer, MONEY, budget) != "drop"


def _bet(game: ch.ChouetteGame, member: int, phase: BoardPhase) -> RaceGame:
    """The board as a two-player money game with ``member``'s cube (CH-3: no beavers)."""
    return replace(game.board, options=RaceOptions(cube=True), cube=game.cube_of(member),
                   phase=phase, turn=None)  # fmt: skip


__all__ = ["ChouetteSeat"]
