"""Fewer trips to the store per move (issue 16), none at the cost of a stale answer.

- a saved match is cached as it was saved, so the reads after the save share it;
- a stream woken by the log watcher trusts the cache as far as the watcher read the log, no further;
- a save in this process nudges the watcher, so a stream hears of it at once, not at the next tick;
- the embedded task queue serves the saves of a short window with one projection run, and waiting
  for the queue (``drain``) still waits for that run;
- the connection pool is not pinged before every use: the database gate checks it once, when the
  database is back after a failure.
"""

from __future__ import annotations

import random
import threading
import time
from contextlib import contextmanager
from typing import cast

from eventsourcing.persistence import OperationalError

from application.log_watcher import LogWatcher
from application.ports import TASK_PROJECT, TASK_RESOLVE, NoTaskQueue, Task
from application.tasks import TaskHandlers
from infrastructure.composition import build
from infrastructure.health import DatabaseGate
from infrastructure.task_queues import InProcessTaskQueue
from tests.platform.test_match_story import new_jest_match, play_one_random_move, seat_players


def test_the_reads_after_a_save_share_the_saved_match_and_a_command_still_gets_a_copy(settings, seed):
    container = build(settings, tasks=NoTaskQueue())
    try:
        app, rng = container.app, random.Random(seed)
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        receipt = play_one_random_move(app, match_id, players, rng)
        assert receipt.match is not None
        assert app.read_match(match_id) is receipt.match  # cached as saved: no copy, no new events applied
        acting = app.get_match(match_id)
        assert acting is not receipt.match and acting.version == receipt.match.version
    finally:
        container.close()


def test_a_read_trusts_its_cache_only_as_far_as_the_version_it_was_told(settings, seed):
    """Another process (here another container on the same store) moves the match on: a read told
    the old version answers from its cache, a read told the new one (or told nothing) asks the store."""
    here, there = build(settings, tasks=NoTaskQueue()), build(settings, tasks=NoTaskQueue())
    try:
        rng = random.Random(seed)
        players = seat_players(here.app, 3)
        match_id = new_jest_match(here.app, players)
        cached = here.app.read_match(match_id)
        moved = play_one_random_move(there.app, match_id, players, rng)
        assert moved.version > cached.version
        assert here.app.read_match(match_id, at_least=cached.version) is cached
        assert here.app.read_match(match_id, at_least=moved.version).version == moved.version
        assert here.app.read_match(match_id).version == moved.version
    finally:
        here.close()
        there.close()


def test_a_save_nudges_the_log_watcher_and_a_woken_stream_learns_the_new_version(settings, seed):
    container = build(settings, tasks=NoTaskQueue())
    app = container.app
    watcher = LogWatcher(app.recorder, interval=60.0)  # without the nudge a stream would wait a minute
    app.saved_hooks.append(watcher.nudge)
    try:
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        match_uuid = app.read_match(match_id).id
        sleeper = watcher.sleeper(match_uuid)
        assert sleeper.news() is None  # no wait yet
        sleeper(0.2)  # nothing happens: a recheck, not news
        assert sleeper.news() is None
        woke: list[float] = []

        def sleep() -> None:
            started = time.monotonic()
            sleeper(60.0)
            woke.append(time.monotonic() - started)

        thread = threading.Thread(target=sleep)
        thread.start()
        time.sleep(0.2)
        receipt = play_one_random_move(app, match_id, players, random.Random(seed))
        thread.join(timeout=20)
        assert woke and woke[0] < 10, woke  # woken by the save, not by the minute's tick
        assert sleeper.news() == receipt.version
    finally:
        watcher.close()
        container.close()


class _Recorder:
    def __init__(self) -> None:
        self.ran: list[str] = []

    def run(self, name: str, *args) -> None:
        self.ran.append(name)


def test_embedded_one_projection_run_serves_the_saves_of_its_window_and_drain_waits_for_it():
    queue = InProcessTaskQueue()
    queue.PROJECT_WINDOW = 1.0  # wide enough that a loaded machine enqueues all of them within it
    recorder = _Recorder()
    queue.bind(cast(TaskHandlers, recorder))
    try:
        for _ in range(50):
            queue.enqueue(Task(TASK_PROJECT))
        queue.enqueue(Task(TASK_RESOLVE, ("a-match",)))  # other work does not wait for the window
        deadline = time.monotonic() + 10
        while not recorder.ran:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert recorder.ran == [TASK_RESOLVE]
        queue.drain(timeout=10)  # returns only once the deferred projection has run
        assert recorder.ran == [TASK_RESOLVE, TASK_PROJECT]
    finally:
        queue.close()


class _Pool:
    def __init__(self) -> None:
        self.checks = 0

    def check(self) -> None:
        self.checks += 1


class _Datastore:
    """The two things the gate uses of the library's datastore: its pool and get_connection."""

    def __init__(self) -> None:
        self.pool = _Pool()
        self.fail = False

    @contextmanager
    def get_connection(self):
        if self.fail:
            raise OperationalError("server closed the connection unexpectedly")
        yield "a connection"


def test_the_gate_checks_the_pool_once_when_the_database_is_back_and_not_before_each_use():
    now = [0.0]
    reachable = [False]

    def probe() -> None:
        if not reachable[0]:
            raise OSError("connection refused")

    gate = DatabaseGate(probe, clock=lambda: now[0])
    datastore = _Datastore()
    gate.install(datastore)
    for _ in range(3):
        with datastore.get_connection() as connection:
            assert connection == "a connection"
    assert datastore.pool.checks == 0  # no check while nothing failed
    datastore.fail = True
    try:
        with datastore.get_connection():
            raise AssertionError("the broken connection was used")
    except OperationalError:
        pass
    datastore.fail = False
    assert gate.down() == "connection refused" and datastore.pool.checks == 0  # still away: nothing to replace
    now[0] += 1.0
    reachable[0] = True
    assert gate.down() is None and datastore.pool.checks == 1  # back: the broken connections replaced, once
    with datastore.get_connection() as connection:
        assert connection == "a connection"
    assert datastore.pool.checks == 1
