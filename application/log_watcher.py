"""One reader of the event log's end for every live stream of a process (issue 12).

A stream used to poll the store for its match every ``poll`` seconds (0.2 by default): 500 open
streams were 2,500 queries a second, whether anything happened or not. Here one thread reads the new
notifications every ``INTERVAL`` seconds, while anybody waits, and wakes only the streams whose match
(or, for a player's feed, anything) changed; a stream then reads its match once. A woken stream that
finds nothing new (a spurious wake) just waits again, and a stream re-reads at least every
``RECHECK_SECONDS`` whatever it was told, so a change the watcher missed costs a delay, never an update.

A save in this process is announced to the watcher (``heard``) with the versions it stored, once the
repository answers the saved aggregate: the streams of the saved match wake at once, without the
watcher reading the log for them (issue 16: that read cost a query a move). The watcher's own read,
at its tick or when another process's save nudges it (``nudge``, infrastructure/log_listener.py),
wakes a stream only for a version newer than it was told of, so nothing is announced twice. A woken
stream also learns the newest version of its match (``Sleeper.news``), so its read of the match can
use the cached aggregate when it is that recent, without asking the store.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Optional

log = logging.getLogger(__name__)

#: Seconds between two reads of the log's end while anybody waits.
INTERVAL = 0.05
#: A waiting stream reads its match again after this long even if the watcher told it nothing.
RECHECK_SECONDS = 5.0
#: The watcher's thread ends after this long with nobody waiting (and starts again on demand).
IDLE_SECONDS = 10.0
#: Notifications read at once.
BATCH = 500
#: How many originators' change counts are kept; past that the counts restart (spurious wakes only).
KEPT = 50_000

ANYTHING = None  # the key of "any new notification" (a player's feed follows every match)


class LogWatcher:
    def __init__(self, recorder: Any, interval: float = INTERVAL, on_start: Optional[Callable[[], None]] = None):
        self.recorder = recorder  # the application recorder: max_notification_id, select_notifications
        self.interval = interval
        # Called when the watching thread starts: the composition root starts there what nudges it
        # for other processes' saves (infrastructure/log_listener.py).
        self.on_start = on_start
        self._lock = threading.Lock()
        self._changed: dict[Any, int] = {}  # originator id (or ANYTHING) -> batches that touched it
        self._versions: dict[Any, int] = {}  # originator id -> the newest version read of it
        self._nudged = threading.Event()
        self._conditions: dict[Any, list] = {}  # originator id -> [Condition, waiters]
        self._thread: Optional[threading.Thread] = None
        self._position = 0
        self._stopped = False
        self.reads = 0  # notification reads made (bench/streams.py reports it)

    def sleeper(self, originator_id: Any = ANYTHING) -> Sleeper:
        """A ``sleep(seconds)`` for a stream of ``originator_id``: it returns once that originator
        changed since the last return (or since now), or after ``seconds``. A stream that has a
        watcher may pass long sleeps (``RECHECK_SECONDS``): it is woken when there is news."""
        self._ensure_running()  # before the stream's first read, so no change after it is missed
        with self._lock:
            token = self._changed.get(originator_id, 0)
        return Sleeper(self, originator_id, token)

    def wait(self, originator_id: Any, token: int, timeout: float) -> int:
        """Block until ``originator_id`` changed past ``token`` or ``timeout`` passed; the new token."""
        self._ensure_running()
        deadline = time.monotonic() + timeout
        with self._lock:
            entry = self._conditions.setdefault(originator_id, [threading.Condition(self._lock), 0])
            entry[1] += 1
            try:
                while self._changed.get(originator_id, 0) == token and not self._stopped:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    entry[0].wait(remaining)
                return self._changed.get(originator_id, 0)
            finally:
                entry[1] -= 1
                if entry[1] == 0:
                    self._conditions.pop(originator_id, None)

    def nudge(self) -> None:
        """The log has moved (another process's save): read it now rather than at the next tick."""
        self._nudged.set()

    def heard(self, recordings: Any) -> None:
        """This process saved ``recordings`` (the library's, each with its notification): wake the
        streams of their originators now. The watcher's next read finds those versions told already
        and wakes nobody for them; its position moves on at that read as always."""
        newest: dict[Any, int] = {}
        for recording in recordings:
            notification = recording.notification
            newest[notification.originator_id] = notification.originator_version
        with self._lock:
            self._tell(newest)

    def _tell(self, newest: dict) -> None:
        """Wake the waiters of each originator whose version in ``newest`` is past the newest told
        (and of ANYTHING if any is). Called with the lock held."""
        if len(self._changed) > KEPT:
            self._changed.clear()
            self._versions.clear()
        moved = False
        for originator_id, version in newest.items():
            if version <= self._versions.get(originator_id, 0):
                continue  # told already (this process's save, announced by ``heard``)
            moved = True
            self._versions[originator_id] = version
            self._changed[originator_id] = self._changed.get(originator_id, 0) + 1
            entry = self._conditions.get(originator_id)
            if entry is not None:
                entry[0].notify_all()
        if moved:
            self._changed[ANYTHING] = self._changed.get(ANYTHING, 0) + 1
            entry = self._conditions.get(ANYTHING)
            if entry is not None:
                entry[0].notify_all()

    def version_of(self, originator_id: Any) -> Optional[int]:
        """The newest version of ``originator_id`` in the notifications read so far (None: unknown)."""
        with self._lock:
            return self._versions.get(originator_id)

    def close(self) -> None:
        self._nudged.set()
        with self._lock:
            self._stopped = True
            for condition, _ in self._conditions.values():
                condition.notify_all()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=5)

    # -- the watching thread ----------------------------------------------------------------------
    def _ensure_running(self) -> None:
        with self._lock:
            if self._stopped or (self._thread is not None and self._thread.is_alive()):
                return
            self._position = self.recorder.max_notification_id() or 0
            self._thread = threading.Thread(target=self._run, name="motley-log-watcher", daemon=True)
            self._thread.start()
        if self.on_start is not None:
            self.on_start()

    def _run(self) -> None:
        idle_since = time.monotonic()
        while True:
            self._nudged.wait(self.interval)
            self._nudged.clear()  # a save after this point nudges again, and is read by the next turn
            with self._lock:
                if self._stopped:
                    return
                if self._conditions:
                    idle_since = time.monotonic()
                elif time.monotonic() - idle_since > IDLE_SECONDS:
                    self._thread = None
                    return
            try:
                notifications = self.recorder.select_notifications(
                    start=self._position, limit=BATCH, inclusive_of_start=False)
                self.reads += 1
            except Exception:  # the database is away: the streams recheck on their own meanwhile
                log.warning("the log watcher cannot read the log; retrying", exc_info=True)
                time.sleep(1.0)
                continue
            if not notifications:
                continue
            self._position = notifications[-1].id
            touched = {n.originator_id: n.originator_version for n in notifications}  # the last of each
            with self._lock:
                self._tell(touched)


class Sleeper:
    def __init__(self, watcher: LogWatcher, originator_id: Any, token: int):
        self.watcher, self.originator_id, self.token = watcher, originator_id, token
        self.woken = False

    def __call__(self, seconds: float) -> None:
        token = self.watcher.wait(self.originator_id, self.token, seconds)
        self.woken, self.token = token != self.token, token

    def news(self) -> Optional[int]:
        """After a wait the watcher ended with news of the originator: its newest version read, which
        a read may trust the cache for. None after a recheck (a change the watcher missed must be
        found by asking the store) and before the first wait."""
        return self.watcher.version_of(self.originator_id) if self.woken else None
