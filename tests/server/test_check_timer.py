"""The rounds' timeout check (``rounds.timer``): a reschedule never cancels a check
whose time has come, so a game refreshed again and again still times out."""

from __future__ import annotations

import asyncio
import math
import time

from sheshbesh.server.rounds.timer import CheckTimer


def test_a_reschedule_leaves_a_running_check_to_finish() -> None:
    async def scenario() -> list[str]:
        done: list[str] = []
        started, release = asyncio.Event(), asyncio.Event()

        async def check() -> None:
            started.set()
            await release.wait()  # as a check waits for the round's lock
            done.append("checked")

        timer = CheckTimer("round test", check, time.time)
        timer.at(time.time())
        await started.wait()
        for _ in range(3):  # refreshes, each rescheduling the next check far away
            timer.at(time.time() + 3600)
        release.set()
        while timer.running:
            await asyncio.sleep(0)
        timer.stop()
        return done

    assert asyncio.run(scenario()) == ["checked"]


def test_a_reschedule_moves_a_waiting_check_and_stop_cancels_it() -> None:
    async def scenario() -> tuple[list[float], bool]:
        seen: list[float] = []

        async def check() -> None:
            seen.append(time.time())

        timer = CheckTimer("round test", check, time.time)
        timer.at(time.time() + 3600)
        waiting = timer.waiting
        timer.at(math.inf)  # nothing due any more
        await asyncio.sleep(0)
        assert waiting is not None and waiting.cancelled() and timer.waiting is None
        timer.at(time.time() + 3600)
        later = timer.waiting
        timer.stop()
        await asyncio.sleep(0)
        return seen, later is not None and later.cancelled()

    assert asyncio.run(scenario()) == ([], True)


def test_a_check_the_database_fails_is_tried_again() -> None:
    async def scenario() -> int:
        tries = 0
        done = asyncio.Event()

        async def check() -> None:
            nonlocal tries
            tries += 1
            if tries == 1:
                raise ConnectionRefusedError("the database is restarting")
            done.set()

        timer = CheckTimer("round test", check, time.time)
        timer.at(time.time())
        await done.wait()
        timer.stop()
        return tries

    assert asyncio.run(scenario()) == 2
