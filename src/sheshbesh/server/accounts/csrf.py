"""CSRF: double-submit tokens bound to the session, and the Origin check for sockets.

Every browser gets a ``csrf`` cookie (SameSite=Strict, readable by the page); a
POST, PUT, PATCH or DELETE under ``/api`` must repeat it in ``X-CSRF-Token``. A
page on another site can neither read the cookie nor set the header, so it
cannot act for a logged-in player. The token is bound to the session, as the
double-submit pattern recommends (OWASP's "signed double-submit cookie"): it
is a random nonce and an HMAC of the session cookie and that nonce with the
club's secret, so a cookie and header that someone else chose (planted from a
sibling site, or taken from another session) are refused. A login, a
registration or a logout changes the session, so their response carries a new
token (the page reads the cookie before each request). A WebSocket cannot carry
the header, so every socket (game, lobby, ``/ws/me``) checks its Origin instead
(:func:`same_origin`).

The secret is ``Settings.secret`` (``SHESHBESH_SECRET``); without one the club
makes one on first start and keeps it in the database (:func:`stored_secret`),
so every process on that database signs and checks alike.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from sqlalchemy import select
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from sheshbesh.store.db import Database, insert_new
from sheshbesh.store.models import ClubSecret

from .sessions import SESSION_COOKIE

CSRF_COOKIE = "csrf"
CSRF_HEADER = "x-csrf-token"
SECRET_NAME = "csrf"


def same_origin(ws: WebSocket) -> bool:
    """A browser's socket must come from our own pages (no cross-site WebSocket hijacking)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: cookies are the client's own
    return urlsplit(origin).netloc == ws.headers.get("host")


def new_token(secret: str, session: str) -> str:
    """A fresh token for the session cookie ``session`` ("" for a guest)."""
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_mac(secret, session, nonce)}"


def is_bound(secret: str, session: str, token: str) -> bool:
    """Was ``token`` made by :func:`new_token` for ``session`` with ``secret``?

    >>> token = new_token("s3cret", "session-a")
    >>> is_bound("s3cret", "session-a", token), is_bound("s3cret", "session-b", token)
    (True, False)
    >>> is_bound("another", "session-a", token), is_bound("s3cret", "session-a", "x" * 40)
    (False, False)
    """
    nonce, _, mac = token.partition(".")
    if not nonce or len(token) > 100:
        return False
    return hmac.compare_digest(mac, _mac(secret, session, nonce))


def _mac(secret: str, session: str, nonce: str) -> str:
    message = f"{len(session)}!{session}!{len(nonce)}!{nonce}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def stored_secret(db: Database) -> str:
    """The club's secret kept in the database, made once by whichever process asks first."""
    async with db.transaction() as session:
        made = {"name": SECRET_NAME, "value": secrets.token_urlsafe(32)}
        await session.execute(insert_new(session, ClubSecret, made))
        value = await session.scalar(select(ClubSecret.value).where(ClubSecret.name == SECRET_NAME))
    assert value is not None
    return value


class CsrfMiddleware:
    """Double-submit CSRF protection, bound to the session, for every state-changing
    ``/api`` request (the module's docstring says how)."""

    SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp, *, secure: bool = False) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secret: str = scope["app"].state.club.settings.secret
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        cookies = cookie_parser(headers.get("cookie", ""))
        cookie = cookies.get(CSRF_COOKIE, "")
        valid = is_bound(secret, cookies.get(SESSION_COOKIE, ""), cookie)
        token = cookie if valid else new_token(secret, cookies.get(SESSION_COOKIE, ""))
        scope.setdefault("state", {})["csrf"] = token
        if scope["method"] not in self.SAFE and scope["path"].startswith("/api/"):
            sent = headers.get(CSRF_HEADER, "")
            if not valid or not hmac.compare_digest(sent.encode(), cookie.encode()):
                await _refuse(send, token, self.secure)
                return

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                fresh = None if token == cookie else token
                session = _session_set(message.get("headers", []))
                if session is not None:  # a login, a registration, a logout
                    fresh = new_token(secret, session)
                if fresh is not None:
                    message["headers"] = [
                        *message.get("headers", []),
                        _csrf_header(fresh, self.secure),
                    ]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _session_set(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The session cookie a response sets ("" when it deletes it), or None if it does not."""
    prefix = f"{SESSION_COOKIE}=".encode()
    for name, value in headers:
        if name.lower() == b"set-cookie" and value.startswith(prefix):
            found = value[len(prefix) :].split(b";", 1)[0].strip(b'"').decode("latin-1")
            return "" if b"max-age=0" in value.lower() else found
    return None


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
