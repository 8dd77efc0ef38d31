"""GNU Backgammon's engine (PyPI ``gnubg``), confined to the one thread that may call it.

Two facts about gnubg 1.1.0a16, measured here, shape how the bots use it:

* **One thread only.** The module sets up its per-thread evaluation state for
  the thread that imports it. From any other thread, a move search or
  anything beyond a static ``evaluate`` crashes the whole process (a segfault,
  not an exception).
* **It holds the GIL while it thinks.** A 2-ply search stalls every other
  Python thread of the process for its duration.

So every call goes through :func:`run`, which executes a whole job (a function
of the module) on the owner thread. When we are the first to import gnubg, the
owner is a private one-worker thread that imports it, and jobs from any thread
queue up there (safe, one at a time, never parallel). When something else
imported gnubg first (pytest collecting the oracle tests, a script), we assume
the main thread did: jobs from the main thread run inline and jobs from other
threads raise :class:`EngineUnavailable` rather than crash. The server thinks
in worker processes (``server.bots.host``), each with its own gnubg, which is
also what keeps the event loop free of the GIL.

A process forked after its gnubg thread started has no such thread: there
:func:`run` raises :class:`EngineUnavailable` too (start workers with
``spawn``, as the server does, or before the first gnubg call).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import TypeVar

from .base import CannotPlay

T = TypeVar("T")


class EngineUnavailable(CannotPlay):
    """gnubg cannot be reached from this thread, or is not installed."""


class _Owner:
    """Which thread may call gnubg, and the executor that reaches it (if ours)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.module: ModuleType | None = None
        self.thread: threading.Thread | None = None
        self.executor: ThreadPoolExecutor | None = None
        self.orphaned = False

    def after_fork(self) -> None:
        """In a forked child only the forking thread lives on; gnubg's may be gone."""
        if self.module is not None and self.thread is not threading.current_thread():
            self.orphaned = True
            self.executor = None

    def load(self) -> ModuleType:
        with self.lock:
            if self.module is not None:
                return self.module
            if "gnubg" in sys.modules:
                self.module = sys.modules["gnubg"]
                self.thread = threading.main_thread()
                return self.module
            executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gnubg")
            try:
                module, thread = executor.submit(_import_here).result()
            except ImportError as error:
                executor.shutdown(wait=False)
                raise EngineUnavailable(f"gnubg is not installed: {error}") from None
            self.module, self.thread, self.executor = module, thread, executor
            return module


def _import_here() -> tuple[ModuleType, threading.Thread]:
    import gnubg

    return gnubg, threading.current_thread()


_OWNER = _Owner()
os.register_at_fork(after_in_child=_OWNER.after_fork)


def run(job: Callable[[ModuleType], T]) -> T:
    """``job(gnubg)`` on the thread that owns gnubg; its result or its exception."""
    module = _OWNER.load()
    if _OWNER.orphaned:
        raise EngineUnavailable("gnubg's thread did not survive this process's fork")
    if threading.current_thread() is _OWNER.thread:
        return job(module)
    if _OWNER.executor is None:
        raise EngineUnavailable(
            "gnubg was imported on the main thread and may only be called from it"
        )
    return _OWNER.executor.submit(job, module).result()
