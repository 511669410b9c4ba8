"""Settings an operator gets wrong, refused at start naming the variable (an operator probe): a negative
MOTLEY_TRUSTED_PROXIES let any request with X-Forwarded-For fail (500); a bad number said "invalid literal
for int()" naming no variable; MOTLEY_CREATE_TABLES=nope read as no; an origin with a trailing slash never
matched; a one-character auditor key was taken; ``motley migrate`` hid why PostgreSQL refused it."""

from __future__ import annotations

import socket

import pytest

from api.cli import main
from api.rates import parse_limits
from infrastructure.settings import Settings


@pytest.mark.parametrize("name, value, said", [
    ("MOTLEY_TRUSTED_PROXIES", "-1", "MOTLEY_TRUSTED_PROXIES must be at least 0, not -1"),
    ("MOTLEY_TRUSTED_PROXIES", "abc", "MOTLEY_TRUSTED_PROXIES must be a whole number, not 'abc'"),
    ("MOTLEY_POSTGRES_POOL_SIZE", "abc", "MOTLEY_POSTGRES_POOL_SIZE must be a whole number"),
    ("MOTLEY_POSTGRES_POOL_SIZE", "0", "MOTLEY_POSTGRES_POOL_SIZE must be at least 1"),
    ("MOTLEY_POSTGRES_POOL_TIMEOUT", "1.5", "MOTLEY_POSTGRES_POOL_TIMEOUT must be a whole number"),
    ("MOTLEY_POSTGRES_PORT", "abc", "MOTLEY_POSTGRES_PORT must be a whole number"),
    ("MOTLEY_POSTGRES_PORT", "70000", "MOTLEY_POSTGRES_PORT must be from 1 to 65535"),
    ("MOTLEY_RANDOM_SEED", "abc", "MOTLEY_RANDOM_SEED must be a whole number"),
    ("MOTLEY_CREATE_TABLES", "nope", "MOTLEY_CREATE_TABLES must be yes or no"),
    ("MOTLEY_CREATE_TABLES", "ye", "MOTLEY_CREATE_TABLES must be yes or no"),
    ("MOTLEY_CORS_ORIGINS", "https://a.example/, https://b.example", "'https://a.example/' is not an origin"),
    ("MOTLEY_CORS_ORIGINS", "a.example", "'a.example' is not an origin"),
    ("MOTLEY_AUDITOR_KEY", "x", "MOTLEY_AUDITOR_KEY must be at least 16 characters"),
    ("MOTLEY_RATE_LIMIT_STORAGE", "redsi://127.0.0.1:6379", "MOTLEY_RATE_LIMIT_STORAGE: 'redsi' is not a scheme"),
    ("MOTLEY_STORE", "postgress", "MOTLEY_STORE must be 'sqlite' or 'postgres', not 'postgress'"),
    ("MOTLEY_STREAM_THREADS", "x", "MOTLEY_STREAM_THREADS must be a whole number, not 'x'"),
    ("MOTLEY_STREAM_THREADS", "0", "MOTLEY_STREAM_THREADS must be at least 1, not 0"),
])
def test_a_setting_that_cannot_be_right_is_refused_naming_it(name, value, said):
    with pytest.raises(ValueError) as refused:
        Settings.from_env({name: value})
    assert said in str(refused.value)


def test_a_broker_of_no_known_transport_is_refused_when_the_workers_are_celery():
    """kombu knew no ``amqq``: the API started, and each task it sent failed."""
    with pytest.raises(ValueError) as refused:
        Settings.from_env({"MOTLEY_TASKS": "celery", "MOTLEY_BROKER_URL": "amqp://a//;amqq://b//"})
    assert "MOTLEY_BROKER_URL: 'amqq' is not a scheme" in str(refused.value)
    # Failover lists and transports with a driver (sqla+postgresql) are kombu's own.
    for url in ("amqp://a//;amqp://b//", "redis://127.0.0.1:6379/0", "sqla+postgresql://db/x"):
        assert Settings.from_env({"MOTLEY_TASKS": "celery", "MOTLEY_BROKER_URL": url}).broker_url == url
    # In-process tasks send nothing: the broker is not read.
    assert Settings.from_env({"MOTLEY_BROKER_URL": "amqq://b//"}).tasks == "inprocess"


def test_the_settings_that_can_be_right_are_read():
    settings = Settings.from_env({
        "MOTLEY_TRUSTED_PROXIES": "2", "MOTLEY_POSTGRES_PORT": "5433", "MOTLEY_CREATE_TABLES": "off",
        "MOTLEY_CORS_ORIGINS": "https://a.example, http://localhost:8080, https://*.play.example",
        "MOTLEY_AUDITOR_KEY": "a-long-enough-key", "MOTLEY_RANDOM_SEED": "", "MOTLEY_POSTGRES_POOL_SIZE": "3"})
    assert (settings.trusted_proxies, settings.postgres_port, settings.create_tables, settings.random_seed,
            settings.postgres_pool_size) == (2, "5433", False, None, 3)
    assert Settings.from_env({"MOTLEY_CREATE_TABLES": "Yes", "MOTLEY_AUDITOR_KEY": ""}).create_tables is True


def refused(argv, capsys) -> tuple[str, str]:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return out, err


def test_migrate_says_why_postgresql_refused_it(monkeypatch, capsys):
    """A missing database or role: `motley serve` named it, `motley migrate` (a deployment's first command)
    said only "couldn't get a connection after 2.00 sec", as it did for a port nobody listens on."""
    monkeypatch.setenv("MOTLEY_STORE", "postgres")
    monkeypatch.setenv("MOTLEY_POSTGRES_DBNAME", "motley_no_such_database")
    _, err = refused(["migrate"], capsys)
    assert 'database "motley_no_such_database" does not exist' in err, err
    monkeypatch.setenv("MOTLEY_POSTGRES_DBNAME", "test")
    monkeypatch.setenv("MOTLEY_POSTGRES_USER", "motley_no_such_role")
    _, err = refused(["migrate"], capsys)
    assert 'role "motley_no_such_role" does not exist' in err, err
    monkeypatch.setenv("MOTLEY_SQLITE_PATH", "/nonexistent/motley.sqlite")
    _, err = refused(["rebuild", "matches"], capsys)
    assert 'role "motley_no_such_role" does not exist' in err, err


def test_serve_names_a_bad_stream_thread_count_before_saying_it_serves(monkeypatch, capsys):
    """Under gunicorn, MOTLEY_STREAM_THREADS=abc printed "Motley on http://..." and then "invalid literal
    for int()"."""
    monkeypatch.setenv("MOTLEY_STORE", "postgres")
    monkeypatch.setenv("MOTLEY_POSTGRES_DBNAME", "test")
    monkeypatch.setenv("MOTLEY_CREATE_TABLES", "y")  # serve under gunicorn sets it n for its workers
    monkeypatch.setenv("MOTLEY_STREAM_THREADS", "abc")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    out, err = refused(["serve", "--processes", "2", "--port", str(port)], capsys)
    assert "MOTLEY_STREAM_THREADS must be a whole number" in err and "Motley on" not in out, (out, err)


@pytest.mark.parametrize("text, said", [("moves=abc", "MOTLEY_RATE_LIMITS: moves='abc' is no rate"),
                                        ("mvoes=5/second", "MOTLEY_RATE_LIMITS: unknown rate limit 'mvoes'")])
def test_a_rate_limit_that_cannot_be_read_is_refused_naming_the_variable(text, said):
    """A docs probe: `motley serve` with MOTLEY_RATE_LIMITS=moves=abc said only "couldn't parse rate limit
    string 'abc'", naming neither the variable nor the limit (the README: "in one line naming the variable")."""
    with pytest.raises(ValueError) as refused:
        parse_limits(text)
    assert said in str(refused.value), refused.value


def test_a_celery_worker_with_a_setting_that_cannot_be_right_stops_in_one_line():
    """The README: a setting that cannot be right stops a command in one line naming the variable. The
    Celery worker and beat (the Procfile's, docs/deploy.md) printed a traceback of the settings' import
    (an operator's probe), where `motley` commands say one line; MOTLEY_TRACEBACK shows it still."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    celery = [sys.executable, "-m", "celery", "-A", "workers.celery_app"]
    env = {**os.environ, "MOTLEY_TASKS": "celery", "MOTLEY_BROKER_URL": "amqq://127.0.0.1//"}
    env.pop("MOTLEY_TRACEBACK", None)
    for command in ("worker", "beat"):
        done = subprocess.run([*celery, command], cwd=root, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, (done.returncode, done.stderr)
        assert done.stderr.strip().splitlines() == [
            "motley workers (celery): MOTLEY_BROKER_URL: 'amqq' is not a scheme its library knows "
            "(such as amqp://, redis://)"], done.stderr
    # A store misspelt too: the worker opens its store at its first task, and so it said "ready" and then
    # failed every task it took (an operator probe).
    misspelt = {**env, "MOTLEY_BROKER_URL": "amqp://127.0.0.1:1//", "MOTLEY_STORE": "postgress"}
    done = subprocess.run([*celery, "worker"], cwd=root, env=misspelt, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr.strip().splitlines()) == (1, [
        "motley workers (celery): MOTLEY_STORE must be 'sqlite' or 'postgres', not 'postgress'"]), done.stderr
    shown = subprocess.run([*celery, "worker"], cwd=root, env={**env, "MOTLEY_TRACEBACK": "1"},
                           capture_output=True, text=True, timeout=60)
    assert "Traceback" in shown.stderr and shown.returncode != 0
