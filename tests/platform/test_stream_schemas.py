"""The streams' frames are documented (api/stream_schemas.py): each stream's 200 answer lists, in its
``text/event-stream`` media type's ``x-sse-events``, every event name it sends with a ``$ref`` to the
component schema of its data. A generated client typed nothing of a frame's payload (a bot developer's
probe). Here real streams are opened against the app on both stores, a match played to its end, a player's
items (your-turn, finished, absent, claimable, invitation, a tournament's), a tournament followed live, and
every frame's data is checked against the schema the document names for its event."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Optional

import pytest
from openapi_schema_validator import OAS30ReadValidator, oas30_format_checker
from openapi_spec_validator import validate

from api import create_app
from api.stream_schemas import MATCH_EVENT_TYPES, PLAYER_STREAM
from application import inbox
from infrastructure.composition import build
from tests.platform.client import ApiClient, entered_tournament

AUDITOR = "auditor-key-for-the-stream-schemas"
ROOT = Path(__file__).resolve().parents[2]

MATCH = "/matches/{match_id}/stream"
EVENTS = "/matches/{match_id}/events/stream"
MINE = "/players/me/stream"
TOURNAMENT = "/tournaments/{tournament_id}/stream"


@pytest.fixture
def audited(settings, rng):
    container = build(dataclasses.replace(settings, auditor_key=AUDITOR), rng=rng)
    yield container
    container.close()


@pytest.fixture
def client(audited):
    return ApiClient(create_app(audited))


class Documented:
    """The served document's ``x-sse-events``, each frame checked against the schema its event names;
    ``seen``: the event names each stream sent."""

    def __init__(self, client: ApiClient):
        self.document = client.http.get("/openapi.json").get_json()
        self.seen: dict[str, set[str]] = defaultdict(set)
        self.validators: dict[str, Any] = {}
        self.lock = threading.Lock()

    def events(self, template: str) -> dict:
        answer = self.document["paths"][template]["get"]["responses"]["200"]
        return answer["content"]["text/event-stream"]["x-sse-events"]

    def validator(self, reference: str):
        # The document's components beside the $ref: it resolves in the document, as openapi-core's does.
        if reference not in self.validators:
            schema = {"$ref": reference, "components": self.document["components"]}
            self.validators[reference] = OAS30ReadValidator(schema, format_checker=oas30_format_checker)
        return self.validators[reference]

    def check(self, template: str, event: Optional[str], data: Any) -> None:
        if event is None:  # a player stream's starting position: an id alone
            assert template == MINE and data is None, (template, data)
            return
        listed = self.events(template)
        assert event in listed, f"{template} sent an event its x-sse-events does not list: {event}"
        with self.lock:
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                      for e in self.validator(listed[event]["$ref"]).iter_errors(data)]
            self.seen[template].add(event)
        assert not errors, f"{template} {event} not as documented: {errors[:5]}\n{json.dumps(data)[:500]}"


def sse(client: ApiClient, documented: Documented, template: str, path: str, key: Optional[str] = None,
        last_event_id: Optional[int] = None, **query):
    """The frames of the stream at ``path`` as (id, event, data), read as they come, each checked against
    the document (id None: an item that shares its position with the next; event None: an id alone)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    response = client.http.get(path, query_string={"seconds": 5, "poll": 0.05, **query}, headers=headers,
                               buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream", response.status_code
    text = ""
    try:
        for chunk in response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in text:
                frame, text = text.split("\n\n", 1)
                lines = dict(line.split(": ", 1) for line in frame.splitlines() if not line.startswith(":"))
                if not lines:  # a comment: the opening or a heartbeat
                    continue
                assert set(lines) <= {"id", "event", "data"} and ("event" in lines) == ("data" in lines), frame
                event, data = lines.get("event"), json.loads(lines["data"]) if "data" in lines else None
                documented.check(template, event, data)
                yield (int(lines["id"]) if "id" in lines else None), event, data
    finally:
        response.close()


def follow(client, documented, template, path, key=None, last_event_id=None, **query) -> tuple[threading.Thread, list]:
    """A stream read on a thread of its own while the test plays; its frames gathered in the list."""
    frames: list = []
    reader = threading.Thread(target=lambda: frames.extend(sse(client, documented, template, path, key,
                                                               last_event_id, **query)), daemon=True)
    reader.start()
    time.sleep(0.2)
    return reader, frames


def test_every_stream_lists_its_events_with_schemas_in_the_document(sqlite_motley):
    """Each text/event-stream answer lists its events, each a $ref to a component schema; every item the
    player's feed can send and every stored event type of a match is listed; the document stays valid."""
    client = ApiClient(create_app(sqlite_motley))
    document = client.http.get("/openapi.json").get_json()
    validate(document)
    streams = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue  # the path's own parameters
            content = operation.get("responses", {}).get("200", {}).get("content", {})
            if "text/event-stream" in content:
                media = content["text/event-stream"]
                assert media["schema"] == {"type": "string"}, (method, path)
                assert "x-sse-events" in operation["responses"]["200"]["description"], (method, path)
                streams[path] = media["x-sse-events"]
    assert set(streams) == {MATCH, EVENTS, MINE, TOURNAMENT}
    schemas = document["components"]["schemas"]
    for path, events in streams.items():
        assert events, path
        for event, reference in events.items():
            assert set(reference) == {"$ref"} and reference["$ref"].startswith("#/components/schemas/"), (path, event)
            assert reference["$ref"].rsplit("/", 1)[1] in schemas, (path, event)
    assert streams[MATCH] == {"match": {"$ref": "#/components/schemas/MatchOut"},
                              "changes": {"$ref": "#/components/schemas/MatchStreamChanges"}}
    assert set(streams[EVENTS]) == set(MATCH_EVENT_TYPES) and "MoveMade" in MATCH_EVENT_TYPES
    assert schemas["MatchEvent"]["properties"]["type"]["enum"] == list(MATCH_EVENT_TYPES)
    assert set(streams[TOURNAMENT]) == {"tournament"}
    # Every kind of item application/inbox.py builds is listed for the player's stream, and nothing else.
    source = (ROOT / "application" / "inbox.py").read_text()
    kinds = set(re.findall(r'\bitem\("([a-z-]+)"', source)) | set(inbox.TOURNAMENT_ITEMS.values()) | {
        "standings-changed"}
    assert set(streams[MINE]) == kinds == set(PLAYER_STREAM), kinds ^ set(streams[MINE])
    your_turn = schemas["PlayerStreamYourTurn"]
    assert your_turn["properties"]["type"]["enum"] == ["your-turn"]
    assert your_turn["properties"]["match"]["allOf"] == [{"$ref": "#/components/schemas/MatchOut"}]
    assert {"type", "match_id", "version", "match"} <= set(your_turn["required"])


def test_a_match_played_to_its_end_sends_every_frame_as_documented(client, audited, seed):
    documented = Documented(client)
    bot_id, bot = client.register("bot")
    ann_id, ann = client.register("ann")
    start = audited.app.log_position()
    # An invitation, then the match called off: Ann is told of both.
    other = client.post("/matches", {"game": "jest", "seats": 3}, key=bot).body["id"]
    assert client.post(f"/matches/{other}/invitations", {"player_id": ann_id}, key=bot).status == 200
    assert [kind for _, kind, _ in sse(client, documented, MINE, MINE, ann, start, seconds=0.3)] == ["invitation"]
    assert client.post(f"/matches/{other}/cancel", key=bot).status == 200
    made = client.post("/matches", {"game": "jest", "seats": 3, "computers": {"1": "random", "2": "random"}},
                       key=bot).body
    match_id = made["id"]
    assert client.post(f"/matches/{match_id}/seats", {}, key=bot).status == 201
    # Read before the start (read after it, the match is told as of its last event: started, no longer open).
    assert [kind for _, kind, _ in sse(client, documented, MINE, MINE, bot, start, seconds=0.3)] == ["seats-filled"]
    opened = client.post(f"/matches/{match_id}/start", key=bot).body["version"]
    # Followed live while the bot plays: the match's view (the seat's and a spectator's), the changes, the
    # events (the seat's, redacted; the auditor's, whole).
    live = {
        ("view", "seat"): follow(client, documented, MATCH, f"/matches/{match_id}/stream", bot, opened, seconds=120),
        ("view", "spectator"): follow(client, documented, MATCH, f"/matches/{match_id}/stream", None, opened,
                                      seconds=120),
        ("changes", "seat"): follow(client, documented, MATCH, f"/matches/{match_id}/stream", bot, opened,
                                    seconds=120, changes="true"),
        ("events", "seat"): follow(client, documented, EVENTS, f"/matches/{match_id}/events/stream", bot, opened,
                                   seconds=120),
        ("events", "auditor"): follow(client, documented, EVENTS, f"/matches/{match_id}/events/stream", AUDITOR,
                                      0, seconds=120),
    }
    rng = random.Random(seed)
    kinds = []
    for _, kind, data in sse(client, documented, MINE, MINE, bot, start, seconds=120):
        kinds.append(kind)
        if kind == "your-turn" and data["match_id"] == match_id:
            view = data["match"]
            move = {"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]}
            answer = client.post(f"/matches/{match_id}/moves", move, key=bot)
            assert answer.status in (201, 409), answer.text  # 409: a computer moved first; a new turn follows
        elif kind == "finished":
            assert data["match"]["status"] == "finished" and data["match"]["result"]["ranks"]
            break
    assert {"started", "your-turn", "finished"} <= set(kinds), kinds
    for (what, who), (reader, frames) in live.items():
        reader.join(timeout=30)
        assert not reader.is_alive() and frames, (what, who)  # each ends with the match
    last = client.get(f"/matches/{match_id}", key=bot).body["version"]
    changes = [data for _, _, data in live[("changes", "seat")][1]]
    assert changes[-1]["status"] == "finished" and changes[-1]["version"] == last
    events = [data for _, _, data in live[("events", "seat")][1]]
    assert [e["version"] for e in events] == list(range(opened + 1, last + 1))
    assert {e["type"] for e in events} >= {"MoveMade", "Finished"}
    assert [e["version"] for _, _, e in live[("events", "auditor")][1]] == list(range(1, last + 1))
    # A whole history in one changes frame, the finished view, and the events from the first, read afterwards.
    (_, _, whole), = list(sse(client, documented, MATCH, f"/matches/{match_id}/stream", bot, 0, changes="true"))
    assert [e["version"] for e in whole["events"]] == list(range(1, last + 1))
    (_, kind, view), = list(sse(client, documented, MATCH, f"/matches/{match_id}/stream", None, 0))
    assert kind == "match" and view["status"] == "finished"
    assert len(list(sse(client, documented, EVENTS, f"/matches/{match_id}/events/stream", None, 0))) == last
    # (Resumed from before the invitation, the match is told as of its last event: called off, no invitation.)
    assert [kind for _, kind, _ in sse(client, documented, MINE, MINE, ann, start, seconds=0.3)] == ["cancelled"]
    assert documented.seen[MATCH] == {"match", "changes"}
    assert {"Created", "SeatTaken", "Started", "MoveMade", "Finished"} <= documented.seen[EVENTS]
    assert {"invitation", "cancelled", "seats-filled", "started", "your-turn", "finished"} <= documented.seen[MINE]


def test_an_absent_seat_and_a_claimable_match_are_items_as_documented(client, audited):
    documented = Documented(client)
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    start = audited.app.log_position()
    made = client.post("/matches", {"game": "jest", "seats": 3, "turn_limit": {"seconds": 2, "on_timeout": "claim"}},
                       key=keys[0]).body
    match_id = made["id"]
    for key in keys:
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=keys[0])
    for seat in (0, 1):
        hand = client.get(f"/matches/{match_id}", key=keys[seat]).body["observation"]["hand"]
        move = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
        assert client.post(f"/matches/{match_id}/moves", move, key=keys[seat]).status == 201
    deadline = time.monotonic() + 30
    while client.get(f"/matches/{match_id}").body["absent"] != [2]:
        assert time.monotonic() < deadline, "the turn limit was not enforced"
        time.sleep(0.05)
    # A new connection first tells what waits: Cy's seat absent, a match Ann may claim.
    fresh = [kind for _, kind, _ in sse(client, documented, MINE, MINE, keys[2], seconds=0.3)]
    assert fresh[0] == "absent", fresh
    assert "claimable" in [kind for _, kind, _ in sse(client, documented, MINE, MINE, keys[0], seconds=0.3)]
    assert client.post(f"/matches/{match_id}/claim", key=keys[1]).status == 200
    # Resumed from before it all: the match is told as of its last event (finished: no turn, nothing to claim).
    told = [kind for _, kind, _ in sse(client, documented, MINE, MINE, keys[0], start, seconds=0.3)]
    assert {"started", "finished"} <= set(told), told
    assert {"absent", "claimable"} <= documented.seen[MINE]
    history = [kind for _, kind, _ in sse(client, documented, EVENTS, f"/matches/{match_id}/events/stream", None, 0)]
    assert {"TurnLimitSet", "SeatsTimedOut", "Claimed", "Finished"} <= set(history), history


def test_a_tournaments_frames_and_its_players_items_are_as_documented(client, audited):
    documented = Documented(client)
    start = audited.app.log_position()
    # Three at tables of two: a bye each round; the organiser withdraws a player at each table, which ends it.
    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy"), game="fools-crown", name="followed",
                                        rounds=2, table_size=2)
    path = f"/tournaments/{tid}/stream"
    ((opened, kind, _),) = list(sse(client, documented, TOURNAMENT, path, seconds=0.5))
    reader, frames = follow(client, documented, TOURNAMENT, path, None, opened, seconds=30)
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    withdrawn = []
    for round_no in (1, 2):
        deadline = time.monotonic() + 30
        while len(rounds := client.get(f"/tournaments/{tid}").body["rounds"]) < round_no:
            assert time.monotonic() < deadline, "the next round was not paired"
            audited.tasks.drain()
            time.sleep(0.05)
        (table,) = rounds[round_no - 1]["tables"]
        gone = next(player for player in table["players"] if player not in withdrawn)
        withdrawn.append(gone)
        assert client.call("DELETE", f"/tournaments/{tid}/players/{gone}", key=org).status == 200
        audited.tasks.drain()
    reader.join(timeout=30)
    assert not reader.is_alive() and frames[-1][2]["tournament"]["status"] == "finished", frames[-1:]
    # A sanction after the end: the one disqualified is told, the others their new standing.
    (kept,) = set(keys) - set(withdrawn)
    sanctioned = client.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": kept,
                                                              "reason": "played for another"}, key=org)
    assert sanctioned.status == 201, sanctioned.text
    ((_, _, after_end),) = list(sse(client, documented, TOURNAMENT, path, None, frames[-1][0], seconds=0.5))
    assert after_end["tournament"]["sanctions"] and after_end["standings"][-1]["status"] == "disqualified"
    told = {player: [kind for _, kind, _ in sse(client, documented, MINE, MINE, key, start, seconds=0.5)]
            for player, key in keys.items()}
    everything = {kind for kinds in told.values() for kind in kinds}
    # (No your-turn required: resumed afterwards, each match is told as of its last event, and whether a table
    # still waited for a move when the stream read its items is a race; the match's own test holds it.)
    assert {"bye", "withdrawn", "started", "finished", "tournament-finished", "disqualified",
            "standings-changed"} <= everything, told
    assert "disqualified" in told[kept] and all("standings-changed" in told[p] for p in withdrawn), told

    # A table forfeited after its round's deadline, and a tournament called off before its start.
    org, late, keys = entered_tournament(client, ("dan", "eve", "fay"), game="jest", name="late", rounds=1,
                                         table_size=3, round_deadline_seconds=1)
    assert client.post(f"/tournaments/{late}/start", key=org).status == 200
    (table,) = client.get(f"/tournaments/{late}").body["rounds"][0]["tables"]
    time.sleep(1.1)
    absent = table["players"][2]
    forfeit = client.post(f"/tournaments/{late}/forfeits", {"player_ids": [absent], "match_id": table["match_id"]},
                          key=org)
    assert forfeit.status == 200, forfeit.text
    assert "forfeited" in [kind for _, kind, _ in sse(client, documented, MINE, MINE, keys[absent], start,
                                                      seconds=0.5)]
    org, off, keys = entered_tournament(client, ("gus",), game="jest", name="off", rounds=1, table_size=3)
    assert client.post(f"/tournaments/{off}/cancel", key=org).status == 200
    (gus,) = keys.values()
    assert "tournament-cancelled" in [kind for _, kind, _ in sse(client, documented, MINE, MINE, gus, start,
                                                                 seconds=0.5)]
    assert documented.seen[TOURNAMENT] == {"tournament"}
    assert {"bye", "forfeited", "withdrawn", "disqualified", "tournament-finished", "standings-changed",
            "tournament-cancelled"} <= documented.seen[MINE]
