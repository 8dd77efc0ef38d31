"""gnubg's position and match IDs of a game in play, for the room's "copy position" button.

A player pastes them into GNU Backgammon (``set gnubgid``) to study a position,
so they are given only where gnubg knows the board: the variants that play on
backgammon's board with hits (backgammon, short nardy, takhte nard, Caucasian
nardy). Player 0 is White and player 1 Black throughout the match ID; the
position ID is written from the side of the player whose turn it is (the dice
owner), as gnubg reads it.

>>> from sheshbesh.play.race import RaceGame
>>> game, _ = RaceGame.create("backgammon")
>>> gnubg_ids(game)
{'position_id': '4HPwATDgc/ABMA', 'match_id': 'MAAAAAAAAAAE'}
>>> gnubg_ids(RaceGame.create("long_nardy")[0]) is None
True
"""

from __future__ import annotations

from sheshbesh.games.errors import InvalidPosition
from sheshbesh.games.race.gnubg_id import GameState, MatchId, Resignation
from sheshbesh.games.race.ids import position_id

from .race import Phase, RaceGame

RESIGNATIONS = {1: Resignation.SINGLE, 2: Resignation.GAMMON, 3: Resignation.BACKGAMMON}


def gnubg_ids(
    game: RaceGame, *, length: int = 0, score: tuple[int, int] = (0, 0), crawford: bool = False
) -> dict[str, str] | None:
    """The position and match IDs of ``game`` (a game of a ``length``-point match at
    ``score``, White's first; 0: a money game), or None where gnubg has no such board."""
    try:
        pid = position_id(game.position)
    except InvalidPosition:
        return None
    mover = int(game.position.turn)
    decider = mover if game.to_act is None else int(game.to_act)
    dice = (0, 0) if game.turn is None else (game.turn.dice[0], game.turn.dice[1])
    if game.finished:
        state = GameState.OVER
    elif game.phase is Phase.OPENING:
        state = GameState.NONE
    else:
        state = GameState.PLAYING
    offer = Resignation.NONE
    if game.resign_offer is not None:
        offer = RESIGNATIONS.get(game.resign_offer[1], Resignation.SINGLE)
    match = MatchId(
        cube=game.cube.value,
        cube_owner=None if game.cube.owner is None else int(game.cube.owner),
        dice_owner=mover,
        crawford=crawford,
        game_state=state,
        turn=decider,
        double_offered=game.phase is Phase.DOUBLED,
        resignation=offer,
        dice=dice,
        match_length=length,
        score=score,
        jacoby=bool(game.options.jacoby) and length == 0,
    )
    return {"position_id": pid, "match_id": match.id()}
