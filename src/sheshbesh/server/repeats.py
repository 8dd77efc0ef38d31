"""A run of identical log lines is written once, then counted (a flood must not flood the log).

A socket that sends the same refused action a thousand times costs the log two
lines: the first refusal, and the count when the run ends (another line comes,
the socket closes, or a minute has passed), as lila-ws logs a rate-limited
client once per window.

>>> import logging, sys
>>> log = logging.getLogger("repeats-doctest")
>>> log.addHandler(logging.StreamHandler(sys.stdout)); log.setLevel(logging.INFO)
>>> repeats = Repeats(log, clock=lambda: 0.0)
>>> for _ in range(3):
...     repeats.log(logging.INFO, "take refused: there is no double to take")
take refused: there is no double to take
>>> repeats.log(logging.INFO, "roll refused")
take refused: there is no double to take (and 2 more times)
roll refused
>>> repeats.flush()
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

EVERY = 60.0
"""Seconds after which a run still going writes its count so far."""


class Repeats:
    """One logger's last line and how many times it came again since it was written."""

    def __init__(self, log: logging.Logger, *, clock: Callable[[], float] = time.monotonic):
        self.logger = log
        self.clock = clock
        self.last: tuple[int, str] | None = None
        self.count = 0
        self.since = 0.0

    def log(self, level: int, message: str, *, exc_info: bool = False) -> None:
        """Write ``message`` unless it repeats the last one (then count it).

        ``exc_info`` writes the traceback of the exception being handled, once per run.
        """
        if (level, message) == self.last:
            self.count += 1
            if self.clock() - self.since >= EVERY:
                self.flush()
                self.last = (level, message)
            return
        self.flush()
        self.last, self.since = (level, message), self.clock()
        self.logger.log(level, "%s", message, exc_info=exc_info)

    def flush(self) -> None:
        """Write the count of the run so far, if the last line came again."""
        if self.last is not None and self.count:
            level, message = self.last
            self.logger.log(level, "%s (and %d more times)", message, self.count)
        self.last, self.count, self.since = None, 0, self.clock()
