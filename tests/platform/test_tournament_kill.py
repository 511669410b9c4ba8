"""Workers killed (SIGKILL) and restarted while matches are played concurrently: every tournament
result is recorded once, every round paired once, and the live league read models equal, row for
row, a fresh rebuild from the events."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from api import create_app
from application.league import KINDS
from application.ports import NoTaskQueue
from infrastructure.composition import build
from infrastructure.rebuild import rebuild
from infrastructure.settings import Settings
from infrastructure.task_queues import CeleryTaskQueue
from tests.conftest import BROKER, PG, ROOT, create_schema, drop_schema, pg_settings
from tests.platform.client import ApiClient, play_randomly

pytestmark = pytest.mark.slow


class Worker:
    """A Celery worker in its own process group, so that SIGKILL takes its pool processes too."""

    def __init__(self, schema: str, queue: str, log: Path):
        self.env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST=PG["host"],
                        MOTLEY_POSTGRES_DBNAME=PG["dbname"], MOTLEY_POSTGRES_USER=PG["user"],
                        MOTLEY_POSTGRES_SCHEMA=schema, MOTLEY_POSTGRES_POOL_SIZE="2", MOTLEY_TASKS="celery",
                        MOTLEY_BROKER_URL=BROKER, MOTLEY_QUEUE=queue, PYTHONPATH=str(ROOT))
        self.queue = queue
        self.log = log
        self.process = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = self.log.with_suffix(f".{self.starts}.log")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-c", "2", "-l", "info",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{self.queue}-{self.starts}@%h",
             "-f", str(log)],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while not (log.exists() and " ready." in log.read_text()):
            assert self.process.poll() is None and time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def killable(tmp_path):
    schema = f"k_{uuid.uuid4().hex[:12]}"
    queue = f"motley-kill-{uuid.uuid4().hex[:8]}"
    create_schema(schema)
    settings = pg_settings(schema, tasks="celery", broker_url=BROKER, queue=queue, postgres_pool_size=6)
    build(settings, tasks=CeleryTaskQueue(BROKER, queue)).close()
    worker = Worker(schema, queue, tmp_path / "worker")
    worker.start()
    container = build(Settings(**{**settings.__dict__, "create_tables": False}))
    yield container, worker, settings
    container.close()
    worker.stop()
    drop_schema(schema)


def kill_when_behind(container, worker, within: float = 2.0) -> bool:
    """Kill the worker at a moment the league projection has work left (the log moved past its
    position), waiting up to ``within`` seconds for one: a projection that keeps up between two saves
    would otherwise be killed idle. Whether it had work left."""
    deadline = time.monotonic() + within
    while True:
        behind = container.league_view.position(container.league.name) < container.app.log_position()
        if behind or time.monotonic() >= deadline:
            worker.kill()
            return behind
        time.sleep(0.005)


def test_killed_workers_count_nothing_twice_and_the_live_read_models_equal_a_rebuild(killable):
    container, worker, settings = killable
    client = ApiClient(create_app(container))
    _, organiser = client.register("organiser")
    created = client.post("/tournaments", {"game": "le-bouffon", "name": "kill", "rounds": 2, "table_size": 3,
                                           "match_options": {"deals": 1}}, key=organiser)
    tournament_id = created.body["id"]
    keys = {}
    for i in range(9):
        player_id, key = client.register(f"k{i}")
        keys[player_id] = key
        assert client.post(f"/tournaments/{tournament_id}/players", key=key).status == 201
    assert client.post(f"/tournaments/{tournament_id}/start", key=organiser).status == 200
    free = [list(keys.values())[i:i + 3] for i in (0, 3)]  # free rated matches beside the tournament

    errors: list = []
    behind: list = []  # at each kill: had the league projection work left to do?

    def play(api, match_id, match_keys, seed):
        try:
            play_randomly(api, match_id, match_keys, random.Random(seed),
                          settle=lambda: time.sleep(0.05), timeout=300)
        except Exception as error:  # reported by the main thread
            errors.append(error)

    for round_no in (1, 2):
        deadline = time.monotonic() + 120
        while len(client.get(f"/tournaments/{tournament_id}").body["rounds"]) < round_no:
            assert time.monotonic() < deadline, "the round was not paired"
            time.sleep(0.1)
        tables = client.get(f"/tournaments/{tournament_id}").body["rounds"][round_no - 1]["tables"]
        # Each thread's app built here, one at a time: apps built in several threads at once failed CI
        # once with CPython 3.11.7's "AST constructor recursion depth mismatch" (python/cpython#106905,
        # compile() not thread-safe there), nothing of Motley's.
        threads = [threading.Thread(target=play, args=(ApiClient(create_app(container)), t["match_id"],
                                                       [keys[p] for p in t["players"]], i))
                   for i, t in enumerate(tables)]
        for i, match_keys in enumerate(free):
            match_id = client.new_match("jest", 3, match_keys)
            threads.append(threading.Thread(target=play, args=(ApiClient(create_app(container)), match_id,
                                                               match_keys, 100 + i)))
        for thread in threads:
            thread.start()
        # Kill the worker as soon as a table of the round finishes (the keeper and the projections
        # are then at work, and the other matches still play, so the projection keeps having work),
        # at a moment it has work left, and again a moment later; restart it each time.
        table_ids = [t["match_id"] for t in tables]
        while (all(client.get(f"/matches/{m}").body["status"] != "finished" for m in table_ids)
               and any(t.is_alive() for t in threads)):
            time.sleep(0.05)
        for pause in (0.0, 0.7):
            time.sleep(pause)
            behind.append(kill_when_behind(container, worker))
            time.sleep(0.3)
            worker.start()
        for thread in threads:
            thread.join()
        assert not errors, errors

    assert any(behind), "no kill happened while the projection had work left"
    deadline = time.monotonic() + 120
    while client.get(f"/tournaments/{tournament_id}").body["status"] != "finished":
        assert time.monotonic() < deadline, "the tournament did not finish"
        time.sleep(0.1)
    app = container.app
    position = app.log_position()
    assert container.league_view.wait(container.league.name, position, timeout=60)

    # Nothing counted twice: one result per table, each round paired once, its matches created once.
    tournament = container.tournaments.get(tournament_id)
    events = [type(e).__name__ for e in app.events.get(tournament.id)]
    assert events.count("TableResultRecorded") == 6 and events.count("RoundPaired") == 2
    assert all(t["result"]["how"] == "played" for r in tournament.rounds for t in r["tables"])

    assert container.match_list.wait(app.name, position, timeout=60)
    live = container.league_view.dump(KINDS)
    live_matches = container.match_list.query(limit=1000).rows
    fresh = build(Settings(**{**settings.__dict__, "create_tables": False}), tasks=NoTaskQueue())
    try:
        rebuild(fresh, "league")
        rebuild(fresh, "matches")
        rebuilt = fresh.league_view.dump(KINDS)
        rebuilt_matches = fresh.match_list.query(limit=1000).rows
    finally:
        fresh.close()
    assert len(live) == len(rebuilt) and live == rebuilt
    assert len(live_matches) == 10 and live_matches == rebuilt_matches  # 6 tables, 4 free matches
    board = {d.key: d.data for d in live if d.kind == "rating"}
    assert set(board) == set(keys) and all(r["played"] >= 2 for r in board.values())
