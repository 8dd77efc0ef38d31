"""The package surface: the CLI helper, typed errors, and purity of the rules."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import sheshbesh.games.draughts
from sheshbesh.games.draughts import (
    DraughtsError,
    InvalidPosition,
    moves_for_fen,
)


def test_moves_for_fen_start() -> None:
    moves = moves_for_fen("W:W31-50:B1-20")
    assert len(moves) == 9
    assert moves[0]["move"] == "31-26"
    assert moves[0]["fen"].startswith("B:W26,32,33,")


def test_moves_for_fen_writes_every_landing_square() -> None:
    assert moves_for_fen("W:W32,45:B27,28,19") == [{"move": "32x23x14", "fen": "B:W14,45:B27"}]


def test_moves_for_fen_no_moves() -> None:
    assert moves_for_fen("W:W45:B40,34") == []


def test_moves_for_fen_bad_input_is_a_typed_value_error() -> None:
    with pytest.raises(InvalidPosition, match="square 55"):
        moves_for_fen("W:W55:B1")
    assert issubclass(InvalidPosition, DraughtsError)
    assert issubclass(DraughtsError, ValueError)


FORBIDDEN = ("asyncio", "sqlalchemy", "redis", "random", "time", "socket", "numpy", "draughts")
PACKAGE = Path(sheshbesh.games.draughts.__file__).parent


def test_rules_are_pure_at_import() -> None:
    """Importing the rules loads no clock, randomness, I/O or py-draughts (checked in a
    fresh interpreter against what the interpreter itself loaded before)."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import sheshbesh.games.draughts.pdn, sheshbesh.games.draughts.perft\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        f"print(sorted(new & set({FORBIDDEN!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("module", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_rules_are_pure_in_source(module: Path) -> None:
    """No module of the rules imports a forbidden module, even one already loaded."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & set(FORBIDDEN)
