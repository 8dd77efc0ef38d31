"""Server settings: defaults that make ``sheshbesh serve`` just work, overridable from the
environment (``DATABASE_URL``, ``REDIS_URL``, ``SHESHBESH_*``) or the command line."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

OFF = ("0", "off", "false", "none")


def parse_limits(text: str) -> tuple[tuple[int, float], ...]:
    """``"5/600,75/86400"`` as ((5, 600.0), (75, 86400.0)); ``off``: no limit.

    >>> parse_limits("5/600, 75/86400")
    ((5, 600.0), (75, 86400.0))
    >>> parse_limits("off")
    ()
    """
    if text.strip().lower() in OFF:
        return ()
    pairs = []
    for part in text.split(","):
        count, _, seconds = part.strip().partition("/")
        if not count.isdigit() or not seconds:
            raise ValueError(f"a limit is COUNT/SECONDS, e.g. 5/600, not {part.strip()!r}")
        pairs.append((int(count), float(seconds)))
    return tuple(pairs)


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = "sheshbesh.db"
    """A path (SQLite file) or a URL; ``postgresql://…`` uses asyncpg."""
    redis_url: str | None = None
    """With Redis, events travel between server processes; without, within one."""
    secure_cookies: bool = False
    """Set behind HTTPS so cookies are never sent in clear."""
    secret: str | None = field(default=None, repr=False)
    """The key of the CSRF tokens (``SHESHBESH_SECRET``); the same for every process. None:
    the club makes one on first start and keeps it in its database, which every process
    on that database then shares."""
    session_days: float = 30.0
    session_check: float = 5.0
    """Seconds a socket may go on trusting its session's last check before it acts or
    hears something private again (an ended session's socket is closed at once when the
    bus says so; this bounds it when no message comes: ``accounts.bindings``)."""
    session_sweep: float = 60.0
    """Seconds between two checks of every session with a socket in this process (an idle
    socket of an ended session is closed by then; 0: never)."""
    abandon_grace: float = 120.0
    """Seconds a disconnected player may keep the opponent waiting on his turn (PL-7)."""
    arrival_grace: float | None = None
    """Seconds a player may take to open a game that has just started before it is
    aborted for him (None: ``abandon_grace``). Apart so that a club (or a test) with a
    short grace does not abort games whose players are merely slow to arrive."""
    login_failures: int = 5
    login_address_failures: int = 30
    login_window: float = 300.0
    """In ``login_window`` seconds: at most ``login_failures`` wrong passwords for a name
    from one address (and from all together, for addresses the account does not know),
    and ``login_address_failures`` from one address whatever the names (``accounts.lockout``)."""
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
    max_open_requests: int = 5
    """Open requests (public ones and private challenges) one account may have at once,
    as lichess caps a player's seeks."""
    request_grace: float = 30.0
    """Seconds an open request outlives its owner's last club tab (no ``/ws/me`` and no
    lobby socket in any process) before it is withdrawn, as lichess drops the seek of a
    player who left: nobody can accept a request whose owner is gone (issue 16)."""
    signup_limits: tuple[tuple[int, float], ...] = ((5, 600.0), (75, 86400.0))
    """Registrations per address: at most N in any window of so many seconds, for each
    pair (lichess's 10 per 10 minutes and 150 a day, at the double cost it charges a
    signup without a captcha). ``()``: no limit (``SHESHBESH_SIGNUP_LIMITS=off``)."""
    young_days: float = 1.0
    young_games: int = 5
    young_stake: int | None = 1000
    """An account younger than ``young_days`` or with fewer than ``young_games`` finished
    games holds at most this much FUN in one game's escrow (bots exempt; None: no cap,
    ``SHESHBESH_YOUNG_STAKE=off``)."""
    farm_losers: int = 3
    farm_window: float = 7 * 86400.0
    """A moderation report flags a player to whom this many young accounts lost FUN
    within this many seconds (``sheshbesh moderate --reports``)."""
    bots: bool = True
    """Create the club's bot accounts and let them play (``SHESHBESH_BOTS=0``: no bots)."""
    chouette_break: float = 20.0
    """Seconds between two games of a chouette table: players may leave and newcomers sit
    down; then the next game starts (its owner may start it sooner)."""
    bot_delay: float = 0.7
    """Seconds a bot waits before each action, so people can follow its game."""
    bot_patience: float = 30.0
    """Seconds an open request that allows bots waits for a person before a bot takes it."""
    bot_workers: int = 1
    """Processes that think for bots (search is CPU-bound; the event loop must not wait)."""
    review_workers: int = 1
    """Processes that review finished games, apart from the bots' (a 2-ply review takes ~20 s)."""
    review_queue: int = 4
    """Reviews a process computes or holds waiting for a worker at once; more are refused (503)."""
    node: str = field(default_factory=lambda: secrets.token_hex(4))
    """This process's name on the bus (presence, logs)."""
    node_heartbeat: float = 10.0
    """Seconds between two "alive" marks of this process; three missed and its spectators
    stop counting (``rounds.spectate``)."""
    group_linger: float | None = None
    """Seconds the group commit waits for more moves before it writes a batch while moves
    keep coming (``store.group``); None: 4 ms on PostgreSQL, none on SQLite."""

    @property
    def arrival(self) -> float:
        """Seconds a player may take to open a game just started (``arrival_grace``)."""
        return self.abandon_grace if self.arrival_grace is None else self.arrival_grace

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env = os.environ
        values: dict[str, object] = {}
        if env.get("DATABASE_URL"):
            values["database_url"] = env["DATABASE_URL"]
        if env.get("REDIS_URL"):
            values["redis_url"] = env["REDIS_URL"]
        if env.get("SHESHBESH_SECRET"):
            values["secret"] = env["SHESHBESH_SECRET"]
        if env.get("SHESHBESH_SECURE_COOKIES"):
            values["secure_cookies"] = env["SHESHBESH_SECURE_COOKIES"] not in ("0", "false", "")
        if env.get("SHESHBESH_ABANDON_GRACE"):
            values["abandon_grace"] = float(env["SHESHBESH_ABANDON_GRACE"])
        if env.get("SHESHBESH_ARRIVAL_GRACE"):
            values["arrival_grace"] = float(env["SHESHBESH_ARRIVAL_GRACE"])
        if env.get("SHESHBESH_PASSWORD_PROFILE"):
            values["password_profile"] = env["SHESHBESH_PASSWORD_PROFILE"]
        if env.get("SHESHBESH_BOTS"):
            values["bots"] = env["SHESHBESH_BOTS"] not in ("0", "false", "")
        floats = ("bot_delay", "bot_patience", "frame_rate", "frame_burst", "socket_open_rate",
                  "socket_open_burst", "request_grace", "session_check",
                  "session_sweep", "node_heartbeat", "chouette_break",
                  "group_linger")  # fmt: skip
        for name in floats:
            if env.get(f"SHESHBESH_{name.upper()}"):
                values[name] = float(env[f"SHESHBESH_{name.upper()}"])
        for name in (
            "bot_workers",
            "review_workers",
            "review_queue",
            "max_body",
            "sockets_per_address",
        ):
            if env.get(f"SHESHBESH_{name.upper()}"):
                values[name] = int(env[f"SHESHBESH_{name.upper()}"])
        if env.get("SHESHBESH_SIGNUP_LIMITS"):
            values["signup_limits"] = parse_limits(env["SHESHBESH_SIGNUP_LIMITS"])
        if env.get("SHESHBESH_YOUNG_STAKE"):
            stake = env["SHESHBESH_YOUNG_STAKE"]
            values["young_stake"] = None if stake in OFF else int(stake)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
