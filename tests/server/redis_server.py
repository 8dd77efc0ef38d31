"""A throwaway Redis server for the tests that run several club processes (DESIGN principle 7).

:func:`start` runs ``redis-server`` on a free loopback port with persistence
off, in its own temporary directory, and waits until it answers ``PING``;
:meth:`RedisServer.stop` ends it. Where ``redis-server`` is missing the caller
skips, unless ``SHESHBESH_REQUIRE_REDIS=1`` (set by CI) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from club_client import free_port

REQUIRE = "SHESHBESH_REQUIRE_REDIS"
SOCKET = "redis.sock"
"""The server's Unix socket, in its directory."""


class Unavailable(RuntimeError):
    """``redis-server`` is not installed."""


def required() -> bool:
    return os.environ.get(REQUIRE, "") not in ("", "0")


@dataclass
class RedisServer:
    process: subprocess.Popen[bytes]
    directory: Path
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def unix_url(self) -> str:
        """The same server through its Unix socket (a club on the same machine)."""
        return f"unix://{self.directory / SOCKET}?db=0"

    def stop(self) -> None:
        try:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def _command(binary: str, port: int, directory: Path) -> list[str]:
    """``redis-server`` on loopback ``port`` and a Unix socket in ``directory``,
    persistence off."""
    return [
        binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--dir", str(directory), "--daemonize", "no",
        "--unixsocket", str(directory / SOCKET), "--unixsocketperm", "700",
    ]  # fmt: skip


def start_or_skip() -> RedisServer:
    """:func:`start`, or skip the test where Redis is missing (fail where it is required)."""
    try:
        return start()
    except Unavailable as why:
        if required():
            pytest.fail(f"Redis is required ({REQUIRE}=1) but unavailable: {why}")
        pytest.skip(f"Redis unavailable: {why}")


def restart(server: RedisServer, *, between: object = None) -> RedisServer:
    """Kill the server and start another on the same port and directory: its clients lose
    their connections and must find it again. ``between`` (a callable) runs while it is
    down (a move made meanwhile, whose messages are lost)."""
    binary = shutil.which("redis-server")
    assert binary is not None
    server.process.kill()
    server.process.wait(timeout=20)
    if callable(between):
        between()
    with open(server.directory / "redis.log", "ab") as log_file:
        process = subprocess.Popen(_command(binary, server.port, server.directory),
                                   stdout=log_file, stderr=subprocess.STDOUT)  # fmt: skip
    if not _ready(process, server.port):
        raise RuntimeError("redis-server did not come back on its port")
    return RedisServer(process, server.directory, server.port)


def start(attempts: int = 5) -> RedisServer:
    """A running server on a free port (another port if someone took it in between)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise Unavailable("redis-server not found on PATH")
    directory = Path(tempfile.mkdtemp(prefix="sheshbesh-redis-"))
    try:
        for _ in range(attempts):
            port = free_port()
            with open(directory / "redis.log", "wb") as log_file:
                process = subprocess.Popen(_command(binary, port, directory),
                                           stdout=log_file, stderr=subprocess.STDOUT)  # fmt: skip
            if _ready(process, port):
                return RedisServer(process, directory, port)
            if process.poll() is None:
                process.kill()
            process.wait(timeout=20)
            log = (directory / "redis.log").read_text(errors="replace")
            if "Address already in use" not in log:
                raise RuntimeError(f"redis-server did not start:\n{log}")
        raise RuntimeError(f"redis-server did not start after {attempts} attempts")
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


def _ready(process: subprocess.Popen[bytes], port: int, timeout: float = 20) -> bool:
    """Whether the server answers PING before it exits or the deadline passes."""
    deadline = time.monotonic() + timeout
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, socket_connect_timeout=1)
    try:
        while process.poll() is None and time.monotonic() < deadline:
            try:
                if client.ping():
                    return True
            except redis.ConnectionError:
                time.sleep(0.02)
        return False
    finally:
        client.close()
