"""Worker processes for CPU-bound engine work: a ``spawn`` pool, started on first use.

gnubg holds the GIL while it searches, so its work runs in other processes and
the event loop serves every game meanwhile. Each kind of work has its own
``Workers`` (the bots' decisions, the games' reviews), so one kind can never
queue behind the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> None:
    """Each worker is one process doing one job: numpy's BLAS threads (the nets' bots and
    reviews) only fight the other workers and the server for the cores. Measured on this
    2-core machine: a long nardy review at plies=2 took 57 s with them, 10 s without.
    Runs first in each worker, before anything imports numpy; a value set by the host stays.
    """
    for name in ONE_THREAD:
        os.environ.setdefault(name, "1")


class Workers:
    """``size`` worker processes; a pool broken by a crashed worker is replaced once per call."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least one process, not {size}")
        self.size = size
        self.pool: ProcessPoolExecutor | None = None

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a worker process (``work`` and ``args`` must pickle)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._pool(), work, *args)
            except BrokenProcessPool:
                self.pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(
                self.size, mp_context=context, initializer=one_blas_thread
            )
        return self.pool

    def stop(self) -> None:
        if self.pool is not None:
            with contextlib.suppress(Exception):
                self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
