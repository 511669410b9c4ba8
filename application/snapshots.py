"""Bounded-cost rewind: snapshots of a match, keyed to the rules that made its state.

A match is rebuilt by replaying its events; without help, reading version N of it costs N events.
After a save crosses a multiple of ``INTERVAL`` versions, the match is snapshotted (its whole aggregate
state, engine state included) into the event store's snapshot table. Any read, the latest after a cold
start as well as a rewind to version N, then loads the nearest snapshot at or below N and replays at
most about ``INTERVAL`` events (plus the events of one save) after it.

Each snapshot carries a key: the game, its rules version, the engine's ``state_layout`` (an engine
bumps it when it changes the shape of its state without changing its rules) and ``MATCH_LAYOUT``
(bumped when the match aggregate's own attributes change). A snapshot whose key is not the one the
current code would write is never loaded: the read replays from an older valid snapshot or from the
first event instead, so a code change can cost time but never load a stale state layout.
(docs/architecture.md, "Snapshots".)
"""

from __future__ import annotations

import logging
from copy import deepcopy
from typing import Any, Optional
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Repository, project_aggregate
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from application.replay import Replayer, record_reader
from domain.games import UnknownGame, UnknownRulesVersion, get_engine
from domain.match import Match

INTERVAL = 25
#: Bumped whenever Match gains, loses or reshapes an attribute a snapshot holds.
#: 3: issue 13 (resigned, rematch_of, rematch); 4: imported; 5: a finished match has no turn clock;
#: 6: ``closed`` keeps its "earlier" closes (an older snapshot forgot them: a late move's answer differed).
#: 7: ``people_moved``, the seats whose people moved (``Match.played_out``; ``Match.no_shows`` until 2026-12-06).
#: 8: ``forfeited``, the seats its tournament's organiser forfeited.
MATCH_LAYOUT = 8
#: How many older snapshots a read looks through for one with a valid key.
LOOKBACK = 4
#: How many of its latest events a rebuild reads first: back to the creation, no snapshot is looked up.
WINDOW = 2 * INTERVAL

log = logging.getLogger(__name__)


class MatchSnapshot(Snapshot):
    """The library's snapshot with the key of the code that wrote it."""

    key: str


def snapshot_key(game: str, rules_version: str) -> Optional[str]:
    try:
        engine = get_engine(game, rules_version)
    except (UnknownGame, UnknownRulesVersion):
        return None  # no engine plays it any more: nothing may be loaded for it
    return f"{game}/{rules_version}/layout-{getattr(engine, 'state_layout', 1)}/match-{MATCH_LAYOUT}"


def take(match: Match) -> MatchSnapshot:
    state = dict(vars(match))
    for private in ("_id", "_version", "_pending_events"):
        state.pop(private, None)
    return MatchSnapshot(  # type: ignore[call-arg]
        originator_id=match.id,
        originator_version=match.version,
        timestamp=MatchSnapshot.create_timestamp(),
        topic=get_topic(Match),
        state=state,
        key=snapshot_key(match.game, match.rules_version),
    )


def encoded(app: Any, match: Match) -> Optional[Any]:
    """The stored form of a snapshot of ``match`` as it is now, or None when its state would not come
    back exactly from the transcoder (a tuple, a set): such a state is never snapshotted."""
    stored = app.mapper.to_stored_event(take(match))
    if app.mapper.to_domain_event(stored).state["state"] != match.state:
        log.warning("match %s: state of %s does not survive the transcoder; no snapshot", match.id, match.game)
        return None
    return stored


def take_due(app: Any, match: Match, saved_from: int) -> None:
    """After a save that took ``match`` from version ``saved_from`` to ``match.version``: snapshot it
    if the save crossed a multiple of ``INTERVAL``. The events are committed already, so a snapshot
    that fails is logged and skipped (the next one will do), never raised."""
    if app.snapshots is None or match.version // INTERVAL == saved_from // INTERVAL:
        return
    try:
        stored = encoded(app, match)
        if stored is not None:
            app.snapshots.recorder.insert_events([stored])
    except Exception:  # noqa: BLE001 - the move is saved; a missing snapshot only costs time
        log.exception("snapshot of match %s at version %s failed", match.id, match.version)


class Collector:
    """Snapshots taken while a long history is built in memory (an import, a fork's prefix) and
    stored once its events are saved, so a rewind into it is bounded too."""

    def __init__(self, app: Any):
        self.app = app
        self.stored: list = []

    def __call__(self, match: Match) -> None:
        if self.app.snapshots is not None and match.version % INTERVAL == 0:
            stored = encoded(self.app, match)
            if stored is not None:
                self.stored.append(stored)

    def flush(self, match: Match) -> None:
        """Store the snapshots once ``match``'s events are saved. Its save snapshotted its last version
        already (``take_due``), and the events are committed: a snapshot that fails is logged, never raised."""
        stored = [s for s in self.stored if s.originator_version != match.version]
        self.stored = []
        if not stored:
            return
        try:
            self.app.snapshots.recorder.insert_events(stored)
        except Exception:  # noqa: BLE001 - the history is saved; a missing snapshot only costs time
            log.exception("snapshots of match %s failed", match.id)


def working_copy(aggregate: Any) -> Any:
    """A copy a command may change: the aggregate's own (a match's ``working_copy`` shares its engine
    state, which nothing changes in place), else a deep one."""
    copier = getattr(aggregate, "working_copy", None)
    return copier() if copier is not None else deepcopy(aggregate)


class KeyedSnapshotRepository(Repository):
    """The library's repository, loading only snapshots whose key the current code would write."""

    @classmethod
    def like(cls, base: Repository) -> KeyedSnapshotRepository:
        repository = cls(
            base.event_store,
            snapshot_store=base.snapshot_store,
            fastforward=base.fastforward,
            fastforward_skipping=base.fastforward_skipping,
            deepcopy_from_cache=base.deepcopy_from_cache,
        )
        repository.cache = base.cache
        return repository

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # Our own projector (application/replay.py): match events straight from the stored records.
        self.replayer = Replayer(self.event_store.mapper, [Match])
        self.records = record_reader(self.event_store.recorder)
        self.snapshot_records = None if self.snapshot_store is None else record_reader(self.snapshot_store.recorder)

    def get(self, aggregate_id: Any, *, version: Optional[int] = None, projector_func: Any = project_aggregate,
            fastforward_skipping: bool = False, deepcopy_from_cache: bool = True,
            at_least: Optional[int] = None) -> Any:
        """The library's cached get, fast-forwarding copy-on-write: a cached aggregate never changes
        once it is in the cache, so a read (``deepcopy_from_cache=False``) may share it with other
        threads, and only a command pays for a deep copy it may mutate. (The library fast-forwards the
        cached object in place, so every read must copy it: a third of a move's reads were deepcopy.)
        A cached aggregate at version ``at_least`` or later is answered without asking the store."""
        if self.cache is None or version is not None or not self.fastforward:
            return super().get(aggregate_id, version=version, projector_func=projector_func,
                               fastforward_skipping=fastforward_skipping, deepcopy_from_cache=deepcopy_from_cache)
        lock = self._use_fastforward_lock(aggregate_id)
        try:
            with lock:
                try:
                    aggregate: Any = self.cache.get(aggregate_id)
                except KeyError:
                    aggregate = self._reconstruct_aggregate(aggregate_id, None, projector_func)
                    self.cache.put(aggregate_id, aggregate)
                else:
                    fresh = at_least is not None and aggregate.version >= at_least
                    if not fresh and projector_func is project_aggregate:  # our own projector (see rebuild)
                        records = self.records(aggregate_id, gt=aggregate.version)
                        if records:
                            # Never the shared object: readers may hold it.
                            aggregate = self.replayer.project(working_copy(aggregate), aggregate_id, records)
                            self.cache.put(aggregate_id, aggregate)
                    elif not fresh:
                        new_events = list(self.event_store.get(originator_id=aggregate_id, gt=aggregate.version))
                        if new_events:
                            aggregate = projector_func(working_copy(aggregate), new_events)
                            if aggregate is None:
                                raise AggregateNotFoundError(aggregate_id)
                            self.cache.put(aggregate_id, aggregate)
        finally:
            self._disuse_fastforward_lock(aggregate_id)
        return working_copy(aggregate) if deepcopy_from_cache and self.deepcopy_from_cache else aggregate

    def remember(self, aggregate: Any) -> None:
        """Cache ``aggregate``, just saved, unless the cache holds a later version already."""
        if self.cache is None or not self.fastforward:
            return
        lock = self._use_fastforward_lock(aggregate.id)
        try:
            with lock:
                try:
                    cached = self.cache.get(aggregate.id)
                except KeyError:
                    cached = None
                if cached is None or cached.version < aggregate.version:
                    self.cache.put(aggregate.id, aggregate)
        finally:
            self._disuse_fastforward_lock(aggregate.id)

    def nearest_snapshot(self, aggregate_id: UUID, version: Optional[int]) -> Optional[Snapshot]:
        if self.snapshot_store is None or self.snapshot_records is None:
            return None
        to_snapshot = self.snapshot_store.mapper.to_domain_event
        for version_, topic, data in self.snapshot_records(aggregate_id, desc=True, limit=LOOKBACK, lte=version):
            snapshot = to_snapshot(StoredEvent(originator_id=aggregate_id, originator_version=version_, topic=topic,
                                               state=data))
            if not isinstance(snapshot, MatchSnapshot):
                continue
            state = snapshot.state
            if snapshot.key is not None and snapshot.key == snapshot_key(state["game"], state["rules_version"]):
                return snapshot
        return None

    def _reconstruct_aggregate(self, aggregate_id: Any, version: Optional[int], projector_func: Any) -> Any:
        if projector_func is not project_aggregate:  # someone else's projector: the library's events
            snapshot = self.nearest_snapshot(aggregate_id, version)
            events = self.event_store.get(
                aggregate_id, gt=None if snapshot is None else snapshot.originator_version, lte=version
            )
            aggregate = projector_func(None, [snapshot, *events] if snapshot is not None else events)
        else:
            aggregate = self.rebuild(aggregate_id, version)
        if aggregate is None:
            raise AggregateNotFoundError(f"Aggregate {aggregate_id!r} version {version!r} not found.")
        return aggregate

    def rebuild(self, aggregate_id: UUID, version: Optional[int]) -> Any:
        """The aggregate at ``version`` (the latest: None), or None if it has no event by then.

        One query reads its last ``WINDOW`` events up to ``version``: when they go back to its
        creation (a match of up to ``WINDOW`` versions, a player, most tournaments), they are all it
        takes. Otherwise the nearest valid snapshot is looked up (a second query), and only if the
        window does not reach back to it are the events between read (a third)."""
        records = self.records(aggregate_id, lte=version, desc=True, limit=WINDOW)
        if not records:
            return None
        records.reverse()
        first = records[0][0]
        aggregate = None
        if first != 1:
            # Only a match has snapshots (MatchSnapshot): for any other aggregate, read the rest.
            snapshot = self.nearest_snapshot(aggregate_id, version) if self.replayer.handles(records[0][1]) else None
            start = 0 if snapshot is None else snapshot.originator_version
            if start >= first - 1:
                records = [record for record in records if record[0] > start]
            else:
                records = self.records(aggregate_id, gt=start or None, lte=first - 1) + records
            aggregate = None if snapshot is None else snapshot.mutate(None)
        return self.replayer.project(aggregate, aggregate_id, records)
