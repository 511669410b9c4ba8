"""The match list says what a player agrees to by joining (a turn limit to be claimed, a rated match,
required versions) and keeps unlisted matches to their own players and the auditor: an anonymous
``GET /matches?status=open`` listed a private match, its game and who sat at it."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3

import psycopg
import pytest

from api import create_app
from domain.games import get_engine
from infrastructure.composition import build
from infrastructure.settings import Settings
from tests.conftest import PG
from tests.platform.client import ApiClient, play_randomly

AUDITOR = "auditor-secret-for-the-list"


@pytest.fixture
def motley(settings, rng):
    container = build(dataclasses.replace(settings, auditor_key=AUDITOR), rng=rng)
    yield container
    container.close()


def ids(answer) -> list[str]:
    assert answer.status == 200, answer.text
    return [row["id"] for row in answer.body["items"]]


def test_the_list_shows_the_terms_and_an_unlisted_match_only_to_its_players(motley):
    client = ApiClient(create_app(motley))
    ann_id, ann = client.register("ann")
    _, bob = client.register("bob")
    private = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True, "rated": False,
                                       "require_version": True,
                                       "turn_limit": {"seconds": 0.5, "on_timeout": "claim"}}, key=ann).body["id"]
    client.post(f"/matches/{private}/seats", {}, key=ann)
    public = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    client.post(f"/matches/{public}/seats", {}, key=ann)
    motley.tasks.drain()
    for query, key in (({"status": "open"}, None), ({}, None), ({"player": ann_id}, None),
                       ({"player": ann_id}, bob), ({"status": "open"}, ann)):
        assert ids(client.get("/matches", query=query, key=key)) == [public], (query, key)
    assert set(ids(client.get("/matches", query={"player": ann_id}, key=ann))) == {private, public}
    assert set(ids(client.get("/matches", key=AUDITOR))) == {private, public}
    assert [m["id"] for m in client.get(f"/players/{ann_id}").body["recent_matches"]] == [public]
    assert {m["id"] for m in client.get(f"/players/{ann_id}", key=ann).body["recent_matches"]} == {private, public}
    rows = {row["id"]: row for row in client.get("/matches", query={"player": ann_id}, key=ann).body["items"]}
    rules = {"rules_version": get_engine("jest").rules_version, "options": get_engine("jest").default_options()}
    assert rows[private]["terms"] == {"turn_limit": {"seconds": 0.5, "on_timeout": "claim"}, "rated": False,
                                      "versions_required": True, "unlisted": True, **rules}
    assert rows[public]["terms"] == {"turn_limit": None, "rated": True, "versions_required": False,
                                     "unlisted": False, **rules}


def test_the_list_says_what_rules_and_options_an_open_match_is_played_under(motley):
    """A person choosing a match to join from the list saw neither its rules version nor its options
    (a probe: Jest's shared ties change who wins, and the lobby's join seats at once)."""
    client = ApiClient(create_app(motley))
    _, ann = client.register("ann")
    shared = client.post("/matches", {"game": "le-bouffon", "seats": 3, "options": {"deals": 2, "ties": "shared"}},
                         key=ann).body
    motley.tasks.drain()
    row = next(r for r in client.get("/matches", query={"status": "open"}).body["items"] if r["id"] == shared["id"])
    engine = get_engine("le-bouffon")  # the current rules version, every option stored, defaults filled in
    assert row["terms"]["rules_version"] == shared["rules_version"] == engine.rules_version
    assert row["terms"]["options"] == {**engine.default_options(), "deals": 2, "ties": "shared"}


OLD_SQLITE = ("CREATE TABLE motley_match_list (match_id TEXT PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL, "
              "seats INTEGER NOT NULL, players TEXT NOT NULL, open_seats INTEGER NOT NULL, to_act TEXT NOT NULL, "
              "version INTEGER NOT NULL, moves INTEGER NOT NULL, winners TEXT NOT NULL, created_at TEXT NOT NULL, "
              "updated_at TEXT NOT NULL)")


def test_a_list_table_made_before_the_terms_gets_their_column(tmp_path, rng):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as old:
        old.execute(OLD_SQLITE)
        old.execute("INSERT INTO motley_match_list VALUES ('m', 'jest', 'open', 3, '[]', 3, ?, 1, 0, '[]', "
                    "'2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')", (json.dumps({"kind": "waiting",
                                                                                             "seats": []}),))
    container = build(Settings(store="sqlite", sqlite_path=str(path)), rng=rng)
    try:
        client = ApiClient(create_app(container))
        rows = client.get("/matches").body["items"]
        assert [(r["id"], r["terms"], r["absent"]) for r in rows] == [("m", {}, [])]  # until rewritten or rebuilt
        _, ann = client.register("ann")
        made = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
        container.tasks.drain()
        assert client.get("/matches").body["items"][0]["id"] == made
        assert client.get("/matches").body["items"][0]["terms"]["rated"] is True
    finally:
        container.close()


OLD_POSTGRES = ("CREATE TABLE motley_match_list (match_id text PRIMARY KEY, game text NOT NULL, status text NOT NULL, "
                "seats integer NOT NULL, players jsonb NOT NULL, open_seats integer NOT NULL, to_act jsonb NOT NULL, "
                "version integer NOT NULL, moves integer NOT NULL, winners jsonb NOT NULL, "
                "created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)")


def test_the_postgres_list_table_gets_the_column_too(rng):
    from tests.conftest import create_schema, drop_schema, pg_settings

    schema = "t_old_list_terms"
    drop_schema(schema)
    create_schema(schema)
    try:
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f'SET search_path TO "{schema}"')
            conn.execute(OLD_POSTGRES)
        container = build(pg_settings(schema), rng=rng)
        try:
            client = ApiClient(create_app(container))
            _, ann = client.register("ann")
            made = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
            container.tasks.drain()
            row = client.get("/matches").body["items"][0]
            assert row["id"] == made and row["terms"]["unlisted"] is False and row["absent"] == []
        finally:
            container.close()
    finally:
        drop_schema(schema)


def test_an_unlisted_match_is_not_named_by_its_fork_nor_by_a_rating_history(motley):
    """A player's fork of an unlisted match was listed to everyone and named its parent; a player's
    rating history showed the unlisted match's id to anyone (the lists and profiles hid it)."""
    client = ApiClient(create_app(motley))
    (ann_id, ann), (bob_id, bob), (_, cy) = (client.register(name) for name in ("ann", "bob", "cy"))
    created = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann).body
    match_id, code = created["id"], created["invitation_code"]
    for key in (ann, bob, cy):
        client.post(f"/matches/{match_id}/seats", {"invitation_code": code}, key=key)
    client.post(f"/matches/{match_id}/start", key=ann)
    play_randomly(client, match_id, [ann, bob, cy], random.Random(3), settle=motley.tasks.drain)
    forked = client.post(f"/matches/{match_id}/forks", {"version": 12}, key=bob)
    assert forked.status == 201 and forked.body["unlisted"], forked.text
    after = {"after": forked.headers["Motley-Position"]}
    listed = {**after, "order": "created", "limit": 100}
    assert forked.body["id"] not in ids(client.get("/matches", query=listed))
    assert forked.body["id"] in ids(client.get("/matches", query=listed, key=AUDITOR))
    path = f"/players/{bob_id}/ratings/jest"
    assert [h["match_id"] for h in client.get(path, query=after).body["history"]] == [None]  # anyone
    assert [h["match_id"] for h in client.get(path, query=after, key=bob).body["history"]] == [match_id]
    assert [h["match_id"] for h in client.get(path, query=after, key=AUDITOR).body["history"]] == [match_id]
    assert [h["match_id"] for h in client.get(f"/players/{ann_id}/ratings/jest", key=bob).body["history"]] == [None]
    # Nor by the position and time its players share: compared across histories, they told anyone who
    # played a private match together, when, and each one's place.
    for player_id in (ann_id, bob_id):
        point = client.get(f"/players/{player_id}/ratings/jest", query=after).body["history"][0]
        assert point["position"] is None and point["at"] is None and point["place"] >= 1, point
    own = client.get(path, query=after, key=bob).body["history"][0]
    assert own["position"] > 0 and own["at"], own


def test_a_match_of_one_person_against_computers_says_it_is_not_rated(motley):
    """Ratings need two people at least: a match of one person against computers said rated all the same,
    in its view and in the list's terms, and no rating ever moved."""
    client = ApiClient(create_app(motley))
    _, ann = client.register("ann")
    alone = client.post("/matches", {"game": "jest", "seats": 3, "computers": {"1": "random", "2": "random"}},
                        key=ann)
    assert alone.status == 201 and alone.body["rated"] is False, alone.text
    listed = client.get("/matches", query={"after": alone.headers["Motley-Position"], "order": "created"}).body
    assert next(row for row in listed["items"] if row["id"] == alone.body["id"])["terms"]["rated"] is False
    two = client.post("/matches", {"game": "jest", "seats": 3, "computers": {"2": "random"}}, key=ann).body
    assert two["rated"] is True
