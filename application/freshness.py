"""Read your own writes: a read model is asked to wait until it has applied a write's position.

Every API write answers with ``Motley-Position`` (the notification id of its last event, see
``Motley.log_position``). A read that names it (``?after=``) first waits here for the read model's
tracked position to reach it. A read model that is still behind after the timeout is refused with
``Unavailable`` (503 and ``Retry-After``) rather than answered stale: the caller asked for its write.
"""

from __future__ import annotations

from typing import Optional, Protocol

from application import errors

#: How long a read waits for its read model by default, and what the refusal asks the caller to wait.
WAIT_SECONDS = 5.0
RETRY_AFTER_SECONDS = 1


class FollowsTheLog(Protocol):
    """A read model with a tracked position (``application.ports.MatchListView``, the tournament and
    rating tables): ``wait`` answers False if ``position`` is not applied within ``timeout``."""

    def wait(self, application_name: str, position: int, timeout: float) -> bool: ...


def wait_until_applied(
    view: FollowsTheLog,
    application_name: str,
    position: Optional[int],
    timeout: Optional[float] = None,
    retry_after: int = RETRY_AFTER_SECONDS,
) -> None:
    """Return once ``view`` has applied the notification at ``position`` (at once for ``None``);
    raise ``errors.Unavailable`` with ``retry_after`` if it has not within ``timeout`` seconds
    (``WAIT_SECONDS`` by default)."""
    if position is None or position <= 0:
        return
    if not view.wait(application_name, position, WAIT_SECONDS if timeout is None else timeout):
        raise errors.Unavailable(
            f"the read model has not caught up with position {position} yet; retry shortly",
            retry_after=retry_after,
            position=position,
        )
