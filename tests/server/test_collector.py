"""The served process's garbage collector: startup frozen, a wide young generation.

A full collection over a busy club's objects stops every game at once
(``server/collector.py``); these check the settings a served process runs with.
"""

from __future__ import annotations

import subprocess
import sys

from sheshbesh.server import collector


def test_tune_freezes_what_exists_and_widens_the_young_generation() -> None:
    probe = (
        "import gc\n"
        "from sheshbesh.server.app import create_app\n"
        "from sheshbesh.server.collector import tune\n"
        "before = gc.get_threshold()\n"
        "tune()\n"
        "print(before, gc.get_threshold(), gc.get_freeze_count() > 10_000)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    default, tuned, frozen = out.stdout.strip().split(") ")
    assert default == "(700, 10, 10"
    assert tuned == f"({collector.YOUNG}, {collector.MIDDLE}, {collector.OLD}"
    assert frozen == "True"
