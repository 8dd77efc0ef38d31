"""Load on a cluster: N ``sheshbesh serve`` processes on one PostgreSQL and one Redis.

bench/load.py's players (its client, its think time, its latency: action sent ->
the opponent's socket has the event) against a throwaway PostgreSQL and Redis
(tests/server/pg.py and redis_server.py, as the tests start them) and N server
processes on them. Player 2k+i of pair k starts on process (k+i) mod N, so with
N > 1 the two players of every game sit on different processes and each move
crosses Redis. With ``--sqlite`` the same players first play one process on
SQLite, for the table's first row. ``--unix`` has the processes reach PostgreSQL
and Redis by their Unix sockets instead of loopback TCP (measured: no difference,
docs/performance.md).

Besides load.py's figures, each PostgreSQL row has the database's own: commits per
second (``pg_stat_database.xact_commit`` over the window), sessions waiting on a
lock (``pg_stat_activity``, sampled each second: mean and max) and statements per
accepted move (``pg_stat_statements``, every statement of the window, background
work included, over the moves; each is one round trip).

``--fault`` breaks something a third of the way into the window, once:
``kill`` SIGKILLs the last process (its players' pages reconnect to the next one
with ``?v=`` and go on), ``redis`` kills Redis and starts it again on its port,
``postgres`` stops PostgreSQL for 5 s (a fast shutdown) and starts it again. After
every run the stored games are checked: games, events, games whose event log has
a gap (must be 0), and the FUN that players hold (wallets and escrows) before
and after (must be equal), with ``/healthz``'s ledger total (must be 0).

    python bench/cluster.py --nodes 1,2,3 --sqlite --games 500 --seconds 60
    python bench/cluster.py --nodes 3 --games 500 --fault kill
    python bench/cluster.py --quick
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil

import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
import pg
import redis_server

DATABASE = "club"
PG_OPTIONS = (
    "-c fsync=on -c full_page_writes=on -c max_connections=300"
    " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=on"
)
"""Durable writes (the tests turn fsync off), with commits acknowledged before they are
flushed (``synchronous_commit=off``, as SQLite's WAL with synchronous=NORMAL), and the
statement counter loaded."""
OUTAGE_S = 5.0
FAULTS = ("kill", "redis", "postgres")


# --- the stored games, checked after a run ----------------------------------------------

CHECKS = {
    "games": "SELECT count(*) FROM games",
    "events": "SELECT count(*) FROM game_events",
    "gaps": "SELECT count(*) FROM (SELECT game_id FROM game_events GROUP BY game_id"
    " HAVING min(seq) <> 0 OR max(seq) <> count(*) - 1) AS broken",
    "fun": "SELECT coalesce(sum(balance), 0) FROM accounts WHERE kind IN ('wallet', 'escrow')",
}
"""What a run left: a game's log has a gap unless its seqs are exactly 0..n-1 (the
unique (game, seq) pair rules out a repeat); FUN held by players, in wallets and escrows."""


@dataclass
class Store:
    """The figures of CHECKS, read with ``query``."""

    query: Callable[[str], str]

    def read(self) -> dict[str, int]:
        return {name: int(self.query(sql).strip() or 0) for name, sql in CHECKS.items()}


def sqlite_query(path: Path) -> Callable[[str], str]:
    def query(sql: str) -> str:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
            return str(db.execute(sql).fetchone()[0])

    return query


@dataclass
class Postgres:
    """The throwaway cluster, and psql on the club's database."""

    cluster: pg.Cluster

    @property
    def url(self) -> str:
        return self.cluster.url(DATABASE)

    def query(self, sql: str) -> str:
        c = self.cluster
        command = [
            str(c.bin / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h",
            "127.0.0.1", "-p", str(c.port), "-U", "postgres", "-d", DATABASE, "-c", sql,
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"psql {sql!r}: {done.stderr.strip()}")
        return done.stdout


# --- the database's own figures ---------------------------------------------------------

SAMPLE = (
    "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),"
    " (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()),"
    " (SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'),"
    " (SELECT count(*) FROM pg_locks WHERE NOT granted),"
    " (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()),"
    " (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
    " AND state = 'idle in transaction')"
)
STATEMENTS = (
    "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"
    " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
TOP = (
    "SELECT calls, round(total_exec_time::numeric, 0), left(regexp_replace(query, '\\s+',"
    " ' ', 'g'), 90) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
    " WHERE datname = current_database()) ORDER BY calls DESC LIMIT 12"
)


@dataclass
class CpuShare:
    """The CPU some server's processes used over the window, in % of one core. A process
    that has ended counts with what it had used when it was last seen."""

    seen: dict[int, float] = field(default_factory=dict)
    first: tuple[float, float] | None = None
    """When, and the CPU seconds used by then, at the first sample."""
    share: float = float("nan")

    def sample(self, now: float, processes: list[psutil.Process]) -> None:
        for process in processes:
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                self.seen[process.pid] = times.user + times.system
        used = sum(self.seen.values())
        if self.first is None:
            self.first = (now, used)
        else:
            self.share = (used - self.first[1]) / (now - self.first[0]) * 100


@dataclass
class Watch:
    """Samples taken about once a second in the window."""

    db: Postgres
    first: tuple[float, int, int] | None = None
    last: tuple[float, int, int] | None = None
    """When, commits, rollbacks (a read-only session ends with a rollback)."""
    waiting: list[int] = field(default_factory=list)
    ungranted: list[int] = field(default_factory=list)
    connected: list[int] = field(default_factory=list)
    """The club's connections (every process's pool)."""
    in_transaction: list[int] = field(default_factory=list)
    """Connections inside a transaction that wait for the club, not for the database."""
    failed: int = 0

    database: CpuShare = field(default_factory=CpuShare)
    """PostgreSQL's processes: the server and its backends."""
    redis: Callable[[], int] | None = None
    """The Redis server's pid now (a fault run starts a new one)."""
    redis_cpu: CpuShare = field(default_factory=CpuShare)

    def start(self) -> None:
        self.db.query("SELECT pg_stat_statements_reset()")

    def database_processes(self) -> list[psutil.Process]:
        """The server and its backends now (none while it is away)."""
        pid = int((self.db.cluster.directory / "data" / "postmaster.pid").read_text().split()[0])
        try:
            main = psutil.Process(pid)
            return [main, *main.children()]
        except psutil.Error:
            return []

    def sample(self) -> None:
        try:
            commits, rollbacks, waiting, ungranted, connected, in_transaction = (
                int(x) for x in self.db.query(SAMPLE).split("|")
            )
        except (RuntimeError, ValueError):  # the database is away (a fault run)
            self.failed += 1
            return
        now = time.monotonic()
        with contextlib.suppress(OSError, ValueError):
            self.database.sample(now, self.database_processes())
        if self.redis is not None:
            with contextlib.suppress(psutil.Error):
                self.redis_cpu.sample(now, [psutil.Process(self.redis())])
        self.first = self.first or (now, commits, rollbacks)
        self.last = (now, commits, rollbacks)
        self.waiting.append(waiting)
        self.ungranted.append(ungranted)
        self.connected.append(connected - 1)  # not this sample's own
        self.in_transaction.append(in_transaction)

    def commits_per_s(self, column: int = 1) -> float:
        """Commits a second in the window (``column`` 2: rollbacks)."""
        if self.first is None or self.last is None or self.last[0] <= self.first[0]:
            return float("nan")
        return (self.last[column] - self.first[column]) / (self.last[0] - self.first[0])

    def statements(self) -> int:
        return int(self.db.query(STATEMENTS).strip() or 0)


# --- one run --------------------------------------------------------------------------------


@dataclass
class Outcome:
    label: str
    nodes: int
    run: load.Run
    before: dict[str, int]
    after: dict[str, int]
    ledger: int
    watch: Watch | None = None
    statements: int = 0
    top: str = ""
    fault: str = ""
    load_average: float = 0.0


def ledger_of(server: load.Server) -> int:
    return int(httpx.get(server.base + "/healthz", timeout=30).json()["ledger_total"])


def on_sqlite(args: argparse.Namespace) -> Outcome:
    """One process on its own SQLite file: the single-process baseline."""
    average = os.getloadavg()[0]
    with load.Server("cluster-sqlite", args.deflate) as server:
        store = Store(sqlite_query(server.db))
        before: dict[str, int] = {}

        def during(elapsed: float) -> None:
            if not before:
                before.update(store.read())

        run = load.play(args, args.games, [server], during)
        return Outcome("sqlite", 1, run, before, store.read(), ledger_of(server),
                       load_average=average)  # fmt: skip


@contextlib.contextmanager
def backing() -> Iterator[tuple[Postgres, list[redis_server.RedisServer]]]:
    """A fresh PostgreSQL (its club database, the statement counter) and Redis."""
    cluster = pg.start(PG_OPTIONS)
    try:
        cluster.sql(f"CREATE DATABASE {DATABASE}")
        db = Postgres(cluster)
        db.query("CREATE EXTENSION pg_stat_statements")
        redis = [redis_server.start()]
        try:
            yield db, redis
        finally:
            redis[0].stop()
    finally:
        cluster.stop()


def on_postgres(args: argparse.Namespace, nodes: int, fault: str) -> Outcome:
    """``nodes`` processes on a fresh PostgreSQL and Redis; ``fault`` breaks one of them."""
    average = os.getloadavg()[0]
    with backing() as (db, redis):
        servers: list[load.Server] = []
        with contextlib.ExitStack() as stack:
            for i in range(nodes):
                database = db.cluster.unix_url(DATABASE) if args.unix else db.url
                bus = redis[0].unix_url if args.unix else redis[0].url
                server = load.Server(f"cluster{nodes}-{i}", args.deflate, database=database,
                                     redis=bus)  # fmt: skip
                servers.append(stack.enter_context(server))
            store, watch = Store(db.query), Watch(db, redis=lambda: redis[0].process.pid)
            before: dict[str, int] = {}
            done: list[str] = []

            def during(elapsed: float) -> None:
                if not before:
                    before.update(store.read())
                    watch.start()
                watch.sample()
                if fault and not done and elapsed >= args.seconds / 3:
                    done.append(break_one(fault, servers, db, redis))

            run = load.play(args, args.games, servers, during)
            statements = watch.statements()
            top = db.query(TOP)
            after = store.read()
            alive = [s for s in servers if s.proc is not None and s.proc.poll() is None]
            return Outcome(f"postgres{' ' + fault if fault else ''}", nodes, run, before, after,
                           ledger_of(alive[0]), watch, statements, top, " ".join(done),
                           average)  # fmt: skip


def break_one(fault: str, servers: list[load.Server], db: Postgres,
              redis: list[redis_server.RedisServer]) -> str:  # fmt: skip
    """The fault, done now; what was done."""
    started = time.monotonic()
    if fault == "kill":
        victim = servers[-1]
        assert victim.proc is not None
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(timeout=20)
        return f"process {len(servers)} of {len(servers)} SIGKILLed"
    if fault == "redis":
        redis[0] = redis_server.restart(redis[0])
        return f"Redis killed and back on its port in {time.monotonic() - started:.1f} s"
    db.cluster.down()
    time.sleep(OUTAGE_S)
    db.cluster.up()
    return f"PostgreSQL stopped and back after {time.monotonic() - started:.1f} s"


# --- printing ---------------------------------------------------------------------------

HEADER = (
    f"{'run':<17} {'proc':>4} {'games':>5} {'moves/s':>8} {'p50':>6} {'p95':>6} {'p99':>6}"
    f" {'max':>7} {'errors':>6} {'commit/s':>8} {'lockwait':>8} {'stmt/mv':>7}"
    f"  CPU % per process / RSS MiB per process"
)


def row(o: Outcome) -> str:
    r = o.run
    latency = r.merged("latency")
    errors = sum(r.errors().values())
    moves = r.total("accepted")
    w = o.watch
    commits = f"{w.commits_per_s():8.0f}" if w else f"{'-':>8}"
    waits = f"{mean(w.waiting):4.1f}/{max(w.waiting, default=0):<3}" if w else "-"
    per_move = f"{o.statements / max(1, moves):7.1f}" if w else f"{'-':>7}"
    cpu = "+".join(f"{c:.0f}" for c in r.cpu_each)
    rss = "+".join(f"{x / 2**20:.0f}" for x in r.rss_each)
    return (
        f"{o.label:<17} {o.nodes:>4} {r.games:>5} {moves / r.seconds:>8.1f}"
        f" {load.pct(latency, 50):>6.1f} {load.pct(latency, 95):>6.1f}"
        f" {load.pct(latency, 99):>6.1f} {(latency[-1] if latency else float('nan')):>7.1f}"
        f" {errors:>6} {commits} {waits:>8} {per_move}  {cpu} / {rss}"
    )


def details(o: Outcome) -> str:
    r = o.run
    lines = [load.details(r)]
    client = r.total("cpu_s") / max(1e-9, r.seconds) * 100
    lines.append(f"  client: {client:.0f}% CPU ({len(r.results)} processes on the same cores,"
                 f" {r.client_loop}),"
                 f" event-loop lag p99 {load.pct(r.merged('lag'), 99):.1f} ms")  # fmt: skip
    lines.append(f"  reconnects {r.total('reconnects'):.0f}; load average {o.load_average:.1f}"
                 " when the run started" + (f"; fault: {o.fault}" if o.fault else ""))  # fmt: skip
    b, a = o.before, o.after
    lines.append(
        f"  stored: games {b.get('games', 0)} -> {a['games']}, events {b.get('events', 0)} ->"
        f" {a['events']}, games with a gap in their log {a['gaps']};"
        f" FUN held by players {b.get('fun', 0)} -> {a['fun']}; ledger total {o.ledger}"
    )
    if o.watch is not None:
        w = o.watch
        lines.append(
            f"  database: {w.database.share:.0f}% CPU (its processes together; Redis"
            f" {w.redis_cpu.share:.0f}%);"
            f" {w.commits_per_s():.0f} commits/s and {w.commits_per_s(2):.0f}"
            f" read-only transactions (rollbacks)/s; sessions waiting on a lock"
            f" mean {mean(w.waiting):.1f}, max {max(w.waiting, default=0)};"
            f" ungranted locks max {max(w.ungranted, default=0)}; connections mean"
            f" {mean(w.connected):.0f}, max {max(w.connected, default=0)}, idle in a transaction"
            f" mean {mean(w.in_transaction):.1f}, max {max(w.in_transaction, default=0)};"
            f" {o.statements} statements"
            f" in the window ({o.statements / max(1, r.total('accepted')):.1f} per accepted move)"
            + (f"; {w.failed} samples failed" if w.failed else "")
        )
    return "\n".join(lines)


def mean(values: list[int]) -> float:
    return sum(values) / max(1, len(values))


def verdict(o: Outcome) -> str:
    ok = o.after["gaps"] == 0 and o.ledger == 0 and o.before.get("fun") == o.after["fun"]
    return "  checks: " + ("no gap, ledger 0, FUN unchanged" if ok else "FAILED")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="1,2,3", help="process counts to run, e.g. 1,2,3")
    parser.add_argument("--sqlite", action="store_true", help="one process on SQLite first")
    parser.add_argument("--fault", choices=FAULTS, action="append", default=[],
                        help="a run at the largest count with this fault (repeatable)")  # fmt: skip
    parser.add_argument("--no-clean", action="store_true", help="only the fault runs")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20 games, 15 s")
    parser.add_argument("--think", type=load.parse_think, default=(0.5, 1.5))
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--stake", type=int, default=10)
    parser.add_argument("--variants", type=lambda s: tuple(s.split(",")), default=("backgammon",))
    parser.add_argument("--deflate", action="store_true")
    parser.add_argument(
        "--unix",
        action="store_true",
        help="the processes reach PostgreSQL and Redis by Unix sockets",
    )
    parser.add_argument("--http-concurrency", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    load.add_client_options(parser)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.quick:
        args.games, args.seconds = 20, 15
    counts = [int(n) for n in args.nodes.split(",")]
    plan: list[tuple[str, int, str]] = [("sqlite", 1, "")] if args.sqlite else []
    if not args.no_clean:
        plan += [("postgres", n, "") for n in counts]
    plan += [("postgres", max(counts), fault) for fault in args.fault]

    servers = "N uvicorn processes on PostgreSQL + Redis (SQLite: 1)"
    print(load.machine(args).replace("1 uvicorn process, SQLite (WAL)", servers))
    print(f"cpu: {psutil.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M %Z')}")
    outcomes = []
    for kind, nodes, fault in plan:
        outcome = on_sqlite(args) if kind == "sqlite" else on_postgres(args, nodes, fault)
        outcomes.append(outcome)
        print(HEADER)
        print(row(outcome))
        print(details(outcome))
        print(verdict(outcome))
        if outcome.top:
            print("  most frequent statements (calls, ms):")
            print("\n".join("    " + line for line in outcome.top.strip().splitlines()))
        print(flush=True)
    print(HEADER)
    for outcome in outcomes:
        print(row(outcome))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted; the servers are stopped", file=sys.stderr)
        sys.exit(130)
