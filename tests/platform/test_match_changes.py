"""The match stream with ``changes=true`` (issue 13): each frame holds only what changed since the
client's version (the new events as that viewer may see them, the new version, whose turn, its legal
actions), not the whole view; a stream may follow a match for up to a day. Both stores."""

from __future__ import annotations

import json

import pytest

from api import create_app
from tests.platform.client import ApiClient


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def frames(client, path, key, last_event_id, seconds):
    response = client.http.get(path, query_string={"changes": "true", "seconds": seconds, "poll": 0.05},
                               headers={"Authorization": f"Bearer {key}", "Last-Event-ID": str(last_event_id)})
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    found = []
    for block in response.get_data(as_text=True).split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if lines:
            found.append((lines["event"], int(lines["id"]), json.loads(lines["data"])))
    return found


def test_the_match_stream_sends_only_what_changed_since_the_clients_version(client):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    before = client.get(path, key=keys[1]).body["version"]
    hand = client.get(path, key=keys[0]).body["observation"]["hand"]
    moved = client.post(f"{path}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                        key=keys[0]).body
    [(kind, version, frame)] = frames(client, f"{path}/stream", keys[1], before, seconds=0.5)
    assert kind == "changes" and version == frame["version"] == moved["version"]
    assert [e["version"] for e in frame["events"]] == list(range(before + 1, moved["version"] + 1))
    assert "observation" not in frame and "seats" not in frame and frame["legal_actions"]
    offer = next(e for e in frame["events"] if e["type"] == "MoveMade")
    assert offer["seat"] == 0 and hand[1] not in json.dumps(offer)  # Bob never sees Ann's face-down card
    assert frames(client, f"{path}/stream", keys[1], moved["version"], seconds=0.3) == []  # nothing new
    assert client.get(f"{path}/stream", query={"seconds": 86401}).status == 422
    spec = client.get("/openapi.json").body["paths"]["/matches/{match_id}/stream"]["get"]["parameters"]
    assert next(p for p in spec if p["name"] == "seconds")["schema"]["maximum"] == 86400


def test_the_frame_that_ends_a_revealed_match_says_the_history_is_now_shown_whole(client):
    """The last frame held only the last events: a client building the history from the frames kept the
    shuffles and the others' face-down cards redacted for good, never told the match had revealed them."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    before = client.get(path, key=keys[1]).body["version"]
    assert client.post(f"{path}/resign", key=keys[0]).status == 200
    live = frames(client, f"{path}/stream", keys[1], before, seconds=0.3)
    assert live and not any(frame["revealed"] for _, _, frame in live)
    assert client.post(f"{path}/resign", key=keys[2]).status == 200  # Bob is left: the match ends, revealed
    *_, (_, _, last) = frames(client, f"{path}/stream", keys[1], live[-1][1], seconds=0.3)
    assert last["status"] == "finished" and last["revealed"] is True
    whole = client.get(f"{path}/events", key=keys[1]).body["items"]
    assert not any(event.get("hidden") for event in whole)
    fresh = frames(client, f"{path}/stream", keys[1], 0, seconds=0.3)  # held nothing: nothing to say
    assert fresh and not any(frame["revealed"] for _, _, frame in fresh)
