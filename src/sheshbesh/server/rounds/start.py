"""Starting a game: the interface through which the lobby seats two players at a table.

:func:`start_game` creates the game row, its log (the ``created`` event and the
opening roll), the first escrow and the clock, in the caller's transaction
(the one that claims the request), so a game exists exactly when its request
was accepted. :func:`new_table` and :func:`opening_exposure` tell the lobby
what a request's table is and how much each side must hold to start it (PL-5).
"""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.play.chouette import LARGEST_LEVEL
from sheshbesh.play.clock import Clock, TimeControl
from sheshbesh.play.dice import DiceBox
from sheshbesh.play.draughts import DraughtsOptions
from sheshbesh.play.fair import FairDice
from sheshbesh.play.options import RaceOptions
from sheshbesh.server.club import Club
from sheshbesh.store.models import Game, GameEvent, User
from sheshbesh.store.models import Request as GameRequest

from .store import store_applied
from .tables import Applied, DraughtsTable, MatchTable, RaceTable, Table


def new_table(
    kind: str, variant: str, options: dict[str, Any], commit: str | None
) -> tuple[Table, dict[str, Any]]:
    """A new table and its ``created`` event (the log's event 0)."""
    if kind == "draughts":
        table_only = {k: v for k, v in options.items() if k != "colour"}  # seats, not the game
        return DraughtsTable.create(DraughtsOptions.from_json(table_only))
    race = RaceOptions(**options)
    assert commit is not None
    if kind == "match":
        return MatchTable.create_match(variant, race.match_length, race, commit)
    return RaceTable.create(variant, race, commit)


def opening_exposure(kind: str, variant: str, options: dict[str, Any]) -> int:
    """The most stakes a side can lose once the game starts (BG-15 doubles included); at a
    chouette table what a seat holds to sit down (CH-10: 3 × S)."""
    if kind == "chouette":
        return LARGEST_LEVEL
    if kind != "race":
        return 1
    race = RaceOptions(**options)
    table = RaceTable.create(variant, race, "0" * 64)[0]
    return int(table.exposure() * 2**race.auto_doubles)


def kind_of(found: GameRequest) -> str:
    if found.seats is not None:
        return "chouette"
    if found.variant == "draughts":
        return "draughts"
    return "match" if found.options.get("match_length") else "race"


async def start_game(
    club: Club, session: AsyncSession, found: GameRequest, game_id: str, acceptor: int
) -> Game:
    """Create the game row, its log (created + opening roll), escrow and clock."""
    now = club.now()
    kind = kind_of(found)
    dice = None
    if kind != "draughts":
        dice = FairDice(DiceBox.open(club.new_seed), club.new_seed, lambda: club.new_id())
    table, created = new_table(kind, found.variant, found.options, dice.commit if dice else None)
    control = TimeControl.parse(found.clock)
    bots = set(await session.scalars(
        select(User.id).where(User.id.in_([found.owner_id, acceptor]), User.is_bot)
    ))  # fmt: skip
    seats = (found.owner_id, acceptor)
    if not owner_plays_white(found, game_id):  # draughts: seat 0 is White
        seats = (acceptor, found.owner_id)
    game = Game(
        id=game_id, kind=kind, variant=found.variant, stake=found.stake, control=str(control),
        seat0_id=seats[0], seat1_id=seats[1], status="live", seq=0,
        dice_secret=None, next_roll=1, clock=None, held0=0, held1=0,
        away0=None if seats[0] in bots else now, away1=None if seats[1] in bots else now,
        arrived0=seats[0] in bots, arrived1=seats[1] in bots,
        spectators=0, created_at=now, rated=found.rated,
    )  # fmt: skip
    session.add(game)
    session.add(GameEvent(game_id=game_id, seq=0, event=created, at=now))
    await session.flush()
    started, events = table.start(dice)
    clock = None
    if started.to_act is not None:
        clock = Clock.start(control).run(int(started.to_act), now)
    await store_applied(club, session, game, Applied(started, events, clock), now)
    if dice is not None:
        game.dice_secret = dice.box.secret.hex()
        game.next_roll = dice.box.next_roll
    return game


def owner_plays_white(found: GameRequest, game_id: str) -> bool:
    """A draughts request's colour; "random" is drawn from the new game's id (unknown
    to both players until the game exists). Race games: the opening roll decides."""
    colour = found.options.get("colour", "white") if found.variant == "draughts" else "white"
    if colour == "random":
        return hashlib.sha256(game_id.encode()).digest()[0] % 2 == 0
    return bool(colour == "white")
