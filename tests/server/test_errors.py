"""Which errors say "the database cannot be reached" (503 ``unavailable``, retried by the
socket's writer) rather than "the server failed" (issue 20): the cluster bench's
PostgreSQL outage showed a server shutting down answered as ``internal``."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import exc
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_dbapi

from sheshbesh.server.errors import as_api_error, database_unreachable


def wrapped(error: Exception) -> exc.DBAPIError:
    """``error`` as SQLAlchemy hands it up from asyncpg at connect time."""
    adapted = AsyncAdapt_asyncpg_dbapi.Error(str(error), error)
    return exc.DBAPIError(None, None, adapted)


@pytest.mark.parametrize(
    "error",
    [
        wrapped(asyncpg.CannotConnectNowError("the database system is shutting down")),
        wrapped(asyncpg.CannotConnectNowError("the database system is starting up")),
        wrapped(asyncpg.AdminShutdownError("terminating connection due to administrator command")),
        ConnectionRefusedError(111, "Connection refused"),
        ConnectionResetError(104, "Connection reset by peer"),
    ],
)
def test_a_database_going_down_or_coming_up_is_unavailable(error: Exception) -> None:
    assert database_unreachable(error)
    refusal = as_api_error(error)
    assert (refusal.status, refusal.code, refusal.retry_after) == (503, "unavailable", 2)


def raised_in(module: str, error: Exception) -> Exception:
    """``error`` as raised by code of ``module`` (its innermost frame there)."""
    namespace: dict[str, object] = {"__name__": module}
    exec("def fail(error):\n    raise error\n", namespace)
    try:
        namespace["fail"](error)  # type: ignore[operator]
    except Exception as raised:
        return raised
    raise AssertionError("not raised")


def test_a_connection_asyncpg_drops_while_connecting_is_unavailable() -> None:
    """asyncpg's connect raises a bare ``ConnectionError('unexpected connection_lost()
    call')`` when a server going down drops the connection it had just accepted."""
    lost = raised_in("asyncpg.connect_utils", ConnectionError("unexpected connection_lost() call"))
    assert database_unreachable(lost)
    assert as_api_error(lost).code == "unavailable"
    # The same error raised anywhere else (a client's socket, say) is no outage.
    assert not database_unreachable(raised_in("uvicorn.protocols", ConnectionError("gone")))


def test_a_failing_statement_is_not_an_outage() -> None:
    duplicate = wrapped(asyncpg.UniqueViolationError("duplicate key value"))
    assert not database_unreachable(duplicate)
    with pytest.raises(exc.DBAPIError):
        as_api_error(duplicate)
