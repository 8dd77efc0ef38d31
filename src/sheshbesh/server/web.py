"""Serving the browser client: ``/`` is the one page, ``/static`` its files.

Every response gets security headers: a Content-Security-Policy that allows only
the club's own scripts, styles, images and sockets (no inline script, so an
injected string can never run), no framing, no MIME sniffing. Every request
body is limited at the edge (:class:`BodyLimit`), before any route reads it.
"""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
