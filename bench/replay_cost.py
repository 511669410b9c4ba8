"""What rebuilding a match from its stored events costs against the bare engine (issue 16, P4).

    python bench/replay_cost.py [--store sqlite|postgres] [--matches 5] [--repeats 5]

Plays random Le Bouffon and Jest matches through the service's commands, then times, per match:
- bare engine: ``engine.initial_state`` and ``engine.apply`` for the same actions, chance outcomes
  and steps, taken from the stored events beforehand (no store, no aggregate);
- projection: the stored events, already read and decoded, applied to a new Match aggregate (what
  the repository does after reading);
- rebuild: a cold read of the match from the store (read, decode, apply; no snapshot, no cache).
Prints each per event and the ratios rebuild / bare and projection / bare (goal: at most 2x).
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


def rebuild_from_store(app: Any, match_id: Any) -> Any:
    return projection(app.events.get(match_id))  # read and decode each time


def best(fn, repeats: int) -> float:
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
    rows = []
    try:
        for game, seats, options in [("le-bouffon", 5, {"deals": 5}), ("jest", 4, {})]:
            for _ in range(args.matches):
                match_id = play(app, game, seats, options, rng)
                events = list(app.events.get(match_id))
                latest = app.get_match(match_id)
                engine = latest.engine
                steps = [ACTORS[type(e).__name__](e) for e in events if type(e).__name__ in ACTORS]

                bare = partial(bare_engine, engine, latest.num_seats, latest.options, steps)
                project = partial(projection, events)
                assert bare() == latest.state and project().state == latest.state
                cold = build(settings, tasks=NoTaskQueue())  # no cache; snapshots are skipped below
                try:
                    rebuild = partial(rebuild_from_store, cold.app, match_id)
                    assert rebuild().state == latest.state
                    rows.append((game, len(events), best(bare, args.repeats), best(project, args.repeats),
                                 best(rebuild, args.repeats)))
                finally:
                    cold.close()
    finally:
        container.close()
    print(f"Rebuilding a match from its events ({args.store}), best of {args.repeats}, per stored event:")
    for game in ("le-bouffon", "jest"):
        mine = [r for r in rows if r[0] == game]
        events = sum(r[1] for r in mine)
        bare_us, project_us, rebuild_us = (sum(r[i] for r in mine) / events * 1e6 for i in (2, 3, 4))
        print(f"  {game}: {len(mine)} matches, {events / len(mine):.0f} events each: bare engine {bare_us:.1f} us, "
              f"projection {project_us:.1f} us, rebuild from the store {rebuild_us:.1f} us")
        print(f"    ratios: projection / bare {project_us / bare_us:.2f}, rebuild / bare {rebuild_us / bare_us:.2f}")
    ratios = [r[4] / r[2] for r in rows]
    print(f"  rebuild / bare over all matches: median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main()
