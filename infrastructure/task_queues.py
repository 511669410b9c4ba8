"""Task queues: Celery for deployments with workers, a background thread for the embedded default."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from datetime import datetime, timezone
from typing import Optional

from application.ports import Task, TaskQueue
from application.tasks import TaskHandlers

log = logging.getLogger(__name__)


def celery_queue(name: str):
    """The broker queue the API sends to and the workers consume (an idle one expires in a day)."""
    from kombu import Queue

    return Queue(name, queue_arguments={"x-expires": 24 * 3600 * 1000})


class CeleryTaskQueue(TaskQueue):
    """Sends tasks by name to the Celery workers (``workers.celery_app``) through the broker."""

    def __init__(self, broker_url: str, queue: str = "motley"):
        from celery import Celery

        self.client = Celery("motley-client", broker=broker_url)
        self.client.conf.broker_connection_retry_on_startup = True
        self.queue = celery_queue(queue)

    def enqueue(self, task: Task) -> None:
        self.client.send_task(task.name, args=list(task.args), eta=task.eta, queue=self.queue)

    def close(self) -> None:
        self.client.close()


class InProcessTaskQueue(TaskQueue):
    """Runs tasks in one background thread of this process, each no earlier than its ``eta``."""

    def __init__(self) -> None:
        self.handlers: Optional[TaskHandlers] = None
        self._heap: list = []
        self._counter = itertools.count()
        self._condition = threading.Condition()
        self._busy = 0
        self._waiting: set = set()  # immediate tasks queued but not started
        self._stopped = False
        # Started by the first task, so that building a container (``motley migrate``) starts nothing.
        self._thread = threading.Thread(target=self._loop, name="motley-tasks", daemon=True)

    def bind(self, handlers: TaskHandlers) -> None:
        self.handlers = handlers

    def enqueue(self, task: Task) -> None:
        due = time.monotonic()
        if task.eta is not None:
            due += max(0.0, (task.eta - datetime.now(timezone.utc)).total_seconds())
        with self._condition:
            if task.eta is None and task in self._waiting:
                return  # the same work is already queued and not started: once is enough
            if task.eta is None:
                self._waiting.add(task)
            heapq.heappush(self._heap, (due, next(self._counter), task))
            self._condition.notify_all()
            if self._thread.ident is None and not self._stopped:  # not started yet
                self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._condition:
                while not self._stopped and (not self._heap or self._heap[0][0] > time.monotonic()):
                    wait = None if not self._heap else self._heap[0][0] - time.monotonic()
                    self._condition.wait(timeout=wait)
                if self._stopped:
                    return
                _, _, task = heapq.heappop(self._heap)
                self._waiting.discard(task)
                self._busy += 1
            try:
                if self.handlers is not None:
                    self.handlers.run(task.name, *task.args)
            except Exception:  # a failed task must not stop the others; it is logged
                log.exception("task %s%r failed", task.name, task.args)
            finally:
                with self._condition:
                    self._busy -= 1
                    self._condition.notify_all()

    def drain(self, timeout: float = 30.0, horizon: float = 0.0) -> None:
        """Wait until no task due within ``horizon`` seconds is queued or running."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while self._busy or (self._heap and self._heap[0][0] <= time.monotonic() + horizon):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError("in-process tasks did not finish")
                self._condition.wait(timeout=min(remaining, 0.05))

    def close(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
