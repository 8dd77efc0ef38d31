"""A throwaway PostgreSQL cluster for the server tests (DESIGN principle 7: the same
suite runs on SQLite and on PostgreSQL).

:func:`start` runs ``initdb`` into a fresh temporary directory (as the
``postgres`` OS user when the tests run as root, since PostgreSQL refuses root),
starts it with ``pg_ctl`` on a free loopback port with trust authentication and
durability switched off (nothing here needs to survive a crash), and removes it
all in :meth:`Cluster.stop`. :meth:`Cluster.database` gives each test its own new database.

Where the binaries are missing the caller skips, unless ``SHESHBESH_REQUIRE_PG=1``
(set by CI) makes a missing PostgreSQL a failure.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from club_client import free_port

REQUIRE = "SHESHBESH_REQUIRE_PG"
SERVER_OPTIONS = (
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    " -c max_connections=200 -c shared_buffers=32MB"
)


class Unavailable(RuntimeError):
    """PostgreSQL cannot run here (no binaries, or no user to run it as)."""


def required() -> bool:
    return os.environ.get(REQUIRE, "") not in ("", "0")


def find_bin() -> Path:
    """The directory holding ``initdb``, ``pg_ctl`` and ``psql`` (newest installed version)."""
    on_path = shutil.which("pg_ctl")
    candidates = [Path(on_path).resolve().parent] if on_path else []

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", path.parent.name))

    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    for directory in candidates:
        if all((directory / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres", "psql")):
            return directory
    raise Unavailable("PostgreSQL binaries (initdb, pg_ctl, postgres, psql) not found")


def run_as() -> list[str]:
    """The command prefix that runs the server as a user it accepts (never root)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("running as root and there is no 'postgres' user to run it") from None
    runuser = shutil.which("runuser")
    if runuser is None:
        raise Unavailable("running as root and 'runuser' is missing")
    return [runuser, "-u", "postgres", "--"]


@dataclass
class Cluster:
    """A running PostgreSQL cluster on ``127.0.0.1:port`` with superuser ``postgres``."""

    bin: Path
    directory: Path
    port: int
    prefix: list[str]
    """How to run a server binary as its owner (``runuser -u postgres --`` under root)."""
    names: Iterator[int] = field(default_factory=itertools.count)
    options: str = ""
    """Server settings after :data:`SERVER_OPTIONS` (the cluster bench's own)."""

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def unix_url(self, database: str) -> str:
        """The same database through the server's Unix socket (a club on the same machine)."""
        return f"postgresql://postgres@/{database}?host={self.directory}&port={self.port}"

    def sql(self, statement: str) -> str:
        """Run one statement as the superuser in the ``postgres`` database; its output."""
        command = [
            str(self.bin / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
            "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", "postgres",
            "-c", statement,
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"psql {statement!r} failed: {done.stderr.strip()}")
        return done.stdout

    @contextlib.contextmanager
    def database(self) -> Iterator[str]:
        """A new empty database for one test; its URL. Dropped afterwards (connections too)."""
        name = f"club_{os.getpid()}_{next(self.names)}"
        self.sql(f"CREATE DATABASE {name}")
        try:
            yield self.url(name)
        finally:
            self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def down(self) -> None:
        """Stop the server, keeping its data: every connection is cut and none is taken
        until :meth:`up` (a fast shutdown, which writes what was committed: the tests'
        ``synchronous_commit=off`` would lose the last commits in an immediate one)."""
        data = str(self.directory / "data")
        stop = [*self.prefix, str(self.bin / "pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"]
        _check(subprocess.run(stop, capture_output=True, text=True, timeout=60, check=False))

    def up(self) -> None:
        """Start the stopped server again on its own port, with its data."""
        start = _start_command(self.prefix, self.bin, self.directory, self.port, self.options)
        _check(subprocess.run(start, capture_output=True, text=True, timeout=90, check=False))

    def stop(self) -> None:
        """Stop the server at once (nothing to keep) and remove its directory."""
        data = str(self.directory / "data")
        stop = [*self.prefix, str(self.bin / "pg_ctl"), "-D", data, "-m", "immediate", "stop"]
        try:
            subprocess.run(stop, capture_output=True, timeout=60, check=False)
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def start(options: str = "") -> Cluster:
    """initdb into a new temporary directory and start the server; :meth:`Cluster.stop` ends it.
    ``options`` (``-c name=value …``) are set after, and over, :data:`SERVER_OPTIONS`."""
    bin_dir = find_bin()
    prefix = run_as()
    directory = Path(tempfile.mkdtemp(prefix="sheshbesh-pg-"))
    try:
        if prefix:
            shutil.chown(directory, "postgres", "postgres")
        initdb = [
            *prefix, str(bin_dir / "initdb"), "-D", str(directory / "data"), "-U", "postgres",
            "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync",
        ]  # fmt: skip
        _check(subprocess.run(initdb, capture_output=True, text=True, timeout=120, check=False))
        return _start(prefix, bin_dir, directory, options)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


def _start(prefix: list[str], bin_dir: Path, directory: Path, options: str,
           attempts: int = 5) -> Cluster:  # fmt: skip
    """``pg_ctl start`` on a free port (another port if someone took it in between)."""
    log = directory / "server.log"
    for _ in range(attempts):
        port = free_port()
        start = _start_command(prefix, bin_dir, directory, port, options)
        done = subprocess.run(start, capture_output=True, text=True, timeout=90, check=False)
        if done.returncode == 0:
            return Cluster(bin_dir, directory, port, prefix, options=options)
        text = log.read_text(errors="replace") if log.exists() else ""
        if "Address already in use" not in text:
            _check(done, text)
    raise RuntimeError(f"PostgreSQL did not start after {attempts} attempts")


def _start_command(prefix: list[str], bin_dir: Path, directory: Path, port: int,
                   extra: str = "") -> list[str]:  # fmt: skip
    """``pg_ctl start`` of the cluster in ``directory`` on loopback ``port``, waiting for it."""
    options = (
        f"-p {port} -c listen_addresses=127.0.0.1"
        f" -c unix_socket_directories={directory} {SERVER_OPTIONS} {extra}"
    )
    return [
        *prefix, str(bin_dir / "pg_ctl"), "-D", str(directory / "data"),
        "-l", str(directory / "server.log"), "-o", options, "-w", "-t", "60", "start",
    ]  # fmt: skip


def _check(done: subprocess.CompletedProcess[str], log: str = "") -> None:
    if done.returncode != 0:
        details = "\n".join(part for part in (done.stdout, done.stderr, log) if part)
        raise RuntimeError(f"{' '.join(done.args)} failed ({done.returncode}):\n{details}")
