"""The composition root: builds the application with the event store, read models and task queue
that the settings ask for. Tests swap parts by passing their own (a task queue, a clock, a seeded
random generator).

Building starts no work: ``Container.start`` does (``motley serve``; a Celery worker sweeps at its own
start), so ``motley migrate`` only creates the tables.
"""

from __future__ import annotations

import logging
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, cast

import psycopg
from eventsourcing.persistence import ProgrammingError

from application.league import LeagueProjection
from application.log_watcher import LogWatcher
from application.ports import TASK_SWEEP, LeagueView, MatchListView, Task, TaskQueue
from application.projections import MatchListProjection
from application.service import Motley, utcnow
from application.tasks import SWEEP_EVERY, TaskHandlers
from application.tournaments import RoundKeeper, Tournaments
from infrastructure.health import DatabaseGate, Dependencies, broker_probe, postgres_probe
from infrastructure.league_tables import PostgresLeagueView, SQLiteLeagueView
from infrastructure.log_listener import LogListener
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
    tournaments: Tournaments
    league_view: LeagueView
    league: LeagueProjection
    keeper: RoundKeeper
    dependencies: Optional[Dependencies] = None  # what the readiness endpoint reports
    gate: Optional[DatabaseGate] = None  # fast refusals while PostgreSQL is away
    watcher: Optional[LogWatcher] = None  # wakes the live streams when the log moves (started on demand)
    listener: Optional[LogListener] = None  # nudges the watcher on other processes' saves (PostgreSQL)

    def start(self) -> None:
        """Pick up the work a previous run left (the sweep re-sends what each active match waits for)."""
        # The start-up sweep names the start: a deadline before it passed while this server was down.
        self.tasks.enqueue(Task(TASK_SWEEP, (self.app.clock().isoformat(),)))
        if isinstance(self.tasks, InProcessTaskQueue):  # Celery's beat sweeps for the workers
            self.tasks.beat(Task(TASK_SWEEP), SWEEP_EVERY)

    def close(self) -> None:
        close = getattr(self.tasks, "close", None)
        if close is not None:
            close()
        if self.listener is not None:
            self.listener.close()
        if self.watcher is not None:
            self.watcher.close()
        self.app.close()


#: Seconds between tries of an event store that cannot be reached as a process starts.
START_RETRY_SECONDS = 2.0
#: What PostgreSQL answers to settings it will never accept (a database or role that does not exist, a
#: wrong password): a start with them stops at once, as before, rather than wait for ever. (psycopg
#: gives connection failures no SQLSTATE; "the database system is starting up" is waited for.)
MISCONFIGURED = ("does not exist", "password authentication failed", "no pg_hba.conf entry")

log = logging.getLogger(__name__)


def build_when_reachable(settings: Optional[Settings] = None, sleep: Callable[[float], None] = time.sleep,
                         **parts: Any) -> Container:
    """``build`` once the event store answers, tried every ``START_RETRY_SECONDS`` until then: an API
    started before PostgreSQL (a reboot, a failover) exited, and under gunicorn its master with it, so
    the service never came back by itself. It waits, saying so, and serves once the store answers.
    Tried with a connection of its own, not by building: each failed build left a pool behind that
    kept connecting in the background."""
    settings = settings or Settings.from_env()
    while settings.store == "postgres":
        try:
            psycopg.connect(**settings.postgres_conninfo(), connect_timeout=2).close()
            break
        except psycopg.OperationalError as error:
            if any(sign in str(error) for sign in MISCONFIGURED):
                raise  # the server answered: it will not accept these settings, however long we wait
            log.warning("the event store cannot be reached (%s); trying again in %g s",
                        str(error).strip(), START_RETRY_SECONDS)
            sleep(START_RETRY_SECONDS)
    return build(settings, **parts)


def check_store(settings: Settings) -> None:
    """Connect to the PostgreSQL store once, raising psycopg's own error: through the pool, a missing
    database, a missing role and a wrong port all read "couldn't get a connection after 2.00 sec"."""
    if settings.store == "postgres":
        psycopg.connect(**settings.postgres_conninfo(), connect_timeout=5).close()


def build(
    settings: Optional[Settings] = None,
    tasks: Optional[TaskQueue] = None,
    clock: Callable = utcnow,
    rng: Optional[random.Random] = None,
) -> Container:
    """The container for ``settings``; ``rng`` draws every chance outcome and computer choice (a
    ``random.SystemRandom`` unless a test passes a seeded generator)."""
    settings = settings or Settings.from_env()
    if settings.store == "sqlite":
        _make_parent_directory(settings.sqlite_path)
    if tasks is None:
        celery = settings.tasks == "celery"
        tasks = CeleryTaskQueue(settings.broker_url, settings.queue) if celery else InProcessTaskQueue()
    if rng is None and settings.random_seed is not None:
        rng = random.Random(settings.random_seed)  # tests only (Settings.random_seed)
    app = Motley(env=settings.eventsourcing_env(), tasks=tasks, clock=clock, rng=rng)
    view_class = PostgresMatchListView if settings.store == "postgres" else SQLiteMatchListView
    # The library's factory is typed to return its base TrackingRecorder, whatever class it is given.
    match_list = cast(MatchListView, app.factory.tracking_recorder(view_class))
    projection = MatchListProjection(app, match_list)
    league_view = cast(LeagueView, app.factory.tracking_recorder(
        PostgresLeagueView if settings.store == "postgres" else SQLiteLeagueView))
    tournaments = Tournaments(app)
    keeper = RoundKeeper(app, tournaments, league_view)
    league = LeagueProjection(app, league_view)
    handlers = TaskHandlers(app, projection, followers=[keeper, league])
    if isinstance(tasks, InProcessTaskQueue):
        tasks.bind(handlers)
    gate, checks = _health(settings, app, (match_list, league_view))
    watcher = LogWatcher(app.recorder)
    app.saved_hooks.append(watcher.heard)  # the streams hear of this process's saves at once
    listener = None
    if settings.store == "postgres":  # ... and of other processes' saves (infrastructure/log_listener.py)
        recorder = cast(Any, app.recorder)
        listener = LogListener(settings.postgres_conninfo(), recorder.channel_name, watcher.nudge,
                               ours=recorder.saving_backends)
        watcher.on_start = listener.ensure_started
    return Container(settings, app, match_list, projection, tasks, handlers, tournaments, league_view, league, keeper,
                     Dependencies(checks, optional=("broker",)), gate, watcher, listener)


def _health(settings: Settings, app: Motley, read_models: Sequence[Any]) -> tuple[Optional[DatabaseGate], dict]:
    """The database gate (PostgreSQL only) and the checks of each dependency for readiness."""
    gate = None
    checks: dict = {"database": app.log_position}
    if settings.store == "postgres":
        probe = postgres_probe(settings.postgres_host, settings.postgres_port, settings.postgres_dbname,
                               settings.postgres_user, settings.postgres_password)
        gate = DatabaseGate(probe)
        gate.install(cast(Any, app.factory).datastore)  # the SQL factories have one; the base type does not
        checks["database"] = probe
        checks["tables"] = lambda: tables_present(app, read_models)
    if settings.tasks == "celery":
        checks["broker"] = broker_probe(settings.broker_url)
    return gate, checks


def tables_present(app: Motley, read_models: Sequence[Any] = ()) -> None:
    """Readiness: the event store's tables are there (a deployment that skipped ``motley migrate``, with
    MOTLEY_CREATE_TABLES=n, answered 500 to everything while /ready said ready), and so are the read
    models' tables and their tracking tables (an operator probe dropped the match list's: ``GET /matches``
    answered 500 while /ready said ``tables: ok``), with every column their reads select (an API of a new
    release started before ``motley migrate`` added one answered 500 to ``GET /matches``: a probe). One
    empty SELECT a table."""
    try:
        app.log_position()
    except ProgrammingError:
        raise RuntimeError("the tables are missing: run motley migrate") from None
    for view in read_models:
        try:
            with view.datastore.transaction(commit=False) as curs:
                curs.execute(f"SELECT {', '.join(view.columns)} FROM {view.qualified} LIMIT 0")
                curs.execute(view.max_tracking_id_statement, (app.name,))
        except ProgrammingError as error:
            # migrate adds a table, or a column a release added; a column of the first release dropped by
            # hand it does not (the advice looped: a probe), so the table is dropped and made again.
            raise RuntimeError(f"the read model table {view.qualified} is missing or lacks a column "
                               f"({_database_says(error)}): run motley migrate, then motley rebuild "
                               "(docs/deploy.md); if it still lacks one, drop the table and do both "
                               "again") from None


def _database_says(error: Exception) -> str:
    """The first line of the database's own message (PostgreSQL: 'column "absent" does not exist';
    SQLite: 'no such column: absent'): which table or column is missing, which the operator looks for."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _make_parent_directory(sqlite_path: str) -> None:
    """The embedded store's folder (``var/`` by default) is made when the store is built."""
    folder = os.path.dirname(sqlite_path)
    if sqlite_path != ":memory:" and folder:
        os.makedirs(folder, exist_ok=True)
