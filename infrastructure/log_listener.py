"""Every API process hears of every save at once, whichever process made it (issue 16).

A save in this process nudges its log watcher directly (application/log_watcher.py). A save in another
process (another gunicorn worker, a Celery worker's automatic step) used to wait for the watcher's
next tick, up to ``INTERVAL``: with two API processes a stream heard of half the moves late, and one
client alone played at a third of the speed. The event store's insert sends ``NOTIFY`` on the events
table's channel (infrastructure/postgres_store.py); this thread LISTENs on it with a connection of its
own, outside the pool, and nudges the watcher on each notification. It starts with the watcher (only
a process that serves streams opens the connection) and, if the connection fails, listens again after
a pause; meanwhile the watcher's tick is the fallback, so a lost notification costs a delay, never a
change. A notification sent by one of this process's own connections (``ours``: the backend pids its
recorder saved with) is passed over: the application announced that save to the watcher itself
(``LogWatcher.heard``), and a read of the log for it would be a query a move for nothing.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Collection, Optional

import psycopg

log = logging.getLogger(__name__)

#: Seconds between the checks whether to stop, while no notification arrives.
CHECK_EVERY = 1.0
#: Seconds before listening again after the connection failed.
RETRY_AFTER = 2.0


class LogListener:
    def __init__(self, conninfo: dict, channel: str, nudge: Callable[[], None], ours: Collection[int] = ()):
        self.conninfo, self.channel, self.nudge = conninfo, channel, nudge
        self.ours = ours  # backend pids whose notifications are this process's own saves
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.heard = 0  # notifications received (tests read it)

    def ensure_started(self) -> None:
        with self._lock:
            if self._stopped.is_set() or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(target=self._run, name="motley-log-listener", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stopped.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=CHECK_EVERY + 5)

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                with psycopg.connect(autocommit=True, connect_timeout=5, **self.conninfo) as connection:
                    connection.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(self.channel)))
                    self.nudge()  # whatever was saved while nobody listened is read now
                    while not self._stopped.is_set():
                        for notification in connection.notifies(timeout=CHECK_EVERY):
                            if notification.pid in self.ours:
                                continue  # announced by the save itself
                            self.heard += 1
                            self.nudge()
            except Exception as error:  # the database is away: the watcher's tick carries on meanwhile
                if not self._stopped.is_set():
                    log.warning("the log listener lost its connection; listening again in %s s: %s",
                                RETRY_AFTER, error)
                    self._stopped.wait(RETRY_AFTER)
