"""Projection lag: how long after a match's last event its result shows on the leaderboard and in
the tournament standings, with a real Celery worker projecting on PostgreSQL.

    python bench/projection_lag.py [--rates 1,2,4] [--matches 20] [--burst 30]

On a fresh PostgreSQL schema (database ``test`` on 127.0.0.1) it starts a Celery worker (``-c 2``),
creates one single-round Le Bouffon tournament per phase (tables of three, one deal), and finishes
its matches at each steady rate: each match is played through the service beforehand up to its
last move, which is made at its scheduled time (the bench resolves the automatic steps itself too;
the worker's duplicate is a no-op). A monitor
polls the read models and prints, per rate, the lag from the ``Finished`` event to the row on the
leaderboard and in the standings (p50, p95, max). The backlog phase finishes ``--burst`` matches
while the worker is stopped (SIGSTOP), lets it go (SIGCONT) and prints how many finished matches per
second the projections catch up with, and the lags then.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from application.ports import NoTaskQueue  # noqa: E402
from domain.engine import SYSTEM, Phase  # noqa: E402
from infrastructure.composition import build  # noqa: E402
from infrastructure.settings import Settings  # noqa: E402
from infrastructure.task_queues import CeleryTaskQueue  # noqa: E402

PG = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres")
BROKER = "amqp://guest:guest@127.0.0.1:5672//"


def settings_for(schema: str, queue: str, **extra) -> Settings:
    return Settings(store="postgres", postgres_host=PG["host"], postgres_dbname=PG["dbname"],
                    postgres_user=PG["user"], postgres_schema=schema, postgres_pool_size=6, tasks="celery",
                    broker_url=BROKER, queue=queue, **extra)


def start_worker(schema: str, queue: str, log: Path) -> subprocess.Popen:
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST=PG["host"],
               MOTLEY_POSTGRES_DBNAME=PG["dbname"], MOTLEY_POSTGRES_USER=PG["user"],
               MOTLEY_POSTGRES_SCHEMA=schema, MOTLEY_POSTGRES_POOL_SIZE="2", MOTLEY_TASKS="celery",
               MOTLEY_BROKER_URL=BROKER, MOTLEY_QUEUE=queue, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-c", "2", "-l", "warning",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{queue}@%h", "-f", str(log)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    time.sleep(6)  # -l warning prints no "ready": give it time to connect
    return process


def finishes(engine, state, seat: int, action) -> bool:
    """Whether ``action`` ends the match (after the automatic steps it leads to)."""
    state = engine.apply(state, seat, action)
    while True:
        kind = engine.to_act(state).kind
        if kind == Phase.OVER:
            return True
        if kind != Phase.AUTO:
            return False
        state = engine.apply(state, SYSTEM, engine.auto_action(state))


def play(app, match_id: str, rng: random.Random, last: bool = False):
    """Play the match through the service up to its last move (``last=False``; returns that move),
    or make the last move and resolve what follows (``last=True``; returns the Finished time)."""
    players: dict = {}
    while True:
        match = app.get_match(match_id)
        turn = match.to_act()
        if turn.kind == Phase.OVER:
            return match.modified_on.timestamp()
        if turn.kind == Phase.AUTO:
            app.resolve_automatic_step(match_id)
            continue
        seat = turn.seats[0]
        player_id = match.players[seat]
        player = players.get(player_id) or players.setdefault(player_id, app.get_player(player_id))
        action = rng.choice(match.engine.legal_actions(match.state, seat))
        if not last and finishes(match.engine, match.state, seat, action):
            return None  # stop one move short: the phase makes it at its scheduled time
        try:
            app.submit_move(match_id, player, action)
        except Exception:  # raced by the worker's automatic step: look again
            pass


def percentiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    median, top = statistics.median(ordered), ordered[-1]
    return f"p50 {median * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  max {top * 1000:7.1f} ms"


def phase(container, organiser, tables: int, rate: float, paused=None) -> tuple[list, list, float]:
    """One tournament of ``tables`` tables whose matches finish at ``rate`` per second; with ``paused``
    (the worker process), all finish while it is stopped, and it is then let go."""
    app, tournaments, view = container.app, container.tournaments, container.league_view
    tid, _ = tournaments.create(organiser, {"game": "le-bouffon", "name": f"bench {rate}", "format": "swiss",
                                            "rounds": 1, "table_size": 3, "match_options": {"deals": 1}})
    people = [app.authenticate(app.register_player(f"b{i}")[1]) for i in range(3 * tables)]
    for person in people:
        tournaments.register(tid, person)
    tournaments.start(tid, organiser)
    round_tables = tournaments.get(tid).rounds[0]["tables"]
    finished_at: dict[str, float] = {}
    board_lag, standing_lag = [], []

    def monitor(stop: threading.Event) -> None:
        seen_board, seen_standing = set(), set()
        while not stop.is_set() or len(seen_standing) < len(round_tables) or len(seen_board) < len(round_tables):
            now = time.time()
            rated = {d.key for d in view.page("rating", group="le-bouffon").rows}
            played = {d.data["player_id"] for d in view.page("standing", group=str(tid)).rows if d.data["played"]}
            for table in round_tables:
                mid = table["match_id"]
                if mid not in finished_at:
                    continue
                if mid not in seen_board and set(table["players"]) <= rated:
                    seen_board.add(mid)
                    board_lag.append(now - finished_at[mid])
                if mid not in seen_standing and set(table["players"]) <= played:
                    seen_standing.add(mid)
                    standing_lag.append(now - finished_at[mid])
            time.sleep(0.01)

    with ThreadPoolExecutor(max_workers=3) as pool:  # every match up to its last move, beforehand
        list(pool.map(lambda t: play(app, t["match_id"], random.Random(t["table"])), round_tables))
    stop = threading.Event()
    watcher = threading.Thread(target=monitor, args=(stop,), daemon=True)
    if paused is not None:  # the burst: every match finishes while the worker is stopped
        os.killpg(paused.pid, signal.SIGSTOP)
    else:
        watcher.start()
    start = time.time()
    for i, table in enumerate(round_tables):
        if rate:
            time.sleep(max(0.0, start + i / rate - time.time()))
        finished_at[table["match_id"]] = play(app, table["match_id"], random.Random(i), last=True)
    played_for = time.time() - start
    resumed = time.time()
    if paused is not None:
        os.killpg(paused.pid, signal.SIGCONT)
        watcher.start()
    stop.set()
    watcher.join(timeout=300)
    caught_up = time.time() - resumed
    return board_lag, standing_lag, len(round_tables) / (caught_up if paused is not None else played_for)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="1,2,4", help="steady finishing rates to try (matches per second)")
    parser.add_argument("--matches", type=int, default=12, help="matches per steady phase")
    parser.add_argument("--burst", type=int, default=20, help="matches finished at once in the burst phase")
    args = parser.parse_args()
    schema, queue = f"bench_{uuid.uuid4().hex[:10]}", f"motley-bench-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    settings = settings_for(schema, queue)
    build(settings, tasks=NoTaskQueue()).close()
    log = Path(f"/tmp/{queue}.log")
    worker = start_worker(schema, queue, log)
    container = build(settings_for(schema, queue, create_tables=False), tasks=CeleryTaskQueue(BROKER, queue))
    try:
        app = container.app
        organiser = app.authenticate(app.register_player("organiser")[1])
        print(f"projection lag, Le Bouffon tables of 3, PostgreSQL + 1 Celery worker (-c 2), {os.cpu_count()} cores")
        for rate in [float(r) for r in args.rates.split(",")]:
            board, standing, achieved = phase(container, organiser, args.matches, rate)
            print(f"rate {rate:4.1f}/s (achieved {achieved:4.1f}/s, {args.matches} matches)")
            print(f"  leaderboard  {percentiles(board)}")
            print(f"  standings    {percentiles(standing)}")
        board, standing, absorbed = phase(container, organiser, args.burst, 0, paused=worker)
        print(f"backlog of {args.burst} matches finished while the worker was stopped: the projections "
              f"caught up at {absorbed:4.1f} finished matches/s")
        print(f"  leaderboard  {percentiles(board)}")
        print(f"  standings    {percentiles(standing)}")
    finally:
        container.close()
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
