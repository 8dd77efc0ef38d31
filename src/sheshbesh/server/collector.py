"""The garbage collector's settings for a long-running club process.

Why: a club holds a few hundred long-lived objects per open socket (the ASGI
stack's coroutines, frames, the game's tables), and every move makes objects
that live about a second (events, frames, legal menus). With CPython's default
thresholds (700, 10, 10) those get promoted to the oldest generation and soon
trigger a full collection, which stops the event loop for as long as it takes
to walk every object: at 500 live games (1 000 sockets, ~370 000 objects) we
measured full collections of 50 to 230 ms about every five seconds, and they
set the p99 of a move (bench/load.py: 220-250 ms). A larger young generation
lets those objects die young, by reference counting, before any promotion; the
objects made while starting (modules, the app, its routes) are frozen out of
every collection. Measured in docs/decisions.md.
"""

from __future__ import annotations

import gc

YOUNG = 20_000
"""Allocations between two collections of the youngest generation (CPython: 700)."""
MIDDLE = 10
"""Young collections between two of the middle generation (CPython: 10)."""
OLD = 10
"""Middle collections before the oldest may be collected (CPython: 10)."""


def tune() -> None:
    """Freeze what exists now (call it once all is imported); widen the young generation."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
