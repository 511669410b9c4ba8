"""The PostgreSQL event store: the library's, with the save of the events table as one statement (issue 16).

The library's ``PostgresApplicationRecorder.insert_events`` sends, in a pipelined transaction, BEGIN,
``SET LOCAL lock_timeout``, ``LOCK TABLE <events> IN EXCLUSIVE MODE``, ``NOTIFY``, the INSERT and
COMMIT: six statements a save. Here a PL/pgSQL function created with the tables, ``<table>_insert``,
does the same work and a save is one ``SELECT * FROM <table>_insert(events, lock_timeout)`` on an
autocommit connection: its statement is its transaction, so the commit costs nothing more.

Why the lock is inside the function: notification ids come from the table's sequence when a row is
inserted, but become visible when its transaction commits, and two transactions may commit in the
other order. A follower that reads "everything after my position" would then see id 8, move its
position past 7, and never see 7 when it commits a moment later. The EXCLUSIVE table lock (which
readers' ACCESS SHARE does not wait for) makes inserting transactions one at a time from before
their first id is drawn until after they commit, so ids become visible in order and a follower never
skips one. The lock must be taken in the same transaction as the insert, before it: the function
takes it as its first statement, and the statement's transaction holds it until the commit. The
library's own ``es_insert_events_<type>`` function (``POSTGRES_ENABLE_DB_FUNCTIONS``) leaves it out,
and is shared by every application of a schema; it is not created here (ours is named per table).

The function also sends ``pg_notify('<table>', '')``, the NOTIFY the library sends, which its
``subscribe()`` (and anything else that LISTENs on the channel) wakes on; our ``LogWatcher`` polls.
A duplicate (originator_id, originator_version) is PostgreSQL's unique violation, which the
datastore turns into the library's ``IntegrityError``, as before. A save with a tracking record
(a process recorder's) and an empty save keep the library's path; snapshots and tracking recorders
are the library's. ``PERSISTENCE_MODULE`` names ``MotleyPostgresFactory`` (infrastructure/settings.py).
"""

from __future__ import annotations

from typing import Any, Sequence

import psycopg
from eventsourcing import postgres as library
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier, Literal

from infrastructure.health import StoreLocked
from infrastructure.record_reads import PostgresRecordReads, RecordReadingPostgresAggregateRecorder

#: The PERSISTENCE_MODULE (a topic) that selects this store.
TOPIC = "infrastructure.postgres_store:MotleyPostgresFactory"


class OneStatementApplicationRecorder(PostgresRecordReads, PostgresApplicationRecorder):
    """The application recorder whose save is one statement: ``<events table>_insert(...)``."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self.insert_function_name = f"{self.events_table_name}_insert"
        self.check_identifier_length(self.insert_function_name)
        schema = Identifier(self.datastore.schema)
        function = Identifier(self.insert_function_name)
        # In place of the library's es_insert_events_<type> (no lock, one per schema).
        self.sql_create_statements[self.create_insert_function_statement_index] = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[], lock_timeout text) "
            "RETURNS SETOF bigint "
            "LANGUAGE plpgsql "
            "AS $BODY$\n"
            "BEGIN\n"
            # SET LOCAL: until this statement's transaction ends.
            "    PERFORM set_config('lock_timeout', lock_timeout, true);\n"
            # Before the first notification id is drawn, held until the commit (see the docstring).
            "    LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE;\n"
            "    PERFORM pg_notify({channel}, '');\n"
            "    RETURN QUERY "
            "    INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "    SELECT e.originator_id, e.originator_version, e.topic, e.state FROM unnest(events) AS e "
            "    RETURNING t.notification_id;\n"
            "END;\n"
            "$BODY$"
        ).format(
            schema=schema,
            function=function,
            event=Identifier(self.stored_event_type_name),
            table=Identifier(self.events_table_name),
            channel=Literal(self.channel_name),
        )
        self.insert_function_call = SQL(
            "SELECT n AS notification_id FROM {schema}.{function}(%s, %s) AS n"
        ).format(schema=schema, function=function)
        self.lock_timeout_setting = f"{int(self.datastore.lock_timeout)}s"
        # The server processes (backend pids) of the connections this recorder saved with: their
        # NOTIFYs are this process's own saves, which the application announces itself, so the log
        # listener passes them over (infrastructure/log_listener.py).
        self.saving_backends: set[int] = set()

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events or kwargs.get("tracking") is not None:
            return super().insert_events(stored_events, **kwargs)
        events = [
            self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events
        ]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            self.saving_backends.add(conn.info.backend_pid)  # before the NOTIFY can be heard
            # The pool's connections are in autocommit: the statement is the whole transaction. (On a
            # connection in a transaction, it joins it, and the lock is held until that commits.)
            try:
                curs.execute(self.insert_function_call, (events, self.lock_timeout_setting), prepare=True)
            except psycopg.errors.LockNotAvailable as error:  # raised here, so neither retried nor "away"
                raise StoreLocked(f"the events table stayed locked by another session for "
                                  f"{self.lock_timeout_setting} ({error.diag.message_primary})") from error
            return [row["notification_id"] for row in curs.fetchall()]


class MotleyPostgresFactory(library.PostgresFactory):
    """The library's PostgreSQL factory with the one-statement application recorder."""

    application_recorder_class = OneStatementApplicationRecorder
    aggregate_recorder_class = RecordReadingPostgresAggregateRecorder  # the snapshots (record_reads.py)


Factory = MotleyPostgresFactory
