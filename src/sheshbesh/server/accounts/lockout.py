"""Wrong passwords, counted so that guessing is slow and nobody can lock anyone out.

Counting per account alone let anyone lock an account: five wrong passwords
for a name, one a minute, and its owner's right one was refused too. Here every
wrong password is stored with the name, the address it came from and, at a
password change, the session that sent it; in the window (``login_window``):

- an address with ``login_address_failures`` failures, whatever the names, is
  refused (429) whatever it asks: one address cannot guess across accounts;
- a name with ``login_failures`` failures from one address is refused to that
  address;
- a name with ``login_failures`` failures from all addresses together is locked
  for strangers only: a login from an address the account has logged in from,
  or with a session of the account, still gets through with the right password;
- a password change from a live session counts that session's failures only,
  so others' guesses never stop the owner from changing it.

Every stored failure deletes the rows older than the window, so the table
holds at most a window's worth (and an address at most its limit of them).
Each login forgets the account's addresses unused for 180 days.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql import ColumnElement

from sheshbesh.server.club import Club
from sheshbesh.server.errors import TooMany
from sheshbesh.store.db import insert_new
from sheshbesh.store.models import KnownAddress, LoginAttempt, Session


async def _failures(session: AsyncSession, since: float, *where: ColumnElement[bool]) -> int:
    count = await session.scalar(
        select(func.count()).select_from(LoginAttempt).where(LoginAttempt.at > since, *where)
    )
    return int(count or 0)


def _refuse(club: Club, why: str) -> TooMany:
    return TooMany(f"{why}; try again in a few minutes", retry_after=club.settings.login_window)


async def check_login(
    club: Club, session: AsyncSession, key: str, address: str, known: bool, now: float
) -> None:
    """Refuse a login attempt (429) under the rules above; ``known``: the account's owner."""
    settings = club.settings
    since = now - settings.login_window
    if await _failures(session, since, LoginAttempt.address == address) >= (
        settings.login_address_failures
    ):
        raise _refuse(club, "too many wrong passwords from your address")
    named = LoginAttempt.username_key == key
    if await _failures(session, since, named, LoginAttempt.address == address) >= (
        settings.login_failures
    ):
        raise _refuse(club, "too many wrong passwords for this account")
    if not known and await _failures(session, since, named) >= settings.login_failures:
        raise _refuse(club, "too many wrong passwords for this account")


async def check_change(club: Club, session: AsyncSession, session_hash: str, now: float) -> None:
    """Refuse a password change once its own session has guessed too often (429)."""
    since = now - club.settings.login_window
    mine = LoginAttempt.session_hash == session_hash
    if await _failures(session, since, mine) >= club.settings.login_failures:
        raise _refuse(club, "too many wrong passwords for this account")


def guarded(key: str, address: str) -> tuple[str, ...]:
    """What :func:`sheshbesh.store.db.serialise` locks around a login's check and count:
    the name and the address, whose limits the check reads."""
    return f"login-name:{key}", f"login-address:{address}"


async def count_attempt(
    club: Club, session: AsyncSession, key: str, address: str, now: float,
    session_hash: str | None = None,
) -> int:  # fmt: skip
    """Store an attempt as a wrong password *before* its password is checked, and delete
    those older than the window; its row id, to :func:`withdraw` if it proves right.

    Counted after the check, as it once was, a burst of guesses sent at one moment all
    passed the check before any was stored: one address got as many guesses as it
    could send at once. Counted first (under the :func:`guarded` locks), each attempt
    sees every one before it, finished or not.
    """
    attempt = LoginAttempt(username_key=key, address=address, session_hash=session_hash, at=now)
    session.add(attempt)
    await session.execute(
        delete(LoginAttempt).where(LoginAttempt.at <= now - club.settings.login_window)
    )
    await session.flush()
    return int(attempt.id)


async def withdraw(session: AsyncSession, attempt: int) -> None:
    """The attempt's password was right: it no longer counts as a wrong one."""
    await session.execute(delete(LoginAttempt).where(LoginAttempt.id == attempt))


async def forget_failures(session: AsyncSession, key: str, address: str) -> None:
    """The owner got in from ``address``: its own failures for the name no longer count."""
    await session.execute(
        delete(LoginAttempt).where(
            LoginAttempt.username_key == key, LoginAttempt.address == address
        )
    )


async def is_known(
    session: AsyncSession, user_id: int, address: str, session_hash: str | None
) -> bool:
    """Has the account logged in from ``address``, or is ``session_hash`` one of its sessions?"""
    if session_hash is not None:
        own = await session.scalar(
            select(Session.user_id).where(Session.token_hash == session_hash)
        )
        if own == user_id:
            return True
    found = await session.scalar(
        select(KnownAddress.id).where(
            KnownAddress.user_id == user_id, KnownAddress.address == address
        )
    )
    return found is not None


KNOWN_FOR = 180 * 86_400.0
"""Seconds an address stays known after the account last logged in from it."""


async def remember(session: AsyncSession, user_id: int, address: str, now: float) -> None:
    """Keep ``address`` as one the account logs in from (registration, a login), and
    forget those it has not used for :data:`KNOWN_FOR` (the table stays the addresses
    in use, and an address given up, a café's say, stops vouching for a login)."""
    await session.execute(
        delete(KnownAddress).where(
            KnownAddress.user_id == user_id, KnownAddress.last_at < now - KNOWN_FOR
        )
    )
    values = {"user_id": user_id, "address": address, "last_at": now}
    await session.execute(insert_new(session, KnownAddress, values))
    await session.execute(
        update(KnownAddress)
        .where(KnownAddress.user_id == user_id, KnownAddress.address == address)
        .values(last_at=now)
    )
