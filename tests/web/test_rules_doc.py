"""The rules travel with the club (issue 17, "Rules at hand").

A clone of the project has no ``../shared``, so the project carries RULES.md as its
own document (docs/rules.md, linked from README) and the package serves the same
text at ``/static/rules/RULES.md`` for the rules page. ``../shared/RULES.md`` stays
the source: where it is beside the checkout (CI), both copies must equal it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules.md"
SERVED = ROOT / "src" / "sheshbesh" / "web" / "static" / "rules" / "RULES.md"
SOURCE = ROOT.parent / "shared" / "RULES.md"


def test_the_served_rules_are_the_projects_rules() -> None:
    assert SERVED.read_bytes() == DOCS.read_bytes()
    assert "docs/rules.md" in (ROOT / "README.md").read_text()


def test_the_projects_rules_are_in_step_with_the_source() -> None:
    if not SOURCE.exists():  # a clone without ../shared: the project's copy is all there is
        return
    assert DOCS.read_bytes() == SOURCE.read_bytes(), "copy ../shared/RULES.md to docs/rules.md"


def test_every_rule_the_client_names_exists() -> None:
    """The result card links ``#/rules?rule=ID``: each rule ID the client words must be
    a rule of the document (the page says "There is no rule …" otherwise)."""
    text = DOCS.read_text()
    defined = set(re.findall(r"^\s*- \*\*([A-Z]{2,3}-E?\d+)", text, flags=re.M))
    catalog = (ROOT / "src/sheshbesh/web/static/i18n/en.json").read_text()
    named = set(re.findall(r'"result\.rule\.([A-Z]{2,3}-\d+)"', catalog))
    assert named and named <= defined, named - defined
