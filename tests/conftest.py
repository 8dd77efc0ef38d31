"""Settings for the whole suite.

Hypothesis's per-example deadline is a timing threshold, and timing thresholds
do not belong in tests on shared, noisy machines: it is off everywhere. In CI
(``CI`` or any ``SHESHBESH_REQUIRE_*`` set, as ``.ci/run`` does) Hypothesis is
also derandomized and keeps no example database, so every CI run tries the same
examples and a failure there is one a rerun reproduces; elsewhere it explores
new ones each run. ``--hypothesis-seed`` picks the examples either way.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import settings

settings.register_profile("sheshbesh", deadline=None)
settings.register_profile(
    "sheshbesh-ci", settings.get_profile("sheshbesh"), derandomize=True, database=None,
    print_blob=True,
)  # fmt: skip
IN_CI = bool(os.environ.get("CI")) or any(
    os.environ.get(f"SHESHBESH_REQUIRE_{what}") == "1" for what in ("PG", "REDIS", "BROWSER")
)
settings.load_profile("sheshbesh-ci" if IN_CI else "sheshbesh")


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Fixtures, not doctests: leave conftest.py files out of ``--doctest-modules``.

    Collected as doctest modules, every conftest.py would be imported again under
    the one name ``conftest``; with two test directories named on the command line
    (``pytest tests/server tests/e2e``) both are loaded first, and the second
    import finds the other file's module ("import file mismatch").
    """
    return True if collection_path.name == "conftest.py" else None
