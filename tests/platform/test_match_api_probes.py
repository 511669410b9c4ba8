"""Probes of the match lifecycle API as a demanding client uses it: each answer that once contradicted
the README or docs/problems.md (a retry answered as another request, legal actions a seat may not
play, ...) and is now right."""

from __future__ import annotations

import base64
import json
import threading
import time

import pytest

from api import create_app
from api.rates import holds_a_thread
from api.server import is_long_lived
from application.service import Motley
from tests.platform.client import ApiClient


@pytest.fixture
def client(sqlite_motley):
    return ApiClient(create_app(sqlite_motley))


def players(client, *names):
    return [client.register(name)[1] for name in names]


def view(client, match_id, key):
    return client.get(f"/matches/{match_id}", key=key).body


def test_an_idempotency_key_reused_for_a_move_of_other_json_types_is_a_conflict(client):
    """A retry is the same JSON: {"from": false} or {"from": 0.0} is not {"from": 0} (the engine refuses
    both as illegal), so it was answered 201 Idempotent-Replayed as if it had been made."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    for key in keys:  # every seat offers; then the first taker takes
        assert client.post(f"/matches/{match_id}/moves", {"action": view(client, match_id, key)["legal_actions"][0]},
                           key=key).status == 201
    seat = view(client, match_id, None)["to_act"]["seats"][0]
    take = next(a for a in view(client, match_id, keys[seat])["legal_actions"] if a["from"] in (0, 1))
    path = f"/matches/{match_id}/moves"
    first = client.post(path, {"action": take}, key=keys[seat], headers={"Idempotency-Key": "take-1"})
    assert first.status == 201
    for other in ({**take, "from": float(take["from"])}, {**take, "from": bool(take["from"])}):
        refused = client.post(path, {"action": other}, key=keys[seat], headers={"Idempotency-Key": "take-1"})
        assert refused.status == 409 and refused.body["rule"] == "idempotency", (other, refused.text)
    again = client.post(path, {"action": take}, key=keys[seat], headers={"Idempotency-Key": "take-1"})
    assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.body["version"] == first.body["version"]


def test_an_idempotency_key_reused_with_another_stated_version_is_a_conflict(client):
    """A retry with the same action but another ``expected_version`` (or If-Match) than the version the move
    was played at is another request: it was answered 201 Idempotent-Replayed, telling the client its move
    was played at a version never checked (a stress probe). Stating the right one, or none, is a retry."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}/moves"
    at = view(client, match_id, keys[0])["version"]
    offer = view(client, match_id, keys[0])["legal_actions"][0]
    first = client.post(path, {"action": offer, "expected_version": at}, key=keys[0],
                        headers={"Idempotency-Key": "offer-1"})
    assert first.status == 201
    for stated in ({"expected_version": at + 3}, {"expected_version": at - 1}):
        refused = client.post(path, {"action": offer, **stated}, key=keys[0], headers={"Idempotency-Key": "offer-1"})
        assert refused.status == 409 and refused.body["rule"] == "idempotency", refused.text
        assert refused.headers["Content-Type"] == "application/problem+json"
    refused = client.post(path, {"action": offer}, key=keys[0],
                          headers={"Idempotency-Key": "offer-1", "If-Match": f'"{at + 1}"'})
    assert refused.status == 409 and refused.body["rule"] == "idempotency", refused.text
    for same in ({"expected_version": at}, {}):
        again = client.post(path, {"action": offer, **same}, key=keys[0], headers={"Idempotency-Key": "offer-1"})
        assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true", again.text
        assert again.body["version"] == first.body["version"]
    assert view(client, match_id, None)["version"] == first.body["version"]  # nothing played twice


def test_a_retry_of_an_absent_seats_move_stating_its_version_is_a_replay(client):
    """An absent seat's move returns it first, in the same save (SeatReturned, then MoveMade): its retry
    stating the version it was played at was refused as another request (a review)."""
    import time

    keys = players(client, "ann", "bob", "cy")
    timed = {"game": "jest", "seats": 3, "turn_limit": {"seconds": 0.5, "on_timeout": "claim"}}
    match_id = client.post("/matches", timed, key=keys[0]).body["id"]
    for key in keys:
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=keys[0])
    for seat in (0, 1):
        offer = view(client, match_id, keys[seat])["legal_actions"][0]
        assert client.post(f"/matches/{match_id}/moves", {"action": offer}, key=keys[seat]).status == 201
    deadline = time.monotonic() + 30
    while view(client, match_id, None)["absent"] != [2]:
        assert time.monotonic() < deadline, "the turn clock never ran out"
        time.sleep(0.05)
    seen = view(client, match_id, keys[2])
    body = {"action": seen["legal_actions"][0], "expected_version": seen["version"]}
    path = f"/matches/{match_id}/moves"
    first = client.post(path, body, key=keys[2], headers={"Idempotency-Key": "back-1"})
    assert first.status == 201, first.text
    again = client.post(path, body, key=keys[2], headers={"Idempotency-Key": "back-1"})
    assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true", again.text
    by_tag = client.post(path, {"action": body["action"]}, key=keys[2],
                         headers={"Idempotency-Key": "back-1", "If-Match": f'"{seen["version"]}"'})
    assert by_tag.status == 201 and by_tag.headers["Idempotent-Replayed"] == "true", by_tag.text


def test_a_retry_with_the_same_if_match_list_is_a_replay(client):
    """A list holds when any of its strong tags is the version (RFC 9110 §13.1.1): the same list again, once
    the move landed, was refused as stating another version (a review)."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    seen = view(client, match_id, keys[0])
    headers = {"Idempotency-Key": "listed-1", "If-Match": f'"{seen["version"]}", "{seen["version"] + 5}"'}
    path = f"/matches/{match_id}/moves"
    first = client.post(path, {"action": seen["legal_actions"][0]}, key=keys[0], headers=headers)
    assert first.status == 201, first.text
    again = client.post(path, {"action": seen["legal_actions"][0]}, key=keys[0], headers=headers)
    assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true", again.text
    other = client.post(path, {"action": seen["legal_actions"][0]}, key=keys[0],
                        headers={**headers, "If-Match": f'"{seen["version"] + 4}", "{seen["version"] + 5}"'})
    assert other.status == 409 and other.body["rule"] == "idempotency", other.text


def test_a_resigned_seat_is_offered_no_legal_actions(client):
    """The computer plays a resigned seat and its player's moves are refused (409, rule resignation):
    its view listed the seat's legal actions all the same, and a bot playing the first of them was refused."""
    keys = players(client, "ann", "bob", "cy", "dee")
    match_id = client.new_match("jest", 4, keys)  # the offer: every seat is to act
    assert client.post(f"/matches/{match_id}/resign", key=keys[1]).status == 200
    mine = view(client, match_id, keys[1])
    assert mine["status"] == "active" and mine["your_seat"] == 1 and mine["resigned"] == [1]
    assert mine["legal_actions"] == []
    assert view(client, match_id, keys[0])["legal_actions"]  # the others still play



def test_a_move_retried_after_its_player_resigned_gets_its_first_answer(client):
    """The answer to a move was lost, then its player resigned: the retry (same Idempotency-Key, same
    move) was refused 409 "resignation" for a move that had been made. A retry gets the first answer."""
    keys = players(client, "ann", "bob", "cy", "dee")
    match_id = client.new_match("jest", 4, keys)
    path = f"/matches/{match_id}/moves"
    offer = view(client, match_id, keys[1])["legal_actions"][0]
    first = client.post(path, {"action": offer}, key=keys[1], headers={"Idempotency-Key": "offer-1"})
    assert first.status == 201
    assert client.post(f"/matches/{match_id}/resign", key=keys[1]).status == 200
    again = client.post(path, {"action": offer}, key=keys[1], headers={"Idempotency-Key": "offer-1"})
    assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true", again.text
    assert again.body["version"] == first.body["version"]
    fresh = client.post(path, {"action": offer}, key=keys[1], headers={"Idempotency-Key": "offer-2"})
    assert fresh.status == 409 and fresh.body["rule"] == "resignation"

def test_the_last_page_in_creation_order_has_no_next_cursor_with_an_offset_too(client, sqlite_motley):
    """next_cursor is "null on the last page": a page at an offset that reached the end of the list still
    named a cursor, and the next page was empty."""
    (ann,) = players(client, "ann")
    for _ in range(7):
        assert client.post("/matches", {"game": "jest", "seats": 3}, key=ann).status == 201
    sqlite_motley.tasks.drain()
    last = client.get("/matches", query={"order": "created", "limit": 3, "offset": 4}).body
    assert len(last["items"]) == 3 and last["total"] == 7 and last["next_cursor"] is None
    middle = client.get("/matches", query={"order": "created", "limit": 3, "offset": 3}).body
    after = client.get("/matches", query={"order": "created", "limit": 3, "cursor": middle["next_cursor"]}).body
    assert len(after["items"]) == 1 and after["next_cursor"] is None


@pytest.fixture
def any_client(motley):
    return ApiClient(create_app(motley))


def test_a_forged_cursor_is_a_422_on_every_store(any_client, motley):
    """A cursor is a next_cursor the list answered with: one whose match id held a NUL went to PostgreSQL
    as it was (text cannot hold a NUL) and was a 500."""
    (ann,) = players(any_client, "ann")
    assert any_client.post("/matches", {"game": "jest", "seats": 3}, key=ann).status == 201
    motley.tasks.drain()

    def forged(created, match_id):
        text = json.dumps([created, match_id]).encode()
        return base64.urlsafe_b64encode(text).decode().rstrip("=")

    for match_id in ("\u0000", "a\u0000b", "\ud800", 5, None):
        cursor = forged("2020-01-01T00:00:00", match_id)
        answer = any_client.get("/matches", query={"order": "created", "cursor": cursor})
        assert answer.status == 422 and answer.body["type"].endswith("invalid-request"), (match_id, answer.text)


def test_forks_and_rematches_of_a_match_that_plays_itself_count_as_computer_only_matches(sqlite_motley):
    """At most so many matches that play themselves per player (README): a finished computer match,
    forked by anyone again and again, or a one-seat match with on_timeout computer rematched after each
    end, gave as many as a script asked for, none of them counted."""
    from dataclasses import replace

    sqlite_motley.settings = replace(sqlite_motley.settings, rate_limits="computer_only=1/hour")
    client = ApiClient(create_app(sqlite_motley))
    ann, bob, cy = players(client, "ann", "bob", "cy")
    computers = {"0": "random", "1": "random", "2": "random"}
    made = client.post("/matches", {"game": "jest", "seats": 3, "computers": computers}, key=ann).body
    assert client.post(f"/matches/{made['id']}/start", key=ann).status == 200
    sqlite_motley.tasks.drain()
    assert view(client, made["id"], None)["status"] == "finished"
    assert client.post(f"/matches/{made['id']}/forks", {"version": 1}, key=bob).status == 201
    refused = client.post(f"/matches/{made['id']}/forks", {"version": 1}, key=bob)
    assert refused.status == 429 and refused.body["limit"] == "computer_only", refused.text

    alone = {"game": "jest", "seats": 3, "computers": {"1": "random", "2": "random"},
             "turn_limit": {"seconds": 60, "on_timeout": "computer"}}
    match_id = client.post("/matches", alone, key=cy).body["id"]
    assert client.post(f"/matches/{match_id}/seats", {}, key=cy).status == 201
    assert client.post(f"/matches/{match_id}/start", key=cy).status == 200
    assert client.post(f"/matches/{match_id}/resign", key=cy).body["status"] == "finished"
    refused = client.post(f"/matches/{match_id}/rematch", key=cy)
    assert refused.status == 429 and refused.body["limit"] == "computer_only", refused.text
    assert view(client, match_id, cy)["rematch"]["next"] is None  # nothing was created


def test_the_streams_of_a_cancelled_match_end_at_once(client):
    """A cancelled match never changes again: its streams sent what there was and then stayed open for
    the whole of ``seconds`` (up to a day), holding one of the client's four long-lived requests."""
    (ann,) = players(client, "ann")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    assert client.post(f"/matches/{match_id}/cancel", key=ann).status == 200
    for path in ("stream", "events/stream"):
        started = time.monotonic()
        answer = client.http.get(f"/matches/{match_id}/{path}", query_string={"seconds": 5})
        text = answer.get_data(as_text=True)
        answer.close()
        assert answer.status_code == 200 and time.monotonic() - started < 3, path
        assert "id: 2\n" in text, text  # the cancellation was sent first


def test_play_again_after_the_rematch_was_cancelled_makes_a_new_rematch(client):
    """A cancelled rematch answered every later ask (201, status cancelled): nobody could play again."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    for key in keys[1:]:
        assert client.post(f"/matches/{match_id}/resign", key=key).status == 200
    first = client.post(f"/matches/{match_id}/rematch", key=keys[1]).body["id"]
    assert client.post(f"/matches/{first}/cancel", key=keys[1]).status == 200
    again = client.post(f"/matches/{match_id}/rematch", key=keys[0])
    assert again.status == 201 and again.body["id"] != first and again.body["status"] == "open"
    assert again.body["rematch"]["of"] == match_id and again.body["your_seat"] == 0
    assert view(client, match_id, None)["rematch"]["next"] == again.body["id"]
    assert client.post(f"/matches/{match_id}/rematch", key=keys[2]).body["id"] == again.body["id"]  # the one


def test_a_head_that_waits_for_a_position_is_checked_and_counted_as_its_get(client):
    """HEAD runs the GET view, its wait for ?after= included: it waited 5 s and answered 503 where the
    GET is refused at once (422), and it was neither capped per client nor sent to the stream threads,
    so eight of them held every request thread of `motley serve` for 5 s at a time."""
    (ann,) = players(client, "ann")
    past = 10**6
    for path, headers in (("/matches", {}), ("/players/me/matches", {"Authorization": f"Bearer {ann}"})):
        started = time.monotonic()
        answer = client.http.head(path, headers=headers, query_string={"after": past})  # no body to read
        assert answer.status_code == 422 and time.monotonic() - started < 2, (path, answer.status_code)
        assert answer.mimetype == "application/problem+json"
    assert is_long_lived("/matches", "HEAD", "after=12") and not is_long_lived("/matches", "HEAD", "offset=5")
    with client.http.application.test_request_context("/matches?after=12", method="HEAD"):
        assert holds_a_thread()


def test_the_openapi_document_names_the_headers_of_a_matchs_whole_life(client):
    """The OpenAPI document documents every header (README): the lifecycle writes' ETag and
    Motley-Position, a creation's Location and a retried creation's Idempotent-Replayed were left out."""
    paths = client.get("/openapi.json").body["paths"]

    def sent(path, status):
        return set(paths[path]["post"]["responses"][status].get("headers", {}))

    for verb in ("leave", "cancel", "resign", "return", "invitations", "claim"):
        assert {"ETag", "Motley-Position"} <= sent(f"/matches/{{match_id}}/{verb}", "200"), verb
    assert {"ETag", "Motley-Position", "Location"} <= sent("/matches/{match_id}/rematch", "201")
    assert {"Location", "Idempotent-Replayed"} <= sent("/matches", "201")
    assert "Idempotent-Replayed" in sent("/players", "201")
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    for key in keys[1:]:
        resigned = client.post(f"/matches/{match_id}/resign", key=key)
        assert resigned.headers["ETag"].startswith(f'"{resigned.body["version"]}-')  # the resigner's mark
        assert resigned.headers["Motley-Position"]
    rematch = client.post(f"/matches/{match_id}/rematch", key=keys[0])
    assert rematch.headers["Location"] == f"/matches/{rematch.body['id']}"


def test_a_last_event_id_past_the_match_is_a_422_before_the_stream_starts(client):
    """The event list refuses an ``after`` past the match's version (a cursor no answer gave); the
    streams took such a Last-Event-ID and sent nothing for their whole time (a finished match: an empty
    stream at once), or, once the match caught up, skipped what came between."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    version = view(client, match_id, None)["version"]
    for path in ("stream", "events/stream"):
        refused = client.get(f"/matches/{match_id}/{path}", key=keys[0], query={"seconds": 5},
                             headers={"Last-Event-ID": str(version + 1)})
        assert refused.status == 422 and "Last-Event-ID" in refused.body["detail"], (path, refused.text)
        answer = client.http.get(f"/matches/{match_id}/{path}", query_string={"seconds": 0.3},
                                 headers={"Last-Event-ID": str(version - 1)})
        assert answer.status_code == 200 and f"id: {version}\n" in answer.get_data(as_text=True), path
        answer.close()


@pytest.mark.parametrize("name", ["   ", "\u202eevil", "ann\u2066", "\u200fbob"])
def test_a_name_that_shows_nothing_or_reorders_what_is_shown_is_refused(client, name):
    """A blank name, or one with a bidirectional control ("\u202eevil" is shown as "live"), was taken: a
    player could pass for another in every list and table."""
    refused = client.post("/players", {"name": name})
    assert refused.status == 422 and refused.headers["Content-Type"] == "application/problem+json", refused.text
    key = client.register("ann")[1]
    tournament = client.post("/tournaments", {"game": "jest", "name": name, "rounds": 1, "table_size": 3}, key=key)
    assert tournament.status == 422, tournament.text
    assert client.post("/players", {"name": "Zoë 👨\u200d👩\u200d👧"}).status == 201  # joiners stay: emoji


@pytest.mark.parametrize("written", ["+999999", " 999999", "999_999", "\u0669\u0669\u0669\u0669\u0669\u0669"])
def test_a_query_integer_is_written_in_ascii_digits(client, written):
    """int() takes "+5", " 5", "5_000" and other scripts' digits: a position written so skipped the quick
    422 of a position past the log's end and waited 5 s for a 503. Each is a 422 at once, as "abc" is."""
    # The status says it did not wait (that was a 503): no timing, which failed on a loaded machine.
    for path in ("/matches", "/leaderboards/jest"):
        answer = client.get(path, query={"after": written})
        assert answer.status == 422 and "after" in answer.text, (path, answer.text)
    assert client.get("/matches", query={"limit": written}).status == 422


@pytest.mark.parametrize("written", ["\uff12", "\u0662", "+2", " 2"])
def test_a_streams_seconds_and_poll_are_written_in_ascii_digits(client, written):
    """float() takes other scripts' digits ("２" is 2.0): a stream's seconds and poll took them while the
    integers of the same queries were a 422. Each is a 422 now, at once, as the integers are."""
    key = client.register("ann")[1]
    for query in ({"seconds": written}, {"poll": written}):
        answer = client.get("/players/me/stream", query=query, key=key)
        assert answer.status == 422 and next(iter(query)) in answer.text, (query, answer.text)
    followed = client.http.get("/players/me/stream", query_string={"seconds": "0.2", "poll": ".05"},
                               headers={"Authorization": f"Bearer {key}"})
    assert followed.status_code == 200 and followed.mimetype == "text/event-stream"


def test_a_query_parameter_given_twice_is_refused(client):
    """?status=open&status=finished answered the open matches alone: the first value was read and the
    other dropped without a word (a JSON body's duplicate key is refused). No parameter takes several."""
    answer = client.http.get("/matches?status=open&status=finished")
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert answer.get_json()["errors"]["query"] == {"status": ["Given more than once."]}
    assert client.http.get("/matches?status=open&limit=5").status_code == 200


def test_a_match_list_filter_no_match_can_pass_is_refused(client):
    """?game=jset or ?player=ann answered an empty list, as if there were no such matches; the client's
    mistake is a 422 that says it (the game's names listed)."""
    misspelt = client.http.get("/matches?game=jset")
    assert misspelt.status_code == 422 and "jest" in misspelt.get_json()["games"], misspelt.get_json()
    assert client.http.get("/matches?player=ann").status_code == 422
    ann_id = client.register("ann")[0]
    assert client.http.get(f"/matches?game=jest&player={ann_id}").status_code == 200


def test_a_cursor_pages_only_the_creation_order(client, sqlite_motley):
    """A cursor is a place in creation order: with order=activity (the default) it quietly paged the
    creation order instead."""
    key = players(client, "ann")[0]
    for _ in range(3):
        assert client.post("/matches", {"game": "jest", "seats": 3}, key=key).status == 201
    sqlite_motley.tasks.drain()
    first = client.get("/matches", query={"order": "created", "limit": 2}).body
    assert first["next_cursor"]
    refused = client.get("/matches", query={"cursor": first["next_cursor"]})
    assert refused.status == 422 and "order=created" in refused.text
    assert client.get("/matches", query={"order": "created", "cursor": first["next_cursor"]}).status == 200


def test_a_seat_kept_for_a_named_player_is_not_an_open_seat_in_the_list(client, sqlite_motley):
    """A rematch keeps every seat for its old player: it was listed under ?open=true with open_seats 2,
    and a stranger who tried to join got 409 "every seat at this match is taken"."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    for key in keys[1:]:
        assert client.post(f"/matches/{match_id}/resign", key=key).status == 200
    rematch = client.post(f"/matches/{match_id}/rematch", key=keys[0])
    assert rematch.status == 201 and rematch.body["your_seat"] == 0
    sqlite_motley.tasks.drain()
    row = next(r for r in client.get("/matches", query={"status": "open"}).body["items"]
               if r["id"] == rematch.body["id"])
    assert row["open_seats"] == 0
    assert rematch.body["id"] not in [r["id"] for r in client.get("/matches", query={"open": "true"}).body["items"]]
    stranger = players(client, "dee")[0]
    assert client.post(f"/matches/{rematch.body['id']}/seats", {}, key=stranger).status == 409


def test_a_stream_ends_when_the_key_it_was_opened_with_is_revoked(client):
    """A stream opened with a key went on after the key was revoked (401 everywhere else) for its whole
    life, up to a day, showing that seat's face-down cards to whoever held the key."""
    keys = players(client, "ann", "bob", "cy")
    match_id = client.new_match("jest", 3, keys)
    rotated = client.post("/players/me/keys", key=keys[0]).body["api_key"]
    paths = (f"/matches/{match_id}/stream", f"/matches/{match_id}/events/stream", "/players/me/stream")
    opened = [threading.Event() for _ in paths]
    after: list = [None] * len(paths)

    def follow(i, path):  # each stream read in a thread of its own, as a server serves it
        stream = client.http.get(path, query_string={"seconds": 20}, headers={"Authorization": f"Bearer {keys[0]}"},
                                 buffered=False)
        chunks = iter(stream.response)
        next(chunks)
        opened[i].set()
        after[i] = ([(time.monotonic(), chunk.decode()) for chunk in chunks], time.monotonic())
        stream.close()

    readers = [threading.Thread(target=follow, args=(i, path)) for i, path in enumerate(paths)]
    for reader in readers:
        reader.start()
    assert all(event.wait(10) for event in opened)
    time.sleep(0.5)  # what the streams had to tell at once (the history so far) has been sent
    started = time.monotonic()
    revoked = client.call("DELETE", f"/players/me/keys/{Motley.key_id_of(keys[0])}", key=rotated)
    assert revoked.status == 204 and client.get("/players/me", key=keys[0]).status == 401
    offer = view(client, match_id, keys[1])["legal_actions"][0]
    assert client.post(f"/matches/{match_id}/moves", {"action": offer}, key=keys[1]).status == 201
    for reader in readers:
        reader.join(25)
    for path, (chunks, ended) in zip(paths, after):
        late = [text for at, text in chunks if at > started and "data:" in text]
        assert not late, (path, late)  # nothing more was sent with the revoked key
        assert ended - started < 15, path


def test_a_route_that_does_not_exist_is_a_404_or_405_whatever_its_headers_or_body(client):
    """The header and body checks ran before routing: a bad Idempotency-Key on a path that does not exist
    was a 422, not the 404; a text body on GET /games (a read, which reads no body) was a 415."""
    assert client.post("/nonexistent", {"a": 1}, headers={"Idempotency-Key": "bad key"}).status == 404
    assert client.call("DELETE", "/games", headers={"If-Match": "nonsense"}).status == 405
    games = client.http.get("/games", data="hello", headers={"Content-Type": "text/plain"})
    assert games.status_code == 200
    key = players(client, "ann")[0]
    refused = client.http.post("/matches", data="hello", headers={"Content-Type": "text/plain",
                                                                  "Authorization": f"Bearer {key}"})
    assert refused.status_code == 415  # a write still says what it cannot read


def test_the_import_route_answers_other_methods_405_not_as_a_match_named_import(client):
    """GET /matches/import was read as the match "import" and answered 404 ("no match with id 'import'"),
    and OPTIONS listed GET: the import is POST only, so any other method is a 405 that allows POST."""
    for method in ("GET", "PUT", "DELETE"):
        answer = client.call(method, "/matches/import")
        assert answer.status == 405, (method, answer.status)
        assert answer.headers["Content-Type"].startswith("application/problem+json")
        assert {m.strip() for m in answer.headers["Allow"].split(",")} == {"POST", "OPTIONS"}
    assert client.call("GET", "/matches/importer").status == 404  # still read as a match's id


def test_a_problems_instance_is_the_path_as_written_and_one_type_has_one_title(client):
    """RFC 9457 §3.1.5: ``instance`` is a URI reference. /matches/a%20b%3Fc%23d answered
    "/matches/a b?c#d" (decoded: another path, a query and a fragment); an unknown route's 404 was titled
    "Not Found" and an unknown id's "Not found"; a 262,000-character id was echoed whole in the detail."""
    odd = client.get("/matches/a%20b%3Fc%23d")
    assert odd.status == 404 and odd.body["instance"] == "/matches/a%20b%3Fc%23d"
    for written in ("/matches/a%2Fb", "/matches/%c3%a9"):  # not re-encoded: "/matches/a/b", "%C3%A9"
        assert client.http.get(written, environ_base={"REQUEST_URI": written}).get_json()["instance"] == written
    assert client.get("/nowhere").body["title"] == odd.body["title"] == "Not found"
    long = client.get("/matches/" + "x" * 5000)
    assert long.status == 404 and len(long.body["detail"]) < 200
    for path in ("/leaderboards/", "/games/"):  # a game's name, as long, is named in part too
        assert len(client.get(path + "g" * 300).body["detail"]) < 200, path


def test_the_game_schema_and_the_problem_catalogue_are_documents_read_without_a_key(client):
    """/games and /games/{name} never looked at a key, but /games/{name}/schema and /problems answered a
    wrong one 401: all are documents, the same for everyone."""
    wrong = {"Authorization": "Bearer not-a-key"}
    for path in ("/games", "/games/jest", "/games/jest/schema", "/problems", "/problems/conflict"):
        assert client.call("GET", path, headers=wrong).status == 200, path
    assert client.call("GET", "/matches", headers=wrong).status == 401  # a read that does look at it


def test_taking_a_seat_needs_no_body_and_the_document_says_so(client):
    """A seat was taken without a body (any free seat), but the OpenAPI document said one was required."""
    ann = players(client, "ann")[0]
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    taken = client.http.post(f"/matches/{match_id}/seats", headers={"Authorization": f"Bearer {ann}"})
    assert taken.status_code == 201 and taken.get_json()["seat"] == 0
    operation = client.get("/openapi.json").body["paths"]["/matches/{match_id}/seats"]["post"]
    assert operation["requestBody"].get("required", False) is False
