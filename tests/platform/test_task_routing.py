"""Computer opponents' moves travel on a queue of their own (infrastructure/task_queues.py), so a
deployment can give them their own workers and no scoring or timer waits behind a thinking search."""

from __future__ import annotations

import threading
import time
import uuid
from types import SimpleNamespace
from typing import Any, cast

import pytest
from kombu import Connection

from application.ports import TASK_BOT, TASK_PROJECT, TASK_RESOLVE, TASK_TIMEOUT, Task
from application.tasks import TaskHandlers
from infrastructure.task_queues import (
    SENT_AT,
    CeleryTaskQueue,
    InProcessTaskQueue,
    celery_queue,
    computers_queue_name,
)
from tests.conftest import BROKER


def message_count(connection, name: str) -> int:
    return connection.default_channel.queue_declare(queue=name, passive=True).message_count


def test_a_computers_move_goes_to_the_computers_queue_and_the_rest_to_the_main_one():
    queue_name = f"motley-routing-{uuid.uuid4().hex[:8]}"
    queue = CeleryTaskQueue(BROKER, queue_name)
    try:
        queue.enqueue(Task(TASK_BOT, ("a-match", 1)))
        queue.enqueue(Task(TASK_RESOLVE, ("a-match",)))
        queue.enqueue(Task(TASK_PROJECT))
        assert queue.waiting == 0  # all sent
        with Connection(BROKER) as connection:
            deadline = time.monotonic() + 10
            while (message_count(connection, queue_name), message_count(connection, computers_queue_name(queue_name))) \
                    != (2, 1):
                assert time.monotonic() < deadline, "the tasks did not arrive where they belong"
                time.sleep(0.1)
            for name in (queue_name, computers_queue_name(queue_name)):
                connection.default_channel.queue_delete(queue=name)
    finally:
        queue.close()


def test_a_worker_started_without_a_queue_consumes_both():
    from workers.celery_app import celery, settings

    consumed = {q.name for q in celery.conf.task_queues}
    assert consumed == {settings.queue, computers_queue_name(settings.queue)}


def test_the_projections_of_many_saves_are_one_message_sent_after_the_last():
    queue_name = f"motley-coalesce-{uuid.uuid4().hex[:8]}"
    queue = CeleryTaskQueue(BROKER, queue_name)
    closing = CeleryTaskQueue(BROKER, queue_name)
    queue.PROJECT_WINDOW = 1.0  # wide enough that a loaded machine enqueues all fifty within it
    try:
        for _ in range(50):  # fifty saves at once each ask for a projection
            queue.enqueue(Task(TASK_PROJECT))
        closing.enqueue(Task(TASK_PROJECT))
        closing.close()  # a projection still due when the process stops is sent, not dropped
        time.sleep(queue.PROJECT_WINDOW + 1.0)
        with Connection(BROKER) as connection:
            assert message_count(connection, queue_name) == 2  # one for the fifty, one at the close
            connection.default_channel.queue_delete(queue=queue_name)
    finally:
        queue.close()


class _Recorder:
    """The handlers' one method the queue calls; a computer's move (or the task named ``held``)
    waits until it is let go."""

    def __init__(self, held: str = TASK_BOT) -> None:
        self.ran: list[str] = []
        self.release = threading.Event()
        self.started = threading.Event()  # the held task has begun
        self.held = held

    def run(self, name: str, *args) -> None:
        if name == self.held:
            self.started.set()
            assert self.release.wait(10), "the computer's move was never let go"
        self.ran.append(name)


def wait_for_runs(recorder: Any, count: int, why: str) -> None:
    """Until ``count`` tasks have run (10 s at most, else ``why`` fails the test)."""
    deadline = time.monotonic() + 10
    while len(recorder.ran) < count:
        assert time.monotonic() < deadline, f"{why}: {recorder.ran}"
        time.sleep(0.01)


def test_embedded_a_thinking_computer_delays_no_other_task():
    """The embedded default runs computers' moves in a thread of their own, like the Celery layout:
    a scoring step and a projection queued behind a computer still thinking run meanwhile."""
    queue = InProcessTaskQueue()
    recorder = _Recorder()
    queue.bind(cast(TaskHandlers, recorder))
    try:
        queue.enqueue(Task(TASK_BOT, ("a-match", 1)))
        queue.enqueue(Task(TASK_RESOLVE, ("a-match",)))
        queue.enqueue(Task(TASK_PROJECT))
        wait_for_runs(recorder, 2, "the other tasks waited behind the computer")
        assert recorder.ran == [TASK_RESOLVE, TASK_PROJECT]
        assert dict(queue.depths()) == {"inprocess": 0, "inprocess.computers": 0, "inprocess.read-models": 0}
        recorder.release.set()
        queue.drain(timeout=10)
        assert recorder.ran == [TASK_RESOLVE, TASK_PROJECT, TASK_BOT]
    finally:
        recorder.release.set()
        queue.close()


def test_embedded_a_scoring_step_or_a_timer_never_waits_behind_a_read_models_run():
    """The read models' runs have a thread of their own: in a busy process a run can take half a
    second, and the scoring step that ends a match (and so the match's row) must not wait for it."""
    queue = InProcessTaskQueue()
    recorder = _Recorder(held=TASK_PROJECT)
    queue.bind(cast(TaskHandlers, recorder))
    try:
        queue.enqueue(Task(TASK_PROJECT))
        assert recorder.started.wait(10), "the read models' run never started"  # and has not finished
        queue.enqueue(Task(TASK_RESOLVE, ("a-match",)))
        queue.enqueue(Task(TASK_TIMEOUT, ("a-match", 3)))
        wait_for_runs(recorder, 2, "the steps waited behind the run")
        assert recorder.ran == [TASK_RESOLVE, TASK_TIMEOUT]
        recorder.release.set()
        queue.drain(timeout=10)
        assert recorder.ran == [TASK_RESOLVE, TASK_TIMEOUT, TASK_PROJECT]
    finally:
        recorder.release.set()
        queue.close()


def test_a_retry_that_finds_the_wait_pushed_on_arms_the_next_and_the_outbox_empties():
    """The outage test's stall: a send failed (a retry armed for 1 s later), another send failed just
    before that retry fired and pushed the wait on; the retry found the wait not over and returned
    without arming another, so the kept tasks waited for the next save (none came: every match waited
    for its scoring). Now the retry arms the next one, and the tasks go once the broker is back."""
    queue_name = f"motley-stall-{uuid.uuid4().hex[:8]}"
    queue = CeleryTaskQueue(BROKER, queue_name)
    try:
        with queue._lock:
            queue._outbox.append(Task(TASK_RESOLVE, ("a-match",)))
            queue._retry_at = time.monotonic() + 0.5  # a later failure pushed the wait on ...
        queue._retry()  # ... when the earlier failure's retry fires
        assert queue.waiting == 1 and queue._retry_timer is not None and queue._retry_timer.is_alive()
        deadline = time.monotonic() + 10
        while queue.waiting:  # the broker is there: the armed retry sends it
            assert time.monotonic() < deadline, "the kept task was never sent: the outbox stalled"
            time.sleep(0.05)
        with Connection(BROKER) as connection:
            # Sent is not yet counted: the broker's count of a queue lags a publish by a moment (a single
            # read found 0 in one CI run), so it is read until it shows the task, as the tests above do.
            deadline = time.monotonic() + 10
            while message_count(connection, queue_name) != 1:
                assert time.monotonic() < deadline, "the task sent never reached its queue"
                time.sleep(0.1)
            connection.default_channel.queue_delete(queue=queue_name)
            connection.default_channel.queue_delete(queue=computers_queue_name(queue_name))
    finally:
        queue.close()


def test_a_task_due_far_ahead_is_left_to_the_sweep_not_held_by_a_worker():
    """A timeout an hour ahead (a turn limit of an hour) was sent at once, with every save and every
    sweep: a worker holds such a task unacknowledged until it is due, and RabbitMQ closes a channel that
    holds one past its consumer_timeout (30 minutes). It is sent once it is due within the horizon."""
    from datetime import datetime, timedelta, timezone

    queue_name = f"motley-eta-{uuid.uuid4().hex[:8]}"
    queue = CeleryTaskQueue(BROKER, queue_name)
    now = datetime.now(timezone.utc)
    try:
        queue.enqueue(Task(TASK_TIMEOUT, ("far", "turn-9"), eta=now + timedelta(hours=1)))
        queue.enqueue(Task(TASK_TIMEOUT, ("near", "turn-9"), eta=now + timedelta(seconds=60)))
        assert queue.waiting == 0
        with Connection(BROKER) as connection:
            deadline = time.monotonic() + 10
            while message_count(connection, queue_name) != 1:
                assert time.monotonic() < deadline, "the near task did not arrive"
                time.sleep(0.1)
            time.sleep(0.5)
            assert message_count(connection, queue_name) == 1  # the far one is not sent
            connection.default_channel.queue_delete(queue=queue_name)
            connection.default_channel.queue_delete(queue=computers_queue_name(queue_name))
    finally:
        queue.close()


def test_tasks_never_sent_are_said_when_the_api_stops(caplog):
    """An operator probe: with the broker away, 17 tasks kept for later were dropped at shutdown without a
    line; nothing resent them until a worker's sweep ran."""
    queue = CeleryTaskQueue("amqp://guest:guest@127.0.0.1:1//", f"motley-gone-{uuid.uuid4().hex[:8]}")
    with queue._lock:
        queue._outbox.extend([Task(TASK_RESOLVE, ("a-match",)), Task(TASK_RESOLVE, ("another",))])
        queue._retry_at = time.monotonic() + 60  # the broker failed a moment ago: no send until then
    with caplog.at_level("WARNING", logger="infrastructure.task_queues"):
        queue.close()
    said = [record.getMessage() for record in caplog.records if "never sent" in record.getMessage()]
    assert said and said[0].startswith("stopping with 2 task(s) never sent"), caplog.text


def test_a_broker_still_away_is_warned_of_once_a_minute(caplog):
    """Each retry (a second apart) logged "broker unreachable", a line a second for as long as the broker
    stayed away (an operator probe); the outbox's size is on /metrics meanwhile."""
    queue = CeleryTaskQueue("amqp://guest:guest@127.0.0.1:1//", f"motley-gone-{uuid.uuid4().hex[:8]}")
    try:
        with caplog.at_level("DEBUG", logger="infrastructure.task_queues"):
            for _ in range(3):
                with queue._lock:
                    queue._outbox.append(Task(TASK_RESOLVE, ("a-match",)))
                    queue._retry_at = 0.0  # the retry is due: a send is tried, and fails
                queue._flush()
        tries = [r for r in caplog.records if "broker unreachable" in r.getMessage()]
        assert len(tries) == 3 and [r.levelname for r in tries] == ["WARNING", "DEBUG", "DEBUG"]
        assert queue.waiting == 3  # every task kept
    finally:
        queue.close()


def test_a_gunicorn_worker_closes_its_container_as_it_exits(monkeypatch):
    """Nothing closed a worker's container, so the tasks its outbox still held were dropped without the
    line close() says (the test above): gunicorn's worker_exit closes it, in the worker's own process."""
    import os

    import api.wsgi

    closed = []

    class Container:
        def close(self):
            closed.append(os.getpid())

    class App:
        extensions = {"motley": Container()}

    assert "worker_exit" in api.wsgi.gunicorn_options(streams=1)
    monkeypatch.setattr(api.wsgi, "_app", App())
    monkeypatch.setattr(api.wsgi, "_pid", os.getpid() + 1)  # built in another process: not this one's
    api.wsgi.worker_exit(None, None)
    assert closed == []
    monkeypatch.setattr(api.wsgi, "_pid", os.getpid())
    api.wsgi.worker_exit(None, None)
    assert closed == [os.getpid()]


def test_a_projection_task_says_when_it_was_sent_in_a_header_an_older_worker_ignores():
    """The worker drops a projection task that a run of its own, started later, has done already
    (``TaskHandlers.project``): it needs to know when the task was sent, after the saves it serves."""
    queue_name = f"motley-sent-at-{uuid.uuid4().hex[:8]}"
    queue = CeleryTaskQueue(BROKER, queue_name)
    queue.PROJECT_WINDOW = 0.01
    try:
        with Connection(BROKER) as connection:
            celery_queue(queue_name)(connection.default_channel).declare()  # as the send declares it
            before = time.time()
            queue.enqueue(Task(TASK_PROJECT))
            deadline = time.monotonic() + 10
            while (message := connection.default_channel.basic_get(queue=queue_name, no_ack=True)) is None:
                assert time.monotonic() < deadline, "the projection task never arrived"
                time.sleep(0.05)
            assert before <= message.headers[SENT_AT] <= time.time(), message.headers
            assert message.headers["task"] == TASK_PROJECT and message.headers["argsrepr"] == "()"
            connection.default_channel.queue_delete(queue=queue_name)
    finally:
        queue.close()


class _Counting:
    def __init__(self, fails: bool = False) -> None:
        self.runs = 0
        self.fails = fails

    def run(self) -> int:
        self.runs += 1
        if self.fails:
            raise RuntimeError("the database went away")
        return 0


def test_a_projection_task_sent_before_a_whole_run_of_the_worker_started_is_dropped():
    """An operator's probe: behind a busy worker 4,286 projection tasks queued against 276 scoring steps,
    and the steps waited behind them, first in first out. A task sent before a whole run of the process
    started is done: that run read every save the task was sent for. A run that failed stands for none."""
    clock = iter([100.0, 101.0, 102.0, 103.0])
    projection, follower = _Counting(), _Counting()
    app = SimpleNamespace(resolve_automatic_step=None, close_timed_phase=None, play_computer_move=None)
    handlers = TaskHandlers(cast(Any, app), cast(Any, projection), [follower], wall=lambda: next(clock))
    handlers.project()  # a run started at 100 (a task without a header: always run)
    handlers.project(sent_at=99.0)  # sent before it started: dropped
    assert (projection.runs, follower.runs) == (1, 1)
    handlers.project(sent_at=99.8)  # within the clocks' margin of it: run (started at 101)
    assert (projection.runs, follower.runs) == (2, 2)
    projection.fails = True
    with pytest.raises(RuntimeError):
        handlers.project(sent_at=101.0)  # started at 102, and failed
    projection.fails = False
    handlers.project(sent_at=101.0)  # its retry: the failed run stands for nothing, so it runs (at 103)
    assert (projection.runs, follower.runs) == (4, 3)
    handlers.project(sent_at=102.4)  # covered by the run started at 103
    assert projection.runs == 4
