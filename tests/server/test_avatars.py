"""The pictures and the catalogue, without a server: the identicon generator, the shop's
emblems and the theme stylesheet (units of ``accounts.avatars``, ``accounts.emblems``
and ``accounts.items``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from sheshbesh.server.accounts.avatars import CELL, GRID, MARGIN, identicon, picture
from sheshbesh.server.accounts.emblems import EMBLEMS
from sheshbesh.server.accounts.items import (
    CATALOGUE,
    DEFAULT_AVATAR,
    DEFAULT_THEME,
    find_item,
    theme_css,
)
from sheshbesh.web import STATIC

SVG = "{http://www.w3.org/2000/svg}"


def cells(document: str) -> set[tuple[int, int]]:
    """The (row, column) cells an identicon fills."""
    root = ET.fromstring(document)
    group = root.find(f"{SVG}g")
    assert group is not None
    return {
        ((int(r.get("y", 0)) - MARGIN) // CELL, (int(r.get("x", 0)) - MARGIN) // CELL)
        for r in group.iter(f"{SVG}rect")
    }


def test_identicon_is_deterministic_and_case_blind():
    assert identicon("ann") == identicon("ann") == identicon("ANN")


def test_identicons_of_different_names_differ():
    names = [f"player{n}" for n in range(300)] + ["ann", "bob", "Ann_1", "ann-1"]
    pictures = Counter(identicon(name) for name in names)
    assert pictures.most_common(1)[0][1] == 1


def test_identicon_is_a_valid_svg_with_a_mirrored_pattern():
    for name in ("ann", "bob", "zoe", "x" * 20):
        document = identicon(name)
        root = ET.fromstring(document)
        assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 64 64"
        filled = cells(document)
        assert 4 <= len(filled) < GRID * GRID
        assert filled == {(row, GRID - 1 - col) for row, col in filled}


def test_identicon_never_carries_the_name():
    for name in ("<script>alert(1)</script>", "a&b", 'x"onload="y', "ann"):
        document = identicon(name)
        ET.fromstring(document)  # still well-formed
        assert name not in document and "script" not in document and "onload" not in document


def test_every_avatar_item_has_a_picture_and_only_shapes():
    allowed = {"svg", "rect", "circle", "ellipse", "path", "polygon", "g", "text"}
    avatars = [item for item in CATALOGUE if item.kind == "avatar"]
    assert {item.id for item in avatars} - {DEFAULT_AVATAR} == set(EMBLEMS)
    for item in avatars:
        root = ET.fromstring(picture(item.id, "ann"))
        tags = {element.tag.removeprefix(SVG) for element in root.iter()}
        assert tags <= allowed, (item.id, tags - allowed)
        assert not [a for e in root.iter() for a in e.attrib if a.startswith("on") or "href" in a]
    assert picture(None, "ann") == picture(DEFAULT_AVATAR, "ann") == identicon("ann")


def test_catalogue_has_free_defaults_and_priced_items():
    assert find_item(DEFAULT_AVATAR).price == 0  # type: ignore[union-attr]
    assert find_item(DEFAULT_THEME).price == 0  # type: ignore[union-attr]
    assert len({item.id for item in CATALOGUE}) == len(CATALOGUE)
    for item in CATALOGUE:
        assert re.fullmatch(r"(avatar|theme):[a-z]+", item.id) and len(item.id) <= 40
        assert item.free or 1_000 <= item.price <= 25_000


def test_theme_palettes_set_only_the_boards_own_colours():
    board_css = (STATIC / "css" / "board.css").read_text()
    defined = set(re.findall(r"--sb-([a-z-]+):", board_css))
    css = theme_css()
    for item in CATALOGUE:
        if item.kind != "theme" or item.free:
            continue
        assert set(item.palette) <= defined, set(item.palette) - defined
        assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in item.palette.values())
        assert f".sb-theme-{item.slug} .sb-board" in css
