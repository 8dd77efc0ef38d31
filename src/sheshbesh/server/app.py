"""The ASGI app: ``create_app(settings)`` wires the domains, the database and the bus.

At start it applies the migrations, connects the bus (Redis with ``REDIS_URL``)
and loads every live game so their clocks keep running (a restart after a
crash resumes every game from its stored log). Time, randomness and ids may be
injected for tests (STYLE).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from sheshbesh.server.accounts import auth, avatars, bindings
from sheshbesh.server.accounts.csrf import CsrfMiddleware, stored_secret
from sheshbesh.server.bots import routes as bot_routes
from sheshbesh.server.bots.host import BotHost
from sheshbesh.server.bots.reviews import Reviewer
from sheshbesh.server.chat import rooms as chat
from sheshbesh.server.lobby import quick, rematch, requests, tables
from sheshbesh.server.lobby import socket as lobby_socket
from sheshbesh.server.lobby.withdrawer import Withdrawer
from sheshbesh.server.money import shop, wallet
from sheshbesh.server.notify import notes as notify
from sheshbesh.server.relations import friends, presence, profiles
from sheshbesh.server.rounds import channel, outage, spectate
from sheshbesh.server.rounds.round import Rounds
from sheshbesh.server.standings import aftermath, farming
from sheshbesh.store.db import Database
from sheshbesh.store.models import Account
from sheshbesh.web import STATIC

from . import web
from .club import Club, new_id
from .errors import ApiError, as_api_error, database_unreachable
from .pubsub import make_bus
from .settings import Settings

log = logging.getLogger(__name__)


def subscribe(club: Club) -> None:
    """Wire the club's domain events: who acts on what another package did.

    The order is the order of effects after a round's change: its notes are
    pushed, presence refreshed, the lobby told, then a bot may think.
    """
    aftermath.subscribe(club)
    farming.subscribe(club)
    notify.subscribe(club)
    presence.subscribe(club)
    lobby_socket.subscribe(club)
    bots = club.find(BotHost)
    if bots is not None:
        bots.subscribe()


def create_app(
    settings: Settings | None = None,
    *,
    now: Callable[[], float] = time.time,
    new_seed: Callable[[], bytes] = lambda: os.urandom(32),
    make_id: Callable[[], str] = new_id,
) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url, linger=settings.group_linger)
        await db.migrate()
        bus = make_bus(settings.redis_url)
        await bus.start()
        secret = settings.secret or await stored_secret(db)
        club = Club(replace(settings, secret=secret), db, bus,
                    now=now, new_id=make_id, new_seed=new_seed)  # fmt: skip
        rounds = Rounds(club)
        club.provide(rounds)
        bots = BotHost(club) if settings.bots else None
        reviewer = Reviewer(club) if settings.bots else None
        for service in (bots, reviewer):
            if service is not None:
                club.provide(service)
        subscribe(club)
        app.state.club = club
        await outage.credit_outage(club)
        if db.is_sqlite:
            await spectate.reset_spectators(club)
        await spectate.spectators_of(club).start()
        await bindings.start(club)
        await rounds.start()
        await presence.start(club)
        withdrawer = Withdrawer(club)
        club.provide(withdrawer)
        withdrawer.start()
        if bots is not None:
            await bots.start()
        try:
            yield
        finally:
            if bots is not None:
                await bots.halt()
            if reviewer is not None:
                await reviewer.halt()
            await spectate.spectators_of(club).stop()
            await withdrawer.stop()
            await rounds.halt()
            await presence.stop(club)
            await bindings.stop(club)
            await bus.stop()
            await db.close()

    app = FastAPI(
        title="sheshbesh",
        summary="An online club for the backgammon family and International draughts",
        version="0.1.0",
        lifespan=lifespan,
        dependencies=[Depends(web.strict_json)],
    )
    app.add_middleware(CsrfMiddleware, secure=settings.secure_cookies)
    app.add_middleware(web.BodyLimit, limit=settings.max_body)
    app.add_middleware(web.SecurityHeaders)
    for router in (
        auth.router,
        quick.router,
        requests.router,
        tables.router,
        spectate.router,
        profiles.router,
        wallet.router,
        bot_routes.router,
        bot_routes.analysis_router,
        bot_routes.table_router,
        rematch.router,
        shop.router,
        avatars.router,
        friends.router,
        notify.router,
        chat.router,
    ):
        app.include_router(router)
    app.include_router(lobby_socket.router)
    app.include_router(presence.router)
    app.include_router(channel.router)
    app.include_router(web.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        retry = error.retry_after
        headers = {} if retry is None else {"Retry-After": str(int(retry))}
        return JSONResponse(error.to_json(), status_code=error.status, headers=headers)

    @app.exception_handler(ValueError)
    async def typed_error(request: Request, error: ValueError) -> JSONResponse:
        return await api_error(request, as_api_error(error))

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(OSError)
    async def unreachable(request: Request, error: Exception) -> JSONResponse:
        """The database went away mid-request (issue 20): a clear 503, the transaction
        rolled back; anything else is the server's own failure."""
        if request.scope["type"] != "http" or not database_unreachable(error):
            raise error
        log.warning("%s %s: the database is unreachable (%r)", request.method,
                    request.url.path, error)  # fmt: skip
        return await api_error(request, as_api_error(error))

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}"
            for e in error.errors()
        ]
        body = {"error": "invalid_request", "message": "; ".join(problems) or "invalid request"}
        return JSONResponse(body, status_code=422)

    @app.get("/healthz", tags=["operations"])
    async def healthz(request: Request) -> dict[str, Any]:
        """Liveness plus the ledger's invariant: the sum of all balances is zero."""
        club: Club = request.app.state.club
        async with club.db.read() as session:
            total = int(
                await session.scalar(select(func.coalesce(func.sum(Account.balance), 0))) or 0
            )
        return {"ok": total == 0, "ledger_total": total, "node": club.settings.node}

    return app
