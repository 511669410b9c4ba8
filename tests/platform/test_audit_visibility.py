"""One visibility policy for every read (issue 11), over random matches of every game.

Each match is played through the API and rebuilt, version by version, from the auditor's export with
the bare engine. Then every read a seat or a spectator can make (the match at sampled versions, the
event list, diffs, the export and the live stream) must hold exactly what the engine lets that viewer
see at that version (its ``observe``, its ``redact``) and never the state or the seed, while the auditor
gets the whole state at every version and every event unredacted. Matches are created with
``"reveal_at_end": false`` so the policy still hides everything after the end; a revealed match shows
everything to everyone.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from api import create_app
from application.views import PARTLY_SHOWN
from domain.engine import CHANCE, SYSTEM
from domain.games import available_engines, get_engine
from infrastructure.composition import build
from tests.platform.client import ApiClient, play_randomly
from tests.platform.test_audit import AUDITOR, export, replayed_states, sse

OPTIONS = {"tumult-royale": {"tax_mode": "async"}, "le-bouffon": {"deals": 1}}
SAMPLED = 25


@pytest.fixture
def audit(settings, rng):
    container = build(dataclasses.replace(settings, auditor_key=AUDITOR), rng=rng)  # seeded: reproducible
    yield container, ApiClient(create_app(container))
    container.close()


def expected_event(line: dict, states: dict, engine, seat):
    """What the engine says ``seat`` (None: a spectator) may see of one stored event; ``hidden`` when any
    of it is withheld (all of it, or part: another seat's cards taken out of its offer)."""
    kind, data, version = line["event"], dict(line["data"]), line["version"]
    before = states.get(version - 1)
    if kind == "MoveMade":
        shown = engine.redact(before, data["seat"], data["action"], seat)
        return {"seat": data["seat"], "action": shown, "hidden": shown != data["action"]}
    if kind == "ChanceDrawn":
        shown = engine.redact(before, CHANCE, data["outcome"], seat)
        return {"outcome": shown, "hidden": shown != data["outcome"]}
    if kind in ("StepResolved", "TimedOut"):
        shown = engine.redact(before, SYSTEM, data["step"], seat)
        return {"step": shown, "hidden": shown != data["step"]}
    return None


def content(item: dict) -> dict:
    return {k: item[k] for k in ("seat", "action", "outcome", "step", "hidden") if k in item}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(available_engines()))
def test_no_read_shows_a_seat_or_a_spectator_more_than_the_engine_lets_it_see(audit, game):
    container, client = audit
    engine = get_engine(game)
    players = max(engine.min_players, 3) if engine.max_players >= 3 else engine.min_players
    keys = [client.register(f"p{i}")[1] for i in range(players)]
    body = {"game": game, "seats": players, "options": OPTIONS.get(game, {}), "reveal_at_end": False}
    match_id = client.post("/matches", body, key=keys[0]).body["id"]
    for key in keys:
        assert client.post(f"/matches/{match_id}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{match_id}/start", key=keys[0]).status == 200
    rng = random.Random(game)
    play_randomly(client, match_id, keys, rng, settle=container.tasks.drain, timeout=300)
    container.tasks.drain()

    lines = export(client, match_id, AUDITOR)
    states = replayed_states(lines)
    last = lines[-1]["version"]
    seed = lines[0]["data"]["chance"]["seed"]
    assert lines[-1]["event"] == "Finished" and lines[-1]["data"]["seed"] == seed
    versions = sorted({1, 2, 3, last, *rng.sample(range(1, last + 1), min(SAMPLED, last))})
    viewers = [(key, seat) for seat, key in enumerate(keys)] + [(None, None)]
    secrets_exist = False

    for version in versions:
        audited = client.get(f"/matches/{match_id}", key=AUDITOR, query={"version": version}).body
        assert audited["state"] == states[version] and audited["viewer"]["kind"] == "auditor"
        for key, seat in viewers:
            answer = client.get(f"/matches/{match_id}", key=key, query={"version": version})
            view = answer.body
            assert "state" not in view and seed not in answer.text, (game, version, seat)
            assert view["chance"]["seed"] is None
            expected = None if states[version] is None else engine.observe(states[version], seat)
            assert view["observation"] == expected, (game, version, seat)
            secrets_exist |= states[version] is not None and json.dumps(expected) != json.dumps(states[version])
    assert secrets_exist

    audited_events = client.get(f"/matches/{match_id}/events", key=AUDITOR, query={"limit": 5000}).body["items"]
    # The list says hidden: false on what may be withheld and is not (the export leaves the key out).
    assert [content(e) for e in audited_events] == [
        content({**line["data"], **({"hidden": False} if line["event"] in PARTLY_SHOWN else {})}) for line in lines]
    for key, seat in viewers:
        events = client.get(f"/matches/{match_id}/events", key=key, query={"limit": 5000})
        assert seed not in events.text
        items = events.body["items"]
        assert [e["version"] for e in items] == list(range(1, last + 1))
        for item, line in zip(items, lines):
            wanted = expected_event(line, states, engine, seat)
            if wanted is not None:
                assert content(item) == wanted, (game, line["version"], seat)
        start = rng.randint(1, last - 1)
        end = rng.randint(start, min(last, start + 50))
        diff = client.get(f"/matches/{match_id}/diff", key=key, query={"from": start, "to": end}).body["events"]
        assert diff == items[start:end]
        exported = export(client, match_id, key)
        # The list's moves say who made them (all players here, none resigned or away); the export, the
        # import's form, holds the stored fields only.
        assert {e.pop("by") for e in items if e["type"] == "MoveMade"} == {"player"}
        assert [{"version": x["version"], "type": x["event"], "at": x["at"], **x["data"]} for x in exported] == items
        streamed = client.http.get(f"/matches/{match_id}/events/stream", query_string={"seconds": 1},
                                   headers={"Authorization": f"Bearer {key}"} if key else {})
        assert [{k: v for k, v in e["data"].items() if k != "by"} for e in sse(streamed.get_data(as_text=True))] \
            == items


def test_a_revealed_match_shows_everything_to_everyone_at_every_version(audit):
    container, client = audit
    keys = [client.register(f"p{i}")[1] for i in range(3)]
    match_id = client.new_match("jest", 3, keys)
    mid_game = client.get(f"/matches/{match_id}", key=keys[0]).body
    assert "state" not in mid_game and mid_game["viewer"] == {"kind": "seat", "seat": 0, "sees_all": False,
                                                                  "sees_own": True}
    offer = {"action": mid_game["legal_actions"][0]}
    assert client.post(f"/matches/{match_id}/moves", offer, key=keys[0]).status == 201
    early = client.get(f"/matches/{match_id}/events", key=keys[0]).body["items"]  # the deal hidden, its own offer not
    play_randomly(client, match_id, keys, random.Random(7), settle=container.tasks.drain)
    lines = export(client, match_id, AUDITOR)
    states = replayed_states(lines)
    # Every item that may be withheld says whether it is, revealed too (a streams probe: the key was left
    # out, so the items a client kept from the stream while nothing was hidden differed from a fresh read
    # of them): those it kept equal the revealed ones; the export still leaves the key out.
    late = client.get(f"/matches/{match_id}/events", key=keys[0]).body["items"]
    assert any(item.get("hidden") for item in early)
    assert [item["hidden"] for item in late if item["type"] in ("MoveMade", "ChanceDrawn")] == [False] * sum(
        1 for line in lines if line["event"] in ("MoveMade", "ChanceDrawn"))
    assert [item for item in early if item.get("hidden") is False] == [
        late[item["version"] - 1] for item in early if item.get("hidden") is False] != []
    assert not any("hidden" in line["data"] for line in lines)
    for key in (keys[1], None):
        for version in (3, len(lines) // 2, len(lines)):
            view = client.get(f"/matches/{match_id}", key=key, query={"version": version}).body
            assert view["state"] == states[version] and view["chance"]["seed"] == lines[0]["data"]["chance"]["seed"]
        # Everything but the players' idempotency keys, which only the auditor reads (their own business).
        unkeyed = [{**line, "data": {k: v for k, v in line["data"].items() if k != "request_key"}} for line in lines]
        assert export(client, match_id, key) == unkeyed
    assert any("request_key" in line["data"] for line in lines)


def test_a_player_who_resigned_a_match_still_played_watches_it_as_a_spectator(audit):
    """Resigned, a player kept reading the seat's private view while the computer played it on: the hands
    of later deals, the cards it drew, news to an ally still at the table. While the match is played the
    player sees what a spectator sees (the seat stays theirs: ``your_seat``); once it is over, the versions
    before the resignation are theirs again, and those after it stay the computer's: the cards it was dealt
    and passed for the seat were shown to its player at the end, though nobody else saw them
    (``reveal_at_end: false``; a secrets probe)."""
    container, client = audit
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    body = {"game": "le-bouffon", "seats": 3, "options": {"deals": 2}, "reveal_at_end": False}
    match_id = client.post("/matches", body, key=keys[0]).body["id"]
    for key in keys:
        assert client.post(f"/matches/{match_id}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{match_id}/start", key=keys[0]).status == 200
    path = f"/matches/{match_id}"
    bob = client.get(path, key=keys[1]).body
    assert bob["observation"] != client.get(path).body["observation"]  # his hand, before
    assert client.post(f"{path}/resign", key=keys[1]).status == 200
    container.tasks.drain()
    resigned, spectator = client.get(path, key=keys[1]).body, client.get(path).body
    assert resigned["status"] == "active" and resigned["your_seat"] == bob["your_seat"]
    assert resigned["observation"] == spectator["observation"] and resigned["legal_actions"] == []
    events = client.get(f"{path}/events", key=keys[1], query={"limit": 1000}).body["items"]
    watched = client.get(f"{path}/events", query={"limit": 1000}).body["items"]
    assert events == watched  # his own seat's cards too, as a spectator's
    play_randomly(client, match_id, [keys[0], None, keys[2]], random.Random(3), settle=container.tasks.drain)
    container.tasks.drain()
    over = client.get(path, key=keys[1]).body
    assert over["status"] == "finished" and over["observation"] == client.get(path).body["observation"]
    assert over["viewer"]["sees_own"] is False
    at_resignation = next(e["version"] for e in client.get(f"{path}/events", key=keys[1], query={"limit": 1000})
                          .body["items"] if e["type"] == "Resigned")
    before = client.get(path, key=keys[1], query={"version": at_resignation - 1}).body
    assert before["observation"] == bob["observation"] and before["viewer"]["sees_own"] is True  # his own, again
    after = client.get(path, key=keys[1], query={"version": at_resignation}).body
    assert after["observation"] == client.get(path, query={"version": at_resignation}).body["observation"]
    assert client.get(f"{path}/events", key=keys[1], query={"after": at_resignation, "limit": 1000}).body["items"] \
        == client.get(f"{path}/events", query={"after": at_resignation, "limit": 1000}).body["items"]
