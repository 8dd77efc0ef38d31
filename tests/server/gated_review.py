"""Stand-ins for the reviewer's engine call, run in its worker processes (``spawn``).

A test puts one in place of ``reviews.analyse_log``; the workers import this
module by name (they start with the test's ``sys.path`` and environment). The
gate is a FIFO named by ``$SHESHBESH_TEST_REVIEW_GATE``: opening it for reading
blocks until the test opens it for writing, so a review stays in its worker for
exactly as long as the test wants, with no sleeping. Each gated review first
writes its plies, one a line, to the gate's ``.log``: the test counts the
computations that began.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sheshbesh.bots.analysis import AnalysisError
from sheshbesh.bots.registry import analyse_log

GATE = "SHESHBESH_TEST_REVIEW_GATE"


def gated_analysis(log: list[dict[str, Any]], plies: int) -> dict[str, Any]:
    gate = Path(os.environ[GATE])
    with gate.with_suffix(".log").open("a") as started:
        started.write(f"{plies}\n")
    with gate.open("rb"):
        pass  # waits here until the test opens the gate
    return analyse_log(log, plies)


def refused_analysis(log: list[dict[str, Any]], plies: int) -> dict[str, Any]:
    raise AnalysisError("this review was stored: it must not be computed again")


class Gate:
    """The test's side: a closed FIFO until :meth:`open`, then open for good."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self.log = path.with_suffix(".log")
        self.log.touch()
        self.held: int | None = None

    def started(self) -> list[int]:
        """The plies of every gated review that has begun, in order."""
        return [int(line) for line in self.log.read_text().split()]

    def open(self) -> None:
        if self.held is None:
            # Read-write never blocks on a FIFO (Linux); while it is held, readers pass.
            self.held = os.open(self.path, os.O_RDWR | os.O_NONBLOCK)

    def close(self) -> None:
        if self.held is not None:
            os.close(self.held)
            self.held = None
