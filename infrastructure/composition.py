"""The composition root: builds the application with the event store, read models and task queue
that the settings ask for. Tests swap parts by passing their own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from application.ports import TASK_SWEEP, MatchListView, Task, TaskQueue
from application.projections import MatchListProjection
from application.service import Motley, utcnow
from application.tasks import TaskHandlers
from infrastructure.readmodels import PostgresMatchListView, SQLiteMatchListView
from infrastructure.settings import Settings
from infrastructure.task_queues import CeleryTaskQueue, InProcessTaskQueue


@dataclass
class Container:
    settings: Settings
    app: Motley
    match_list: MatchListView
    projection: MatchListProjection
    tasks: TaskQueue
    handlers: TaskHandlers

    def close(self) -> None:
        close = getattr(self.tasks, "close", None)
        if close is not None:
            close()
        self.app.close()


def build(
    settings: Optional[Settings] = None,
    tasks: Optional[TaskQueue] = None,
    clock: Callable = utcnow,
) -> Container:
    settings = settings or Settings.from_env()
    if tasks is None:
        tasks = CeleryTaskQueue(settings.broker_url, settings.queue) if settings.tasks == "celery" else InProcessTaskQueue()
    app = Motley(env=settings.eventsourcing_env(), tasks=tasks, clock=clock)
    view_class = PostgresMatchListView if settings.store == "postgres" else SQLiteMatchListView
    match_list = app.factory.tracking_recorder(view_class)
    projection = MatchListProjection(app, match_list)
    handlers = TaskHandlers(app, projection)
    if isinstance(tasks, InProcessTaskQueue):
        tasks.bind(handlers)
        tasks.enqueue(Task(TASK_SWEEP))  # the embedded server picks up work left by its last run
    return Container(settings, app, match_list, projection, tasks, handlers)
