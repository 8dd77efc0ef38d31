"""serving.Cork: what one turn of the event loop writes leaves in one go, in order, and
closing or ending the stream sends what waits first (real sockets, no stand-ins)."""

from __future__ import annotations

import asyncio

from sheshbesh.server.serving import Cork


class Sink(asyncio.Protocol):
    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.ended = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)

    def eof_received(self) -> bool:
        self.ended.set_result(b"".join(self.chunks))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended.done():
            self.ended.set_result(b"".join(self.chunks))


async def _pair() -> tuple[Cork, Sink, asyncio.Server]:
    loop = asyncio.get_running_loop()
    sinks: list[Sink] = []

    def make() -> Sink:
        sinks.append(Sink())
        return sinks[-1]

    server = await loop.create_server(make, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
    while not sinks:
        await asyncio.sleep(0)
    return Cork(transport, loop), sinks[0], server  # type: ignore[arg-type]


def test_writes_of_one_turn_wait_for_its_end_and_leave_together_in_order() -> None:
    async def scenario() -> None:
        cork, sink, server = await _pair()
        try:
            for part in (b"event,", b"state,", b"legal;"):
                cork.write(part)
            assert cork.transport.get_write_buffer_size() == 0 and cork.waiting  # held back
            await asyncio.sleep(0)  # the turn ends: one write to the socket
            assert not cork.waiting
            cork.write(b"next;")
            cork.write_eof()  # sends what waits first
            assert await asyncio.wait_for(sink.ended, 10) == b"event,state,legal;next;"
            cork.write(b"after the end")  # goes nowhere, as on an ended stream
            assert not cork.waiting
        finally:
            cork.close()
            server.close()

    asyncio.run(scenario())


def test_close_sends_what_waits_and_abort_drops_it() -> None:
    async def scenario() -> None:
        cork, sink, server = await _pair()
        try:
            cork.write(b"close frame")
            cork.close()
            assert await asyncio.wait_for(sink.ended, 10) == b"close frame"
            cork2, sink2, server2 = await _pair()
            cork2.write(b"never sent")
            cork2.abort()
            assert await asyncio.wait_for(sink2.ended, 10) == b""
            server2.close()
        finally:
            server.close()

    asyncio.run(scenario())
