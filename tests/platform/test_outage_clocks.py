"""Time the service was down is not charged to the players. A turn clock or a timed phase whose deadline
passed while no process could take a move (the service, or its workers, stopped) was closed the moment a
process came back: the seat was made absent (the others could claim, or the computers played the match
out), or the hourglass had run out, before the API answered its first request. A deadline that passed
before the process started (its start-up sweep sends the close with its start time) now gets a whole
period from its start (``ClockExtended``, an event that travels by export and import like any other).
A close sent otherwise (the first task of a new worker process, say) closes as before: an extension on
a process's first task extended a clock again and again under Celery's ``--max-tasks-per-child=1``."""

from __future__ import annotations

import dataclasses
import random
import time
import uuid
from datetime import timedelta

import pytest

from api import create_app
from application.ports import TASK_SWEEP, TASK_TIMEOUT
from infrastructure.composition import build
from infrastructure.task_queues import CeleryTaskQueue
from tests.conftest import BROKER, create_schema, drop_schema, pg_settings, start_worker, stop_worker
from tests.doubles import RecordingTaskQueue
from tests.platform.client import ApiClient
from tests.platform.test_audit import AUDITOR, export, post_history
from tests.platform.test_match_story import timed_match
from tests.platform.test_timed_phases import Clock, play_until_timer


def restarted(settings, clock, down: timedelta):
    """The service back after ``down`` (a new process on the same store), its start-up sweep run: its
    container and the tasks sent so far (the sweep's closes among them)."""
    clock.now += down
    queue = RecordingTaskQueue()
    container = build(dataclasses.replace(settings, auditor_key=AUDITOR), tasks=queue, clock=clock)
    container.start()
    (sweep,) = [task for task in queue.dropped if task.name == TASK_SWEEP]
    container.handlers.run(TASK_SWEEP, *sweep.args)
    return container, queue


def run_closes(container, queue) -> list[bool]:
    """Run the closes of timed phases the sweep sent, as a worker would."""
    closes = [task for task in queue.dropped if task.name == TASK_TIMEOUT]
    queue.dropped.clear()
    return [container.handlers.run(TASK_TIMEOUT, *task.args) for task in closes]


def test_a_turn_clock_that_ran_out_while_the_service_was_down_starts_again_in_full(settings):
    clock = Clock()
    first = build(settings, tasks=RecordingTaskQueue(), clock=clock)
    app = first.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = timed_match(app, players, "jester", 20, "claim")
    phase = app.get_match(match_id).turn_clock["phase"]
    first.close()  # killed 1 s after the start; back 25 s later: the 20 s ran out while nobody could move
    clock.now += timedelta(seconds=1)
    second, queue = restarted(settings, clock, timedelta(seconds=25))
    try:
        app = second.app
        assert run_closes(second, queue) == [False]  # the start-up sweep's close: extended, not closed
        match = app.get_match(match_id)
        assert match.absent == () and match.turn_clock["phase"] == phase
        assert match.turn_clock["deadline"] == clock.now + timedelta(seconds=20)
        assert [t.eta for t in queue.dropped if t.name == TASK_TIMEOUT] == [match.turn_clock["deadline"]]
        kinds = [type(e).__name__ for e, _ in app.history(match_id)]
        assert kinds.count("ClockExtended") == 1
        clock.now += timedelta(seconds=21)  # up, and the seat still does not move: absent now
        assert app.close_timed_phase(match_id, phase) is True
        (late,) = app.get_match(match_id).absent
        app.claim_match(match_id, players[1 - late])  # finished: an export imports
        client = ApiClient(create_app(second))
        lines = export(client, str(match_id), AUDITOR)
        extended = [line for line in lines if line["event"] == "ClockExtended"]
        assert [line["data"]["phase"] for line in extended] == [phase]
        status, view = post_history(client, lines)  # every line replayed and checked, the extension too
        assert status == 201, view
        assert client.get(f"/matches/{match_id}/verify").body["verified"] is True
        earlier = "2000-01-01T00:00:00+00:00"  # an "extension" to before the deadline it extends
        tampered = [dict(line, data={**line["data"], "deadline": earlier}) if line["event"] == "ClockExtended"
                    else line for line in lines]
        status, refusal = post_history(client, tampered)
        assert status == 422 and "later deadline" in refusal["detail"], refusal
    finally:
        second.close()


def test_a_timed_phase_that_ran_out_while_the_service_was_down_starts_again_in_full(settings):
    """Tumult Royale's ready step (rulebook 2 Get Taxes, timed by ``ready_seconds``): its hourglass ran
    out while the service was down; back, the players get the whole step, and a move is taken."""
    clock = Clock()
    first = build(settings, tasks=RecordingTaskQueue(), clock=clock)
    app = first.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = app.create_match(players[0], "tumult-royale", 2, {"tax_seconds": 20, "ready_seconds": 9}, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    match = play_until_timer(app, match_id, players, random.Random(2), clock, prefix="ready-")
    phase = match.timer["phase"]
    first.close()
    second, queue = restarted(settings, clock, timedelta(minutes=5))
    try:
        app = second.app
        assert run_closes(second, queue) == [False]
        match = app.get_match(match_id)
        assert match.timer == {"phase": phase, "deadline": clock.now + timedelta(seconds=9)}
        app.submit_move(match_id, players[0], {"type": "ready"})  # in time, again
        clock.now += timedelta(seconds=10)
        assert app.close_timed_phase(match_id, phase) is True  # and it closes at its new deadline
        assert app.get_match(match_id).state["phase"] == "tax"
    finally:
        second.close()


def test_a_deadline_missed_while_the_process_was_up_closes_at_once(settings):
    """Only the time before the process started was nobody's to use: a deadline passed while it ran
    (a worker busy, a task late) closes as before."""
    clock = Clock()
    container = build(settings, tasks=RecordingTaskQueue(), clock=clock)
    try:
        app = container.app
        players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
        match_id = timed_match(app, players, "jester", 20, "claim")
        phase = app.get_match(match_id).turn_clock["phase"]
        clock.now += timedelta(minutes=5)
        assert app.close_timed_phase(match_id, phase) is True
        assert app.get_match(match_id).absent != ()
    finally:
        container.close()


def test_a_new_process_that_closes_an_overdue_clock_outside_its_start_up_sweep_closes_it(settings):
    """A worker process built for its first task (Celery builds one per child, and a child may serve one
    task only) is no sign the service was down: its close of a clock whose deadline has just passed
    closes it. Only the start-up sweep's close extends."""
    clock = Clock()
    first = build(settings, tasks=RecordingTaskQueue(), clock=clock)
    app = first.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = timed_match(app, players, "jester", 3, "claim")
    phase = app.get_match(match_id).turn_clock["phase"]
    first.close()
    clock.now += timedelta(seconds=4)
    child = build(settings, tasks=RecordingTaskQueue(), clock=clock)  # a fresh worker process, its first task
    try:
        assert child.handlers.run(TASK_TIMEOUT, str(match_id), phase) is True
        assert child.app.get_match(match_id).absent != ()
    finally:
        child.close()


@pytest.mark.slow
def test_a_timeout_the_broker_kept_through_a_worker_outage_gives_the_whole_period_again(tmp_path):
    """On Celery the close sent when the clock started waits in the broker through the outage; the
    returning worker runs it before its start-up sweep, and it closed the turn at once: the time no
    worker ran was charged to the player. Every close names the worker's start (``STARTED``, read
    before the pool forks): a deadline before it gets a whole period again, once."""
    schema, queue = f"o_{uuid.uuid4().hex[:12]}", f"motley-test-{uuid.uuid4().hex[:8]}"
    create_schema(schema)
    settings = pg_settings(schema, tasks="celery", broker_url=BROKER, queue=queue)
    api = build(settings, tasks=CeleryTaskQueue(BROKER, queue))  # the API, up; no worker runs yet
    worker = None
    try:
        app = api.app
        players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
        match_id = timed_match(app, players, "jester", 2, "claim")  # its close goes to the broker, due in 2 s
        time.sleep(3)  # the deadline passes while no worker runs
        worker = start_worker(schema, queue, BROKER, tmp_path / "worker.log")
        deadline = time.monotonic() + 60
        while not app.read_match(match_id).absent:
            assert time.monotonic() < deadline, "the turn never ran out"
            time.sleep(0.1)
        kinds = [type(e).__name__ for e, _ in app.history(match_id)]
        assert kinds.count("ClockExtended") == 1 and kinds.index("ClockExtended") < kinds.index("SeatsTimedOut")
    finally:
        if worker is not None:
            stop_worker(worker)
        api.close()
        drop_schema(schema)
