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
import uuid
from contextlib import contextmanager
from typing import cast

from eventsourcing.persistence import OperationalError

from application.log_watcher import LogWatcher
from application.ports import TASK_PROJECT, TASK_RESOLVE, NoTaskQueue, Task
from application.tasks import TaskHandlers
from infrastructure.composition import build
from infrastructure.health import DatabaseGate
from infrastructure.task_queues import InProcessTaskQueue
from tests.conftest import create_schema, drop_schema, pg_settings
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


def test_a_save_wakes_its_streams_without_a_read_of_the_log_and_they_learn_the_new_version(settings, seed):
    container = build(settings, tasks=NoTaskQueue())
    app = container.app
    watcher = LogWatcher(app.recorder, interval=60.0)  # without the announcement a stream would wait a minute
    app.saved_hooks.append(watcher.heard)
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
        assert watcher.reads == 0  # the save told the watcher: it did not read the log for it
        # The watcher's own read of that save (here forced by a nudge) wakes nobody a second time.
        watcher.nudge()
        deadline = time.monotonic() + 10
        while watcher.reads == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert watcher.reads >= 1
        sleeper(0.3)
        assert not sleeper.woken and sleeper.news() is None
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


def test_a_move_tried_on_a_stale_cached_match_is_tried_again_on_the_stored_one(settings, seed):
    """Two processes (two containers on one store) take turns moving one match, each acting on its
    own cache, which the other's moves leave behind: every move the current state allows is accepted
    (after a retry when the cache was stale), and the stored history is exactly the accepted moves."""
    here, there = build(settings, tasks=NoTaskQueue()), build(settings, tasks=NoTaskQueue())
    try:
        rng = random.Random(seed)
        players = seat_players(here.app, 3)
        match_id = new_jest_match(here.app, players)
        here.app.read_match(match_id)
        there.app.read_match(match_id)  # both caches hold the match
        accepted = 0
        for turn in range(12):
            mover = (here, there)[turn % 2].app  # the other one's cache is now behind
            current = there.app.get_match(match_id) if mover is here.app else here.app.get_match(match_id)
            if current.status != "active" or current.to_act().kind != "players":
                break
            seat = rng.choice(current.to_act().seats)
            action = rng.choice(current.engine.legal_actions(current.state, seat))
            receipt = mover.submit_move(match_id, players[seat], action)
            accepted += 1
            assert receipt.version > current.version
        assert accepted >= 4
        cold = build(settings, tasks=NoTaskQueue())
        try:
            rebuilt = cold.app.get_match(match_id)
            stored_moves = [e for e in cold.app.events.get(rebuilt.id) if type(e).__name__ == "MoveMade"]
            assert len(stored_moves) == accepted
            assert rebuilt.state == here.app.get_match(match_id).state == there.app.get_match(match_id).state
        finally:
            cold.close()
    finally:
        here.close()
        there.close()


def test_a_move_refused_on_a_stale_cached_match_is_judged_again_on_the_stored_one(settings, seed):
    """The cache says it is not this seat's turn; the store, moved on by another process, says it
    is: the move is accepted, not refused."""
    here, there = build(settings, tasks=NoTaskQueue()), build(settings, tasks=NoTaskQueue())
    try:
        rng = random.Random(seed)
        players = seat_players(here.app, 3)
        match_id = new_jest_match(here.app, players)
        stale = here.app.read_match(match_id)
        for _ in range(60):  # until one seat alone acts (Jest's offers are made by all at once)
            if len(stale.to_act().seats) == 1:
                break
            play_one_random_move(here.app, match_id, players, rng)
            stale = here.app.read_match(match_id)
        for _ in range(60):  # move on elsewhere until a seat the stale cache does not let act may act
            current = there.app.get_match(match_id)
            newly = [s for s in current.to_act().seats if s not in stale.to_act().seats]
            if newly and current.to_act().kind == "players":
                break
            play_one_random_move(there.app, match_id, players, rng)
        else:
            raise AssertionError("no seat came to act that the stale cache did not let act")
        assert here.app.read_match(match_id, at_least=0) is stale  # the cache is behind the store
        seat = newly[0]
        receipt = here.app.submit_move(match_id, players[seat], current.engine.legal_actions(current.state, seat)[0])
        assert receipt.version > current.version
    finally:
        here.close()
        there.close()


def test_a_save_in_another_process_wakes_a_stream_here_at_once(seed):
    """PostgreSQL: the listener (infrastructure/log_listener.py) hears the insert's NOTIFY, whichever
    process saved, and nudges this process's watcher: a stream here wakes long before its tick."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    here, there = build(pg_settings(schema), tasks=NoTaskQueue()), build(pg_settings(schema), tasks=NoTaskQueue())
    try:
        assert here.watcher is not None and here.listener is not None
        here.watcher.interval = 60.0  # without the listener a stream here would wait a minute
        players = seat_players(there.app, 3)
        match_id = new_jest_match(there.app, players)
        match_uuid = here.app.read_match(match_id).id
        sleeper = here.watcher.sleeper(match_uuid)  # starts the watcher and with it the listener
        deadline = time.monotonic() + 10
        while here.listener.heard == 0 and time.monotonic() < deadline:  # listening: a save is heard
            play_one_random_move(there.app, match_id, players, random.Random(seed))
            time.sleep(0.2)
        assert here.listener.heard > 0
        time.sleep(0.3)
        sleeper(0.0)  # take in what was heard so far; the next wait is for the next save
        woke: list[float] = []

        def sleep() -> None:
            started = time.monotonic()
            sleeper(60.0)
            woke.append(time.monotonic() - started)

        thread = threading.Thread(target=sleep)
        thread.start()
        time.sleep(0.2)
        receipt = play_one_random_move(there.app, match_id, players, random.Random(seed + 1))
        thread.join(timeout=20)
        assert woke and woke[0] < 10, woke
        assert sleeper.news() == receipt.version
    finally:
        here.close()
        there.close()
        drop_schema(schema)


def test_simultaneous_moves_on_one_match_in_one_process_wait_for_each_other_instead_of_colliding(settings, seed):
    """Jest's offers are made by every seat at once (rulebook: each player offers at the same time).
    Three players moving at the same instant in one process all land, in some order, and no save is
    attempted twice: the second and third act on the match the one before them saved."""
    container = build(settings, tasks=NoTaskQueue())
    app = container.app
    try:
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        start = app.get_match(match_id)
        assert sorted(start.to_act().seats) == [0, 1, 2]  # the offer: everyone acts
        actions = {seat: start.engine.legal_actions(start.state, seat)[0] for seat in range(3)}
        recorder = app.recorder
        attempts: list[int] = []
        insert_events = recorder.insert_events

        def counted(*args, **kwargs):
            attempts.append(1)
            return insert_events(*args, **kwargs)

        recorder.insert_events = counted  # type: ignore[method-assign]
        barrier = threading.Barrier(3)
        receipts: list = []
        failures: list = []

        def move(seat: int) -> None:
            barrier.wait()
            try:
                receipts.append(app.submit_move(match_id, players[seat], actions[seat]))
            except Exception as error:  # noqa: BLE001 - the assertion below names it
                failures.append(error)

        threads = [threading.Thread(target=move, args=(seat,)) for seat in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert not failures, failures
        assert len(receipts) == 3 and len(attempts) == 3  # one save each, none refused by a collision
        latest = app.get_match(match_id)
        assert latest.moves == 3 and latest.version == max(r.version for r in receipts)
        assert len(app.moving) == 0  # no lock is kept once its moves are done
    finally:
        container.close()
