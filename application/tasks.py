"""What each worker task does: a thin call into the service layer, by task name."""

from __future__ import annotations

from typing import Any

from application.ports import TASK_BOT, TASK_PROJECT, TASK_RESOLVE, TASK_SWEEP, TASK_TIMEOUT
from application.projections import MatchListProjection, sweep_pending_work
from application.service import Motley


class TaskHandlers:
    def __init__(self, app: Motley, projection: MatchListProjection):
        self.app = app
        self.projection = projection
        self.handlers = {
            TASK_RESOLVE: app.resolve_automatic_step,
            TASK_TIMEOUT: app.close_timed_phase,
            TASK_BOT: app.play_computer_move,
            TASK_PROJECT: projection.run,
            TASK_SWEEP: self.sweep,
        }

    def sweep(self) -> int:
        self.projection.run()  # the list of active matches must be current first
        return sweep_pending_work(self.app, self.projection.view)

    def run(self, name: str, *args: Any) -> Any:
        return self.handlers[name](*args)
