"""Replaying a match's stored events: a projector of our own (issue 16, P4).

The library rebuilds an aggregate from its stored events in layers, for each event: its mapper
decodes the record (``json`` with an ``object_hook`` called for every dict, the topic resolved, an
event object built), the event's ``mutate`` checks the version, filters the event's attributes by the
decorated method's parameters and calls that method, then sets the aggregate's version and time. For
a match, whose events are small and many, that cost five to six times what the game's engine does.

``Replayer.project`` does the same for the events of the classes it is given (``Match``), straight
from the stored records (``(originator_version, topic, state)``, ``record_reader``):

- the record is decoded with orjson, and only what the library's transcoder would revive is revived:
  a top-level ``{"_type_": name, "_data_": data}`` value (the event's ``timestamp``, a move's ``at``,
  a timer's ``deadline``), by the transcoder's own registered transcodings (the library's datetime,
  UUID and Decimal ones called directly). The bytes must hold as many ``"_type_"`` as were revived
  and no escape (which could spell one), and no 19-digit run (orjson reads an integer past 64 bits
  as a float, the library's json as an int); else, and when orjson refuses the record (``NaN``,
  ``1e400``), the library decodes it. Only the last event's timestamp is revived: the others would be
  overwritten as ``modified_on``, unless the method takes it;
- no event object is built: the event's own method (the body of its ``@event`` method in
  domain/match.py, which stays the one definition of each event's effect) is called with the
  decoded attributes its signature names, exactly the arguments the library's ``mutate`` passes;
- the library's sequence check is kept (a record's version must be the aggregate's plus one, else
  ``OriginatorVersionError``), then ``_version`` and ``_modified_on`` are set as its setters do.

Everything else takes the library's path, record by record: the creation event (it builds the
aggregate), another class's event, an event class with its own ``apply``/``mutate``, an upcast
(``class_version``), a method taking ``originator_id``/``originator_version``, a store with a cipher
or a compressor. So an old or unknown topic replays, or fails, as it always did.
tests/platform/test_fast_replay.py holds the two paths exactly equal for whole matches of every game
and every Match event type, at every version, on both stores.
"""

from __future__ import annotations

import inspect
from datetime import datetime
from decimal import Decimal
from typing import Any, Callable, Iterable, Optional, cast
from uuid import UUID

import orjson
from eventsourcing.domain import (
    BaseAggregate,
    CanMutateAggregate,
    DecoratedFuncCaller,
    OriginatorVersionError,
    decorated_funcs,
)
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    JSONTranscoder,
    Mapper,
    StoredEvent,
    Transcoding,
    UUIDAsHex,
)
from eventsourcing.utils import get_topic, resolve_topic

#: A stored event as the replay reads it: its originator_version, its topic and its state.
Record = tuple[int, str, bytes]

_UNSURE = object()
#: 19 digits in a row: maybe an integer orjson does not read as the library's json does (past 64 bits).
_LONG_NUMBER = b"0" * 19
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")

#: The library's transcodings whose ``decode`` of a ``str`` is one call: made directly.
_DIRECT: dict[type, Callable[[str], Any]] = {
    DatetimeAsISO: datetime.fromisoformat,
    UUIDAsHex: UUID,
    DecimalAsStr: Decimal,
}


def _plain(data: bytes) -> bool:
    """No escape (which could spell a ``"_type_"``) and no 19 digits in a row (maybe an integer past
    64 bits, which orjson reads as a float and the library's json as an int): else the library's path."""
    return b"\\" not in data and _LONG_NUMBER not in data.translate(_DIGITS_AS_ZERO)


class Plan:
    """How a record of one event class is applied: its ``@event`` method and the parameters it takes."""

    __slots__ = ("func", "names", "takes_timestamp", "typed_keys")

    def __init__(self, func: Callable[..., Any], names: frozenset[str]):
        self.func = func
        self.names = names
        self.takes_timestamp = "timestamp" in names
        #: The attributes besides the timestamp that its records held revived values in (learned).
        self.typed_keys: tuple[str, ...] = ()


def plan_for(event_class: type) -> Optional[Plan]:
    """The plan for an event class the library applies by calling its decorated method and nothing
    else (``DecoratedFuncCaller.apply`` then the base's no-op, ``CanMutateAggregate.mutate``), or
    None: the library's path is then taken for it."""
    if not isinstance(event_class, type) or not issubclass(event_class, DecoratedFuncCaller):
        return None
    func = decorated_funcs.get(event_class)
    if func is None or getattr(event_class, "class_version", 1) != 1:
        return None
    appliers = [c for c in event_class.__mro__ if "apply" in c.__dict__]
    mutators = [c for c in event_class.__mro__ if "mutate" in c.__dict__]
    if appliers != [DecoratedFuncCaller, CanMutateAggregate] or mutators != [CanMutateAggregate]:
        return None
    names = frozenset(inspect.signature(func).parameters) - {"self"}
    if names & {"originator_id", "originator_version"}:
        return None  # the library passes those from the record itself: keep its path
    return Plan(func, names)


class Replayer:
    """Applies stored records of ``aggregate_classes``' events to an aggregate (see the module)."""

    def __init__(self, mapper: Mapper, aggregate_classes: Iterable[type]):
        self.mapper = mapper
        transcoder = mapper.transcoder
        plain = isinstance(transcoder, JSONTranscoder) and mapper.cipher is None and mapper.compressor is None
        #: name -> the transcoding the library's decoder revives ``{"_type_": name, ...}`` with.
        self.transcodings: Optional[dict[str, Transcoding]] = (
            dict(cast(JSONTranscoder, transcoder).names) if plain else None)
        self.direct = {name: _DIRECT[type(t)] for name, t in (self.transcodings or {}).items() if type(t) in _DIRECT}
        self.registered = frozenset(self.transcodings or ())
        self.prefixes = tuple(get_topic(cls) + "." for cls in aggregate_classes)
        for cls in aggregate_classes:
            # The fast path sets _version and _modified_on as the library's property setters do.
            if not (issubclass(cls, BaseAggregate) and cls.version is BaseAggregate.version
                    and cls.modified_on is BaseAggregate.modified_on):
                raise TypeError(f"{cls} does not keep the library's version and modified_on")
        self.plans: dict[str, Optional[Plan]] = {}

    def handles(self, topic: str) -> bool:
        """Whether ``topic`` names an event of one of this replayer's aggregate classes."""
        return topic.startswith(self.prefixes)

    def plan(self, topic: str) -> Optional[Plan]:
        try:
            return self.plans[topic]
        except KeyError:
            pass
        plan = None
        if self.transcodings is not None and topic.startswith(self.prefixes):
            try:
                plan = plan_for(resolve_topic(topic))
            except Exception:  # noqa: BLE001 - an unknown topic: the library's path says what is wrong
                plan = None
        self.plans[topic] = plan
        return plan

    def revive(self, value: Any) -> Any:
        """What the library's decoder makes of ``value``, a ``{"_type_": ..., "_data_": ...}`` dict;
        ``_UNSURE`` when it would raise (a name no transcoding is registered for)."""
        name, data = value["_type_"], value["_data_"]
        direct = self.direct.get(name)
        if direct is not None and type(data) is str:
            return direct(data)
        transcoding = self.transcodings.get(name) if self.transcodings is not None else None
        return _UNSURE if transcoding is None else transcoding.decode(data)

    def decode(self, data: bytes, plan: Plan) -> Optional[dict]:
        """The record's attributes as the library's transcoder decodes them, but for ``timestamp``,
        left as stored (only the last one is needed: ``project``); None when this decoder cannot be
        sure to decode it as the library does (the caller then takes the library's path).

        Every dict the library's decoder revives has a ``"_type_"`` key: there must be as many in the
        bytes as are revived here (the timestamp, the values at ``plan.typed_keys``, else any other
        top-level one), and no escape, which could spell one. orjson reads an integer past 64 bits as
        a float, the library's json as an int: 19 digits in a row are left to the library too."""
        if not _plain(data):
            return None
        try:
            state = orjson.loads(data)
        except orjson.JSONDecodeError:
            return None  # NaN, Infinity, 1e400...: the library's json reads them
        found = self.revive_known(state, plan)
        if found is None:
            return None
        expected = data.count(b'"_type_"')
        if found != expected:
            learned = self.learn(state, plan)
            if learned is None or found + learned != expected:
                return None  # one inside a value, or "_type_" as a value: the library's decoder sees to it
        return state

    def decode_all(self, records: list[Record], creating: bool) -> Optional[list[Optional[dict]]]:
        """What ``decode`` gives for each record (None: the library's path for that one), from one
        orjson call over the records this decoder may decode (those with a plan; not the creation);
        None when any of them could be unsure (then each is decoded alone).

        The same guards hold for those records together: a record with an escape or a 19-digit run
        is left to the library (a finished match's revealed seed, 64 hex digits, has such a run now
        and then), and there must be as many ``"_type_"`` in their bytes as are revived in them,
        counting whole those it leaves to the library. (Each record's revived dicts are among its
        own, so the totals match only if every record's do.) A revivable value at a key not yet
        learned makes the totals differ: the records are then decoded one by one, which learns it for
        the next time. The records the library decodes anyway (the creation, with its chance
        commitment's long runs of digits) are left out."""
        plans = self.plans
        ours: list[tuple[int, Plan]] = []
        for index, (_, topic, _) in enumerate(records):
            plan = plans[topic] if topic in plans else self.plan(topic)
            if plan is not None and not (creating and index == 0):
                ours.append((index, plan))
        joined = b"[" + b",".join([records[index][2] for index, _ in ours]) + b"]"
        if not _plain(joined):  # rare (a revealed seed's hex with 19 digits in a row): those records
            ours = [(index, plan) for index, plan in ours if _plain(records[index][2])]  # are left out
            joined = b"[" + b",".join([records[index][2] for index, _ in ours]) + b"]"
        try:
            loaded = orjson.loads(joined)
        except orjson.JSONDecodeError:
            return None
        if len(loaded) != len(ours):
            return None  # a record that is not one JSON value
        states: list[Optional[dict]] = [None] * len(records)
        found = 0
        for (index, plan), state in zip(ours, loaded):
            revived = self.revive_known(state, plan)
            if revived is None:  # the library's path for this one
                found += records[index][2].count(b'"_type_"')
            else:
                states[index] = state
                found += revived
        return states if found == joined.count(b'"_type_"') else None

    def revive_known(self, state: Any, plan: Plan) -> Optional[int]:
        """Check a decoded record as ``decode`` does and revive, in place, what it knows where to find:
        how many ``"_type_"`` dicts that was (the timestamp's included), None for the library's path."""
        if type(state) is not dict or "class_version" in state:
            return None  # the library's upcasting, or its errors
        stamp = state.get("timestamp")
        if not (type(stamp) is dict and len(stamp) == 2 and "_type_" in stamp and "_data_" in stamp
                and stamp["_type_"] in self.registered):
            return None
        found = 1
        for key in plan.typed_keys:  # where this event's records held revivable values (a move's "at")
            value = state.get(key)
            if type(value) is dict and len(value) == 2 and "_type_" in value and "_data_" in value:
                value_data = value["_data_"]
                fast = self.direct.get(value["_type_"])
                revived = fast(value_data) if fast is not None and type(value_data) is str else self.revive(value)
                if revived is _UNSURE:
                    return None  # a name no transcoding is registered for: the library raises
                state[key] = revived
                found += 1
        return found

    def learn(self, state: dict, plan: Plan) -> Optional[int]:
        """Revive the other top-level revivable values of ``state`` and remember where they were, for
        the next records of this event. How many were revived (None: one the library cannot revive)."""
        found = 0
        for key, value in state.items():
            if (key != "timestamp" and key not in plan.typed_keys and type(value) is dict and len(value) == 2
                    and "_type_" in value and "_data_" in value):
                revived = self.revive(value)
                if revived is _UNSURE:
                    return None
                state[key] = revived
                found += 1
                plan.typed_keys = (*plan.typed_keys, key)
        return found

    def project(self, aggregate: Any, aggregate_id: Any, records: Iterable[Record]) -> Any:
        """``aggregate`` (None before the creation event) with ``records`` of ``aggregate_id`` applied
        in order. (The records were selected by ``aggregate_id``: the library's check that an event's
        originator is the aggregate is left out.)"""
        plans = self.plans
        records = records if isinstance(records, list) else list(records)
        # Many records: decoded in one call (decode_all); else, or if it is unsure, one by one.
        decoded = self.decode_all(records, aggregate is None) if len(records) > 1 else None
        timestamp = None  # the last applied event's, as stored: revived once, at the end
        for index, (version, topic, data) in enumerate(records):
            plan = plans[topic] if topic in plans else self.plan(topic)
            if decoded is not None:
                state = decoded[index]
            else:
                state = None if plan is None or aggregate is None else self.decode(data, plan)
            if state is None:  # the library's path: its mapper, its event's mutate
                if timestamp is not None:
                    aggregate._modified_on = self.revive(timestamp)
                    timestamp = None
                stored = StoredEvent(originator_id=aggregate_id, originator_version=version, topic=topic, state=data)
                aggregate = self.mapper.to_domain_event(stored).mutate(aggregate)  # type: ignore[attr-defined]
                continue
            assert plan is not None
            expected_version = aggregate._version + 1
            if version != expected_version:
                raise OriginatorVersionError(version, expected_version)
            timestamp = state.pop("timestamp")
            if plan.takes_timestamp:
                state["timestamp"] = self.revive(timestamp)
            names = plan.names
            if names.issuperset(state):
                plan.func(aggregate, **state)
            else:  # the library passes only what the method names
                plan.func(aggregate, **{k: v for k, v in state.items() if k in names})
            aggregate._version = version
        if timestamp is not None:
            aggregate._modified_on = self.revive(timestamp)
        return aggregate


def record_reader(recorder: Any) -> Callable[..., list[Record]]:
    """The recorder's ``select_records`` (a store of ours: infrastructure/record_reads.py), else its
    ``select_events`` made into records."""
    lean = getattr(recorder, "select_records", None)
    if lean is not None:
        return cast(Callable[..., list[Record]], lean)

    def select_records(originator_id: Any, **kwargs: Any) -> list[Record]:
        return [(e.originator_version, e.topic, e.state) for e in recorder.select_events(originator_id, **kwargs)]

    return select_records
