"""How much one client may ask of the club over sockets (issue 16: one socket stalled everyone).

Every socket (the game's, the lobby's, ``/ws/me``) is admitted by :func:`admit`:
an address may open ``socket_open_rate`` sockets a second (a burst of
``socket_open_burst``; faster is refused with HTTP 429 before the handshake
ends) and hold ``sockets_per_address`` open in this process (the next one gets a
``too_many_sockets`` error and is closed with :data:`CLOSE_CODE`). Each socket gets a
:class:`Budget` for the frames it sends: a token bucket of ``frame_rate`` frames
a second with room for a burst of ``frame_burst``. A frame over budget is
dropped; the first of a run is answered with one ``rate_limited`` error (at most
one a second), and a socket that goes on until ``frame_strikes`` frames were
dropped since it last calmed down (its bucket full again) is closed with
:data:`CLOSE_CODE`. lila-ws drops a flooding client's messages the same way
and logs it once per window.

The counts are per process and in memory, like the chat's flood rules: a
restart forgets them, and a client spread over several processes gets each
one's allowance.

>>> budget = Budget(rate=2, burst=3, strikes=2, clock=lambda: 0.0)
>>> [budget.spend().name for _ in range(7)]
['PASS', 'PASS', 'PASS', 'WARN', 'DROP', 'CLOSE', 'CLOSE']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from enum import Enum

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from .club import Club
from .protocol import error_frame

log = logging.getLogger(__name__)
CLOSE_CODE = 4429
"""The close code of a socket closed for sending too much (4000 + HTTP's 429)."""
WARN_EVERY = 1.0
"""Seconds between two ``rate_limited`` errors on one socket."""
TARPIT, TARPIT_WAIT = 256, 1.0
"""How many refused openings may wait, and how long each waits for its 429 (on average;
jittered, so that the refusals of a client opening sockets in a loop do not come back
together): such a client then asks ten times less often. Beyond that, refused at once."""
FLOOD_PENALTY = 1.0
"""Seconds of its opening budget an address loses when one of its sockets is closed
for flooding."""
SWEEP_EVERY = 1000
"""Sockets opened between two sweeps of the addresses' opening budgets."""


class Verdict(Enum):
    PASS = "pass"
    """Within budget: handle the frame."""
    WARN = "warn"
    """Over budget: drop it and say so (the first of a run)."""
    DROP = "drop"
    """Over budget: drop it silently (the client has been told)."""
    CLOSE = "close"
    """Over budget for too long: close the socket."""


class Budget:
    """A token bucket of ``rate`` frames a second holding up to ``burst``, and the
    frames dropped since it was last full (``strikes`` of them close the socket)."""

    def __init__(self, rate: float, burst: float, strikes: float = math.inf, *,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.rate = rate
        self.burst = burst
        self.strikes = strikes
        self.clock = clock
        self.tokens = burst
        self.at = clock()
        self.dropped = 0
        self.warned = -math.inf

    def refill(self) -> float:
        """Add the tokens earned since the last look; the time now."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return now

    def spend(self) -> Verdict:
        """Take one frame's token, or say what to do with a frame over budget."""
        now = self.refill()
        if self.tokens >= self.burst:
            self.dropped = 0  # calm again: earlier strikes are forgiven
        if self.tokens >= 1:
            self.tokens -= 1
            return Verdict.PASS
        self.dropped += 1
        if self.dropped > self.strikes:
            return Verdict.CLOSE
        if now - self.warned >= WARN_EVERY:
            self.warned = now
            return Verdict.WARN
        return Verdict.DROP

    def retry(self) -> float:
        """Seconds until the next frame would pass."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else math.inf

    def warning(self, re: str, what: str = "frames") -> str:
        """The ``rate_limited`` error frame for a dropped frame."""
        wait = self.retry()
        message = (f"slow down: at most {self.rate:g} {what} a second on this socket; "
                   f"{what} sent faster are dropped (wait {wait:.1f} s)")  # fmt: skip
        return error_frame("rate_limited", message, re, retry=round(wait, 2))


class Sockets:
    """This process's open sockets per client address, and its addresses' opening budgets."""

    def __init__(self, club: Club) -> None:
        self.settings = club.settings
        self.open: Counter[str] = Counter()
        self.opening: dict[str, Budget] = {}
        self.opened = 0
        self.waiting = 0

    def may_open(self, address: str) -> bool:
        """Spend a token of the address's opening budget (False: it is spent)."""
        settings = self.settings
        self.opened += 1
        if self.opened % SWEEP_EVERY == 0:
            self.sweep()
        budget = self.opening.get(address)
        if budget is None:
            rate, burst = settings.socket_open_rate, settings.socket_open_burst
            budget = self.opening[address] = Budget(rate, burst)
        return budget.spend() is Verdict.PASS

    def penalise(self, address: str) -> None:
        """A socket of this address was closed for flooding: its opening budget is spent,
        and :data:`FLOOD_PENALTY` seconds' more (a flooder cannot simply reopen at once)."""
        budget = self.opening.get(address)
        if budget is not None:
            budget.refill()
            budget.tokens = min(budget.tokens, 0.0) - FLOOD_PENALTY * budget.rate

    def enter(self, address: str) -> bool:
        cap = self.settings.sockets_per_address
        if cap > 0 and self.open[address] >= cap:
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def sweep(self) -> None:
        """Forget the opening budgets that are full again (memory stays bounded)."""
        for address, budget in list(self.opening.items()):
            budget.refill()
            if budget.tokens >= budget.burst:
                del self.opening[address]


def sockets_of(club: Club) -> Sockets:
    found = club.extras.get("sockets")
    if found is None:
        found = club.extras["sockets"] = Sockets(club)
    assert isinstance(found, Sockets)
    return found


class Guard:
    """One admitted socket: its place among its address's sockets and its frame budget."""

    def __init__(self, club: Club, ws: WebSocket, address: str) -> None:
        settings = club.settings
        self.club = club
        self.ws = ws
        self.address = address
        self.budget = Budget(settings.frame_rate, settings.frame_burst, settings.frame_strikes)
        self.left = False
        self.flooded = False
        """Set once the client sent :attr:`Budget.strikes` frames too many: close the socket."""

    async def admits(self, tell: Callable[[str], Awaitable[None] | None]) -> bool:
        """Whether to handle the frame just received. Every frame first lets the other
        sockets and requests run (a flood must not hold the event loop); one over budget
        is dropped, the client may be ``tell``-ed so, and the guard may turn
        :attr:`flooded` (the caller then closes the socket with :meth:`close`)."""
        await asyncio.sleep(0)
        verdict = self.budget.spend()
        if verdict is Verdict.PASS:
            return True
        if verdict is Verdict.WARN:
            told = tell(self.budget.warning("frame"))
            if told is not None:
                await told
        elif verdict is Verdict.CLOSE and not self.flooded:
            self.flooded = True
            sockets_of(self.club).penalise(self.address)
            log.info("%s %s closed: over %g frames a second, %d dropped", self.address,
                     self.ws.url.path, self.budget.rate, self.budget.dropped)  # fmt: skip
        return False

    @property
    def reason(self) -> str:
        return f"too many frames: over {self.budget.rate:g} a second"

    async def close(self) -> None:
        """Close the socket for flooding (its handler returns and releases it)."""
        with contextlib.suppress(RuntimeError):  # already closed
            await self.ws.close(code=CLOSE_CODE, reason=self.reason)

    def release(self) -> None:
        if not self.left:
            self.left = True
            sockets_of(self.club).leave(self.address)


async def stopped(reader: asyncio.Task[None] | None) -> None:
    """Cancel a socket's reader task and collect its end, so that a client gone in the
    middle of a frame leaves no "exception was never retrieved" traceback in the log."""
    if reader is None:
        return
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
        await reader


async def next_frame(ws: WebSocket, guard: Guard) -> str | bytes | None:
    """The next frame the guard admits (dropped ones are told ``rate_limited``), or None
    once the client has left or the socket was closed for flooding."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        if await guard.admits(ws.send_text):
            frame: str | bytes = message.get("text") or message.get("bytes") or b""
            return frame
        if guard.flooded:
            await guard.close()
            return None


def address_of(ws: WebSocket) -> str:
    return ws.client.host if ws.client is not None else "?"


async def admit(club: Club, ws: WebSocket) -> Guard | None:
    """Accept the socket if its address may open one more, else refuse it clearly (None).

    Opening faster than ``socket_open_rate`` is refused before the handshake ends,
    with HTTP 429 after :data:`TARPIT_WAIT` (the cheapest answer to a client opening
    sockets in a loop: the handshake is the cost, and it comes ten times less often); a
    socket over ``sockets_per_address`` is accepted, told ``too_many_sockets`` and
    closed with :data:`CLOSE_CODE`. The caller releases the guard when the socket ends.
    """
    address = address_of(ws)
    sockets = sockets_of(club)
    if not sockets.may_open(address):
        if sockets.waiting < TARPIT:  # a client opening in a loop waits for each refusal
            sockets.waiting += 1
            try:
                await asyncio.sleep(TARPIT_WAIT * (0.5 + random.random()))
            finally:
                sockets.waiting -= 1
        rate = club.settings.socket_open_rate
        body = {"error": "rate_limited",
                "message": f"at most {rate:g} new sockets a second from one address"}  # fmt: skip
        wait = str(max(1, math.ceil(1 / rate))) if rate > 0 else "60"
        response = JSONResponse(body, status_code=429, headers={"Retry-After": wait})
        with contextlib.suppress(RuntimeError):
            await ws.send_denial_response(response)
        return None
    await ws.accept()
    if not sockets.enter(address):
        cap = club.settings.sockets_per_address
        message = f"at most {cap} open sockets per address; close a tab and try again"
        with contextlib.suppress(RuntimeError):  # the client left already
            await ws.send_text(error_frame("too_many_sockets", message, "socket"))
            await ws.close(code=CLOSE_CODE, reason="too many sockets from one address")
        return None
    return Guard(club, ws, address)
