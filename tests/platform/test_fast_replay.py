"""The repository's own projector (application/replay.py, issue 16's P4) against the library's.

A match is rebuilt from its stored records by our ``Replayer``: orjson, the event's ``@event`` method
called directly, no event object. It must give exactly what the library's mapper and ``mutate`` give
(every attribute, its type, the version, ``modified_on``) for every event type, every game, every
version, on both stores, and fall back to the library for anything it cannot be sure of.
"""

from __future__ import annotations

import copy
import json
import random
from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.domain import OriginatorVersionError
from eventsourcing.utils import get_topic

from application import replay, snapshots
from application.history import History
from application.views import Viewer
from domain.match import Match
from tests.conftest import Clock
from tests.platform.test_match_story import random_step, seat_players, started_match

GAMES = [("jest", 3, {}), ("jester", 2, {}), ("fools-crown", 3, {}), ("tumult-royale", 3, {}),
         ("le-bouffon", 3, {"deals": 1})]
#: Every event type a match has (its @event methods): the lifecycle story must store each one.
MATCH_EVENTS = {get_topic(cls) for cls in vars(Match).values()
                if isinstance(cls, type) and issubclass(cls, Match.Event) and cls is not Match.Event}


def library_replay(app: Any, match_id: Any, lte: Any = None) -> Any:
    aggregate = None
    for domain_event in app.events.get(match_id, lte=lte):
        aggregate = domain_event.mutate(aggregate)
    return aggregate


def assert_same(ours: Any, theirs: Any, where: Any) -> None:
    """Equal attributes, of the same types (a tuple is no list, 1 is no 1.0), in the same order."""
    assert type(ours) is type(theirs), where
    assert vars(ours) == vars(theirs), where
    assert repr(vars(ours)) == repr(vars(theirs)), where
    assert (ours.version, ours.modified_on, ours.created_on) == (theirs.version, theirs.modified_on, theirs.created_on)


def as_json(aggregate: Any) -> str:
    return json.dumps(vars(aggregate), default=str, sort_keys=True)


def assert_replays_alike(app: Any, match_id: Any) -> tuple[set, int]:
    """Our replay equals the library's after every event, for the whole match at once, and through the
    repository at every version (without snapshots exactly; with them as JSON, the snapshot's own
    transcoding turning tuples into lists). Answers the topics seen and how many records took our
    path (the rest took the library's)."""
    repository, replayer = app.repository, app.repository.replayer
    records = repository.records(match_id)
    events = list(app.events.get(match_id))
    assert [r[0] for r in records] == [e.originator_version for e in events] == list(range(1, len(events) + 1))
    ours = theirs = None
    references = {}
    fast = 0
    for record, domain_event in zip(records, events):
        theirs = domain_event.mutate(theirs)
        ours = replayer.project(ours, match_id, [record])
        assert_same(ours, theirs, record[:2])
        references[record[0]] = copy.deepcopy(theirs)
        plan = replayer.plan(record[1])
        decoded = None if plan is None else replayer.decode(record[2], plan)
        if decoded is not None:  # our decoder: what the library's transcoder gives, the timestamp aside
            fast += 1
            decoded["timestamp"] = replayer.revive(decoded["timestamp"])
            assert decoded == app.mapper.transcoder.decode(record[2]), record[:2]
    # Once each event type's revivable keys are learned, a whole match is decoded in one call: each
    # record as decode had it (the library's path for the creation and any record with a long run of
    # digits, as a revealed seed's hex has now and then).
    together = replayer.decode_all(records, creating=True)
    assert together is not None
    assert [state is None for state in together] == [
        index == 0 or replayer.decode(record[2], replayer.plan(record[1])) is None
        for index, record in enumerate(records)]
    assert_same(replayer.project(None, match_id, records), theirs, "the whole match at once")
    last = len(records)
    versions = range(1, last + 1) if last <= 120 else sorted(
        {*range(1, last + 1, 7), *range(snapshots.WINDOW - 3, snapshots.WINDOW + 4), last - 1, last})
    snapshot_store = repository.snapshot_store
    try:
        repository.snapshot_store = None  # every event replayed
        for version in versions:
            assert_same(repository.get(match_id, version=version), references[version], ("no snapshot", version))
    finally:
        repository.snapshot_store = snapshot_store
    for version in versions:
        assert as_json(repository.get(match_id, version=version)) == as_json(references[version]), version
    return {r[1] for r in records}, fast


def play_out(app: Any, clock: Clock, match_id: Any, players: list, rng: random.Random, moves: int = 5000) -> Match:
    """Random legal moves (each stating the version it saw), automatic steps, timeouts once a timed
    phase's or turn's deadline is past, until the match is finished or ``moves`` were tried."""
    for _ in range(moves):
        match = app.get_match(match_id)
        if match.status != "active":
            return match
        clock.now += timedelta(seconds=1)  # clear of any cooldown; a timed phase may run out
        late = [t for t in (match.timer, match.turn_clock) if t is not None and clock.now >= t["deadline"]]
        if late:
            app.close_timed_phase(match_id, late[0]["phase"])
            continue
        random_step(app, match, players, rng, expected_version=match.version)
    return app.get_match(match_id)


@pytest.mark.parametrize("game, seats, options", GAMES)
def test_whole_matches_of_every_game_replay_as_the_library_does(clocked, seed, game, seats, options):
    container, clock = clocked
    app, rng = container.app, random.Random(seed)
    players = seat_players(app, seats)
    match_id = started_match(app, players, game, options)
    assert play_out(app, clock, match_id, players, rng).status == "finished"
    topics, fast = assert_replays_alike(app, match_id)
    assert {"domain.match:Match.MoveMade", "domain.match:Match.Finished"} <= topics
    slow = sum(1 for r in container.app.repository.records(match_id)[1:] if not replay._plain(r[2]))
    assert fast == app.get_match(match_id).version - 1 - slow, "every event but the creation takes our path"


def test_every_event_type_of_a_match_replays_as_the_library_does(clocked, seed):
    container, clock = clocked
    app, rng = container.app, random.Random(seed)
    ann, bob, cy, dee = seat_players(app, 4)
    touched = []

    # Unlisted, with versions required, a turn limit to claim by, an invitation: the creation's events.
    claimable = app.create_match_once(ann, "jest", 3, {}, {}, True, True, None,
                                      turn_limit={"seconds": 30, "on_timeout": "claim"}, unlisted=True,
                                      require_version=True).match.id
    touched.append(claimable)
    app.invite(claimable, ann, dee.id)
    app.join_match(claimable, ann)
    app.join_match(claimable, dee)
    app.leave_match(claimable, dee)
    code = app.get_match(claimable).invitation
    app.join_match(claimable, bob, code=code)
    app.join_match(claimable, cy, code=code)
    app.start_match(claimable, ann)  # chance, the turn clock
    match = app.get_match(claimable)
    for seat, player in ((0, ann), (1, bob)):  # cy does not move: its turn runs out
        action = rng.choice(match.engine.legal_actions(match.state, seat))
        match = app.submit_move(claimable, player, action, expected_version=match.version).match or match
    clock.now += timedelta(seconds=31)
    match = app.get_match(claimable)
    app.close_timed_phase(claimable, match.turn_clock["phase"])
    match = app.get_match(claimable)
    assert match.absent == (2,)
    action = rng.choice(match.engine.legal_actions(match.state, 2))
    app.submit_move(claimable, cy, action, expected_version=match.version)  # back: SeatReturned
    play_out(app, clock, claimable, [ann, bob, None], rng, moves=60)  # cy is away again
    match = app.get_match(claimable)
    if match.status == "active":
        clock.now += timedelta(seconds=31)
        if match.turn_clock is not None:
            app.close_timed_phase(claimable, match.turn_clock["phase"])
        match = app.get_match(claimable)
        if match.absent and match.status == "active":
            present = next(p for s, p in enumerate((ann, bob, cy)) if s not in match.absent)
            app.claim_match(claimable, present)

    # Resignations end a match; its rematch is linked, then cancelled; a fork of it resumes.
    resigned = app.create_match(ann, "jest", 3, {}, {})
    touched.append(resigned)
    for player in (ann, bob, cy):
        app.join_match(resigned, player)
    app.start_match(resigned, ann)
    started_at = app.get_match(resigned).version
    app.resign_match(resigned, bob)
    app.resign_match(resigned, cy)
    assert app.get_match(resigned).status == "finished"
    rematch, _ = app.rematch(resigned, ann)
    touched.append(rematch)
    app.join_match(rematch, bob)
    app.leave_match(rematch, bob)  # the seat kept for bob is released
    app.cancel_match(rematch, ann)
    fork = History(app).fork(resigned, Viewer.the_auditor(), started_at, {}, str(ann.id)).id  # reopened
    touched.append(fork)
    for player in (ann, bob, cy):
        app.join_match(fork, player)
    app.start_match(fork, ann)  # resumed

    # A turn limit the computer stands in for: every turn's clock started, and stopped at the end.
    limited = app.create_match_once(ann, "jest", 3, {}, {}, True, True, None,
                                    turn_limit={"seconds": 30, "on_timeout": "computer"}).match.id
    touched.append(limited)
    for player in (ann, bob, cy):
        app.join_match(limited, player)
    app.start_match(limited, ann)
    assert play_out(app, clock, limited, [ann, bob, cy], rng).status == "finished"

    # A timed phase (Tumult Royale's): timers started, cleared and run out.
    timed = app.create_match(ann, "tumult-royale", 2, {}, {})
    touched.append(timed)
    for player in (ann, bob):
        app.join_match(timed, player)
    app.start_match(timed, ann)
    for _ in range(40):
        match = play_out(app, clock, timed, [ann, bob], rng, moves=25)
        if match.status != "active":
            break
        if match.timer is not None:
            clock.now = match.timer["deadline"] + timedelta(seconds=1)

    # To be claimed, with only computers left present once ann's time runs out: abandoned.
    abandoned = app.create_match_once(ann, "jest", 3, {}, {1: "random", 2: "random"}, True, True, None,
                                      turn_limit={"seconds": 30, "on_timeout": "claim"}).match.id
    touched.append(abandoned)
    app.join_match(abandoned, ann)
    app.start_match(abandoned, ann)
    clock.now += timedelta(seconds=31)
    app.close_timed_phase(abandoned, app.get_match(abandoned).turn_clock["phase"])
    assert app.get_match(abandoned).status == "finished"

    # A clock that ran out while the service was down, closed by the start-up sweep: extended.
    extended = app.create_match_once(ann, "jester", 2, {}, {}, True, True, None,
                                     turn_limit={"seconds": 30, "on_timeout": "claim"}).match.id
    touched.append(extended)
    for player in (ann, bob):
        app.join_match(extended, player)
    app.start_match(extended, ann)
    clock.now += timedelta(seconds=31)
    app.close_timed_phase(extended, app.get_match(extended).turn_clock["phase"], clock.now.isoformat())
    assert app.get_match(extended).turn_clock["deadline"] == clock.now + timedelta(seconds=30)

    # A tournament table whose absent player the organiser forfeits: forfeited, resigned, finished.
    tournament, _ = container.tournaments.create(ann, {"game": "jester", "name": "t", "rounds": 1, "table_size": 2,
                                                       "format": "swiss", "round_deadline_seconds": 60})
    for player in (bob, cy):
        container.tournaments.register(tournament, player)
    container.tournaments.start(tournament, ann)
    (table,) = container.tournaments.get(tournament).rounds[0]["tables"]
    clock.now += timedelta(seconds=61)
    container.tournaments.forfeit(tournament, ann, [table["players"][1]])
    touched.append(UUID(table["match_id"]))
    assert app.get_match(table["match_id"]).status == "finished"
    # Voided once finished: its result stays, counted for nobody (ResultVoided).
    container.tournaments.sanction(tournament, ann, {"kind": "void", "match_id": table["match_id"], "reason": "f"})
    assert app.get_match(table["match_id"]).voided == "f"

    # A tournament table the organiser voids while it is played: voided, cancelled.
    tournament, _ = container.tournaments.create(ann, {"game": "jester", "name": "v", "rounds": 1, "table_size": 2,
                                                       "format": "swiss"})
    for player in (bob, cy):
        container.tournaments.register(tournament, player)
    container.tournaments.start(tournament, ann)
    (table,) = container.tournaments.get(tournament).rounds[0]["tables"]
    container.tournaments.sanction(tournament, ann, {"kind": "void", "match_id": table["match_id"], "reason": "r"})
    touched.append(UUID(table["match_id"]))
    assert app.get_match(table["match_id"]).status == "cancelled"

    covered: set = set()
    for match_id in touched:
        topics, fast = assert_replays_alike(app, match_id)
        covered |= topics
        records = app.repository.records(match_id)
        slow = sum(1 for r in records[1:] if not replay._plain(r[2]))  # a revealed seed's digits, now and then
        assert fast == len(records) - 1 - slow, "every event but the creation takes our path"
    assert MATCH_EVENTS <= covered, f"the story stored no {sorted(MATCH_EVENTS - covered)}"


def test_records_it_cannot_be_sure_of_take_the_library_path(clocked):
    """Escapes, a "_type_" in a value, a revivable dict nested in a value or at the top, a number past
    64 bits, NaN, an unregistered transcoding, an unknown topic, a gap in the versions: each gives
    exactly what the library gives, or the same error."""
    container, _ = clocked
    app = container.app
    replayer = app.repository.replayer
    ann, = seat_players(app, 1)
    match_id = app.create_match(ann, "jest", 3, {}, {})
    created = app.repository.records(match_id)[0]
    stamp = '{"_type_":"datetime_iso","_data_":"2026-01-01T00:00:01.500000+00:00"}'
    hexed = uuid4().hex
    seat_taken = "domain.match:Match.SeatTaken"
    names = {
        "plain": '"ann"',
        "escape": '"a\\u0007b"',
        "escaped key": '{"\\u005ftype_":"uuid_hex","_data_":"' + hexed + '"}',
        "a _type_ string": '"_type_"',
        "revivable at the top": '{"_type_":"uuid_hex","_data_":"' + hexed + '"}',
        "revivable nested": '[{"_type_":"uuid_hex","_data_":"' + hexed + '"}]',
        "past 64 bits": str(2**70),
        "NaN": "NaN",
        "unregistered": '{"_type_":"no-such-type","_data_":1}',
        "a float": "1.0000000000000002",
        "unicode": '"Zoë 🃏"',
    }
    for label, name in names.items():
        data = ('{"timestamp":' + stamp + ',"seat":1,"player_id":"p","name":' + name + "}").encode()
        records = [created, (2, seat_taken, data)]
        try:
            theirs: Any = library_replay_records(app, match_id, records)
        except Exception as error:  # noqa: BLE001 - the same error is expected of ours
            with pytest.raises(type(error)):
                replayer.project(None, match_id, records)
            continue
        assert_same(replayer.project(None, match_id, records), theirs, label)
    revivable = ('{"timestamp":' + stamp + ',"seat":1,"player_id":"p","name":"ann"}').encode()
    assert replayer.decode(revivable, replayer.plan(seat_taken)) is not None  # ours, for once
    assert replayer.decode_all([created, (2, seat_taken, revivable)], creating=True) is not None
    # A record the library decodes anyway (the creation: its chance commitment is hex, with a run of
    # 19 digits now and then) does not stop the others being decoded together.
    digits = (created[0], created[1], created[2][:-1] + b',"commitment":"12345678901234567890123"}')
    decoded = replayer.decode_all([digits, (2, seat_taken, revivable)], creating=True)
    assert decoded is not None and decoded[0] is None and decoded[1] is not None
    for label in ("escape", "escaped key", "a _type_ string", "revivable nested", "past 64 bits", "NaN"):
        data = ('{"timestamp":' + stamp + ',"seat":1,"player_id":"p","name":' + names[label] + "}").encode()
        assert replayer.decode(data, replayer.plan(seat_taken)) is None, label  # the library's
        together = replayer.decode_all([created, (2, seat_taken, data), (3, seat_taken, revivable)], True)
        if label in ("escape", "escaped key", "past 64 bits"):  # seen in its bytes: left to the library,
            assert together is not None and together[:2] == [None, None] and together[2] is not None, label
        else:  # seen only once decoded: the whole batch is decoded record by record
            assert together is None, label
    # A finished match's revealed seed: 64 hex digits, 19 of them decimal in a row now and then.
    seeded = ('{"timestamp":' + stamp + ',"seat":1,"player_id":"p","name":"ann","seed":"ab'
              + "1234567890123456789" + 'cd"}').encode()
    assert replayer.decode(seeded, replayer.plan(seat_taken)) is None
    together = replayer.decode_all([created, (2, seat_taken, revivable), (3, seat_taken, seeded)], True)
    assert together is not None and together[1] is not None and together[2] is None
    assert_same(replayer.project(None, match_id, [created, (2, seat_taken, revivable), (3, seat_taken, seeded)]),
                library_replay_records(app, match_id, [created, (2, seat_taken, revivable), (3, seat_taken, seeded)]),
                "a long run of digits")

    # An event type no code knows any more, or a version missing: the library's errors.
    unknown = [created, (2, "domain.match:Match.NoSuchEvent", revivable)]
    with pytest.raises(Exception) as theirs_error:
        library_replay_records(app, match_id, unknown)
    with pytest.raises(type(theirs_error.value)):
        replayer.project(None, match_id, unknown)
    gap = [created, (3, seat_taken, revivable)]
    with pytest.raises(OriginatorVersionError):
        library_replay_records(app, match_id, gap)
    with pytest.raises(OriginatorVersionError):
        replayer.project(None, match_id, gap)


def library_replay_records(app: Any, match_id: Any, records: list) -> Any:
    from eventsourcing.persistence import StoredEvent

    aggregate = None
    for version, topic, data in records:
        stored = StoredEvent(originator_id=match_id, originator_version=version, topic=topic, state=data)
        aggregate = app.mapper.to_domain_event(stored).mutate(aggregate)
    return aggregate


def test_a_cold_read_asks_the_store_once_for_a_short_match_and_twice_for_a_long_one(clocked, seed):
    container, clock = clocked
    app, rng = container.app, random.Random(seed)
    players = seat_players(app, 3)
    match_id = app.create_match(players[0], "le-bouffon", 3, {"deals": 2}, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    assert play_out(app, clock, match_id, players, rng).status == "finished"
    last = app.get_match(match_id).version
    assert last > 2 * snapshots.WINDOW
    repository = app.repository
    calls: list = []

    def counted(name: str, select: Any) -> Any:
        def select_records(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return select(*args, **kwargs)
        return select_records

    repository.records = counted("events", repository.records)
    repository.snapshot_records = counted("snapshots", repository.snapshot_records)
    for version, expected in [(1, ["events"]), (snapshots.WINDOW, ["events"]), (last, ["events", "snapshots"]),
                              (snapshots.WINDOW + 5, ["events", "snapshots"])]:
        calls.clear()
        match = repository.get(match_id, version=version)
        assert match.version == version and calls == expected, (version, calls)
    # No valid snapshot within reach (another key, say): the events between are read, a third query.
    calls.clear()
    repository.snapshot_records = counted("snapshots", lambda *args, **kwargs: [])
    assert_same(repository.get(match_id, version=last), library_replay(app, match_id), "without snapshots")
    assert calls == ["events", "snapshots", "events"]
    # The cache fast-forwards with one query, through our projector.
    repository.cache.__init__(maxsize=10)
    assert app.read_match(match_id).version == last
    calls.clear()
    assert app.read_match(match_id).version == last and calls == ["events"]


@pytest.mark.parametrize("query", [{}, {"gt": 3}, {"lte": 7}, {"gt": 2, "lte": 9}, {"desc": True, "limit": 4},
                                   {"lte": 8, "desc": True, "limit": 3}, {"gt": 1, "limit": 2}, {"gt": 99}])
def test_a_stores_records_are_its_stored_events(clocked, query):
    container, _ = clocked
    app = container.app
    players = seat_players(app, 3)
    match_id = app.create_match(players[0], "jest", 3, {}, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    assert hasattr(app.recorder, "select_records") and hasattr(app.snapshots.recorder, "select_records")
    stored = [(e.originator_version, e.topic, e.state) for e in app.recorder.select_events(match_id, **query)]
    records = app.recorder.select_records(match_id, **query)
    assert [tuple(r) for r in records] == stored and all(type(r[2]) is bytes for r in records)
