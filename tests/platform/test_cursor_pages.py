"""The match list pages with a stable cursor (issue 13), on both stores: in creation order, however
the list changes while it is read (new matches, activity on listed ones), no match is seen twice or
missed."""

from __future__ import annotations

import pytest

from api import create_app
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
