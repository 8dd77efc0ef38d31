"""Pub/sub between the parts of the club: ``MemoryBus`` in one process, ``RedisBus``
across several (DESIGN principle 7; the shape of encode/broadcaster's backends).

Channels: ``lobby`` (requests and now-playing), ``game:{id}`` (a round's events)
and ``user:{id}`` (what one player must hear wherever he is). Messages are JSON
text. Each process fans a message out to its local subscribers, which are plain
callbacks that must not block (a socket puts the message on its own queue).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

Subscriber = Callable[[str], None]
log = logging.getLogger(__name__)


class Bus:
    """Local fan-out; subclasses decide how a published message reaches it."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[Subscriber]] = defaultdict(set)

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def publish(self, channel: str, message: str) -> None:
        raise NotImplementedError

    async def subscribe(self, channel: str, subscriber: Subscriber) -> None:
        self.subscribers[channel].add(subscriber)

    async def unsubscribe(self, channel: str, subscriber: Subscriber) -> None:
        subscribers = self.subscribers.get(channel)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self.subscribers[channel]

    def deliver(self, channel: str, message: str) -> None:
        for subscriber in list(self.subscribers.get(channel, ())):
            try:
                subscriber(message)
            except Exception:  # one broken subscriber must not starve the others
                log.exception("subscriber of %s failed", channel)


class MemoryBus(Bus):
    """One process: publishing is delivering."""

    async def publish(self, channel: str, message: str) -> None:
        self.deliver(channel, message)


class RedisBus(Bus):
    """Several processes: every message goes through Redis and comes back to each of them.

    One Redis connection publishes and one listens; a channel is subscribed in
    Redis while this process has at least one local subscriber to it.
    """

    def __init__(self, url: str, prefix: str = "sheshbesh:") -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.redis: Any = None
        self.pubsub: Any = None
        self.listener: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def start(self) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(self.url, decode_responses=True)
        await self.redis.ping()
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
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

    async def publish(self, channel: str, message: str) -> None:
        await self.redis.publish(self.prefix + channel, message)

    async def subscribe(self, channel: str, subscriber: Subscriber) -> None:
        first = channel not in self.subscribers
        await super().subscribe(channel, subscriber)
        if first:
            await self.pubsub.subscribe(self.prefix + channel)

    async def unsubscribe(self, channel: str, subscriber: Subscriber) -> None:
        await super().unsubscribe(channel, subscriber)
        if channel not in self.subscribers:
            await self.pubsub.unsubscribe(self.prefix + channel)

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message.get("type") == "message":
                        channel = message["channel"][len(self.prefix) :]
                        self.deliver(channel, message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis listener failed; retrying")
                await asyncio.sleep(0.5)


def make_bus(redis_url: str | None) -> Bus:
    return RedisBus(redis_url) if redis_url else MemoryBus()
