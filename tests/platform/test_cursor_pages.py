"""The match list pages with a stable cursor (issue 13), on both stores: in creation order, however
the list changes while it is read (new matches, activity on listed ones), no match is seen twice or
missed."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from eventsourcing.persistence import Tracking

from api import create_app
from application.ports import MatchRow
from application.projections import match_row
from domain.match import Match
from tests.platform.client import ApiClient


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def test_pages_by_cursor_neither_shift_nor_repeat(client, motley):
    _, ann = client.register("ann")
    created = [client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"] for _ in range(7)]
    motley.tasks.drain()
    first = client.get("/matches", query={"order": "created", "limit": 3}).body
    assert [m["id"] for m in first["items"]] == created[::-1][:3] and first["next_cursor"]
    # Meanwhile: a new match, and activity on an older one (it would jump to the front by activity).
    client.post("/matches", {"game": "jest", "seats": 3}, key=ann)
    client.post(f"/matches/{created[0]}/seats", {}, key=ann)
    motley.tasks.drain()
    seen = [m["id"] for m in first["items"]]
    cursor = first["next_cursor"]
    while cursor:
        page = client.get("/matches", query={"order": "created", "limit": 3, "cursor": cursor}).body
        seen += [m["id"] for m in page["items"]]
        cursor = page["next_cursor"]
    assert seen == created[::-1]
    refused = client.get("/matches", query={"cursor": "not-a-cursor"})
    assert refused.status == 422
    by_activity = client.get("/matches", query={"limit": 2}).body
    assert by_activity["next_cursor"] is None and by_activity["items"][0]["id"] == created[0]


def test_a_match_committed_after_a_later_stamped_one_is_not_skipped_by_a_cursor(motley):
    """Two matches created at once: each is stamped before it commits, and they commit in either order.
    The list took the one stamped later first, a client paged past it, and the other (stamped earlier,
    listed after) fell behind the cursor: no page ever showed it. It is listed after the first."""
    view, name = motley.match_list, "cursor-test"
    assert view.query(limit=1).rows == []  # an empty list: the rows below are the test's own
    top = (datetime(2027, 1, 1, tzinfo=timezone.utc), "")

    def listed(match_id: str, created_at: datetime) -> MatchRow:
        made = match_row(Match(game="jest", rules_version="1.0.0", seats=3, options={}, bots={}, created_by=None))
        return replace(made, match_id=match_id, created_at=created_at, updated_at=created_at)

    later = listed("b-stamped-later", datetime(2026, 1, 1, 0, 0, 2, tzinfo=timezone.utc))
    view.write([later], 0, Tracking(name, 1))
    first = view.query(limit=1, after=top).rows
    assert [r.match_id for r in first] == ["b-stamped-later"]
    cursor = (first[0].created_at, first[0].match_id)
    earlier = listed("a-stamped-earlier", later.created_at - timedelta(seconds=1))
    view.write([earlier], 1, Tracking(name, 2))  # committed after: listed after
    assert [r.match_id for r in view.query(limit=5, after=top).rows] == ["a-stamped-earlier", "b-stamped-later"]
    assert view.query(limit=5, after=cursor).rows == []  # nothing fell behind the client's cursor
    view.write([replace(earlier, status="active")], 2, Tracking(name, 3))  # a change keeps its place
    assert [r.match_id for r in view.query(limit=5, after=top).rows] == ["a-stamped-earlier", "b-stamped-later"]


def test_a_cursor_written_with_another_offset_pages_as_its_utc_time(client, motley):
    """SQLite compares the list's times as text: a cursor whose time was written at +02:00 returned rows
    PostgreSQL rightly left out. A cursor's time is read in UTC; one with no offset is refused."""
    import base64
    import json

    _, ann = client.register("ann")
    created = [client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"] for _ in range(3)]
    motley.tasks.drain()
    first = client.get("/matches", query={"order": "created", "limit": 1}).body
    (when, match_id) = json.loads(base64.urlsafe_b64decode(first["next_cursor"] + "=="))
    shifted = datetime.fromisoformat(when).astimezone(timezone(timedelta(hours=2))).isoformat()

    def cursor(text: str) -> str:
        return base64.urlsafe_b64encode(json.dumps([text, match_id]).encode()).decode().rstrip("=")

    page = client.get("/matches", query={"order": "created", "limit": 5, "cursor": cursor(shifted)}).body
    assert [m["id"] for m in page["items"]] == created[::-1][1:]
    naive = datetime.fromisoformat(when).replace(tzinfo=None).isoformat()
    assert client.get("/matches", query={"order": "created", "cursor": cursor(naive)}).status == 422
