"""Idempotency-Key on every creation a client retries after a lost answer: a fork and a tournament
(besides a player, a match and a move) are made once; the retry gets the first, said so by
``Idempotent-Replayed``; the same key for something else is a 409."""

from __future__ import annotations

from tests.platform.test_audit import AUDITOR, audit, finished_match  # noqa: F401 - the fixture

TOURNAMENT = {"game": "jest", "name": "Spring", "format": "swiss", "rounds": 1, "table_size": 3, "points": [3, 1, 0]}


def test_a_retried_fork_is_made_once(audit):  # noqa: F811 - the fixture
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    once = {"Idempotency-Key": "fork-1"}
    first = client.call("POST", f"/matches/{match_id}/forks", {"version": 12}, key=keys[0], headers=once)
    again = client.call("POST", f"/matches/{match_id}/forks", {"version": 12}, key=keys[0], headers=once)
    assert first.status == again.status == 201 and first.body["id"] == again.body["id"]
    assert "Idempotent-Replayed" not in first.headers and again.headers["Idempotent-Replayed"] == "true"
    forks = client.get(f"/matches/{match_id}").body["lineage"]["forks"]
    assert [f["match_id"] for f in forks] == [first.body["id"]]
    other = client.call("POST", f"/matches/{match_id}/forks", {"version": 10}, key=keys[0], headers=once)
    assert other.status == 409 and other.body["rule"] == "idempotency"
    mine = client.call("POST", f"/matches/{match_id}/forks", {"version": 12}, key=keys[1], headers=once)
    assert mine.status == 201 and mine.body["id"] != first.body["id"]  # keys are each player's own


def test_a_retried_tournament_is_made_once(audit):  # noqa: F811 - the fixture
    _, client = audit
    _, ann = client.register("ann")
    once = {"Idempotency-Key": "t-1"}
    first = client.call("POST", "/tournaments", TOURNAMENT, key=ann, headers=once)
    again = client.call("POST", "/tournaments", TOURNAMENT, key=ann, headers=once)
    assert first.status == again.status == 201 and first.body["id"] == again.body["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    other = client.call("POST", "/tournaments", {**TOURNAMENT, "name": "Autumn"}, key=ann, headers=once)
    assert other.status == 409 and other.body["rule"] == "idempotency"
    # Every term counts, the rounds planned too (the rounds paired so far, none yet, were compared).
    longer = client.call("POST", "/tournaments", {**TOURNAMENT, "rounds": 5}, key=ann, headers=once)
    assert longer.status == 409 and longer.body["rule"] == "idempotency"
    assert client.call("POST", "/tournaments", TOURNAMENT, key=ann).body["id"] != first.body["id"]


def test_a_fork_listed_by_a_racing_retry_is_listed_once(audit):  # noqa: F811 - the fixture
    """Two requests with one Idempotency-Key at once: the second found the fork saved and listed it
    while the first was still between its save and its listing; the lineage held it twice."""
    from application.history import History

    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    fork = client.call("POST", f"/matches/{match_id}/forks", {"version": 12}, key=keys[0],
                       headers={"Idempotency-Key": "fork-2"}).body["id"]
    History(container.app)._record_fork(match_id, fork, 12, False)  # the racing retry's listing, late
    forks = client.get(f"/matches/{match_id}").body["lineage"]["forks"]
    assert [f["match_id"] for f in forks] == [fork]


def test_an_idempotent_creations_id_cannot_be_computed_from_public_facts(audit):  # noqa: F811 - the fixture
    """The id of a creation under an Idempotency-Key was uuid5(a constant in the source, the creator's
    public id and the key): anyone could compute the id of an unlisted match made with a key such as the
    README's "m-42" and read it. It now holds a secret of the creator's too; a retry still finds it."""
    from uuid import UUID, uuid5

    from application.service import IDEMPOTENT_CREATIONS

    _, client = audit
    ann_id, ann = client.register("ann")
    once = {"Idempotency-Key": "m-42"}
    made = client.call("POST", "/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann, headers=once)
    again = client.call("POST", "/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann, headers=once)
    assert made.status == again.status == 201 and made.body["id"] == again.body["id"]
    guessed = str(uuid5(IDEMPOTENT_CREATIONS, f"match:{ann_id}:m-42"))
    assert made.body["id"] != guessed and client.get(f"/matches/{guessed}").status == 404
    tournament = client.call("POST", "/tournaments", TOURNAMENT, key=ann, headers={"Idempotency-Key": "t-1"})
    assert tournament.body["id"] != str(uuid5(IDEMPOTENT_CREATIONS, f"tournament:{ann_id}:t-1"))
    live = made.body["id"]
    forked = client.call("POST", f"/matches/{live}/forks", {"version": 1}, key=AUDITOR, headers=once)
    assert forked.status == 201 and forked.body["id"] != str(uuid5(IDEMPOTENT_CREATIONS, "fork:auditor:m-42"))
    assert client.call("POST", f"/matches/{live}/forks", {"version": 1}, key=AUDITOR, headers=once).body["id"] == \
        forked.body["id"]
    assert UUID(made.body["id"])  # a UUID all the same
