"""Fixtures: the same stories run on each event store (SQLite file, PostgreSQL), and a real Celery
worker against the machine's RabbitMQ for the end-to-end tests."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
import zlib
from datetime import datetime, timezone
from pathlib import Path

import psycopg
import pytest

from infrastructure.composition import build
from infrastructure.settings import Settings
from infrastructure.task_queues import CeleryTaskQueue

ROOT = Path(__file__).resolve().parent.parent
PG = dict(host=os.environ.get("MOTLEY_TEST_PG_HOST", "127.0.0.1"), port=5432, dbname="test", user="postgres")
BROKER = os.environ.get("MOTLEY_TEST_BROKER", "amqp://guest:guest@127.0.0.1:5672//")
#: The seed of the Celery worker processes' generator (MOTLEY_TEST_WORKER_SEED, or a fixed one).
WORKER_SEED = int(os.environ.get("MOTLEY_TEST_WORKER_SEED") or zlib.crc32(b"celery worker"))


def pg_settings(schema: str, **overrides) -> Settings:
    return Settings(
        store="postgres",
        postgres_host=PG["host"],
        postgres_port=str(PG["port"]),
        postgres_dbname=PG["dbname"],
        postgres_user=PG["user"],
        postgres_schema=schema,
        postgres_pool_size=overrides.pop("postgres_pool_size", 3),
        **overrides,
    )


def create_schema(schema: str) -> None:
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')


def drop_schema(schema: str) -> None:
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgres"])
def settings(request, tmp_path):
    """Settings for a fresh, empty event store of each kind."""
    if request.param == "sqlite":
        yield Settings(store="sqlite", sqlite_path=str(tmp_path / "motley.sqlite"))
    else:
        schema = f"t_{uuid.uuid4().hex[:12]}"
        create_schema(schema)
        yield pg_settings(schema)
        drop_schema(schema)


@pytest.fixture
def seed(request) -> int:
    """The seed of this test's random generators (chance outcomes, computers, random moves): fixed per
    test, or MOTLEY_TEST_SEED for every test. A failing test prints it (see the report hook below)."""
    chosen = os.environ.get("MOTLEY_TEST_SEED")
    value = int(chosen) if chosen else zlib.crc32(request.node.nodeid.encode())
    request.node.motley_seed = value
    return value


@pytest.fixture
def rng(seed) -> random.Random:
    """The generator a test's containers draw chance from (``build(..., rng=rng)``)."""
    return random.Random(seed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    seed = getattr(item, "motley_seed", None)
    if report.failed and seed is not None:
        worker = f" MOTLEY_TEST_WORKER_SEED={WORKER_SEED}" if "worker_env" in item.fixturenames else ""
        report.sections.append(("random seed", f"rerun with MOTLEY_TEST_SEED={seed}{worker} to draw the same chance"))


@pytest.fixture
def motley(settings, rng):
    """A container with an in-process task queue (tasks run in a background thread)."""
    container = build(settings, rng=rng)
    yield container
    container.close()


@pytest.fixture
def sqlite_motley(tmp_path, rng):
    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "motley.sqlite")), rng=rng)
    yield container
    container.close()


def start_worker(schema: str, queue: str, broker: str, log: Path) -> subprocess.Popen:
    """A real Celery worker process (two children) on ``schema``'s tables, consuming ``queue`` from
    ``broker``; returns once it is ready."""
    env = dict(os.environ)
    env.update(
        MOTLEY_STORE="postgres",
        MOTLEY_POSTGRES_HOST=PG["host"],
        MOTLEY_POSTGRES_DBNAME=PG["dbname"],
        MOTLEY_POSTGRES_USER=PG["user"],
        MOTLEY_POSTGRES_SCHEMA=schema,
        MOTLEY_POSTGRES_POOL_SIZE="2",
        MOTLEY_TASKS="celery",
        MOTLEY_BROKER_URL=broker,
        MOTLEY_QUEUE=queue,
        MOTLEY_RANDOM_SEED=str(WORKER_SEED),  # the worker's chance and computers, reproducible too
        PYTHONPATH=str(ROOT),
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-c", "2", "-l", "info",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{queue}@%h", "-f", str(log)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if log.exists() and " ready." in log.read_text():
            return process
        if process.poll() is not None:
            raise RuntimeError(f"the Celery worker exited: {log.read_text() if log.exists() else ''}")
        time.sleep(0.2)
    process.terminate()
    raise RuntimeError("the Celery worker did not become ready in 60 s")


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def worker_env(tmp_path_factory):
    """A PostgreSQL schema and a broker queue with a real Celery worker process consuming it."""
    schema = f"w_{uuid.uuid4().hex[:12]}"
    queue = f"motley-test-{uuid.uuid4().hex[:8]}"
    create_schema(schema)
    settings = pg_settings(schema, tasks="celery", broker_url=BROKER, queue=queue)
    build(settings, tasks=CeleryTaskQueue(BROKER, queue)).close()  # migrate once, before the worker
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    process = start_worker(schema, queue, BROKER, log)
    yield settings, log
    stop_worker(process)
    drop_schema(schema)


@pytest.fixture
def worker_motley(worker_env, rng):
    """A container on the worker's schema whose tasks go through the broker to the real worker."""
    settings, _ = worker_env
    container = build(Settings(**{**settings.__dict__, "create_tables": False}), rng=rng)
    yield container
    container.close()


class Clock:
    """A clock a test moves by hand (``clock.now += timedelta(...)``): deadlines pass without waiting."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clocked(settings, seed):
    """A container on both stores whose clock the test moves, tasks never run (the test calls them)."""
    from application.ports import NoTaskQueue

    clock = Clock()
    container = build(settings, tasks=NoTaskQueue(), clock=clock, rng=random.Random(seed))
    yield container, clock
    container.close()
