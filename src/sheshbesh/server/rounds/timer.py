"""A round's timeout check: when a flag may fall or an absent player's grace runs out.

A round reschedules its check whenever anything changes, and on PostgreSQL that is
often: every presence frame and every reading of the game refreshes it. Rescheduling
cancels only a check that is still waiting for its time. A check already running (it
waits for the round's lock, or for the database) is left to finish: cancelling it, as
every refresh once did, meant a game watched closely enough never timed out.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable

from ..errors import database_trouble, log_failure
from .log import TIMER_RETRY

log = logging.getLogger(__name__)


class CheckTimer:
    """Runs ``check`` once the club's clock reaches the latest deadline given to :meth:`at`."""

    def __init__(self, name: str, check: Callable[[], Awaitable[None]],
                 now: Callable[[], float]) -> None:  # fmt: skip
        self.name = name
        self.check = check
        self.now = now
        self.waiting: asyncio.Task[None] | None = None
        """The wait for the next check (None: none is due)."""
        self.running: set[asyncio.Task[None]] = set()
        """Checks whose time came: they finish even when the round reschedules."""

    def at(self, deadline: float) -> None:
        """Check at ``deadline`` instead of when it was due (``math.inf``: never)."""
        if self.waiting is not None and not self.waiting.done():
            self.waiting.cancel()
        self.waiting = None
        if deadline < math.inf:
            self.waiting = asyncio.get_running_loop().create_task(self._wait(deadline))

    async def _wait(self, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.now()) + 0.01)
        task = asyncio.current_task()
        assert task is not None
        if self.waiting is task:
            self.waiting = None  # from here on a reschedule no longer cancels this check
        self.running.add(task)
        try:
            await self.check()
        except Exception as error:
            log_failure(log, f"{self.name}: the timeout check", error)
            if database_trouble(error) and self.waiting is None:
                # The database is away for a moment: a flag that fell meanwhile still falls.
                self.at(self.now() + TIMER_RETRY)
        finally:
            self.running.discard(task)

    def stop(self) -> list[asyncio.Task[None]]:
        """Cancel the wait and any running check; returns their tasks, still unwinding."""
        tasks = [task for task in (self.waiting, *self.running) if task is not None]
        for task in tasks:
            task.cancel()
        self.waiting = None
        return tasks

    async def halt(self) -> None:
        """Stop, and wait until a running check has unwound: at shutdown the database
        closes next, and a check cut off inside a transaction as it closed once held the
        event loop's exit for ever."""
        await asyncio.gather(*self.stop(), return_exceptions=True)
