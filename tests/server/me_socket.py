"""Test helpers for the social tests: a player's own socket ``/ws/me`` and a second login."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from club_client import PASSWORD, Player
from websockets.sync.client import ClientConnection, connect


class MeSocket:
    """``/ws/me`` for one player: keeps every frame it reads; ``hello`` is read at once."""

    def __init__(self, player: Player) -> None:
        url = player.base.replace("http://", "ws://") + "/ws/me"
        cookies = player.cookie_header
        opening = connect(
            url, additional_headers={"Cookie": cookies}, open_timeout=20, close_timeout=2
        )
        self.ws: ClientConnection = opening.__enter__()
        self.frames: list[dict[str, Any]] = []
        self.hello = self.recv()
        assert self.hello["t"] == "hello", self.hello

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        return frame

    def until(self, frame_type: str, /, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """The next frame of this type whose data has these values."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {frame_type} frame matching {match}")
            frame = self.recv(timeout=left)
            if frame["t"] == frame_type and all(
                frame.get("d", {}).get(k) == v for k, v in match.items()
            ):
                return frame

    def quiet(self, kind: str, seconds: float = 0.5) -> list[dict[str, Any]]:
        """The frames of this type that arrive within ``seconds`` (expected: none)."""
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            while (left := deadline - time.monotonic()) > 0:
                frame = self.recv(timeout=left)
                if frame["t"] == kind:
                    got.append(frame)
        return got

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> MeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def second_login(player: Player) -> Player:
    """Another browser logged in as the same player (for double submissions)."""
    other = Player(player.base, player.name)
    response = other.post("/api/login", {"username": player.name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    other.user = response.json()
    return other
