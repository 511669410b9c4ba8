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
    methods = {m.strip() for m in asked.headers["Access-Control-Allow-Methods"].split(",")}
    assert "POST" in methods and not methods & {"PUT", "PATCH"}  # no route takes them (an HTTP probe)
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


def test_a_streams_preflight_takes_no_stream_slot_and_needs_no_database(tmp_path, sqlite_motley):
    """A preflight of a stream route took one of the address's 4 stream slots, counted by address (it sends
    no key): with 4 spectator streams open from that address, a player's own stream was refused at its
    preflight (429), and the browser never sent it. And a preflight was a 503 while the database was away,
    so the page never read the 503 (and its Retry-After) of the request itself."""
    import http.client
    import json

    from infrastructure.health import DatabaseGate
    from tests.platform.test_server_edges import call, served

    with served(tmp_path) as port:
        _, _, body = call(port, "POST", "/players", {"name": "ann"})
        auth = {"Authorization": f"Bearer {json.loads(body)['api_key']}"}
        _, _, body = call(port, "POST", "/matches", {"game": "jest", "seats": 3}, headers=auth)
        stream = f"/matches/{json.loads(body)['id']}/stream?seconds=20"
        held = []
        try:
            for _ in range(4):  # a spectator's streams: the address's four
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("GET", stream)
                held.append(connection.getresponse())
                assert held[-1].status == 200
            status, headers, _ = call(port, "OPTIONS", "/players/me/stream", headers={
                "Origin": FRONT, "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization"})
            assert status == 204 and headers["access-control-allow-origin"] == FRONT
            assert call(port, "GET", "/players/me/stream?seconds=1", headers=auth)[0] == 200  # as the stream is
        finally:
            for answer in held:
                answer.close()
    gate = DatabaseGate(lambda: http.client.HTTPConnection("127.0.0.1", 1, timeout=1).connect())  # nothing there
    gate._suspect = True  # a connection failed: the next request probes, and finds it away
    sqlite_motley.gate = gate
    client = create_app(sqlite_motley).test_client()
    assert client.get("/matches", headers={"Origin": FRONT}).status_code == 503
    asked = preflight(client, "/matches", "POST", "authorization, content-type")
    assert asked.status_code == 204 and asked.headers["Access-Control-Allow-Origin"] == FRONT


def test_an_allowed_origin_is_matched_exactly_and_every_answer_varies_on_it(sqlite_motley):
    """flask-cors reads an origin holding "*" as a pattern matched at the start: "https://*.play.example"
    let in https://xplay.example.evil.net. Each listed origin is now the origin itself. And with origins
    listed, a refused answer says Vary: Origin too, so a cache never gives it to an allowed page."""
    sqlite_motley.settings = replace(sqlite_motley.settings, cors_origins="https://*.play.example, https://a.example")
    http = create_app(sqlite_motley).test_client()
    for origin, allowed in (("https://xplay.example.evil.net", False), ("https://a.example.evil", False),
                            ("https://a.example", True)):
        answer = http.get("/games", headers={"Origin": origin})
        assert (answer.headers.get("Access-Control-Allow-Origin") == origin) is allowed, origin
        assert "Origin" in answer.headers["Vary"]
    assert "Date" in http.get("/games", headers={"Origin": "https://a.example"}).headers["Access-Control-Expose-Headers"]
