"""The service layer's ports: what it needs from the outside, implemented in ``infrastructure``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional, Sequence

from eventsourcing.persistence import Tracking


@dataclass(frozen=True)
class Task:
    """Work for a worker: resolve an automatic step, close a timed phase, move for a computer
    opponent, or bring the read models up to date."""

    name: str  # one of the TASK_* names below
    args: tuple = ()
    eta: Optional[datetime] = None  # run no earlier than this


TASK_RESOLVE = "motley.resolve_automatic_step"
TASK_TIMEOUT = "motley.close_timed_phase"
TASK_BOT = "motley.play_computer_move"
TASK_PROJECT = "motley.update_read_models"
TASK_SWEEP = "motley.sweep_pending_work"  # re-issue work whose task was lost (a crash after a save)


class TaskQueue(ABC):
    """Hands tasks to the workers (Celery), or runs them in-process (the embedded default)."""

    @abstractmethod
    def enqueue(self, task: Task) -> None:
        ...


class NoTaskQueue(TaskQueue):
    """Drops tasks; for tests that drive every step by hand."""

    def __init__(self) -> None:
        self.dropped: list[Task] = []

    def enqueue(self, task: Task) -> None:
        self.dropped.append(task)


@dataclass
class MatchRow:
    match_id: str
    game: str
    status: str
    seats: int
    players: list  # [{"seat", "player_id", "name", "computer"}]
    open_seats: int
    to_act: dict
    version: int
    moves: int
    winners: list
    created_at: datetime
    updated_at: datetime


@dataclass
class MatchPage:
    rows: list[MatchRow]
    total: int


class MatchListView(ABC):
    """The read model of matches, with its tracking position (kept in one transaction)."""

    @abstractmethod
    def position(self, application_name: str) -> int:
        """The last notification id applied (0 when none)."""

    @abstractmethod
    def write(self, rows: Sequence[MatchRow], expected: int, tracking: Tracking) -> None:
        """Upsert ``rows`` and move the tracking position from ``expected`` to ``tracking``, in one
        transaction; raise ``eventsourcing.persistence.IntegrityError`` if another consumer moved
        the position first (then nothing is written)."""

    @abstractmethod
    def query(
        self,
        *,
        game: Optional[str] = None,
        status: Optional[str] = None,
        player_id: Optional[str] = None,
        open_only: bool = False,
        limit: int = 20,
        offset: int = 0,
    ) -> MatchPage:
        ...

    @abstractmethod
    def wait(self, application_name: str, position: int, timeout: float) -> bool:
        """Wait until ``position`` is applied; False on timeout."""
