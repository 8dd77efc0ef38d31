"""Pub/sub between the parts of the club: ``MemoryBus`` in one process, ``RedisBus``
across several (DESIGN principle 7; the shape of encode/broadcaster's backends).

Channels: ``lobby`` (requests and now-playing), ``game:{id}`` (a round's events)
and ``user:{id}`` (what one player must hear wherever he is). Messages are JSON
text. Each process fans a message out to its local subscribers, which are plain
callbacks that must not block (a socket puts the message on its own queue).

Redis can go away (a restart, a network cut). Messages are not stored, so what
was published while the connection was down is lost; the truth is in the
database. A publish that fails is logged and dropped, never an error for the
move already stored, and once the connection is back the bus calls its
``recovered`` hooks: the game hubs then send each socket what the stored log
has beyond what it heard (``rounds.channel``), so no player misses an event.

The other processes may never have lost their own connection, or got it back
before the drop, so the process that dropped a message also publishes
:data:`CATCH_UP` on that channel once it can: every subscriber must take that
message as "read what this channel tells from the database again" (a game's
sockets their missed events, a lobby socket the whole lobby, a player's page
his hello and "me"), and never hand it on as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from . import wire

Subscriber = Callable[[Any], None]
"""Called with a message's text, or in one process with the published object."""
CONFIRM_TIMEOUT = 10.0
"""Seconds to wait for Redis to confirm a subscription change."""
CATCH_UP = '{"catch_up":true}'
"""A channel's message that says: something published here was lost, read it from the
database (every subscriber knows it; see the module's docstring)."""
log = logging.getLogger(__name__)


class Bus:
    """Local fan-out; subclasses decide how a published message reaches it."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[Subscriber]] = defaultdict(set)
        self.recovered: list[Callable[[], Awaitable[None]]] = []
        """Called once the connection between processes is back after a loss."""

    def on_recovered(self, hook: Callable[[], Awaitable[None]]) -> None:
        self.recovered.append(hook)

    async def recover(self) -> None:
        """Messages may have been lost: let every hook catch up from the database."""
        for hook in list(self.recovered):
            try:
                await hook()
            except Exception:
                log.exception("a recovery hook failed")

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def publish(self, channel: str, message: str) -> None:
        raise NotImplementedError

    async def publish_data(self, channel: str, data: dict[str, Any]) -> None:
        """Publish a JSON object; subscribers get it as text or, in one process, as is."""
        await self.publish(channel, wire.dumps(data))

    async def subscribe(self, channel: str, subscriber: Subscriber) -> None:
        self.subscribers[channel].add(subscriber)

    async def unsubscribe(self, channel: str, subscriber: Subscriber) -> None:
        subscribers = self.subscribers.get(channel)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self.subscribers[channel]

    def deliver(self, channel: str, message: str | dict[str, Any]) -> None:
        for subscriber in list(self.subscribers.get(channel, ())):
            try:
                subscriber(message)
            except Exception:  # one broken subscriber must not starve the others
                log.exception("subscriber of %s failed", channel)


class MemoryBus(Bus):
    """One process: publishing is delivering (objects skip the JSON round trip)."""

    async def publish(self, channel: str, message: str) -> None:
        self.deliver(channel, message)

    async def publish_data(self, channel: str, data: dict[str, Any]) -> None:
        self.deliver(channel, data)


class RedisBus(Bus):
    """Several processes: every message goes through Redis and comes back to each of them,
    except a game's JSON objects (:meth:`publish_data`, the bulk: every move) to the
    process that published them, which delivers them at once, as one process would, and
    skips them when Redis brings them back.

    One Redis connection publishes and one listens; a channel is subscribed in
    Redis while this process has at least one local subscriber to it. Changes
    to Redis's subscriptions are made one at a time and each waits for Redis
    to confirm it, so once ``subscribe`` returns, whatever any process
    publishes on the channel reaches the subscriber, and a quick unsubscribe
    and subscribe can never leave a local subscriber without its Redis channel.
    """

    def __init__(self, url: str, prefix: str = "sheshbesh:") -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.redis: Any = None
        self.pubsub: Any = None
        self.listener: asyncio.Task[None] | None = None
        self.subscribed: set[str] = set()
        """Channels subscribed in Redis (confirmed), without the prefix."""
        self.changing = asyncio.Lock()
        self.confirmations: dict[tuple[str, str], asyncio.Future[None]] = {}
        """(``subscribe``/``unsubscribe``, Redis channel) → the change waiting for Redis's reply."""
        self.lost = False
        """A message was dropped, or the listener lost its connection, since the last recovery."""
        self.dropped: set[str] = set()
        """Channels whose message this process failed to publish since it last said so: the
        other processes never heard it, and no loss of theirs tells them to look."""
        self.reconnecting = False
        self.mark = f'{{"from":"{secrets.token_hex(8)}",'
        """How each JSON object this process publishes begins: heard back, it is skipped."""

    async def start(self) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(self.url, decode_responses=True)
        await self.redis.ping()
        self.pubsub = self.redis.pubsub()
        # A channel nobody uses keeps the connection subscribed, so listen() can start.
        await self.pubsub.subscribe(self.prefix + "_")
        self.listener = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.listener
        if self.pubsub is not None:
            await self.pubsub.aclose()
        if self.redis is not None:
            await self.redis.aclose()

    async def publish_data(self, channel: str, data: dict[str, Any]) -> None:
        """A game's message: delivered here at once, then to the other processes. Skipping
        Redis's echo saves this process reading and parsing its own move. The mark is a
        key of the object, so a process of the previous version (a rolling restart) still
        reads it; a game's sockets are sent frames built from it, never its text."""
        if not channel.startswith("game:") or not data:
            await super().publish_data(channel, data)
            return
        self.deliver(channel, data)
        await self.publish(channel, self.mark + wire.dumps(data)[1:])

    async def publish(self, channel: str, message: str) -> None:
        import redis.exceptions

        try:
            await self.redis.publish(self.prefix + channel, message)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
            # Stored already; the others catch up from the database once Redis is back.
            log.warning("redis unreachable: a message on %s is dropped", channel)
            self.lost = True
            self.dropped.add(channel)
            return
        if self.lost and not self.reconnecting:
            await self.heal()

    async def subscribe(self, channel: str, subscriber: Subscriber) -> None:
        await super().subscribe(channel, subscriber)
        await self._follow(channel)

    async def unsubscribe(self, channel: str, subscriber: Subscriber) -> None:
        await super().unsubscribe(channel, subscriber)
        await self._follow(channel)

    async def _follow(self, channel: str) -> None:
        """Make Redis's subscription to ``channel`` match whether anyone here listens."""
        async with self.changing:
            wanted = channel in self.subscribers
            if wanted == (channel in self.subscribed):
                return
            command = "subscribe" if wanted else "unsubscribe"
            key = (command, self.prefix + channel)
            confirmed = self.confirmations[key] = asyncio.get_running_loop().create_future()
            try:
                await getattr(self.pubsub, command)(self.prefix + channel)
                # Redis-py re-subscribes by itself after a reconnect, so a late
                # reply is no reason to fail the caller; it is worth a log line.
                await asyncio.wait_for(confirmed, CONFIRM_TIMEOUT)
            except TimeoutError:
                log.warning("redis did not confirm %s %s in time", command, channel)
            finally:
                del self.confirmations[key]
            if wanted:
                self.subscribed.add(channel)
            else:
                self.subscribed.discard(channel)

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    kind = message.get("type")
                    if kind == "message":
                        if message["data"].startswith(self.mark):
                            continue  # delivered here when it was published
                        channel = message["channel"][len(self.prefix) :]
                        self.deliver(channel, message["data"])
                    elif kind in ("subscribe", "unsubscribe"):
                        waiting = self.confirmations.get((kind, message["channel"]))
                        if waiting is not None and not waiting.done():
                            waiting.set_result(None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("redis listener lost its connection; reconnecting")
                self.lost = True
                await self._reconnect()

    async def _reconnect(self) -> None:
        """Wait until Redis answers on the listening connection again (which subscribes to
        every channel once more), then let everyone catch up on what was lost."""
        self.reconnecting = True
        while True:
            await asyncio.sleep(0.5)
            try:
                await self.pubsub.ping()
                await self.redis.ping()
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                continue
        log.warning("redis is back; catching up from the database")
        self.lost = self.reconnecting = False
        await self.recover()
        await self._tell_dropped()

    async def heal(self) -> None:
        """A publish was dropped while the listener stayed up: catch up all the same."""
        if self.lost:
            self.lost = False
            await self.recover()
            await self._tell_dropped()

    async def _tell_dropped(self) -> None:
        """Send every subscriber of a channel whose message was dropped here to the database
        (:data:`CATCH_UP`): a process whose own connection stayed up, or came back before
        the drop, would otherwise never hear it: a game's move, and its player waited for
        ever (issue 20: seen in the bench's Redis restart); a request in the lobby; the game
        a player's own page should open. Published like any message; one dropped again
        waits for the next heal."""
        dropped, self.dropped = self.dropped, set()
        for channel in sorted(dropped):
            await self.publish(channel, CATCH_UP)


def make_bus(redis_url: str | None) -> Bus:
    return RedisBus(redis_url) if redis_url else MemoryBus()
