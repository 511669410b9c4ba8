"""``motley rebuild <read model>``: forget a read model's rows and tracking position, then project the
whole event log again (the live rows then equal what the events say, as the tests check)."""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder
from psycopg.sql import SQL, Identifier

from infrastructure import readmodels

#: Each name ``motley rebuild`` takes, and what it rebuilds. The league projection keeps ratings,
#: leaderboards, statistics, rating histories, tournaments, standings and sanction reports together.
READ_MODELS = {
    "matches": "the match list",
    "league": "ratings, leaderboards, statistics, tournaments, standings, sanction reports",
}


def rebuild(container: Any, name: str) -> int:
    """Rebuild read model ``name``; return how many events were projected."""
    if name == "league":
        return container.league.rebuild()
    if name == "matches":
        _reset_match_list(container.match_list, container.app.name)
        return container.projection.run()
    raise ValueError(f"no read model named {name!r} (read models: {', '.join(sorted(READ_MODELS))})")


def position(container: Any, name: str) -> int:
    """The log position read model ``name`` has applied (after a rebuild: the log's end, or past it)."""
    if name == "league":
        return container.league_view.position(container.league.name) or 0
    return container.match_list.position(container.app.name) or 0


def _reset_match_list(view: Any, application_name: str) -> None:
    with view.datastore.transaction(commit=True) as curs:
        if isinstance(view, PostgresTrackingRecorder):
            qualified = f'"{view.datastore.schema}"."{readmodels.TABLE}"'
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (qualified,))  # as the writers do
            curs.execute(f"DELETE FROM {qualified}")
            curs.execute(SQL("DELETE FROM {0}.{1} WHERE application_name = %s").format(
                Identifier(view.datastore.schema), Identifier(view.tracking_table_name)), (application_name,))
        else:
            curs.execute(f"DELETE FROM {readmodels.TABLE}")
            curs.execute("DELETE FROM tracking WHERE application_name = ?", (application_name,))
