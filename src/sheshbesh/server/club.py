"""What every part of the server shares for one app: settings, database, bus, domain
events, and the injected clock, randomness and ids (STYLE: time, randomness and IDs
are injected).

One ``Club`` per app, kept on ``app.state``; nothing here is a module global, so
tests run several apps side by side. A package's long-lived service (the rounds
of this process, the bot host, presence) is kept in ``services`` under its class
and found with :meth:`Club.find` or :meth:`Club.need` by the packages above it,
so this module names none of them.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sheshbesh.store.db import Database

from .events import Events
from .pubsub import Bus
from .settings import Settings

S = TypeVar("S")

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
    events: Events = field(default_factory=Events)
    services: dict[type, Any] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)

    def provide(self, service: object) -> None:
        """Keep a package's service for this app, found by its class."""
        self.services[type(service)] = service

    def find(self, kind: type[S]) -> S | None:
        found: S | None = self.services.get(kind)
        return found

    def need(self, kind: type[S]) -> S:
        found = self.find(kind)
        assert found is not None, f"the club has no {kind.__name__} (has it started?)"
        return found


def club_of(scope_owner: Any) -> Club:
    """The club of a request or websocket (its app's state)."""
    club: Club = scope_owner.app.state.club
    return club
