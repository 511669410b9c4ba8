"""The embedded default's task lanes (``InProcessTaskQueue``) keep work as the Celery workers do: a task
that fails with a passing error (a database lock held by another writer, a match too busy) runs again
later, a periodic sweep finds what a lost task left waiting, and the sweep misses no active match."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from typing import cast

import pytest
from eventsourcing.persistence import OperationalError

from application.errors import Conflict
from application.history import History
from application.ports import TASK_PROJECT, TASK_RESOLVE, TASK_SWEEP, TASK_TIMEOUT, Task
from application.projections import sweep_pending_work
from application.tasks import TaskHandlers
from application.views import Viewer
from infrastructure.composition import build
from infrastructure.settings import Settings
from infrastructure.task_queues import InProcessTaskQueue
from tests.doubles import RecordingTaskQueue
from tests.platform.test_match_story import seat_players, timed_match


class _Failing:
    """Task handlers that fail each task's first ``failures`` runs with ``error``, then record it."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures, self.error = failures, error
        self.tries: list[str] = []
        self.ran: list[str] = []

    def run(self, name: str, *args) -> None:
        self.tries.append(name)
        if len(self.tries) <= self.failures:
            raise self.error
        self.ran.append(name)


def _quick(queue: InProcessTaskQueue) -> InProcessTaskQueue:
    for lane in queue._lanes.values():
        lane.BACKOFF = 0.01
    return queue


def _wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.01)


@pytest.mark.parametrize("error", [OperationalError("database is locked"), Conflict("the match moved on")])
def test_a_task_failing_with_a_passing_error_runs_again_until_it_succeeds(error):
    queue = _quick(InProcessTaskQueue())
    handlers = _Failing(3, error)
    queue.bind(cast(TaskHandlers, handlers))
    try:
        queue.enqueue(Task(TASK_TIMEOUT, ("a-match", "turn-3")))
        _wait_for(lambda: handlers.ran)
        assert handlers.tries == [TASK_TIMEOUT] * 4 and handlers.ran == [TASK_TIMEOUT]
    finally:
        queue.close()


def test_a_task_failing_with_a_bug_is_not_run_again():
    queue = _quick(InProcessTaskQueue())
    handlers = _Failing(1, ValueError("a bug, not a passing error"))
    queue.bind(cast(TaskHandlers, handlers))
    try:
        queue.enqueue(Task(TASK_RESOLVE, ("a-match",)))
        _wait_for(lambda: handlers.tries)
        queue.enqueue(Task(TASK_RESOLVE, ("another",)))  # the lane goes on with the next task
        _wait_for(lambda: handlers.ran)
        assert handlers.tries == [TASK_RESOLVE, TASK_RESOLVE] and handlers.ran == [TASK_RESOLVE]
    finally:
        queue.close()


def test_a_task_that_keeps_failing_is_given_up_after_its_retries():
    queue = _quick(InProcessTaskQueue())
    lane = queue._lanes["tasks"]
    lane.MAX_RETRIES, lane.BACKOFF_MAX = 3, 0.02
    handlers = _Failing(100, OperationalError("the disk is away"))
    queue.bind(cast(TaskHandlers, handlers))
    try:
        queue.enqueue(Task(TASK_RESOLVE, ("a-match",)))
        _wait_for(lambda: len(handlers.tries) == 4)
        time.sleep(0.3)
        assert len(handlers.tries) == 4 and len(lane) == 0  # one run and three retries, then left to the sweep
    finally:
        queue.close()


def test_the_embedded_beat_sends_the_sweep_until_the_queue_closes():
    queue = InProcessTaskQueue()
    handlers = _Failing(0, OperationalError("unused"))
    queue.bind(cast(TaskHandlers, handlers))
    queue.beat(Task(TASK_SWEEP), 0.05)
    _wait_for(lambda: len(handlers.ran) >= 3)
    assert set(handlers.ran) == {TASK_SWEEP}
    queue.close()
    sent = len(handlers.ran)
    time.sleep(0.2)
    assert len(handlers.ran) == sent


def test_a_served_container_sweeps_periodically_on_the_embedded_default(tmp_path):
    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "motley.sqlite")))
    beats: list[tuple] = []
    queue = cast(InProcessTaskQueue, container.tasks)
    queue.beat = lambda task, every: beats.append((task.name, every))  # type: ignore[method-assign]
    try:
        container.start()
        assert beats == [(TASK_SWEEP, 30.0)]  # as Celery beat's schedule (workers/celery_app.py)
    finally:
        container.close()


@pytest.mark.slow
def test_a_turn_timeout_that_met_a_locked_database_closes_once_the_lock_is_gone(tmp_path, seed):
    """A clock ran out while another writer held SQLite's lock past the busy timeout (10 s): the close
    failed, and the lane dropped it; the match stayed active with its deadline passed until a restart."""
    path = tmp_path / "motley.sqlite"
    container = build(Settings(store="sqlite", sqlite_path=str(path)), rng=random.Random(seed))
    try:
        for lane in cast(InProcessTaskQueue, container.tasks)._lanes.values():
            lane.BACKOFF = 0.2
        app = container.app
        players = seat_players(app, 2)
        match_id = timed_match(app, players, "jester", 1.0, "computer")
        blocker = sqlite3.connect(path, timeout=30, check_same_thread=False)
        blocker.execute("BEGIN EXCLUSIVE")
        released = threading.Timer(11.5, blocker.rollback)  # past the deadline and the 10 s busy timeout
        released.start()
        assert not app.read_match(match_id).absent
        try:
            time.sleep(12)  # the close is tried while the lock is held; the read below would wait too
        finally:
            released.join()
            blocker.close()
        _wait_for(lambda: app.read_match(match_id).absent, seconds=40)  # timed out, late but not lost
    finally:
        container.close()


def test_the_sweep_misses_no_active_match_when_one_finishes_while_it_pages(settings, seed):
    """The sweep paged the active matches by activity with OFFSET: a match on a page already read that
    finished moved every later one up a place, and the first of the next page got no task."""
    sent = RecordingTaskQueue()
    container = build(settings, tasks=sent, rng=random.Random(seed))
    try:
        app = container.app
        players = seat_players(app, 2)
        matches = []
        for _ in range(5):
            match_id = timed_match(app, players, "jester", 3600, "claim")
            matches.append(str(match_id))
        container.projection.run()
        view = container.match_list
        query = view.query
        finished: list[str] = []

        def paging(**terms):
            page = query(**terms)
            if not finished:  # after the first page: its first match ends, and the list follows
                finished.append(page.rows[0].match_id)
                app.resign_match(finished[0], players[0])
                container.projection.run()
            return page

        view.query = paging  # type: ignore[method-assign]
        sent.dropped.clear()
        sweep_pending_work(app, view, page=2)
        timed = {task.args[0] for task in sent.dropped if task.name == TASK_TIMEOUT}
        assert timed >= set(matches) - set(finished) and len(set(matches) - set(finished)) == 4
    finally:
        container.close()



def test_a_fork_sends_the_read_models_run_after_its_last_save(settings, seed):
    """A fork saves the new match (which sends the read models' run) and then its parent's lineage, whose
    log position is the fork's answer: a run begun between the two stopped short of it, nothing sent
    another, and a read waiting for that position was a 503 (2 of 4 whole-suite runs)."""
    sent = RecordingTaskQueue()
    container = build(settings, tasks=sent, rng=random.Random(seed))
    try:
        app = container.app
        at_send: list[int] = []
        enqueue = sent.enqueue

        def recording(task: Task) -> None:
            if task.name == TASK_PROJECT:
                at_send.append(app.log_position())
            enqueue(task)

        sent.enqueue = recording  # type: ignore[method-assign]
        players = seat_players(app, 2)
        match_id = timed_match(app, players, "jester", 3600, "claim")
        fork = History(app).fork(match_id, Viewer.the_auditor(), 3, {}, str(players[0].id))
        assert fork.id != match_id
        assert at_send and at_send[-1] == app.log_position(), (at_send, app.log_position())
    finally:
        container.close()
