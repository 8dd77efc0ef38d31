"""The shop's catalogue: what can be bought, for how much, and what a theme looks like.

Pure data, so prices and palettes are reviewed in one place and the routes
(``shop.py``), the images (``avatars.py``) and the theme stylesheet all read the
same values. Item ids are ``kind:name`` (``avatar:crown``, ``theme:walnut``):
stable, short enough for ``purchases.item`` (40 characters) and safe in a URL.

The generated avatar and the classic theme are free defaults that everybody owns;
equipping one stores None on the user, so a player who never visits the shop
and one who went back to the defaults look the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["avatar", "theme"]
KINDS: tuple[Kind, ...] = ("avatar", "theme")

DEFAULT_AVATAR = "avatar:default"
DEFAULT_THEME = "theme:classic"


@dataclass(frozen=True, slots=True)
class Item:
    """One thing the shop sells (or gives away, at price 0)."""

    id: str
    name: str
    """English name; the client shows ``t("shop.item.<kind>.<name>")`` instead."""
    price: int
    palette: dict[str, str] = field(default_factory=dict)
    """A theme's colours by board custom property (``wood`` is ``--sb-wood``)."""

    @property
    def kind(self) -> Kind:
        return "avatar" if self.id.startswith("avatar:") else "theme"

    @property
    def slug(self) -> str:
        """The part after the colon: ``crown`` for ``avatar:crown``."""
        return self.id.split(":", 1)[1]

    @property
    def free(self) -> bool:
        return self.price == 0


def _avatar(slug: str, name: str, price: int) -> Item:
    return Item(f"avatar:{slug}", name, price)


def _theme(slug: str, name: str, price: int, **palette: str) -> Item:
    return Item(f"theme:{slug}", name, price, {k.replace("_", "-"): v for k, v in palette.items()})


# fmt: off
CATALOGUE: tuple[Item, ...] = (
    _avatar("default", "Generated", 0),
    _avatar("die", "Lucky die", 2_000),
    _avatar("stack", "Checker stack", 3_000),
    _avatar("moon", "Crescent moon", 4_000),
    _avatar("star", "Lodestar", 5_000),
    _avatar("anchor", "Anchor", 6_000),
    _avatar("cube", "Doubling cube", 8_000),
    _avatar("king", "Draughts king", 12_000),
    _avatar("crown", "Crown", 25_000),
    _theme("classic", "Classic", 0),
    _theme(
        "walnut", "Walnut", 6_000,
        case="#1f140c", case_text="#f3e3c4", wood="#5a371e", wood_edge="#2c190b",
        bar="#4a2c16", column="#3a2212", felt="#caa56d", point_light="#f4e6c6",
        point_dark="#6a3a1c", number="#f6e6c3", white="#f7efdf", white_edge="#9a8460",
        black="#3b2013", black_edge="#140a05", square_light="#ead1a2", square_dark="#6e4427",
    ),
    _theme(
        "marble", "Marble", 10_000,
        case="#34363b", case_text="#eef0f2", wood="#d8d5ce", wood_edge="#8e8a82",
        bar="#c3beb4", column="#b9b4aa", felt="#f2f0eb", point_light="#9fb0c2",
        point_dark="#2f3d4f", number="#40444c", white="#fbfbf9", white_edge="#8f959c",
        black="#23272e", black_edge="#05070a", square_light="#eeebe4", square_dark="#6d7a8a",
    ),
    _theme(
        "felt", "Green felt", 8_000,
        case="#0e2519", case_text="#e9f2e6", wood="#204a33", wood_edge="#0a1a11",
        bar="#183b28", column="#153322", felt="#2e7a4c", point_light="#efe6cf",
        point_dark="#9c2a22", number="#e6efd9", white="#faf7ef", white_edge="#8a8470",
        black="#1d1d1f", black_edge="#000000", square_light="#d9e6cf", square_dark="#2e6b45",
    ),
    _theme(
        "midnight", "Midnight", 15_000,
        case="#070b17", case_text="#d6def5", wood="#17213d", wood_edge="#050812",
        bar="#111a33", column="#0d152b", felt="#1c2b55", point_light="#8ea6da",
        point_dark="#3d5396", number="#c3d0f2", white="#eef2fd", white_edge="#8391b8",
        black="#0c1020", black_edge="#8a97c0", square_light="#a3b5e0", square_dark="#25365f",
    ),
)
# fmt: on

ITEMS: dict[str, Item] = {item.id: item for item in CATALOGUE}


def find_item(item_id: str) -> Item | None:
    """The catalogue's item with this id, or None.

    >>> find_item("avatar:crown").price
    25000
    >>> find_item("avatar:nope") is None
    True
    """
    return ITEMS.get(item_id)


def default_of(kind: Kind) -> str:
    return DEFAULT_AVATAR if kind == "avatar" else DEFAULT_THEME


def theme_css() -> str:
    """The stylesheet of every theme: one rule per theme setting the board's custom properties.

    ``.sb-theme-walnut`` on any ancestor of a board (or on the board itself) repaints
    it; ``css/board.css`` keeps the classic colours as the defaults.

    >>> print(theme_css().splitlines()[1])
    .sb-theme-walnut .sb-board, .sb-board.sb-theme-walnut {
    """
    rules = ["/* Board themes from the shop (generated from server/accounts/items.py). */"]
    for item in CATALOGUE:
        if item.kind != "theme" or not item.palette:
            continue
        selector = f".sb-theme-{item.slug} .sb-board, .sb-board.sb-theme-{item.slug}"
        body = "".join(f"  --sb-{name}: {colour};\n" for name, colour in item.palette.items())
        rules.append(f"{selector} {{\n{body}}}")
    return "\n".join(rules) + "\n"
