"""Errors at the edge: every refusal is a status, a stable code and a clear message.

Typed errors from the layers below (``IllegalPlay``, ``NotYourTurn``,
``InsufficientFunds``…) are mapped here once, so routes and the WebSocket round
raise what they mean and never build responses for errors by hand.
"""

from __future__ import annotations

import logging
from typing import Any

from sheshbesh.games.draughts.errors import DraughtsError
from sheshbesh.games.errors import GameError
from sheshbesh.play.clock import ClockError
from sheshbesh.play.dice import DiceError
from sheshbesh.play.errors import IllegalAction, InvalidOptions, NotYourTurn, PlayError
from sheshbesh.store.ledger import InsufficientFunds


class BadAction(ValueError):
    """A client's action frame that names no action or has malformed fields."""


class ApiError(Exception):
    """A refusal with an HTTP status and a machine-readable code."""

    status = 400
    code = "bad_request"
    retry_after: float | None = None
    """Seconds after which asking again may succeed (sent as Retry-After); None: not said."""

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message}


class NotFound(ApiError):
    status, code = 404, "not_found"


class Unauthorized(ApiError):
    status, code = 401, "login_required"


class Forbidden(ApiError):
    status, code = 403, "forbidden"


class Conflict(ApiError):
    status, code = 409, "conflict"


class TooMany(ApiError):
    status, code = 429, "rate_limited"
    retry_after: float

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


UNREACHABLE = "the club's database is unreachable for a moment: nothing was changed; try again"


CONNECTION_STATES = ("08", "57P01", "57P02", "57P03")
"""PostgreSQL's SQLSTATEs for a connection lost or refused (class 08) and for a server
shutting down or not yet accepting (57P01-57P03: "the database system is shutting down",
"… is starting up"): asyncpg reports these at connect time as plain errors."""


def database_unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (a restart, a network cut),
    not that a statement was wrong: the transaction rolled back, and a retry may pass."""
    from sqlalchemy import exc

    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, exc.OperationalError | exc.InterfaceError | exc.DisconnectionError):
        return True
    if isinstance(error, exc.DBAPIError):  # a server going down or up says so by its state
        return str(getattr(error.orig, "sqlstate", "")).startswith(CONNECTION_STATES)
    # asyncpg's own, unwrapped at connect time, and the socket errors of connecting: a
    # refused or reset connection can only be the database's (the club connects to nothing
    # else but Redis, whose client wraps its own), while a client's socket going away is not.
    if isinstance(error, ConnectionRefusedError | ConnectionResetError):
        return True
    # asyncpg's connect raises a bare ConnectionError when a server going down or coming
    # up drops the connection it has just accepted (the cluster bench's outage saw it).
    return type(error).__module__.startswith("asyncpg") or (
        isinstance(error, ConnectionError) and _raised_in_asyncpg(error)
    )


def _raised_in_asyncpg(error: BaseException) -> bool:
    """Whether ``error`` was raised inside asyncpg (its innermost frame is asyncpg's)."""
    tb, module = error.__traceback__, ""
    while tb is not None:
        module, tb = str(tb.tb_frame.f_globals.get("__name__", "")), tb.tb_next
    return module.startswith("asyncpg")


def database_trouble(error: BaseException) -> bool:
    """Whether a background task's ``error`` came from the database rather than from the
    task: unreachable, or a driver error on a connection the outage broke."""
    from sqlalchemy.exc import DBAPIError

    return database_unreachable(error) or isinstance(error, DBAPIError)


def log_failure(logger: logging.Logger, what: str, error: BaseException) -> None:
    """Log a background task's failure: the database away for a moment is a warning in
    one line (it heals by itself), anything else an error with its traceback."""
    if database_trouble(error):
        logger.warning("%s: the database is unreachable (%r)", what, error)
    else:
        logger.error("%s failed", what, exc_info=error)


def as_api_error(error: Exception) -> ApiError:
    """The :class:`ApiError` a lower layer's typed error becomes."""
    if isinstance(error, ApiError):
        return error
    if database_unreachable(error):
        unavailable = ApiError(UNREACHABLE, status=503, code="unavailable")
        unavailable.retry_after = 2
        return unavailable
    if isinstance(error, InsufficientFunds):
        return ApiError(str(error), status=409, code="insufficient_funds")
    if isinstance(error, NotYourTurn):
        return ApiError(str(error), status=409, code="not_your_turn")
    if isinstance(error, InvalidOptions):
        return ApiError(str(error), status=422, code="invalid_options")
    if isinstance(error, BadAction):
        return ApiError(str(error), status=400, code="bad_action")
    if isinstance(error, IllegalAction | PlayError | ClockError):
        return ApiError(str(error), status=409, code="illegal_action")
    if isinstance(error, GameError | DraughtsError):
        return ApiError(str(error), status=409, code="illegal_move")
    if isinstance(error, DiceError):
        return ApiError(str(error), status=400, code="bad_nonce")
    raise error
