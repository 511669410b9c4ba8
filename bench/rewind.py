"""Rewind costs (issue 11): reading a match's latest version, version 10, a random version, and one
page of its events, for matches of 100, 1,000 and 10,000 events.

    python bench/rewind.py [--store sqlite|postgres] [--sizes 100,1000,10000] [--reads 20]

Each match is a long Le Bouffon match (5 seats, up to 100 deals) played with random legal moves
through the service's commands, so snapshots are taken as they are in production (after a save that
crosses a multiple of ``application.snapshots.INTERVAL``). Every read is cold: the aggregate cache is
emptied first, so the figure is what a fresh process (or an evicted match) pays. "no snapshots" is the
same read replaying every event from the first, as before issue 11. Goal: a random version within 2x
of version 10.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from application.history import History  # noqa: E402
from application.ports import NoTaskQueue  # noqa: E402
from application.views import Viewer  # noqa: E402
from infrastructure.composition import build  # noqa: E402
from infrastructure.settings import Settings  # noqa: E402

PAGE = 100


def settings_for(store: str) -> tuple[Settings, callable]:
    if store == "sqlite":
        return Settings(store="sqlite", sqlite_path=os.path.join(tempfile.mkdtemp(), "rewind.sqlite")), lambda: None
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    pg = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres")
    with psycopg.connect(**pg, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop():
        with psycopg.connect(**pg, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    return Settings(store="postgres", postgres_dbname="test", postgres_schema=schema), drop


def long_match(app, events: int, rng: random.Random):
    """A Le Bouffon match played until it holds at least ``events`` events."""
    players = [app.get_player(app.register_player(f"p{i}")[0]) for i in range(5)]
    match_id = app.create_match(players[0], "le-bouffon", 5, {"deals": 100}, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    while True:
        match = app.get_match(match_id)
        if match.version >= events or match.status == "finished":
            return match_id, match.version
        turn = match.to_act()
        if turn.kind == "auto":
            app.resolve_automatic_step(match_id)
            continue
        seat = rng.choice(turn.seats)
        app.submit_move(match_id, players[seat], rng.choice(match.engine.legal_actions(match.state, seat)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--reads", type=int, default=20)
    args = parser.parse_args()
    settings, drop = settings_for(args.store)
    container = build(settings, tasks=NoTaskQueue())
    app = container.app
    history = History(app)
    rng = random.Random(2026)
    auditor = Viewer.the_auditor()

    def cold(read):
        def run():
            app.repository.cache.__init__(maxsize=2000)  # empty: every read starts from the store
            return read()
        return run

    def median_ms(read, repeat=args.reads):
        samples = []
        for _ in range(repeat):
            start = time.perf_counter()
            read()
            samples.append((time.perf_counter() - start) * 1000)
        return statistics.median(samples)

    def full_replay(match_uuid, version):
        aggregate = None
        for event in app.events.get(match_uuid, lte=version):
            aggregate = event.mutate(aggregate)
        return aggregate

    print(f"store: {args.store}; snapshot interval {__import__('application.snapshots').snapshots.INTERVAL}; "
          f"median of {args.reads} cold reads, ms")
    print(f"{'events':>7} {'latest':>8} {'v10':>8} {'random':>8} {'page':>8} {'random/v10':>10} "
          f"{'no snapshots: latest':>21} {'random':>8}")
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            match_id, last = long_match(app, size, rng)
            match_uuid = app.get_match(match_id).id
            randoms = [rng.randint(1, last) for _ in range(args.reads)]
            offsets = [rng.randint(0, max(0, last - PAGE)) for _ in range(args.reads)]
            rewinds, replays, pages = iter(randoms), iter(randoms), iter(offsets)
            latest = median_ms(cold(lambda: app.get_match(match_id)))  # noqa: B023 - called at once
            # Version 10 and random versions alternate, so both see the same load on the machine.
            pair = [(median_ms(cold(lambda: app.get_match(match_id, 10)), 1),  # noqa: B023
                     median_ms(cold(lambda: app.get_match(match_id, next(rewinds))), 1))  # noqa: B023
                    for _ in range(args.reads)]
            v10 = statistics.median(p[0] for p in pair)
            random_v = statistics.median(p[1] for p in pair)
            page = median_ms(cold(lambda: history.events(match_id, auditor, after=next(pages), limit=PAGE)))  # noqa: B023
            plain_latest = median_ms(lambda: full_replay(match_uuid, None), repeat=min(args.reads, 5))  # noqa: B023
            plain_random = median_ms(lambda: full_replay(match_uuid, next(replays)), repeat=min(args.reads, 5))  # noqa: B023
            print(f"{last:>7} {latest:>8.1f} {v10:>8.1f} {random_v:>8.1f} {page:>8.1f} {random_v / v10:>10.2f} "
                  f"{plain_latest:>21.1f} {plain_random:>8.1f}")
    finally:
        container.close()
        drop()


if __name__ == "__main__":
    main()
