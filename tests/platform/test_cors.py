"""A game front end served from its own origin plays through the API from the browser (api/cors.py): the
preflight of a move (Authorization, If-Match, Idempotency-Key) is allowed, every answer, a refusal
included, names the origin and exposes the headers a client reads (ETag, Motley-Position, Retry-After),
and ``MOTLEY_CORS_ORIGINS`` narrows the origins or turns it off. Without it a page on another origin
could not read a single answer: the browser hid them all."""

from __future__ import annotations

from dataclasses import replace

import pytest

from api import create_app
from tests.platform.client import ApiClient

FRONT = "https://front.example"


def preflight(http, path: str, method: str, headers: str, origin: str = FRONT):
    return http.options(path, headers={"Origin": origin, "Access-Control-Request-Method": method,
                                       "Access-Control-Request-Headers": headers})


def test_a_page_on_another_origin_makes_a_move_and_reads_its_answer(sqlite_motley):
    client = ApiClient(create_app(sqlite_motley))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    view = client.get(f"/matches/{match_id}", key=keys[0]).body
    path = f"/matches/{match_id}/moves"
    asked = preflight(client.http, path, "POST", "authorization, content-type, if-match, idempotency-key")
    assert asked.status_code == 204
    assert asked.headers["Access-Control-Allow-Origin"] == FRONT
    assert "POST" in asked.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in asked.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    move = {"action": view["legal_actions"][0]}
    answer = client.post(path, move, key=keys[0], headers={"Origin": FRONT, "If-Match": f'"{view["version"]}"'})
    assert answer.status == 201 and answer.headers["Access-Control-Allow-Origin"] == FRONT
    exposed = {h.strip() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Motley-Position", "Retry-After", "Location"} <= exposed
    assert "Access-Control-Allow-Credentials" not in answer.headers  # keys are headers, never cookies
    refused = client.post(path, move, key=keys[0], headers={"Origin": FRONT})  # played already: refused
    assert refused.status >= 400 and refused.headers["Access-Control-Allow-Origin"] == FRONT
    assert refused.headers["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize("setting, origin, allowed", [
    ("https://a.example, https://b.example", "https://b.example", True),
    ("https://a.example, https://b.example", "https://evil.example", False),
    ("", FRONT, False),
])
def test_the_allowed_origins_are_a_setting(sqlite_motley, setting, origin, allowed):
    sqlite_motley.settings = replace(sqlite_motley.settings, cors_origins=setting)
    http = create_app(sqlite_motley).test_client()
    asked = preflight(http, "/players", "POST", "content-type", origin)
    read = http.get("/games", headers={"Origin": origin})
    assert read.status_code == 200
    for answer in (asked, read):
        assert (answer.headers.get("Access-Control-Allow-Origin") == origin) is allowed
