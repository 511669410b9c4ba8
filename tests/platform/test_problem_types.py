"""Every problem type has its documentation (issue 13): served at GET /problems and GET /problems/{slug},
and a section in docs/problems.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api import create_app
from tests.platform.client import ApiClient

DOC = Path(__file__).resolve().parents[2] / "docs" / "problems.md"


@pytest.fixture
def client(sqlite_motley):
    return ApiClient(create_app(sqlite_motley))


def test_every_problem_type_is_served_and_documented(client):
    served = client.get("/problems").body
    sections = set(re.findall(r"^## ([a-z-]+)$", DOC.read_text(), flags=re.MULTILINE))
    slugs = {entry["slug"] for entry in served}
    assert {"illegal-move", "precondition-failed", "validation", "malformed-json", "unauthenticated"} <= slugs
    assert slugs == sections, (slugs - sections, sections - slugs)
    for entry in served:
        assert entry["type"] == f"urn:motley:problem:{entry['slug']}" and 400 <= entry["status"] < 600
        assert entry["description"] and entry["documentation"] == f"docs/problems.md#{entry['slug']}"
    one = client.get("/problems/illegal-move").body
    assert one["status"] == 422 and "rule" in one["description"]
    unknown = client.get("/problems/no-such-thing")
    assert unknown.status == 404 and unknown.body["type"] == "urn:motley:problem:not-found"
    seen = client.post("/matches", {"game": "jest", "seats": 3})  # any answer's type is in the catalogue
    assert seen.body["type"].removeprefix("urn:motley:problem:") in slugs
