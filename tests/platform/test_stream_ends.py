"""A stream of something over tells a client that holds its last version that nothing will come: a 204,
which stops a browser's EventSource reconnecting (HTML, server-sent events: "a client can be told to stop
reconnecting using the HTTP 204 No Content response code"). A spectator probe found each stream of a
finished match answering 200 and ending at once, so an overlay's EventSource reconnected every few seconds
for as long as its page was open; and a called-off tournament's stream was held open to its ``seconds``."""

from __future__ import annotations

import random
import time

import pytest

from api import create_app
from tests.platform.client import ApiClient, play_randomly
from tests.platform.test_my_stream import sse

MATCH_STREAMS = ("/stream", "/stream?changes=true", "/events/stream")


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def test_a_finished_matchs_streams_answer_204_once_the_client_holds_its_last_version(client, motley):
    _, key = client.register("host")
    match_id = client.post("/matches", {"game": "jest", "seats": 3, "computers": {"1": "random", "2": "random"}},
                           key=key).body["id"]
    client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=key)
    final = play_randomly(client, match_id, [key], random.Random(7), settle=motley.tasks.drain)
    assert final["status"] == "finished"
    last = final["version"]
    for suffix in MATCH_STREAMS:
        for reader in (key, None):  # its player and a spectator alike
            headers = {"Last-Event-ID": str(last)}
            ended = client.get(f"/matches/{match_id}{suffix}", key=reader, headers=headers)
            assert ended.status == 204 and ended.text == "", (suffix, ended.status, ended.text)
            assert "Content-Type" not in ended.headers
        # One version behind, the stream sends the last one and ends: then the 204 above.
        path, _, query = f"/matches/{match_id}{suffix}".partition("?")
        streamed = client.http.get(path, query_string=query, headers={"Last-Event-ID": str(last - 1)})
        assert streamed.status_code == 200 and streamed.mimetype == "text/event-stream"
        assert f"id: {last}\n" in streamed.get_data(as_text=True), suffix
        streamed.close()


def test_a_called_off_match_and_tournament_end_their_streams(client):
    _, org = client.register("org")
    _, ann = client.register("ann")
    match_id = client.post("/matches", {"game": "jester", "seats": 2}, key=org).body["id"]
    cancelled = client.post(f"/matches/{match_id}/cancel", key=org)
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled", cancelled.text
    for suffix in MATCH_STREAMS:
        ended = client.get(f"/matches/{match_id}{suffix}", headers={"Last-Event-ID": str(cancelled.body["version"])})
        assert ended.status == 204, (suffix, ended.text)
    tid = client.post("/tournaments", {"game": "jester", "name": "off", "rounds": 1, "table_size": 2},
                      key=org).body["id"]
    assert client.post(f"/tournaments/{tid}/players", key=ann).status == 201
    called_off = client.post(f"/tournaments/{tid}/cancel", key=org)
    assert called_off.status == 200
    path = f"/tournaments/{tid}/stream"
    # From the start: its last version, then the end; it was held open to its ``seconds`` (30 here).
    began = time.monotonic()
    frames = list(sse(client, None, last_event_id=0, seconds=30, path=path))
    assert time.monotonic() - began < 10
    assert [(version, frame["tournament"]["status"]) for version, _, frame in frames] == [
        (called_off.body["version"], "cancelled")]
    ended = client.get(path, headers={"Last-Event-ID": str(called_off.body["version"])})
    assert ended.status == 204 and ended.text == ""
