"""Absent players (issue 13): a match created with a time limit per turn. With the real worker on
PostgreSQL, a player who vanishes no longer blocks the match: when its turn runs out the computer plays
its seat and the match finishes. Created to be claimed instead, the others may end it (both stores)."""

from __future__ import annotations

import random
import time

import pytest

from api import create_app
from tests.platform.client import ApiClient, play_randomly


def events_of(client, match_id, kind):
    return [e for e in client.get(f"/matches/{match_id}/events").body["items"] if e["type"] == kind]


def test_a_match_where_one_player_vanishes_finishes_by_the_time_limit(worker_motley, seed):
    client = ApiClient(create_app(worker_motley))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    made = client.post("/matches", {"game": "jest", "seats": 3, "turn_limit": {"seconds": 2, "on_timeout": "computer"}},
                       key=keys[0])
    assert made.status == 201 and made.body["turn_limit"] == {"seconds": 2.0, "on_timeout": "computer"}
    match_id = made.body["id"]
    for key in keys:
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    started = client.post(f"/matches/{match_id}/start", key=keys[0]).body
    assert started["turn_clock"]["seats"] == [0, 1, 2] and started["turn_clock"]["deadline"]
    # Cy vanishes: only Ann and Bob ever move. The worker times Cy out and plays its seat.
    final = play_randomly(client, match_id, [keys[0], keys[1], None], random.Random(seed),
                          settle=lambda: time.sleep(0.05), timeout=240)
    assert final["status"] == "finished" and 2 in final["absent"] and final["result"]["ranks"]
    # (Ann or Bob may be slow once on a busy machine too: they are back with their next move.)
    timed_out = [e for e in events_of(client, match_id, "SeatsTimedOut") if 2 in e["seats"]]
    assert len(timed_out) == 1 and not [e for e in events_of(client, match_id, "SeatReturned") if e["seat"] == 2]
    late = timed_out[0]["version"]
    assert [e for e in events_of(client, match_id, "MoveMade") if e["seat"] == 2 and e["version"] > late]


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def test_the_others_claim_a_match_whose_player_is_absent(client, motley):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    made = client.post("/matches", {"game": "jest", "seats": 3, "turn_limit": {"seconds": 0.5, "on_timeout": "claim"}},
                       key=keys[0]).body
    match_id = made["id"]
    for key in keys:
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=keys[0])
    assert client.post(f"/matches/{match_id}/claim", key=keys[0]).status == 409  # nobody is absent yet
    for seat in (0, 1):
        view = client.get(f"/matches/{match_id}", key=keys[seat]).body
        hand = view["observation"]["hand"]
        move = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
        assert client.post(f"/matches/{match_id}/moves", move, key=keys[seat]).status == 201
    deadline = time.monotonic() + 30
    while client.get(f"/matches/{match_id}").body["absent"] != [2]:
        assert time.monotonic() < deadline, "the turn limit was not enforced"
        time.sleep(0.05)
    assert client.post(f"/matches/{match_id}/claim", key=keys[2]).status == 409  # the absent one cannot
    claimed = client.post(f"/matches/{match_id}/claim", key=keys[1])
    assert claimed.status == 200 and claimed.body["status"] == "finished"
    assert claimed.body["result"]["ranks"] == [1, 1, 3] and claimed.body["result"]["winners"] == [0, 1]
    for seconds in (0, "60", "1e3", True, None):  # out of range, or not a JSON number
        wrong = client.post("/matches", {"game": "jest", "seats": 3, "turn_limit": {"seconds": seconds}}, key=keys[0])
        assert wrong.status == 422, (seconds, wrong.text)
    plain = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body
    assert plain["turn_limit"] is None and plain["absent"] == []
