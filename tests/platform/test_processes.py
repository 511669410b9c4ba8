"""Several API processes (issue 16): gunicorn workers, each with its own application built after the fork,
on one fresh PostgreSQL schema, serialise racing moves on one match exactly as one process does.

Bursts of concurrent moves on ONE Jest match are sent through new connections (so the kernel spreads
them over the workers): each seat sends several of its legal actions at once, one of them twice with
the same Idempotency-Key. Then, against the auditor's full event list: every acknowledged move is in
it exactly once, the versions are contiguous, no two first answers (201, not replayed) name the same
version, and every refusal is a 409 or 422 problem document. The same run against 1 process is the
reference. The JSON access log (one line per request, with its pid) shows both workers took moves, and
/metrics, scraped from any worker, counts the moves of all of them.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

import pytest
import requests

from application.log_watcher import RECHECK_SECONDS
from application.ports import NoTaskQueue
from infrastructure.composition import build
from tests.conftest import PG, ROOT, create_schema, drop_schema, pg_settings
from tests.platform.test_server import assert_left_streams_give_their_slots_back

AUDITOR = "auditor-of-the-race"
NO_LIMITS = "register=100000/minute,create=100000/minute,moves=1000000/minute,auth_failures=100000/minute"
MOVES_ROUTE = "/matches/<match_id>/moves"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served(request, tmp_path):
    """``motley serve --server gunicorn --processes N`` on a fresh schema whose tables exist already."""
    processes, stream_threads = request.param if isinstance(request.param, tuple) else (request.param, None)
    schema = f"p_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    build(pg_settings(schema), tasks=NoTaskQueue()).close()  # the tables, once (as `motley migrate`)
    port = free_port()
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST=PG["host"],
               MOTLEY_POSTGRES_DBNAME=PG["dbname"], MOTLEY_POSTGRES_USER=PG["user"],
               MOTLEY_POSTGRES_SCHEMA=schema, MOTLEY_POSTGRES_POOL_SIZE="3",
               MOTLEY_CREATE_TABLES="n", MOTLEY_TASKS="inprocess", MOTLEY_AUDITOR_KEY=AUDITOR,
               MOTLEY_RATE_LIMITS=NO_LIMITS, PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
               PYTHONPATH=str(ROOT))
    if stream_threads is not None:
        env["MOTLEY_STREAM_THREADS"] = str(stream_threads)
    log = tmp_path / "server.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--server", "gunicorn", "--processes", str(processes),
         "--threads", "8", "--port", str(port)],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                if requests.get(base + "/health", timeout=2).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):  # booting workers on a loaded machine
                time.sleep(0.2)
        else:
            raise AssertionError(f"the server did not answer in 60 s: {log.read_text()}")
        time.sleep(1.0)  # every worker booted
        yield processes, base, log
    finally:
        stop(process)
        drop_schema(schema)


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if it has not ended in 20 s."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def call(base: str, method: str, path: str, key=None, body=None, headers=None) -> requests.Response:
    sent = {"Connection": "close", **(headers or {})}  # a new connection each: any worker may take it
    if key:
        sent["Authorization"] = f"Bearer {key}"
    return requests.request(method, base + path, json=body, headers=sent, timeout=30)


def all_events(base: str, match_id: str) -> list[dict]:
    events: list[dict] = []
    while True:
        page = call(base, "GET", f"/matches/{match_id}/events?after={len(events)}&limit=5000", AUDITOR).json()
        events.extend(page["items"])
        if not page["more"]:
            return events


@pytest.mark.slow
@pytest.mark.parametrize("served", [1, 2], indirect=True, ids=["1-process", "2-processes"])
def test_racing_moves_on_one_match_serialise_across_processes(served, seed):
    processes, base, log = served
    rng = random.Random(seed)
    keys = [call(base, "POST", "/players", body={"name": f"racer{i}"}).json()["api_key"] for i in range(3)]
    match_id = call(base, "POST", "/matches", keys[0], {"game": "jest", "seats": 3}).json()["id"]
    for key in keys:
        assert call(base, "POST", f"/matches/{match_id}/seats", key, {}).status_code == 201
    assert call(base, "POST", f"/matches/{match_id}/start", keys[0]).status_code == 200

    answers: list[tuple[str, requests.Response]] = []  # (idempotency key, answer)
    pool = ThreadPoolExecutor(max_workers=12)
    bursts = 0
    deadline = time.monotonic() + 90
    while bursts < 40 and time.monotonic() < deadline:
        views = [call(base, "GET", f"/matches/{match_id}", key).json() for key in keys]
        if views[0]["status"] == "finished":
            break
        sends = []
        for seat, view in enumerate(views):
            for action in rng.sample(view["legal_actions"], min(3, len(view["legal_actions"]))):
                sends.append((seat, action, uuid.uuid4().hex))
        if not sends:  # a step the worker resolves
            time.sleep(0.05)
            continue
        sends.append(sends[0])  # the same move with the same key, twice at once: applied once
        rng.shuffle(sends)
        futures = [(request_key, pool.submit(call, base, "POST", f"/matches/{match_id}/moves", keys[seat],
                                             {"action": action}, {"Idempotency-Key": request_key}))
                   for seat, action, request_key in sends]
        answers.extend((request_key, future.result()) for request_key, future in futures)
        bursts += 1
    pool.shutdown()
    assert bursts >= 10, bursts

    first = [(k, a) for k, a in answers if a.status_code == 201 and "Idempotent-Replayed" not in a.headers]
    replayed = [(k, a) for k, a in answers if a.status_code == 201 and "Idempotent-Replayed" in a.headers]
    refused = [a for _, a in answers if a.status_code != 201]
    for answer in refused:
        assert answer.status_code in (409, 422), (answer.status_code, answer.text)
        assert answer.headers["Content-Type"].startswith("application/problem+json"), answer.headers
        problem = answer.json()
        assert problem["status"] == answer.status_code and problem["type"].startswith("urn:motley:problem:")
    assert refused, "no race happened: every move was accepted"
    assert len(first) >= 15 and replayed, (len(first), len(replayed))
    versions = [a.json()["version"] for _, a in first]
    assert len(versions) == len(set(versions)), "two first answers name the same version"

    events = all_events(base, match_id)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))  # contiguous, no gap, no repeat
    moved_by_key: dict[str, list[dict]] = {}
    for event in events:
        if event["type"] == "MoveMade" and event.get("request_key"):
            # Stored as "<player id>:<key>": a key is the player's own, not global.
            moved_by_key.setdefault(event["request_key"].rsplit(":", 1)[-1], []).append(event)
    acknowledged = {k for k, _ in first} | {k for k, _ in replayed}
    for request_key, answer in first + replayed:
        made = moved_by_key.get(request_key, [])
        assert len(made) == 1, (request_key, made)  # every acknowledged move is stored exactly once
        assert made[0]["version"] <= answer.json()["version"]
    assert set(moved_by_key) == acknowledged  # and nothing refused was stored
    assert len(first) == len(acknowledged)  # a replay is the answer to a move acknowledged once

    # The metrics of every worker, summed by whichever worker is scraped (prometheus multiprocess mode).
    for _ in range(3):
        scraped = call(base, "GET", "/metrics").text
        assert f"motley_moves_total {float(len(first))}" in scraped.splitlines(), scraped[:2000]

    lines = [json.loads(line) for line in Path(log).read_text().splitlines() if line.startswith("{")]
    movers = {line["pid"] for line in lines if line.get("route") == MOVES_ROUTE}
    assert len(movers) == processes, movers  # each worker took some of the moves
    assert all(line.get("request_id") for line in lines if line.get("logger") == "motley.access")


@pytest.mark.parametrize("served", [1], indirect=True, ids=["1-process"])
def test_under_gunicorn_a_stream_its_client_left_gives_its_slot_and_thread_back(served):
    """As under waitress (tests/platform/test_server.py): the stream peeks at its socket after each wait,
    so a client that closed it frees its held-request slot and its gunicorn thread within one wait."""
    _, base, _ = served
    key = call(base, "POST", "/players", body={"name": "ann"}).json()["api_key"]
    match_id = call(base, "POST", "/matches", key, {"game": "jest", "seats": 3}).json()["id"]
    assert_left_streams_give_their_slots_back(base, match_id)


@pytest.mark.parametrize("served", [(1, 2)], indirect=True, ids=["1-process-2-stream-threads"])
def test_under_gunicorn_streams_take_only_their_own_threads_and_past_them_are_a_503(served):
    """Under gunicorn a stream holds one of the process's threads: 16 streams from four clients (each
    within its cap of 4) took all 8, and every other request, moves included, hung. Each process now
    has its request threads plus MOTLEY_STREAM_THREADS for streams, and a stream past those is a 503."""
    _, base, _ = served
    key = call(base, "POST", "/players", body={"name": "ann"}).json()["api_key"]
    match_id = call(base, "POST", "/matches", key, {"game": "jest", "seats": 3}).json()["id"]
    stream = f"{base}/matches/{match_id}/stream"
    opened = [requests.get(stream, params={"seconds": 60}, stream=True, timeout=15) for _ in range(2)]
    assert [r.status_code for r in opened] == [200, 200]
    started = time.monotonic()
    refused = requests.get(stream, params={"seconds": 1}, timeout=5)
    assert refused.status_code == 503 and refused.headers["Content-Type"] == "application/problem+json"
    assert int(refused.headers["Retry-After"]) >= 1
    for _ in range(12):  # more than the 8 request threads: none is held by the streams
        assert call(base, "GET", "/games").status_code == 200
    assert time.monotonic() - started < 10
    opened[0].close()
    left = time.monotonic()
    while requests.get(stream, params={"seconds": 1}, timeout=5).status_code == 503:
        assert time.monotonic() - left < RECHECK_SECONDS + 3, "a stream its client left still holds its thread"
        time.sleep(0.2)
    opened[1].close()


def booted_workers(log) -> list[int]:
    """The pids of the workers gunicorn booted so far, from its JSON log."""
    return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", Path(log).read_text())]


@pytest.mark.parametrize("served", [1], indirect=True, ids=["1-process"])
def test_a_worker_told_to_stop_ends_its_streams_within_the_drain_and_is_replaced(served):
    """SIGTERM to one gunicorn worker (an operator's kill, a reload's old workers): its open stream went
    on past the 10 s drain until the 60 s worker timeout killed the process mid-answer, and no worker
    replaced it meanwhile. The stream now ends whole (its closing chunk: the client reconnects with
    Last-Event-ID), the worker exits within the drain, and a new one answers."""
    _, base, log = served
    key = call(base, "POST", "/players", body={"name": "ann"}).json()["api_key"]
    match_id = call(base, "POST", "/matches", key, {"game": "jest", "seats": 3}).json()["id"]
    stream = requests.get(f"{base}/matches/{match_id}/stream", params={"seconds": 120}, stream=True, timeout=30)
    assert stream.status_code == 200
    chunks = stream.iter_content(None)
    next(chunks)  # the stream is open, held by the one worker
    [worker] = booted_workers(log)
    told = time.monotonic()
    os.kill(worker, signal.SIGTERM)
    for _ in chunks:  # raises ChunkedEncodingError if the answer is cut off
        pass
    assert time.monotonic() - told < RECHECK_SECONDS + 3
    while os.path.exists(f"/proc/{worker}") and "zombie" not in Path(f"/proc/{worker}/status").read_text():
        assert time.monotonic() - told < 10, "the worker outlived the drain"
        time.sleep(0.2)
    while len(booted_workers(log)) < 2:
        assert time.monotonic() - told < 20, "no worker replaced the one that stopped"
        time.sleep(0.2)
    assert call(base, "GET", "/games").status_code == 200


def test_an_api_started_before_postgresql_waits_for_it_and_then_serves(tmp_path):
    """Started while PostgreSQL could not be reached (a reboot, a failover), each gunicorn worker failed
    to boot, and the master exited with it: the service never came back by itself. It now waits for
    the store, saying so in its log, and serves once the store answers."""
    from tests.platform.test_faults import TcpProxy

    schema = f"p_{uuid.uuid4().hex[:12]}"
    create_schema(schema)
    build(pg_settings(schema), tasks=NoTaskQueue()).close()
    database = TcpProxy((PG["host"], PG["port"]))  # not started: nothing answers on its port yet
    port = free_port()
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST="127.0.0.1",
               MOTLEY_POSTGRES_PORT=str(database.port), MOTLEY_POSTGRES_DBNAME=PG["dbname"],
               MOTLEY_POSTGRES_USER=PG["user"], MOTLEY_POSTGRES_SCHEMA=schema, MOTLEY_POSTGRES_POOL_SIZE="2",
               MOTLEY_CREATE_TABLES="n", MOTLEY_TASKS="inprocess",
               PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"), PYTHONPATH=str(ROOT))
    log = tmp_path / "server.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--server", "gunicorn", "--processes", "1", "--port", str(port)],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_log(process, log, "the event store cannot be reached")
        time.sleep(2)  # a few tries of the store
        assert process.poll() is None, log.read_text()
        database.start()
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            try:
                if requests.get(base + "/ready", timeout=2).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):  # a worker still booting on a loaded machine
                pass
            time.sleep(0.2)
        assert call(base, "POST", "/players", body={"name": "early"}).status_code == 201
    finally:
        stop(process)
        database.stop()
        drop_schema(schema)


@pytest.mark.parametrize("wrong", [{"postgres_dbname": "no_such_database"}, {"postgres_user": "no_such_role"}])
def test_settings_postgresql_refuses_stop_the_start_at_once(wrong):
    """Waiting is for a store that cannot be reached; a database or role that does not exist will not
    come by waiting: the start stops, saying why, as it did before processes waited for PostgreSQL."""
    from dataclasses import replace

    import psycopg

    from infrastructure.composition import build_when_reachable

    waits: list[float] = []
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        build_when_reachable(replace(pg_settings("public"), **wrong), sleep=waits.append, tasks=NoTaskQueue())
    assert waits == []


def wait_for_log(process: subprocess.Popen, log: Path, text: str, seconds: float = 60) -> None:
    """Until the server's log says ``text`` (it still running): importing the app and forking gunicorn's
    worker take seconds on a loaded machine, and a fixed 5 s found the log still empty under CI's load."""
    deadline = time.monotonic() + seconds
    while text not in log.read_text():
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)


def test_an_api_waiting_for_postgresql_stops_at_once_when_told(tmp_path):
    """A SIGTERM while a gunicorn worker waits for the store: the master waited its whole graceful timeout
    (10 s), then killed the worker. The wait now ends at its next pause."""
    from tests.platform.test_faults import TcpProxy

    unreachable = TcpProxy((PG["host"], PG["port"]))  # never started
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST="127.0.0.1",
               MOTLEY_POSTGRES_PORT=str(unreachable.port), MOTLEY_CREATE_TABLES="n", MOTLEY_TASKS="inprocess",
               PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"), PYTHONPATH=str(ROOT))
    log = tmp_path / "server.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--server", "gunicorn", "--processes", "1",
         "--port", str(free_port())], cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_for_log(process, log, "the event store cannot be reached")
        time.sleep(1)  # into its wait, past the first attempt
        assert process.poll() is None, log.read_text()
        process.terminate()
        process.wait(timeout=30)
        # Timed by the server's own log, from the master's signal to the worker's exit: the processes'
        # teardown after it took 4 s more on a CI machine running two suites at once.
        said = {entry["message"].partition(" (")[0]: datetime.fromisoformat(entry["time"])
                for entry in (json.loads(line) for line in log.read_text().splitlines() if line.startswith("{"))}
        took = (said["Worker exiting"] - said["Handling signal: term"]).total_seconds()
        assert took < 6, log.read_text()
    finally:
        stop(process)


def refused_start(env: dict, *command: str) -> list[str]:
    """``motley serve`` that must stop at once (rc 1): the lines it wrote to stderr."""
    done = subprocess.run([sys.executable, "-m", "api.cli", "serve", *command], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    return done.stderr.strip().splitlines()


@pytest.mark.parametrize("served", [1], indirect=True, ids=["1-process"])
def test_a_second_server_on_a_metrics_folder_in_use_is_refused_and_leaves_it_alone(served, tmp_path):
    """An operator probe: a second ``motley serve --processes N`` on the running one's metrics folder (a
    canary on another port, or a start that then failed) emptied it, and the running server's counters
    read 0 for good; a one-process server there added its counts to the other's. Both are refused now,
    in one line, and the folder and the running server's counts are as they were."""
    _, base, _ = served
    folder = tmp_path / "metrics"
    assert call(base, "POST", "/players", body={"name": "ann"}).status_code == 201
    kept = sorted(path.name for path in folder.glob("*.db"))
    assert kept
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST=PG["host"],
               MOTLEY_POSTGRES_DBNAME=PG["dbname"], MOTLEY_POSTGRES_USER=PG["user"], MOTLEY_CREATE_TABLES="n",
               PROMETHEUS_MULTIPROC_DIR=str(folder),
               PYTHONPATH=str(ROOT))
    said = (f"motley serve: PROMETHEUS_MULTIPROC_DIR {folder} is in use by another running Motley server: give each "
            "server a folder of its own (this one would empty it, and both servers' counts would be added together)")
    assert refused_start(env, "--server", "gunicorn", "--processes", "2", "--port", str(free_port())) == [said]
    assert refused_start(env, "--port", str(free_port())) == [said]
    assert sorted(path.name for path in folder.glob("*.db")) == kept
    scraped = call(base, "GET", "/metrics").text.splitlines()
    assert 'motley_http_requests_total{method="POST",route="/players",status="201"} 1.0' in scraped, scraped


def test_a_bad_rate_limit_stops_a_start_of_several_processes_before_it_binds_or_empties_anything(tmp_path):
    """An operator probe: with several processes a bad MOTLEY_RATE_LIMITS was each gunicorn worker's
    traceback (18 lines, rc 3), after the master had bound its port and emptied the metrics folder."""
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_1.db").write_bytes(b"")
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST=PG["host"],
               MOTLEY_POSTGRES_DBNAME=PG["dbname"], MOTLEY_POSTGRES_USER=PG["user"], MOTLEY_CREATE_TABLES="n",
               PROMETHEUS_MULTIPROC_DIR=str(folder),
               MOTLEY_RATE_LIMITS="moves=abc", PYTHONPATH=str(ROOT))
    lines = refused_start(env, "--server", "gunicorn", "--processes", "2", "--port", str(free_port()))
    assert len(lines) == 1 and lines[0].startswith("motley serve: MOTLEY_RATE_LIMITS: moves='abc'"), lines
    assert (folder / "counter_1.db").exists()


def test_the_one_process_server_stops_on_sigterm_closing_its_streams_and_saying_what_its_outbox_kept(tmp_path):
    """An operator probe: SIGTERM ended ``motley serve`` (waitress) at once, so the tasks it kept while the
    broker was away were dropped without the line its container's close says, and an open stream was cut
    mid-frame. It now ends the streams, stops waitress and closes the container, and exits 0."""
    port = free_port()
    env = dict(os.environ, MOTLEY_STORE="sqlite", MOTLEY_SQLITE_PATH=str(tmp_path / "m.sqlite"),
               MOTLEY_TASKS="celery", MOTLEY_BROKER_URL="amqp://guest:guest@127.0.0.1:1//",
               MOTLEY_QUEUE=f"motley-gone-{uuid.uuid4().hex[:8]}", MOTLEY_RATE_LIMITS=NO_LIMITS, PYTHONPATH=str(ROOT))
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log = tmp_path / "server.log"
    process = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_for_log(process, log, "Motley on")
        base = f"http://127.0.0.1:{port}"
        key = call(base, "POST", "/players", body={"name": "ann"}).json()["api_key"]
        match_id = call(base, "POST", "/matches", key, {"game": "jest", "seats": 3}).json()["id"]
        stream = requests.get(f"{base}/matches/{match_id}/events/stream", stream=True, timeout=30)
        assert stream.status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, log.read_text()
        assert b"".join(stream.iter_content(None)).count(b"event: Created") == 1  # ended, not cut
    finally:
        if process.poll() is None:
            process.kill()
    assert "task(s) never sent (the broker was away)" in log.read_text(), log.read_text()


def test_a_metrics_folder_setting_that_cannot_hold_them_is_named_and_an_empty_one_is_unset(tmp_path):
    """A probe: PROMETHEUS_MULTIPROC_DIR naming a file said "[Errno 17] File exists", naming no setting;
    set but empty, prometheus_client wrote its files into the folder the server started in (unclaimed,
    left there). The first is one line naming it; the second is as if unset."""
    afile = tmp_path / "not-a-folder"
    afile.write_text("")
    env = dict(os.environ, MOTLEY_STORE="sqlite", MOTLEY_SQLITE_PATH=str(tmp_path / "m.sqlite"),
               MOTLEY_TASKS="inprocess", PYTHONPATH=str(ROOT), PROMETHEUS_MULTIPROC_DIR=str(afile))
    said = refused_start(env, "--port", str(free_port()))
    assert said == [f"motley serve: PROMETHEUS_MULTIPROC_DIR {afile} cannot hold the metrics: File exists"], said
    started_in = tmp_path / "cwd"
    started_in.mkdir()
    port = free_port()
    log = tmp_path / "server.log"
    process = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port)], cwd=started_in,
                               env={**env, "PROMETHEUS_MULTIPROC_DIR": ""}, stdout=log.open("wb"),
                               stderr=subprocess.STDOUT)
    try:
        wait_for_log(process, log, "Motley on")
        assert call(f"http://127.0.0.1:{port}", "POST", "/players", body={"name": "ann"}).status_code == 201
        assert "motley_moves_total" in call(f"http://127.0.0.1:{port}", "GET", "/metrics").text
    finally:
        stop(process)
    assert list(started_in.iterdir()) == [], list(started_in.iterdir())
