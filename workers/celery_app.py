"""The Celery app: thin tasks that call the service layer through the task handlers.

Run with ``celery -A workers.celery_app worker``. Each worker process builds its own application
after the fork (database pools must not cross a fork).
"""

from __future__ import annotations

import os
import sys
import threading
from datetime import datetime, timezone
from typing import Optional

from celery import Celery
from celery.signals import worker_process_init, worker_process_shutdown, worker_ready

from application.ports import TASK_BOT, TASK_PROJECT, TASK_RESOLVE, TASK_SWEEP, TASK_TIMEOUT
from application.tasks import RETRYABLE, SWEEP_EVERY
from infrastructure.settings import Settings
from infrastructure.task_queues import SENT_AT, CeleryTaskQueue, celery_queue, computers_queue_name

try:
    settings = Settings.from_env()
except ValueError as error:  # a setting that cannot be right: one line naming it, as a `motley` command says it
    if os.environ.get("MOTLEY_TRACEBACK"):
        raise
    print(f"motley workers (celery): {error}", file=sys.stderr)
    raise SystemExit(1) from None
#: When this worker started, read once in its main process, before the pool forks (a child the pool
#: replaces, under --max-tasks-per-child, inherits it): a deadline that passed before it passed while
#: no worker could close it, the service (or its workers) down. The first tasks a returning worker runs
#: are the timeouts the broker kept through the outage, before its start-up sweep: each names this time,
#: so that they too give the players a whole period (``Motley.close_timed_phase``) rather than close.
STARTED = datetime.now(timezone.utc).isoformat()
celery = Celery("motley", broker=settings.broker_url)
celery.conf.update(
    task_acks_late=True,  # a task lost with its worker is delivered again; every task is idempotent
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    # A worker whose broker goes away waits for it and carries on: retry the connection for ever
    # (Celery's default gives up after 100 tries and, with Redis, exits "Unrecoverable error").
    broker_connection_retry=True,
    broker_connection_max_retries=None,
    broker_channel_error_retry=True,
    task_ignore_result=True,
    # Both queues unless the worker is started with -Q (the Procfile gives computers their own).
    task_queues=[celery_queue(settings.queue), celery_queue(computers_queue_name(settings.queue))],
    task_default_queue=settings.queue,
    # With `celery beat` (or `worker -B`), lost work is found again every 30 s.
    beat_schedule={"sweep-pending-work": {"task": TASK_SWEEP, "schedule": SWEEP_EVERY}},
)

_container = None
_container_pid = None
_lock = threading.Lock()


def container():
    """This process's composition root, built lazily after any fork."""
    global _container, _container_pid
    with _lock:
        if _container is None or _container_pid != os.getpid():
            from infrastructure.composition import build_when_reachable

            worker_settings = Settings.from_env(create_tables=False)
            queue = CeleryTaskQueue(worker_settings.broker_url, worker_settings.queue)
            # Once the store answers: a build that failed left a pool behind, connecting in the
            # background, at every retry of the task.
            _container = build_when_reachable(worker_settings, tasks=queue)
            _container_pid = os.getpid()
        return _container


@worker_ready.connect
def _sweep_at_start(sender=None, **_):
    """A worker that starts (again) first re-issues whatever work active matches wait for; a deadline
    that passed before now passed while no worker could close it (``Motley.close_timed_phase``)."""
    celery.send_task(TASK_SWEEP, args=[STARTED], queue=celery_queue(settings.queue))


@worker_process_init.connect
def _build_after_fork(**_):
    global _container
    _container = None


@worker_process_shutdown.connect
def _close(**_):
    if _container is not None:
        _container.close()


# A database hiccup or a match too busy to write now: try again later, never drop the work.
RETRY = dict(autoretry_for=RETRYABLE, retry_backoff=0.5, retry_backoff_max=30,
             max_retries=20, retry_jitter=True)


def _run(name, *args):
    return container().handlers.run(name, *args)


@celery.task(name=TASK_RESOLVE, **RETRY)
def resolve_automatic_step(match_id: str) -> bool:
    return _run(TASK_RESOLVE, match_id)


@celery.task(name=TASK_TIMEOUT, **RETRY)
def close_timed_phase(match_id: str, phase: str, down_until: Optional[str] = None) -> bool:
    return _run(TASK_TIMEOUT, match_id, phase, down_until or STARTED)


@celery.task(name=TASK_BOT, **RETRY)
def play_computer_move(match_id: str, seat: int, since: Optional[int] = None) -> bool:
    return _run(TASK_BOT, match_id, seat, since)


@celery.task(name=TASK_PROJECT, bind=True, **RETRY)
def update_read_models(self) -> int:
    # When the API sent it (a header): a run of this process started since has done it already.
    sent_at = self.request.get(SENT_AT)
    return _run(TASK_PROJECT, sent_at if isinstance(sent_at, (int, float)) else None)


@celery.task(name=TASK_SWEEP, **RETRY)
def sweep_pending_work(down_until: Optional[str] = None) -> int:
    return _run(TASK_SWEEP, down_until)
