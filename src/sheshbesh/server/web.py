"""Serving the browser client: ``/`` is the one page, ``/static`` its files.

Every response gets security headers: a Content-Security-Policy that allows only
the club's own scripts, styles, images and sockets (no inline script, so an
injected string can never run), no framing, no MIME sniffing. Every request
body is limited at the edge (:class:`BodyLimit`), before any route reads it, and
a JSON body is strict JSON (:func:`strict_json`) before any route acts on it.
"""

from __future__ import annotations

import json
from email.message import Message as Header
from typing import Any

import orjson
from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sheshbesh.server.errors import ApiError
from sheshbesh.web import STATIC

router = APIRouter(include_in_schema=False)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


async def strict_json(connection: HTTPConnection) -> None:
    """Refuse (422 ``invalid_request``) a JSON body the routes should never see: a lone
    surrogate (``"\\ud800"``, which the database cannot encode: a 500, after a login
    attempt was counted), ``NaN`` or ``Infinity``. The standard library's parser, which
    FastAPI uses, takes all three; orjson takes none. A dependency of every route, run
    before the route's own code, on the body FastAPI has already read and kept.
    """
    if not isinstance(connection, Request) or not _is_json(connection.headers):
        return
    body = await connection.body()
    if not body:
        return
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise ApiError(f"the body is not valid JSON: {error}", status=422,
                       code="invalid_request") from None  # fmt: skip


def _is_json(headers: Any) -> bool:
    """Whether FastAPI reads this body as JSON: no content type, or a JSON one."""
    kind = headers.get("content-type")
    if not kind:
        return True
    header = Header()
    header["content-type"] = kind
    subtype = header.get_content_subtype()
    return subtype == "json" or subtype.endswith("+json")


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with 413 ``too_large``, then closes.

    A declared ``Content-Length`` over the limit is answered from the headers, before
    a byte of the body is read. A body of unknown length (chunked) is counted as it
    streams: at the limit the 413 goes out and the route reads the end of the
    request, so the rest is never buffered (issue 16: four 100 MB bodies at once
    took the server to 1 GB). WebSocket frames have their own limit (``max_frame``).
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.limit <= 0:
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await self._refuse(send)
            return
        received = 0
        refused = started = False

        async def counted() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await self._refuse(send)
                    return {"type": "http.disconnect"}  # the route stops reading here
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 went out; the route's own answer to a cut body is dropped
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, sending)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"error": "too_large", "message": f"a request body is at most {self.limit} bytes"}
        ).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
