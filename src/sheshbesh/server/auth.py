"""Accounts and sessions: register (with the welcome grant), log in and out, who am I.

Passwords are argon2id hashes (argon2-cffi), computed off the event loop. A
session is a random token in an HttpOnly, SameSite=Lax cookie; the database
keeps only its SHA-256, so a leaked table logs nobody in. Wrong passwords are
counted per account in the database, so every server process enforces the same
limit. CSRF: see :class:`CsrfMiddleware`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection, cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheshbesh.store import ledger
from sheshbesh.store.models import LoginAttempt, Session, User

from .avatars import avatar_url, theme_of
from .club import Club, club_of
from .errors import ApiError, Conflict, TooMany, Unauthorized

router = APIRouter(prefix="/api", tags=["accounts"])

SESSION_COOKIE = "sid"
CSRF_COOKIE = "csrf"
CSRF_HEADER = "x-csrf-token"
USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
RESERVED = {"admin", "system", "root", "sheshbesh", "moderator", "anonymous", "guest"}

_HASHERS = {
    "strong": PasswordHasher(),
    "fast": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
}


class Credentials(BaseModel):
    username: str
    password: str


def check_username(name: str) -> str:
    """The username if it follows the rules, else a clear :class:`ApiError`.

    Only letters, digits, ``_`` and ``-``: a name can never carry markup or SQL.

    >>> check_username("Ann_1")
    'Ann_1'
    >>> check_username("<b>x</b>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sheshbesh.server.errors.ApiError: a username is 3-20 letters, digits, '_' or '-', ...
    """
    if not USERNAME.fullmatch(name):
        raise ApiError(
            "a username is 3-20 letters, digits, '_' or '-', starting with a letter",
            status=422,
            code="invalid_username",
        )
    if name.lower() in RESERVED:
        raise ApiError(f"the username {name!r} is reserved", status=422, code="invalid_username")
    return name


def check_password(password: str) -> str:
    if not 8 <= len(password) <= 256:
        raise ApiError("a password is 8-256 characters", status=422, code="invalid_password")
    return password


def hasher(club: Club) -> PasswordHasher:
    return _HASHERS[club.settings.password_profile]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def user_json(user: User) -> dict[str, Any]:
    """A player as every endpoint shows him: avatar URL (versioned) and board theme included."""
    return {"id": user.id, "username": user.username, "is_bot": user.is_bot,
            "avatar": avatar_url(user), "theme": theme_of(user)}  # fmt: skip


async def me_json(session: AsyncSession, user: User) -> dict[str, Any]:
    """The logged-in player: his balance and unread notifications (the header shows both)."""
    from .notify import unread_count  # notify's routes need require_user from here

    return user_json(user) | {"balance": await ledger.balance_of(session, user.id),
                              "unread": await unread_count(session, user.id)}  # fmt: skip


# --- who is asking ------------------------------------------------------------------


async def user_of(club: Club, connection: HTTPConnection) -> User | None:
    """The logged-in user of a request or websocket, or None."""
    token = connection.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    async with club.db.read() as session:
        row = await session.execute(
            select(User, Session.expires_at)
            .join(Session, Session.user_id == User.id)
            .where(Session.token_hash == token_hash(token))
        )
        found = row.first()
    if found is None or found[1] < club.now():
        return None
    user: User = found[0]
    return None if user.closed_at is not None else user  # closed: its sessions count for nothing


async def require_user(request: Request) -> User:
    user = await user_of(club_of(request), request)
    if user is None:
        raise Unauthorized("log in first")
    return user


# --- routes -------------------------------------------------------------------------


@router.post("/register", status_code=201)
async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account with the welcome grant of 100 000 FUN, and log it in."""
    club = club_of(request)
    name = check_username(body.username)
    password = check_password(body.password)
    digest = await asyncio.to_thread(hasher(club).hash, password)
    try:
        async with club.db.transaction() as session:
            user = User(
                username=name,
                username_key=name.lower(),
                password_hash=digest,
                is_bot=False,
                created_at=club.now(),
            )
            session.add(user)
            await session.flush()
            wallet = await ledger.open_wallet(session, user.id)
            grants = await ledger.system_account(session, "grants")
            await ledger.transfer(
                session, "grant", [(grants, -ledger.GRANT), (wallet, ledger.GRANT)], now=club.now()
            )
            token = await _open_session(club, session, user)
            me = await me_json(session, user)
    except IntegrityError:
        raise Conflict(f"the username {name!r} is taken", code="username_taken") from None
    _set_session_cookie(club, response, token)
    return me


async def _check_not_locked(club: Club, session: AsyncSession, key: str, now: float) -> None:
    """Refuse once an account has had too many wrong passwords lately (any process)."""
    failures = await session.scalar(
        select(func.count())
        .select_from(LoginAttempt)
        .where(LoginAttempt.username_key == key)
        .where(LoginAttempt.at > now - club.settings.login_window)
    )
    if (failures or 0) >= club.settings.login_failures:
        raise TooMany(
            "too many wrong passwords for this account; try again in a few minutes",
            retry_after=club.settings.login_window,
        )


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    club = club_of(request)
    key = body.username.lower()[:20]
    now = club.now()
    async with club.db.read() as session:
        await _check_not_locked(club, session, key, now)
        user = await session.scalar(select(User).where(User.username_key == key))
    if user is None or not await _verify(club, user.password_hash, body.password[:256]):
        async with club.db.transaction() as session:
            session.add(LoginAttempt(username_key=key, at=now))
        raise ApiError("wrong username or password", status=401, code="wrong_password")
    if user.closed_at is not None:  # said only to whoever knows the password
        raise ApiError("this account was closed by the club", status=403, code="account_closed")
    async with club.db.transaction() as session:
        await session.execute(delete(LoginAttempt).where(LoginAttempt.username_key == key))
        token = await _open_session(club, session, user)
        me = await me_json(session, user)
    _set_session_cookie(club, response, token)
    return me


class PasswordChange(BaseModel):
    current: str
    new: str


@router.post("/me/password")
async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
    """A new password, given the current one; every other session of the account ends.

    Wrong current passwords count with wrong logins: guessing here is no easier.
    """
    club = club_of(request)
    user = await require_user(request)
    now = club.now()
    async with club.db.read() as session:
        await _check_not_locked(club, session, user.username_key, now)
    if not await _verify(club, user.password_hash, body.current[:256]):
        async with club.db.transaction() as session:
            session.add(LoginAttempt(username_key=user.username_key, at=now))
        raise ApiError("that is not your current password", status=403, code="wrong_password")
    digest = await asyncio.to_thread(hasher(club).hash, check_password(body.new))
    kept = token_hash(request.cookies.get(SESSION_COOKIE, ""))
    async with club.db.transaction() as session:
        me = await session.get(User, user.id)
        assert me is not None
        me.password_hash = digest
        ended = await session.execute(
            delete(Session).where(Session.user_id == user.id, Session.token_hash != kept)
        )
        await session.execute(
            delete(LoginAttempt).where(LoginAttempt.username_key == user.username_key)
        )
    return {"ok": True, "sessions_ended": ended.rowcount}  # type: ignore[attr-defined]


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    club = club_of(request)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        async with club.db.transaction() as session:
            await session.execute(delete(Session).where(Session.token_hash == token_hash(token)))
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    club = club_of(request)
    user = await require_user(request)
    async with club.db.read() as session:
        return await me_json(session, user)


@router.get("/session")
async def current_session(request: Request) -> dict[str, Any]:
    """Who is logged in (``{"me": null}`` for a guest): the page asks this once at load."""
    club = club_of(request)
    user = await user_of(club, request)
    if user is None:
        return {"me": None}
    async with club.db.read() as session:
        return {"me": await me_json(session, user)}


@router.get("/csrf")
async def csrf(request: Request) -> dict[str, str]:
    """The CSRF token to send back in ``X-CSRF-Token`` (also set as the ``csrf`` cookie)."""
    return {"token": request.scope["state"]["csrf"]}


async def _verify(club: Club, digest: str, password: str) -> bool:
    def check() -> bool:
        try:
            return hasher(club).verify(digest, password)
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(check)


async def _open_session(club: Club, session: AsyncSession, user: User) -> str:
    token = secrets.token_urlsafe(32)
    now = club.now()
    expires = now + club.settings.session_days * 86400
    session.add(
        Session(token_hash=token_hash(token), user_id=user.id, created_at=now, expires_at=expires)
    )
    return token


def _set_session_cookie(club: Club, response: Response, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(club.settings.session_days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=club.settings.secure_cookies,
    )


# --- CSRF -----------------------------------------------------------------------------


class CsrfMiddleware:
    """Double-submit CSRF protection for every state-changing ``/api`` request.

    Each browser gets a random ``csrf`` cookie (SameSite=Strict, readable by the
    page); a POST, PUT, PATCH or DELETE must repeat it in ``X-CSRF-Token``. A
    page on another site can neither read the cookie nor set the header, so it
    cannot act for a logged-in player. WebSockets check their Origin instead
    (``round.py``).
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
