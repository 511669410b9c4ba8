"""Reading an aggregate's stored events as plain records, for the replay (issue 16, P4).

The library's ``select_events`` composes its SQL anew for every call (psycopg renders the composed
statement each time), fetches each row as a dict, parses its ``originator_id`` back into a UUID that
the caller already has, and wraps it in a frozen ``StoredEvent``: on a 2-core machine about 150 us a
call and 2 to 3 us a row, as much as the game's engine spends applying the event.
``select_records`` takes the same arguments and answers ``(originator_version, topic, state)``
tuples: its statements are rendered once, rows come as tuples (PostgreSQL: in binary, so ``state``
is not hex-decoded), the id is not read back. application/replay.py finds it on the recorder
(``record_reader``) and falls back to ``select_events`` for a store without it.

The mixins go in front of the library's recorder classes: ``MotleyPostgresFactory``
(infrastructure/postgres_store.py) and ``MotleySQLiteFactory`` (here) build the events and snapshot
recorders with them.
"""

from __future__ import annotations

from typing import Any, Optional
from uuid import UUID

from eventsourcing import sqlite as sqlite_library
from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder
from eventsourcing.utils import retry
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

Record = tuple[int, str, bytes]
#: Which optional clauses a select has: (gt, lte, desc, limit).
Shape = tuple[bool, bool, bool, bool]


class PostgresRecordReads:
    """``select_records`` for a PostgreSQL recorder (``PostgresAggregateRecorder`` and subclasses)."""

    datastore: Any
    events_table_name: str

    def _record_statement(self, conn: Any, shape: Shape) -> str:
        statements: dict[Shape, str] = self.__dict__.setdefault("_record_statements", {})
        statement = statements.get(shape)
        if statement is None:
            gt, lte, desc, limit = shape
            composed = SQL("SELECT originator_version, topic, state FROM {schema}.{table} WHERE originator_id = %s"
                           ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
            if gt:
                composed += SQL(" AND originator_version > %s")
            if lte:
                composed += SQL(" AND originator_version <= %s")
            composed += SQL(" ORDER BY originator_version DESC" if desc else " ORDER BY originator_version ASC")
            if limit:
                composed += SQL(" LIMIT %s")
            statement = statements[shape] = composed.as_string(conn)
        return statement

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_records(self, originator_id: UUID | str, *, gt: Optional[int] = None, lte: Optional[int] = None,
                       desc: bool = False, limit: Optional[int] = None) -> list[Record]:
        params: list[Any] = [originator_id]
        params.extend(value for value in (gt, lte, limit) if value is not None)
        shape = (gt is not None, lte is not None, desc, limit is not None)
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(self._record_statement(conn, shape), params, prepare=True, binary=True)
            return curs.fetchall()


class RecordReadingPostgresAggregateRecorder(PostgresRecordReads, PostgresAggregateRecorder):
    """The library's aggregate recorder (the snapshots table) with ``select_records``."""


class SQLiteRecordReads:
    """``select_records`` for an SQLite recorder (``SQLiteAggregateRecorder`` and subclasses)."""

    datastore: Any
    events_table_name: str

    def select_records(self, originator_id: UUID | str, *, gt: Optional[int] = None, lte: Optional[int] = None,
                       desc: bool = False, limit: Optional[int] = None) -> list[Record]:
        statements: dict[Shape, str] = self.__dict__.setdefault("_record_statements", {})
        shape = (gt is not None, lte is not None, desc, limit is not None)
        statement = statements.get(shape)
        if statement is None:
            statement = (f"SELECT originator_version, topic, state FROM {self.events_table_name} "
                         "WHERE originator_id=? "
                         + ("AND originator_version>? " if gt is not None else "")
                         + ("AND originator_version<=? " if lte is not None else "")
                         + ("ORDER BY originator_version DESC " if desc else "ORDER BY originator_version ASC ")
                         + ("LIMIT ? " if limit is not None else ""))
            statements[shape] = statement
        params: list[Any] = [originator_id.hex if isinstance(originator_id, UUID) else originator_id]
        params.extend(value for value in (gt, lte, limit) if value is not None)
        with self.datastore.transaction(commit=False) as curs:  # the sqlite3 cursor itself
            curs.row_factory = None  # tuples, not the connection's sqlite3.Row
            curs.execute(statement, params)
            return curs.fetchall()


class RecordReadingSQLiteAggregateRecorder(SQLiteRecordReads, SQLiteAggregateRecorder):
    """The library's SQLite aggregate recorder (the snapshots table) with ``select_records``."""


class RecordReadingSQLiteApplicationRecorder(SQLiteRecordReads, SQLiteApplicationRecorder):
    """The library's SQLite application recorder (the events table) with ``select_records``."""


class MotleySQLiteFactory(sqlite_library.SQLiteFactory):
    """The library's SQLite factory, its events and snapshots recorders reading records too."""

    aggregate_recorder_class = RecordReadingSQLiteAggregateRecorder
    application_recorder_class = RecordReadingSQLiteApplicationRecorder


Factory = MotleySQLiteFactory
