"""Accounts: register (with the welcome grant), log in and out, change the password and
the room settings, who am I.

Passwords are argon2id hashes (argon2-cffi), computed off the event loop. Wrong
passwords are counted per name and per address in the database, so every server
process enforces the same limits and no stranger can lock an owner out
(``lockout.py``). Sessions and who is asking: ``sessions.py``; CSRF: ``csrf.py``.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.club import Club, club_of
from sheshbesh.server.errors import ApiError, Conflict
from sheshbesh.store import ledger
from sheshbesh.store.db import serialise
from sheshbesh.store.models import LoginAttempt, Session, User, user_named

from . import lockout, trust
from .bindings import sessions_ended
from .preferences import DEFAULTS, Preferences, prefs_of
from .sessions import SESSION_COOKIE, me_json, require_user, token_hash, user_of

router = APIRouter(prefix="/api", tags=["accounts"])

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


@router.post("/register", status_code=201)
async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account with the welcome grant of 100 000 FUN, and log it in.

    At most so many accounts per address in each window (``signup_limits``): 429
    with ``Retry-After`` beyond, before anything is hashed or written.
    """
    club = club_of(request)
    name = check_username(body.username)
    password = check_password(body.password)
    address = trust.address_of(request)
    async with club.db.read() as session:  # before the costly hash
        await trust.check_signup(club, session, address, club.now())
    digest = await asyncio.to_thread(hasher(club).hash, password)
    try:
        async with club.db.transaction() as session:
            # Under the address's lock: signups sent at one moment count each other.
            await serialise(session, f"signup:{address}")
            await trust.check_signup(club, session, address, club.now())
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
            await trust.record_signup(club, session, address, user.id, club.now())
            await lockout.remember(session, user.id, address, club.now())
            token = await _open_session(club, session, user)
            me = await me_json(club, session, user)
    except IntegrityError:
        raise Conflict(f"the username {name!r} is taken", code="username_taken") from None
    _set_session_cookie(club, response, token)
    return me


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Log in; wrong passwords are limited per name and address (``lockout``), and the
    owner (from an address or a session the account knows) is never locked out by others.
    The attempt counts as a wrong password until its password proves right."""
    club = club_of(request)
    key = body.username.lower()[:20]
    address = trust.address_of(request)
    sid = request.cookies.get(SESSION_COOKIE, "")
    now = club.now()
    async with club.db.transaction() as session:
        await serialise(session, *lockout.guarded(key, address))
        user = await user_named(session, body.username)
        known = user is not None and await lockout.is_known(
            session, user.id, address, token_hash(sid) if sid else None
        )
        await lockout.check_login(club, session, key, address, known, now)
        attempt = await lockout.count_attempt(club, session, key, address, now)
    if user is None or not await _verify(club, user.password_hash, body.password[:256]):
        raise ApiError("wrong username or password", status=401, code="wrong_password")
    if user.closed_at is not None:  # said only to whoever knows the password
        async with club.db.transaction() as session:
            await lockout.withdraw(session, attempt)
        raise ApiError("this account was closed by the club", status=403, code="account_closed")
    async with club.db.transaction() as session:
        await lockout.forget_failures(session, key, address)
        await lockout.remember(session, user.id, address, now)
        token = await _open_session(club, session, user)
        me = await me_json(club, session, user)
    _set_session_cookie(club, response, token)
    return me


class PasswordChange(BaseModel):
    current: str
    new: str


@router.post("/me/password")
async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
    """A new password, given the current one; every other session of the account ends,
    and its sockets close on every process (this session's stay open, as lichess does).

    Wrong current passwords count with wrong logins (from this address): guessing
    here is no easier. This session is limited by its own failures only, so
    strangers' wrong logins never stop its owner from changing the password.
    """
    club = club_of(request)
    user = await require_user(request)
    now = club.now()
    address = trust.address_of(request)
    kept = token_hash(request.cookies.get(SESSION_COOKIE, ""))
    new = check_password(body.new)  # the form first: a refused new password counts nothing
    async with club.db.transaction() as session:
        await serialise(session, f"password-change:{kept}")
        await lockout.check_change(club, session, kept, now)
        await lockout.count_attempt(club, session, user.username_key, address, now, kept)
    if not await _verify(club, user.password_hash, body.current[:256]):
        raise ApiError("that is not your current password", status=403, code="wrong_password")
    digest = await asyncio.to_thread(hasher(club).hash, new)
    async with club.db.transaction() as session:
        me = await session.get(User, user.id)
        assert me is not None
        me.password_hash = digest
        ended = await session.execute(
            delete(Session).where(Session.user_id == user.id, Session.token_hash != kept)
        )
        await session.execute(delete(LoginAttempt).where(LoginAttempt.session_hash == kept))
        await lockout.forget_failures(session, user.username_key, address)
    await sessions_ended(club.bus, user.id)  # their sockets close; this session's stay
    return {"ok": True, "sessions_ended": ended.rowcount}  # type: ignore[attr-defined]


@router.post("/me/preferences")
async def change_preferences(body: Preferences, request: Request) -> dict[str, Any]:
    """Change some of the player's room settings (``preferences``); answers all of them."""
    club = club_of(request)
    user = await require_user(request)
    given = body.given()
    if not given or None in given.values():
        names = ", ".join(DEFAULTS)
        raise ApiError(f"say which settings to change: {names}", status=422, code="invalid_request")
    async with club.db.transaction() as session:
        me = await session.get(User, user.id)
        assert me is not None
        me.prefs = prefs_of(me) | given
        found = await me_json(club, session, me)
    # The player's other tabs turn their boards and sounds from this frame.
    await club.bus.publish_data(f"user:{user.id}", {"t": "me", "d": found})
    return found["prefs"]  # type: ignore[no-any-return]


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    """End this session; its sockets close on every process (``bindings``)."""
    club = club_of(request)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        ended = Session.token_hash == token_hash(token)
        async with club.db.transaction() as session:
            user_id = await session.scalar(select(Session.user_id).where(ended))
            await session.execute(delete(Session).where(ended))
        if user_id is not None:
            await sessions_ended(club.bus, user_id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    club = club_of(request)
    user = await require_user(request)
    async with club.db.read() as session:
        return await me_json(club, session, user)


@router.get("/session")
async def current_session(request: Request) -> dict[str, Any]:
    """Who is logged in (``{"me": null}`` for a guest): the page asks this once at load."""
    club = club_of(request)
    user = await user_of(club, request)
    if user is None:
        return {"me": None}
    async with club.db.read() as session:
        return {"me": await me_json(club, session, user)}


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
