"""What an operator trips on: a typo in MOTLEY_TASKS, a missing export given to ``motley verify``,
liveness while the tables are missing (``motley migrate`` forgotten), and a player's stream that says
nothing for its first 10 seconds."""

from __future__ import annotations

import contextlib
import shutil
import uuid
from pathlib import Path

import psycopg
import pytest

from api import create_app
from api.cli import verify_file
from infrastructure.composition import build
from infrastructure.settings import Settings
from tests.conftest import PG, create_schema, drop_schema, pg_settings
from tests.platform.client import ApiClient


@pytest.mark.parametrize("value", ["Celery", "rabbit", ""])
def test_an_unknown_task_runner_is_refused_not_run_in_process(value):
    with pytest.raises(ValueError, match="MOTLEY_TASKS"):
        Settings.from_env({"MOTLEY_TASKS": value})
    assert Settings.from_env({"MOTLEY_TASKS": "celery"}).tasks == "celery"


def test_verify_of_a_missing_export_says_so_in_one_line(tmp_path):
    with pytest.raises(SystemExit) as stopped:
        verify_file(str(tmp_path / "missing.jsonl"))
    assert "cannot read" in str(stopped.value.code) and "missing.jsonl" in str(stopped.value.code)


def test_liveness_answers_and_readiness_refuses_while_the_tables_are_missing():
    schema = f"t_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    try:
        container = build(pg_settings(schema, create_tables=False))
        try:
            client = ApiClient(create_app(container))
            health = client.get("/health")
            assert health.status == 200 and health.body == {"status": "ok", "position": None}
            ready = client.get("/ready")  # not ready: it says what to do
            assert ready.status == 503 and "motley migrate" in ready.body["dependencies"]["tables"]
            # ... and so does a read that needs them (a docs probe: a 500 `internal`).
            listed = client.get("/matches")
            assert listed.status == 503 and "motley migrate" in listed.body["detail"], listed.text
            assert listed.headers.get("Retry-After")
        finally:
            container.close()
    finally:
        drop_schema(schema)


@contextlib.contextmanager
def api_in_a_schema_of_its_own():
    """An API on PostgreSQL in a fresh schema, dropped afterwards: (schema, client)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    try:
        container = build(pg_settings(schema))
        try:
            yield schema, ApiClient(create_app(container))
        finally:
            container.close()
    finally:
        drop_schema(schema)


@pytest.mark.parametrize("table, change", [("motley_match_list", "DROP TABLE {}"), ("motley_league", "DROP TABLE {}"),
                                           ("motley_match_list", "ALTER TABLE {} DROP COLUMN absent")])
def test_readiness_refuses_while_a_read_model_table_is_missing(table, change):
    """An operator probe dropped the match list's table: ``GET /matches`` answered 500 while /ready said
    ``tables: ok`` (it read the event store's tables only). Another's API of a new release, started before
    ``motley migrate`` added a column, answered 500 to ``GET /matches`` too: it said ready."""
    with api_in_a_schema_of_its_own() as (schema, client):
        assert client.get("/ready").body["dependencies"]["tables"] == "ok"
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(change.format(f'"{schema}"."{table}"'))
        ready = client.get("/ready")
        assert ready.status == 503, ready.text
        said = ready.body["dependencies"]["tables"]
        assert table in said and "motley rebuild" in said, said
        assert ("absent" in said) == ("COLUMN" in change), said  # the column the database misses


def test_readiness_is_degraded_not_refused_while_only_the_broker_is_away(tmp_path):
    """A faults probe: /ready answered 503 with the broker away while every write succeeded (its tasks
    wait in the outbox), so a balancer following it took every API process out: a broker outage became a
    whole one. It is 200 "degraded", naming the broker; the database still decides."""
    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "m.sqlite"), tasks="celery",
                               broker_url="amqp://guest:guest@127.0.0.1:1//"))  # nobody listens there
    try:
        client = ApiClient(create_app(container))
        ready = client.get("/ready")
        assert ready.status == 200 and ready.body["status"] == "degraded", ready.text
        assert ready.body["dependencies"]["database"] == "ok" and ready.body["dependencies"]["broker"] != "ok"
        _, key = client.register("ann")  # and a write is served meanwhile
        assert client.post("/matches", {"game": "jest", "seats": 3}, key=key).status == 201
    finally:
        container.close()


def test_the_players_stream_sends_its_headers_at_once(motley):
    client = ApiClient(create_app(motley))
    _, key = client.register("ann")
    response = client.http.get("/players/me/stream?seconds=30", headers={"Authorization": f"Bearer {key}"},
                               buffered=False)
    try:
        assert response.status_code == 200
        assert next(response.response) in (b": open\n\n", ": open\n\n")  # not the heartbeat 10 s later
    finally:
        response.close()


def test_a_match_stream_with_nothing_to_send_yet_answers_at_once(motley):
    """Resumed at the match's own version, the stream has nothing to send until the next move or the
    10 s heartbeat: its status and headers came with that."""
    client = ApiClient(create_app(motley))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    version = client.get(f"/matches/{match_id}").body["version"]
    for path in (f"/matches/{match_id}/stream", f"/matches/{match_id}/events/stream"):
        response = client.http.get(f"{path}?seconds=30", headers={"Last-Event-ID": str(version)}, buffered=False)
        try:
            assert response.status_code == 200, path
            assert next(response.response) in (b": open\n\n", ": open\n\n"), path
        finally:
            response.close()


@contextlib.contextmanager
def streams_served(container):
    """``container``'s API served on a port of its own (16 request threads): (base URL, open), ``open(path,
    key)`` a stream held open until the end (its answer)."""
    import requests

    from api.server import make_server
    from tests.platform.test_faults import free_port, run_in_background, stop_serving

    port = free_port()
    server = make_server(create_app(container), "127.0.0.1", port, threads=16)
    run_in_background(server)
    base = f"http://127.0.0.1:{port}"
    opened = []

    def open_stream(path, key):
        opened.append(requests.get(f"{base}{path}", params={"seconds": 60}, headers={"Authorization": f"Bearer {key}"},
                                   stream=True, timeout=10))
        return opened[-1]

    try:
        yield base, open_stream
    finally:
        for response in opened:
            response.close()
        stop_serving(server)


def test_streams_are_capped_per_player_so_bots_on_one_machine_each_have_theirs(motley):
    """Two bots on one machine (one address), each with its four streams: the cap is each player's."""
    import requests

    from api.rates import MAX_HELD_PER_CLIENT

    with streams_served(motley) as (base, open_stream):
        keys = [requests.post(f"{base}/players", json={"name": name}).json()["api_key"] for name in ("b1", "b2")]
        for key in keys:
            for _ in range(MAX_HELD_PER_CLIENT):
                assert open_stream("/players/me/stream", key).status_code == 200
        refused = requests.get(f"{base}/players/me/stream", params={"seconds": 5},
                               headers={"Authorization": f"Bearer {keys[0]}"}, timeout=10)
        assert refused.status_code == 429 and "per player" in refused.json()["detail"]


@pytest.mark.parametrize("argv, said", [
    (["nope", "--players", "3", "--seats", "random"], "no game named nope (games: fools-crown, jest"),
    (["jest", "--players", "3", "--seats", "mcts", "--iterations", "0"], "--iterations is at least 1"),
    (["jest", "--players", "3", "--seats", "random", "--workers", "0"], "--workers is at least 1"),
    (["jest", "--players", "3", "--seats", "random", "--options", "x"], "--options is not JSON"),
])
def test_simulate_refuses_what_it_cannot_run_and_says_which_argument(argv, said, capsys):
    import argparse

    from api.simulate import add_parser, simulate

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert simulate(parser.parse_args(["simulate", *argv, "--matches", "1"])) == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["serve", "--port", "70000"], "70000 is not in 1..65535"),  # it listened on 4464
    (["serve", "--threads", "0"], "0 is less than 1"),  # a server that never answered
    (["serve", "--processes", "0"], "0 is less than 1"),
    (["serve", "--port", "http"], "'http' is not a whole number"),
])
def test_serve_refuses_a_port_or_a_count_it_cannot_serve_with(argv, said, capsys):
    from api.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2 and said in capsys.readouterr().err


def test_the_store_commands_fail_in_one_line_naming_what_failed(tmp_path, monkeypatch, capsys):
    """A wrong path or port was a traceback ("couldn't get a connection after 2.00 sec", naming neither
    host nor database), and a rebuild of a mistyped SQLite path made an empty store and said it had
    rebuilt it from 0 events (a probe of the command line)."""
    import socket

    from api.cli import main, serve_processes

    def refused(argv) -> str:
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 1
        out, err = capsys.readouterr()
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "Motley on" not in out, err
        return err

    missing = tmp_path / "typo" / "motley.sqlite"
    # serve under gunicorn sets MOTLEY_CREATE_TABLES=n for its workers, in this process: put back after the
    # test (the web tests' servers, started later by this process, inherited it and had no tables).
    monkeypatch.setenv("MOTLEY_CREATE_TABLES", "y")
    monkeypatch.setenv("MOTLEY_SQLITE_PATH", str(missing))
    assert f"motley rebuild: no event store at {missing}" in refused(["rebuild", "matches"])
    assert not missing.parent.exists()  # nothing made
    empty = tmp_path / "empty.sqlite"  # SQLite takes an empty file for a new database: no store either
    empty.touch()
    monkeypatch.setenv("MOTLEY_SQLITE_PATH", str(empty))
    assert f"motley rebuild: no event store at {empty}" in refused(["rebuild", "matches"])
    assert empty.stat().st_size == 0

    monkeypatch.setenv("MOTLEY_SQLITE_PATH", str(tmp_path / "motley.sqlite"))
    with socket.socket() as taken:  # a port in use: said in one line, before "Motley on ..." is printed
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for server in ("waitress", "gunicorn"):  # gunicorn said "Motley on ..." and then failed to bind
            assert refused(["serve", "--server", server, "--port", str(port), "--port-wait", "0"]).startswith(
                f"motley serve: cannot listen on 127.0.0.1:{port}: "), server
        # With PostgreSQL away too, the port is named at once: serve waited for the store for ever first.
        with monkeypatch.context() as away:
            away.setenv("MOTLEY_STORE", "postgres")
            away.setenv("MOTLEY_POSTGRES_PORT", "1")
            for server in ("waitress", "gunicorn"):
                assert refused(["serve", "--server", server, "--port", str(port), "--port-wait", "0"]).startswith(
                    f"motley serve: cannot listen on 127.0.0.1:{port}: "), server

    monkeypatch.setenv("MOTLEY_STORE", "postgres")
    monkeypatch.setenv("MOTLEY_POSTGRES_PORT", "1")
    monkeypatch.setenv("MOTLEY_POSTGRES_POOL_TIMEOUT", "1")
    assert "(PostgreSQL at 127.0.0.1:1, database" in refused(["migrate"])

    monkeypatch.setenv("MOTLEY_STORE", "sqlite")
    args = type("Args", (), {"processes": 2})()
    assert serve_processes(args, Settings.from_env()) == 2
    assert "several API processes need the PostgreSQL store" in capsys.readouterr().err  # not on stdout


def test_verify_says_a_cancelled_matchs_seed_is_never_revealed(sqlite_motley, tmp_path, capsys):
    """As GET /matches/{id}/verify says it: it said "not revealed yet (it is when the match ends)" of a
    match that had ended, cancelled."""
    client = ApiClient(create_app(sqlite_motley))
    _, key = client.register("ann")
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=key).body["id"]
    assert client.post(f"/matches/{match_id}/cancel", key=key).status == 200
    export = tmp_path / "cancelled.jsonl"
    export.write_bytes(client.http.get(f"/matches/{match_id}/export").data)
    assert verify_file(str(export)) == 1
    assert "cancelled before it ended: its chance seed is never revealed" in capsys.readouterr().out


def test_a_ctrl_c_while_a_command_starts_is_one_line(monkeypatch, capsys):
    """A command-line probe: Ctrl-C while `motley simulate` was still starting (its imports, a few seconds on
    a loaded machine) printed a KeyboardInterrupt's traceback; its run's own handling began only later."""
    import api.simulate
    from api.cli import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(api.simulate, "plan", interrupted)  # the Ctrl-C lands before the matches begin
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "jest", "--players", "3", "--seats", "random"])
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "motley: interrupted\n"


def test_simulate_refuses_a_plot_it_cannot_write_before_it_plays(tmp_path, capsys):
    import argparse

    from api.simulate import add_parser, simulate

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    (tmp_path / "figures").mkdir()
    for plot, said in ((tmp_path / "missing" / "figures.png", "--plot: no folder"),
                       (tmp_path / "figures", "is a folder"),  # matplotlib wrote figures.png beside it
                       (tmp_path / "figures.txt", "name a file ending in one of"),  # a traceback at the end
                       # A file system that makes no files (root's permissions notwithstanding): the same.
                       (Path("/proc/motley-figures.png"), "cannot write /proc/motley-figures.png"),
                       # Listed by matplotlib, written with LaTeX: a traceback after every match without it.
                       *([(tmp_path / "figures.pgf", "cannot write .pgf")] if shutil.which("xelatex") is None else [])):
        argv = ["simulate", "jest", "--players", "3", "--seats", "random", "--matches", "2000", "--plot", str(plot)]
        assert simulate(parser.parse_args(argv)) == 2  # at once: the matches were played first
        assert said in capsys.readouterr().err


def test_serve_waits_for_a_port_a_killed_servers_workers_still_hold():
    """After the gunicorn master was killed (kill -9), its workers held the port for their graceful
    timeout, and a restart gave up at once: "cannot listen" (a durability probe). serve waits for it
    (--port-wait), and names it once the wait is over."""
    import socket
    import threading
    import time

    from api.cli import check_listening

    held = socket.create_server(("127.0.0.1", 0))
    port = held.getsockname()[1]
    threading.Timer(0.8, held.close).start()  # the old workers exit
    started = time.monotonic()
    check_listening("127.0.0.1", port, wait=10)
    assert 0.7 < time.monotonic() - started < 5
    with socket.create_server(("127.0.0.1", 0)) as still:
        started = time.monotonic()
        with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{still.getsockname()[1]}"):
            check_listening("127.0.0.1", still.getsockname()[1], wait=0.5)
        assert time.monotonic() - started >= 0.5


def test_the_auditor_follows_more_matches_at_once_than_a_players_cap(tmp_path):
    """An auditor's probe followed many live matches at once: its credential was held to a player's four
    streams (it counted as a keyless client of its address) and refused 1,905 times. It is the operator's
    one credential: only its address's share of the stream threads holds it."""
    import requests

    from api.rates import MAX_HELD_PER_CLIENT
    from tests.platform.test_audit import AUDITOR

    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "a.sqlite"), auditor_key=AUDITOR))
    try:
        with streams_served(container) as (base, open_stream):
            key = requests.post(f"{base}/players", json={"name": "ann"}).json()["api_key"]
            match_id = requests.post(f"{base}/matches", json={"game": "jest", "seats": 3},
                                     headers={"Authorization": f"Bearer {key}"}).json()["id"]
            for _ in range(MAX_HELD_PER_CLIENT + 2):
                response = open_stream(f"/matches/{match_id}/events/stream", AUDITOR)
                assert response.status_code == 200, response.text
            for _ in range(MAX_HELD_PER_CLIENT):  # a player's cap is as it was
                assert open_stream("/players/me/stream", key).status_code == 200
            refused = requests.get(f"{base}/players/me/stream", params={"seconds": 5},
                                   headers={"Authorization": f"Bearer {key}"}, timeout=10)
            assert refused.status_code == 429 and "per player" in refused.json()["detail"]
    finally:
        container.close()


def test_liveness_answers_while_the_events_table_is_locked_exclusively():
    """A faults probe held an ACCESS EXCLUSIVE lock on the events table (as an ALTER TABLE or a VACUUM FULL
    takes) for 15 s: ``/health`` answered after 14.1 s, and a liveness probe with a 1 s timeout would have
    restarted every API process. It waits at most its 0.5 s for the lock, and says no position."""
    import threading

    with api_in_a_schema_of_its_own() as (schema, client):
        assert client.get("/health").body["position"] is not None
        locker = psycopg.connect(**PG)  # in a transaction: the lock holds until it ends
        locker.execute(f'LOCK TABLE "{schema}"."motley_events" IN ACCESS EXCLUSIVE MODE')

        def end_the_lock():  # unfixed, /health waited for the lock: it ends it after 8 s
            with psycopg.connect(**PG, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", (locker.info.backend_pid,))

        release = threading.Timer(8.0, end_the_lock)
        release.start()
        try:
            health = client.get("/health")
        finally:
            release.cancel()
            with contextlib.suppress(psycopg.Error):
                locker.rollback()
            locker.close()
        assert health.status == 200 and health.body["position"] is None, health.text
        assert client.get("/health").body["position"] is not None  # the lock gone
