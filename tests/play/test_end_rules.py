"""Every rule the play layer can end a game by is listed in ``END_RULES`` (the client words each).

A source scan, since the reasons are literals spread over the game flows: a new
ending added without a listing (and so without words in six languages) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import sheshbesh
from sheshbesh.games.draughts.game import Termination
from sheshbesh.play.result import END_RULES

SOURCE = Path(sheshbesh.__file__).parent
FINISH = re.compile(r"finish\([^\n]*?\"([A-Z]{2}-\d+)\"")
OUTCOME = re.compile(r"Outcome\([^\n]*?\"([A-Z]{2}-\d+)\"")


def test_every_ending_in_the_source_is_listed() -> None:
    found: set[str] = set()
    for path in [*(SOURCE / "play").glob("*.py"), *(SOURCE / "games").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        found |= set(FINISH.findall(text)) | set(OUTCOME.findall(text))
    found |= {termination.value for termination in Termination}
    assert found, "the scan found no endings: has the code's shape changed?"
    assert found <= set(END_RULES), sorted(found - set(END_RULES))
    assert {"BF-13", "PL-7", "DR-13", "PK-9", "LN-13", "BG-12"} <= found
