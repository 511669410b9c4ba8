"""Faults (issue 12): a PostgreSQL restart under load, on a private cluster this test starts and stops
(the machine's own PostgreSQL serves the other tests), and a broker that cannot be reached.

What must hold: during the outage every answer is a 2xx or a 503 problem with ``Retry-After``, each
within 5 s; ``/health`` stays 200 and ``/ready`` names the database; the service recovers by itself
within a couple of seconds of the database's return; no acknowledged write is lost.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
import waitress

from api import create_app
from infrastructure.composition import build
from infrastructure.settings import Settings
from infrastructure.task_queues import CeleryTaskQueue

PG_BIN = Path("/usr/lib/postgresql") / (sorted(os.listdir("/usr/lib/postgresql"))[-1] if os.path.isdir(
    "/usr/lib/postgresql") else "none") / "bin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_in_background(server: Any) -> threading.Thread:
    """Run a waitress server on a daemon thread. The test stops it with ``server.close()``, which
    closes its sockets under the loop's ``select``: the loop then ends on EBADF (or a negative file
    descriptor), the expected way out, not an error of the server."""

    def run() -> None:
        try:
            server.run()
        except ValueError:
            pass
        except OSError as error:
            if error.errno != errno.EBADF:
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def stop_serving(server: Any, timeout: float = 20.0) -> None:
    """Stop a server started by ``run_in_background`` once its request threads are done: a stream still
    running when the test closed its container read from a SQLite connection being closed under it, and
    the test process died of a segmentation fault. The caller closes its streams first; the loop, still
    running, tells each one its client left (api/context.client_gone: a server from api/server.make_server
    reads connections while their requests run), and it ends within a wait."""
    dispatcher = server.task_dispatcher
    dispatcher.shutdown(cancel_pending=True, timeout=timeout)
    running = [*dispatcher.threads, *getattr(getattr(dispatcher, "long_lived", None), "threads", ())]
    assert not running, "a request thread is still running"
    server.close()


def as_postgres(*command: str) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster of this test's own, in a temporary folder, on a free port."""

    folder: str
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> str:
        return os.path.join(self.folder, "data")

    def create(self) -> None:
        as_postgres(str(PG_BIN / "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres")
        self.start()

    def start(self) -> None:
        as_postgres(str(PG_BIN / "pg_ctl"), "-D", self.data, "-w", "-l", os.path.join(self.folder, "log"),
                    "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        as_postgres(str(PG_BIN / "pg_ctl"), "-D", self.data, "-w", "-m", "immediate", "stop")


@pytest.fixture(scope="module")
def private_postgres():
    folder = tempfile.mkdtemp(prefix="motley-pg-")
    shutil.chown(folder, "postgres") if os.geteuid() == 0 else None
    cluster = PrivatePostgres(folder)
    cluster.create()
    yield cluster
    try:
        cluster.stop()
    except subprocess.CalledProcessError:
        pass
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def served(private_postgres, request):
    """The API on the private cluster, served by waitress (4 request threads) in this process."""
    settings = Settings(store="postgres", postgres_host="127.0.0.1", postgres_port=str(private_postgres.port),
                        postgres_dbname="postgres", postgres_user="postgres",
                        postgres_schema=f"s{time.monotonic_ns()}", postgres_pool_size=3,
                        rate_limits="register=100000/minute,moves=100000/minute,create=100000/minute",
                        **getattr(request, "param", {}))
    subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(private_postgres.port), "-U", "postgres", "-qc",
                    f'CREATE SCHEMA "{settings.postgres_schema}"'], check=True)
    container = build(settings)
    port = free_port()
    server = waitress.create_server(create_app(container), host="127.0.0.1", port=port, threads=4)
    run_in_background(server)
    yield f"http://127.0.0.1:{port}", container
    server.close()
    container.close()


def call(method: str, url: str, **kwargs):
    started = time.monotonic()
    answer = requests.request(method, url, timeout=30, **kwargs)
    return answer, time.monotonic() - started


@pytest.mark.slow  # one of the longest platform tests: the full tier runs it
def test_a_database_restart_under_load_answers_2xx_or_fast_503_and_recovers(private_postgres, served):
    base, _ = served
    key = requests.post(f"{base}/players", json={"name": "ann"}).json()["api_key"]
    auth = {"Authorization": f"Bearer {key}"}
    match_id = requests.post(f"{base}/matches", json={"game": "jest", "seats": 3}, headers=auth).json()["id"]
    answers: list[tuple[str, int, float, dict]] = []
    registered: list[str] = []
    stop = threading.Event()
    timeline: list = []

    def load(kind: str) -> None:
        while not stop.is_set():
            if kind == "write":
                answer, took = call("POST", f"{base}/players", json={"name": "load"})
                if answer.status_code == 201:
                    registered.append(answer.json()["id"])
            elif kind == "read":
                answer, took = call("GET", f"{base}/matches/{match_id}", headers=auth)
            else:
                answer, took = call("GET", f"{base}/games")
            answers.append((kind, answer.status_code, took, dict(answer.headers)))
            timeline.append((time.monotonic() - took, kind, answer.status_code, took))
            time.sleep(0.02)

    threads = [threading.Thread(target=load, args=(kind,)) for kind in ("write", "write", "read", "read", "games")]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    stopped_at = time.monotonic()
    private_postgres.stop()
    time.sleep(1.0)
    during = len(answers)
    health, _ = call("GET", f"{base}/health")
    ready, ready_took = call("GET", f"{base}/ready")
    time.sleep(3.0)
    outage_answers = answers[during:]
    private_postgres.start()
    started_back = time.monotonic()
    # The database's return: when it accepts a connection again (pg_ctl may return before it does,
    # and a loaded machine takes longer to start it); the service's recovery is counted from there.
    while time.monotonic() - started_back < 10:
        probe = subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(private_postgres.port)])
        if probe.returncode == 0:
            break
        time.sleep(0.02)
    back = time.monotonic()
    recovered_after = None
    while time.monotonic() - back < 10:
        answer, _ = call("GET", f"{base}/matches/{match_id}", headers=auth)
        if answer.status_code == 200:
            recovered_after = time.monotonic() - back
            break
        time.sleep(0.05)
    time.sleep(1.0)
    stop.set()
    for thread in threads:
        thread.join()

    for started, kind, status, took in sorted(timeline, key=lambda t: -t[3])[:8]:
        print(f"{started - stopped_at:+.2f} {kind} {status} {took:.2f}")
    statuses = {status for _, status, _, _ in answers}
    assert statuses <= {200, 201, 503}, statuses
    assert max(took for _, _, took, _ in answers) < 5.0
    refused = [a for a in answers if a[1] == 503]
    assert refused and all(int(headers["Retry-After"]) >= 1 for _, _, _, headers in refused)
    assert all(h["Content-Type"] == "application/problem+json" for _, _, _, h in refused)
    assert {kind for kind, status, _, _ in outage_answers if status == 503} == {"write", "read"}
    assert all(status == 200 for kind, status, _, _ in outage_answers if kind == "games")  # no thread held
    assert health.status_code == 200 and health.json()["position"] is None
    assert ready.status_code == 503 and ready.json()["dependencies"]["database"] != "ok" and ready_took < 5
    # "Within a second or two of the database's return": 0.1-1.1 s on an idle machine, 2.25 s once
    # on CI with the other half of the suite running beside it.
    assert recovered_after is not None and recovered_after < 3.0, recovered_after
    assert call("GET", f"{base}/ready")[0].status_code == 200
    for player_id in registered:  # every acknowledged registration was kept
        assert requests.get(f"{base}/players/{player_id}").status_code == 200
    print(f"outage: {len(outage_answers)} answers, {len(refused)} 503s, slowest "
          f"{max(t for _, _, t, _ in answers):.2f} s; recovered {recovered_after:.2f} s after the database "
          f"accepted connections again ({back - started_back:.2f} s after its start)")


class TcpProxy:
    """A throwaway TCP proxy in front of the broker, which the test can cut and restore: cut, it
    closes every connection and refuses new ones, as a stopped broker does."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.port = free_port()
        self.listener: socket.socket | None = None
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        with self.lock:
            if self.listener is not None:
                try:  # wakes the accepting thread (a plain close leaves the socket listening on Linux)
                    self.listener.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                self.listener.close()
                self.listener = None
            for connection in self.connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                connection.close()
            self.connections.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.connections += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        """Copies one direction; when either side closes, closes both, as a broken connection does.

        Both ends are shut down before they are closed: a plain close() leaves a socket open while the
        other direction's thread is still blocked in recv() on it, so a connection its client had
        closed stayed open at the broker, holding the worker's exclusive pidbox queue, and the worker's
        reconnections failed with RESOURCE_LOCKED until the broker's heartbeat timed it out."""
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()


@pytest.fixture
def proxied_broker(worker_env):
    """The API's tasks go through a proxy to the broker that the real worker consumes directly."""
    from tests.conftest import BROKER

    host_port = BROKER.split("@", 1)[1].split("/", 1)[0]
    host, port = host_port.split(":")
    proxy = TcpProxy((host, int(port)))
    proxy.start()
    yield proxy, BROKER.replace(host_port, f"127.0.0.1:{proxy.port}")
    proxy.stop()


def move_once_in_each(client, views, keys, rng) -> list:
    """One random legal move for a seat to act in each active match of ``views``: (answer, seconds)."""
    made = []
    for view in views:
        turn = view["to_act"]
        if view["status"] != "active" or turn["kind"] != "players":
            continue
        seat = rng.choice(turn["seats"])
        mine = client.get(f"/matches/{view['id']}", key=keys[seat]).body
        if mine["legal_actions"]:
            started = time.monotonic()
            answer = client.post(f"/matches/{view['id']}/moves", {"action": rng.choice(mine["legal_actions"])},
                                 key=keys[seat])
            made.append((answer, time.monotonic() - started))
    return made


def assert_each_scored_once(client, match_ids, timeout: float, why: str) -> None:
    """Every match finishes (the worker scored it) within ``timeout`` seconds, with one final scoring."""
    for match_id in match_ids:
        deadline = time.monotonic() + timeout
        while client.get(f"/matches/{match_id}").body["status"] != "finished":
            assert time.monotonic() < deadline, why
            time.sleep(0.1)
        events = client.get(f"/matches/{match_id}/events").body["items"]
        assert [e["step"]["type"] for e in events if e["type"] == "StepResolved"].count("final-scoring") == 1


@pytest.mark.slow  # one of the longest platform tests: the full tier runs it
def test_a_broker_outage_loses_no_task_and_saved_writes_succeed(worker_env, proxied_broker, seed):
    import random

    from tests.platform.client import ApiClient

    settings, _ = worker_env
    proxy, url = proxied_broker
    queue = CeleryTaskQueue(url, settings.queue)
    container = build(Settings(**{**settings.__dict__, "create_tables": False, "broker_url": url}), tasks=queue)
    try:
        client = ApiClient(create_app(container))
        keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
        match_ids = [client.new_match("jest", 3, keys) for _ in range(2)]
        rng = random.Random(f"{seed}-broker")
        cut, slowest, moves, kept = False, 0.0, 0, 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            views = [client.get(f"/matches/{m}", key=keys[0]).body for m in match_ids]
            if all(v["status"] == "finished" for v in views):
                break
            moves += 1
            if moves == 20:
                proxy.stop()  # the broker is away for the API from here ...
                cut = True
            if moves == 80 and cut:
                proxy.start()  # ... and back
            for answer, took in move_once_in_each(client, views, keys, rng):
                slowest = max(slowest, took)
                kept = max(kept, queue.waiting)
                assert answer.status in (201, 409), answer.text  # saved: a success, broker or not
            time.sleep(0.02)
        if not cut or moves < 80:
            proxy.start()
        assert_each_scored_once(client, match_ids, 60, "a match was never scored: a task was lost")
        assert cut and kept > 0 and slowest < 2.0, (kept, slowest)
        assert queue.waiting == 0
        print(f"broker outage: {moves} rounds of moves, up to {kept} tasks kept, slowest answer {slowest:.2f} s, "
              "outbox empty, every match scored once")
    finally:
        container.close()


@pytest.mark.slow  # a worker process of its own and a whole outage
def test_the_worker_recovers_by_itself_when_the_broker_comes_back(tmp_path, seed):
    """The broker goes away for everybody (the API and the worker reach it through one proxy, cut and
    restored), under moves: the worker reconnects by itself, and every finished match is scored once."""
    import random
    import uuid

    from tests.conftest import BROKER, create_schema, drop_schema, pg_settings, start_worker, stop_worker
    from tests.platform.client import ApiClient

    host_port = BROKER.split("@", 1)[1].split("/", 1)[0]
    host, port = host_port.split(":")
    proxy = TcpProxy((host, int(port)))
    proxy.start()
    url = BROKER.replace(host_port, f"127.0.0.1:{proxy.port}")
    schema, queue_name = f"b_{uuid.uuid4().hex[:12]}", f"motley-outage-{uuid.uuid4().hex[:8]}"
    create_schema(schema)
    settings = pg_settings(schema, tasks="celery", broker_url=url, queue=queue_name)
    queue = CeleryTaskQueue(url, queue_name)
    container = build(settings, tasks=queue)
    log = tmp_path / "worker.log"
    worker = start_worker(schema, queue_name, url, log)
    try:
        client = ApiClient(create_app(container))
        keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
        match_ids = [client.new_match("jest", 3, keys) for _ in range(3)]
        rng = random.Random(f"{seed}-restart")
        rounds, cut, restored = 0, False, False
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            views = [client.get(f"/matches/{m}", key=keys[0]).body for m in match_ids]
            if all(v["status"] == "finished" for v in views):
                break
            rounds += 1
            if rounds == 15:
                proxy.stop()  # the broker is gone for the API and the worker alike ...
                cut = True
            if rounds == 60:
                proxy.start()  # ... and back: nobody restarts the worker
                restored = True
            for answer, _ in move_once_in_each(client, views, keys, rng):
                assert answer.status in (201, 409), answer.text
            time.sleep(0.02)
        if not restored:
            proxy.start()
        assert cut, "the matches ended before the outage"
        # Scored by the same worker process, after it reconnected.
        try:
            assert_each_scored_once(client, match_ids, 90, "a match was never scored: the worker did not recover")
        except AssertionError as failure:  # what the worker said is what tells why
            raise AssertionError(f"{failure}\nthe worker's log ends:\n{log.read_text()[-6000:]}") from failure
        assert worker.poll() is None, "the worker exited"
        assert queue.waiting == 0
    finally:
        container.close()
        stop_worker(worker)
        proxy.stop()
        drop_schema(schema)
