"""What a save of the events table costs: the library's path against ours (issue 16).

    python bench/save_cost.py [--seconds 4]

On two fresh PostgreSQL schemas (MOTLEY_TEST_PG_HOST, database ``test``, user postgres), one Motley
application each: ``eventsourcing.postgres`` (BEGIN, SET LOCAL lock_timeout, LOCK TABLE, NOTIFY,
INSERT, COMMIT, pipelined) and ``infrastructure.postgres_store`` (one statement: the insert function
that takes the lock itself). For 1 and 4 threads, each path saves new one-event players for
``--seconds`` (the two paths alternate in half-periods, so background load falls on both), then
prints saves/s, and statements and round trips per save counted in libpq's protocol trace of 50
further saves. About 20 s in all with the default.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from psycopg import pq  # noqa: E402

from application.service import Motley  # noqa: E402
from domain.player import Player  # noqa: E402
from infrastructure.settings import Settings  # noqa: E402

PG = dict(host=os.environ.get("MOTLEY_TEST_PG_HOST", "127.0.0.1"), port=5432, dbname="test", user="postgres")
PATHS = {"library": "eventsourcing.postgres", "ours": "infrastructure.postgres_store:MotleyPostgresFactory"}


def build(schema: str, module: str) -> Motley:
    settings = Settings(store="postgres", postgres_host=PG["host"], postgres_dbname=PG["dbname"],
                        postgres_user=PG["user"], postgres_schema=schema, postgres_pool_size=5)
    return Motley(env=settings.eventsourcing_env() | {"PERSISTENCE_MODULE": module})


def save_one(app: Motley) -> None:
    app.save(Player(name="bench", key_hash="0" * 64))


def saves_per_second(app: Motley, threads: int, seconds: float) -> tuple[int, float]:
    """Saves made by ``threads`` threads in ``seconds`` (and the time they took)."""
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def run(n: int) -> None:
        while time.perf_counter() < stop:
            save_one(app)
            counts[n] += 1

    started = time.perf_counter()
    workers = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(counts), time.perf_counter() - started


def traced_cost(app: Motley, saves: int) -> tuple[float, float]:
    """Statements (Execute and Query messages) and round trips (Syncs) per save, from libpq's trace."""
    datastore: Any = app.factory.datastore  # type: ignore[attr-defined]
    through_pool = datastore.get_connection
    sent: list[str] = []

    @contextmanager
    def traced() -> Iterator[Any]:
        with through_pool() as conn, tempfile.TemporaryFile("w+") as log:
            conn.pgconn.trace(log.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
            try:
                yield conn
            finally:
                conn.pgconn.untrace()
                log.seek(0)
                sent.extend(line.split("\t")[2].split()[0] for line in log if line.startswith("F\t"))

    datastore.get_connection = traced
    try:
        for _ in range(saves):
            save_one(app)
    finally:
        datastore.get_connection = through_pool
    statements = sum(1 for kind in sent if kind in ("Execute", "Query"))
    return statements / saves, sent.count("Sync") / saves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4.0, help="timed saving per path and thread count")
    args = parser.parse_args()
    schemas = {path: f"bench_{path}_{uuid.uuid4().hex[:8]}" for path in PATHS}
    with psycopg.connect(**PG, autocommit=True) as conn:
        for schema in schemas.values():
            conn.execute(f'CREATE SCHEMA "{schema}"')
    apps = {path: build(schemas[path], module) for path, module in PATHS.items()}
    try:
        for app in apps.values():
            for _ in range(20):  # every pooled connection prepared, the tables warm
                save_one(app)
        print(f"PostgreSQL save of one new player (one event), {args.seconds:g} s per path and thread count")
        print(f"{'path':<8} {'threads':>7} {'saves/s':>9} {'statements/save':>16} {'round trips/save':>17}")
        for threads in (1, 4):
            totals = {path: [0, 0.0] for path in PATHS}
            for _ in range(2):  # alternate halves, so a neighbour's load falls on both paths
                for path, app in apps.items():
                    saves, took = saves_per_second(app, threads, args.seconds / 2)
                    totals[path][0] += saves
                    totals[path][1] += took
            for path, app in apps.items():
                statements, round_trips = traced_cost(app, 50)
                rate = totals[path][0] / totals[path][1]
                print(f"{path:<8} {threads:>7} {rate:>9.0f} {statements:>16.1f} {round_trips:>17.1f}")
        counts = {path: app.recorder.max_notification_id() for path, app in apps.items()}
        print("notifications written:", ", ".join(f"{path} {count}" for path, count in counts.items()))
    finally:
        for app in apps.values():
            app.close()
        with psycopg.connect(**PG, autocommit=True) as conn:
            for schema in schemas.values():
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
