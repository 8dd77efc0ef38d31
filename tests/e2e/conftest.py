"""Fixtures for browser tests: a running club and Debian's Chromium driven by Playwright.

``live_club`` is the base URL of a real club (uvicorn on loopback, a fresh SQLite
file) shared by a test module; ``browser`` is one headless Chromium per module.
The browser is always ``/usr/bin/chromium`` (never a downloaded one): where it or
Playwright is missing the browser tests skip, and fail instead when
``SHESHBESH_REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from club_client import OPEN_DOORS, UNTHROTTLED, RunningClub

from sheshbesh.server.settings import Settings

CHROMIUM = "/usr/bin/chromium"
REQUIRE = "SHESHBESH_REQUIRE_BROWSER"


def _unavailable(why: str) -> None:
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"a browser is required ({REQUIRE}=1) but {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def live_club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of a club running for one test module."""
    database = tmp_path_factory.mktemp("club") / "club.db"
    # many players from one address, fresh accounts playing for real stakes, and tests that
    # play over sockets at machine speed beside the pages: limits off
    settings = Settings(database_url=str(database), password_profile="fast",
                        **OPEN_DOORS, **UNTHROTTLED)  # fmt: skip
    with RunningClub(settings) as club:
        yield club.base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium (Debian's) for one test module.

    Module scope, not session: while Playwright's sync API runs, the main thread has
    an event loop, so tests after it that call ``asyncio.run`` would fail.
    """
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        yield chromium
        chromium.close()
