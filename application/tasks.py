"""What each worker task does: a thin call into the service layer, by task name."""

from __future__ import annotations

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


class TaskHandlers:
    def __init__(self, app: Motley, projection: MatchListProjection, followers: Sequence[Any] = ()):
        self.app = app
        self.projection = projection
        # Other followers of the log (the round keeper, the league read models), run after the list.
        self.followers = list(followers)
        self.handlers: dict[str, Callable[..., Any]] = {
            TASK_RESOLVE: app.resolve_automatic_step,
            TASK_TIMEOUT: app.close_timed_phase,
            TASK_BOT: app.play_computer_move,
            TASK_PROJECT: self.project,
            TASK_SWEEP: self.sweep,
        }

    def project(self) -> int:
        return self.projection.run() + sum(follower.run() for follower in self.followers)

    def sweep(self, down_until: Optional[str] = None) -> int:
        self.project()  # the list of active matches (and the tournaments' rounds) must be current first
        return sweep_pending_work(self.app, self.projection.view, down_until=down_until)

    def run(self, name: str, *args: Any) -> Any:
        return self.handlers[name](*args)
