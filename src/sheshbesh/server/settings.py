"""Server settings: defaults that make ``sheshbesh serve`` just work, overridable from the
environment (``DATABASE_URL``, ``REDIS_URL``, ``SHESHBESH_*``) or the command line."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = "sheshbesh.db"
    """A path (SQLite file) or a URL; ``postgresql://…`` uses asyncpg."""
    redis_url: str | None = None
    """With Redis, events travel between server processes; without, within one."""
    secure_cookies: bool = False
    """Set behind HTTPS so cookies are never sent in clear."""
    session_days: float = 30.0
    abandon_grace: float = 120.0
    """Seconds a disconnected player may keep the opponent waiting on his turn (PL-7)."""
    login_failures: int = 5
    login_window: float = 300.0
    """At most ``login_failures`` wrong passwords per account in ``login_window`` seconds."""
    password_profile: str = "strong"
    """``strong`` (argon2id, RFC 9106 low-memory profile) or ``fast`` (tests and benches only)."""
    max_frame: int = 4096
    """The largest WebSocket frame a client may send, in bytes."""
    max_body: int = 64 * 1024
    """The largest HTTP request body, in bytes (413 above it; 0: no limit)."""
    frame_rate: float = 20.0
    frame_burst: float = 40.0
    """Frames a second a client may send on one socket, and how many at once (``limits``)."""
    frame_strikes: int = 100
    """Frames dropped for rate, since the socket last calmed down, before it is closed."""
    sockets_per_address: int = 100
    """Open sockets (game, lobby, ``/ws/me``) per client address in one process (0: no cap)."""
    socket_open_rate: float = 10.0
    socket_open_burst: float = 20.0
    """New sockets a second per client address, and how many at once (a reload, a restart)."""
    max_stake: int = 10**9
    bots: bool = True
    """Create the club's bot accounts and let them play (``SHESHBESH_BOTS=0``: no bots)."""
    bot_delay: float = 0.7
    """Seconds a bot waits before each action, so people can follow its game."""
    bot_patience: float = 30.0
    """Seconds an open request that allows bots waits for a person before a bot takes it."""
    bot_workers: int = 1
    """Processes that think for bots (search is CPU-bound; the event loop must not wait)."""
    node: str = field(default_factory=lambda: secrets.token_hex(4))
    """This process's name on the bus (presence, logs)."""

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env = os.environ
        values: dict[str, object] = {}
        if env.get("DATABASE_URL"):
            values["database_url"] = env["DATABASE_URL"]
        if env.get("REDIS_URL"):
            values["redis_url"] = env["REDIS_URL"]
        if env.get("SHESHBESH_SECURE_COOKIES"):
            values["secure_cookies"] = env["SHESHBESH_SECURE_COOKIES"] not in ("0", "false", "")
        if env.get("SHESHBESH_ABANDON_GRACE"):
            values["abandon_grace"] = float(env["SHESHBESH_ABANDON_GRACE"])
        if env.get("SHESHBESH_PASSWORD_PROFILE"):
            values["password_profile"] = env["SHESHBESH_PASSWORD_PROFILE"]
        if env.get("SHESHBESH_BOTS"):
            values["bots"] = env["SHESHBESH_BOTS"] not in ("0", "false", "")
        floats = ("bot_delay", "bot_patience", "frame_rate", "frame_burst", "socket_open_rate",
                  "socket_open_burst")  # fmt: skip
        for name in floats:
            if env.get(f"SHESHBESH_{name.upper()}"):
                values[name] = float(env[f"SHESHBESH_{name.upper()}"])
        for name in ("bot_workers", "max_body", "sockets_per_address"):
            if env.get(f"SHESHBESH_{name.upper()}"):
                values[name] = int(env[f"SHESHBESH_{name.upper()}"])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
