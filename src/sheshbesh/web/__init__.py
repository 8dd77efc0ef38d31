"""The browser client: static HTML, CSS and ES modules, served as they are (no build step).

``STATIC`` is the folder the server mounts at ``/static``; ``index.html`` is the
one page, and the client routes by the URL's hash (``#/game/ID``). Every string
comes from the catalogs in ``static/i18n/``.
"""

from pathlib import Path

STATIC = Path(__file__).parent / "static"
LANGUAGES = ("en", "ru", "pt", "fa", "el", "cy")
"""English, Russian, Portuguese, Persian (right to left), Greek, Welsh."""
