"""What every part of the server shares for one app: settings, database, bus, and the
injected clock, randomness and ids (STYLE: time, randomness and IDs are injected).

One ``Club`` per app, kept on ``app.state``; nothing here is a module global, so
tests run several apps side by side.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sheshbesh.store.db import Database

from .pubsub import Bus
from .settings import Settings

if TYPE_CHECKING:
    from .bots import BotHost
    from .round import Rounds

ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_id() -> str:
    """A short public id for requests and games (8 characters, about 46 bits)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(8))


@dataclass
class Club:
    settings: Settings
    db: Database
    bus: Bus
    now: Callable[[], float] = time.time
    new_id: Callable[[], str] = new_id
    new_seed: Callable[[], bytes] = lambda: os.urandom(32)
    rounds: Rounds | None = field(default=None)
    bots: BotHost | None = field(default=None)
    extras: dict[str, Any] = field(default_factory=dict)

    def round_registry(self) -> Rounds:
        assert self.rounds is not None, "the club has not started"
        return self.rounds


def club_of(scope_owner: Any) -> Club:
    """The club of a request or websocket (its app's state)."""
    club: Club = scope_owner.app.state.club
    return club
