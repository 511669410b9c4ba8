"""The league read models (ratings, statistics, rating histories, tournaments, standings, sanction
reports and the round keeper's table map) in one table of the event store's own database.

As in ``infrastructure/readmodels.py``, each class extends the library's tracking recorder for its
backend, so the rows and the tracking position are written in one transaction; each follower has
its own tracking name, so the match list, the round keeper and the league projection keep separate
positions in the one tracking table.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier

from application.ports import Doc, DocPage, LeagueView
from infrastructure.readmodels import storable

TABLE = "motley_league"
COLUMNS = ("kind", "grp", "key", "tag", "sort", "data")


class _Shared(LeagueView, TrackingRecorder):
    p = "%s"  # the backend's placeholder
    columns = COLUMNS  # what its reads select (readiness selects them: infrastructure/composition.py)
    qualified: str  # the table's name, schema-qualified where the backend has schemas
    datastore: Any  # the backend recorder's

    def _current(self, curs: Any, name: str) -> int:
        raise NotImplementedError

    def position(self, application_name: str) -> int:
        return self.max_tracking_id(application_name) or 0

    # The port's wait answers whether the position was reached; the library's raises TimeoutError.
    def wait(self, application_name: str, position: int, timeout: float) -> bool:  # type: ignore[override]
        try:
            TrackingRecorder.wait(self, application_name, position, timeout=timeout)
        except TimeoutError:
            return False
        return True

    @staticmethod
    def _doc(record: Sequence) -> Doc:
        kind, grp, key, tag, sort, data = record
        return Doc(kind, grp, key, tag, float(sort), json.loads(data) if isinstance(data, str) else data)

    @staticmethod
    def _values(doc: Doc) -> list:
        # A stored event may hold any text (a name from before names were checked): keep what the
        # column can store rather than wedge the projection on it.
        return [doc.kind, doc.group, doc.key, doc.tag, doc.sort, json.dumps(storable(doc.data), sort_keys=True)]

    def _where(self, kind: str, group: Optional[str], tag: Optional[str]) -> tuple[str, list]:
        clauses, params = [f"kind = {self.p}"], [kind]
        if group is not None:
            clauses.append(f"grp = {self.p}")
            params.append(group)
        if tag is not None:
            clauses.append(f"tag = {self.p}")
            params.append(tag)
        return " WHERE " + " AND ".join(clauses), params

    def _select(self, sql: str, params: list) -> list[tuple]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return [self._record(r) for r in curs.fetchall()]

    def _record(self, row: Any) -> tuple:
        return tuple(row)

    def get(self, kind: str, group: str, key: str) -> Optional[Doc]:
        return self.get_many([(kind, group, key)]).get((kind, group, key))

    #: Keys a ``get_many`` statement asks for at most (3 parameters each, within SQLite's 32,766).
    MANY = 500

    def get_many(self, keys: Sequence[tuple[str, str, str]]) -> dict[tuple[str, str, str], Doc]:
        wanted = list(dict.fromkeys(keys))
        found: dict[tuple[str, str, str], Doc] = {}
        for at in range(0, len(wanted), self.MANY):
            chunk = wanted[at:at + self.MANY]
            rows = ", ".join([f"({self.p}, {self.p}, {self.p})"] * len(chunk))
            for record in self._select(
                    f"SELECT {', '.join(COLUMNS)} FROM {self.qualified} WHERE (kind, grp, key) IN ({rows})",
                    [value for key in chunk for value in key]):
                doc = self._doc(record)
                found[(doc.kind, doc.group, doc.key)] = doc
        return found

    def page(self, kind, group=None, tag=None, *, by_sort=False, limit=1000000, offset=0) -> DocPage:
        where, params = self._where(kind, group, tag)
        order = "sort DESC, key" if by_sort else "grp, key"
        total = self._select(f"SELECT count(*) FROM {self.qualified}{where}", params)[0][0]
        rows = self._select(
            f"SELECT {', '.join(COLUMNS)} FROM {self.qualified}{where} ORDER BY {order} "
            f"LIMIT {self.p} OFFSET {self.p}", [*params, limit, offset])
        return DocPage([self._doc(r) for r in rows], total)

    def count_above(self, kind: str, group: str, sort: float) -> int:
        where, params = self._where(kind, group, None)
        return self._select(f"SELECT count(*) FROM {self.qualified}{where} AND sort > {self.p}", [*params, sort])[0][0]

    def dump(self, kinds: Sequence[str]) -> list[Doc]:
        marks = ", ".join([self.p] * len(kinds))
        rows = self._select(
            f"SELECT {', '.join(COLUMNS)} FROM {self.qualified} WHERE kind IN ({marks}) ORDER BY kind, grp, key",
            list(kinds))
        return [self._doc(r) for r in rows]

    def _write(self, curs: Any, puts: Sequence[Doc], drops: Sequence[tuple[str, str]], expected: int,
               tracking: Tracking, upsert: str) -> None:
        """The rows; the caller then writes the tracking record on the same cursor."""
        current = self._current(curs, tracking.application_name)
        if current != expected:
            raise IntegrityError(f"read model moved from {expected} to {current}")
        # Each list as one executemany: on PostgreSQL one round trip (psycopg pipelines it), not one a row.
        if drops:
            curs.executemany(f"DELETE FROM {self.qualified} WHERE kind = {self.p} AND grp = {self.p}",
                             [[kind, group] for kind, group in drops])
        if puts:
            curs.executemany(upsert, [self._values(doc) for doc in puts])


class PostgresLeagueView(_Shared, PostgresTrackingRecorder):
    def __init__(self, datastore, **kwargs):
        super().__init__(datastore, **kwargs)
        schema = Identifier(self.datastore.schema)
        self.sql_create_statements.extend([
            SQL("CREATE TABLE IF NOT EXISTS {0}.{1} (kind text NOT NULL, grp text NOT NULL, key text NOT NULL, "
                "tag text NOT NULL, sort double precision NOT NULL, data jsonb NOT NULL, "
                "PRIMARY KEY (kind, grp, key))").format(schema, Identifier(TABLE)),
            SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} (kind, grp, sort DESC)").format(
                Identifier(TABLE + "_sorted"), schema, Identifier(TABLE)),
        ])
        self.qualified = f'"{self.datastore.schema}"."{TABLE}"'

    def _record(self, row: Any) -> tuple:
        return tuple(row.values()) if isinstance(row, dict) else tuple(row)

    def _current(self, curs, name: str) -> int:
        curs.execute(self.max_tracking_id_statement, (name,))
        return curs.fetchone()["max"] or 0

    def write(self, puts, drops, expected, tracking: Tracking) -> None:
        upsert = (f"INSERT INTO {self.qualified} ({', '.join(COLUMNS)}) VALUES (%s, %s, %s, %s, %s, %s) "
                  "ON CONFLICT (kind, grp, key) DO UPDATE SET tag = EXCLUDED.tag, sort = EXCLUDED.sort, "
                  "data = EXCLUDED.data")
        with self.datastore.transaction(commit=True) as curs:
            # One writer at a time; the position check then refuses a stale one.
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.qualified,))
            self._write(curs, puts, drops, expected, tracking, upsert)
            self._insert_tracking(curs, tracking)

    def reset(self, application_name: str, kinds: Sequence[str]) -> None:
        marks = ", ".join(["%s"] * len(kinds))
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.qualified,))
            curs.execute(f"DELETE FROM {self.qualified} WHERE kind IN ({marks})", list(kinds))
            curs.execute(SQL("DELETE FROM {0}.{1} WHERE application_name = %s").format(
                Identifier(self.datastore.schema), Identifier(self.tracking_table_name)), (application_name,))


class SQLiteLeagueView(_Shared, SQLiteTrackingRecorder):
    p = "?"
    qualified = TABLE

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            f"CREATE TABLE IF NOT EXISTS {TABLE} (kind TEXT NOT NULL, grp TEXT NOT NULL, key TEXT NOT NULL, "
            "tag TEXT NOT NULL, sort REAL NOT NULL, data TEXT NOT NULL, PRIMARY KEY (kind, grp, key))",
            f"CREATE INDEX IF NOT EXISTS {TABLE}_sorted ON {TABLE} (kind, grp, sort DESC)",
        ]

    def _current(self, curs, name: str) -> int:
        return self._max_tracking_id(name, curs) or 0

    def write(self, puts, drops, expected, tracking: Tracking) -> None:
        upsert = f"INSERT OR REPLACE INTO {TABLE} ({', '.join(COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?)"
        with self.datastore.transaction(commit=True) as curs:
            self._write(curs, puts, drops, expected, tracking, upsert)
            self._insert_tracking(curs, tracking)

    def reset(self, application_name: str, kinds: Sequence[str]) -> None:
        marks = ", ".join(["?"] * len(kinds))
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(f"DELETE FROM {TABLE} WHERE kind IN ({marks})", list(kinds))
            curs.execute("DELETE FROM tracking WHERE application_name = ?", (application_name,))
