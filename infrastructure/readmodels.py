"""The match-list read model, in the event store's own database, beside its tracking table.

Each class extends the library's tracking recorder for its backend, so that the rows and the tracking
position are written in one transaction on the same connection pool as the events.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Sequence

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier

from application.ports import MatchListView, MatchPage, MatchRow

TABLE = "motley_match_list"
COLUMNS = (
    "match_id", "game", "status", "seats", "players", "open_seats", "to_act", "version", "moves",
    "winners", "created_at", "updated_at", "terms", "awaiting", "absent",
)
JSON_COLUMNS = {"players", "to_act", "winners", "terms", "awaiting", "absent"}
#: What PostgreSQL's text and jsonb refuse (NUL) and UTF-8 cannot encode (lone surrogates).
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(value: Any) -> Any:
    """``value`` with every string made storable (U+FFFD for each unstorable character). A stored
    event is permanent and may hold anything (a name registered before names were checked): the
    projection must never wedge on one, so the row holds the nearest text the column can keep."""
    if isinstance(value, str):
        return UNSTORABLE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable(v) for v in value]
    return value


#: How much later than the latest listed match a match committed after it is listed (its own time was
#: stamped earlier: ``_Shared._in_commit_order``).
LISTED_AFTER = timedelta(microseconds=1)


def _field(record: Any, name: str, index: int) -> Any:
    """A column of a fetched record: psycopg's rows are dicts, SQLite's are read by position."""
    return record[name] if isinstance(record, dict) else record[index]


def _time(value: Any) -> Any:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


class _Shared(MatchListView, TrackingRecorder):
    """What both backends share: the row mapping, the filters and waiting."""

    columns = COLUMNS  # what its reads select (readiness selects them: infrastructure/composition.py)

    placeholder = "%s"

    def _player_clause(self) -> str:
        raise NotImplementedError

    def _player_param(self, player_id: str) -> str:
        raise NotImplementedError

    def position(self, application_name: str) -> int:
        return self.max_tracking_id(application_name) or 0

    # The port's wait (application.ports.MatchListView) answers whether the position was reached;
    # the library's raises TimeoutError. Same name, other contract: hence the one ignore.
    def wait(self, application_name: str, position: int, timeout: float) -> bool:  # type: ignore[override]
        try:
            # The library's polling wait (the port's abstract method stands first in the MRO).
            TrackingRecorder.wait(self, application_name, position, timeout=timeout)
        except TimeoutError:
            return False
        return True

    def _values(self, row: MatchRow) -> list:
        values = []
        for column in COLUMNS:
            value = storable(getattr(row, column))
            values.append(json.dumps(value) if column in JSON_COLUMNS else self._encode(value))
        return values

    def _encode(self, value: Any) -> Any:
        return value

    def _in_commit_order(self, curs: Any, table: str, rows: Sequence[MatchRow]) -> list[MatchRow]:
        """``rows`` with the ``created_at`` the list orders them by: a listed match keeps the one it was
        listed with; a new one is listed after every match already in the list. A match's own time is
        stamped before its creation commits, and two created at once commit in either order: the later
        committed, stamped earlier, fell behind a cursor already past its time, and a client paging the
        list by ``order=created`` never saw it (the pages promise not to shift). The rows come in the
        log's order (commit order) and one writer at a time, so the list's times are in that order too."""
        if not rows:
            return []
        marks = ", ".join([self.placeholder] * len(rows))
        curs.execute(f"SELECT match_id, created_at FROM {table} WHERE match_id IN ({marks})",
                     [row.match_id for row in rows])
        stored = {_field(r, "match_id", 0): _time(_field(r, "created_at", 1)) for r in curs.fetchall()}
        curs.execute(f"SELECT max(created_at) AS latest FROM {table}")
        record = curs.fetchone()
        latest = _time(_field(record, "latest", 0)) if record is not None else None
        ordered = []
        for row in rows:
            if row.match_id in stored:
                row = replace(row, created_at=stored[row.match_id])
            else:
                if latest is not None and row.created_at <= latest:
                    row = replace(row, created_at=latest + LISTED_AFTER)
                latest = row.created_at
                stored[row.match_id] = row.created_at
            ordered.append(row)
        return ordered

    def _row(self, record: Sequence) -> MatchRow:
        fields = {}
        for column, value in zip(COLUMNS, record):
            if column in JSON_COLUMNS and isinstance(value, str):
                value = json.loads(value)
            elif column in ("created_at", "updated_at") and isinstance(value, str):
                value = datetime.fromisoformat(value)
            fields[column] = value
        return MatchRow(**fields)

    def _listed_clause(self) -> str:
        raise NotImplementedError

    def _awaiting_clause(self) -> str:
        raise NotImplementedError

    def _awaiting_param(self, player_id: str) -> str:
        raise NotImplementedError

    def _where(self, game, status, player_id, open_only, after=None, listed_only=False,
               awaiting=None) -> tuple[str, list]:
        clauses, params = [], []
        p = self.placeholder
        if awaiting is not None:
            clauses.append(self._awaiting_clause())
            params.append(self._awaiting_param(awaiting))
        if listed_only:
            clauses.append(self._listed_clause())
        if after is not None:  # a cursor: the rows created before (created_at, match_id), newest first
            clauses.append(f"(created_at < {p} OR (created_at = {p} AND match_id > {p}))")
            created, match_id = after
            params.extend([self._encode(created), self._encode(created), match_id])
        if game is not None:
            clauses.append(f"game = {p}")
            params.append(game)
        if status is not None:
            clauses.append(f"status = {p}")
            params.append(status)
        if open_only:
            clauses.append("open_seats > 0")
        if player_id is not None:
            clauses.append(self._player_clause())
            params.append(self._player_param(player_id))
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


class PostgresMatchListView(_Shared, PostgresTrackingRecorder):
    def __init__(self, datastore, **kwargs):
        super().__init__(datastore, **kwargs)
        schema = Identifier(self.datastore.schema)
        self.sql_create_statements.extend(
            [
                SQL(
                    "CREATE TABLE IF NOT EXISTS {0}.{1} ("
                    "match_id text PRIMARY KEY, game text NOT NULL, status text NOT NULL, "
                    "seats integer NOT NULL, players jsonb NOT NULL, open_seats integer NOT NULL, "
                    "to_act jsonb NOT NULL, version integer NOT NULL, moves integer NOT NULL, "
                    "winners jsonb NOT NULL, created_at timestamptz NOT NULL, "
                    "updated_at timestamptz NOT NULL)"
                ).format(schema, Identifier(TABLE)),
                # Added after the table's first release: rows written before hold {} until their match
                # changes or ``motley rebuild matches`` (docs/deploy.md).
                SQL("ALTER TABLE {0}.{1} ADD COLUMN IF NOT EXISTS terms jsonb NOT NULL DEFAULT '{{}}'::jsonb").format(
                    schema, Identifier(TABLE)),
                # Likewise (rows written before it hold []): GET /players/me/invitations reads it.
                SQL("ALTER TABLE {0}.{1} ADD COLUMN IF NOT EXISTS awaiting jsonb NOT NULL DEFAULT '[]'::jsonb").format(
                    schema, Identifier(TABLE)),
                # Likewise: the seats away (rows written before it hold [] until rewritten).
                SQL("ALTER TABLE {0}.{1} ADD COLUMN IF NOT EXISTS absent jsonb NOT NULL DEFAULT '[]'::jsonb").format(
                    schema, Identifier(TABLE)),
                SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} (updated_at DESC)").format(
                    Identifier(TABLE + "_updated"), schema, Identifier(TABLE)
                ),
                SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} (created_at DESC)").format(
                    Identifier(TABLE + "_created"), schema, Identifier(TABLE)
                ),
                SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} USING gin (players jsonb_path_ops)").format(
                    Identifier(TABLE + "_players"), schema, Identifier(TABLE)
                ),
                SQL("CREATE INDEX IF NOT EXISTS {0} ON {1}.{2} USING gin (awaiting jsonb_path_ops)").format(
                    Identifier(TABLE + "_awaiting"), schema, Identifier(TABLE)
                ),
            ]
        )
        self.qualified = f'"{self.datastore.schema}"."{TABLE}"'

    def _player_clause(self) -> str:
        return "players @> %s::jsonb"

    def _listed_clause(self) -> str:
        return "NOT (terms @> '{\"unlisted\": true}'::jsonb)"

    def _player_param(self, player_id: str) -> str:
        return json.dumps([{"player_id": player_id}])

    def _awaiting_clause(self) -> str:
        return "awaiting @> %s::jsonb"

    def _awaiting_param(self, player_id: str) -> str:
        return json.dumps([player_id])

    def write(self, rows: Sequence[MatchRow], expected: int, tracking: Tracking) -> None:
        columns = ", ".join(COLUMNS)
        marks = ", ".join(["%s"] * len(COLUMNS))
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS[1:])
        with self.datastore.transaction(commit=True) as curs:
            # One consumer at a time: the lock serialises writers, the check refuses a stale one.
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.qualified,))
            curs.execute(self.max_tracking_id_statement, (tracking.application_name,))
            record = curs.fetchone()
            current = (record["max"] if record else None) or 0
            if current != expected:
                raise IntegrityError(f"read model moved from {expected} to {current}")
            rows = self._in_commit_order(curs, self.qualified, rows)
            if rows:  # one round trip for the batch's rows (psycopg pipelines executemany), not one a row
                curs.executemany(
                    f"INSERT INTO {self.qualified} ({columns}) VALUES ({marks}) "
                    f"ON CONFLICT (match_id) DO UPDATE SET {updates}",
                    [self._values(row) for row in rows],
                )
            self._insert_tracking(curs, tracking)

    def query(self, *, game=None, status=None, player_id=None, open_only=False, limit=20, offset=0,
              after=None, listed_only=False, awaiting=None) -> MatchPage:
        where, params = self._where(game, status, player_id, open_only, after, listed_only, awaiting)
        order = "updated_at DESC, match_id" if after is None else "created_at DESC, match_id"
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(f"SELECT count(*) AS n FROM {self.qualified}{where}", params)
            counted = curs.fetchone()
            total = counted["n"] if counted else 0
            curs.execute(
                f"SELECT {', '.join(COLUMNS)} FROM {self.qualified}{where} "
                f"ORDER BY {order} LIMIT %s OFFSET %s",
                [*params, limit, offset],
            )
            records = [[record[c] for c in COLUMNS] for record in curs.fetchall()]
        return MatchPage([self._row(r) for r in records], total)


class SQLiteMatchListView(_Shared, SQLiteTrackingRecorder):
    placeholder = "?"

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            f"CREATE TABLE IF NOT EXISTS {TABLE} ("
            "match_id TEXT PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL, "
            "seats INTEGER NOT NULL, players TEXT NOT NULL, open_seats INTEGER NOT NULL, "
            "to_act TEXT NOT NULL, version INTEGER NOT NULL, moves INTEGER NOT NULL, "
            "winners TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)",
            f"CREATE INDEX IF NOT EXISTS {TABLE}_updated ON {TABLE} (updated_at DESC)",
            f"CREATE INDEX IF NOT EXISTS {TABLE}_created ON {TABLE} (created_at DESC)",
        ]

    def _encode(self, value: Any) -> Any:
        return value.isoformat() if isinstance(value, datetime) else value

    def _player_clause(self) -> str:
        return "EXISTS (SELECT 1 FROM json_each(players) WHERE json_extract(value, '$.player_id') = ?)"

    def _listed_clause(self) -> str:
        return "coalesce(json_extract(terms, '$.unlisted'), 0) = 0"

    def _awaiting_clause(self) -> str:
        return "EXISTS (SELECT 1 FROM json_each(awaiting) WHERE value = ?)"

    def _awaiting_param(self, player_id: str) -> str:
        return player_id

    def create_table(self) -> None:
        super().create_table()
        # The terms column came after the table's first release (see PostgresMatchListView).
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(f"PRAGMA table_info({TABLE})")
            held = {record[1] for record in curs.fetchall()}
            if "terms" not in held:
                curs.execute(f"ALTER TABLE {TABLE} ADD COLUMN terms TEXT NOT NULL DEFAULT '{{}}'")
            if "awaiting" not in held:
                curs.execute(f"ALTER TABLE {TABLE} ADD COLUMN awaiting TEXT NOT NULL DEFAULT '[]'")
            if "absent" not in held:
                curs.execute(f"ALTER TABLE {TABLE} ADD COLUMN absent TEXT NOT NULL DEFAULT '[]'")

    def _player_param(self, player_id: str) -> str:
        return player_id

    def write(self, rows: Sequence[MatchRow], expected: int, tracking: Tracking) -> None:
        columns = ", ".join(COLUMNS)
        marks = ", ".join(["?"] * len(COLUMNS))
        with self.datastore.transaction(commit=True) as curs:
            current = self._max_tracking_id(tracking.application_name, curs) or 0
            if current != expected:
                raise IntegrityError(f"read model moved from {expected} to {current}")
            for row in self._in_commit_order(curs, TABLE, rows):
                curs.execute(f"INSERT OR REPLACE INTO {TABLE} ({columns}) VALUES ({marks})", self._values(row))
            self._insert_tracking(curs, tracking)

    def query(self, *, game=None, status=None, player_id=None, open_only=False, limit=20, offset=0,
              after=None, listed_only=False, awaiting=None) -> MatchPage:
        where, params = self._where(game, status, player_id, open_only, after, listed_only, awaiting)
        order = "updated_at DESC, match_id" if after is None else "created_at DESC, match_id"
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(f"SELECT count(*) FROM {TABLE}{where}", params)
            total = curs.fetchone()[0]
            curs.execute(
                f"SELECT {', '.join(COLUMNS)} FROM {TABLE}{where} "
                f"ORDER BY {order} LIMIT ? OFFSET ?",
                [*params, limit, offset],
            )
            records = [tuple(r) for r in curs.fetchall()]
        return MatchPage([self._row(r) for r in records], total)
