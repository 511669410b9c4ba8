"""A match's whole life through the HTTP API on both stores (issue 13): leave a seat before the start,
cancel an open match, resign during play (ranked last, tied with other resigned seats, the computer
plays on), and rematch (a new match with the same seats and options, linked both ways)."""

from __future__ import annotations

import random

import pytest

from api import create_app
from tests.platform.client import ApiClient, play_randomly


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def players(client, *names):
    return [client.register(name)[1] for name in names]


def test_leave_a_seat_then_the_creator_cancels(client, motley):
    ann, bob, cy, eve = players(client, "ann", "bob", "cy", "eve")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    path = f"/matches/{match_id}"
    for key in (ann, bob):
        assert client.post(f"{path}/seats", {}, key=key).status == 201
    assert client.post(f"{path}/leave", key=cy).status == 403  # holds no seat
    left = client.post(f"{path}/leave", key=bob)
    assert left.status == 200 and left.body["seats"][1]["player_id"] is None and left.body["your_seat"] is None
    assert client.post(f"{path}/seats", {"seat": 1}, key=eve).body["seat"] == 1  # the seat is free again
    assert client.post(f"{path}/start", key=bob).status == 403
    assert client.post(f"{path}/cancel", key=eve).status == 403  # only the creator cancels
    version = client.get(path).body["version"]
    cancelled = client.post(f"{path}/cancel", key=ann)
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled"
    assert cancelled.body["version"] == version + 1
    for verb, body in (("seats", {}), ("start", None), ("cancel", None), ("leave", None)):
        refused = client.post(f"{path}/{verb}", body, key=ann if verb != "seats" else cy)
        assert refused.status == 409 and refused.body["type"] == "urn:motley:problem:conflict", (verb, refused.text)
    assert client.get(path).body["version"] == version + 1  # the refusals changed nothing
    motley.tasks.drain()
    listed = client.get("/matches", query={"status": "cancelled"}).body["items"]
    assert [m["id"] for m in listed] == [match_id]


def test_who_may_act_is_answered_before_the_matchs_state(client, motley):
    """A stranger leaving an active match was told 409 (the match is not open) where it may not leave
    at all (403): a refusal for both reasons says the permission first, whatever the state
    (docs/problems.md, forbidden)."""
    ann, bob, cy, eve = players(client, "ann", "bob", "cy", "eve")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    path = f"/matches/{match_id}"
    for key in (ann, bob):
        client.post(f"{path}/seats", {}, key=key)
    for verb in ("resign", "claim", "return"):  # open: a stranger resigns (claims, returns to) nothing
        assert client.post(f"{path}/{verb}", key=eve).status == 403, verb
    client.post(f"{path}/seats", {}, key=cy)
    assert client.post(f"{path}/start", key=ann).status == 200
    version = client.get(path).body["version"]
    eve_id = client.get("/players/me", key=eve).body["id"]
    for verb, key in (("leave", eve), ("resign", eve), ("start", eve), ("cancel", eve), ("cancel", bob),
                      ("invitations", bob)):
        refused = client.post(f"{path}/{verb}", {"player_id": eve_id} if verb == "invitations" else None, key=key)
        assert refused.status == 403 and refused.body["type"] == "urn:motley:problem:forbidden", (verb, refused.text)
    for verb, key in (("leave", bob), ("start", bob), ("cancel", ann)):  # allowed people, wrong state
        assert client.post(f"{path}/{verb}", key=key).status == 409, verb
    assert client.get(path).body["version"] == version


def test_a_resigned_seat_is_played_by_the_computer_and_ranked_last(client, motley):
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    assert client.post(f"{path}/resign", key=players(client, "eve")[0]).status == 403
    offer = client.get(path, key=keys[1]).body["legal_actions"][0]  # Jest's offers: every seat acts at once
    resigned = client.post(f"{path}/resign", key=keys[1])
    assert resigned.status == 200 and resigned.body["resigned"] == [1] and resigned.body["status"] == "active"
    again = client.post(f"{path}/resign", key=keys[1])
    assert again.status == 409
    assert client.get(path, key=keys[1]).body["legal_actions"] == []  # the computer's seat now
    refused = client.post(f"{path}/moves", {"action": offer}, key=keys[1])
    assert refused.status == 409 and refused.body["rule"] == "resignation"
    # A stale If-Match is the 412 before the move's 409s, as for every other seat (docs/problems.md).
    motley.tasks.drain()  # the computer's move for the resigned seat, before the version is read
    before = client.get(path).body["version"]
    stale = client.post(f"{path}/moves", {"action": offer}, key=keys[1], headers={"If-Match": f'"{before - 1}"'})
    assert stale.status == 412 and stale.body["type"] == "urn:motley:problem:precondition-failed", stale.text
    assert client.get(path).body["version"] == before  # nothing saved
    final = play_randomly(client, match_id, [keys[0], None, keys[2]], random.Random(7),
                          settle=lambda: motley.tasks.drain())
    assert final["status"] == "finished"
    ranks = final["result"]["ranks"]
    assert ranks[1] == 3 and sorted(ranks[s] for s in (0, 2)) in ([1, 1], [1, 2])
    assert final["result"]["resigned"] == [1] and 1 not in final["result"]["winners"]
    moved = [e for e in client.get(f"{path}/events").body["items"]
             if e["type"] == "MoveMade" and e["seat"] == 1 and e["version"] > resigned.body["version"]]
    assert moved  # the computer played the resigned seat
    # ... and the event list says so: a move names who made it (an auditor could not tell them apart).
    moves = [e for e in client.get(f"{path}/events").body["items"] if e["type"] == "MoveMade"]
    assert {e["by"] for e in moves if e["seat"] == 1} == {"computer"}
    assert {e["by"] for e in moves if e["seat"] != 1} == {"player"}


def test_the_last_seat_standing_wins_and_a_rematch_links_both_ways(client, motley):
    keys = players(client, "ann", "bob", "cy")
    _, eve = client.register("eve")
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    assert client.post(f"{path}/rematch", key=keys[0]).status == 409  # not finished yet
    client.post(f"{path}/resign", key=keys[2])
    final = client.post(f"{path}/resign", key=keys[0]).body
    assert final["status"] == "finished" and final["result"]["ranks"] == [2, 1, 2]
    assert final["result"]["winners"] == [1] and final["result"]["resigned"] == [0, 2]

    assert client.post(f"{path}/rematch", key=eve).status == 403
    rematch = client.post(f"{path}/rematch", key=keys[1])
    assert rematch.status == 201 and rematch.headers["Location"] == f"/matches/{rematch.body['id']}"
    new = rematch.body
    assert new["status"] == "open" and new["your_seat"] == 1 and new["rematch"]["of"] == match_id
    assert (new["game"], new["options"], len(new["seats"])) == (final["game"], final["options"], 3)
    assert [s["kept_for"] for s in new["seats"]] == [s["player_id"] for s in final["seats"]]
    assert client.post(f"{path}/rematch", key=keys[0]).body["id"] == new["id"]  # one rematch
    assert client.get(path).body["rematch"]["next"] == new["id"]
    assert client.post(f"/matches/{new['id']}/seats", {}, key=eve).status == 409  # the seats are kept
    for key in (keys[2], keys[0]):
        client.post(f"/matches/{new['id']}/seats", {}, key=key)
    started = client.post(f"/matches/{new['id']}/start", key=keys[0]).body
    assert started["status"] == "active"
    assert [s["player_id"] for s in started["seats"]] == [s["player_id"] for s in final["seats"]]
