"""How the club is served: uvicorn's options, and its WebSocket protocol made fair to others.

``sheshbesh serve`` and the tests' servers run the app with :data:`UVICORN`. Its
WebSocket protocol is uvicorn's own (websockets' sans-I/O one) with two changes,
both for a client that floods (issue 16; ``bench/abuse.py`` measures them):

* **Parsing in slices.** uvicorn parses all that one read brought (up to 256 KiB:
  some 18 000 small frames) before anything else may run, a stall of a few
  hundred milliseconds for everyone. Here at most :data:`SLICE` bytes are parsed
  at a time; the rest waits, with reading paused, until the app has taken the
  frames parsed so far.
* **A quick close for abuse.** A socket the app closes with
  :data:`limits.CLOSE_CODE` (4429) is not read any more: it gets its close frame
  and the end of the stream, and is dropped a second later. uvicorn would wait up
  to 10 s for the close to be echoed, parsing and dropping all the client still
  sends; a flooder never echoes it. The code still reaches the client, which
  reads the close frame before the connection ends (RFC 6455 §7.1.5).

A refusal before the handshake (HTTP 429, ``limits.admit``) is also marked
complete, which uvicorn would log as an error each time.

And one change for speed: **one system call a turn of the event loop.** uvicorn
writes each frame to the socket as it is sent, and a move sends each socket
three or four frames (its events, the state, a menu) in one go: a system call
each, among the largest costs of a move in the cluster's profile. Here a
socket's writes wait in :class:`Cork` until the loop's turn ends and leave
together, still as separate frames (the client sees nothing different).

All three rely on a few of uvicorn's attributes (``queue``, ``read_paused``,
``close_timer``, ``transport``); ``tests/server/test_floods.py`` and
``tests/server/test_cork.py`` run through them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import CLOSE_CODE

SLICE = 4096
"""Bytes of a client's input parsed at a time (a few hundred small frames, a few ms)."""
LINGER = 1.0
"""Seconds a connection closed for abuse is kept (unread) so the close frame arrives."""


class Cork:
    """A transport whose writes in one turn of the event loop go out in one system call,
    in the order they were made; closing or ending the stream sends what waits first."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self.loop = loop
        self.waiting: list[bytes] = []
        self.ended = False
        """The stream was ended or dropped: later writes go nowhere, as they would."""

    def write(self, data: bytes) -> None:
        if self.ended or not data:
            return
        if not self.waiting:
            self.loop.call_soon(self.flush)
        self.waiting.append(data)

    def flush(self) -> None:
        if not self.waiting:
            return
        data = b"".join(self.waiting)
        self.waiting.clear()
        if not self.ended and not self.transport.is_closing():
            self.transport.write(data)

    def write_eof(self) -> None:
        self.flush()
        self.ended = True
        self.transport.write_eof()

    def close(self) -> None:
        self.flush()
        self.ended = True
        self.transport.close()

    def abort(self) -> None:
        self.waiting.clear()
        self.ended = True
        self.transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class FairWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, parsing in slices, closing abuse at once, and
    writing what one turn of the event loop sends in one system call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.backlog = bytearray()
        """Input read but not parsed yet (reading is paused while there is any)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.transport = Cork(self.transport, self.loop)  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if self.backlog:
            self.backlog += data
        else:
            self.parse(data)

    def parse(self, data: bytes) -> None:
        """Parse slice after slice until a frame is queued for the app; keep the rest."""
        view = memoryview(data)
        while view:
            super().data_received(bytes(view[:SLICE]))
            view = view[SLICE:]
            if not self.queue.empty() or self.transport.is_closing():
                break
        if view and not self.transport.is_closing():
            self.backlog += view
            if not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()

    async def receive(self) -> Any:
        message = await self.queue.get()
        if self.queue.empty() and self.backlog:
            data = bytes(self.backlog)
            self.backlog.clear()
            self.parse(data)
        if self.read_paused and self.queue.empty() and not self.backlog:
            self.read_paused = False
            self.transport.resume_reading()
        return message

    async def send(self, message: Any) -> None:
        await super().send(message)
        kind = message["type"]
        if kind == "websocket.close" and message.get("code") == CLOSE_CODE:
            self.hang_up()
        elif kind == "websocket.http.response.body" and self.close_sent:
            self.handshake_complete = True  # a refusal is a whole answer, not an error

    def hang_up(self) -> None:
        """Read nothing more; send the close frame and then the end of the stream (FIN),
        and drop the connection :data:`LINGER` seconds later. (Closing at once with input
        unread would reset the connection, and the client might lose the close frame.)"""
        if self.close_timer is not None:
            self.close_timer.cancel()
        self.backlog.clear()
        self.read_paused = True
        self.transport.pause_reading()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.close_timer = self.loop.call_later(LINGER, self.transport.abort)


UVICORN: dict[str, Any] = {"ws": FairWebSockets, "ws_max_size": 64 * 1024}
"""uvicorn's options for the club (the app limits frames to ``max_frame`` itself; a
frame over ``ws_max_size`` closes the socket before the app sees it)."""
