"""What a club's operator does to an account, from the server's shell (``sheshbesh moderate``).

- **Close** an account: its sessions end at once, it cannot log in (``account_closed``),
  and its open requests and the private challenges made to it are cancelled. Its
  games, ledger and ratings stay as they are: a closed account is hidden from
  nothing and loses no FUN. A live game runs on, and its clock settles it.
- **Reopen** a closed account.
- **Mute** an account's chat for some minutes, or lift a mute. The chat already
  reads the stored mute (``users.chat_muted_until``), in every process.

- **Read the reports** the club wrote about patterns a person should look at
  (``--reports``): today ``farming``, young accounts losing FUN to one account
  (``standings.farming``). Each lists the evidence; deciding is the operator's.

The command works on the database itself, so it needs no running server and
reaches every process of a cluster. A lobby that is open shows a cancelled request
until its next load, and an accept of that request is refused. The closed account's
open sockets close at once on every process when the command can tell them, over
Redis (``REDIS_URL`` or ``--redis``, as for ``serve``); without it, each stops acting
within ``session_check`` seconds and closes within ``session_sweep`` (``bindings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, or_, select, update

from sheshbesh.server.pubsub import Bus
from sheshbesh.store.db import Database
from sheshbesh.store.models import Report, Session, User, user_named
from sheshbesh.store.models import Request as GameRequest

from .bindings import sessions_ended

MAX_MUTE_MINUTES = 365 * 24 * 60


class NoSuchAccount(ValueError):
    """No account has that name."""


@dataclass(frozen=True, slots=True)
class Moderation:
    """One operator action; exactly one of its fields is set."""

    close: bool = False
    reopen: bool = False
    mute_minutes: int | None = None
    unmute: bool = False

    def check(self) -> Moderation:
        chosen = [self.close, self.reopen, self.mute_minutes is not None, self.unmute]
        if sum(chosen) != 1:
            raise ValueError("choose one of: close, reopen, mute, unmute")
        if self.mute_minutes is not None and not 1 <= self.mute_minutes <= MAX_MUTE_MINUTES:
            raise ValueError(f"a mute lasts 1-{MAX_MUTE_MINUTES} minutes")
        return self


async def moderate(db: Database, username: str, action: Moderation, now: float,
                   bus: Bus | None = None) -> dict[str, Any]:  # fmt: skip
    """Apply ``action`` to the account in one transaction; what changed, for the log.
    A close then tells the servers on ``bus`` (if any) that the account's sessions ended."""
    action.check()
    async with db.transaction() as session:
        user = await user_named(session, username)
        if user is None:
            raise NoSuchAccount(f"no account {username!r}")
        done: dict[str, Any] = {"username": user.username}
        if action.close:
            user.closed_at = user.closed_at or now
            ended = await session.execute(delete(Session).where(Session.user_id == user.id))
            cancelled = await session.execute(
                update(GameRequest)
                .where(GameRequest.status == "open")
                .where(or_(GameRequest.owner_id == user.id, GameRequest.invitee_id == user.id))
                .values(status="cancelled")
            )
            done.update(closed=True, sessions_ended=ended.rowcount,  # type: ignore[attr-defined]
                        requests_cancelled=cancelled.rowcount)  # type: ignore[attr-defined]  # fmt: skip
        elif action.reopen:
            user.closed_at = None
            done["closed"] = False
        elif action.mute_minutes is not None:
            user.chat_muted_until = now + action.mute_minutes * 60
            done["muted_until"] = user.chat_muted_until
        else:
            user.chat_muted_until = None
            done["muted_until"] = None
    if action.close and bus is not None:
        await sessions_ended(bus, user.id)
    return done


async def flagged_reports(db: Database) -> list[dict[str, Any]]:
    """Every flagged report, newest first, with its suspect and evidence."""
    async with db.read() as session:
        rows = await session.execute(
            select(Report, User)
            .join(User, User.id == Report.suspect_id)
            .where(Report.flagged_at.is_not(None))
            .order_by(Report.flagged_at.desc())
        )
        return [
            {"id": report.id, "kind": report.kind, "suspect": user.username,
             "closed": user.closed_at is not None, "flagged_at": report.flagged_at,
             "losses": report.detail.get("losses", [])}
            for report, user in rows.all()
        ]  # fmt: skip


class NoSuchReport(ValueError):
    """No flagged report has that id."""


async def dismiss_report(db: Database, report_id: int, now: float) -> dict[str, Any]:
    """The operator looked and found nothing: the report leaves the list, its evidence
    is kept under ``dismissed`` and it is flagged again only on as much new evidence
    (its losses start over)."""
    async with db.transaction() as session:
        report = await session.get(Report, report_id, with_for_update=True)
        if report is None or report.flagged_at is None:
            raise NoSuchReport(f"no flagged report {report_id}")
        suspect = await session.get(User, report.suspect_id)
        detail = dict(report.detail)
        earlier = list(detail.get("dismissed", []))
        earlier.append({"at": now, "flagged_at": report.flagged_at,
                        "losses": detail.get("losses", [])})  # fmt: skip
        report.detail = detail | {"losses": [], "dismissed": earlier}  # a new value: stored
        report.flagged_at = None
    return {"dismissed": report_id, "suspect": None if suspect is None else suspect.username}


__all__ = [
    "MAX_MUTE_MINUTES", "Moderation", "NoSuchAccount", "NoSuchReport", "dismiss_report",
    "flagged_reports", "moderate",
]  # fmt: skip
