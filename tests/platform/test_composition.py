"""The composition root builds and starts nothing; settings only read the environment."""

from __future__ import annotations

import random
import threading

from api import cli
from infrastructure.composition import Container, build
from infrastructure.settings import Settings


def task_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "motley-tasks" and t.is_alive()]


def test_settings_create_no_directory(tmp_path):
    path = tmp_path / "var" / "motley.sqlite"
    env = Settings.from_env({"MOTLEY_SQLITE_PATH": str(path)}).eventsourcing_env()
    assert env["SQLITE_DBNAME"] == str(path)
    assert not path.parent.exists()


def test_building_starts_no_work_until_started(tmp_path):
    path = tmp_path / "var" / "motley.sqlite"
    running = task_threads()
    container = build(Settings(store="sqlite", sqlite_path=str(path)), rng=random.Random(1))
    try:
        assert path.parent.is_dir()  # the store's folder is made where the store is built
        assert task_threads() == running  # no background thread, no sweep enqueued
        container.start()  # what `motley serve` does: the sweep runs in the task thread
        container.tasks.drain()
        assert len(task_threads()) == len(running) + 1
    finally:
        container.close()
    assert task_threads() == running


def test_migrate_creates_the_tables_and_starts_no_thread(tmp_path, monkeypatch, capsys):
    path = tmp_path / "var" / "motley.sqlite"
    monkeypatch.setenv("MOTLEY_STORE", "sqlite")
    monkeypatch.setenv("MOTLEY_SQLITE_PATH", str(path))
    running = task_threads()
    at_close = []
    close = Container.close
    monkeypatch.setattr(Container, "close", lambda self: (at_close.append(task_threads()), close(self)))
    cli.main(["migrate"])
    assert "tables ready" in capsys.readouterr().out
    assert path.exists() and at_close == [running]  # nothing was running before it closed


def test_a_seeded_process_draws_the_same_chance_and_an_unseeded_one_asks_the_system(tmp_path):
    """MOTLEY_RANDOM_SEED (tests only: the Celery worker of the test suite) seeds chance and computers."""
    assert Settings.from_env({"MOTLEY_RANDOM_SEED": "7"}).random_seed == 7
    assert Settings.from_env({}).random_seed is None
    draws = []
    for name in ("a", "b"):
        container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / f"{name}.sqlite"), random_seed=7))
        try:
            draws.append([container.app.rng.random() for _ in range(3)])
        finally:
            container.close()
    expected = random.Random(7)
    assert draws[0] == draws[1] == [expected.random() for _ in range(3)]
    unseeded = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "c.sqlite")))
    try:
        assert isinstance(unseeded.app.rng, random.SystemRandom)
    finally:
        unseeded.close()
