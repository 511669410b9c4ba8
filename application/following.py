"""Following a match live: the caller's view each time the match's version moves on (``follow``), or
each new event as the caller may see it (``follow_events``).

The API turns what they yield into server-sent events; the polling, the heartbeat and the end of the
stream (the match finished, or the caller's time is up) are decided here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, Optional

from application.history import History
from application.service import Motley
from application.views import Viewer, lens_for, match_view, tournament_view
from domain import tournament as tournament_domain
from domain.match import STATUS_CANCELLED, STATUS_FINISHED
from domain.tournament import standings

#: Seconds of quiet after which a heartbeat is yielded, so that proxies keep the connection open.
HEARTBEAT_SECONDS = 10.0
#: A match in these states never changes again: its stream ends, not held open (a client's slot and a
#: server thread) for the whole of ``seconds``, up to a day, to send nothing.
OVER = frozenset({STATUS_FINISHED, STATUS_CANCELLED})
#: The same of a tournament (a sanction after its end is a new version, which its stream sends).
TOURNAMENT_OVER = tournament_domain.OVER


def follow(
    app: Motley,
    match_id: Any,
    viewer: Viewer,
    seen: int,
    seconds: float,
    poll: float,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[Optional[tuple[int, dict]]]:
    """Yield ``(version, view)`` whenever the match is past version ``seen`` (the view as ``viewer``
    may see it), ``None`` as a heartbeat after ``HEARTBEAT_SECONDS`` of quiet; stop once the match is
    finished or ``seconds`` have passed. The match is read first, so an unknown id raises NotFound
    before anything is yielded."""
    current = app.read_match(match_id)  # the first read asks the store: the match as it is now
    news = getattr(sleep, "news", None)  # the log watcher's newest version of the match, after a wake
    return versions(current, lambda match: app.read_match(match.id, at_least=None if news is None else news()),
                    lambda match: match_view(match, lens_for(match, viewer)), lambda match: match.status in OVER,
                    seen, seconds, poll, monotonic, sleep)


def versions(
    current: Any,
    again: Callable[[Any], Any],
    view: Callable[[Any], dict],
    over: Callable[[Any], bool],
    seen: int,
    seconds: float,
    poll: float,
    monotonic: Callable[[], float],
    sleep: Callable[[float], None],
) -> Iterator[Optional[tuple[int, dict]]]:
    """``(version, view(aggregate))`` whenever the aggregate (``current``, read ``again`` after each wait)
    is past version ``seen``, ``None`` as a heartbeat after ``HEARTBEAT_SECONDS`` of quiet; stop once it
    is ``over`` or ``seconds`` have passed."""
    deadline = monotonic() + seconds
    beat = monotonic()
    while True:
        if current.version > seen:
            seen = current.version
            yield seen, view(current)
            beat = monotonic()
        if over(current) or monotonic() >= deadline:
            return
        if monotonic() - beat > HEARTBEAT_SECONDS:
            yield None
            beat = monotonic()
        sleep(max(0.0, min(poll, deadline - monotonic())))
        current = again(current)


def follow_events(
    history: History,
    match_id: Any,
    viewer: Viewer,
    seen: int,
    seconds: float,
    poll: float,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[Optional[dict]]:
    """Yield each stored event after version ``seen`` as ``viewer`` may see it, in order, none missed
    and none repeated; ``None`` as a heartbeat after ``HEARTBEAT_SECONDS`` of quiet; stop once the
    match is finished and every event was yielded, or after ``seconds``."""
    match_uuid = history.app.read_match(match_id).id
    deadline = monotonic() + seconds
    beat = monotonic()
    while True:
        page = history.events(match_uuid, viewer, after=seen, limit=500)
        for item in page["items"]:
            seen = item["version"]
            yield item
            beat = monotonic()
        if page["items"]:
            continue
        current = history.app.read_match(match_uuid)
        if (current.status in OVER and seen >= current.version) or monotonic() >= deadline:
            return
        if monotonic() - beat > HEARTBEAT_SECONDS:
            yield None
            beat = monotonic()
        sleep(max(0.0, min(poll, deadline - monotonic())))


def follow_tournament(
    app: Motley,
    tournament_id: Any,
    seen: int,
    seconds: float,
    poll: float,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[Optional[tuple[int, dict]]]:
    """Yield ``(version, {"tournament", "standings"})`` whenever the tournament is past version ``seen``
    (its view, as everyone sees it, and the standings at that version, as its standings read model has
    them once it catches up), ``None`` as a heartbeat after ``HEARTBEAT_SECONDS`` of quiet; stop once it
    is finished or called off, or ``seconds`` have passed. An organiser or a spectator polled GET /tournaments/{id} for
    every round paired and every table's result (a tournament bot's probe)."""
    return versions(app.read_tournament(tournament_id), lambda tournament: app.read_tournament(tournament.id),
                    lambda tournament: {"tournament": tournament_view(tournament), "standings": standings(tournament)},
                    lambda tournament: tournament.status in TOURNAMENT_OVER,
                    seen, seconds, poll, monotonic, sleep)
