"""Each game's rules, served where a player reaches them (a new-player probe: they were in the repository
only, and the page cited "docs/rules/jest.md" as plain text): Markdown for a client, an HTML page for a
browser, the house rules marked as in the document."""

from __future__ import annotations

from pathlib import Path

import pytest

from api import create_app
from tests.platform.client import ApiClient

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(sqlite_motley):
    return ApiClient(create_app(sqlite_motley))


@pytest.mark.parametrize("game", ["jest", "jester", "fools-crown", "tumult-royale", "le-bouffon"])
def test_each_games_rules_are_served_as_its_document_says_them(client, game):
    document = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    text = client.http.get(f"/games/{game}/rules", headers={"Accept": "text/markdown"})
    assert text.status_code == 200 and text.mimetype == "text/markdown"
    assert text.get_data(as_text=True) == document
    page = client.http.get(f"/games/{game}/rules", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert page.status_code == 200 and page.mimetype == "text/html"
    body = page.get_data(as_text=True)
    title = client.get(f"/games/{game}").body["title"]
    assert f"<title>{title}: the rules</title>".replace("'", "&#x27;") in body
    assert "<h1>" in body and "<table>" in body  # the document's headings and tables, rendered
    assert "PROPOSAL" in body or "ENGINE" in body or "HR " in body  # house rules marked as in the document


def test_the_rules_of_no_game_are_a_404_problem(client):
    answer = client.get("/games/chess/rules")
    assert answer.status == 404 and answer.headers["Content-Type"] == "application/problem+json"


def test_the_rules_never_look_at_a_key(client):
    """The operation needs no key, as GET /games/{name} and its schema: a revoked key held by a front end
    was a 401 there (undeclared), and counted against the address's failed-key budget (a contract probe)."""
    for path in ("/games/jest", "/games/jest/schema", "/games/jest/rules"):
        answer = client.http.get(path, headers={"Authorization": "Bearer revoked-or-wrong"})
        assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:200])


def test_an_older_rules_version_is_served_headed_by_where_it_differs(client):
    """A versions probe: a player in a fork of an old match asked for its rules version's page and was
    refused (422: no such field), though GET /games/{name}?rules_version= answers it. The page is the
    current one's, headed by a note that names the version asked and where to read what it plays."""
    document = (ROOT / "docs" / "rules" / "jester.md").read_text(encoding="utf-8")
    older = client.http.get("/games/jester/rules", query_string={"rules_version": "1.4.0"},
                            headers={"Accept": "text/markdown"})
    text = older.get_data(as_text=True)
    assert older.status_code == 200 and text.endswith(document) and text != document
    assert text.startswith("> **You asked for the rules of Jester 1.4.0**")
    assert "GET /games/jester?rules_version=1.4.0" in text
    current = client.get("/games/jester").body["rules_version"]
    same = client.http.get("/games/jester/rules", query_string={"rules_version": current},
                           headers={"Accept": "text/markdown"})
    assert same.get_data(as_text=True) == document
    unknown = client.get("/games/jester/rules", query={"rules_version": "9.9.9"})
    assert unknown.status == 404 and "1.4.0" in unknown.body["rules_versions"], unknown.body
