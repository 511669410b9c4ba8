"""Test doubles: stand-ins for the ports that record what the service asked of them."""

from __future__ import annotations

from application.ports import NoTaskQueue, Task


class RecordingTaskQueue(NoTaskQueue):
    """Runs no task, and keeps every task it was sent (``dropped``), for tests that drive every step
    by hand and check which work the service asked for."""

    def __init__(self) -> None:
        self.dropped: list[Task] = []

    def enqueue(self, task: Task) -> None:
        self.dropped.append(task)
