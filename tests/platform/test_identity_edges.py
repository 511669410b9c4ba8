"""Credentials and request bodies as a careless or a hostile client sends them: one key written in
other spellings, 401s for requests that sent no key, keys whose answer was lost, a JSON body without
its media type, a name twice in one object, NaN, and names that show nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from api import create_app
from application.ports import NoTaskQueue
from tests.platform.client import ApiClient


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


@pytest.fixture
def limited(motley):
    motley.settings = replace(motley.settings, rate_limits="auth_failures=3/minute,create=2/minute")
    return ApiClient(create_app(motley))


def spellings(key: str) -> list[str]:
    """The player part of ``key`` as other spellings of the same UUID (each read by ``UUID()``)."""
    player, _, secret = key.partition(".")
    dashed = f"{player[:8]}-{player[8:12]}-{player[12:16]}-{player[16:20]}-{player[20:]}"
    return [f"{other}.{secret}" for other in
            (player.upper(), player[:3] + "-" + player[3:], "{" + player + "}", "urn:uuid:" + player, dashed)]


def test_a_key_is_valid_only_as_it_was_issued(motley):
    motley.settings = replace(motley.settings, rate_limits="create=2/minute")
    client = ApiClient(create_app(motley))
    _, key = client.register("ann")
    assert client.get("/players/me", key=key).status == 200
    for other in spellings(key):
        assert client.get("/players/me", key=other).status == 401, other
    # Creation is counted per player: two, then none, whatever the key's spelling (each spelling had a
    # budget of its own).
    assert [client.post("/matches", {"game": "jest", "seats": 3}, key=key).status for _ in range(2)] == [201, 201]
    for other in [key, *spellings(key)]:
        assert client.post("/matches", {"game": "jest", "seats": 3}, key=other).status in (401, 429), other
    motley.tasks.drain()
    assert client.get("/matches").body["total"] == 2


def test_requests_that_send_no_key_do_not_lock_the_address_out(limited):
    _, key = limited.register("ann")
    for _ in range(10):
        assert limited.get("/players/me").status == 401  # no key: nothing guessed
    assert limited.get("/players/me", key=key).status == 200
    for _ in range(3):
        assert limited.get("/players/me", key=key + "x").status == 401  # wrong keys: guesses
    assert limited.get("/players/me", key=key).status == 429


def test_a_player_lists_its_keys_to_revoke_one_whose_answer_was_lost(client):
    _, key = client.register("ann")
    first = client.get("/players/me/keys", key=key).body["items"]
    assert len(first) == 1 and first[0]["current"] is True
    lost = client.post("/players/me/keys", key=key).body  # its answer never reached the client
    listed = client.get("/players/me/keys", key=key).body["items"]
    assert {k["key_id"] for k in listed} == {first[0]["key_id"], lost["key_id"]}
    assert [k["key_id"] for k in listed if not k["current"]] == [lost["key_id"]]
    assert client.call("DELETE", f"/players/me/keys/{lost['key_id']}", key=key).status == 204
    assert client.get("/players/me", key=lost["api_key"]).status == 401
    assert [k["key_id"] for k in client.get("/players/me/keys", key=key).body["items"]] == [first[0]["key_id"]]


def test_a_body_is_json_with_its_media_type_unique_names_and_json_numbers(client, motley):
    http = client.http
    no_type = http.post("/players", data=b'{"name": "ct"}', headers={"Content-Type": ""})
    assert no_type.status_code == 415 and no_type.mimetype == "application/problem+json"
    _, key = client.register("ann")
    twice = client.post("/matches", raw='{"game": "jest", "seats": 3, "game": "jester"}', key=key)
    assert twice.status == 400 and '"game" twice' in twice.body["detail"]
    for number in ("NaN", "Infinity", "-Infinity"):
        refused = client.post("/matches", raw='{"game": "jest", "seats": ' + number + '}', key=key)
        assert refused.status == 400 and number.lstrip("-") in refused.body["detail"], number
    # A number Python reads as infinity: out of range, said so (it was "an action is a JSON object...").
    huge = client.post("/matches", raw='{"game": "jest", "seats": 3, "options": {"x": -1e400}}', key=key)
    assert huge.status == 400 and "out of range (-1e400)" in huge.body["detail"], huge.body
    motley.tasks.drain()
    assert client.get("/matches").body["total"] == 0  # nothing was created


@pytest.mark.parametrize("name", ["\u200b", "\u2800", "\u3164", "\ufeff", "\u00ad", "\u0301", "\U000e0041",
                                  "\ue000", "a\u2028b"])
def test_a_name_that_shows_nothing_is_refused(client, name):
    refused = client.post("/players", {"name": name})
    assert refused.status == 422, repr(name)
    _, key = client.register("Zoë 🃏")
    tournament = {"game": "jest", "name": name, "format": "swiss", "rounds": 1, "table_size": 3, "points": [3, 1, 0]}
    assert client.post("/tournaments", tournament, key=key).status == 422


@pytest.mark.parametrize("name", ["ann\u200b", "\ufeffann", "a\U000e0041nn", "an\u2060n", "a\u034fnn", "ann\u3164",
                                  # A probe's: Khmer's discouraged inherent vowels, and variation selectors
                                  # after plain letters (an emoji's, a Mongolian letter's stay: below).
                                  "ann\u17b4", "an\u17b5n", "ann\ufe0f", "an\u180bn", "ann\U000e0100",
                                  "\ufe0fann", "\u2764\ufe0f\ufe0e",
                                  # Another's: after any Latin, Cyrillic or Greek letter, a joiner between
                                  # plain letters or a letter and an emoji, at an end, a keycap's wrong one.
                                  "Jos\u00e9\ufe0f", "\u0410\u043d\u043d\u0430\ufe0f", "\u03b1\ufe0f",
                                  "ann\u200d", "ann\u200c", "a\u200db", "ann\u200d\ufe0f", "1\ufe00\u20e3",
                                  "ann\u200d\U0001f44d", "\u0410\u043d\u043d\u0430\u200d\u0431",
                                  "\U0001f3f4\U000e0067",
                                  # A third's: joiners where no letters join (Thai, Hebrew; Arabic letters
                                  # joined anyway), a selector after a symbol without an emoji form or an
                                  # emoji with no text form, an unassigned code point.
                                  "\u0e2a\u0e21\u200c\u0e0a\u0e32\u0e22", "\u05d3\u05d5\u200d\u05d3",
                                  "\u0645\u062d\u200d\u0645\u062f", "ann\u2605\ufe0f", "ann\U0001f600\ufe0f",
                                  "ann\u2065", "ann\U000e0000", "\u180eann",
                                  # A fourth's: a joiner after an emoji newer than the interpreter's Unicode
                                  # (a 500: IDNA's check named the character), or after a private-use one.
                                  "\U0001fa77\u200c", "ann\ue000\u200d"])
def test_a_name_that_would_look_like_another_is_refused(client, name):
    """Visible letters with something that shows nothing among them ("ann" and a zero-width space, a
    byte-order mark, a tag character, a word joiner, a blank letter): another name that looks like "ann"."""
    refused = client.post("/players", {"name": name})
    assert refused.status == 422 and "show nothing" in refused.body["errors"]["json"]["name"][0], refused.body
    _, key = client.register("Zoë")
    tournament = {"game": "jest", "name": name, "format": "swiss", "rounds": 1, "table_size": 3, "points": [3, 1, 0]}
    assert client.post("/tournaments", tournament, key=key).status == 422


def test_a_name_far_over_its_length_is_refused_before_it_is_read(client, monkeypatch):
    """A fuzzer's: 32,000 combining marks after a letter (64 KB, under the body limit) held a request thread
    for 688 s, each mark walked back over those before it, before the length was checked. Such a name is
    refused by its length as sent, before the name rules read it."""
    import api.schemas

    read = []
    monkeypatch.setattr(api.schemas, "kept_name", lambda text: read.append(len(text)) or text)
    refused = client.post("/players", {"name": "a" + "\u0301" * 10000})  # within the body limit as JSON
    assert refused.status == 422 and "length" in str(refused.body["errors"]), refused.body
    assert read == []  # never read by the name rules
    assert client.post("/players", {"name": "ann"}).status == 201 and read == [3]
    surrogate = client.post("/players", raw='{"name": "a\\ud800"}')
    assert surrogate.status == 422 and "surrogate" in surrogate.text, surrogate.text


def test_a_name_is_kept_as_shown_trimmed_and_composed(client):
    """The spaces around a name and the form of its accents are not part of it: " ann " is "ann", and an
    "é" written as "e" and a combining accent is the one character. The joiners that emoji and some
    scripts need stay."""
    assert client.post("/players", {"name": "  ann "}).body["name"] == "ann"
    # A run of spaces inside, or a no-break space, is drawn as one space by a browser: kept as one.
    assert client.post("/players", {"name": "ann  bob"}).body["name"] == "ann bob"
    assert client.post("/players", {"name": "ann\u00a0bob"}).body["name"] == "ann bob"
    # A Persian half-space after a letter that joins nothing after it draws nothing: kept without it.
    assert client.post("/players", {"name": "\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627"}).body["name"] \
        == "\u0645\u062d\u0645\u062f\u0631\u0636\u0627"
    # A no-break space beside a space is one space too, and a mark the dropped half-space parted from its
    # letter composes with it (a fuzzer's: "ann  bob" and a name not in NFC were stored).
    assert client.post("/players", {"name": "ann\u00a0 bob"}).body["name"] == "ann bob"
    assert client.post("/players", {"name": "\u0627\u200c\u0654"}).body["name"] == "\u0623"
    yamada = "\u5c71\u7530\u3000\u592a\u90ce"  # an ideographic space alone stays
    assert client.post("/players", {"name": yamada}).body["name"] == yamada
    assert client.post("/players", {"name": "Zoe\u0308"}).body["name"] == "Zo\u00eb"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert client.post("/players", {"name": family}).body["name"] == family
    # The variation selectors an emoji, a keycap, a Mongolian letter or an ideograph's variant needs stay.
    # So do the joiners of emoji sequences and of scripts that join letters (Persian, Devanagari), and a
    # subdivision flag's tags (England's).
    for needs in ("\u2764\ufe0f", "1\ufe0f\u20e3", "\u1820\u180b", "\u845b\U000e0100",
                  "\U0001f469\u200d\u2764\ufe0f\u200d\U0001f468", "\U0001f9d1\U0001f3fd\u200d\U0001f4bb",
                  "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0915\u094d\u200d\u0937",
                  "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
                  # And (a third probe's) a joiner after a virama at an end (Malayalam's chillu), Bengali's
                  # ya-phala after ra, Mongolian's vowel separator, "ℹ️" (a letter with an emoji form), an
                  # emoji newer than the interpreter's Unicode.
                  "\u0d05\u0d28\u0d3f\u0d32\u0d4d\u200d", "\u09b0\u200d\u09cd\u09af\u09be\u09ac",
                  "\u1830\u1820\u1837\u1820\u180e\u1820", "\u2139\ufe0f", "\U0001fa77",
                  # And (a fourth's) Sinhala's touching letters, an Arabic letter's joined form at an end.
                  "\u0dc1\u200d\u0dca\u0dbb", "\u0645\u200d"):
        assert client.post("/players", {"name": needs}).body["name"] == needs, repr(needs)
    assert client.post("/players", {"name": " " * 3}).status == 422


def test_the_rate_limits_fail_open_while_their_counter_store_is_away(motley):
    """MOTLEY_RATE_LIMIT_STORAGE names a Redis nobody answers at: every keyed request and every write
    was a 500 (and /ready said ready). The limits go uncounted meanwhile; the service answers."""
    motley.settings = replace(motley.settings, rate_limits="create=1/minute",
                              rate_limit_storage="redis://127.0.0.1:1/0")
    client = ApiClient(create_app(motley))
    _, key = client.register("ann")
    assert client.get("/players/me", key=key).status == 200
    assert client.get("/players/me", key=key + "x").status == 401
    made = [client.post("/matches", {"game": "jest", "seats": 3}, key=key).status for _ in range(2)]
    assert made == [201, 201]  # uncounted: no store to count in
    assert client.get("/health").body["status"] == "ok"


def test_a_write_without_a_valid_key_is_a_401_whatever_its_body(client):
    _, key = client.register("ann")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=key).body["id"]
    for path, body in (("/matches", {"game": 7}), (f"/matches/{match_id}/moves", {"action": None, "x": 1}),
                       ("/tournaments", {}), (f"/matches/{match_id}/forks", {"version": "x"})):
        for sent in (None, key + "x", key.upper()):
            refused = client.post(path, body, key=sent)
            assert refused.status == 401, (path, sent, refused.status)
            assert refused.headers["WWW-Authenticate"].startswith("Bearer")
        assert client.post(path, body, key=key).status == 422  # with the key: what is wrong with the body
    assert client.post("/players", {"name": 7}).status == 422  # registering needs no key


def test_a_read_sent_with_a_wrong_key_is_a_401_not_a_spectators_answer(client):
    _, key = client.register("ann")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=key).body["id"]
    me = client.get("/players/me", key=key).body["id"]
    reads = ["/matches", "/tournaments", "/leaderboards/jest", f"/players/{me}", f"/matches/{match_id}",
             f"/matches/{match_id}/events"]
    for path in reads:
        assert client.get(path).status == 200, path  # no key: a spectator
        assert client.get(path, key=key).status == 200, path
        assert client.get(path, key=key + "x").status == 401, path
        basic = client.call("GET", path, headers={"Authorization": "Basic eDp5"})
        assert basic.status == 401, path
        for blank in ("", " "):  # an empty key is a key sent: a 401, as an empty Authorization is
            empty = client.call("GET", path, headers={"X-API-Key": blank})
            assert empty.status == 401 and "X-API-Key" in empty.body["detail"], (path, empty.text)
    # Read by machines that send no key of ours, or the same for everyone (and served while the
    # database is away, when no key could be checked).
    for path in ("/health", "/metrics", "/games", "/games/jest"):
        assert client.http.get(path, headers={"Authorization": "Basic eDp5"}).status_code == 200, path
        assert client.http.get(path, headers={"X-API-Key": ""}).status_code == 200, path
        assert client.http.get(path, headers={"Authorization": f"Bearer {key}x"}).status_code == 200, path


def test_two_different_keys_in_one_request_are_a_401(client):
    """A key in Authorization and another in X-API-Key (a junk one, or another player's): the second
    was ignored, so a request that named two callers was answered, or played, as the first."""
    _, ann = client.register("ann")
    _, bob = client.register("bob")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    for other in ("junk", bob):
        assert client.get("/players/me", key=ann, headers={"X-API-Key": other}).status == 401, other
        refused = client.post(f"/matches/{match_id}/seats", {}, key=ann, headers={"X-API-Key": other})
        assert refused.status == 401 and "send one" in refused.body["detail"], refused.body
    match = client.get(f"/matches/{match_id}").body
    assert match["version"] == 1 and [seat["player_id"] for seat in match["seats"]] == [None, None, None]
    same = client.get("/players/me", key=ann, headers={"X-API-Key": ann})  # the same key twice is one caller
    assert same.status == 200 and same.body["name"] == "ann"
    # Two Authorization headers reach the app as one, joined by a comma: said so, not "not valid" (a probe).
    doubled = client.http.get("/players/me", headers={"Authorization": f"Bearer {ann}, Bearer {ann}"})
    assert doubled.status_code == 401 and "more than one value" in doubled.get_json()["detail"]


def test_a_retried_creation_spends_no_creation_budget(motley):
    """A retry with the Idempotency-Key of a creation made creates nothing, so it counts for nothing:
    counted, the third retry of one creation under ``create=2/minute`` was a 429, and the client that
    retried after a lost answer (what the key is for) could not learn the id of its own match."""
    motley.settings = replace(motley.settings, rate_limits="register=2/minute,create=2/minute")
    client = ApiClient(create_app(motley))
    once = {"Idempotency-Key": "ann-1"}
    first = client.call("POST", "/players", {"name": "ann"}, headers=once)
    assert first.status == 201
    for _ in range(3):
        again = client.call("POST", "/players", {"name": "ann"}, headers=once)
        assert again.status == 201 and again.body["id"] == first.body["id"], again.text
    ann = first.body["api_key"]
    created = client.call("POST", "/matches", {"game": "jest", "seats": 3}, key=ann, headers={"Idempotency-Key": "m-1"})
    for _ in range(3):
        again = client.call("POST", "/matches", {"game": "jest", "seats": 3}, key=ann,
                            headers={"Idempotency-Key": "m-1"})
        assert again.status == 201 and again.body["id"] == created.body["id"], again.text
        assert again.headers["Idempotent-Replayed"] == "true"
    # The budgets are still counted for what is created: one more of each, then 429s.
    assert client.post("/players", {"name": "bob"}).status == 201
    assert client.post("/players", {"name": "cid"}).status == 429
    assert client.post("/matches", {"game": "jest", "seats": 3}, key=ann).status == 201
    assert client.post("/matches", {"game": "jest", "seats": 3}, key=ann).status == 429


def test_deployments_sharing_one_redis_count_their_limits_apart(tmp_path):
    """Two deployments (each its own store) on one Redis shared every counter: 60 registrations on one
    were a 429 for the first on the other. The counters are each deployment's (named by its store); two
    processes of one deployment still share theirs."""
    from infrastructure.composition import build
    from infrastructure.settings import Settings

    def deployment(name):
        settings = Settings(store="sqlite", sqlite_path=str(tmp_path / f"{name}.sqlite"),
                            rate_limits="register=2/minute", rate_limit_storage="redis://127.0.0.1:6379/0")
        return ApiClient(create_app(build(settings, tasks=NoTaskQueue())))

    first, other, first_again = deployment("a"), deployment("b"), deployment("a")
    assert [first.post("/players", {"name": f"a{i}"}).status for i in range(3)] == [201, 201, 429]
    assert other.post("/players", {"name": "b0"}).status == 201
    assert first_again.post("/players", {"name": "a3"}).status == 429  # the same deployment's budget


def test_a_locked_out_address_still_reads_what_never_looks_at_a_key(limited):
    """The lockout refuses keys it would have to try: the documents, /games and the health routes read
    none (README), so a monitor or a page that sends its key everywhere kept reading them (a 429 did)."""
    _, key = limited.register("ann")
    for _ in range(3):
        assert limited.get("/players/me", key=key + "x").status == 401
    assert limited.get("/players/me", key=key).status == 429  # locked out: a key it would try
    for path in ("/games", "/games/jest", "/games/jest/schema", "/problems", "/problems/conflict", "/openapi.json",
                 "/health", "/ready"):
        answer = limited.get(path, key=key + "x")
        assert answer.status == 200, (path, answer.status)
    assert limited.post("/players", {"name": "bob"}, key=key).status == 201  # registering reads no key either
    assert limited.get("/nowhere", key=key).status == 404  # no route: no key tried
    assert limited.call("DELETE", "/games", key=key).status == 405
    assert limited.get("/matches", key=key).status == 429  # a read that tries the key sent is still refused
