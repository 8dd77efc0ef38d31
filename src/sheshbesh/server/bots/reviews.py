"""Reviews of finished games by gnubg: computed once, kept in the database, in their own workers.

A 2-ply review of a long game takes gnubg about twenty seconds of a processor.
So that asking for reviews can never slow the bots down, the :class:`Reviewer`
runs them in workers of its own (``review_workers``), never in the bots'; it
admits at most ``review_queue`` reviews at once on a process (computing or
waiting for a worker) and refuses one more with 503 ``review_busy`` and a
Retry-After; whoever asks for a review already being computed waits for that
one computation. A finished review is stored in ``game_reviews``: a finished
game's log never changes, so every later asker, on any process and after a
restart, gets the stored one.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from sheshbesh.bots.registry import analyse_log
from sheshbesh.server.club import Club
from sheshbesh.server.errors import ApiError
from sheshbesh.server.rounds.log import events_after
from sheshbesh.store.models import GameReview

from .workers import Workers

log = logging.getLogger(__name__)

RETRY_AFTER = 30.0
"""Seconds a refused asker is told to wait: about one 2-ply review of a long game."""

Key = tuple[str, int]
"""A review: the game's id and gnubg's depth in plies."""


class ReviewBusy(ApiError):
    status, code = 503, "review_busy"

    def __init__(self, queued: int) -> None:
        super().__init__(
            f"the reviewer is busy with {queued} other games; ask again in a little while"
        )
        self.retry_after = RETRY_AFTER


@dataclass(eq=False)
class Job:
    """One review being computed, and how many people wait for it."""

    task: asyncio.Task[dict[str, Any]]
    askers: int = 0


class Reviewer:
    """This process's reviews: the stored ones, those being computed and their workers."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.workers = Workers(club.settings.review_workers)
        """The processes that review, and do nothing else (the bots have their own)."""
        self.jobs: dict[Key, Job] = {}
        """The reviews admitted and not finished yet (computing or waiting for a worker)."""

    async def review(self, game_id: str, plies: int) -> dict[str, Any]:
        """The review of a finished game: the stored one, or computed now (seconds) and stored."""
        key = (game_id, plies)
        job = self.jobs.get(key)
        if job is None:
            stored = await self.stored(key)
            if stored is not None:
                return stored
            job = self.jobs.get(key)  # someone may have asked while we read
        if job is None:
            if len(self.jobs) >= self.club.settings.review_queue:
                raise ReviewBusy(len(self.jobs))
            job = self.jobs[key] = Job(asyncio.create_task(self._compute(key)))
            job.task.add_done_callback(lambda _: self._finished(key, job))
        job.askers += 1
        try:
            # An asker who leaves does not cancel the review: it is stored for the next.
            return await asyncio.shield(job.task)
        finally:
            job.askers -= 1

    async def stored(self, key: Key) -> dict[str, Any] | None:
        async with self.club.db.read() as session:
            found = await session.get(GameReview, key)
        return None if found is None else found.data

    async def _compute(self, key: Key) -> dict[str, Any]:
        game_id, plies = key
        async with self.club.db.read() as session:
            log_ = await events_after(session, game_id, -1)
        data: dict[str, Any] = await self.workers.run(analyse_log, log_, plies)
        try:
            async with self.club.db.transaction() as session:
                session.add(GameReview(game_id=game_id, plies=plies, data=data,
                                       created_at=self.club.now()))  # fmt: skip
        except IntegrityError:
            log.info("review of %s at %d plies was stored by another process", game_id, plies)
        return data

    def _finished(self, key: Key, job: Job) -> None:
        if self.jobs.get(key) is job:
            del self.jobs[key]
        if not job.task.cancelled():
            job.task.exception()  # its askers get the error; nobody else must report it

    async def halt(self) -> None:
        """Cancel the reviews under way and wait for them to unwind (the database closes next)."""
        tasks = [job.task for job in self.jobs.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.workers.stop()
