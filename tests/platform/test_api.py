"""The HTTP API end to end (Flask app over the composition root, tasks in-process): a whole Jest
match, and a clear RFC 9457 problem for every bad request, which changes nothing."""

from __future__ import annotations

import json
import random

import pytest

from api import create_app
from tests.platform.client import ApiClient, play_randomly


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def drain(motley):
    return lambda: motley.tasks.drain()


def test_a_whole_jest_match_over_http(client, motley, seed):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    games = client.get("/games").body
    jest = next(g for g in games if g["name"] == "jest")
    assert (jest["min_players"], jest["max_players"]) == (3, 4) and jest["rules_version"]
    match_id = client.new_match("jest", 3, keys)
    view = client.get(f"/matches/{match_id}", key=keys[0]).body
    assert view["status"] == "active" and view["your_seat"] == 0 and view["to_act"]["kind"] == "players"
    assert len(view["observation"]["hand"]) == 2 and view["legal_actions"]
    seen: dict = {}
    final = play_randomly(client, match_id, keys, random.Random(f"{seed}-moves"), settle=drain(motley), seen=seen)
    assert final["status"] == "finished" and final["result"]["winners"]
    events = client.get(f"/matches/{match_id}/events", key=keys[1]).body["items"]
    assert [e["type"] for e in events][-2:] == ["StepResolved", "Finished"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    rewound = client.get(f"/matches/{match_id}", key=keys[1], query={"version": 6}).body
    assert rewound["version"] == 6 and rewound["status"] == "active"
    # Rewound, the match is as seat 0 saw it live at that version (whose turn, moves, status).
    fields = ("version", "status", "moves", "to_act", "your_seat")
    for version in sorted(seen)[:: max(1, len(seen) // 8)]:
        old = client.get(f"/matches/{match_id}", key=keys[0], query={"version": version}).body
        assert [old[f] for f in fields] == [seen[version][f] for f in fields], version
    motley.tasks.drain()
    listed = client.get("/matches", query={"game": "jest", "status": "finished"}).body
    assert [m["id"] for m in listed["items"]] == [match_id] and listed["total"] == 1
    assert client.get("/matches", query={"status": "active"}).body["total"] == 0


def test_the_openapi_document_and_docs_page(client):
    spec = client.get("/openapi.json").body
    assert spec["openapi"].startswith("3.")
    for path in ("/players", "/games", "/matches", "/matches/{match_id}", "/matches/{match_id}/moves",
                 "/matches/{match_id}/seats", "/matches/{match_id}/start", "/matches/{match_id}/events"):
        assert path in spec["paths"], path
    page = client.http.get("/docs")
    assert page.status_code == 200 and b"swagger-ui" in page.data
    assert client.http.get("/docs/static/swagger-ui-bundle.js").status_code == 200


@pytest.fixture
def table(client, motley):
    """A started 3-player Jest match: (client, match id, keys, an outsider's key)."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    _, outsider = client.register("eve")
    return client, client.new_match("jest", 3, keys), keys, outsider


def unchanged(client, match_id, version):
    assert client.get(f"/matches/{match_id}").body["version"] == version


def test_every_bad_move_request_is_a_problem_and_changes_nothing(table):
    client, match_id, keys, outsider = table
    view = client.get(f"/matches/{match_id}", key=keys[0]).body
    version = view["version"]
    hand = view["observation"]["hand"]
    good = {"type": "offer", "up": hand[0], "down": hand[1]}
    not_in_hand = next(c for c in ("AS", "2S", "3S") if c not in hand)
    path = f"/matches/{match_id}/moves"
    cases = [
        (dict(raw="{not json"), 400, "malformed-json"),
        (dict(raw='{"action": {"type": "offer"'), 400, "malformed-json"),
        (dict(body={"action": good, "colour": "red"}), 422, "validation"),
        (dict(body={"action": "offer"}), 422, "validation"),
        (dict(body={"action": good, "expected_version": "3"}), 422, "validation"),
        (dict(body={"action": good, "expected_version": 3.5}), 422, "validation"),
        (dict(body={}), 422, "validation"),
        (dict(body=[good]), 422, "validation"),
        (dict(body={"action": {"type": "offer", "up": hand[0], "down": hand[0]}}), 422, "illegal-move"),
        (dict(body={"action": {"type": "offer", "up": not_in_hand, "down": hand[1]}}), 422, "illegal-move"),
        (dict(body={"action": {"type": "dance"}}), 422, "illegal-move"),
        (dict(body={"action": {"type": "take", "from": 1, "card": "up"}}), 422, "illegal-move"),
        (dict(body={"action": good, "expected_version": version - 1}), 409, "stale-version"),
    ]
    for kwargs, status, slug in cases:
        answer = client.post(path, key=keys[0], **kwargs)
        assert answer.status == status, (kwargs, answer.text)
        assert answer.body["type"].endswith(slug) and answer.body["detail"], answer.body
        unchanged(client, match_id, version)
    illegal = client.post(path, {"action": {"type": "offer", "up": hand[0], "down": hand[0]}}, key=keys[0])
    assert illegal.body["rule"]  # says which rule it breaks
    for key, status in ((None, 401), ("wrong.key", 401), (keys[0][:-3] + "abc", 401), (outsider, 403)):
        answer = client.post(path, {"action": good}, key=key)
        assert answer.status == status, answer.text
        unchanged(client, match_id, version)
    # A credential in a form the API does not read is a 401, on writes and reads, never a spectator.
    for header in (f"Basic {keys[0]}", "Bearer", "Bearer  ", keys[0]):
        for method, target, body in (("POST", path, {"action": good}), ("GET", f"/matches/{match_id}", None)):
            answer = client.call(method, target, body, headers={"Authorization": header})
            assert answer.status == 401, (header, answer.text)
            assert answer.headers["WWW-Authenticate"].startswith("Bearer")
        unchanged(client, match_id, version)
    assert client.call("GET", "/health", headers={"Authorization": "Basic eDp5"}).status == 200
    assert client.post(path, {"action": good}, key=None).headers["WWW-Authenticate"].startswith("Bearer")
    assert client.post("/matches/not-a-uuid/moves", {"action": good}, key=keys[0]).status == 404
    assert client.post(f"/matches/{'0' * 32}/moves", {"action": good}, key=keys[0]).status == 404
    assert client.post(path, {"action": good}, key=keys[0]).status == 201
    again = client.post(path, {"action": good}, key=keys[0])  # already offered: not your turn
    assert again.status == 409 and again.body["type"].endswith("not-your-turn")


def test_an_idempotency_key_answers_a_retry_as_the_first_time(table):
    client, match_id, keys, _ = table
    hand = client.get(f"/matches/{match_id}", key=keys[2]).body["observation"]["hand"]
    body = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
    headers = {"Idempotency-Key": "retry-me"}
    first = client.post(f"/matches/{match_id}/moves", body, key=keys[2], headers=headers)
    second = client.post(f"/matches/{match_id}/moves", body, key=keys[2], headers=headers)
    assert first.status == second.status == 201
    assert first.body == second.body and second.headers["Idempotent-Replayed"] == "true"
    assert client.get(f"/matches/{match_id}").body["version"] == first.body["version"]
    other = {"action": {"type": "offer", "up": hand[1], "down": hand[0]}}
    reused = client.post(f"/matches/{match_id}/moves", other, key=keys[2], headers=headers)
    assert reused.status == 409


def test_bad_requests_elsewhere_are_problems_too(client):
    _, key = client.register("ann")
    assert client.post("/players", {"name": ""}).status == 422
    assert client.post("/players", {"name": 7}).status == 422
    assert client.post("/players", {"nom": "x"}).status == 422
    assert client.post("/players", raw="[").status == 400
    # An integer Python will not read (over 4,300 digits) is malformed JSON, not a server error.
    huge = client.post("/players", raw='{"name": ' + "9" * 5000 + "}")
    assert huge.status == 400 and huge.body["type"].endswith("malformed-json"), huge.text
    assert client.post("/players", raw="9" * 5000).status == 400
    # A body that is not JSON is a 415 naming the media type to send, not a list of missing fields.
    for mimetype in ("text/plain", "application/x-www-form-urlencoded"):
        answer = client.http.post("/players", data='{"name": "x"}', content_type=mimetype)
        assert answer.status_code == 415 and answer.mimetype == "application/problem+json", mimetype
        assert "application/json" in answer.get_json()["detail"]
    assert client.get("/games/chess").status == 404
    nowhere = client.get("/nowhere")
    assert nowhere.status == 404
    assert nowhere.body["detail"] == "no path /nowhere in this API (GET /openapi.json lists every path)"
    doubled = client.get("/players//me")  # not werkzeug's 308 to a Location built from the Host header
    assert doubled.status == 404 and doubled.headers["Content-Type"] == "application/problem+json"
    refused = client.call("DELETE", "/games")
    assert refused.status == 405
    assert refused.body["detail"] == "DELETE is not allowed on /games; it allows GET, HEAD, OPTIONS"
    assert refused.headers["Allow"] == "GET, HEAD, OPTIONS"
    cases = [
        ({"game": "chess", "seats": 3}, 404),
        ({"game": "jest", "seats": 9}, 422),
        ({"game": "jest", "seats": "3"}, 422),
        ({"game": "jest", "seats": 3, "options": {"turbo": True}}, 422),
        ({"game": "jest", "seats": 3, "computers": {"1": "grandmaster"}}, 422),
        ({"game": "jest", "seats": 3, "extra": 1}, 422),
    ]
    for body, status in cases:
        answer = client.post("/matches", body, key=key)
        assert answer.status == status, (body, answer.text)
    assert client.post("/matches", {"game": "jest", "seats": 3}).status == 401
    assert client.get("/matches").body["total"] == 0
    assert client.get("/matches", query={"limit": "lots"}).status == 422
    assert client.get("/matches", query={"status": "sleeping"}).status == 422


def test_seating_and_starting_rules(client, motley):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy", "dan")]
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body["id"]
    assert client.post(f"/matches/{match_id}/start", key=keys[0]).status == 409  # seats empty
    assert client.post(f"/matches/{match_id}/seats", {"seat": 2}, key=keys[0]).body["seat"] == 2
    assert client.post(f"/matches/{match_id}/seats", {}, key=keys[0]).status == 409  # already seated
    assert client.post(f"/matches/{match_id}/seats", {"seat": 2}, key=keys[1]).status == 409
    no_seat = client.post(f"/matches/{match_id}/seats", {"seat": 5}, key=keys[1])  # docs/problems.md: 422
    assert no_seat.status == 422 and no_seat.body["type"].endswith("invalid-request"), no_seat.text
    assert client.post(f"/matches/{match_id}/seats", {"seat": "1"}, key=keys[1]).status == 422
    assert client.post(f"/matches/{match_id}/seats", {}, key=keys[1]).body["seat"] == 0
    motley.tasks.drain()
    open_list = client.get("/matches", query={"open": "true"}).body
    assert open_list["total"] == 1 and open_list["items"][0]["open_seats"] == 1
    assert client.post(f"/matches/{match_id}/seats", {}, key=keys[2]).body["seat"] == 1
    assert client.post(f"/matches/{match_id}/seats", {}, key=keys[3]).status == 409  # full
    assert client.post(f"/matches/{match_id}/start", key=keys[3]).status == 403
    assert client.post(f"/matches/{match_id}/start", key=keys[1]).status == 200
    assert client.post(f"/matches/{match_id}/start", key=keys[1]).status == 409


def test_match_list_filters_and_pages(client, motley):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy", "dan")]
    ids = [client.post("/matches", {"game": "jest", "seats": 3 + i % 2}, key=keys[0]).body["id"] for i in range(5)]
    joined = client.post(f"/matches/{ids[0]}/seats", {}, key=keys[3])
    position = joined.headers.get("Motley-Position")
    page = client.get("/matches", query={"limit": 2, "offset": 0, "after": position}).body
    assert page["total"] == 5 and len(page["items"]) == 2
    rest = client.get("/matches", query={"limit": 2, "offset": 4}).body["items"]
    assert len(rest) == 1
    dan = client.get("/players/me", key=keys[3]).body["id"]
    motley.tasks.drain()
    mine = client.get("/matches", query={"player": dan}).body
    assert [m["id"] for m in mine["items"]] == [ids[0]]
    assert mine["items"][0]["seats"][0]["name"] == "dan"


def test_the_stream_pushes_the_callers_view_when_the_match_changes(table):
    client, match_id, keys, _ = table
    first = client.http.get(f"/matches/{match_id}/stream", query_string={"seconds": 0.3},
                            headers={"Authorization": f"Bearer {keys[0]}"})
    assert first.status_code == 200 and first.mimetype == "text/event-stream"
    frames = [f for f in first.get_data(as_text=True).split("\n\n") if f.startswith("id:")]
    assert len(frames) == 1 and "event: match" in frames[0]
    version = int(frames[0].split("\n")[0].split(": ")[1])
    view = json.loads(frames[0].split("data: ", 1)[1])
    assert view["your_seat"] == 0 and view["version"] == version
    hand = view["observation"]["hand"]
    client.post(f"/matches/{match_id}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                key=keys[0])
    later = client.http.get(f"/matches/{match_id}/stream", query_string={"seconds": 0.3},
                            headers={"Last-Event-ID": str(version)})
    frames = [f for f in later.get_data(as_text=True).split("\n\n") if f.startswith("id:")]
    assert len(frames) == 1 and frames[0].startswith(f"id: {version + 1}")
    spectator = json.loads(frames[0].split("data: ", 1)[1])
    assert spectator["your_seat"] is None and hand[1] not in json.dumps(spectator["observation"])


def test_if_match_states_the_version_seen(table):
    client, match_id, keys, _ = table
    read = client.get(f"/matches/{match_id}", key=keys[1])
    etag = read.headers["ETag"]
    hand = read.body["observation"]["hand"]
    body = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
    stale = client.post(f"/matches/{match_id}/moves", body, key=keys[1], headers={"If-Match": '"3"'})
    assert stale.status == 412 and stale.body["type"].endswith("precondition-failed")  # issue 13: RFC 9110 §13.1.1
    assert client.post(f"/matches/{match_id}/moves", body, key=keys[1], headers={"If-Match": "soon"}).status == 422
    version = read.body["version"]
    # A stale If-Match is never outvoted by a current expected_version, nor the other way round.
    both = client.post(f"/matches/{match_id}/moves", {**body, "expected_version": version}, key=keys[1],
                       headers={"If-Match": f'"{version - 1}"'})
    assert both.status == 412 and both.body["type"].endswith("precondition-failed"), both.text
    both = client.post(f"/matches/{match_id}/moves", {**body, "expected_version": version - 1}, key=keys[1],
                       headers={"If-Match": etag})
    assert both.status == 409 and both.body["type"].endswith("stale-version"), both.text
    assert client.get(f"/matches/{match_id}").body["version"] == version
    assert client.post(f"/matches/{match_id}/moves", body, key=keys[1], headers={"If-Match": etag}).status == 201
    # "*" states no version (RFC 9110 §13.1.1): the match exists, so the move is made.
    hand = client.get(f"/matches/{match_id}", key=keys[2]).body["observation"]["hand"]
    star = client.post(f"/matches/{match_id}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                       key=keys[2], headers={"If-Match": "*"})
    assert star.status == 201, star.text
    assert client.get("/health").body["status"] == "ok"


def test_a_match_list_that_has_not_caught_up_is_a_503_with_retry_after(client, motley, monkeypatch):
    """Read your own writes: a list asked to include a position it has not reached is refused, never
    answered stale."""
    monkeypatch.setattr("application.freshness.WAIT_SECONDS", 0.2)
    _, key = client.register("ann")
    created = client.post("/matches", {"game": "jest", "seats": 3}, key=key)
    position = int(created.headers["Motley-Position"])
    assert position == motley.app.log_position()
    assert client.get("/matches", query={"after": position}).body["total"] == 1
    # A position past the log's end was never answered by a write: refused at once (issue 12).
    assert client.get("/matches", query={"after": position + 1000}).status == 422
    motley.tasks.close()  # the read model stops following the log: the next write is not applied
    later = int(client.post("/matches", {"game": "jest", "seats": 3}, key=key).headers["Motley-Position"])
    behind = client.get("/matches", query={"after": later}, patient=False)
    assert behind.status == 503 and behind.body["type"].endswith("unavailable")
    assert int(behind.headers["Retry-After"]) >= 1
    assert client.get("/health").body["position"] == later
