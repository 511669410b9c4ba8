"""Audit and rewind (issue 11): a match at any version, pages and diffs of its events, the export and
the import of whole histories, forks, and the chance check. Every answer is built by
``application/views.py`` for the caller's :class:`~application.views.Viewer`.

Costs: reading a version loads the nearest keyed snapshot and at most about ``snapshots.INTERVAL``
events (``application/snapshots.py``); a page or a diff reads the match at its first version and then
only the events of the page.

Export format (JSON Lines, one event a line, in version order)::

    {"match": "<id>", "game": "jest", "rules_version": "1.0.0", "version": 7,
     "event": "MoveMade", "at": "<ISO time>", "data": {"seat": 0, "action": {...}, ...}}

``data`` holds the event's fields as the viewer may see them (the auditor's export is unredacted and is
the one :func:`History.import_history` takes).
"""

from __future__ import annotations

import json
import re
import secrets
from datetime import datetime, timedelta
from typing import Any, Callable, Iterator, Optional
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from application import errors
from application.chance import SCHEME, STEPS, new_chance, step_of, verify, verify_lineage
from application.names import kept_name, name_problem
from application.ports import TASK_PROJECT, Task
from application.service import idempotent_id
from application.snapshots import Collector
from application.views import (
    AUDITOR,
    EVENT_FIELDS,
    Lens,
    Viewer,
    event_data,
    event_view,
    lens_for,
    listed,
    match_view,
)
from domain.chance import ChanceStream, commitment
from domain.commitments import ChanceCommitment
from domain.engine import CHANCE, SYSTEM, IllegalAction, Phase, is_plain_json, same_json
from domain.games import UnknownGame, UnknownRulesVersion, get_engine
from domain.lineage import Lineage
from domain.match import (
    STATUS_ACTIVE,
    STATUS_CANCELLED,
    STATUS_FINISHED,
    STATUS_OPEN,
    Match,
    MatchError,
    resignation_result,
)

PAGE_MAX = 5000
IMPORT_MAX_LINES = 200_000


class History:
    def __init__(self, app: Any):
        self.app = app  # the Motley application

    # -- reading ---------------------------------------------------------------------------------
    def lens(self, match_id: Any, viewer: Viewer) -> tuple[Match, Lens]:
        latest = self.app.read_match(match_id)
        return latest, lens_for(latest, viewer)

    def forks(self, match_id: Any, viewer: Optional[Viewer] = None) -> list:
        """The forks of ``match_id`` (with ``viewer``: those it may know of, as the view lists them). A
        private fork, the auditor's of a live match, was listed to everyone: its players learnt that the
        auditor was looking into their match, and the fork's id."""
        every = self._forks(match_id)
        if viewer is None:
            return every
        return [{"match_id": f["match_id"], "version": f["version"]} for f in every
                if viewer.auditor or not f.get("private")]

    def _forks(self, match_id: Any) -> list:
        lineage_id = Lineage.create_id(str(match_id))
        # Most matches were never forked: one indexed probe of the events table answers that, where
        # the repository would look for a snapshot first and then for the events (every view asks).
        if not list(self.app.events.get(lineage_id, limit=1)):
            return []
        try:
            lineage = self.app.repository.get(lineage_id, deepcopy_from_cache=False)  # read only
        except AggregateNotFoundError:
            return []
        return list(lineage.forks)

    def match(self, match_id: Any, viewer: Viewer, version: Optional[int] = None) -> tuple[Match, dict]:
        """The match now or at ``version``, as ``viewer`` sees it."""
        latest, lens = self.lens(match_id, viewer)
        match = latest if version is None or version == latest.version else self.app.get_match(latest.id, version)
        view = match_view(match, lens, self.forks(latest.id, viewer), legal=match is latest)
        return match, view

    def events(self, match_id: Any, viewer: Viewer, after: int = 0, until: Optional[int] = None,
               limit: int = 500) -> dict:
        """The events with ``after < version <= until``, at most ``limit``, as ``viewer`` sees them."""
        latest, lens = self.lens(match_id, viewer)
        bound = latest.version if until is None else min(until, latest.version)
        last = min(bound, after + limit)
        items = [listed(event_view(e, before, lens), before) for e, before in self.walk(latest.id, after, last)]
        # ``more``: events follow within what was asked (up to ``until``), so a client paging on it stops.
        return {"items": items, "last_version": items[-1]["version"] if items else after,
                "version": latest.version, "more": last < bound, "viewer": lens.to_json()}

    def diff(self, match_id: Any, viewer: Viewer, start: int, end: int) -> dict:
        latest, _ = self.lens(match_id, viewer)
        if not 0 <= start <= end <= latest.version:  # from 0: the whole history up to ``end``
            raise errors.InvalidRequest(f"a diff runs from a version to a later one, within 0 to {latest.version}")
        if end - start > PAGE_MAX:
            raise errors.InvalidRequest(f"a diff spans at most {PAGE_MAX} versions; page with /events")
        page = self.events(latest.id, viewer, after=start, until=end, limit=end - start)
        return {"from": start, "to": end, "events": page["items"], "viewer": page["viewer"]}

    def walk(self, match_id: Any, after: int, last: int) -> Iterator[tuple[Any, Optional[Match]]]:
        """Each event with ``after < version <= last`` and the match just before it; reads the match
        at ``after`` (a bounded rewind) and then only these events."""
        if last <= after:
            return
        before = self.app.get_match(match_id, after) if after >= 1 else None
        for domain_event in self.app.events.get(match_id, gt=after, lte=last):
            yield domain_event, before
            # The mutation replaces the engine state (never changes it in place), so a view built
            # from ``before`` above stays right.
            before = domain_event.mutate(before)

    def export(self, match_id: Any, viewer: Viewer, page: int = 1000) -> Iterator[str]:
        """The whole match as JSON Lines, redacted for ``viewer``, read page by page."""
        latest, lens = self.lens(match_id, viewer)
        header = {"match": str(latest.id), "game": latest.game, "rules_version": latest.rules_version}
        done = 0
        while done < latest.version:
            last = min(done + page, latest.version)
            for domain_event, before in self.walk(latest.id, done, last):
                view = event_view(domain_event, before, lens)
                line = {**header, "version": view.pop("version"), "event": view.pop("type"), "at": view.pop("at"),
                        "data": view}
                yield json.dumps(line, separators=(",", ":")) + "\n"
            done = last

    def verify(self, match_id: Any, viewer: Viewer) -> dict:
        """Check the match's chance commitment and re-derive every outcome, as far as ``viewer``
        may: the seed is needed, so this works for everyone once the match is revealed."""
        latest, lens = self.lens(match_id, viewer)
        # A copy that made no commitment has no seed to keep: its verdict (unproven) tells nobody a card.
        if not lens.sees_seed and not latest.chance_unproven:
            if latest.status == "finished" and not latest.reveal_at_end and latest.parent is not None:
                # A fork's creator sets no reveal_at_end: one that never reveals holds secrets of a parent the
                # public had not seen (``fork``).
                raise errors.Conflict("the match is a private fork (its parent's secrets were not public when it "
                                      "was made): its chance seed is never revealed (an auditor verifies it)",
                                      rule="provable chance")
            if latest.status == "finished" and not latest.reveal_at_end:
                raise errors.Conflict("the match was created with reveal_at_end false: its chance seed is "
                                      "never revealed (an auditor verifies it)", rule="provable chance")
            if latest.status == "cancelled":
                raise errors.Conflict("the match was cancelled before it ended: its chance seed is never "
                                      "revealed (an auditor verifies it)", rule="provable chance")
            raise errors.Conflict("the chance seed is revealed when the match ends; verify it then",
                                  rule="provable chance")
        # A fork's copied outcomes hold as far as its parent's history proves them, and so on up
        # (``verify_lineage``); their commitment was published here only where each of those was.
        lineage, ancestors, match = [], [], latest
        while True:
            lineage.append([json.loads(text) for text in self.export(match.id, Viewer.the_auditor())])
            if match.parent is None:
                break
            match = self.app.get_match(match.parent["match_id"])
            ancestors.append(match)
        # An imported copy's file brought its commitment and its seed together: whoever wrote it could have
        # picked a seed until the deal suited them, and the verdict alone said "verified" (a sizes probe).
        verdict = verify_lineage(lineage)
        return {**verdict.to_json(), "committed_here": not latest.imported and not (
            verdict.inherited and any(ancestor.imported for ancestor in ancestors))}

    # -- forks -----------------------------------------------------------------------------------
    def fork(self, match_id: Any, viewer: Viewer, version: int, reserved: dict, creator_id: str,
             request_key: Optional[str] = None, scope: Optional[str] = None) -> Match:
        """A new match whose history is the parent's up to ``version``; its seats are open again
        (``reserved``: seat -> player id keeps a seat for one player), later chance is drawn afresh
        from its own seed. The parent is not changed; its lineage lists the fork. Retried with the
        same ``request_key`` (an Idempotency-Key), the first fork (``replayed`` set on it)."""
        parent, lens = self.lens(match_id, viewer)
        if not lens.sees_all:
            # Forking copies the whole state at that version: hidden cards and the deck order too.
            raise errors.Forbidden("a match may be forked once it is finished and revealed, or by the auditor")
        if not 1 <= version <= parent.version:
            raise errors.InvalidRequest(f"fork at a version from 1 to {parent.version}")
        for seat in reserved:
            if not is_seat_key(seat, parent.num_seats) or parent.is_bot(int(seat)):
                raise errors.InvalidRequest(f"seat {seat} cannot be kept: it is not a free seat of this game")
        # Kept for the player's id as the API writes it: the id as sent ("ANN-ID", "urn:uuid:...") was
        # kept, no player's id matched it, nobody could take the seat and the fork never started.
        reserved = {seat: str(self.app.get_player(player_id).id) for seat, player_id in reserved.items()}
        if len(set(reserved.values())) < len(reserved):
            # A player takes one seat: a second seat kept for the same player could never be filled,
            # and the fork could never start.
            raise errors.InvalidRequest("each kept seat is for a different player")
        steps = [e for e in self.app.events.get(parent.id, lte=version) if type(e).__name__ in STEPS]
        at_version = self.app.get_match(parent.id, version)
        started = at_version.state is not None
        if reserved and not started:
            raise errors.InvalidRequest(f"version {version} is before the match started: its fork is an open match "
                                        "with every seat free, none kept (fork at a later version to keep seats)")
        if started and over_but_automatic_steps(at_version.engine, at_version.state):
            raise errors.InvalidRequest(f"nothing is left to play at version {version}: the game was over; "
                                        "fork at an earlier version")
        prefix_end = 1 + (1 + len(steps) if started else 0)
        # The public has not seen the parent's secrets (it is live, or never revealed): the fork, which
        # holds them all, is unlisted (seats kept or the code the auditor passes on) and is never revealed.
        private = not parent.secrets_shown
        fork = Match(
            game=parent.game, rules_version=parent.rules_version, seats=parent.num_seats,
            options=parent.options, bots=dict(parent.bots), created_by=creator_id,
            reveal_at_end=parent.reveal_at_end and not private, chance=new_chance(),
            parent={"match_id": str(parent.id), "version": version, "prefix_end": prefix_end},
            rated=False,  # a what-if replay of part of another match never counts for ratings
            id=idempotent_id("fork", scope or creator_id, request_key),
        )
        collect = Collector(self.app)
        if started:
            fork._started()
            for domain_event in steps:
                replay_step(fork, type(domain_event).__name__, step_data(domain_event))
                collect(fork)
            fork.reopen(reserved)
        if private or parent.invitation is not None:
            # A fork of an unlisted match is unlisted too, as its rematch is: listed, it named its parent to
            # anyone reading the match list, and with it the players of a match they kept to themselves.
            fork.make_unlisted(secrets.token_urlsafe(9))
        try:
            self.app._save_match(fork)
        except IntegrityError:  # a retry: the fork this Idempotency-Key made first
            first = self.app.get_match(fork.id)
            if (first.parent or {}).get("match_id") != str(parent.id) or first.parent.get("version") != version \
                    or (first.reserved if first.status == "open" else reserved) != reserved:
                raise errors.Conflict("this idempotency key was already used for a different fork",
                                      rule="idempotency") from None
            if str(first.id) not in {f["match_id"] for f in self.forks(parent.id)}:
                self._record_fork(parent.id, first.id, version, private)  # the first stopped before it was listed
            first.replayed = True
            return first
        collect.flush(fork)
        self._record_fork(parent.id, fork.id, version, private)
        return fork

    def parent_prefix(self, match_id: Any, version: Any) -> Optional[tuple[bool, list]]:
        """What a fork of ``match_id`` at ``version`` copies: whether the match had started, and its
        steps as (kind, data); None when no such match or version is on this server."""
        if type(match_id) is not str or type(version) is not int:
            return None
        try:
            parent = self.app.read_match(match_id)
        except errors.ServiceError:
            return None
        if not 1 <= version <= parent.version:
            return None
        steps = [(type(e).__name__, step_data(e)) for e in self.app.events.get(parent.id, lte=version)
                 if type(e).__name__ in STEPS]
        return self.app.get_match(parent.id, version).state is not None, steps

    def _record_fork(self, parent_id: Any, fork_id: Any, version: int, private: bool) -> None:
        for _ in range(20):
            try:
                lineage = self.app.repository.get(Lineage.create_id(str(parent_id)))
            except AggregateNotFoundError:
                lineage = Lineage(str(parent_id))
            if str(fork_id) in {fork["match_id"] for fork in lineage.forks}:
                return  # listed by a racing retry of the same creation (an Idempotency-Key)
            lineage.add_fork(str(fork_id), version, private)
            try:
                self.app.save(lineage)
            except IntegrityError:
                continue
            # The lineage is saved after the fork, whose save sent the read models' run: a run that began
            # before this save stopped short of it, and a read waiting for the fork's answered position (the
            # lineage's) waited for a run nothing sent, a 503 (a CI run: 2 of 4 runs at once).
            self.app.tasks.enqueue(Task(TASK_PROJECT))
            return
        raise errors.Conflict("the lineage is too busy; try again")

    # -- import ----------------------------------------------------------------------------------
    def import_history(self, text: str, request_key: Optional[str] = None, scope: str = AUDITOR) -> Match:
        """A new match from an auditor's export: every event is checked (the rules through the
        engine's checked step, the bookkeeping against the match), and a history that breaks any
        check is refused with its line number and the reason; nothing is saved then. Retried with the
        same ``request_key`` (an Idempotency-Key), the first copy (``replayed`` set on it)."""
        collect = Collector(self.app)
        importer = Importer(collect, parent_prefix=self.parent_prefix, now=self.app.clock,
                            player_name=self.player_name, match_id=idempotent_id("import", scope, request_key))
        match = importer.run(text)
        if match.status not in (STATUS_FINISHED, STATUS_CANCELLED):
            # A match in play rebuilt here would be played on by its seated players, its chance drawn
            # from a seed the export may already have shown: play on from a point with a fork instead
            # (motley verify checks an unfinished export without importing it).
            raise importer.refuse("the history ends before the match does: only a finished or cancelled "
                                  "match is imported (fork a match to play on from a version)")
        self.check_original(importer, match)
        # What the copy holds, event by event, as a retry must hold it too: another history of the same
        # length, result, players and commitment (a 1.3.0 and a 1.4.0 Jester of one seed, or a shuffle
        # altered) was answered with the first copy (a versions probe).
        made = [(type(e).__name__, event_data(e)) for e in match.pending_events]
        try:
            self.app._save_match(match)
        except IntegrityError:  # a retry: the copy this Idempotency-Key made first
            first = self.app.get_match(match.id)
            if [(type(e).__name__, event_data(e)) for e in self.app.events.get(first.id)] != made:
                raise errors.Conflict("this idempotency key was already used for a different history",
                                      rule="idempotency") from None
            first.replayed = True
            return first
        collect.flush(match)
        return match

    def player_name(self, player_id: str) -> Optional[str]:
        try:
            return self.app.get_player(player_id).name
        except errors.NotFound:
            return None

    def check_original(self, importer: Importer, copy: Match) -> None:
        """A history of a match of this server may not reveal more than that match does: an export of a
        match created ``reveal_at_end: false``, imported with the flag turned true, made a copy in which
        anyone with its id read every hand its players were promised stays hidden."""
        self.check_parent_hidden(importer, copy)
        named = (importer.header or {}).get("match")
        if is_uuid(named):
            try:
                self.check_against(importer, copy, self.app.read_match(named), str(named))
            except errors.NotFound:
                pass  # a history from elsewhere: nothing here to hold it to
        # The match whose commitment the history holds, whatever id is written on it: the same history
        # under a new id was imported as a finished copy that showed a live match's seed.
        committed = (copy.chance or {}).get("commitment")
        if type(committed) is str:
            try:
                index = self.app.repository.get(ChanceCommitment.create_id(committed))
            except AggregateNotFoundError:
                return  # made elsewhere, or here before commitments were indexed (6 December 2026)
            if index.match_id != named:
                self.check_against(importer, copy, self.app.read_match(index.match_id),
                                   f"{index.match_id} (whose chance commitment the history holds)")

    def check_against(self, importer: Importer, copy: Match, original: Match, named: str) -> None:
        importer.line = 1
        if (copy.game, copy.rules_version) != (original.game, original.rules_version):
            # A mistake the name makes cheap to catch: a history relabelled with an older rules version the
            # moves happen to fit, or another match's id written on it.
            raise importer.refuse(f"match {named} on this server is {original.game} rules {original.rules_version}, "
                                  f"not {copy.game} rules {copy.rules_version}")
        if original.chance is not None and (copy.chance or {}).get("commitment") != original.chance["commitment"]:
            raise importer.refuse(f"match {named} on this server made a chance commitment: its history holds "
                                  "that one")
        if copy.reveal_at_end and not original.reveal_at_end:
            raise importer.refuse(f"match {named} on this server was created with reveal_at_end false: its "
                                  "history cannot be imported to reveal it")
        if original.status in (STATUS_OPEN, STATUS_ACTIVE):
            # An export of a match still being played, with an end written onto it, was imported as a
            # finished copy that showed anyone with its id the live match's deck, hands and seed (an open
            # one's: the deal it will play once started).
            still = "still open" if original.status == STATUS_OPEN else "still being played"
            raise importer.refuse(f"match {named} is {still} on this server: a history of it cannot end it "
                                  "elsewhere")
        self.check_lines(importer, original, named)

    def check_lines(self, importer: Importer, original: Match, named: str) -> None:
        """The history of a match this server holds is that match's, line for line, up to its end. The
        engine's checks pass whatever the engine never reads: a probe's copies, each answered 201 and
        verified, had their seat numbers swapped (the other player credited with the win), an option no
        step had read flipped, a ResultVoided or a RematchLinked the match never had appended, a
        ResolutionDue left out."""
        recorded = [json.loads(text) for text in self.export(original.id, Viewer.the_auditor())]
        for number, line in enumerate(importer.lines, start=1):
            importer.line = number
            if number > len(recorded):
                raise importer.refuse(f"match {named} on this server has {len(recorded)} events: this line is not "
                                      "in its history")
            differs = differing_fields(line, recorded[number - 1])
            if differs:
                raise importer.refuse(f"match {named} on this server recorded its event {number} otherwise "
                                      f"({', '.join(differs)}): a history of a match of this server is that "
                                      "match's, as its auditor's export gives it")


    def check_parent_hidden(self, importer: Importer, copy: Match) -> None:
        """A fork's history copies its parent's opening, hidden cards and all: while the public has not
        seen the parent's secrets (it is still played, or never revealed) the fork is private and never
        revealed (``fork``), and so is a copy of it. The auditor's private fork of a live match, exported
        and imported under a new id with ``reveal_at_end`` true, showed anyone the live match's deal."""
        parent = copy.parent or {}
        if not copy.reveal_at_end or not is_uuid(parent.get("match_id")):
            return
        original = self.app.read_match(parent["match_id"])  # on this server: check_parent has read it
        if not original.secrets_shown:
            importer.line = 1
            raise importer.refuse(f"the parent match {parent['match_id']} has not shown its hidden cards (it is "
                                  "still played, or never reveals them): a fork's history that copies them "
                                  "cannot be imported to reveal them")


def over_but_automatic_steps(engine: Any, state: Any) -> bool:
    """Whether the game is over at ``state`` or after the automatic steps due there alone (a round's or
    the match's final scoring): a fork there has nothing left to play, and finished by itself with the
    parent's result."""
    for _ in range(100):  # an engine's automatic steps end in a player's turn, chance or the end
        kind = engine.to_act(state).kind
        if kind != Phase.AUTO:
            return kind == Phase.OVER
        state = engine.apply(state, SYSTEM, engine.auto_action(state))
    return False


def earlier_form(result: dict) -> Optional[dict]:
    """A resignation or claim result as the service recorded it before results said ``absent``: the
    absent seats a claim ranked last were listed with the resigned ones (an older export holds that)."""
    if "absent" not in result:
        return None
    earlier = {key: value for key, value in result.items() if key != "absent"}
    earlier["resigned"] = sorted({*result["resigned"], *result["absent"]})
    return earlier


def abandoned_earlier_form(result: dict) -> Optional[dict]:
    """A match abandoned by every player as the service recorded it before 4 December 2026: the absent
    seats tied 1st (each counted a win), any that resigned below them (domain/match.resignation_result)."""
    if result.get("winners") or not result.get("absent"):
        return None
    absent = result["absent"]
    ranks = [1 if seat in absent else 1 + len(absent) for seat in range(len(result["ranks"]))]
    return {**result, "ranks": ranks, "winners": list(absent)}


def export_prefix(text: str) -> Callable[[Any, Any], Optional[tuple[bool, list]]]:
    """``Importer``'s ``parent_prefix`` read from the parent's export rather than from this server, so a
    fork's export is checked offline (``motley verify FORK --parent PARENT``): what a fork of the
    exported match at a version copies, as ``History.parent_prefix`` answers it."""
    lines = [json.loads(row) for row in text.splitlines() if row.strip()]

    def prefix(match_id: Any, version: Any) -> Optional[tuple[bool, list]]:
        if not lines or lines[0].get("match") != match_id or type(version) is not int:
            return None
        kept = [line for line in lines if line.get("version", 0) <= version]
        if not 1 <= version <= len(lines) or len(kept) != version:
            return None
        started = any(line["event"] == "Started" for line in kept)
        return started, [(line["event"], line["data"]) for line in kept if line["event"] in STEPS]

    return prefix


def step_key(kind: str, data: dict) -> list:
    """What makes a step that step: its actor and action (and a timeout's phase), not its time."""
    actor, action = step_of(kind, data)
    return [actor, action, data.get("phase") if kind == "TimedOut" else None]


def step_data(domain_event: Any) -> dict:
    kind = type(domain_event).__name__
    if kind == "ChanceDrawn":
        return {"outcome": domain_event.outcome}
    if kind == "MoveMade":
        return {"seat": domain_event.seat, "action": domain_event.action, "moved_at": domain_event.at}
    if kind == "TimedOut":
        return {"phase": domain_event.phase, "step": domain_event.step}
    return {"step": domain_event.step}


def replay_step(match: Match, kind: str, data: dict) -> None:
    """Append one already-checked step to ``match`` through its own event methods."""
    if kind == "ChanceDrawn":
        match._chance_drawn(outcome=data["outcome"])
    elif kind == "MoveMade":
        match._move_made(seat=data["seat"], action=data["action"], request_key=None, at=data.get("moved_at"))
    elif kind == "StepResolved":
        match._step_resolved(step=data["step"])
    else:
        match._timed_out(phase=data["phase"], step=data["step"])


#: The fields of an exported Created event (older exports hold fewer).
CREATED_FIELDS = {"game", "rules_version", "seats", "options", "bots", "created_by", "reveal_at_end", "chance",
                  "parent", "rated", "computers", "imported"}


class ImportRefused(errors.InvalidRequest):
    slug, title = "history-refused", "History refused"


class Importer:
    """Reads an export line by line into a new match, checking each line before it applies it."""

    def __init__(self, on_event: Callable[[Match], None] = lambda match: None,
                 parent_prefix: Callable[[Any, Any], Optional[tuple[bool, list]]] = lambda match_id, version: None,
                 now: Optional[Callable[[], datetime]] = None,
                 player_name: Callable[[str], Optional[str]] = lambda player_id: None,
                 match_id: Optional[UUID] = None) -> None:
        self.on_event = on_event  # called after each applied line (snapshots.Collector)
        # The name a player of this server has (None: no such player here): a seat names its player as
        # the player's own matches do.
        self.player_name = player_name
        self.match_id = match_id  # the copy's id (an Idempotency-Key's), else a new one
        # The service's clock: no recorded time of a history it imports is later than it. None (motley
        # verify, offline, on a history from another machine's clock): times are not compared.
        self.now = now
        # A fork's history starts with its parent's: what the parent really holds (History.parent_prefix).
        self.parent_prefix = parent_prefix
        self.prefix: Optional[tuple[bool, list, int]] = None  # started, steps, the last copied version
        self._match: Optional[Match] = None
        self.header: Optional[dict] = None
        self.line = 0
        self.seed: Optional[str] = None
        self.claimed_seed: Optional[str] = None
        self.lines: list[dict] = []
        self.claimed = False  # a Claimed line was read: the match's Finished line comes next
        self.moved: set[int] = set()  # the seats that moved since the last turn clock line
        self.last_moved_at: Optional[datetime] = None  # the latest moved_at read: moves go forward in time
        # Times a move or a clock's start cannot precede: a running turn clock's or timed phase's start
        # (its deadline less its length), a deadline that ran out (the timeout came after it).
        self.clock_start: Optional[datetime] = None
        self.timer_start: Optional[datetime] = None
        self.ran_out: Optional[datetime] = None
        self.forfeit_pending: set[int] = set()  # the forfeited seats that resign next (Match.record_forfeit)

    @property
    def match(self) -> Match:
        """The match being rebuilt; a line before its Created event is refused."""
        if self._match is None:
            raise self.refuse("a history starts with its Created event")
        return self._match

    def refuse(self, reason: str) -> ImportRefused:
        return ImportRefused(f"line {self.line}: {reason}", line=self.line, reason=reason)

    def run(self, text: str) -> Match:
        rows = text.splitlines()
        if not any(row.strip() for row in rows):
            raise ImportRefused("the history is empty: send the JSON Lines of an auditor's export", line=0,
                                reason="empty")
        if len(rows) > IMPORT_MAX_LINES:
            raise ImportRefused(f"a history holds at most {IMPORT_MAX_LINES} lines", line=0, reason="too long")
        self.claimed_seed = revealed_seed(rows)
        for self.line, row in enumerate(rows, start=1):
            if not row.strip():
                raise self.refuse("an empty line (one event a line, no blank lines)")
            try:
                line = json.loads(row, object_pairs_hook=pairs_once)
            except RepeatedKey as repeated:
                raise self.refuse(str(repeated)) from None
            except (ValueError, RecursionError):  # RecursionError: nested too deep for the parser
                raise self.refuse("not a JSON object") from None
            self.read(line)
        self.line = len(rows)
        self.check_chance()
        return self.match

    def read(self, line: Any) -> None:
        if not (isinstance(line, dict) and is_plain_json(line)):
            raise self.refuse("not a JSON object")
        if holds_control_characters(line):  # as every name the API takes (a NUL cannot even be stored)
            raise self.refuse("a string holds control characters")
        for key, kind in (("game", str), ("rules_version", str), ("version", int), ("event", str), ("data", dict)):
            if type(line.get(key)) is not kind:
                raise self.refuse(f"'{key}' must be a {kind.__name__}")
        unknown = set(line) - EXPORT_LINE_FIELDS
        if unknown:  # an export writes these only: anything else was dropped without a word
            raise self.refuse(f"unknown line field(s) {sorted(unknown)} (a line holds {sorted(EXPORT_LINE_FIELDS)})")
        if line["version"] != self.line:
            raise self.refuse(f"version {line['version']} where {self.line} comes next (a missing or extra event)")
        if self.header is None:
            self.header = line
            if line["event"] != "Created":
                raise self.refuse("a history starts with its Created event")
        elif (line["game"], line["rules_version"]) != (self.header["game"], self.header["rules_version"]):
            raise self.refuse("every line names the match's game and rules version")
        elif line.get("match") != self.header.get("match"):
            # An export is one match's: lines of two matches spliced together were read as one.
            raise self.refuse("every line names the same match")
        if self.claimed and line["event"] != "Finished":
            raise self.refuse("a claim ends the match: its Finished event comes next")
        seat = line["data"].get("seat")
        if self.forfeit_pending and (line["event"] != "Resigned" or type(seat) is not int
                                     or seat not in self.forfeit_pending):
            # Tournaments.forfeit records the forfeit and resigns its players in one save: a marker whose
            # seats play on (or other seats resigning) is not a forfeit the service recorded.
            raise self.refuse(f"a forfeit's players resign next: seats {sorted(self.forfeit_pending)}")
        handler = getattr(self, f"on_{line['event']}", None)
        if handler is None:
            raise self.refuse(f"unknown event {line['event']!r}")
        self.check_fields(line)
        try:
            if self.prefix is not None:
                self.check_prefix(line)
            handler(line["data"], line)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise self.refuse(f"malformed {line['event']} data ({error})") from None
        except (MatchError, IllegalAction) as error:
            raise self.refuse(getattr(error, "detail", str(error))) from None
        self.lines.append(line)
        self.on_event(self.match)

    def check_fields(self, line: dict) -> None:
        """The line's data holds its event's fields only, and its ``at`` is a time. A field the service
        never writes was taken without a word and dropped (14 MB of it in a probe), and ``at`` was not
        read at all: what an import says it checked, it checks."""
        kind, data = line["event"], line["data"]
        if kind != "Created":  # on_Created names its unknown field (it takes older exports' too)
            allowed = {*EVENT_FIELDS.get(kind, ()), *(("hidden",) if kind in STEPS else ())}
            unknown = sorted(set(data) - allowed)
            if unknown:
                raise self.refuse(f"unknown {kind} field {unknown[0][:40]!r} (it holds {sorted(allowed)})")
            if data.get("hidden") not in (None, False):
                # A viewer's export withholds what the viewer may not see: it cannot be checked.
                raise self.refuse("a redacted event (part of it withheld): import the auditor's export")
        if "at" in line:
            try:
                at = parse_time(line["at"])
            except ValueError:
                at = None
            if at is None or at.tzinfo is None:
                raise self.refuse("'at' is the event's time, an ISO 8601 string with its zone")

    # -- each event ------------------------------------------------------------------------------
    def on_Created(self, data: dict, line: dict) -> None:
        unknown = sorted(set(data) - CREATED_FIELDS)
        if unknown:  # a field the service never writes was taken without a word, and dropped
            raise self.refuse(f"unknown Created field {unknown[0][:40]!r}")
        for key in ("game", "rules_version"):  # the line's were read, a different one in the data ignored
            if key in data and data[key] != line[key]:
                raise self.refuse(f"the Created event's {key} is not the line's")
        try:
            engine = get_engine(line["game"], line["rules_version"])
        except (UnknownGame, UnknownRulesVersion):
            raise self.refuse(f"no engine plays {line['game']} rules {line['rules_version']}") from None
        seats, options = data["seats"], data["options"]
        if type(seats) is not int or not isinstance(options, dict):
            raise self.refuse("seats must be an int and options an object")
        try:
            full = engine.check_options(seats, options)
        except Exception as error:  # InvalidOptions, or anything a bad option makes an engine raise
            raise self.refuse(f"invalid options: {getattr(error, 'detail', error)}") from None
        if json.loads(json.dumps(full)) != options:
            raise self.refuse("the options are not complete (an export lists every option)")
        # Stored as the engine checked them, as POST /matches stores them: 2.0 passed as the integer 2
        # (2 == 2.0), but kept as sent it showed as 2.0 in the copy's view, export and forks' match list.
        options = json.loads(json.dumps(full))
        bots = data.get("bots") or {}
        if type(data.get("reveal_at_end", True)) is not bool:
            raise self.refuse("reveal_at_end is true or false")
        chance = data.get("chance")
        if chance is not None:
            if not (isinstance(chance, dict) and type(chance.get("commitment")) is str):
                raise self.refuse("chance must hold its commitment")
            if chance.get("scheme") != SCHEME or set(chance) - {"scheme", "commitment", "seed"}:
                raise self.refuse(f"chance is {{\"scheme\": \"{SCHEME}\", \"commitment\", \"seed\"}}")
            if chance.get("seed") is not None:
                self.check_seed(chance["seed"], chance)
            elif self.claimed_seed is not None:  # revealed by the Finished event (checked here first)
                self.check_seed(self.claimed_seed, chance)
            # Stored as the service stores it: the seed, wherever the history held it, or None. Stored as
            # sent (a first line without its seed, the seed in Finished only), every read of the copy
            # failed (500) for good, after an import answered "nothing was changed".
            chance = {"scheme": SCHEME, "commitment": chance["commitment"], "seed": self.seed}
        bots = self.checked_bots(engine, seats, bots)
        if data.get("created_by") not in (None, AUDITOR) and not is_uuid(data["created_by"]):
            # "auditor": the auditor's fork (api/audit.py), which only the auditor may make of a live match.
            raise self.refuse('created_by is a player id (a UUID, as the API writes it), "auditor" or null')
        parent = data.get("parent")
        if parent is not None:
            self.check_parent(parent)
        identity: dict[str, Any] = {} if self.match_id is None else {"id": self.match_id}  # the library's id argument
        self._match = Match(game=line["game"], rules_version=line["rules_version"], seats=seats, options=options,
                           bots=bots, created_by=data.get("created_by"),
                           reveal_at_end=data.get("reveal_at_end", True) is not False, chance=chance,
                           parent=parent,
                           rated=False, imported=True,  # audited, never rated or counted again
                           **identity)

    def checked_bots(self, engine: Any, seats: int, bots: Any) -> dict:
        """The computers' seats as POST /matches takes them: seat numbers of this match, known levels."""
        if not isinstance(bots, dict):
            raise self.refuse("bots maps seats to computer levels")
        levels = engine.bots()
        for seat, level in bots.items():
            if not is_seat_key(seat, seats):
                raise self.refuse(f"computer seat {seat[:20]!r} is not a seat of this match")
            if type(level) is not str or level not in levels:
                raise self.refuse(f"no computer level {str(level)[:40]!r} in {engine.title}")
        return bots

    def check_parent(self, parent: Any) -> None:
        """A fork's history: its parent must be on this server, and the copied prefix is checked
        against the parent's own events (its chance was drawn from the parent's seed, which the fork
        cannot prove)."""
        if not (isinstance(parent, dict) and set(parent) == {"match_id", "version", "prefix_end"}):
            raise self.refuse("a parent names its match_id, version and prefix_end")
        if not is_uuid(parent["match_id"]):
            # A fork records its parent's id as the service writes it. Another spelling of it (upper
            # case, urn:uuid:, braces) still found the parent, but the guard on the parent's hidden
            # cards (check_parent_hidden) did not know it, and let a private fork's copy reveal them.
            raise self.refuse("a parent's match_id is its id as the service writes it (lower-case, hyphenated)")
        prefix = self.parent_prefix(parent["match_id"], parent["version"])
        if prefix is None:
            raise self.refuse(f"the parent match {str(parent['match_id'])[:40]!r} at version "
                              f"{str(parent['version'])[:20]} is not at hand (on this server, or for `motley "
                              "verify` in a --parent export): a fork's copied history is checked against its parent")
        started, steps = prefix
        end = 1 + (1 + len(steps) if started else 0)
        if parent["prefix_end"] != end:
            raise self.refuse(f"a fork of that match at that version copies its history to version {end}")
        self.prefix = (started, steps, end)

    def check_prefix(self, line: dict) -> None:
        """A line of a fork's copied history is the parent's own, and the copy ends with Reopened."""
        started, steps, end = self.prefix or (False, [], 1)
        n, kind = self.line, line["event"]
        if n == 1 or not started:
            return
        if n == 2 and kind != "Started":
            raise self.refuse("a fork's history starts its copied match next")
        if 3 <= n <= end:
            expected_kind, expected = steps[n - 3]
            if kind != expected_kind or not same_json(step_key(kind, line["data"]), step_key(kind, expected)):
                raise self.refuse("this step is not the parent's at this version")
        if n == end + 1 and kind != "Reopened":
            raise self.refuse("a fork's copied history ends by reopening its seats")

    def check_seed(self, seed: Any, chance: dict) -> None:
        if type(seed) is not str or len(seed) != 64 or not all(c in "0123456789abcdef" for c in seed):
            raise self.refuse("the seed is 64 hex digits")
        if commitment(seed) != chance["commitment"]:
            raise self.refuse("the seed does not match the commitment of the first event")
        self.seed = seed

    def on_SeatTaken(self, data: dict, line: dict) -> None:
        seat, player_id, name = data["seat"], data["player_id"], data["name"]
        if type(seat) is not int or type(player_id) is not str or type(name) is not str:
            raise self.refuse("a seat is an int, its player id and name strings")
        if not 1 <= len(name) <= 40 or len(player_id) > 100:  # a player's name as POST /players takes it
            raise self.refuse("a player's name is 1 to 40 characters")
        if not player_id.strip():
            raise self.refuse(f"seat {seat}: a player id is not blank")
        # (A player id is kept as written: a history from elsewhere names players this server lacks, as
        # the recorded fixtures do, "fixture-0".) One this server holds is named as its player is, even a
        # name its rules refuse today: registered before they did, its history restores where it was made
        # (an auditor's probe: a name accepted that morning made its matches' exports unimportable).
        known = self.player_name(player_id)
        if known is None or known != name:
            if name_problem(name):
                raise self.refuse(f"seat {seat}: {name_problem(name)}")
            if name != kept_name(name):
                # The API keeps every name trimmed and composed (NFC): "Jose\u0301" and "José" were two names.
                raise self.refuse(f"seat {seat}: a name is kept trimmed and in NFC, each run of spaces one space, "
                                  f"as the API stores it ({kept_name(name)!r})")
        if known is not None and known != name:
            raise self.refuse(f"seat {seat}: player {player_id} on this server is named {known!r}, not {name!r}")
        # The export keeps an unlisted match's code out of its events: a seat taken there was
        # checked by the service (code, invitation or kept seat), so the rebuilt match's own code stands in.
        self.match.join(player_id, name, seat, code=self.match.invitation)

    def on_Started(self, data: dict, line: dict) -> None:
        match = self.match
        match.check_open()
        if match.state is not None:
            raise self.refuse("the match was already started")
        empty = match.empty_seats()
        if empty and self.prefix is None:  # a fork copies its parent's start with no seat taken
            raise self.refuse(f"started with seats {empty} empty")
        match._started()

    def on_Reopened(self, data: dict, line: dict) -> None:
        if self.match.state is None or self.match.status != STATUS_ACTIVE:
            raise self.refuse("only a started fork is reopened")
        reserved = data.get("reserved") or {}
        if not all(type(v) is str for v in reserved.values()):
            raise self.refuse("reserved seats map to player ids")
        self.match._reopened(reserved=reserved)

    def on_Resumed(self, data: dict, line: dict) -> None:
        if self.match.state is None or self.match.status != STATUS_OPEN:
            raise self.refuse("only a reopened fork resumes")
        self.match._resumed()

    def step(self, kind: str, data: dict) -> None:
        match = self.match
        match.check_active()
        actor, action = step_of(kind, data)
        try:
            match.engine.check(match.state, actor, action)  # the engine's checked step, before applying
        except IllegalAction:
            raise
        except Exception as error:  # noqa: BLE001 - junk an engine cannot even read is refused too
            raise self.refuse(f"the rules cannot read this step ({type(error).__name__})") from None
        if kind == "MoveMade":
            data = {**data, "moved_at": parse_time(data.get("moved_at"))}
            moved_at = data["moved_at"]
            if moved_at is not None:  # a history recorded without move times (older ones) proves none
                self.check_move_time(moved_at)
        if kind == "TimedOut":
            timer = match.engine.timer(match.state)
            if timer is None or data["phase"] != timer.phase:
                raise self.refuse("no timed phase of that name is running")
        replay_step(match, kind, data)

    def on_ChanceDrawn(self, data: dict, line: dict) -> None:
        prefix_end = (self.match.parent or {}).get("prefix_end", 0)
        due = self.match.state is not None and self.match.to_act().kind == Phase.CHANCE
        if self.seed is not None and line["version"] > prefix_end and due:
            # Provable chance (domain/chance.py): a tampered shuffle may still be a legal one.
            derived = self.match.engine.sample_chance(self.match.state, ChanceStream(self.seed, line["version"]))
            if not same_json(derived, data.get("outcome")):
                raise self.refuse("this chance outcome is not the one the committed seed gives")
        self.step("ChanceDrawn", data)

    def on_MoveMade(self, data: dict, line: dict) -> None:
        if type(data.get("seat")) is not int:
            raise self.refuse("a move's seat is an int")
        self.step("MoveMade", data)
        self.moved.add(data["seat"])

    def on_StepResolved(self, data: dict, line: dict) -> None:
        self.step("StepResolved", data)

    def check_ran_out(self, deadline: datetime, what: str) -> None:
        """A clock runs out at its deadline, never before now: a history ending at a claim has no later
        move whose time would contradict a deadline moved on (to 2099), and the copy ranked last a seat
        whose time had not run out (an auditor's probe). The original server refused the edit."""
        if self.now is not None and deadline > self.now() + CLOCK_SKEW:
            raise self.refuse(f"{what} deadline ({deadline.isoformat()}) has not come yet, so it has not run out")

    def on_TimedOut(self, data: dict, line: dict) -> None:
        deadline = None if self.match.timer is None else self.match.timer["deadline"]
        if deadline is not None:
            self.check_ran_out(deadline, "the timed phase's")
        self.step("TimedOut", data)
        self.ran_out, self.timer_start = deadline, None  # it closed after its deadline

    def check_move_time(self, moved_at: datetime) -> None:
        if moved_at.tzinfo is None:  # the service stamps every move in UTC: a time of no zone is anywhere
            raise self.refuse("a move's moved_at is an ISO 8601 time with its UTC offset")
        if self.now is not None and moved_at > self.now() + CLOCK_SKEW:
            # No move of a history is made after it is checked: a moved_at in 2099 was taken as sent.
            raise self.refuse("the move's moved_at is later than now")
        self.check_not_before(moved_at, "the move's moved_at")
        timer = self.match.timer
        if timer is not None and moved_at > timer["deadline"] + ORDER_SKEW:
            # Match.check_can_move: a move after its timed phase's deadline is refused (time-is-up).
            raise self.refuse("the move's moved_at is after its timed phase's deadline "
                              f"({timer['deadline'].isoformat()})")
        self.last_moved_at = moved_at if self.last_moved_at is None else max(self.last_moved_at, moved_at)

    def check_not_before(self, at: datetime, what: str) -> None:
        """``at`` (a move's time, a clock's start) is not before what came before it in the history: the
        last move, the start of the clock running, a deadline that ran out. The service's processes keep
        their clocks in step (ORDER_SKEW of leeway): a time out of order was edited by hand, e.g. a turn
        limit or deadline changed to make a player who moved in time look late."""
        floors = {"the previous move's": self.last_moved_at, "its turn clock's start": self.clock_start,
                  "its timed phase's start": self.timer_start, "a deadline that ran out before it": self.ran_out}
        for name, floor in floors.items():
            if floor is not None and at < floor - ORDER_SKEW:
                raise self.refuse(f"{what} ({at.isoformat()}) is before {name} ({floor.isoformat()})")

    def on_TimerStarted(self, data: dict, line: dict) -> None:
        self.match.check_active()
        timer = self.match.engine.timer(self.match.state)
        if timer is None or data["phase"] != timer.phase:
            raise self.refuse("no timed phase of that name is due")
        deadline = parse_time(data["deadline"])
        if deadline is None or deadline.tzinfo is None:
            raise self.refuse("a timer needs its deadline, with its UTC offset")
        start = deadline - timedelta(seconds=timer.seconds)  # Match.settle: the deadline is the start + its length
        self.check_not_before(start, "the timed phase's start")
        self.match._timer_started(phase=data["phase"], deadline=deadline)
        self.timer_start = start

    def on_TimerCleared(self, data: dict, line: dict) -> None:
        if self.match.timer is None or self.match.timer["phase"] != data["phase"]:
            raise self.refuse("no timer of that name runs")
        self.match._timer_cleared(phase=data["phase"])
        self.timer_start = None

    def on_ResolutionDue(self, data: dict, line: dict) -> None:
        self.match.check_active()
        if self.match.engine.to_act(self.match.state).kind != Phase.AUTO:
            raise self.refuse("no automatic step is due")
        self.match._resolution_due()

    def on_SeatLeft(self, data: dict, line: dict) -> None:
        seat = data["seat"]
        self.match.check_open()
        if type(seat) is not int or not 0 <= seat < self.match.num_seats or self.match.players[seat] is None:
            raise self.refuse("only a taken seat is left")
        self.match._seat_left(seat=seat)

    def on_ReservationReleased(self, data: dict, line: dict) -> None:
        seat, match = data["seat"], self.match
        match.check_open()  # Match.leave: the player a seat was kept for left it
        if type(seat) is not int or str(seat) not in match.reserved or match.players[seat] is not None:
            raise self.refuse("only a kept seat its player has left is released")
        match._reservation_released(seat=seat)

    def on_Cancelled(self, data: dict, line: dict) -> None:
        # Match.cancel: the creator calls off an open match; one started ends by its Finished line (a
        # Finished replaced by Cancelled was refused as "no longer open for seating": an auditor's probe).
        self.match.check_open("cancelling: a started match is not cancelled, it ends by its Finished line")
        self.match._cancelled()

    def on_Resigned(self, data: dict, line: dict) -> None:
        seat = data["seat"]
        self.match.check_active()
        if type(seat) is not int or not 0 <= seat < self.match.num_seats or self.match.players[seat] is None:
            raise self.refuse("only a seated player resigns")
        if seat in self.match.resigned:
            raise self.refuse(f"seat {seat} has already resigned")
        self.match._resigned(seat=seat)
        self.forfeit_pending.discard(seat)

    def on_RematchOpened(self, data: dict, line: dict) -> None:
        self.match.check_open()
        reserved = data.get("reserved") or {}
        if not is_uuid(data.get("of_match")) or not all(type(v) is str for v in reserved.values()):
            raise self.refuse("a rematch names its match and the players its seats are kept for")
        self.match._rematch_opened(of_match=data["of_match"], reserved=reserved)

    def on_RematchLinked(self, data: dict, line: dict) -> None:
        if not is_uuid(data.get("match_id")):
            raise self.refuse("a rematch link names the rematch by its id")
        self.match.check_rematch_allowed()
        self.match._rematch_linked(match_id=data["match_id"])

    # -- issue 13: invitations, required versions, turn limits and absent players -----------------
    def on_Unlisted(self, data: dict, line: dict) -> None:
        self.match.check_open()
        if self.match.invitation is not None:
            raise self.refuse("the match is unlisted already")
        # The code is never in the events (the creator reads it in the match): the rebuilt match,
        # a new one, gets a code of its own.
        self.match.make_unlisted(secrets.token_urlsafe(9))

    def on_Invited(self, data: dict, line: dict) -> None:
        self.match.check_open()
        if type(data.get("player_id")) is not str:
            raise self.refuse("an invitation names a player id")
        if data["player_id"] in self.match.invited:
            raise self.refuse("that player is invited already")
        self.match._invited(player_id=data["player_id"])

    def on_VersionsRequired(self, data: dict, line: dict) -> None:
        if self.match.versions_required:
            raise self.refuse("versions are required already")
        self.match.require_versions()

    def on_TurnLimitSet(self, data: dict, line: dict) -> None:
        seconds, on_timeout = data["seconds"], data["on_timeout"]
        # The limits POST /matches takes (api/schemas.py TurnLimit).
        if type(seconds) not in (int, float) or not 0.1 <= seconds <= 7 * 86400:
            raise self.refuse("a turn limit is 0.1 s to 7 days")
        if on_timeout not in ("computer", "claim"):
            raise self.refuse("a turn limit's on_timeout is 'computer' or 'claim'")
        if self.match.turn_limit is not None:
            raise self.refuse("the match has a turn limit already")
        self.match.limit_turns(float(seconds), on_timeout)

    def on_TurnClockStarted(self, data: dict, line: dict) -> None:
        match = self.match
        match.check_active()
        if match.turn_limit is None:
            raise self.refuse("a turn clock runs only in a match with a turn limit")
        phase, seats, deadline = data["phase"], data["seats"], parse_time(data["deadline"])
        if deadline is None or deadline.tzinfo is None or type(seats) is not list or not all(
                type(s) is int for s in seats):
            raise self.refuse("a turn clock has its deadline (with its UTC offset) and its seats")
        waiting, clock = match.waiting_humans(), match.turn_clock
        if not waiting or sorted(seats) != sorted(waiting):
            raise self.refuse(f"a turn clock waits for the seats to act, {waiting}")
        # Match.start_turn_clock: the seats still to act keep the running clock's time, unless one of them
        # has just moved and is to act again (a new turn; a history from before rules that keeps it too).
        keeps = clock is not None and set(waiting) <= set(clock["seats"])
        if keeps and clock is not None and (phase, deadline) == (clock["phase"], clock["deadline"]):
            pass
        elif keeps and not set(waiting) & self.moved:
            raise self.refuse("the seats still to act keep the running turn clock")
        elif phase != f"turn-{line['version']}":
            raise self.refuse(f"a new turn clock is named turn-{line['version']}")
        else:  # a new clock: its deadline is its start and the turn limit (Match.start_turn_clock)
            start = deadline - timedelta(seconds=match.turn_limit["seconds"])
            self.check_not_before(start, "the turn clock's start")
            self.clock_start = start
        match._turn_clock_started(phase=phase, deadline=deadline, seats=seats)
        if clock is None or phase != clock["phase"]:
            # A new clock: nobody has moved under it yet. The same clock written again for fewer seats
            # (some of a simultaneous turn acted) keeps who moved under it (Match.clock_moved): forgotten
            # there, the new clock its timeout starts for a seat that had moved was refused as a keeper.
            self.moved = set()

    def on_Forfeited(self, data: dict, line: dict) -> None:
        match, seats = self.match, data["seats"]
        match.check_active()  # Match.record_forfeit: seated players of a running match, in order
        seated = type(seats) is list and all(
            type(s) is int and 0 <= s < match.num_seats and match.players[s] is not None for s in seats)
        if not seated or not seats or seats != sorted(set(seats)):
            raise self.refuse("a forfeit names seated players, each once, in order")
        match._forfeited(seats=seats)
        self.forfeit_pending = set(seats) - set(match.resigned)

    def on_Voided(self, data: dict, line: dict) -> None:
        self.match.check_active()  # Match.void: a running match, called off by its tournament's organiser
        if type(data["reason"]) is not str:
            raise self.refuse("a void's reason is a string")
        self.match._voided(reason=data["reason"])

    def on_ResultVoided(self, data: dict, line: dict) -> None:
        if self.match.status != STATUS_FINISHED or self.match.voided is not None:
            raise self.refuse("only a finished match's result is voided, once")  # Match.void_result
        if type(data["reason"]) is not str:
            raise self.refuse("a void's reason is a string")
        self.match._result_voided(reason=data["reason"])

    def on_ClockExtended(self, data: dict, line: dict) -> None:
        match = self.match
        match.check_active()  # Match.extend_clock: a running clock, given a later deadline
        deadline = parse_time(data["deadline"])
        clock = next((c for c in (match.timer, match.turn_clock) if c is not None and c["phase"] == data["phase"]),
                     None)
        if clock is None:
            raise self.refuse("no timed phase or turn clock of that name runs")
        if deadline is None or deadline <= clock["deadline"]:
            raise self.refuse("an extended clock has a later deadline")
        # Match.extend_clock: a whole period from the service's return, which nothing played before
        timer = match.engine.timer(match.state) if clock is match.timer else None
        length = timer.seconds if timer is not None else float(match.turn_limit["seconds"])  # type: ignore[index]
        start = deadline - timedelta(seconds=length)
        self.check_not_before(start, "the extended clock's start")
        match._clock_extended(phase=data["phase"], deadline=deadline)
        if clock is match.timer:
            self.timer_start = start
        else:
            self.clock_start = start

    def on_TurnClockStopped(self, data: dict, line: dict) -> None:
        clock = self.match.turn_clock
        if clock is None or clock["phase"] != data["phase"]:
            raise self.refuse("no turn clock of that name runs")
        if self.match.status == STATUS_ACTIVE and self.match.waiting_humans():
            raise self.refuse("a turn clock stops when no player is to act")
        self.match._turn_clock_stopped(phase=data["phase"])
        self.moved = set()
        self.clock_start = None

    def on_SeatsTimedOut(self, data: dict, line: dict) -> None:
        match = self.match
        match.check_active()
        clock = match.turn_clock
        if clock is None or clock["phase"] != data["phase"]:
            raise self.refuse("no turn clock of that name runs")
        late = match.late_seats()
        if not late or data["seats"] != late:  # Match.turn_timed_out: the clock's seats still to act
            raise self.refuse(f"the seats whose turn ran out are {late}")
        self.check_ran_out(clock["deadline"], "a turn clock's")
        match._seats_timed_out(seats=late, phase=clock["phase"])
        self.ran_out = clock["deadline"]  # whatever comes next came after it

    def on_SeatReturned(self, data: dict, line: dict) -> None:
        self.match.check_active()
        if data["seat"] not in self.match.absent or data["seat"] in self.match.resigned:
            raise self.refuse("only an absent seat returns, and not one that resigned")
        self.match._seat_returned(seat=data["seat"])

    def on_Claimed(self, data: dict, line: dict) -> None:
        match, seat = self.match, data["seat"]
        match.check_active()  # Match.claim: a present player, in a match created to be claimed
        if type(seat) is not int or not 0 <= seat < match.num_seats or match.players[seat] is None:
            raise self.refuse("only a seated player claims")
        if match.turn_limit is None or match.turn_limit["on_timeout"] != "claim":
            raise self.refuse("this match was not created to be claimed when a player is absent")
        if not match.absent or seat in match.absent or seat in match.resigned:
            raise self.refuse("only a present player may claim, once another seat's time ran out")
        match._claimed(seat=seat)
        self.claimed = True

    def on_Abandoned(self, data: dict, line: dict) -> None:
        match = self.match
        match.check_active()
        if not match.nobody_left_to_claim() or data["seats"] != sorted(match.absent):
            raise self.refuse("a match is abandoned when every human seat still playing is absent")
        match._abandoned(seats=data["seats"])
        self.claimed = True  # its Finished line ranks the absent seats last, as a claim's

    def on_Finished(self, data: dict, line: dict) -> None:
        match = self.match
        match.check_active()
        over = match.engine.to_act(match.state).kind == Phase.OVER
        result = match.engine.result(match.state) if over else None
        expected = None if result is None else json.loads(json.dumps(result.to_json()))
        if self.claimed:  # issue 13: the absent (and resigned) seats rank last, as Match.claim ranks them
            self.claimed = False
            expected = resignation_result(None, match.num_seats, match.resigned, match.absent)
        elif match.resigned:  # issue 13: resigned seats rank last; the last seat standing wins at once
            playing = match.playing_seats()
            if not over and not (len(playing) <= 1 or all(match.is_bot(s) for s in playing)):
                raise self.refuse("the match is not over at this point")
            expected = resignation_result(expected, match.num_seats, match.resigned)
        elif not over or result is None:
            raise self.refuse("the match is not over at this point")
        # An earlier form that does not apply is None: left out, or a result of null matched it (a review).
        earlier = [] if expected is None else [f for f in (earlier_form(expected), abandoned_earlier_form(expected))
                                               if f is not None]
        if expected != data["result"] and data["result"] not in earlier:
            raise self.refuse("the recorded result is not the one the rules give")
        seed = data.get("seed")
        if seed is not None:
            if match.chance is None:
                raise self.refuse("a seed revealed by a match without a commitment")
            self.check_seed(seed, match.chance)
        match._finished(result=data["result"], seed=seed)

    def check_chance(self) -> None:
        """With the seed at hand, every chance outcome must be the one it gives (a tampered shuffle
        may still be a legal one)."""
        if self.seed is None:
            if self.match.chance is not None and any(line["event"] == "ChanceDrawn" for line in self.lines):
                # A match that drew chance under a commitment ended with its seed in the history (the
                # auditor's export holds it from the first line): without it, any legal shuffle would
                # pass, a rigged one included, and the copy's /verify could only say "not revealed".
                self.line = 1
                raise self.refuse("the history commits to a chance seed but does not hold it (in its first "
                                  "line or its Finished line): import an auditor's export, which does")
            return
        verdict = verify(self.lines)
        if not verdict.ok:
            self.line = verdict.version or self.line
            raise self.refuse(verdict.reason or "a chance outcome is not the one the seed gives")


SEAT_KEY = re.compile("0|[1-9][0-9]{0,2}")


#: What a faithful history of a match may hold otherwise than the match's own export: the match id (a
#: copy's export names the copy), the time each line was stored (a copy's are the import's), a move's
#: request key (the auditor's alone), the Created line's chance but for its commitment (its seed, if
#: written, is held to the commitment) and the copy's own marks (never rated, imported).
_LINE_LEEWAY = frozenset({"match", "at"})
_DATA_LEEWAY = frozenset({"request_key"})
_CREATED_LEEWAY = frozenset({"imported", "rated", "chance"})


def differing_fields(line: dict, recorded: dict) -> list[str]:
    """The fields (``event``, ``data.seat``...) in which an imported line differs from the line the
    match recorded, leaving out what a faithful copy may hold otherwise (``_LINE_LEEWAY``...)."""
    differs = [key for key in sorted((set(line) | set(recorded)) - _LINE_LEEWAY - {"data"})
               if not alike(line.get(key), recorded.get(key))]
    if differs:
        return differs
    leeway = _DATA_LEEWAY | (_CREATED_LEEWAY if line.get("event") == "Created" else frozenset())
    data, kept = line.get("data") or {}, recorded.get("data") or {}
    if data.get("hidden") is False:  # "not redacted", as an export says by leaving it out
        leeway |= {"hidden"}
    differs = [f"data.{key}" for key in sorted((set(data) | set(kept)) - leeway)
               if not alike(data.get(key), kept.get(key))]
    if line.get("event") == "Created" and (data.get("chance") or {}).get("commitment") != (
            (kept.get("chance") or {}).get("commitment")):
        differs.append("data.chance.commitment")
    return differs


def alike(a: Any, b: Any) -> bool:
    """JSON equality as the import reads a history: a number is a number (an option sent as 2.0 is
    stored as the engine's 2), but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(alike(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(alike, a, b))
    return type(a) is type(b) and a == b


def is_seat_key(seat: Any, seats: int) -> bool:
    """A seat of a match of ``seats`` seats, named as JSON keys name it (POST /matches' ``computers``):
    ASCII digits without leading zeros ("01" beside "1" would name one seat twice; "١" is a digit)."""
    return isinstance(seat, str) and SEAT_KEY.fullmatch(seat) is not None and int(seat) < seats


CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

def is_uuid(value: Any) -> bool:
    """A UUID written as the API writes one (a match's or a player's id)."""
    try:
        return type(value) is str and str(UUID(value)) == value
    except ValueError:
        return False


def holds_control_characters(value: Any) -> bool:
    if isinstance(value, str):
        return CONTROL_CHARACTERS.search(value) is not None
    if isinstance(value, dict):
        return any(holds_control_characters(k) or holds_control_characters(v) for k, v in value.items())
    if isinstance(value, list):
        return any(holds_control_characters(v) for v in value)
    return False


#: How far ahead of this machine's clock a recorded time may be (another server's clock).
CLOCK_SKEW = timedelta(minutes=5)
#: The leeway between two times of one history (moves, clock starts, deadlines): the clocks of the
#: service's processes are kept in step (NTP); more is a time edited by hand.
ORDER_SKEW = timedelta(seconds=5)

class RepeatedKey(ValueError):
    """A line's object names one key twice."""


def repeated_key(pairs: list[tuple[str, Any]], made: dict) -> Optional[str]:
    """The first key ``pairs`` (a JSON object's, as ``json``'s ``object_pairs_hook`` gets them) name twice,
    ``made`` being their dict; None when each is named once (RFC 8259 §4 "SHOULD" be unique)."""
    if len(made) == len(pairs):
        return None
    seen: set = set()
    return next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]


def pairs_once(pairs: list[tuple[str, Any]]) -> dict:
    """A line's object, whose keys are unique: with one twice the last won silently, as a request body's
    does not (a fuzzing probe: ``{"data": ..., "data": ...}`` imported the second)."""
    made = dict(pairs)
    twice = repeated_key(pairs, made)
    if twice is not None:
        raise RepeatedKey(f"the line names {json.dumps(twice)} twice in one object")
    return made


#: The fields of an export's line (``export``): an import refuses any other.
EXPORT_LINE_FIELDS = frozenset({"match", "game", "rules_version", "version", "event", "at", "data"})


def revealed_seed(rows: list[str]) -> Optional[str]:
    """The seed a history's last line (its Finished event) reveals, if any."""
    for row in reversed(rows):
        if row.strip():
            try:
                line = json.loads(row)
                seed = line["data"]["seed"] if line.get("event") == "Finished" else None
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                return None
            return seed if type(seed) is str else None
    return None


def parse_time(value: Any) -> Optional[datetime]:
    if value is None:
        return None
    if type(value) is not str:
        raise ValueError("a time is an ISO 8601 string")
    return datetime.fromisoformat(value)


__all__ = ["History", "ImportRefused", "CHANCE", "SYSTEM"]
