"""What each subscriber of the bus does with ``catch_up`` (issue 20).

A process whose publish failed (Redis away from it) says :data:`CATCH_UP` on that
channel once it can publish again (``pubsub.RedisBus``), because the others may
have lost nothing themselves and would never look. Every subscriber must take it as
"read what this channel tells from the database again", never pass it on as it
is. ``test_cluster`` plays the lobby, its chat and a player's page through two
real processes; here are the subscribers that sit behind them: who is online
(``relations.presence``), which sessions still hold (``accounts.bindings``) and
whom a chat reader blocked (``chat.readers``).

A process killed between storing something and publishing it tells nobody, not even
with a catch-up: the others catch up from the database once they find it silent
(``rounds.spectate``'s heartbeat).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from in_process import run_club
from sqlalchemy import update
from test_ledger import make_user

from sheshbesh.server.accounts.bindings import Binding, bindings_of
from sheshbesh.server.chat.readers import ChatItem, LobbyChat, blocklists_of
from sheshbesh.server.club import Club
from sheshbesh.server.pubsub import CATCH_UP, MemoryBus
from sheshbesh.server.relations import presence
from sheshbesh.server.rounds.spectate import Spectators
from sheshbesh.server.settings import Settings
from sheshbesh.store.models import Node, User


def run(tmp_path: Path, body: Callable[[Club], Awaitable[None]]) -> None:
    run_club(Settings(database_url=str(tmp_path / "club.db")), body)


def test_a_lost_announcement_makes_every_process_say_who_is_online_here(
    tmp_path: Path,
) -> None:
    """A player's arrival or departure said by a process whose publish failed: the others
    count him wrongly until the next heartbeat. On ``catch_up`` each process announces
    everyone connected to it at once."""

    async def body(club: Club) -> None:
        heard: asyncio.Queue[Any] = asyncio.Queue()
        await club.bus.subscribe(presence.CHANNEL, heard.put_nowait)
        here = presence.presence_of(club)
        here.here = {5, 3}
        here.on_message(CATCH_UP)
        said = await asyncio.wait_for(heard.get(), 10)
        assert said == {"node": club.settings.node, "all": [3, 5]}
        here.on_message({"node": "another", "up": 9})  # an ordinary message: no reply
        await asyncio.sleep(0)
        assert heard.empty() and here.online(9)

    run(tmp_path, body)


def test_a_lost_session_end_makes_every_socket_here_check_its_session_now(
    tmp_path: Path,
) -> None:
    """A logout said by a process whose publish failed: the player's sockets elsewhere
    would wait for their next check (a listening socket, the minute's sweep). Nobody
    knows whose message was lost, so on ``catch_up`` every socket checks at once."""

    async def body(club: Club) -> None:
        bound = bindings_of(club)
        users = []
        for name in ("ann", "bob"):
            async with club.db.read() as session:
                user = await session.get(User, await make_user(club.db, name, 0))
            assert user is not None
            users.append(user)
        # Sessions nobody stored (logged out), trusted for a long while yet.
        gone = [Binding(bound, user, f"gone-{user.id}", bound.clock() + 3600) for user in users]
        for binding in gone:
            bound.by_user.setdefault(binding.user.id, set()).add(binding)
        bound.on_message({"user": 999})  # a player with no socket here: nothing checked
        assert not bound.tasks
        bound.on_message(CATCH_UP)
        await asyncio.wait_for(asyncio.gather(*bound.tasks), 10)
        assert all(binding.ended for binding in gone)

    run(tmp_path, body)


def test_a_lost_change_of_friends_drops_what_a_reader_holds_of_them(tmp_path: Path) -> None:
    """Whom a reader blocked is held per reader and dropped when his channel says his
    friends changed; a ``catch_up`` may stand for that message, so it drops it too.
    A lobby chat's ``catch_up`` goes to the socket as it is (which sends the whole lobby
    and its chat again), never as a chat line."""

    async def body(club: Club) -> None:
        readers = blocklists_of(club)
        readers.sets[7] = frozenset({1})
        listener = readers._listener(7)
        listener({"t": "unread"})
        assert 7 in readers.sets
        listener(CATCH_UP)
        assert 7 not in readers.sets
        put: list[Any] = []
        lobby = LobbyChat(club, None, put.append)
        line = {"id": 4, "user": {"id": 2}, "room": "lobby", "text": "hi"}
        lobby.on_line(line)
        lobby.on_line(CATCH_UP)
        assert isinstance(put[0], ChatItem) and put[1:] == [CATCH_UP]

    run(tmp_path, body)


def test_a_process_gone_silent_sends_every_other_to_the_database(tmp_path: Path) -> None:
    """Process ``k`` stops beating (killed). The first process to find it silent sweeps
    it and catches up from the database (the bus's recovery hooks); the other, which
    next finds it swept, does too; neither does again, nor at its first beat."""

    async def body(club: Club) -> None:
        clubs = [dataclasses.replace(club, settings=dataclasses.replace(club.settings, node=n),
                                     bus=MemoryBus(), extras={})
                 for n in ("a", "b", "k")]  # fmt: skip
        recovered: list[str] = []
        for each in clubs:

            async def hook(name: str = each.settings.node) -> None:
                recovered.append(name)

            each.bus.on_recovered(hook)
        a, b, k = (Spectators(each) for each in clubs)
        for process in (a, b, k, a, b):
            await process.beat()
        assert recovered == [] and a.others == {"b", "k"}
        async with club.db.transaction() as session:  # k's last beat, long ago
            await session.execute(update(Node).where(Node.node == "k").values(seen_at=0.0))
        await a.beat()
        assert recovered == ["a"] and a.others == {"b"}
        await b.beat()
        assert recovered == ["a", "b"] and b.others == {"a"}
        await a.beat()
        await b.beat()
        assert recovered == ["a", "b"]

    run(tmp_path, body)
