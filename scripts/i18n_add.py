"""Add translations to every catalog at once: ``python scripts/i18n_add.py NEW.json``.

NEW.json maps each key to its text per language, e.g.
``{"shop.title": {"en": "Shop", "ru": "Магазин", ...}}``; every language in
``static/i18n`` must be given. Catalogs stay sorted, one key per line; a lock
file lets several people (or helpers) add keys at the same time safely.
"""

from __future__ import annotations

import fcntl
import json
import sys
import tempfile
from pathlib import Path

CATALOGS = Path(__file__).resolve().parents[1] / "src/sheshbesh/web/static/i18n"


def main(path: str) -> None:
    new = json.loads(Path(path).read_text(encoding="utf-8"))
    with open(Path(tempfile.gettempdir()) / "sheshbesh-i18n.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for catalog_path in sorted(CATALOGS.glob("*.json")):
            lang = catalog_path.stem
            catalog = json.loads(catalog_path.read_text(encoding="utf-8"))
            for key, texts in new.items():
                if lang not in texts:
                    sys.exit(f"{key}: no {lang} text")
                catalog[key] = texts[lang]
            text = json.dumps(dict(sorted(catalog.items())), ensure_ascii=False, indent=1)
            catalog_path.write_text(text + "\n", encoding="utf-8")
    print(f"added {len(new)} keys to {len(list(CATALOGS.glob('*.json')))} catalogs")


if __name__ == "__main__":
    main(sys.argv[1])
