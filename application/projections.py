"""Read models that follow the event log with tracking: each notification is applied exactly once.

The follower reads the read model's tracked position, selects the newer notifications from the
application's recorder, and writes the new rows together with the new position in one transaction.
A consumer that finds the position moved by another consumer stops: that one did the work.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Optional

from eventsourcing.persistence import IntegrityError, Tracking

from application.ports import FIRST_PAGE, TASK_PROJECT, TASK_TIMEOUT, MatchListView, MatchRow, Task
from application.service import Motley
from application.views import seats_view
from domain.match import Match

BATCH = 500
log = logging.getLogger(__name__)


def match_row(match: Match) -> MatchRow:
    seats = seats_view(match)
    return MatchRow(
        match_id=str(match.id),
        game=match.game,
        status=match.status,
        seats=match.num_seats,
        players=seats,
        # A seat kept for a named player (a rematch, a fork) is not free: nobody else can take it. An
        # unlisted match's free seats count too: its row is listed to its own players and the auditor only
        # (it said 0, so its creator's lobby showed it full and ``open=true`` left it out: a probe).
        open_seats=sum(1 for s in seats if s["player_id"] is None and s["computer"] is None and s["kept_for"] is None)
        if match.status == "open" else 0,
        to_act=match.to_act().to_json(),
        version=match.version,
        moves=match.moves,
        winners=[] if not match.result else match.result["winners"],
        created_at=match.created_on,
        updated_at=match.modified_on,
        # The rules version and options too: a person choosing a match to join from the list sees
        # what it is played under (Jest's and Le Bouffon's shared ties change who wins).
        terms={"turn_limit": match.turn_limit, "rated": match.counts_for_ratings,
               "versions_required": match.versions_required, "unlisted": match.invitation is not None,
               "rules_version": match.rules_version, "options": match.options},
        awaiting=awaiting(match),
        # The lobby said "won by ann" of a match the computer won for ann, away since her time ran out.
        absent=sorted(match.absent),
    )


def awaiting(match: Match) -> list[str]:
    """The players ``match`` waits for: invited, or with a seat kept for them, not seated yet, and with
    a seat there to take (one kept for them, or one free and kept for nobody): an invited player was
    listed a match the others had filled, whose join is a 409."""
    if match.status != "open":
        return []
    empty = match.empty_seats()
    free = any(str(s) not in match.reserved for s in empty)
    kept = {match.reserved[str(s)] for s in empty if str(s) in match.reserved}
    wanted = [*match.invited, *match.reserved.values()]
    return [p for i, p in enumerate(wanted)
            if p not in wanted[:i] and match.seat_of(p) is None and (p in kept or free)]


class MatchListProjection:
    def __init__(self, app: Motley, view: MatchListView):
        self.app = app
        self.view = view

    def run(self) -> int:
        """Apply every notification not yet applied; return how many were."""
        applied = 0
        while True:
            start = self.view.position(self.app.name)
            notifications = self.app.recorder.select_notifications(
                start=start, limit=BATCH, inclusive_of_start=False
            )
            if not notifications:
                return applied
            touched = {  # matches changed in this batch, in order, each once, with the last version read
                str(n.originator_id): n.originator_version
                for n in notifications
                if n.topic.startswith(f"{Match.__module__}:Match.")
            }
            # A row is the match as it is now, at or beyond the batch: rewriting it is harmless.
            rows = [row for row in map(self._row, touched, touched.values()) if row is not None]
            try:
                self.view.write(rows, start, Tracking(self.app.name, notifications[-1].id))
            except IntegrityError:
                return applied  # another consumer moved the position: it carries on
            applied += len(notifications)
            if len(notifications) < BATCH:
                # The log's end was read: no second read to find nothing (issue 16). A save after the
                # read sends its own projection task once it has committed.
                return applied

    def _row(self, match_id: str, version: int) -> Optional[MatchRow]:
        try:
            # The cached match, when it is at the batch's version or later, without asking the store.
            match = self.app.read_match(match_id, at_least=version)
            if getattr(match, "imported", False):
                # A copy rebuilt from an export was played elsewhere: it is read by its id (the import's
                # answer), not listed, as it counts in nobody's statistics (it was in every profile).
                return None
            return match_row(match)
        except Exception:  # one match that cannot be rebuilt must not stop the list for all others
            log.exception("match %s could not be rebuilt for the match list", match_id)
            return None


def sweep_pending_work(app: Motley, view: MatchListView, page: int = 200, down_until: Optional[str] = None) -> int:
    """Enqueue again the work every active match waits for (an automatic step, a timer, a computer's
    move). Tasks are sent after the save that calls for them, so a crash in between would leave a
    match waiting for ever; every task is idempotent, so sending one twice is harmless.

    ``down_until`` (the sweep of a process that starts: the time it started): a timed phase or turn
    clock whose deadline passed before it passed while nothing could take a move or close it, and its
    close is sent with that time (``Motley.close_timed_phase``: it gets a whole period again)."""
    until = None if down_until is None else datetime.fromisoformat(down_until)
    sent = 0
    after = FIRST_PAGE
    while True:
        # Paged by creation, a stable key: paged by activity (OFFSET), a match finishing on a page
        # already read moved every later row up one place, and the first of the next page was skipped.
        rows = view.query(status="active", limit=page, after=after).rows
        for row in rows:
            try:
                match = app.read_match(row.match_id)
            except Exception:
                log.exception("match %s could not be rebuilt for the sweep", row.match_id)
                continue
            for task in app.follow_ups(match):
                if task.name == TASK_TIMEOUT and until is not None and task.eta is not None and task.eta < until:
                    task = Task(task.name, (*task.args, down_until), eta=task.eta)
                if task.name != TASK_PROJECT:
                    app.tasks.enqueue(task)
                    sent += 1
        if len(rows) < page:
            return sent
        after = (rows[-1].created_at, rows[-1].match_id)
