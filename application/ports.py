"""The service layer's ports: what it needs from the outside, implemented in ``infrastructure``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Optional, Sequence

from eventsourcing.persistence import Tracking


@dataclass(frozen=True)
class Task:
    """Work for a worker: resolve an automatic step, close a timed phase, move for a computer
    opponent, or bring the read models up to date."""

    name: str  # one of the TASK_* names below
    args: tuple = ()
    eta: Optional[datetime] = None  # run no earlier than this
    #: A projection task's: when it was sent (wall-clock seconds), after every save it serves had committed.
    #: A worker process whose last run started later skips it (``TaskHandlers.project``).
    sent_at: Optional[float] = None


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
    """Sends no work to anyone (a read-model rebuild, a tool). Tests that check what was sent use
    ``tests.doubles.RecordingTaskQueue``."""

    def enqueue(self, task: Task) -> None:
        pass


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
    #: What a player agrees to by joining: turn_limit, rated, versions_required, unlisted (issue 13).
    terms: dict = field(default_factory=dict)
    #: The players an open match waits for: invited by id, or a seat kept for them (a rematch, a fork),
    #: and not seated yet (``GET /players/me/invitations``); [] once it is no longer open.
    awaiting: list = field(default_factory=list)
    #: The seats away (their turn clock ran out, not back): a finished match's, away when it ended, whom the
    #: computer played for (its winners may name one). [] in rows not rewritten since it was listed.
    absent: list = field(default_factory=list)


@dataclass
class MatchPage:
    rows: list[MatchRow]
    total: int


#: The cursor key before every row: ``MatchListView.query(after=FIRST_PAGE)`` is the first page of a
#: list in creation order (issue 13).
FIRST_PAGE = (datetime(9999, 1, 1, tzinfo=timezone.utc), "")


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
        after: Optional[tuple] = None,
        listed_only: bool = False,
        awaiting: Optional[str] = None,
    ) -> MatchPage:
        """Newest activity first, ``offset`` rows skipped; or, with ``after`` (a (created_at,
        match_id) key, issue 13), the rows created before it, newest first: a stable cursor, since
        a row's creation never moves while the list is read. ``listed_only``: without the unlisted
        matches (what the public sees). ``awaiting``: only the rows that await this player."""

    @abstractmethod
    def wait(self, application_name: str, position: int, timeout: float) -> bool:
        """Wait until ``position`` is applied; False on timeout."""


@dataclass(frozen=True)
class Doc:
    """One row of the league read models (ratings, statistics, rating history, tournaments,
    standings, sanction reports): ``kind`` and ``group`` say which list, ``key`` which row in it,
    ``tag`` and ``sort`` what the list is filtered and ordered by, ``data`` the row itself (JSON)."""

    kind: str
    group: str
    key: str
    tag: str
    sort: float
    data: dict


@dataclass
class DocPage:
    rows: list[Doc]
    total: int


class LeagueView(ABC):
    """The league read models, with tracking positions (the rows and a position in one transaction)."""

    @abstractmethod
    def position(self, application_name: str) -> int:
        ...

    @abstractmethod
    def wait(self, application_name: str, position: int, timeout: float) -> bool:
        ...

    @abstractmethod
    def write(self, puts: Sequence[Doc], drops: Sequence[tuple[str, str]], expected: int, tracking: Tracking) -> None:
        """Delete the rows of each ``(kind, group)`` in ``drops``, upsert ``puts`` and move the
        position of ``tracking.application_name`` from ``expected``, in one transaction; raise
        ``IntegrityError`` (writing nothing) if another consumer moved it first."""

    @abstractmethod
    def get(self, kind: str, group: str, key: str) -> Optional[Doc]:
        ...

    @abstractmethod
    def get_many(self, keys: Sequence[tuple[str, str, str]]) -> dict[tuple[str, str, str], Doc]:
        """The stored rows of the ``(kind, group, key)`` keys that have one, by key, in one read."""

    @abstractmethod
    def page(self, kind: str, group: Optional[str] = None, tag: Optional[str] = None, *, by_sort: bool = False,
             limit: int = 1000000, offset: int = 0) -> DocPage:
        """Rows of a kind (and group, tag), by ``sort`` descending or else by key."""

    @abstractmethod
    def count_above(self, kind: str, group: str, sort: float) -> int:
        """How many rows of a kind and group have a ``sort`` greater than ``sort``."""

    @abstractmethod
    def dump(self, kinds: Sequence[str]) -> list[Doc]:
        """Every row of ``kinds``, in a fixed order (to compare the live rows with a rebuild)."""

    @abstractmethod
    def reset(self, application_name: str, kinds: Sequence[str]) -> None:
        """Delete every row of ``kinds`` and the position of ``application_name`` (a rebuild)."""
