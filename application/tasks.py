"""What each worker task does: a thin call into the service layer, by task name."""

from __future__ import annotations

import time
from typing import Any, Callable, Optional, Sequence

from eventsourcing.persistence import PersistenceError

from application.errors import Conflict
from application.ports import TASK_BOT, TASK_PROJECT, TASK_RESOLVE, TASK_SWEEP, TASK_TIMEOUT
from application.projections import MatchListProjection, sweep_pending_work
from application.service import Motley

#: What a task may fail with and succeed at later (a database hiccup, a lock held by another writer, a
#: match too busy to write now): every runner tries such a task again rather than drop the work.
RETRYABLE = (PersistenceError, Conflict)
#: How often the sweep runs (Celery beat's schedule, and the embedded default's own beat).
SWEEP_EVERY = 30.0
#: Seconds a projection run must have started after a task was sent to stand for it: room for the
#: clocks of the API's and the workers' hosts to differ.
COVER_MARGIN = 0.5


class TaskHandlers:
    def __init__(self, app: Motley, projection: MatchListProjection, followers: Sequence[Any] = (),
                 wall: Callable[[], float] = time.time):
        self.app = app
        self.projection = projection
        # Other followers of the log (the round keeper, the league read models), run after the list.
        self.followers = list(followers)
        self.wall = wall
        self.covered: Optional[float] = None  # when this process's last whole projection run started
        self.handlers: dict[str, Callable[..., Any]] = {
            TASK_RESOLVE: app.resolve_automatic_step,
            TASK_TIMEOUT: app.close_timed_phase,
            TASK_BOT: app.play_computer_move,
            TASK_PROJECT: self.project,
            TASK_SWEEP: self.sweep,
        }

    def project(self, sent_at: Optional[float] = None) -> int:
        """Bring every read model up to the log's end. A task sent (``sent_at``) before a whole run of this
        process started is done already: that run read every save the task was sent for, committed before
        it was sent. Such tasks queued up behind a busy worker (4,286 projection tasks against 276 steps,
        an operator's probe), and the scoring steps waited behind them for seconds, FIFO; each is now
        dropped without a query."""
        if sent_at is not None and self.covered is not None and self.covered >= sent_at + COVER_MARGIN:
            return 0
        started = self.wall()
        applied = self.projection.run() + sum(follower.run() for follower in self.followers)
        # Only once the run is whole: a failed one stands for nothing. A run that stopped because another
        # consumer moved the position first counts: that one goes on reading until it finds nothing new,
        # each read after this run's, so it applies every save committed before ``started`` (or fails,
        # and its own task is tried again).
        self.covered = started
        return applied

    def sweep(self, down_until: Optional[str] = None) -> int:
        self.project()  # the list of active matches (and the tournaments' rounds) must be current first
        return sweep_pending_work(self.app, self.projection.view, down_until=down_until)

    def run(self, name: str, *args: Any) -> Any:
        return self.handlers[name](*args)
