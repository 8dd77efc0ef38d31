"""The server's packages import one way (issue 15; DESIGN's layers, lila's modules).

Every ``import`` in ``sheshbesh.server`` is read from the source, including those
inside functions and under ``TYPE_CHECKING``: a package may import only the
packages below it in :data:`LAYERS`, and the base modules import no package.
So no import circle can form between packages, and one that comes back fails
here with the offending line.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import sheshbesh.server

SERVER = Path(sheshbesh.server.__file__).parent
LAYERS = (
    "accounts",
    "notify",
    "standings",
    "relations",
    "chat",
    "money",
    "rounds",
    "lobby",
    "bots",
)
"""From the bottom up: each package may import those before it, never those after."""
BASE = "base"
"""The server's top-level modules (club, events, errors, pubsub…), below every package."""
TOP = "app"
"""``app.py`` wires everything and nobody imports it."""


def unit_of(module: str) -> str:
    """The package (or base, or app) a dotted ``sheshbesh.server…`` module belongs to."""
    parts = module.split(".")[2:]
    if not parts:
        return BASE
    if parts[0] == "app":
        return TOP
    return parts[0] if parts[0] in LAYERS else BASE


def module_of(path: Path) -> str:
    relative = path.relative_to(SERVER).with_suffix("")
    parts = [part for part in relative.parts if part != "__init__"]
    return ".".join(["sheshbesh", "server", *parts])


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of a ``sheshbesh.server`` module in ``path``."""
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [(node.lineno, name) for name in names if name.startswith("sheshbesh.server.")]
    return found


def rank(unit: str) -> int:
    if unit == BASE:
        return -1
    if unit == TOP:
        return len(LAYERS)
    return LAYERS.index(unit)


def wrong_way_imports() -> list[str]:
    wrong = []
    for path in sorted(SERVER.rglob("*.py")):
        here = unit_of(module_of(path))
        for line, name in imports_of(path):
            there = unit_of(name)
            if there == here:
                continue
            if there == TOP or rank(there) > rank(here):
                wrong.append(f"{path.relative_to(SERVER)}:{line} ({here}) imports {name} ({there})")
    return wrong


def test_server_packages_import_only_packages_below_them():
    assert wrong_way_imports() == []


def test_every_server_module_belongs_to_a_known_package():
    """A new package must take its place in LAYERS (and docs/architecture.md)."""
    packages = {p.name for p in SERVER.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(LAYERS)


def test_every_package_says_what_it_owns_and_may_import():
    for name in LAYERS:
        doc = ast.get_docstring(ast.parse((SERVER / name / "__init__.py").read_text())) or ""
        assert "May import" in doc, f"{name}/__init__.py must say what it may import"


def test_the_check_sees_an_upward_import(tmp_path, monkeypatch):
    """The check itself: a base module importing a package is caught, with its line."""
    fake = tmp_path / "server"
    (fake / "rounds").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "rounds" / "__init__.py").write_text("")
    (fake / "club.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from sheshbesh.server.rounds.round import Rounds\n"
    )
    (fake / "rounds" / "round.py").write_text("def f():\n    from ..lobby import requests\n")
    monkeypatch.setattr(sys.modules[__name__], "SERVER", fake)
    assert wrong_way_imports() == [
        "club.py:3 (base) imports sheshbesh.server.rounds.round (rounds)",
        "club.py:3 (base) imports sheshbesh.server.rounds.round.Rounds (rounds)",
        "rounds/round.py:2 (rounds) imports sheshbesh.server.lobby (lobby)",
        "rounds/round.py:2 (rounds) imports sheshbesh.server.lobby.requests (lobby)",
    ]
