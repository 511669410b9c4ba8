"""Unlisted matches joined by invitation code (issue 13), through the HTTP API on both stores: kept out
of the open list, the code shown to the creator only (never in the event list), a join without it is a
403, with it a seat; an invited player hears of it on its stream."""

from __future__ import annotations

import pytest

from api import create_app
from tests.platform.client import ApiClient
from tests.platform.test_lifecycle_edges import finished_pair
from tests.platform.test_my_stream import sse


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def test_an_unlisted_match_is_joined_by_its_invitation_code(client, motley):
    ann, bob, cy, eve = (client.register(name)[1] for name in ("ann", "bob", "cy", "eve"))
    made = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann)
    assert made.status == 201 and made.body["unlisted"] is True
    code = made.body["invitation_code"]
    match_id = made.body["id"]
    path = f"/matches/{match_id}"
    assert client.get(path, key=ann).body["invitation_code"] == code
    for key in (None, bob):
        assert "invitation_code" not in client.get(path, key=key).body
    assert code not in client.get(f"{path}/events").text and code not in client.get(f"{path}/events", key=bob).text
    refused = client.post(f"{path}/seats", {}, key=bob)
    assert refused.status == 403 and refused.body["rule"] == "invitation"
    assert "its invitation code" in refused.body["detail"]
    # A wrong code is said to be wrong (it was told to send one), a code in another script too (no 500).
    for guess in ("guess", "déjà-vu ☃"):
        wrong = client.post(f"{path}/seats", {"invitation_code": guess}, key=bob)
        assert wrong.status == 403 and wrong.body["detail"] == "that is not this match's invitation code", wrong.text
    assert client.post(f"{path}/seats", {}, key=ann).status == 201  # the creator needs no code
    for key in (bob, cy):
        assert client.post(f"{path}/seats", {"invitation_code": code}, key=key).status == 201
    assert client.post(f"{path}/seats", {"invitation_code": code}, key=eve).status == 409  # full
    listed = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    client.post(f"{path}/leave", key=cy)  # a free seat again: still not in the open list
    motley.tasks.drain()
    open_ids = [m["id"] for m in client.get("/matches", query={"open": "true"}).body["items"]]
    assert open_ids == [listed]
    # Its own players' list shows its free seat: it said 0, so the creator's lobby showed it full and
    # open=true left it out (a read-side probe).
    ann_id = client.get("/players/me", key=ann).body["id"]
    own = client.get("/matches", query={"open": "true", "player": ann_id}, key=ann).body["items"]
    assert [(m["id"], m["open_seats"]) for m in own if m["id"] == match_id] == [(match_id, 1)], own


def test_an_invited_player_hears_of_it_on_its_stream_and_joins_without_the_code(client, motley):
    (_, ann), (dan_id, dan), (_, eve) = (client.register(name) for name in ("ann", "dan", "eve"))
    match_id = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann).body["id"]
    before = motley.app.log_position()
    assert client.post(f"/matches/{match_id}/invitations", {"player_id": dan_id}, key=eve).status == 403
    assert client.post(f"/matches/{match_id}/invitations", {"player_id": "0" * 32}, key=ann).status == 404
    assert client.post(f"/matches/{match_id}/invitations", {"player_id": dan_id}, key=ann).status == 200

    [(_, kind, data)] = list(sse(client, dan, last_event_id=before, seconds=0.5))
    assert kind == "invitation" and data["match_id"] == match_id and data["match"]["status"] == "open"
    assert list(sse(client, eve, last_event_id=before, seconds=0.3)) == []
    assert client.post(f"/matches/{match_id}/seats", {}, key=dan).status == 201
    assert client.post(f"/matches/{match_id}/seats", {}, key=eve).status == 403



def test_an_invited_player_is_told_when_the_match_is_called_off(client, motley):
    """Only seated players were told of a cancellation: an invitee's client kept offering to accept an
    invitation whose join could only be refused."""
    (_, ann), (dan_id, dan) = (client.register(name) for name in ("ann", "dan"))
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    before = motley.app.log_position()
    client.post(f"/matches/{match_id}/invitations", {"player_id": dan_id}, key=ann)
    assert client.post(f"/matches/{match_id}/cancel", key=ann).status == 200
    kinds = [(kind, data["match_id"]) for _, kind, data in sse(client, dan, last_event_id=before, seconds=0.5)]
    assert kinds == [("invitation", match_id), ("cancelled", match_id)] or kinds == [("cancelled", match_id)]


def test_the_matches_waiting_for_a_player_are_listed_for_it_until_it_joins(client, motley):
    """An invitation was told only on the player's stream, as it came: a client that was not following
    then (a new browser, a bot started later) could not learn of it. GET /players/me/invitations lists
    the open matches that wait for the caller: invited by id, or a seat kept for it (a rematch)."""
    (_, ann), (dan_id, dan), (_, eve) = (client.register(name) for name in ("ann", "dan", "eve"))
    match_id = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann).body["id"]
    other = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    client.post(f"/matches/{other}/invitations", {"player_id": dan_id}, key=ann)
    invited = client.post(f"/matches/{match_id}/invitations", {"player_id": dan_id}, key=ann)

    def waiting(key, position=None):
        answer = client.get("/players/me/invitations", key=key,
                            query=None if position is None else {"after": position})
        assert answer.status == 200, answer.text
        return {item["id"] for item in answer.body["items"]}

    assert waiting(dan) == {match_id, other}  # at once: the invitee never sees the inviter's position
    assert waiting(dan, invited.headers["Motley-Position"]) == {match_id, other}
    assert waiting(eve) == set() and waiting(ann) == set()
    assert client.get("/players/me/invitations").status == 401
    client.post(f"/matches/{match_id}/seats", {}, key=dan)
    cancelled = client.post(f"/matches/{other}/cancel", key=ann)
    assert waiting(dan, cancelled.headers["Motley-Position"]) == set()
    # Filled by others meanwhile: no seat is left for the invited player (its join would be a 409).
    full = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    client.post(f"/matches/{full}/invitations", {"player_id": dan_id}, key=ann)
    assert waiting(dan, client.post(f"/matches/{full}/seats", {}, key=ann).headers["Motley-Position"]) == {full}
    for key in (eve, client.register("fay")[1]):
        seated = client.post(f"/matches/{full}/seats", {}, key=key)
    assert waiting(dan, seated.headers["Motley-Position"]) == set()
    # A rematch keeps each player's seat: it waits for Bob and Cy until they sit down.
    old, ann, bob, cy, dan = finished_pair(client)
    rematch = client.post(f"/matches/{old}/rematch", key=ann)
    assert waiting(bob, rematch.headers["Motley-Position"]) == {rematch.body["id"]} == waiting(cy)
    assert waiting(ann) == set() and waiting(dan) == set()


def test_the_invitations_list_answers_promptly_when_the_match_list_lags(tmp_path):
    """Without ?after= the list waits for the log's end, briefly: with the read model's worker down, it
    held one of the few request threads for 5 s at every poll of every open lobby."""
    import time

    from application.ports import NoTaskQueue
    from infrastructure.composition import build
    from infrastructure.settings import Settings

    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "lagging.sqlite")), tasks=NoTaskQueue())
    try:
        client = ApiClient(create_app(container))
        _, key = client.register("ann")  # a write the list never applies: nothing projects it
        started = time.monotonic()
        answer = client.get("/players/me/invitations", key=key)
        assert answer.status == 200 and answer.body["items"] == []
        assert time.monotonic() - started < 2, "a lagging list held the request"
    finally:
        container.close()
