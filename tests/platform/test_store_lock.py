"""Busy, not down. A save that finds the events table locked by another session (a migration, an exclusive backup lock,
an operator's LOCK TABLE) is refused after one lock timeout, as busy (a faults probe): the library retried
the lock timeout ten times, so a move waited over 100 s, and was then answered "the database cannot be
reached" while every read answered at once. Nothing is saved, and the retry under its key succeeds."""

from __future__ import annotations

import time
import uuid

import psycopg

from api import create_app
from infrastructure.composition import build
from tests.conftest import PG, create_schema, drop_schema, pg_settings
from tests.platform.client import ApiClient


def test_a_save_behind_a_held_table_lock_is_a_prompt_503_that_says_busy_and_saves_nothing(rng):
    schema = f"t_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    motley = build(pg_settings(schema, extra_env={"POSTGRES_LOCK_TIMEOUT": "1"}), rng=rng)
    try:
        client = ApiClient(create_app(motley))
        _, key = client.register("ann")
        events = f'SELECT count(*) FROM "{schema}".motley_events'
        with psycopg.connect(**PG) as reader:
            before = reader.execute(events).fetchone()
        with psycopg.connect(**PG) as holder:  # a transaction holding the lock a save takes
            holder.execute(f'LOCK TABLE "{schema}".motley_events IN EXCLUSIVE MODE')
            started = time.monotonic()
            refused = client.post("/matches", {"game": "jest", "seats": 3}, key=key,
                                  headers={"Idempotency-Key": "k1"})
            waited = time.monotonic() - started
            assert refused.status == 503 and refused.headers["Content-Type"] == "application/problem+json"
            assert refused.headers["Retry-After"] and "busy" in refused.body["detail"], refused.body
            assert "cannot be reached" not in refused.body["detail"]
            assert waited < 5, waited  # one lock timeout of 1 s, not ten of them
            assert client.get("/health").status == 200  # reads go on meanwhile
            holder.rollback()
        with psycopg.connect(**PG) as reader:
            assert reader.execute(events).fetchone() == before  # nothing was saved
        created = client.post("/matches", {"game": "jest", "seats": 3}, key=key, headers={"Idempotency-Key": "k1"})
        assert created.status == 201, created.text
    finally:
        motley.close()
        drop_schema(schema)


def test_liveness_answers_at_once_while_every_pooled_connection_is_busy(rng):
    """A faults probe: /health read the log's position through the pool, so with every connection busy
    it waited the pool's timeout, retried, about 6 s: a liveness probe with a 1 s timeout would restart a
    process that was only busy. It answers at once, the position null, and gives it again once free."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    motley = build(pg_settings(schema, postgres_pool_size=1), rng=rng)
    try:
        client = ApiClient(create_app(motley))
        client.register("ann")
        assert client.get("/health").body["position"] >= 1
        pool = motley.app.recorder.datastore.pool
        held = [pool.getconn() for _ in range(pool.max_size)]  # every connection the pool may open
        try:
            started = time.monotonic()
            health = client.get("/health")
            assert time.monotonic() - started < 1.5
            assert health.status == 200 and health.body == {"status": "ok", "position": None}
        finally:
            for connection in held:
                pool.putconn(connection)
        assert client.get("/health").body["position"] >= 1
    finally:
        motley.close()
        drop_schema(schema)
