"""The ASGI app: ``create_app(settings)`` wires the domains, the database and the bus.

At start it applies the migrations, connects the bus (Redis with ``REDIS_URL``)
and loads every live game so their clocks keep running (a restart after a
crash resumes every game from its stored log). Time, randomness and ids may be
injected for tests (STYLE).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import func, select

from sheshbesh.store.db import Database
from sheshbesh.store.models import Account
from sheshbesh.web import STATIC

from . import (
    auth,
    avatars,
    bots,
    channel,
    chat,
    lobby,
    notify,
    presence,
    rematch,
    shop,
    social,
    spectate,
    wallet,
    web,
)
from .bots import BotHost
from .club import Club, new_id
from .errors import ApiError, TooMany, as_api_error
from .pubsub import make_bus
from .round import Rounds
from .settings import Settings


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
        db = Database(settings.database_url)
        await db.migrate()
        bus = make_bus(settings.redis_url)
        await bus.start()
        club = Club(settings, db, bus, now=now, new_id=make_id, new_seed=new_seed)
        club.rounds = Rounds(club)
        if settings.bots:
            club.bots = BotHost(club)
        app.state.club = club
        if db.is_sqlite:
            await spectate.reset_spectators(club)
        await club.rounds.start()
        await presence.start(club)
        if club.bots is not None:
            await club.bots.start()
        try:
            yield
        finally:
            if club.bots is not None:
                club.bots.stop()
            club.rounds.stop()
            await presence.stop(club)
            await bus.stop()
            await db.close()

    app = FastAPI(
        title="sheshbesh",
        summary="An online club for the backgammon family and International draughts",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.add_middleware(auth.CsrfMiddleware, secure=settings.secure_cookies)
    app.add_middleware(web.SecurityHeaders)
    for router in (
        auth.router,
        lobby.router,
        spectate.router,
        wallet.router,
        bots.router,
        bots.analysis_router,
        rematch.router,
        shop.router,
        avatars.router,
        social.router,
        notify.router,
        chat.router,
    ):
        app.include_router(router)
    app.include_router(lobby.socket_router)
    app.include_router(presence.router)
    app.include_router(channel.router)
    app.include_router(web.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(int(error.retry_after))} if isinstance(error, TooMany) else {}
        return JSONResponse(error.to_json(), status_code=error.status, headers=headers)

    @app.exception_handler(ValueError)
    async def typed_error(request: Request, error: ValueError) -> JSONResponse:
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
