"""The save of the events table as one statement, with the table lock inside it (issue 16;
infrastructure/postgres_store.py), on real PostgreSQL, each test on a fresh schema.

Statements are counted in libpq's own trace of the protocol (``PGconn.trace``): every statement the
server runs is an Execute (extended protocol) or a Query (simple protocol) message from the client,
BEGIN and COMMIT included, whoever sends them.
"""

from __future__ import annotations

import copy
import tempfile
import threading
import uuid
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresProcessRecorder
from eventsourcing.utils import Environment
from psycopg import pq

from application.ports import NoTaskQueue
from domain.player import Player, key_id
from infrastructure.composition import build
from infrastructure.postgres_store import MotleyPostgresFactory, OneStatementApplicationRecorder
from tests.conftest import PG, create_schema, drop_schema, pg_settings


class ProtocolTrace:
    """What the client sent on the connections ``datastore`` handed out while ``active()``."""

    def __init__(self, datastore: Any):
        self.datastore = datastore
        self.lines: list[list[str]] = []
        self._lock = threading.Lock()

    @contextmanager
    def active(self) -> Iterator[ProtocolTrace]:
        through_pool = self.datastore.get_connection

        @contextmanager
        def traced() -> Iterator[Any]:
            with through_pool() as conn, tempfile.TemporaryFile("w+") as log:
                conn.pgconn.trace(log.fileno())
                conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
                try:
                    yield conn
                finally:
                    conn.pgconn.untrace()  # flushes libpq's buffer
                    log.seek(0)
                    with self._lock:
                        self.lines.extend(line.rstrip("\n").split("\t") for line in log if line.strip())

        self.datastore.get_connection = traced
        try:
            yield self
        finally:
            self.datastore.get_connection = through_pool

    def sent(self, *kinds: str) -> list[list[str]]:
        return [line for line in self.lines if line[0] == "F" and line[2].split()[0] in kinds]

    @property
    def statements(self) -> int:
        return len(self.sent("Execute", "Query"))

    @property
    def completed(self) -> list[str]:
        """The server's command tags, one a statement run: "SELECT 1", "BEGIN", "LOCK TABLE"..."""
        return [line[3].strip().strip('"') for line in self.lines if line[0] == "B" and line[2] == "CommandComplete"]


@pytest.fixture
def schema():
    name = f"s_{uuid.uuid4().hex[:12]}"
    create_schema(name)
    yield name
    drop_schema(name)


@pytest.fixture
def container(schema):
    built = build(pg_settings(schema, postgres_pool_size=5), tasks=NoTaskQueue())
    yield built
    built.close()


def events(originator_id: Any, *versions: int) -> list[StoredEvent]:
    return [StoredEvent(originator_id, v, "tests.save:Happened", f'{{"v":{v}}}'.encode()) for v in versions]


def test_the_settings_select_our_recorder_and_the_lock_is_in_the_function(container, schema):
    recorder = container.app.recorder
    assert type(container.app.factory) is MotleyPostgresFactory
    assert type(recorder) is OneStatementApplicationRecorder
    with psycopg.connect(**PG) as conn:
        source = conn.execute(
            "SELECT p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = %s AND p.proname = %s", (schema, "motley_events_insert")).fetchone()
        shipped = conn.execute(
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = %s AND p.proname LIKE 'es_insert_events%%'", (schema,)).fetchone()
    assert source is not None
    body = source[0]
    assert body.index("LOCK TABLE") < body.index("INSERT INTO"), body
    assert "IN EXCLUSIVE MODE" in body and "pg_notify" in body and "lock_timeout" in body
    assert shipped == (0,)  # the library's lock-less function is not created


def test_a_save_sends_one_statement_and_the_library_path_sends_six(container, schema):
    app = container.app
    datastore = app.factory.datastore  # type: ignore[attr-defined]
    app.save(Player(name="warm-up", key_hash="0" * 64))
    for _ in range(3):
        player = Player(name="one statement", key_hash="1" * 64)
        with ProtocolTrace(datastore).active() as trace:
            recordings = app.save(player)
        assert trace.statements == 1, trace.lines
        assert len(trace.completed) == 1 and trace.completed[0].startswith("SELECT"), trace.completed
        # One round trip, plus a Parse the first time a pooled connection meets the statement.
        assert len(trace.sent("Sync")) <= 2, trace.lines
        assert app.repository.get(player.id).name == "one statement"
        assert recordings[-1].notification.id == app.recorder.max_notification_id()

    player = Player(name="two events", key_hash="2" * 64)
    player.add_key("3" * 64)
    with ProtocolTrace(datastore).active() as trace:
        recordings = app.save(player)
    assert trace.statements == 1
    assert [r.notification.id for r in recordings] == [recordings[0].notification.id + i for i in (0, 1)]

    # The same count on the library's recorder: the assertion above would fail there.
    library = PostgresApplicationRecorder(datastore, events_table_name="library_events")
    library.create_table()
    library.insert_events(events(uuid.uuid4(), 1))
    with ProtocolTrace(datastore).active() as trace:
        library.insert_events(events(uuid.uuid4(), 1, 2))
    assert trace.statements == 6, trace.lines
    assert trace.completed == ["BEGIN", "SET", "LOCK TABLE", "NOTIFY", "INSERT 0 2", "COMMIT"]


def test_a_save_still_notifies_the_channel_the_library_listens_on(schema):
    env = Environment("motley", pg_settings(schema, postgres_pool_size=1).eventsourcing_env()
                      | {"POSTGRES_MAX_OVERFLOW": "0"})
    factory = MotleyPostgresFactory(env)
    try:
        recorder = factory.application_recorder()
        assert recorder.channel_name == "motley_events"
        with factory.datastore.get_connection() as conn:
            saver_pid = conn.info.backend_pid  # the pool's only connection
        with psycopg.connect(**PG, autocommit=True) as listener:
            listener.execute('LISTEN "motley_events"')
            recorder.insert_events(events(uuid.uuid4(), 1))
            # Other schemas' tests share the channel name: wait for the notification of our save.
            ours = [n for n in listener.notifies(timeout=5) if n.pid == saver_pid][:1]
            assert ours and ours[0].channel == "motley_events"
    finally:
        factory.close()


def test_concurrent_saves_are_never_skipped_by_a_follower_reading_in_order(container):
    recorder = container.app.recorder
    writers, saves_each = 4, 120
    saved: list[int] = []
    saved_lock = threading.Lock()
    done = threading.Event()
    errors: list[BaseException] = []

    def write(seed: int) -> None:
        try:
            for i in range(saves_each):
                ids = recorder.insert_events(events(uuid.uuid4(), *range(1, 2 + (seed + i) % 3)))
                assert ids is not None
                with saved_lock:
                    saved.extend(ids)
        except BaseException as error:  # reported below
            errors.append(error)

    seen: list[int] = []

    def follow() -> None:
        position = 0
        while True:
            finished = done.is_set()  # read before the select: a last pass after the writers end
            batch = recorder.select_notifications(position, 50, inclusive_of_start=False)
            for notification in batch:
                seen.append(notification.id)
                position = notification.id
            if finished and not batch:
                return

    follower = threading.Thread(target=follow)
    follower.start()
    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    follower.join(timeout=60)
    assert not errors, errors
    assert not follower.is_alive()
    expected = sum(1 + (n + i) % 3 for n in range(writers) for i in range(saves_each))
    assert len(saved) == expected
    # The follower saw every id exactly once, in order: none became visible behind its position.
    assert seen == sorted(saved)
    assert seen == list(range(seen[0], seen[0] + expected))  # and no id was drawn and lost


def test_two_saves_of_the_same_version_integrity_error_and_nothing_appended(container):
    app, recorder = container.app, container.app.recorder
    originator, bystander = uuid.uuid4(), uuid.uuid4()
    assert recorder.insert_events(events(originator, 1, 2)) == [1, 2]
    with pytest.raises(IntegrityError):
        recorder.insert_events(events(bystander, 1) + events(originator, 2, 3))
    assert recorder.max_notification_id() == 2
    assert [e.originator_version for e in recorder.select_events(originator)] == [1, 2]
    assert recorder.select_events(bystander) == []
    assert recorder.insert_events(events(bystander, 1)) is not None  # the store is still usable

    # Through the application, as the service's retry meets it (application/service.py, _move).
    player = Player(name="racer", key_hash="4" * 64)
    app.save(player)
    first, second = app.repository.get(player.id), copy.deepcopy(app.repository.get(player.id))
    first.add_key("5" * 64)
    second.add_key("6" * 64)
    app.save(first)
    position = recorder.max_notification_id()
    with pytest.raises(IntegrityError):
        app.save(second)
    assert recorder.max_notification_id() == position
    assert sorted(app.repository.get(player.id).keys) == sorted([key_id("4" * 64), key_id("5" * 64)])


def test_saves_with_a_tracking_record_keep_the_library_path(container):
    factory = container.app.factory
    process: Callable[[], Any] = factory.process_recorder
    recorder = process()
    assert type(recorder) is PostgresProcessRecorder
    ids = recorder.insert_events(events(uuid.uuid4(), 1), tracking=Tracking("upstream", 7))
    assert ids is not None and len(ids) == 1
    assert recorder.max_tracking_id("upstream") == 7
    with pytest.raises(IntegrityError):
        recorder.insert_events(events(uuid.uuid4(), 1), tracking=Tracking("upstream", 7))
