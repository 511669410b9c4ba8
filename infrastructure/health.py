"""The reach of the service's dependencies, and a fast refusal while the database is away.

With PostgreSQL stopped, every query would wait for the connection pool (and the library retries
each recorder call ten times), so requests would hang for minutes and hold every request thread.
``DatabaseGate`` sits in front of the pool: once a connection fails, it probes the server directly
(a fresh connection with a one-second timeout, at most every ``PROBE_EVERY`` seconds) and, while the
probe fails, refuses at once with ``DatabaseAway`` (a ``PersistenceError`` the library does not
retry), which the API answers 503 with ``Retry-After``. When the probe succeeds again the pool is
used again: it grows new connections on demand, so the first request after the database's return
succeeds without waiting for the pool's reconnection backoff.

The pool does not ping a connection before each use (the library's ``POSTGRES_PRE_PING``): that was
an extra round trip on every checkout, 19 a move (issue 16). Instead the gate checks the whole pool
once, when a probe finds the database back after a failure: the connections a restart broke are
replaced then, all at once, and the library's retry of the call that failed gets a sound one.
"""

from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

import psycopg
import psycopg_pool
from eventsourcing.persistence import InterfaceError, OperationalError, PersistenceError

log = logging.getLogger(__name__)

#: How long a probe's verdict stands, in seconds.
PROBE_EVERY = 0.25
#: The probe's own connect timeout, in seconds (a stopped server refuses at once; a lost host waits).
PROBE_TIMEOUT = 1


class DatabaseAway(PersistenceError):
    """The gate's refusal. Not an ``OperationalError``: the library retries those ten times per call,
    which is what a refusal must not wait for."""


class StoreLocked(PersistenceError):
    """A save waited its ``lock_timeout`` for the events table's lock, held by another session (a
    migration, a backup taking an exclusive lock, an operator's ``LOCK TABLE``). Not an
    ``OperationalError``: the library retried those ten times, so a move waited up to ten lock timeouts
    (over 100 s) and then was answered "the database cannot be reached", which it could (a faults probe)."""


class DatabaseGate:
    def __init__(self, probe: Callable[[], None], clock: Callable[[], float] = time.monotonic):
        self.probe = probe
        self.clock = clock
        self._lock = threading.Lock()
        self._suspect = False  # a connection failed: probe before the next use
        self._down: Optional[str] = None  # why the last probe failed
        self._probed_at = -1e9
        self._check_pool: Callable[[], None] = lambda: None  # set by install

    def suspect(self) -> None:
        self._suspect = True

    def down(self) -> Optional[str]:
        """Why the database cannot be reached, or None when it can (or was not suspected)."""
        if not self._suspect:
            return None
        with self._lock:
            if self.clock() - self._probed_at >= PROBE_EVERY:
                self._probed_at = self.clock()
                try:
                    self.probe()
                except Exception as error:  # any failure to connect means: not reachable now
                    if self._down is None:
                        log.warning("the database is unreachable: %s", error)
                    self._down = str(error).strip() or type(error).__name__
                else:
                    if self._down is not None:
                        log.warning("the database is reachable again")
                    self._down = None
                    self._suspect = False
                    self._replace_broken_connections()
            return self._down

    def _replace_broken_connections(self) -> None:
        try:
            self._check_pool()
        except Exception:  # a check that fails must not turn a recovery into an error
            log.exception("checking the connection pool failed")

    def install(self, datastore: Any) -> None:
        """Put the gate in front of ``datastore.get_connection`` (which ``transaction`` uses too)."""
        through_pool = datastore.get_connection
        self._check_pool = datastore.pool.check

        @contextmanager
        def get_connection() -> Iterator[Any]:
            reason = self.down()
            if reason is not None:
                raise DatabaseAway(f"the database is unreachable: {reason}")
            try:
                with through_pool() as connection:
                    yield connection
            except (OperationalError, InterfaceError):
                self.suspect()
                raise

        datastore.get_connection = get_connection


def position_within(app: Any, seconds: float) -> Optional[int]:
    """The event log's position, or None if no pooled connection frees up within ``seconds``: liveness
    read it through the pool, so with every connection busy ``/health`` took the pool's timeout, retried
    (about 6 s), and a liveness probe with a 1 s timeout restarted a process that was only busy (a
    faults probe). Nor does it wait longer for a lock on the events table (an ACCESS EXCLUSIVE one, as
    an operator's ALTER TABLE or VACUUM FULL takes, held /health for all of a 15 s lock: another probe)."""
    recorder = app.recorder
    pool = getattr(getattr(recorder, "datastore", None), "pool", None)
    if not isinstance(pool, psycopg_pool.ConnectionPool):  # SQLite: no pool to wait for
        return int(app.log_position())
    try:
        with pool.connection(timeout=seconds) as connection, connection.transaction(), \
                connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = {max(1, int(seconds * 1000))}")
            cursor.execute(recorder.max_notification_id_statement)
            row = cursor.fetchone()
    except (psycopg_pool.PoolTimeout, psycopg.errors.LockNotAvailable):
        return None
    return int(row["max"] or 0) if row else 0


def postgres_probe(host: str, port: str, dbname: str, user: str, password: str) -> Callable[[], None]:
    def probe() -> None:
        with psycopg.connect(host=host, port=port, dbname=dbname, user=user, password=password,
                             connect_timeout=PROBE_TIMEOUT) as connection:
            connection.execute("SELECT 1")

    return probe


def broker_probe(broker_url: str) -> Callable[[], None]:
    def probe() -> None:
        from kombu import Connection

        with Connection(broker_url, connect_timeout=PROBE_TIMEOUT) as connection:
            connection.ensure_connection(max_retries=1, timeout=PROBE_TIMEOUT)

    return probe


class Dependencies:
    """What the readiness endpoint reports: each dependency, and why it is down (None when up)."""

    def __init__(self, checks: dict[str, Callable[[], None]], optional: tuple[str, ...] = ()):
        self.checks = checks
        # Those the service serves without (the broker: a write's tasks wait in its outbox): down, the
        # process is degraded, not unready; a 503 would take every API process out of the balancer and
        # turn a broker outage into a whole one (a faults probe).
        self.optional = optional

    def report(self) -> dict[str, Optional[str]]:
        report: dict[str, Optional[str]] = {}
        for name, check in self.checks.items():
            try:
                check()
            except Exception as error:
                report[name] = str(error).strip() or type(error).__name__
            else:
                report[name] = None
        return report
