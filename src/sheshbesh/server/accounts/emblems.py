"""The shop's avatars, drawn by us as small SVG emblems on a 64×64 canvas.

Each emblem is a fixed string of shapes (no text from users, no scripts, no
external references), so it is safe to serve as ``image/svg+xml`` and cheap to
cache forever. The canvas is full-bleed: the page decides whether an avatar is
round or square (``css/shop.css``).
"""

from __future__ import annotations

import math


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> str:
    corners = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / points - math.pi / 2
        corners.append(f"{cx + radius * math.cos(angle):.2f},{cy + radius * math.sin(angle):.2f}")
    return " ".join(corners)


_PIPS_5 = ((22, 22), (42, 22), (32, 32), (22, 42), (42, 42))

_DIE = (
    '<rect width="64" height="64" fill="#2563a8"/>'
    '<circle cx="32" cy="32" r="27" fill="#2f74c0"/>'
    '<g transform="rotate(-10 32 32)">'
    '<rect x="13" y="15" width="38" height="38" rx="8" fill="#0f2f57" opacity="0.35"/>'
    '<rect x="13" y="13" width="38" height="38" rx="8" fill="#fdfaf3" stroke="#c9bfa8"'
    ' stroke-width="1.5"/>'
    + "".join(f'<circle cx="{x}" cy="{y}" r="3.8" fill="#1b2430"/>' for x, y in _PIPS_5)
    + "</g>"
)

_STACK = '<rect width="64" height="64" fill="#1f5a3b"/>' + "".join(
    f'<circle cx="{x}" cy="{y}" r="14" fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
    f'<circle cx="{x}" cy="{y}" r="9" fill="none" stroke="{ring}" stroke-opacity="0.35"'
    ' stroke-width="1.8"/>'
    for x, y, fill, edge, ring in (
        (22, 42, "#2a2422", "#0b0908", "#ffffff"),
        (32, 32, "#f4ecda", "#8c7a5b", "#786446"),
        (42, 22, "#a23d22", "#5a1d0e", "#ffffff"),
    )
)

_MOON = (
    '<rect width="64" height="64" fill="#162447"/>'
    '<path d="M40 10 A23 23 0 1 0 40 54 A18 18 0 1 1 40 10 Z" fill="#f5d76e"/>'
    f'<polygon points="{_star(47, 22, 4.5, 1.9)}" fill="#fdf3c4"/>'
    f'<polygon points="{_star(52, 38, 3, 1.3)}" fill="#fdf3c4"/>'
    '<circle cx="44" cy="48" r="1.2" fill="#fdf3c4"/>'
)

_STAR = (
    '<rect width="64" height="64" fill="#0f4c5c"/>'
    '<circle cx="32" cy="33" r="25" fill="#14606f"/>'
    f'<polygon points="{_star(32, 34, 24, 10)}" fill="#ffc93c" stroke="#b8860b"'
    ' stroke-width="1.5" stroke-linejoin="round"/>'
    f'<polygon points="{_star(32, 34, 10, 4.2)}" fill="#fff1b8"/>'
)

_ANCHOR = (
    '<rect width="64" height="64" fill="#12355b"/>'
    '<g fill="none" stroke="#f2f5fa" stroke-width="4.5" stroke-linecap="round">'
    '<circle cx="32" cy="13" r="5"/>'
    '<path d="M32 18 V53"/>'
    '<path d="M21 26 H43"/>'
    '<path d="M12 38 Q14 53 32 53 Q50 53 52 38"/>'
    "</g>"
    '<path d="M7 41 L12 33 L17 41 Z M47 41 L52 33 L57 41 Z" fill="#f2f5fa"/>'
)

_CUBE = (
    '<rect width="64" height="64" fill="#4a2d18"/>'
    '<polygon points="32,8 54,19 32,30 10,19" fill="#fffaf0" stroke="#3b2a1a"'
    ' stroke-width="1.5" stroke-linejoin="round"/>'
    '<polygon points="10,19 32,30 32,56 10,45" fill="#ece1c9" stroke="#3b2a1a"'
    ' stroke-width="1.5" stroke-linejoin="round"/>'
    '<polygon points="32,30 54,19 54,45 32,56" fill="#d3c3a2" stroke="#3b2a1a"'
    ' stroke-width="1.5" stroke-linejoin="round"/>'
    '<g fill="#1d150e" font-family="Georgia, \'DejaVu Serif\', serif" font-weight="700"'
    ' text-anchor="middle">'
    '<text font-size="14" transform="translate(21 43) skewY(26.6)">64</text>'
    '<text font-size="15" transform="translate(43 43) skewY(-26.6)">2</text>'
    '<text font-size="11" transform="translate(32 23) scale(1 0.5) rotate(45)">32</text>'
    "</g>"
)

_KING = (
    '<rect width="64" height="64" fill="#7b1e22"/>'
    '<ellipse cx="32" cy="52" rx="20" ry="5" fill="#000000" opacity="0.25"/>'
    + "".join(
        f'<path d="M12 {y} v7 a20 7 0 0 0 40 0 v-7 Z" fill="#d9ccb0" stroke="#8c7a5b"'
        ' stroke-width="1.3"/>'
        f'<ellipse cx="32" cy="{y}" rx="20" ry="7" fill="#f4ecda" stroke="#8c7a5b"'
        ' stroke-width="1.3"/>'
        f'<ellipse cx="32" cy="{y}" rx="13" ry="4.5" fill="none" stroke="#786446"'
        ' stroke-opacity="0.5" stroke-width="1.5"/>'
        for y in (42, 32)
    )
    + '<path d="M21 28 L21 15 L26.5 21 L32 11 L37.5 21 L43 15 L43 28 Z" fill="#f2b705"'
    ' stroke="#6b4a00" stroke-width="1.5" stroke-linejoin="round"/>'
)

_CROWN = (
    '<rect width="64" height="64" fill="#3c1f5c"/>'
    '<circle cx="32" cy="34" r="26" fill="#4b2a70"/>'
    '<path d="M11 44 L9 21 L21 31 L32 13 L43 31 L55 21 L53 44 Z" fill="#f5c518"'
    ' stroke="#8a6400" stroke-width="1.8" stroke-linejoin="round"/>'
    '<rect x="11" y="43" width="42" height="8" rx="2" fill="#e0a800" stroke="#8a6400"'
    ' stroke-width="1.8"/>'
    '<circle cx="9" cy="20" r="3.4" fill="#e63946"/>'
    '<circle cx="32" cy="12" r="3.8" fill="#4cc9f0"/>'
    '<circle cx="55" cy="20" r="3.4" fill="#e63946"/>'
    '<circle cx="22" cy="47" r="2.2" fill="#e63946"/>'
    '<circle cx="32" cy="47" r="2.4" fill="#2ec4b6"/>'
    '<circle cx="42" cy="47" r="2.2" fill="#e63946"/>'
)

EMBLEMS: dict[str, str] = {
    "avatar:die": _DIE,
    "avatar:stack": _STACK,
    "avatar:moon": _MOON,
    "avatar:star": _STAR,
    "avatar:anchor": _ANCHOR,
    "avatar:cube": _CUBE,
    "avatar:king": _KING,
    "avatar:crown": _CROWN,
}
"""The shapes of each shop avatar, inside ``<svg viewBox="0 0 64 64">``."""
