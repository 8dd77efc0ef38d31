"""Factories for chouette records: whole sessions played as the server plays them.

The server keeps one ``FairDice`` box per table and stores the session's log as one
game of kind ``"chouette"``: the ``chouette_created`` event first, then every event
``ChouetteSession.apply`` returned. :func:`played_session` does the same, with
people coming and going between games and random games (doubles, takes, drops,
timeouts) in between.
"""

from __future__ import annotations

import random
from typing import Any

from test_chouette_forfeits import random_action

from sheshbesh.play import actions as act
from sheshbesh.play.chouette import Answer, Board, Double
from sheshbesh.play.chouette_record import make_session_record
from sheshbesh.play.chouette_session import ChouetteSession, Join, Leave
from sheshbesh.play.fair import FairDice

Record = dict[str, Any]


def fair_dice(seed: int) -> FairDice:
    rng = random.Random(f"dice-{seed}")
    return FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.randrange(10**9)}")


def played_session(
    seed: int, games: int = 3, capacity: int = 5, timeouts: float = 0.01
) -> tuple[Record, ChouetteSession]:
    """A session of ``games`` games (fewer if the table ends), as its record and table."""
    rng = random.Random(seed)
    dice = fair_dice(seed)
    session, created = ChouetteSession.create(capacity, commit=dice.commit)
    events: list[dict[str, Any]] = []

    def do(action: Any) -> None:
        nonlocal session
        if isinstance(action, Board) and isinstance(action.action, act.Roll):
            action = Board(action.seat, act.Roll(action.action.side, f"c{rng.randrange(10**6)}"))
        step = session.apply(action, dice)
        session, events[len(events) :] = step.session, step.events

    for _ in range(rng.randint(3, capacity)):
        do(Join(session.taken))
    for number in range(games):
        if session.finished:
            break
        if number and rng.random() < 0.5 and not session.full:
            do(Join(session.taken))
        if number and rng.random() < 0.4 and len(session.seats) > 3:
            do(Leave(rng.choice(session.seats)))
        do(act.Start())
        while session.playing:
            game = session.game
            assert game is not None
            do(random_action(game, rng, timeouts))
    return make_session_record(created, events), session


def with_cube_action(record: Record) -> bool:
    """Whether the session has a double, a take and a drop."""
    kinds = {event["type"] for event in record["events"]}
    return {"cube_taken", "cube_dropped"} <= kinds and bool(
        kinds & {"banker_doubled", "crew_doubled"}
    )


__all__ = ["Answer", "Double", "fair_dice", "played_session", "with_cube_action"]
