"""What rebuilding a match from its stored events costs against the bare engine (issue 16, P4).

    python bench/replay_cost.py [--store sqlite|postgres] [--matches 5] [--repeats 5]

Plays random Le Bouffon and Jest matches through the service's commands, then times, per match:
- bare engine: ``engine.initial_state`` and ``engine.apply`` for the same actions, chance outcomes
  and steps, taken from the stored events beforehand (no store, no aggregate);
- library projection: the stored events, already read and decoded by the library's mapper, applied
  to a new Match aggregate by the library's ``mutate`` (the repository's path before issue 16's P4);
- projection: the stored records, already read, decoded and applied by the repository's own
  projector (application/replay.py ``Replayer.project``: what the repository does after reading);
- rebuild from the store: a cold read of the match through the service's repository
  (``KeyedSnapshotRepository.get(id, version=latest)``: read, decode, apply; its cache is not used
  for a versioned read) with its snapshot store taken away, so every event is replayed;
- library rebuild: the library's read of the same events and its projection (``app.events.get``, its
  mapper, each event's ``mutate``: the repository's path before issue 16's P4), for comparison;
- with snapshots: the same read with the snapshot store, as the service reads a match it has not
  cached (nearest snapshot, then the events after it): per read, not per event.
Prints each per event and the ratios rebuild / bare and projection / bare (goal: at most 2x), then
the fixed cost of a rebuild (a rewind to version 1: its query and the creation event) and the
marginal cost of one more event, fitted over rewinds of the Le Bouffon matches to several versions.
The figures are wall-clock times (a read waits for the database): on a busy 2-core machine, repeat.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventsourcing.domain import AggregateEvent  # noqa: E402

from application.ports import NoTaskQueue  # noqa: E402
from domain.engine import CHANCE, SYSTEM  # noqa: E402
from infrastructure.composition import build  # noqa: E402
from infrastructure.settings import Settings  # noqa: E402

WARM = 12  # calls before timing a read: more than a pool's connections (5, and 5 more of overflow)
ACTORS = {"MoveMade": lambda e: (e.seat, e.action), "ChanceDrawn": lambda e: (CHANCE, e.outcome),
          "StepResolved": lambda e: (SYSTEM, e.step), "TimedOut": lambda e: (SYSTEM, e.step)}


def play(app: Any, game: str, seats: int, options: dict, rng: random.Random) -> Any:
    players = [app.authenticate(app.register_player(f"p{i}")[1]) for i in range(seats)]
    match_id = app.create_match(players[0], game, seats, options, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    while True:
        match = app.get_match(match_id)
        if match.status == "finished":
            return match.id
        turn = match.to_act()
        if turn.kind != "players":
            app.resolve_automatic_step(match_id)
            continue
        seat = rng.choice(turn.seats)
        app.submit_move(match_id, players[seat], rng.choice(match.engine.legal_actions(match.state, seat)))


def bare_engine(engine: Any, seats: int, options: dict, steps: list) -> Any:
    state = engine.initial_state(seats, options)
    for actor, payload in steps:
        state = engine.apply(state, actor, payload)
    return state


def projection(events: list) -> Any:
    aggregate = None
    for domain_event in events:
        aggregate = cast(AggregateEvent, domain_event).mutate(aggregate)
    return aggregate


def our_projection(repository: Any, match_id: Any, records: list) -> Any:
    return repository.replayer.project(None, match_id, records)


def rebuild_from_store(repository: Any, match_id: Any, version: int) -> Any:
    return repository.get(match_id, version=version)  # the service's path: read, decode, apply each time


def library_rebuild(app: Any, match_id: Any) -> Any:
    return projection(app.events.get(match_id))  # the library's read and decode, each time


def fit(points: list) -> tuple[float, float]:
    """Least squares of (events, seconds): the intercept and the cost of one more event."""
    mean_x = statistics.fmean(x for x, _ in points)
    mean_y = statistics.fmean(y for _, y in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sum((x - mean_x) ** 2 for x, _ in points)
    return mean_y - slope * mean_x, slope


def best(fn, repeats: int, warm: int = 1) -> float:
    """The fastest of ``repeats`` calls after ``warm`` calls (a pool's connections are used in turn, and
    each prepares a statement at its first use: warm them all)."""
    for _ in range(warm):
        fn()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.store == "sqlite":
        settings = Settings(store="sqlite", sqlite_path=str(Path(tempfile.mkdtemp()) / "replay.sqlite"))
    else:
        import psycopg

        schema = f"bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(host="127.0.0.1", dbname="test", user="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        settings = Settings(store="postgres", postgres_dbname="test", postgres_schema=schema)
    container = build(settings, tasks=NoTaskQueue())
    app, rng = container.app, random.Random(1)
    rows, points = [], []
    try:
        for game, seats, options in [("le-bouffon", 5, {"deals": 5}), ("jest", 4, {})]:
            for _ in range(args.matches):
                match_id = play(app, game, seats, options, rng)
                events = list(app.events.get(match_id))
                latest = app.get_match(match_id)
                engine = latest.engine
                steps = [ACTORS[type(e).__name__](e) for e in events if type(e).__name__ in ACTORS]
                records = app.repository.records(match_id)

                bare = partial(bare_engine, engine, latest.num_seats, latest.options, steps)
                library = partial(projection, events)
                ours = partial(our_projection, app.repository, match_id, records)
                assert bare() == latest.state and library().state == latest.state and ours().state == latest.state
                cold = build(settings, tasks=NoTaskQueue())  # a new process's application: nothing cached
                try:
                    with_snapshots = partial(rebuild_from_store, cold.app.repository, match_id, latest.version)
                    assert with_snapshots().state == latest.state
                    snapshotted = best(with_snapshots, args.repeats, warm=WARM)
                    cold.app.repository.snapshot_store = None  # every event replayed
                    rebuild = partial(rebuild_from_store, cold.app.repository, match_id, latest.version)
                    assert rebuild().state == latest.state
                    before = partial(library_rebuild, cold.app, match_id)
                    rows.append((game, len(events), best(bare, args.repeats), best(library, args.repeats),
                                 best(ours, args.repeats), best(rebuild, args.repeats, warm=WARM), snapshotted,
                                 best(before, args.repeats, warm=WARM)))
                    if game == "le-bouffon":
                        for version in sorted({1, 10, 50, 100, 300, latest.version}):
                            rewind = partial(rebuild_from_store, cold.app.repository, match_id, version)
                            points.append((version, best(rewind, args.repeats, warm=WARM)))
                finally:
                    cold.close()
    finally:
        container.close()
    print(f"Rebuilding a match from its events ({args.store}), best of {args.repeats}, per stored event:")
    for game in ("le-bouffon", "jest"):
        mine = [r for r in rows if r[0] == game]
        events = sum(r[1] for r in mine)
        bare_us, library_us, project_us, rebuild_us, before_us = (
            sum(r[i] for r in mine) / events * 1e6 for i in (2, 3, 4, 5, 7))
        print(f"  {game}: {len(mine)} matches, {events / len(mine):.0f} events each: bare engine {bare_us:.1f} us, "
              f"library projection {library_us:.1f} us, projection {project_us:.1f} us, "
              f"rebuild from the store {rebuild_us:.1f} us (the library's read and projection: {before_us:.1f} us)")
        print(f"    ratios: library projection / bare {library_us / bare_us:.2f}, projection / bare "
              f"{project_us / bare_us:.2f}, rebuild / bare {rebuild_us / bare_us:.2f} "
              f"(the library's: {before_us / bare_us:.2f})")
        print(f"    a cold read with snapshots: {statistics.fmean(r[6] for r in mine) * 1e3:.2f} ms per read "
              f"(without: {statistics.fmean(r[5] for r in mine) * 1e3:.2f} ms)")
    ratios = [r[5] / r[2] for r in rows]
    print(f"  rebuild / bare over all matches: median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")
    _, per_event = fit(points)
    fixed = statistics.fmean(seconds for version, seconds in points if version == 1)
    bare_per_event = statistics.fmean(r[2] / r[1] for r in rows if r[0] == "le-bouffon")
    print(f"  a rebuild's fixed cost (a rewind to version 1: one query, the creation event): {fixed * 1e6:.0f} us "
          f"= {fixed / bare_per_event:.0f} events of the bare engine; each more event {per_event * 1e6:.2f} us "
          f"= {per_event / bare_per_event:.2f} x the bare engine's {bare_per_event * 1e6:.2f} us "
          f"(fitted over Le Bouffon rewinds to versions 1 to the last)")


if __name__ == "__main__":
    main()
