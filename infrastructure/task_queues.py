"""Task queues: Celery for deployments with workers, a background thread for the embedded default."""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import threading
import time
from collections import deque
from datetime import datetime, timezone
from typing import Callable, Optional

from application.ports import TASK_BOT, TASK_PROJECT, Task, TaskQueue
from application.tasks import RETRYABLE, TaskHandlers

log = logging.getLogger(__name__)


def computers_queue_name(queue: str) -> str:
    """Where computer opponents' moves go, beside ``queue``: a search thinks for up to a second, so
    a deployment can give them workers of their own (Procfile ``computers:``) and no scoring, timer
    or projection waits behind one. A worker started without ``-Q`` consumes both."""
    return f"{queue}.computers"


def celery_queue(name: str):
    """The broker queue the API sends to and the workers consume (an idle one expires in a day)."""
    from kombu import Queue

    return Queue(name, queue_arguments={"x-expires": 24 * 3600 * 1000})


#: The message header of a projection task that says when it was sent (``TaskHandlers.project``).
SENT_AT = "motley_sent_at"


class CeleryTaskQueue(TaskQueue):
    """Sends tasks by name to the Celery workers (``workers.celery_app``) through the broker.

    A task is sent after the save that calls for it, so a broker that cannot be reached must not turn
    a saved write into an error (a client retrying it without an idempotency key would write twice).
    A send that fails keeps the task in a bounded outbox and stops trying for ``RETRY_AFTER``
    seconds, so that a write does not wait on a broker that is away; the outbox is sent first at the
    next send that finds the broker again, and the sweep (``motley.sweep_pending_work``) re-issues
    whatever an active match still waits for if the outbox overflowed or the process died.
    """

    RETRY_AFTER = 1.0  # seconds without a send attempt after one failed
    PROJECT_WINDOW = 0.02  # seconds of saves one projection task serves (see _project_soon)
    OUTBOX = 10_000  # tasks kept while the broker is away (the oldest go first; the sweep has them)
    ETA_HORIZON = 120.0  # seconds: a task due later is left to the sweep (see enqueue)
    WARN_EVERY = 60.0  # seconds between warnings of a broker still away (each retry's was a line a second)

    def __init__(self, broker_url: str, queue: str = "motley"):
        from celery import Celery

        self.client = Celery("motley-client", broker=broker_url)
        self.client.conf.update(
            broker_connection_retry_on_startup=True,
            broker_connection_timeout=1,  # seconds; kombu's default of 4, per retry, held writes
            task_publish_retry=False,  # the outbox retries, without holding the request
            # One quick reconnection (a connection a broker restart broke), not kombu's 2 s of them.
            # confirm_publish: a send returns once the broker has taken the task (AMQP publisher
            # confirms); without it a send only wrote to the socket, and a publish the broker then
            # refused or never read was lost without an error, so never kept in the outbox (kombu's
            # pyamqp transport documents it). One round trip a send.
            broker_transport_options={"max_retries": 1, "interval_start": 0, "interval_step": 0.1,
                                      "interval_max": 0.1, "confirm_publish": True},
        )
        self.queue = celery_queue(queue)
        self.computers = celery_queue(computers_queue_name(queue))
        self._outbox: deque[Task] = deque(maxlen=self.OUTBOX)
        self._lock = threading.Lock()
        self._retry_at = 0.0
        self._warned_at = -self.WARN_EVERY  # when "broker unreachable" was last said (monotonic)
        self._retry_timer: Optional[threading.Timer] = None
        self._project_timer: Optional[threading.Timer] = None
        # Told the outbox's size after every change (api/metrics.py keeps it as a gauge that sums every
        # API process's: read when scraped, it was the outbox of whichever process answered).
        self.outbox_watchers: list[Callable[[int], None]] = []

    def enqueue(self, task: Task) -> None:
        if task.name == TASK_PROJECT and not task.args and task.eta is None:
            self._project_soon()
            return
        if task.eta is not None and (task.eta - datetime.now(timezone.utc)).total_seconds() > self.ETA_HORIZON:
            # Not sent yet: the beat's sweep (every 30 s) sends it again once it is due within the horizon.
            # A worker holds a task with an eta unacknowledged until then, and RabbitMQ closes a channel
            # that holds one longer than its consumer_timeout (30 minutes by default): a match with a
            # turn limit of an hour broke its worker's channel, and every sweep added another such task.
            return
        with self._lock:
            self._outbox.append(task)
        self.flush()

    def _project_soon(self) -> None:
        """One projection task for every save of the next ``PROJECT_WINDOW`` seconds, not one a save.

        A projection reads the whole log after its position, so one run after the last of several
        saves does the work of all of them; one message a save only filled the workers' queue, and
        a match's scoring waited behind them (issue 16, P3). The message is sent when the window
        closes, so after every save that joined it had committed (each enqueues after its commit)."""
        with self._lock:
            if self._project_timer is not None:
                return  # one is on its way, after this save
            self._project_timer = threading.Timer(self.PROJECT_WINDOW, self._send_projection)
            self._project_timer.daemon = True
            self._project_timer.start()

    def _send_projection(self) -> None:
        with self._lock:
            self._project_timer = None
            # Sent after every save of the window had committed (each enqueues after its commit).
            self._outbox.append(Task(TASK_PROJECT, sent_at=time.time()))
        self.flush()

    def flush(self) -> None:
        """Send what the outbox holds, oldest first, unless a send failed less than RETRY_AFTER ago
        (then a retry is armed for when that time is up). Every change of the outbox ends here."""
        try:
            self._flush()
        finally:
            with self._lock:  # the size and its report in one step: a report overtaken left a stale gauge
                size = len(self._outbox)
                for watcher in self.outbox_watchers:
                    watcher(size)

    def _flush(self) -> None:
        with self._lock:
            if not self._outbox:
                return
            wait = self._retry_at - time.monotonic()
            if wait > 0:
                self._arm_retry(wait)
                return
            pending = list(self._outbox)
            self._outbox.clear()
        for number, queued in enumerate(pending):
            try:
                self._send(queued)
            except Exception as error:  # the broker is away: keep the rest, try again in a while
                with self._lock:
                    now = time.monotonic()
                    said, self._warned_at = (True, now) if now - self._warned_at >= self.WARN_EVERY \
                        else (False, self._warned_at)
                # Once a minute while it stays away (the outbox's size is on /metrics, motley_task_outbox).
                (log.warning if said else log.debug)("broker unreachable; %d task(s) kept for later: %s",
                                                     len(pending) - number, error)
                with self._lock:
                    self._retry_at = time.monotonic() + self.RETRY_AFTER
                    self._outbox.extendleft(reversed(pending[number:]))
                    self._arm_retry(self.RETRY_AFTER)
                return

    def _arm_retry(self, delay: float) -> None:
        """With the lock held: make sure a retry runs once ``delay`` is up. Without one, a match waiting
        only for a worker would wait for the next save or the sweep. A retry that fires while a later
        failure has pushed ``_retry_at`` on finds the wait not over and arms the next one (``flush``):
        before, it returned without re-arming and the outbox stalled."""
        if self._retry_timer is not None and self._retry_timer.is_alive():
            return
        self._retry_timer = threading.Timer(delay + 0.01, self._retry)
        self._retry_timer.daemon = True
        self._retry_timer.start()

    def _retry(self) -> None:
        with self._lock:
            self._retry_timer = None
        self.flush()

    @property
    def waiting(self) -> int:
        """Tasks kept in the outbox, not yet sent."""
        return len(self._outbox)

    def _send(self, task: Task) -> None:
        queue = self.computers if task.name == TASK_BOT else self.queue
        # A header, not an argument: a worker of an older release ignores it (an argument it does not
        # take would fail every projection task until the workers were upgraded too).
        headers = None if task.sent_at is None else {SENT_AT: task.sent_at}
        self.client.send_task(task.name, args=list(task.args), eta=task.eta, queue=queue, headers=headers)

    def close(self) -> None:
        with self._lock:
            pending, self._project_timer = self._project_timer, None
        if pending is not None:  # a projection still due: sent now, not lost with the process
            pending.cancel()
            with self._lock:
                self._outbox.append(Task(TASK_PROJECT))
            self.flush()
        timer = self._retry_timer
        if timer is not None:
            timer.cancel()
        if self._outbox:
            # Not lost for good (a worker's sweep finds whatever an active match waits for), but nothing
            # resends them until a sweep runs: said, not dropped without a word (an operator probe).
            log.warning("stopping with %d task(s) never sent (the broker was away); a worker's sweep sends "
                        "what the matches still wait for (celery beat, or a worker's start)", len(self._outbox))
        self.client.close()


class _Lane:
    """One background thread running its tasks in order, each no earlier than its ``eta``; a task
    that fails with a ``RETRYABLE`` error runs again later, as on Celery (``workers.celery_app``)."""

    MAX_RETRIES = 20
    BACKOFF = 0.5  # seconds before the first retry (at most; jittered), doubled at each failure
    BACKOFF_MAX = 30.0

    def __init__(self, name: str) -> None:
        self.handlers: Optional[TaskHandlers] = None
        self._heap: list = []
        self._counter = itertools.count()
        self._condition = threading.Condition()
        self._busy = 0
        self._waiting: set = set()  # immediate tasks queued but not started
        self._stopped = False
        # Started by the first task, so that building a container (``motley migrate``) starts nothing.
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    def __len__(self) -> int:
        return len(self._heap)

    def enqueue(self, task: Task, defer: float = 0.0) -> None:
        """Run ``task`` at its ``eta`` (now if it has none), or ``defer`` seconds from now: an
        immediate task queued and not yet started is queued once, however often it is sent."""
        due = time.monotonic() + defer
        if task.eta is not None:
            due += max(0.0, (task.eta - datetime.now(timezone.utc)).total_seconds())
        with self._condition:
            if task.eta is None and task in self._waiting:
                return  # the same work is already queued and not started: once is enough
            if task.eta is None:
                self._waiting.add(task)
            self._push(due, task, 0)
            if self._thread.ident is None and not self._stopped:  # not started yet
                self._thread.start()

    def _push(self, due: float, task: Task, failures: int) -> None:
        """With the condition held: queue ``task`` to run at ``due`` (a monotonic time)."""
        heapq.heappush(self._heap, (due, next(self._counter), task, failures))
        self._condition.notify_all()

    def _loop(self) -> None:
        while True:
            with self._condition:
                while not self._stopped and (not self._heap or self._heap[0][0] > time.monotonic()):
                    wait = None if not self._heap else self._heap[0][0] - time.monotonic()
                    self._condition.wait(timeout=wait)
                if self._stopped:
                    return
                _, _, task, failures = heapq.heappop(self._heap)
                self._waiting.discard(task)
                self._busy += 1
            try:
                if self.handlers is not None:
                    self.handlers.run(task.name, *task.args)
            except RETRYABLE as error:
                # A database hiccup (another writer holding SQLite's lock past its busy timeout) or a
                # match too busy now: tried again later, as Celery's RETRY does. Dropped, a timer's
                # close or a scoring step was lost until the next restart, and its match stalled.
                self._retry(task, failures, error)
            except Exception:  # a failed task must not stop the others; it is logged
                log.exception("task %s%r failed", task.name, task.args)
            finally:
                with self._condition:
                    self._busy -= 1
                    self._condition.notify_all()

    def _retry(self, task: Task, failures: int, error: Exception) -> None:
        if failures >= self.MAX_RETRIES:
            log.error("task %s%r failed %d times, given up (the sweep sends it again if its match still "
                      "waits for it): %s", task.name, task.args, failures + 1, error)
            return
        # Celery's exponential backoff with full jitter (retry_backoff=0.5, retry_backoff_max=30).
        delay = random.uniform(0, min(self.BACKOFF_MAX, self.BACKOFF * 2 ** failures))
        log.warning("task %s%r failed (%s); tried again in %.2f s", task.name, task.args, error, delay)
        with self._condition:
            self._push(time.monotonic() + delay, task, failures + 1)

    def _due_within(self, horizon: float) -> bool:
        """A task due within ``horizon`` seconds is queued; a deferred immediate task counts as due."""
        return bool(self._waiting) or bool(self._heap and self._heap[0][0] <= time.monotonic() + horizon)

    def idle(self, horizon: float) -> bool:
        with self._condition:
            return not self._busy and not self._due_within(horizon)

    def drain(self, deadline: float, horizon: float) -> None:
        with self._condition:
            while self._busy or self._due_within(horizon):
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


class InProcessTaskQueue(TaskQueue):
    """Runs tasks in background threads of this process, each no earlier than its ``eta``: computer
    opponents' moves in a thread of their own, as on Celery (:func:`computers_queue_name`), so that a
    search thinking for up to a second delays no other match's scoring, timers or projection; and the
    read models' runs (the match list, the round keeper, the league) in another, so that a scoring
    step or a timer never waits behind a run, which in a busy process can take half a second, each
    of its queries waiting its turn for the GIL (issue 16, P3). Runs racing a sweep's are safe: each
    follower keeps its position with tracking, as with several Celery workers."""

    #: Seconds of saves one projection run serves: the first save's task waits this long, and the
    #: saves after it join it (as CeleryTaskQueue.PROJECT_WINDOW). A run reads the whole log after its
    #: position, so under load one run does the work of many; one run a save took half the server's
    #: CPU beside the moves (issue 16).
    PROJECT_WINDOW = 0.05

    def __init__(self) -> None:
        self._lanes = {"tasks": _Lane("motley-tasks"), "computers": _Lane("motley-computers"),
                       "read-models": _Lane("motley-read-models")}
        self._closing = threading.Event()

    def beat(self, task: Task, every: float) -> None:
        """Send ``task`` every ``every`` seconds until closed: Celery beat's job, for the embedded
        default. With the sweep sent only at start-up, a match whose task was lost (given up after its
        retries, or skipped) waited for the next restart."""
        def send_every() -> None:
            while not self._closing.wait(every):
                self.enqueue(task)

        threading.Thread(target=send_every, name="motley-beat", daemon=True).start()

    def bind(self, handlers: TaskHandlers) -> None:
        for lane in self._lanes.values():
            lane.handlers = handlers

    def _lane(self, task: Task) -> _Lane:
        if task.name == TASK_BOT:
            return self._lanes["computers"]
        return self._lanes["read-models" if task.name == TASK_PROJECT else "tasks"]

    def enqueue(self, task: Task) -> None:
        coalesced = task.name == TASK_PROJECT and not task.args and task.eta is None
        self._lane(task).enqueue(task, defer=self.PROJECT_WINDOW if coalesced else 0.0)

    def depths(self) -> list[tuple[str, int]]:
        """Tasks waiting in each lane, for /metrics."""
        return [("inprocess" if name == "tasks" else f"inprocess.{name}", len(lane))
                for name, lane in self._lanes.items()]

    def drain(self, timeout: float = 30.0, horizon: float = 0.0) -> None:
        """Wait until no task due within ``horizon`` seconds is queued or running in any lane (a
        task of one lane may queue one in the other, so the lanes are drained until all are idle)."""
        deadline = time.monotonic() + timeout
        while True:
            for lane in self._lanes.values():
                lane.drain(deadline, horizon)
            if all(lane.idle(horizon) for lane in self._lanes.values()):
                return

    def close(self) -> None:
        self._closing.set()
        for lane in self._lanes.values():
            lane.close()
