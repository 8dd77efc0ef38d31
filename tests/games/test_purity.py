"""``sheshbesh.games`` is pure: importing all of it loads no I/O, clock or randomness.

Run in a fresh interpreter so that nothing the test runner imported hides a
dependency. ``time`` is loaded by the interpreter itself at start-up, so besides
the loaded-module check every source file's imports are read (AST) as well.
"""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import sheshbesh.games

FORBIDDEN = {"asyncio", "sqlalchemy", "redis", "random", "time", "socket", "threading", "os"}
ROOT = Path(sheshbesh.games.__file__).parent


def games_modules() -> list[str]:
    prefix = "sheshbesh.games."
    return ["sheshbesh.games"] + [
        info.name for info in pkgutil.walk_packages([str(ROOT)], prefix=prefix)
    ]


def test_importing_every_games_module_loads_nothing_impure() -> None:
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        f"for name in {games_modules()!r}:\n"
        "    __import__(name)\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert {name.split(".")[0] for name in loaded} & FORBIDDEN == set()
    assert len(loaded) > 10


def test_no_games_source_imports_impure_modules() -> None:
    offenders = []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []
