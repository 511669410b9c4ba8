"""Request helpers: the composition root's container and the caller's identity."""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

from flask import current_app, request

from application.log_watcher import RECHECK_SECONDS
from application.service import Motley
from domain.player import Player


def container():
    return current_app.extensions["motley"]


def service() -> Motley:
    return container().app


def stream_waits(originator_id: Any, poll: float) -> tuple[float, Callable[[float], None]]:
    """How a stream of ``originator_id`` (None: of anything) waits between reads: (the longest wait,
    the sleep). With the container's log watcher (application/log_watcher.py) the stream is woken
    when the log moves and otherwise rechecks every RECHECK_SECONDS, whatever ``poll`` the client
    asked; without one it polls every ``poll`` seconds."""
    watcher = getattr(container(), "watcher", None)
    if watcher is None:
        return poll, time.sleep
    return max(poll, RECHECK_SECONDS), watcher.sleeper(originator_id)


def api_key() -> Optional[str]:
    header = request.headers.get("Authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return request.headers.get("X-API-Key") or None


def current_player() -> Player:
    """The authenticated caller; 401 without a valid key."""
    return service().authenticate(api_key())

