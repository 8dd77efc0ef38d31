"""The ``sheshbesh`` command: the club server (``serve``) and the rules tools.

``sheshbesh moves --stdin`` is a contract other tools depend on: one JSON object
per input line, one JSON line out per line in, in order, flushed each time; a bad
line gets ``{"error": "..."}`` and the next line is still served.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from sheshbesh.games import VARIANTS, draughts, find_variant
from sheshbesh.games.race import Position
from sheshbesh.games.race.gnubg_id import decode_position_id

if TYPE_CHECKING:
    from sheshbesh.server.pubsub import Bus


def moves_request(request: Any) -> dict[str, Any]:
    """Answer one ``moves --stdin`` request (a decoded JSON object)."""
    if not isinstance(request, dict):
        raise ValueError("each line must be a JSON object")
    variant = request.get("variant")
    if not isinstance(variant, str):
        raise ValueError("'variant' is required: one of " + ", ".join(VARIANTS))
    if variant == "draughts":
        fen = request.get("fen")
        if not isinstance(fen, str):
            raise ValueError("draughts needs 'fen', e.g. \"W:W31-50:B1-20\"")
        return {"moves": draughts.moves_for_fen(fen)}
    rules = find_variant(variant)
    dice = _dice(request.get("dice"))
    if "position_id" in request:
        pid = request["position_id"]
        if not isinstance(pid, str):
            raise ValueError("'position_id' must be a string")
        position = Position.from_id(pid, rules)
        return {
            "plays": [
                {"play": play.notation(), "position_id": play.after.id()}
                for play in position.legal_plays(dice)
            ]
        }
    text = request.get("position")
    if not isinstance(text, str):
        raise ValueError("give 'position' (canonical text) or, for backgammon, 'position_id'")
    position = Position.from_text(rules, text)
    return {
        "plays": [
            {"play": play.notation(), "position": play.after.text()}
            for play in position.legal_plays(dice)
        ]
    }


def serve_moves(lines: Iterable[str], out: TextIO) -> None:
    """The ``moves --stdin`` loop: never stops on a bad line."""
    for line in lines:
        if not line.strip():
            continue
        try:
            answer = moves_request(json.loads(line))
        except json.JSONDecodeError as error:
            answer = {"error": f"not JSON: {error.msg} at column {error.colno}"}
        except ValueError as error:
            answer = {"error": str(error)}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()


def _dice(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) for d in value)
    ):
        raise ValueError(f"'dice' must be two integers 1-6, e.g. [3, 1], not {value!r}")
    return value[0], value[1]


def _parse_roll(text: str) -> tuple[int, int]:
    parts = text.replace("-", " ").replace(",", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"roll {text!r} should look like 3-1")
    return int(parts[0]), int(parts[1])


def _race_position(variant: str, text: str) -> Position:
    """Canonical text, or a gnubg position ID for games on the backgammon board."""
    if ":" not in text:
        decode_position_id(text)  # a clear error if it is neither form
        return Position.from_id(text, variant)
    return Position.from_text(variant, text)


def _print_moves(args: argparse.Namespace) -> int:
    if args.variant == "draughts":
        for entry in draughts.moves_for_fen(args.position):
            print(f"{entry['move']:<16} {entry['fen']}")
        return 0
    if args.roll is None:
        raise ValueError("give the roll, e.g. sheshbesh moves backgammon 4HPwATDgc/ABMA 3-1")
    position = _race_position(args.variant, args.position)
    plays = position.legal_plays(_parse_roll(args.roll))
    if not plays:
        print("no legal play: the turn passes")
    width = max((len(play.notation()) for play in plays), default=0)
    for play in plays:
        print(f"{play.notation():<{width}}  {play.after.text()}")
    return 0


def _start(args: argparse.Namespace) -> int:
    if args.variant == "draughts":
        print(draughts.Position.start().fen())
    else:
        print(Position.start(args.variant).text())
    return 0


def _perft(args: argparse.Namespace) -> int:
    if args.game != "draughts":
        raise ValueError("perft is defined for draughts only")
    fen = args.fen or draughts.Position.start().fen()
    print(draughts.perft(draughts.Position.from_fen(fen), args.depth))
    return 0


def _verify_dice(args: argparse.Namespace) -> int:
    """PL-2: recompute every roll of a record; exit 0 honest, 1 not, 2 unreadable."""
    from sheshbesh.play.record import loads, verify_dice

    record = loads(_read(args.record))
    verdict = verify_dice(record)
    if record.get("game") == "draughts" and not verdict.rolls_checked:
        print("no dice: draughts is played without dice")
        return 0
    print(verdict.report())
    if record.get("game") == "chouette" and verdict.honest:
        print(f"the session's {len(record['events'])} events replay through the rules: "
              "seq, payments and lineups as recorded")  # fmt: skip
    return 0 if verdict.honest else 1


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None


def _export(args: argparse.Namespace) -> int:
    """Write a record as PDN (draughts), .mat (games gnubg plays) or our text format (the
    other race variants, and chouette sessions)."""
    from sheshbesh.play.record import loads

    record = loads(_read(args.record))
    if record.get("game") == "chouette":
        from sheshbesh.play.text_record import export_text

        if args.format == "mat":
            raise ValueError("a chouette session exports to our text format only (--format text)")
        date = None if args.date.startswith("?") else args.date
        text = export_text(record, seats=args.seat or (), date=date)
    elif record.get("game") == "draughts":
        from sheshbesh.play.draughts_record import export_pdn, game_of

        text = export_pdn(
            game_of(record), white=args.white, black=args.black, event=args.event,
            date=args.date, site=args.site,
        )  # fmt: skip
    else:
        from sheshbesh.play.mat import MAT_VARIANTS, export_record
        from sheshbesh.play.text_record import export_text

        date = None if args.date.startswith("?") else args.date
        variant = record["created"].get("variant", record["created"].get("game", {}))
        use_text = args.format == "text" or (
            args.format is None and record.get("game") == "race" and variant not in MAT_VARIANTS
        )
        if use_text:
            text = export_text(record, white=args.white, black=args.black, date=date)
        else:
            text = export_record(record, white=args.white, black=args.black, date=date)
    _write(args.output, text)
    return 0


def _import(args: argparse.Namespace) -> int:
    """Read PDN or .mat into sheshbesh records (JSON, one per game)."""
    from sheshbesh.play.record import dumps

    text = _read(args.file)
    if args.file.lower().endswith(".pdn"):
        from sheshbesh.play.draughts_record import import_pdn, make_record

        records = [make_record(created, events) for created, events in import_pdn(text)]
    elif text.lstrip().startswith('[Format "sheshbesh-text'):
        from sheshbesh.play.text_record import import_text

        records = [import_text(text)]
    else:
        from sheshbesh.play.mat import import_records

        records = import_records(text)
    _write(args.output, "\n".join(dumps(record) for record in records))
    return 0


def _write(path: str | None, text: str) -> None:
    if path is None:
        print(text)
        return
    with open(path, "w", encoding="utf-8") as file:
        file.write(text if text.endswith("\n") else text + "\n")


def _serve(args: argparse.Namespace) -> int:
    """Run the club (uvicorn) until interrupted; migrations run at start."""
    import uvicorn

    from sheshbesh.server.app import create_app
    from sheshbesh.server.collector import tune
    from sheshbesh.server.serving import UVICORN
    from sheshbesh.server.settings import Settings

    settings = Settings.from_env(database_url=args.db, redis_url=args.redis)
    app = create_app(settings)
    tune()
    # Only a trusted proxy's X-Forwarded-For names the client: the per-address limits
    # (signups, wrong passwords) count real addresses, and nobody else can forge one.
    proxies = args.proxies or os.environ.get("SHESHBESH_TRUSTED_PROXIES") or None
    print(f"sheshbesh: the club is at http://{args.host}:{args.port}", file=sys.stderr, flush=True)
    uvicorn.run(
        app, host=args.host, port=args.port, log_level="warning",
        proxy_headers=proxies is not None, forwarded_allow_ips=proxies, **UVICORN,
    )  # fmt: skip
    return 0


def _moderate(args: argparse.Namespace) -> int:
    """An operator's action on one account, straight on the club's database."""
    import asyncio
    import json
    import time

    from sheshbesh.server.accounts.moderation import (
        Moderation,
        dismiss_report,
        flagged_reports,
        moderate,
    )
    from sheshbesh.server.settings import Settings
    from sheshbesh.store.db import Database

    about_reports = args.reports or args.dismiss is not None
    if about_reports == (args.username is not None):
        raise ValueError(
            "moderate takes a USERNAME and an action, or --reports or --dismiss REPORT alone"
        )
    action = None
    if not about_reports:
        action = Moderation(close=args.close, reopen=args.reopen, mute_minutes=args.mute,
                            unmute=args.unmute).check()  # fmt: skip
    settings = Settings.from_env(database_url=args.db, redis_url=args.redis)

    async def run() -> dict[str, object]:
        db = Database(settings.database_url)
        bus = None
        try:
            await db.migrate()
            if args.dismiss is not None:
                return await dismiss_report(db, args.dismiss, time.time())
            if action is None:
                return {"reports": await flagged_reports(db)}
            if action.close and settings.redis_url:  # to close its sockets at once
                bus = await _reach(settings.redis_url, settings.session_check)
            return await moderate(db, args.username, action, time.time(), bus)
        finally:
            if bus is not None:
                await bus.stop()
            await db.close()

    print(json.dumps(asyncio.run(run())))
    return 0


async def _reach(redis_url: str, check: float) -> Bus | None:
    """The servers' Redis, to tell them of ended sessions; None (said why) if unreachable."""
    from sheshbesh.server.pubsub import RedisBus

    bus = RedisBus(redis_url)
    try:
        await bus.start()
    except Exception as error:
        with contextlib.suppress(Exception):
            await bus.stop()
        print(f"sheshbesh: Redis unreachable ({error}); open sockets of the account "
              f"stop acting within {check:g} s instead of at once", file=sys.stderr)  # fmt: skip
        return None
    return bus


NET_VARIANTS = ("long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet")


def _train(args: argparse.Namespace) -> int:
    """Self-play training (docs/training/README.md): weights and a log line per checkpoint."""
    # One BLAS thread: the matrices are small, and threads only fight on a shared machine.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    import time

    from sheshbesh.bots.nets.net import HIDDEN, Net
    from sheshbesh.bots.nets.train import Schedule, train

    out = args.out or f"{args.variant}.npz"
    log_path = args.log or os.path.splitext(out)[0] + ".log"
    if args.resume:
        net = Net.load(args.resume, widen=True)
        if args.hidden is not None:
            net.grow(args.hidden, args.seed)
    else:
        net = Net.create(args.variant, args.seed, args.hidden or HIDDEN)
    schedule = Schedule() if args.alpha_floor is None else Schedule(floor=args.alpha_floor)
    if net.variant != args.variant:
        raise ValueError(f"{args.resume} holds a {net.variant} net, not {args.variant}")
    if args.complement and not net.rules.doubles_chain:
        raise ValueError(f"--complement is RB-8's: {args.variant} owes no complement")
    began = time.perf_counter()
    with open(log_path, "a" if args.resume else "w", encoding="utf-8") as log:

        def write(line: str) -> None:
            log.write(line + "\n")
            log.flush()
            print(line, flush=True)

        resumed = f" --resume {args.resume} (at {net.games} games)" if args.resume else ""
        if args.alpha_floor is not None:
            resumed += f" --alpha-floor {args.alpha_floor:g}"
        if args.complement:
            resumed += " --complement"
        if args.hidden is not None:
            resumed += f" --hidden {args.hidden}"
        write(f"# sheshbesh train {args.variant} --games {args.games} --seed {args.seed}"
              f"{resumed} (checkpoints: {args.checkpoint_games} games vs {args.against} "
              f"every {args.checkpoint})")  # fmt: skip
        train(net, args.games, args.seed, schedule=schedule, checkpoint=args.checkpoint,
              checkpoint_games=args.checkpoint_games, opponent=args.against, log=write,
              save=lambda trained: trained.save(out), complement=args.complement)  # fmt: skip
        net.save(out)
        write(f"# done: {net.games} games in {time.perf_counter() - began:.0f} s; weights {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheshbesh",
        description="sheshbesh: the backgammon family and International draughts.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    moves = commands.add_parser("moves", help="list legal plays")
    moves.add_argument("--stdin", action="store_true", help="serve JSON lines on stdin")
    moves.add_argument("variant", nargs="?", choices=VARIANTS)
    moves.add_argument("position", nargs="?", help="canonical text, gnubg ID or FEN")
    moves.add_argument("roll", nargs="?", help="dice, e.g. 3-1")

    start = commands.add_parser("start", help="print the starting position")
    start.add_argument("variant", choices=VARIANTS)

    verify = commands.add_parser("verify-dice", help="recompute every roll of a game record")
    verify.add_argument("record", help="a sheshbesh record (JSON)")

    export = commands.add_parser("export", help="write a game record as PDN, .mat or text")
    export.add_argument("record", help="a sheshbesh record (JSON)")
    export.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    export.add_argument(
        "--format", choices=["mat", "text"], default=None,
        help="race games: .mat (backgammon, takhte nard; default) or our text format"
        " (chouette: text only)",
    )  # fmt: skip
    export.add_argument("--white", default="White")
    export.add_argument("--black", default="Black")
    export.add_argument(
        "--seat", action="append", metavar="NAME",
        help="chouette: the person in each seat, in seat order (repeat it)",
    )  # fmt: skip
    export.add_argument("--event", default="sheshbesh")
    export.add_argument("--date", default="????.??.??", help="YYYY.MM.DD")
    export.add_argument("--site", default=None)

    import_ = commands.add_parser("import", help="read PDN, .mat or text into sheshbesh records")
    import_.add_argument("file", help="a .pdn, .mat or sheshbesh text file")
    import_.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")

    serve = commands.add_parser("serve", help="run the club at http://127.0.0.1:8000")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--db", default=None,
        help="SQLite file or database URL (default: $DATABASE_URL, else sheshbesh.db)",
    )  # fmt: skip
    serve.add_argument("--redis", default=None, help="Redis URL (default: $REDIS_URL; none)")
    serve.add_argument(
        "--proxies", default=None, metavar="ADDRESSES",
        help="reverse proxies (comma-separated addresses) whose X-Forwarded-For names the"
             " client (default: $SHESHBESH_TRUSTED_PROXIES; none)",
    )  # fmt: skip

    moderate = commands.add_parser(
        "moderate", help="close, reopen or mute an account; read the club's reports"
    )
    moderate.add_argument("username", nargs="?")
    moderate.add_argument("--db", default=None, help="as for serve")
    moderate.add_argument(
        "--redis", default=None, help="as for serve: a close then closes the account's sockets"
    )
    chosen = moderate.add_mutually_exclusive_group(required=True)
    chosen.add_argument(
        "--close", action="store_true", help="end its sessions, refuse logins, cancel requests"
    )
    chosen.add_argument("--reopen", action="store_true")
    chosen.add_argument("--mute", type=int, metavar="MINUTES", help="refuse its chat lines")
    chosen.add_argument("--unmute", action="store_true")
    chosen.add_argument(
        "--reports", action="store_true", help="list the flagged reports (no USERNAME)"
    )
    chosen.add_argument(
        "--dismiss", type=int, metavar="REPORT",
        help="take a flagged report off the list; only new evidence flags it again",
    )  # fmt: skip

    train = commands.add_parser("train", help="train a race variant's net by self-play")
    train.add_argument("variant", choices=NET_VARIANTS)
    train.add_argument("--games", type=int, required=True)
    train.add_argument("--seed", type=int, required=True)
    train.add_argument("--out", default=None, help="weights file (default: VARIANT.npz)")
    train.add_argument("--log", default=None, help="training log (default: OUT with .log)")
    train.add_argument(
        "--checkpoint", type=int, default=1000, help="games between log lines (0: none)"
    )
    train.add_argument(
        "--checkpoint-games", type=int, default=200,
        help="games against --against at each log line (0: no strength checkpoints)",
    )  # fmt: skip
    train.add_argument("--against", default="expectimax:medium")
    train.add_argument(
        "--resume", default=None, metavar="WEIGHTS",
        help="go on from these weights (their game count and α) for --games more games; "
        "inputs the encoding has gained since start at weight zero",
    )  # fmt: skip
    train.add_argument(
        "--alpha-floor", type=float, default=None, metavar="ALPHA",
        help="the least learning rate (default 0.01): α halves every 20 000 games to it",
    )  # fmt: skip
    train.add_argument(
        "--complement", action="store_true",
        help="RB-8: self-play chooses a double's first four moves by the complement "
        "after them, as the 0-ply bot plays (Russian backgammon only)",
    )  # fmt: skip

    train.add_argument(
        "--hidden", type=int, default=None, metavar="UNITS",
        help="hidden units (default 80); with --resume, the layer grows to this many, "
        "the new units silent until training gives them weight",
    )  # fmt: skip

    perft = commands.add_parser("perft", help="count move-tree leaves (draughts)")
    perft.add_argument("game", choices=["draughts"])
    perft.add_argument("--fen", default=None)
    perft.add_argument("--depth", type=int, required=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "moves":
            if args.stdin:
                serve_moves(sys.stdin, sys.stdout)
                return 0
            if not args.variant or not args.position:
                parser.error("moves needs --stdin, or VARIANT POSITION ROLL")
            return _print_moves(args)
        if args.command == "start":
            return _start(args)
        if args.command == "verify-dice":
            return _verify_dice(args)
        if args.command == "export":
            return _export(args)
        if args.command == "import":
            return _import(args)
        if args.command == "serve":
            return _serve(args)
        if args.command == "moderate":
            return _moderate(args)
        if args.command == "train":
            return _train(args)
        return _perft(args)
    except ValueError as error:
        print(f"sheshbesh: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
