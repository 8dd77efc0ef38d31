"""Avatars: a generated identicon for everyone, or the shop emblem a player has equipped.

``GET /api/avatars/{username}.svg`` serves the picture. Its URL in the user JSON
carries ``?v=`` (see :func:`avatar_url`), a hash of what is equipped and of the
drawings' version, so browsers may keep an image forever: equipping another
avatar changes the URL. A request without the current ``v`` still gets an ETag
and revalidates.

The SVG never contains text from a user: the identicon is derived from a hash
of the username, and the emblems are fixed shapes (``emblems.py``). It is served
as ``image/svg+xml`` under the club's Content-Security-Policy (``img-src
'self'``), and the page only ever shows it through ``<img>``, where no script in
an SVG could run anyway.
"""

from __future__ import annotations

import colorsys
import hashlib

from fastapi import APIRouter, Request, Response

from sheshbesh.server.club import club_of
from sheshbesh.server.errors import NotFound
from sheshbesh.store.models import User, user_named

from .emblems import EMBLEMS
from .items import DEFAULT_THEME

router = APIRouter(prefix="/api/avatars", tags=["shop"])

ART = "2"
"""The drawings' version: bump it when an emblem or the identicon changes, so caches refresh."""

SIZE = 64
GRID = 5
CELL = 10
MARGIN = (SIZE - GRID * CELL) // 2
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "public, no-cache"


def _hex(hue: float, lightness: float, saturation: float) -> str:
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def identicon_shapes(name: str) -> str:
    """The shapes of the generated avatar of ``name``: a mirrored 5×5 pattern in one hue.

    Deterministic and case-blind (``Ann`` and ``ann`` are one account). The 15
    free cells (three columns, mirrored) and the hue come from SHA-256 of the
    name, so two names share a picture with odds of about one in 5 million.
    """
    digest = hashlib.sha256(name.lower().encode()).digest()
    hue = int.from_bytes(digest[:2], "big") / 65536
    ink = _hex(hue, 0.36 + digest[2] / 255 * 0.1, 0.5 + digest[3] / 255 * 0.25)
    paper = _hex(hue, 0.93, 0.45)
    bits = int.from_bytes(digest[4:8], "big")
    on = {(row, col) for row in range(GRID) for col in range(3) if bits >> (row * 3 + col) & 1}
    if len(on) < 4:  # too sparse to read as a picture: fill the middle column
        on |= {(row, 2) for row in range(GRID)}
    cells = sorted(on | {(row, GRID - 1 - col) for row, col in on})
    rects = "".join(
        f'<rect x="{MARGIN + col * CELL}" y="{MARGIN + row * CELL}"'
        f' width="{CELL}" height="{CELL}"/>'
        for row, col in cells
    )
    return f'<rect width="{SIZE}" height="{SIZE}" fill="{paper}"/><g fill="{ink}">{rects}</g>'


def svg(shapes: str) -> str:
    """A complete, standalone SVG document around ``shapes`` (a 64×64 canvas)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}"'
        f' width="{SIZE}" height="{SIZE}">{shapes}</svg>'
    )


def identicon(name: str) -> str:
    """The generated avatar of ``name`` as an SVG document.

    >>> identicon("ann") == identicon("ANN") != identicon("bob")
    True
    >>> identicon("<script>").count("script")
    0
    """
    return svg(identicon_shapes(name))


def picture(item: str | None, name: str) -> str:
    """The SVG of an avatar item (None or an unknown item: the identicon of ``name``)."""
    shapes = EMBLEMS.get(item or "")
    return svg(shapes) if shapes is not None else identicon(name)


def avatar_version(user: User) -> str:
    """Changes whenever the picture of ``user`` may change (equipped item, drawings)."""
    return hashlib.sha256(f"{ART}|{user.avatar or ''}".encode()).hexdigest()[:10]


def avatar_url(user: User) -> str:
    """Where the user's avatar is, with its version (usernames are URL-safe by their rules)."""
    return f"/api/avatars/{user.username}.svg?v={avatar_version(user)}"


def theme_of(user: User) -> str:
    """The board theme ``user`` wears (the classic one unless he equipped another); it
    travels beside his avatar in every user JSON."""
    return user.theme or DEFAULT_THEME


def svg_response(request: Request, body: str, version: str) -> Response:
    """``body`` as an image, cached forever when asked for at its ``version``, else revalidated."""
    etag = f'"{version}"'
    cache = FOREVER if request.query_params.get("v") == version else REVALIDATE
    headers = {"ETag": etag, "Cache-Control": cache}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="image/svg+xml", headers=headers)


@router.get("/{username}.svg", response_class=Response)
async def avatar_of(username: str, request: Request) -> Response:
    """The player's avatar: his equipped emblem, or the identicon of his name."""
    club = club_of(request)
    async with club.db.read() as session:
        user = await user_named(session, username)
    if user is None:
        raise NotFound(f"no player {username[:20]!r}")
    return svg_response(request, picture(user.avatar, user.username), avatar_version(user))
