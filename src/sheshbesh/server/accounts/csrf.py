"""CSRF: double-submit tokens for state-changing HTTP, and the Origin check for sockets.

Every browser gets a random ``csrf`` cookie (SameSite=Strict, readable by the
page); a POST, PUT, PATCH or DELETE under ``/api`` must repeat it in
``X-CSRF-Token``. A page on another site can neither read the cookie nor set the
header, so it cannot act for a logged-in player. A WebSocket cannot carry the
header, so every socket (game, lobby, ``/ws/me``) checks its Origin instead
(:func:`same_origin`).
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

CSRF_COOKIE = "csrf"
CSRF_HEADER = "x-csrf-token"


def same_origin(ws: WebSocket) -> bool:
    """A browser's socket must come from our own pages (no cross-site WebSocket hijacking)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: cookies are the client's own
    return urlsplit(origin).netloc == ws.headers.get("host")


class CsrfMiddleware:
    """Double-submit CSRF protection for every state-changing ``/api`` request.

    Each browser gets a random ``csrf`` cookie (SameSite=Strict, readable by the
    page); a POST, PUT, PATCH or DELETE must repeat it in ``X-CSRF-Token``. A
    page on another site can neither read the cookie nor set the header, so it
    cannot act for a logged-in player. WebSockets check their Origin instead
    (:func:`same_origin`).
    """

    SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp, *, secure: bool = False) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        cookie = cookie_parser(headers.get("cookie", "")).get(CSRF_COOKIE, "")
        token = cookie if 20 <= len(cookie) <= 100 else secrets.token_urlsafe(24)
        scope.setdefault("state", {})["csrf"] = token
        if scope["method"] not in self.SAFE and scope["path"].startswith("/api/"):
            sent = headers.get(CSRF_HEADER, "")
            if not cookie or not sent or not hmac.compare_digest(sent, cookie):
                await _refuse(send, token, self.secure)
                return
        if token == cookie:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], _csrf_header(token, self.secure)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _csrf_header(token: str, secure: bool) -> tuple[bytes, bytes]:
    value = f"{CSRF_COOKIE}={token}; Path=/; SameSite=Strict" + ("; Secure" if secure else "")
    return b"set-cookie", value.encode()


async def _refuse(send: Send, token: str, secure: bool) -> None:
    body = (
        b'{"error":"csrf","message":"missing or wrong CSRF token: send the csrf cookie\'s value'
        b' in the X-CSRF-Token header"}'
    )
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                _csrf_header(token, secure),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
