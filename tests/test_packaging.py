"""The wheel carries every file the club needs (issue 20).

A non-editable install once lacked the whole browser client: setuptools ships only
the data files that ``[tool.setuptools.package-data]`` names. Every non-Python file
in the package must match one of those patterns, so a new folder of scripts or a
new kind of file fails here instead of in a user's install. (``scripts/smoke-wheel``,
run by ``.ci/run``, builds the wheel and serves the club from it.)
"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sheshbesh"


def shipped_patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["setuptools"]["package-data"]["sheshbesh"])


def shipped(path: PurePosixPath, pattern: str) -> bool:
    """Glob semantics as setuptools reads them: ``*`` never crosses a ``/``."""
    parts = pattern.split("/")
    return len(parts) == len(path.parts) and all(
        fnmatchcase(name, part) for name, part in zip(path.parts, parts, strict=True)
    )


def test_every_data_file_of_the_package_is_in_the_wheel() -> None:
    patterns = shipped_patterns()
    data = [
        PurePosixPath(path.relative_to(PACKAGE).as_posix())
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert any(str(path).startswith("web/static/js/") for path in data)  # the client is there
    left_out = [str(path) for path in data if not any(shipped(path, p) for p in patterns)]
    assert left_out == [], f"add these to [tool.setuptools.package-data]: {left_out}"


def test_a_file_in_a_new_folder_would_be_noticed() -> None:
    """The check itself: a script one folder deeper than the patterns reach is left out."""
    patterns = shipped_patterns()
    deeper = PurePosixPath("web/static/js/board/pieces/king.js")
    assert not any(shipped(deeper, p) for p in patterns)
    assert any(shipped(PurePosixPath("web/static/js/board/race.js"), p) for p in patterns)
