"""`motley serve` runs the API (waitress in one process; gunicorn with `--processes N`, api/wsgi.py);
`motley migrate` creates the tables once."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from typing import Any, Callable, Optional, Sequence

from infrastructure.rebuild import READ_MODELS


def counted(low: int, high: Optional[int] = None) -> Callable[[str], int]:
    """An argument that is a whole number from ``low`` (to ``high``): ``--port 70000`` listened on 4464
    (the port modulo 65536), and ``--threads 0`` started a server that never answered."""
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if number < low or (high is not None and number > high):
            raise argparse.ArgumentTypeError(f"{number} is not in {low}..{high}" if high is not None
                                             else f"{number} is less than {low}")
        return number
    return parse


def main(argv=None) -> None:
    try:
        _main(argv)
    except KeyboardInterrupt:  # Ctrl-C before a command's own handling (while it starts): one line, not a traceback
        print("motley: interrupted", file=sys.stderr)
        raise SystemExit(128 + signal.SIGINT) from None


def _main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="motley", description="Motley game service")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=counted(1, 65535), default=8000)
    serve.add_argument("--threads", type=counted(1), default=8, help="request threads per process")
    serve.add_argument("--stream-threads", type=counted(1, 5000), default=None,
                       help="threads for streams and waiting reads beside the request threads, per process "
                            "(600 under waitress, 200 under gunicorn or MOTLEY_STREAM_THREADS; api/server.py, "
                            "api/wsgi.py); past them such requests are answered 503")
    serve.add_argument("--processes", type=counted(1), default=1,
                       help="API processes; above 1 they run under gunicorn, each with its own pools (PostgreSQL)")
    serve.add_argument("--server", choices=("waitress", "gunicorn"), default=None,
                       help="the WSGI server: waitress for one process (the default), gunicorn for several")
    serve.add_argument("--port-wait", type=counted(0, 600), default=15, metavar="SECONDS",
                       help="how long a port in use is waited for before serve gives up (a server killed "
                            "without its workers leaves them holding it for their graceful timeout)")
    commands.add_parser("migrate", help="create the event store and read-model tables, then exit")
    rebuild_command = commands.add_parser("rebuild", help="rebuild a read model from the events, then exit")
    rebuild_command.add_argument("read_model", choices=sorted(READ_MODELS),
                         help="; ".join(f"{name}: {what}" for name, what in sorted(READ_MODELS.items())))
    check = commands.add_parser("verify", help="check an exported match: its rules and its provable chance")
    check.add_argument("file", help="a match export (JSON Lines), e.g. from GET /matches/{id}/export")
    check.add_argument("--parent", action="append", default=[], metavar="EXPORT",
                       help="a fork's parent's export, against which its copied history is checked (again for "
                            "the parent's parent, and so on, when the parent is a fork too: in that order, the "
                            "parent first, then its parent)")
    from api.simulate import add_parser as add_simulate
    from api.simulate import simulate

    add_simulate(commands)  # `motley simulate`: bots against bots in the engine alone (issue 14)
    args = parser.parse_args(argv)
    if args.command == "simulate":
        raise SystemExit(simulate(args))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    if args.command == "verify":
        raise SystemExit(verify_file(args.file, args.parent))
    try:
        run(args)
    except Exception as error:  # noqa: BLE001 - an operator's mistake is one line, not a traceback
        if os.environ.get("MOTLEY_TRACEBACK"):
            raise
        print(f"motley {args.command}: {failure(error)}", file=sys.stderr)
        raise SystemExit(1) from None


def failure(error: Exception) -> str:
    """What went wrong, in one line, naming the store when it is the store that failed: "couldn't get a
    connection after 2.00 sec" named neither the host nor the database."""
    import sqlite3

    import psycopg
    import psycopg_pool
    from eventsourcing.persistence import PersistenceError

    from infrastructure.settings import Settings

    text = " ".join(str(error).split()) or type(error).__name__
    try:
        settings = Settings.from_env()
    except Exception:  # noqa: BLE001 - the settings are what failed: the message says so
        return text
    store_failed = isinstance(error, (PersistenceError, psycopg.Error, psycopg_pool.PoolTimeout, sqlite3.Error))
    if store_failed and settings.store == "postgres":
        return (f"{text} (PostgreSQL at {settings.postgres_host}:{settings.postgres_port}, database "
                f"{settings.postgres_dbname}, user {settings.postgres_user}, schema {settings.postgres_schema})")
    if store_failed and settings.store == "sqlite":
        return f"{text} (SQLite file {settings.sqlite_path})"
    return text


def run(args: argparse.Namespace) -> None:
    from infrastructure.composition import build, build_when_reachable, check_store
    from infrastructure.settings import Settings

    if args.command == "rebuild":
        from application.ports import NoTaskQueue
        from infrastructure.rebuild import position, rebuild

        settings = Settings.from_env()
        if settings.store == "sqlite" and not (os.path.isfile(settings.sqlite_path)
                                               and os.path.getsize(settings.sqlite_path) > 0):
            # A mistyped path made an empty store and said "rebuilt from 0 events"; so did an empty file,
            # which SQLite takes for a new database (a command-line probe).
            raise FileNotFoundError(f"no event store at {settings.sqlite_path} (MOTLEY_SQLITE_PATH)")
        check_store(settings)
        container = build(settings, tasks=NoTaskQueue())  # a rebuild sends no work to anyone
        try:
            applied = rebuild(container, args.read_model)
            reached = position(container, args.read_model)
            end = container.app.log_position()
        finally:
            container.close()
        # A worker projecting beside the command takes its share of the events: the count alone (it could
        # be 0) read as a rebuild that did nothing, though the read model is whole. Its position says so.
        # Fewer events than the position is no sign of a worker: PostgreSQL's log ids have gaps (ids
        # of rolled-back inserts), and the command named a worker that was not running.
        # A worker that wrote first stops the command where it is (the worker carries on from there): the
        # position it said was far short of the log's end, read as "rebuilt, and done" (an operator probe).
        if reached < end:
            print(f"{args.read_model} rebuilt up to position {reached} of the event log, which is at {end} "
                  f"({applied} events projected by this command): a worker projecting beside it carries on "
                  "from there; the read model is whole once the workers have caught up (motley_projection_lag_"
                  "events at 0 on /metrics)")
        elif applied >= reached:
            print(f"{args.read_model} rebuilt from {applied} events, at position {reached} of the event log")
        else:
            print(f"{args.read_model} rebuilt: at position {reached} of the event log ({applied} events projected "
                  "by this command" + (", the rest by a worker projecting beside it)" if applied == 0 else ")"))
        return
    if args.command == "migrate":
        settings = Settings.from_env(create_tables=True)
        check_store(settings)
        build(settings).close()
        print("tables ready")
        return

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR", None) == "":
        # Set but empty is unset: prometheus_client read it as the current folder and left its files there,
        # unclaimed (a probe); gunicorn's master makes a folder of its own for it (api/wsgi.on_starting).
        del os.environ["PROMETHEUS_MULTIPROC_DIR"]
    server = args.server or ("waitress" if args.processes == 1 else "gunicorn")
    if server == "gunicorn":
        raise SystemExit(serve_processes(args, Settings.from_env()))

    from api import create_app
    from api.request_log import configure
    from api.server import STREAM_THREADS, make_server

    configure()  # JSON log lines, each request's with its request id (api/request_log.py)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # its counters are kept in files there (api/metrics.py)
        from api.wsgi import claim_metrics_folder

        claim_metrics_folder(os.environ["PROMETHEUS_MULTIPROC_DIR"], empty=False)
    # Before the store: a port in use, with PostgreSQL away, retried the store for ever and never named it.
    check_listening(args.host, args.port, args.port_wait)
    container = build_when_reachable()
    try:
        # Bound before it is announced or starts work: a port in use was a traceback after "Motley on ...".
        server = make_server(create_app(container), args.host, args.port, args.threads,
                             args.stream_threads or STREAM_THREADS)
    except OSError as error:
        container.close()
        raise OSError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    except BaseException:
        container.close()
        raise
    container.start()  # serving picks up work a previous run left; `migrate` above starts nothing
    settings = container.settings
    print(f"Motley on http://{args.host}:{args.port}/docs (store: {settings.store}, tasks: {settings.tasks})")
    signal.signal(signal.SIGTERM, stop_serving(container))
    try:
        server.run()  # until SIGTERM or Ctrl-C: waitress then stops its threads and returns
    finally:
        container.close()


def stop_serving(container) -> Callable[[int, Any], None]:
    """SIGTERM's handler for the one-process server: the open streams end, waitress stops (its run() ends
    on SystemExit), and the container is closed, which says what its outbox still holds. SIGTERM ended
    the process at once: open streams cut, and the tasks kept while the broker was away dropped without
    the line their close says (an operator probe)."""
    def on_term(signum: int, frame: Any) -> None:
        from api.context import stop_streams

        stop_streams(getattr(container, "watcher", None))
        raise SystemExit(0)

    return on_term


def check_listening(host: str, port: int, wait: float = 0) -> None:
    """Refuse, naming them, a host and port this process cannot listen on (not this machine's, or in use
    for longer than ``wait`` seconds). A restart after the gunicorn master was killed (kill -9) found its
    workers still holding the port for their graceful timeout, and gave up at once (a probe)."""
    import errno
    import socket
    import time

    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            with socket.create_server((host, port)):
                return
        except OSError as error:
            if error.errno != errno.EADDRINUSE or time.monotonic() >= deadline:
                raise OSError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
            if not told:
                told = True
                print(f"motley serve: {host}:{port} is in use; waiting up to {wait:g} s for it (--port-wait)",
                      file=sys.stderr, flush=True)
            time.sleep(0.25)


def serve_processes(args, settings) -> int:
    """gunicorn with ``--processes`` workers (api/wsgi.py): the tables are created here, once, before
    the fork; every worker builds its own application with ``MOTLEY_CREATE_TABLES=n``."""
    import os

    from api.rates import parse_limits
    from api.wsgi import claim_metrics_folder, serve, stream_threads
    from application.ports import NoTaskQueue
    from infrastructure.composition import build_when_reachable

    if settings.store != "postgres" and args.processes > 1:
        print("motley serve: several API processes need the PostgreSQL store (MOTLEY_STORE=postgres); "
              "the embedded SQLite store is served by one process", file=sys.stderr)
        return 2
    # Settings the workers read, named here in one line before anything is bound or touched: a bad rate
    # limit was each worker's traceback, after the port was bound and the metrics folder emptied.
    parse_limits(settings.rate_limits)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        claim_metrics_folder(os.environ["PROMETHEUS_MULTIPROC_DIR"])  # another server's: refused (api/wsgi.py)
    # gunicorn binds after the announcement below: a port in use said it served. Checked before the store,
    # which is waited for while it is away: a port in use then was never named.
    check_listening(args.host, args.port, args.port_wait)
    if args.stream_threads is None:
        stream_threads()  # a bad MOTLEY_STREAM_THREADS is named before the announcement, not after it
    if settings.create_tables:
        build_when_reachable(settings, tasks=NoTaskQueue()).close()  # the tables, once, before any worker exists
    os.environ["MOTLEY_CREATE_TABLES"] = "n"
    print(f"Motley on http://{args.host}:{args.port}/docs ({args.processes} processes x {args.threads} threads, "
          f"store: {settings.store}, tasks: {settings.tasks})", flush=True)
    serve(args.processes, args.threads, args.host, args.port, args.stream_threads)
    return 0


def verify_file(path: str, parents: Sequence[str] = ()) -> int:
    """Replay the export through the rules (every step checked) and re-derive every chance outcome
    from the revealed seed; print the verdict; 0 when it holds, 1 when it does not. A fork's copied
    history is checked against its parent's export (``parents``: the parent's, then its parent's...)."""
    import json

    from application.chance import ENDINGS, verify_lineage
    from application.history import Importer, ImportRefused, export_prefix

    def read(name: str) -> str:
        try:
            with open(name, encoding="utf-8-sig") as export:  # a byte-order mark (a Windows editor's) is no line
                return export.read()
        except (OSError, UnicodeDecodeError) as error:  # one line, not a traceback
            raise SystemExit(f"motley verify: cannot read {name}: {error}") from None

    def check(text: str, ancestors: list[tuple[str, str]], depth: int = 0) -> None:
        if ancestors and not is_fork(text):
            # A parent no fork needs played no part: the verdict said nothing of it (a command-line probe).
            whose = "the history" if depth == 0 else f"--parent number {depth}"
            raise ImportRefused(f"line 1: {whose} is no fork, so --parent {ancestors[0][0]} has nothing to check "
                                "(give a parent only for a fork, and one for each fork up its lineage)",
                                line=1, reason="parent")
        if ancestors:
            name, parent = ancestors[0]
            try:
                check(parent, ancestors[1:], depth + 1)  # the parent holds up itself first
            except ImportRefused as refusal:
                if refusal.extra.get("parent_file"):
                    raise
                # Its line numbers are the parent's: "line 6: ..." read as the fork's own line 6.
                refusal.detail = f"--parent {name}: {refusal.detail}"
                refusal.extra["parent_file"] = name
                raise
            Importer(parent_prefix=export_prefix(parent)).run(text)
        else:
            if is_fork(text):
                # Named for the file that lacks its parent: of a fork of a fork, the grandparent is missing,
                # and "give the parent's export" sent the user after a file already given.
                whose = "the parent's export with --parent" if depth == 0 else (
                    f"the export of the parent of --parent number {depth} (itself a fork), as a further --parent")
                raise ImportRefused("line 1: a fork's copied history is checked against its parent: give "
                                    f"{whose}", line=1, reason="parent")
            Importer().run(text)

    def is_fork(text: str) -> bool:
        try:
            first = json.loads(text.split("\n", 1)[0])
        except ValueError:
            return False  # the Importer says what is wrong with it
        return isinstance(first, dict) and isinstance(first.get("data"), dict) and bool(first["data"].get("parent"))

    def is_redacted(text: str) -> bool:
        try:
            return any(isinstance(line, dict) and isinstance(line.get("data"), dict) and line["data"].get("hidden")
                       for line in map(json.loads, filter(str.strip, text.splitlines())))
        except ValueError:
            return False  # the Importer says what is wrong with it

    def refused(reason: str, line: Optional[int], **where: Any) -> dict:
        """A refusal, with the keys of a verdict that holds (the README: every verdict names its last
        version and whether it holds the end; a refusal gave only its reason and line)."""
        lines = []
        for raw in filter(str.strip, text.splitlines()):
            try:
                lines.append(json.loads(raw))
            except ValueError:
                break
        events = [line for line in lines if isinstance(line, dict)]
        last = events[-1].get("version") if events else None
        data = events[0].get("data") if events else None
        chance = data.get("chance") if isinstance(data, dict) else None
        commitment = chance.get("commitment") if isinstance(chance, dict) else None
        return {"verified": False, "chance_outcomes_checked": 0, "reason": reason, "version": None,
                "inherited_from_parent": 0, "last_version": last if isinstance(last, int) else None,
                "ended": any(event.get("event") in ENDINGS for event in events), "line": line, **where,
                **({"commitment": commitment} if commitment is not None else {})}

    text = read(path)
    if is_redacted(text):  # the check would fail at the first hidden outcome, and say less
        print(json.dumps(refused(
            "the export is redacted (a seat's or the public's, of a match not revealed): verify an auditor's "
            "export, or the public export once the match has ended and been revealed", None), indent=2))
        return 1
    try:
        ancestry = [(name, read(name)) for name in parents]
        check(text, ancestry)
        # A fork's copied outcomes hold as far as its parents' histories prove them (verify_lineage).
        verdict = verify_lineage([[json.loads(line) for line in filter(str.strip, history.splitlines())]
                                  for history in [text, *(parent for _, parent in ancestry)]]).to_json()
    except ImportRefused as refusal:
        verdict = refused(refusal.detail, refusal.extra.get("line"), file=refusal.extra.get("parent_file", path))
    except ValueError:  # a parent's export that is not JSON Lines
        verdict = refused("a parent's export is not JSON Lines", None)
    print(json.dumps(verdict, indent=2))
    return 0 if verdict["verified"] else 1


if __name__ == "__main__":
    main()
