"""HTTP semantics a client developer expects (issue 13), through the API on both stores: a failed
If-Match is a 412, If-None-Match a 304 while nothing changed, and creating a player or a match honours
Idempotency-Key as moves do."""

from __future__ import annotations

import gzip
import json as json_module
import random
import re

import pytest

from api import create_app
from tests.platform.client import ApiClient, play_randomly
from tests.platform.openapi_check import check_answer


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def test_a_failed_if_match_is_a_412_and_if_none_match_a_304(client):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    read = client.get(path, key=keys[0])
    etag = read.headers["ETag"]
    assert client.get(path, key=keys[0], headers={"If-None-Match": etag}).status == 304
    assert client.get(path, headers={"If-None-Match": '"1"'}).status == 200  # an older version: the view
    assert client.get(path, key=keys[0], headers={"If-None-Match": f"W/{etag}"}).status == 304  # weak: §13.1.2
    wrong = client.get(path, key="not-a-key", headers={"If-None-Match": etag})  # credentials first: no 304
    assert wrong.status == 401 and wrong.body["type"] == "urn:motley:problem:unauthenticated", wrong.text
    hand = read.body["observation"]["hand"]
    offer = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
    stale = client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": f'"{read.body["version"] - 1}"'})
    assert stale.status == 412 and stale.body["type"] == "urn:motley:problem:precondition-failed"
    assert client.get(path).body["version"] == read.body["version"]  # nothing appended
    weak = client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": f"W/{etag}"})
    assert weak.status == 412 and weak.body["current_version"] == read.body["version"]  # strong only: §13.1.1
    assert "weak ETag never matches" in weak.body["detail"]
    zero = client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": '"0"'})  # strong, of no version
    assert zero.status == 412 and "weak" not in zero.body["detail"], zero.body
    # A stranger whose If-Match and expected_version disagree is refused as a stranger (403), not 412.
    _, stranger = client.register("stranger")
    both = {**offer, "expected_version": read.body["version"]}
    disagree = client.post(f"{path}/moves", both, key=stranger, headers={"If-Match": f'"{read.body["version"] - 1}"'})
    assert disagree.status == 403, disagree.body
    assert client.get(path).body["version"] == read.body["version"]
    in_body = client.post(f"{path}/moves", {**offer, "expected_version": 1}, key=keys[0])
    assert in_body.status == 409 and in_body.body["type"] == "urn:motley:problem:stale-version"
    moved = client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": etag})
    assert moved.status == 201
    again = client.get(path, key=keys[0], headers={"If-None-Match": etag})
    assert again.status == 200 and again.headers["ETag"] == moved.headers["ETag"] != etag


def test_an_if_match_list_holds_when_any_strong_tag_is_the_version(client):
    """RFC 9110 §13.1.1: If-Match is "*" or a list of entity tags, true when any matches (strongly); a
    list was a 422."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    read = client.get(path, key=keys[0])
    version, hand = read.body["version"], read.body["observation"]["hand"]
    offer = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
    for stale in (f'"{version - 2}", "{version - 1}"', f'"{version - 1}", W/"{version}"'):
        refused = client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": stale})
        assert refused.status == 412 and refused.body["current_version"] == version, (stale, refused.text)
    assert client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": f'W/"{version}", W/"1"'}).status == 412
    assert client.get(path).body["version"] == version  # nothing saved
    moved = client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": f'"{version - 1}", "{version}"'})
    assert moved.status == 201 and moved.body["version"] > version
    # A lifecycle write reads the list alike.
    now = client.get(path).body["version"]
    assert client.post(f"{path}/resign", key=keys[1], headers={"If-Match": f'"1","{now - 1}"'}).status == 412
    assert client.post(f"{path}/resign", key=keys[1], headers={"If-Match": f'"1", "{now}"'}).status == 200
    assert client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": '"1", soon'}).status == 422
    many = ", ".join(f'"{n}"' for n in range(1, 18))  # 17 tags: more than a list may hold
    assert client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": many}).status == 422


def test_a_rewound_read_answers_if_none_match_with_a_304_until_the_match_moves_on(client):
    """RFC 9110 §13.1.2: a matching If-None-Match on a GET is a 304; a rewound read (?version=2) answered
    the whole view all the same. Its tag holds the match's latest version too: the view of version 2
    still changes as the match goes on (a seat sees every hand once the match is finished and revealed),
    so a tag read before a move no longer matches after it."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    rewound = client.get(path, key=keys[0], query={"version": 2})
    tag = rewound.headers["ETag"]
    assert rewound.status == 200 and rewound.body["version"] == 2
    assert re.fullmatch(rf'"2\.0\.{client.get(path).body["version"]}-[0-9a-f]{{12}}"', tag), tag  # Ann's
    again = client.get(path, key=keys[0], query={"version": 2}, headers={"If-None-Match": tag})
    assert again.status == 304 and again.headers["ETag"] == tag
    assert client.get(path, key=keys[0], query={"version": 2}, headers={"If-None-Match": f"W/{tag}"}).status == 304
    assert client.get(path, key=keys[0], query={"version": 3}, headers={"If-None-Match": tag}).status == 200
    # If-Match takes the rewound tag's version: a stale version, so a 412.
    hand = client.get(path, key=keys[0]).body["observation"]["hand"]
    offer = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
    assert client.post(f"{path}/moves", offer, key=keys[0], headers={"If-Match": tag}).status == 412
    assert client.post(f"{path}/moves", offer, key=keys[0]).status == 201
    moved_on = client.get(path, key=keys[0], query={"version": 2}, headers={"If-None-Match": tag})
    assert moved_on.status == 200 and moved_on.headers["ETag"] != tag and moved_on.body["version"] == 2
    # A version past the last is a 404 with or without If-Match: a precondition never turns a read that
    # would fail into a 412 (RFC 9110 §13.2.1; it answered "stale" for a version that is not; a review).
    past = client.get(path).body["version"] + 5
    for headers in ({}, {"If-Match": tag}, {"If-Match": f'"{past}"'}):
        assert client.get(path, key=keys[0], query={"version": past}, headers=headers).status == 404, headers


def test_a_match_that_requires_versions_answers_a_move_without_one_with_428(client):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    made = client.post("/matches", {"game": "jest", "seats": 3, "require_version": True}, key=keys[0]).body
    assert made["versions_required"] is True
    for key in keys:
        client.post(f"/matches/{made['id']}/seats", {}, key=key)
    client.post(f"/matches/{made['id']}/start", key=keys[0])
    read = client.get(f"/matches/{made['id']}", key=keys[0])
    hand = read.body["observation"]["hand"]
    offer = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
    bare = client.post(f"/matches/{made['id']}/moves", offer, key=keys[0])
    assert bare.status == 428 and bare.body["type"] == "urn:motley:problem:precondition-required"
    assert client.get(f"/matches/{made['id']}").body["version"] == read.body["version"]
    moved = client.post(f"/matches/{made['id']}/moves", offer, key=keys[0], headers={"If-Match": read.headers["ETag"]})
    assert moved.status == 201


def test_creating_a_player_or_a_match_honours_the_idempotency_key(client):
    first = client.post("/players", {"name": "ann"}, headers={"Idempotency-Key": "signup-1"})
    retry = client.post("/players", {"name": "ann"}, headers={"Idempotency-Key": "signup-1"})
    assert first.status == retry.status == 201 and first.body["id"] == retry.body["id"]
    assert first.body["api_key"] and retry.body["api_key"] is None  # the key is shown once, never again
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert client.post("/players", {"name": "bob"}, headers={"Idempotency-Key": "signup-1"}).status == 409
    key = first.body["api_key"]
    body = {"game": "jest", "seats": 3, "options": {}}
    made = client.post("/matches", body, key=key, headers={"Idempotency-Key": "m-1"})
    again = client.post("/matches", body, key=key, headers={"Idempotency-Key": "m-1"})
    assert made.status == again.status == 201 and made.body["id"] == again.body["id"]
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in made.headers
    other = client.post("/matches", {**body, "seats": 4}, key=key, headers={"Idempotency-Key": "m-1"})
    assert other.status == 409 and other.body["rule"] == "idempotency"
    # Asking for a private match, a turn limit or required versions is another request, not a retry: a
    # client must not get a public match back for the private one it asked for.
    for extra in ({"unlisted": True}, {"turn_limit": {"seconds": 30}}, {"require_version": True}):
        changed = client.post("/matches", {**body, **extra}, key=key, headers={"Idempotency-Key": "m-1"})
        assert changed.status == 409 and changed.body["rule"] == "idempotency", (extra, changed.text)
    private = {**body, "unlisted": True, "turn_limit": {"seconds": 30}, "require_version": True}
    first_private = client.post("/matches", private, key=key, headers={"Idempotency-Key": "m-2"})
    retried = client.post("/matches", private, key=key, headers={"Idempotency-Key": "m-2"})
    assert first_private.status == retried.status == 201 and retried.body["id"] == first_private.body["id"]
    assert retried.headers["Idempotent-Replayed"] == "true"
    _, bob = client.register("bob")  # another player's key of the same text is another creation
    assert client.post("/matches", body, key=bob, headers={"Idempotency-Key": "m-1"}).body["id"] != made.body["id"]
    assert client.post("/matches", body, key=key).body["id"] != made.body["id"]  # no key: a new match
    listed = client.get("/matches", query={"player": first.body["id"]})
    assert listed.status == 200


def test_options_answers_204_with_the_allowed_methods(client):
    answer = client.http.options("/matches")
    assert answer.status_code == 204 and answer.get_data() == b"" and "Content-Type" not in answer.headers
    assert {"GET", "POST"} <= {m.strip() for m in answer.headers["Allow"].split(",")}


def test_an_unknown_query_parameter_is_a_422_naming_it(client):
    """A typo in a query (?stauts=, ?versoin=, ?offest=) was dropped without a word: the unfiltered list,
    the live match or the first page was answered as if it had been asked for."""
    _, ann = client.register("ann")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    for path, query in (("/matches", {"stauts": "finished"}), (f"/matches/{match_id}", {"versoin": "1"}),
                        (f"/matches/{match_id}/events", {"offest": "1"}), ("/tournaments", {"page": "2"}),
                        ("/players/me/matches", {"to_mvoe": "true"})):
        refused = client.get(path, query=query, key=ann)
        assert refused.status == 422, (path, refused.text)
        assert list(refused.body["errors"]["query"]) == list(query), refused.body
    assert client.get("/matches", query={"status": "finished"}).status == 200


def test_a_query_parameter_on_a_route_that_takes_none_is_a_422_too(client):
    """Routes without query parameters ignored any: ``/export?verison=3`` answered the whole export,
    ``/games?name=jest`` every game, while the routes that take some refused the same typo."""
    _, ann = client.register("ann")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    for method, path, query in (("GET", "/games", {"name": "jest"}), ("GET", "/games/jest", {"x": "1"}),
                                ("GET", f"/matches/{match_id}/export", {"verison": "3"}),
                                ("GET", "/players/me", {"zzz": "1"}), ("GET", "/health", {"deep": "1"}),
                                ("POST", f"/matches/{match_id}/start", {"force": "1"})):
        before = client.get(f"/matches/{match_id}").body["version"]
        refused = client.call(method, path, query=query, key=ann)
        assert refused.status == 422, (path, refused.text)
        assert refused.body["errors"]["query"] == {name: ["Unknown field."] for name in query}, refused.body
        assert client.get(f"/matches/{match_id}").body["version"] == before  # nothing was done
    assert client.get("/games").status == 200 and client.get("/health").status == 200


def test_the_match_list_answers_if_none_match_with_a_304_until_it_moves(client):
    """A client polling the open matches got the whole page every time: the list sent no ETag. Its tag
    is the list's position in the log; a page holding the caller's unlisted matches has its own."""
    ann_id, ann = client.register("ann")
    client.post("/matches", {"game": "jest", "seats": 3}, key=ann)
    made = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann)
    position = client.post(f"/matches/{made.body['id']}/seats", {}, key=ann).headers["Motley-Position"]
    first = client.get("/matches", query={"status": "open", "after": position})
    tag = first.headers["ETag"]
    assert first.status == 200 and first.body["total"] == 1 and tag.startswith('"list-')
    again = client.get("/matches", query={"status": "open"}, headers={"If-None-Match": tag})
    assert again.status == 304 and again.headers["ETag"] == tag and not again.text
    assert client.get("/matches", query={"status": "open"}, headers={"If-None-Match": f"W/{tag}"}).status == 304
    own = client.get("/matches", query={"player": ann_id}, key=ann, headers={"If-None-Match": tag})
    assert own.status == 200 and own.body["total"] == 1 and own.headers["ETag"] != tag  # her unlisted one
    moved = client.post("/matches", {"game": "jester", "seats": 2}, key=ann).headers["Motley-Position"]
    after = client.get("/matches", query={"status": "open", "after": moved}, headers={"If-None-Match": tag})
    assert after.status == 200 and after.body["total"] == 2 and after.headers["ETag"] != tag


def test_tournaments_and_profiles_answer_if_none_match_with_a_304_until_they_move(client):
    """A tournament tool polling the tournament list, a tournament, a profile or a rating history got the
    whole answer every time: they sent no ETag. Each now has a tag of what it shows (the league's and the
    list's positions, the aggregate's version) and answers a 304 until that moves."""
    ann_id, ann = client.register("ann")
    made = client.post("/tournaments", {"game": "jest", "name": "Cup", "rounds": 1, "table_size": 3}, key=ann)
    tid, position = made.body["id"], made.headers["Motley-Position"]
    paths = {"list": ("/tournaments", '"tournaments-'), "one": (f"/tournaments/{tid}", '"tournament-'),
             "profile": (f"/players/{ann_id}", '"profile-'),
             "ratings": (f"/players/{ann_id}/ratings/jest", '"ratings-')}
    tags = {}
    for name, (path, prefix) in paths.items():
        first = client.get(path, query={} if name == "one" else {"after": position})
        assert first.status == 200 and first.headers["ETag"].startswith(prefix), (name, first.headers)
        tags[name] = first.headers["ETag"]
        again = client.get(path, headers={"If-None-Match": tags[name]})
        assert again.status == 304 and again.headers["ETag"] == tags[name] and not again.text, name
        assert client.get(path, headers={"If-None-Match": f"W/{tags[name]}"}).status == 304, name
    # The profile's tag is the read models' positions alone: it held the player's version too, which moves
    # only with a key added or revoked, so anyone polling a profile watched that player's key rotations.
    assert re.fullmatch(r'"profile-[0-9]+\.[0-9a-f]{12}"', tags["profile"]), tags["profile"]
    # The profile shown to its player holds her unlisted matches: its own tag.
    own = client.get(f"/players/{ann_id}", key=ann, headers={"If-None-Match": tags["profile"]})
    assert own.status == 200 and own.headers["ETag"] != tags["profile"]
    # Registering in the tournament moves the tournament and the league; a match moves the profile.
    joined = client.post(f"/tournaments/{tid}/players", key=ann).headers["Motley-Position"]
    client.post("/matches", {"game": "jest", "seats": 3}, key=ann)
    moved = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).headers["Motley-Position"]
    for name, (path, _) in paths.items():
        after = client.get(path, query={} if name == "one" else {"after": max(int(joined), int(moved))},
                           headers={"If-None-Match": tags[name]})
        assert after.status == 200 and after.headers["ETag"] != tags[name], name
    assert client.get(f"/tournaments/{tid}").body["players"][0]["player_id"] == ann_id


def test_a_leaderboard_is_a_304_while_moves_change_nothing_it_shows(client):
    """The league pages' tag was the league's position, which moves with every event of the log: polled
    on a busy server, a leaderboard was a 304 once in 1,500 reads. Their tag is now the position of the
    league's last change: moves leave it, a match that finishes moves it."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    tag = client.get("/leaderboards/jest").headers["ETag"]
    for seat, key in enumerate(keys):  # every seat's first offer: moves, nothing rated
        legal = client.get(f"/matches/{match_id}", key=key).body["legal_actions"]
        moved = client.post(f"/matches/{match_id}/moves", {"action": legal[0]}, key=key)
        assert moved.status == 201, moved.text
    position = moved.headers["Motley-Position"]
    again = client.get("/leaderboards/jest", query={"after": position}, headers={"If-None-Match": tag})
    assert again.status == 304, again.headers
    for key in keys[1:]:
        ended = client.post(f"/matches/{match_id}/resign", key=key).headers["Motley-Position"]
    after = client.get("/leaderboards/jest", query={"after": ended}, headers={"If-None-Match": tag})
    assert after.status == 200 and after.headers["ETag"] != tag and after.body["total"] == 3


def test_a_profile_is_a_304_while_only_other_players_matches_move(client):
    """A profile's tag held the match list's position, which moves with every event of the log: polled
    on a busy server, a profile was never a 304. Its tag is now the league's last change and the recent
    matches it shows: others' moves leave it, a move in one of its matches changes it."""
    ann_id, ann = client.register("ann")
    others = [client.register(name)[1] for name in ("bob", "cy", "dee")]
    mine = client.post("/matches", {"game": "jest", "seats": 3}, key=ann)
    tag = client.get(f"/players/{ann_id}", query={"after": mine.headers["Motley-Position"]}).headers["ETag"]
    theirs = client.new_match("jest", 3, others)
    for seat, key in enumerate(others):  # others' moves: the log moves, her profile does not
        legal = client.get(f"/matches/{theirs}", key=key).body["legal_actions"]
        moved = client.post(f"/matches/{theirs}/moves", {"action": legal[0]}, key=key)
    again = client.get(f"/players/{ann_id}", query={"after": moved.headers["Motley-Position"]},
                       headers={"If-None-Match": tag})
    assert again.status == 304, again.headers
    seated = client.post(f"/matches/{mine.body['id']}/seats", {}, key=ann)  # her own match moves
    after = client.get(f"/players/{ann_id}", query={"after": seated.headers["Motley-Position"]},
                       headers={"If-None-Match": tag})
    assert after.status == 200 and after.headers["ETag"] != tag


def test_a_compressed_body_is_a_415_and_a_registration_says_where_its_player_is(client):
    """A body labelled Content-Encoding br was read as plain JSON (201) and a gzip one was "not UTF-8"
    (400): the coding was never looked at. POST /players answered 201 without Location or the
    Motley-Position every other write sends (an HTTP probe)."""
    _, ann = client.register("ann")
    body = json_module.dumps({"game": "jest", "seats": 3}).encode()
    before = client.get("/matches", query={"status": "open"}).body["total"]
    for coding, data in (("gzip", gzip.compress(body)), ("br", body), ("gzip, identity", gzip.compress(body))):
        refused = client.http.post("/matches", data=data, headers={
            "Content-Type": "application/json", "Content-Encoding": coding, "Authorization": f"Bearer {ann}"})
        assert refused.status_code == 415 and refused.mimetype == "application/problem+json", coding
        assert refused.headers["Accept-Encoding"] == "identity" and "Content-Encoding" in refused.get_json()["detail"]
    # The import too, which takes JSON Lines under any media type; its 415 was not in the OpenAPI document.
    imported = client.http.post("/matches/import", data=gzip.compress(b"{}\n"), headers={
        "Content-Type": "application/x-ndjson", "Content-Encoding": "gzip", "Authorization": f"Bearer {ann}"})
    assert imported.status_code == 415 and imported.headers["Accept-Encoding"] == "identity"
    check_answer(client.http.application, imported)
    assert "415" in client.get("/openapi.json").body["paths"]["/matches/import"]["post"]["responses"]
    plain = client.http.post("/matches", data=body, headers={
        "Content-Type": "application/json", "Content-Encoding": "identity", "Authorization": f"Bearer {ann}"})
    assert plain.status_code == 201
    after = plain.headers["Motley-Position"]
    assert client.get("/matches", query={"status": "open", "after": after}).body["total"] == before + 1
    registered = client.http.post("/players", json={"name": "bob"})
    assert registered.status_code == 201
    assert registered.headers["Location"] == f"/players/{registered.get_json()['id']}"
    assert int(registered.headers["Motley-Position"]) >= 1
    assert client.get(registered.headers["Location"]).status == 200


def test_each_reader_of_a_match_has_its_own_etag(client):
    """One strong tag, "7", for every reader's view (a seat's hand, a spectator's none): a seat that sent
    the spectator's tag as If-None-Match got a 304 and kept the other view (RFC 9110 §8.8.3; an HTTP
    probe). Each reader's view now has its own tag; If-Match still reads its version, on a write and, as
    RFC 9110 §13.1.1 asks, on a read."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    tags = [client.get(f"/matches/{match_id}", key=key).headers["ETag"] for key in (None, *keys)]
    version = client.get(f"/matches/{match_id}").body["version"]
    assert tags[0] == f'"{version}"' and len(set(tags)) == 4 and all(t.startswith(f'"{version}-') for t in tags[1:])
    for reader, key in enumerate(keys, start=1):
        others = [tag for n, tag in enumerate(tags) if n != reader]
        for other in others:  # another reader's tag: the whole view
            assert client.get(f"/matches/{match_id}", key=key, headers={"If-None-Match": other}).status == 200
        mine = client.get(f"/matches/{match_id}", key=key, headers={"If-None-Match": tags[reader]})
        assert mine.status == 304 and mine.headers["ETag"] == tags[reader]
    assert client.get(f"/matches/{match_id}", headers={"If-None-Match": tags[1]}).status == 200
    # If-Match: the version counts, whoever's tag it is.
    assert client.get(f"/matches/{match_id}", key=keys[0], headers={"If-Match": tags[2]}).status == 200
    ann = client.get(f"/matches/{match_id}", key=keys[0]).body
    moved = client.post(f"/matches/{match_id}/moves", {"action": ann["legal_actions"][0]}, key=keys[0],
                        headers={"If-Match": tags[1]})
    assert moved.status == 201, moved.text
    stale = client.get(f"/matches/{match_id}", key=keys[1], headers={"If-Match": tags[2]})
    assert stale.status == 412 and stale.body["current_version"] == moved.body["version"]
    # A rewound read holds for its own tag (its version is the rewound one), not for the match's now.
    rewound = client.get(f"/matches/{match_id}", key=keys[1], query={"version": 2})
    own = client.get(f"/matches/{match_id}", key=keys[1], query={"version": 2},
                     headers={"If-Match": rewound.headers["ETag"]})
    assert own.status == 200 and own.body["version"] == 2
    others = client.get(f"/matches/{match_id}", key=keys[2], query={"version": 2}).headers["ETag"]
    assert client.get(f"/matches/{match_id}", key=keys[1], query={"version": 2},
                      headers={"If-Match": others}).status == 200  # another reader's mark: its version counts
    now = client.get(f"/matches/{match_id}", key=keys[1]).headers["ETag"]
    assert client.get(f"/matches/{match_id}", key=keys[1], query={"version": 2},
                      headers={"If-Match": now}).status == 412


def test_a_read_looks_its_key_up_once_and_tags_the_view_for_the_player_it_was_built_for(motley, monkeypatch):
    """A seat's read looked its key up for the view, for the rate limits and again for its ETag's mark:
    a key revoked between them tagged a seat's view as a spectator's (a review). Once a request now."""
    client = ApiClient(create_app(motley))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    asked = []
    authenticate = motley.app.authenticate
    monkeypatch.setattr(motley.app, "authenticate", lambda key: asked.append(key) or authenticate(key))
    read = client.get(f"/matches/{match_id}", key=keys[1])
    assert read.status == 200 and read.body["viewer"]["kind"] == "seat" and asked == [keys[1]], asked
    assert re.fullmatch(r'"\d+-[0-9a-f]{12}"', read.headers["ETag"])


def test_every_201_names_what_it_created_and_the_location_reads(client):
    """RFC 9110 §15.3.2: a 201 names the created resource in Location, else it is the request's own path.
    Joining a seat, a move, a new key and a tournament registration answered 201 without one, and their
    own paths are a 405 to a GET (a client-contract probe)."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    key = keys[0]
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=key).body["id"]
    created = [client.post(f"/matches/{match_id}/seats", {}, key=each) for each in keys]
    assert client.post(f"/matches/{match_id}/start", key=key).status == 200
    mover, view = next((each, view) for each in keys
                       if (view := client.get(f"/matches/{match_id}", key=each).body)["legal_actions"])
    moved = client.post(f"/matches/{match_id}/moves", {"action": view["legal_actions"][0]}, key=mover)
    created.append(moved)
    created.append(client.post("/players/me/keys", key=key))
    organiser = client.register("org")[1]
    tournament = client.post("/tournaments", {"game": "jest", "name": "cup", "rounds": 1, "table_size": 3},
                             key=organiser).body["id"]
    created.append(client.post(f"/tournaments/{tournament}/players", key=key))
    for answer in created:
        assert answer.status == 201 and answer.headers.get("Location"), (answer.status, answer.text[:200])
    assert moved.headers["Location"] == f"/matches/{match_id}?version={moved.body['version']}"
    for answer in created[:4] + created[5:]:  # a key's Location is for DELETE (revoking it)
        path, _, query = answer.headers["Location"].partition("?")
        read = client.get(path, query=dict(pair.split("=") for pair in query.split("&") if pair), key=key)
        assert read.status == 200, (answer.headers["Location"], read.text[:200])
    rewound = client.get(f"/matches/{match_id}", key=mover, query={"version": moved.body["version"]}).body
    assert rewound["version"] == moved.body["version"] and rewound["observation"] == moved.body["observation"]


def test_a_key_added_or_revoked_answers_with_the_logs_position(client, motley):
    """README: "Write answers carry Motley-Position"; a key's addition and revocation did not (a docs probe)."""
    _, key = client.register("kim")
    added = client.post("/players/me/keys", key=key)
    assert added.status == 201 and int(added.headers["Motley-Position"]) == motley.app.log_position()
    revoked = client.call("DELETE", f"/players/me/keys/{added.body['key_id']}", key=key)
    assert revoked.status == 204 and int(revoked.headers["Motley-Position"]) == motley.app.log_position()
    assert int(revoked.headers["Motley-Position"]) > int(added.headers["Motley-Position"])


def test_a_stale_if_match_on_a_matchs_history_is_a_412_as_on_its_read(client):
    """A fuzzing probe: the event list, the diff, the export and the verdict checked If-Match's form and
    answered a stale one all the same, where the match's read answers 412 (RFC 9110 §13.1.1)."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    version = client.get(path).body["version"]
    page = client.get(f"{path}/events?limit=3", key=keys[0])
    for read in ("events", "diff?from=1&to=2", "export"):  # the verdict: once it can be given (below)
        stale = client.get(f"{path}/{read}", key=keys[0], headers={"If-Match": f'"{version - 1}"'})
        assert stale.status == 412 and stale.body["current_version"] == version, (read, stale.text)
        assert stale.headers["Content-Type"].startswith("application/problem+json"), read
        # (client.http: an export's JSON Lines are not the checked client's JSON)
        held = client.http.get(f"{path}/{read}", headers={"If-Match": f'"{version}"',
                                                         "Authorization": f"Bearer {keys[0]}"})
        assert held.status_code == 200, (read, held.text)
    assert client.get(f"{path}/events", key=keys[0], headers={"If-Match": page.headers["ETag"]}).status == 200
    unknown = client.get("/matches/00000000-0000-4000-8000-000000000000/export", headers={"If-Match": '"1"'})
    assert unknown.status == 404  # no precondition turns a 404 into a 412 (RFC 9110 §13.2.1)


def test_a_history_reads_own_refusal_comes_before_a_stale_if_match_and_a_weak_one_says_why(client):
    """A probe of this session's change: with a stale If-Match, a verdict before the end, a page after the last
    version and a backward diff were 412s, where the read fails anyway (RFC 9110 §13.2.1, as the rewound
    read's 404); and a weak tag's 412 did not say that a weak tag never matches."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    path = f"/matches/{match_id}"
    version = client.get(path).body["version"]
    stale = {"If-Match": f'"{version - 1}"'}
    assert client.http.get(f"{path}/verify", headers=stale).status_code == 409
    assert client.http.get(f"{path}/events?after=999", headers=stale).status_code == 422
    assert client.http.get(f"{path}/diff?from=5&to=2", headers=stale).status_code == 422
    assert client.http.get(f"{path}/diff?from=0&to=999", headers=stale).status_code in (404, 422)
    for read in (path, f"{path}/events"):
        weak = client.http.get(read, headers={"If-Match": f'W/"{version}"'})
        assert weak.status_code == 412 and "weak ETag never matches" in weak.get_json()["detail"], read
    over = play_randomly(client, match_id, keys, random.Random(5))
    assert over["status"] == "finished"
    now = client.get(path).body["version"]
    assert client.http.get(f"{path}/verify", headers={"If-Match": f'"{now - 1}"'}).status_code == 412
    assert client.http.get(f"{path}/verify", headers={"If-Match": f'"{now}"'}).status_code == 200


def test_a_documents_if_match_of_any_entity_tag_is_a_412_or_holds(client):
    """A document's If-Match of a tag it never had ("zz") was a 422 listing a match's tag forms, and so was a
    list holding its own tag beside such a one."""
    own = client.http.get("/games/jest").headers["ETag"]
    for other in ('"zz"', '"abc-1"', 'W/"zz"'):
        refused = client.http.get("/games/jest", headers={"If-Match": other})
        assert refused.status_code == 412 and refused.mimetype == "application/problem+json", other
    assert client.http.get("/games/jest", headers={"If-Match": f'"zz", {own}'}).status_code == 200
    assert client.http.get("/games/jest", headers={"If-Match": "zz"}).status_code == 422  # no entity-tag at all
