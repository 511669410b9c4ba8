"""One lock per key (a match id), kept only while someone holds it or waits for it.

Players of a simultaneous phase move on one match at the same moment. Each tried its move on the
cached match, the second save collided with the first (``IntegrityError``) and was tried again on the
match read afresh: a quarter of a Jest match's moves paid a failed save, a read and a second save
(issue 16). Within a process, the moves on one match now wait for each other instead, and the second
acts on the match the first saved (the repository caches it as saved). Across processes the store
still decides, as before: the lock saves work, it is not what keeps the versions in order.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class KeyedLocks:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[Any, list] = {}  # key -> [its lock, how many hold it or wait for it]

    @contextmanager
    def hold(self, key: Any) -> Iterator[None]:
        with self._lock:
            entry = self._held.get(key)
            if entry is None:
                entry = self._held[key] = [threading.Lock(), 0]
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._lock:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._held[key]

    def __len__(self) -> int:
        """Keys held or waited for now (none once every holder is done)."""
        with self._lock:
            return len(self._held)
