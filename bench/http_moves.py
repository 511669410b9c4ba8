"""Moves per second through the HTTP API on PostgreSQL, against the bare stack and the peer, in one run.

    python bench/http_moves.py [--seconds 20] [--clients 1 4 16] [--processes 1 2] [--peer] [--lag]

Under the same server settings (the WSGI server, its threads) it measures at K = 1, 4 and 16 clients:

* **bare**: a Flask endpoint doing one INSERT per request on PostgreSQL (bench/bare_flask.py);
* **motley**: moves through Motley's API on a fresh PostgreSQL schema, every move committed (and so
  durable: ``synchronous_commit`` and ``fsync`` are printed) before its 201; p50 and p99 of the move;
* with ``--processes 1 2``: the same under gunicorn with 1 and 2 API processes (the application built
  in each worker after the fork), and how moves/s grows;
* with ``--peer``: the boardgame.io server in memory and with its flat-file store (write queue off,
  the README's fair durable baseline), by ``../shared/peers/run.sh`` with one 10 s repeat (~2 min).

* with ``--lag`` (P3): Motley again, its K clients paced to half the peak moves/s measured above, while a
  monitor polls the finished matches of the match list and the Jest leaderboard every 50 ms: the lag
  from each match's last acknowledged move to its row in each (p50, p95, max).

It prints the ratios issue 16 names: motley/bare, motley/peer-flatfile, motley/peer-memory and p99/p50,
and where a move's server CPU goes by route (Motley's ``motley_http_request_cpu_seconds_total`` over
``motley_moves_total``, scraped from /metrics before and after each K).

The client plays as a real one does, shaped like the peer's driver: K lanes, each playing one 3-player
Jest match at a time (3 players registered once per lane; each match created, joined and started through
the API, that turnover counted in the window). Each player has its own keep-alive connection for its
moves and follows the match on its own stream (``GET /matches/{id}/stream``: its view, with its legal
actions, pushed whenever the version moves on). A player moves when the stream or its last move's answer
(the 201 carries the mover's new view) shows it legal actions at a version newer than any it has seen
(a push that its own move's answer overtook is ignored): no other reads. Each player connects from its
own loopback address (127.0.0.x), as distinct clients would, since the API holds at most 4 streams per
client address. A move counts when its 201 arrives inside the window; its latency is that POST's round
trip. Refusals (409/422, by problem type) are counted apart.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT.parent / "shared" / "peers"
PG = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres")
NO_LIMITS = "register=1000000/minute,auth_failures=1000000/minute,create=1000000/minute,moves=10000000/minute"
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- measuring ------------------------------------------------------------------------------------------
class Window:
    """The measuring window: [start + warmup, start + warmup + seconds]."""

    def __init__(self, warmup: float, seconds: float):
        self.opens = time.monotonic() + warmup
        self.closes = self.opens + seconds
        self.seconds = seconds
        self.stop = threading.Event()

    def inside(self, at: float) -> bool:
        return self.opens <= at <= self.closes


@dataclass
class Tally:
    latencies: list = field(default_factory=list)  # of acknowledged moves inside the window
    refused: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)
    matches: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    pacer: Optional[Pacer] = None  # the lag phase: moves at a set rate
    last_move: dict = field(default_factory=dict)  # match id -> when its latest move was acknowledged
    players: dict = field(default_factory=dict)  # match id -> its players' ids

    def moved(self, match_id: str, at: float) -> None:
        with self.lock:
            self.last_move[match_id] = max(at, self.last_move.get(match_id, 0.0))


class Pacer:
    """Moves at ``rate`` a second in all, whatever the number of clients: each waits for its slot."""

    def __init__(self, rate: float):
        self.interval = 1.0 / rate
        self.next = time.monotonic()
        self.lock = threading.Lock()

    def wait(self) -> None:
        with self.lock:
            now = time.monotonic()
            self.next = max(self.next + self.interval, now)
            slot = self.next
        time.sleep(max(0.0, slot - time.monotonic()))

    def refuse(self, status: int, problem: Any) -> None:
        kind = f"{status} {str((problem or {}).get('type', '')).rsplit(':', 1)[-1]}"
        with self.lock:
            self.refused[kind] = self.refused.get(kind, 0) + 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process and its children still running (gunicorn's workers)."""
    total = 0.0
    pids = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                pids.append(int(entry))
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def busy_seconds() -> float:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / CLK_TCK  # all but idle and iowait


def percentile(values: list, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


@dataclass
class Result:
    label: str
    k: int
    per_s: float
    p50: float
    p99: float
    server_cores: float
    server_ms: float
    client_cores: float
    machine_cores: float
    refused: dict
    errors: int
    matches: int = 0
    routes: dict = field(default_factory=dict)  # Motley: CPU ms a move by route (route_cpu)


def measure(label: str, k: int, server_pids: list, warmup: float, seconds: float, lane_body) -> Result:
    window = Window(warmup, seconds)
    tally = Tally()
    lanes = [threading.Thread(target=lane_body, args=(i, window, tally), daemon=True) for i in range(k)]
    for lane in lanes:
        lane.start()
    time.sleep(max(0.0, window.opens - time.monotonic()))
    server0, client0, busy0 = sum(map(cpu_seconds, server_pids)), time.process_time(), busy_seconds()
    time.sleep(max(0.0, window.closes - time.monotonic()))
    server1, client1, busy1 = sum(map(cpu_seconds, server_pids)), time.process_time(), busy_seconds()
    window.stop.set()
    for lane in lanes:
        lane.join(timeout=15)
    latencies = tally.latencies
    count = len(latencies)
    return Result(label, k, count / seconds, percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000,
                  (server1 - server0) / seconds, (server1 - server0) * 1000 / max(1, count),
                  (client1 - client0) / seconds, (busy1 - busy0) / seconds, dict(tally.refused), len(tally.errors),
                  tally.matches)


# -- a small HTTP client (http.client: cheap, keep-alive, a chosen source address) ---------------------
class Http:
    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port, self.source = port, source
        self.conn: Optional[http.client.HTTPConnection] = None

    def connect(self) -> http.client.HTTPConnection:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
        conn.connect()
        return conn

    def call(self, method: str, path: str, body: Any = None, key: Optional[str] = None) -> tuple[int, Any, dict]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = None if body is None else json.dumps(body)
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = self.connect()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                text = response.read()
                break
            except (http.client.HTTPException, ConnectionError):  # the server closed an idle connection
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        return response.status, json.loads(text) if text else None, dict(response.getheaders())

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def frames(conn: http.client.HTTPConnection, path: str, key: str):
    """The views a match stream pushes (server-sent events ``match``), until it ends."""
    conn.request("GET", path, headers={"Authorization": f"Bearer {key}", "Accept": "text/event-stream"})
    response = conn.getresponse()
    if response.status != 200:
        raise RuntimeError(f"stream answered {response.status}: {response.read()[:200]!r}")
    data = []
    while True:
        line = response.readline()
        if not line:
            return
        line = line.rstrip(b"\r\n")
        if line.startswith(b"data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield json.loads(b"\n".join(data))
            data = []


# -- the bare stack ---------------------------------------------------------------------------------------
def bare_lane(port: int):
    def lane(index: int, window: Window, tally: Tally) -> None:
        client = Http(port)
        match = str(uuid.uuid4())
        body = {"match": match, "seat": 0, "action": {"type": "offer", "up": "H7", "down": "S2"}}
        try:
            while not window.stop.is_set():
                started = time.monotonic()
                status, _, _ = client.call("POST", "/moves", body)
                done = time.monotonic()
                if status != 201:
                    tally.error(f"bare answered {status}")
                elif window.inside(done):
                    tally.latencies.append(done - started)
        except Exception as error:
            tally.error(repr(error))
        finally:
            client.close()
    return lane


# -- Motley -------------------------------------------------------------------------------------------
def motley_lane(port: int, poll: float, seed: int):
    def lane(index: int, window: Window, tally: Tally) -> None:
        rng = random.Random(seed * 1000 + index)
        sources = [f"127.0.0.{2 + index * 3 + seat}" for seat in range(3)]
        players = [Http(port, source) for source in sources]
        try:
            keys, ids = [], []
            for seat, client in enumerate(players):
                status, body, _ = client.call("POST", "/players", {"name": f"lane{index}-{seat}"})
                assert status == 201, (status, body)
                keys.append(body["api_key"])
                ids.append(body["id"])
            while not window.stop.is_set():
                play_match(players, keys, rng, window, tally, poll, ids)
        except Exception as error:
            if not window.stop.is_set():
                tally.error(repr(error))
        finally:
            for client in players:
                client.close()
    return lane


def play_match(players: list, keys: list, rng: random.Random, window: Window, tally: Tally, poll: float,
               ids: Optional[list] = None) -> None:
    status, match, _ = players[0].call("POST", "/matches", {"game": "jest", "seats": 3}, keys[0])
    assert status == 201, (status, match)
    match_id = match["id"]
    with tally.lock:
        tally.players[match_id] = list(ids or [])
    for client, key in zip(players, keys):
        status, body, _ = client.call("POST", f"/matches/{match_id}/seats", {}, key)
        assert status == 201, (status, body)
    status, body, _ = players[0].call("POST", f"/matches/{match_id}/start", None, keys[0])
    assert status == 200, (status, body)
    streams = [client.connect() for client in players]
    seats = [threading.Thread(target=play_seat, args=(players[s], streams[s], keys[s], match_id, rng, window, tally,
                                                      poll), daemon=True) for s in range(3)]
    for seat in seats:
        seat.start()
    while any(seat.is_alive() for seat in seats):
        if window.stop.wait(0.05):
            for stream in streams:  # unblock the readers
                try:
                    stream.sock.shutdown(2)  # type: ignore[union-attr]
                except OSError:
                    pass
            break
        for seat in seats:
            seat.join(timeout=0)
    for seat in seats:
        seat.join(timeout=5)
    for stream in streams:
        stream.close()
    with tally.lock:
        tally.matches += 1


def play_seat(client: Http, stream, key: str, match_id: str, rng: random.Random, window: Window, tally: Tally,
              poll: float) -> None:
    seen = 0  # the newest version this player knows, from its stream or its own move's answer
    path = f"/matches/{match_id}/stream?seconds=600&poll={poll}"
    try:
        for view in frames(stream, path, key):
            # A push older than what the player holds (its own move's answer overtook it) is ignored.
            while view is not None and view["version"] > seen and not window.stop.is_set():
                seen = view["version"]
                if view["status"] != "active" or not view["legal_actions"]:
                    break
                action = rng.choice(view["legal_actions"])
                if tally.pacer is not None:
                    tally.pacer.wait()
                started = time.monotonic()
                status, answer, _ = client.call("POST", f"/matches/{match_id}/moves", {"action": action}, key)
                done = time.monotonic()
                if status == 201:
                    if window.inside(done):
                        tally.latencies.append(done - started)
                    tally.moved(match_id, done)
                    view = answer  # the mover's new view: it may have to act again at once
                elif status in (409, 422):  # overtaken by a racing move: wait for the stream
                    tally.refuse(status, answer)
                    view = None
                else:
                    tally.error(f"move answered {status}: {answer}")
                    view = None
            if window.stop.is_set():
                return
    except Exception as error:
        if not window.stop.is_set():
            tally.error(repr(error))


# -- P3: from a match's last move to its row in the match list and on the leaderboard ---------------------
def lag_monitor(port: int, window: Window, tally: Tally, seen: dict, every: float = 0.05) -> None:
    """Poll the match list (finished matches) and the Jest leaderboard, as a client watching them would,
    and note when each match first shows: seen[("list" | "board", match id)] = time. A lane's three
    players play one match at a time, so a player's n-th match is on the board once it counts n played."""
    client = Http(port, "127.0.0.250")
    try:
        while not window.stop.is_set():
            status, page, _ = client.call("GET", "/matches?status=finished&limit=20")  # newest activity first
            now = time.monotonic()
            if status == 200:
                for row in page["items"]:
                    seen.setdefault(("list", row["id"]), now)
            status, board, _ = client.call("GET", "/leaderboards/jest?limit=200")
            now = time.monotonic()
            if status == 200:
                played = {item["player_id"]: item["played"] for item in board["items"]}
                with tally.lock:
                    matches = list(tally.players.items())
                by_player: dict = {}
                for match_id, ids in matches:  # in creation order: each player's matches in play order
                    for player_id in ids:
                        by_player.setdefault(player_id, []).append(match_id)
                for player_id, count in played.items():
                    for match_id in by_player.get(player_id, [])[:count]:
                        seen.setdefault(("board", match_id), now)
            time.sleep(every)
    except Exception as error:
        if not window.stop.is_set():
            tally.error(f"lag monitor: {error!r}")
    finally:
        client.close()


def measure_lag(port: int, pids: list, k: int, rate: float, args) -> dict:
    """Moves at ``rate`` (half the peak) from ``k`` clients while the monitor watches the read models;
    the lags (s) of the matches whose last move fell inside the window."""
    window = Window(args.warmup, args.seconds)
    tally = Tally(pacer=Pacer(rate))
    seen: dict = {}
    lane = motley_lane(port, args.poll, args.seed)
    threads = [threading.Thread(target=lane, args=(i, window, tally), daemon=True) for i in range(k)]
    monitor = threading.Thread(target=lag_monitor, args=(port, window, tally, seen), daemon=True)
    for thread in [*threads, monitor]:
        thread.start()
    time.sleep(max(0.0, window.closes - time.monotonic()))
    time.sleep(3.0)  # the last matches' rows: the monitor keeps watching, the lanes keep moving
    window.stop.set()
    for thread in [*threads, monitor]:
        thread.join(timeout=15)
    moves = len(tally.latencies)
    lags: dict = {"list": [], "board": [], "moves_per_s": moves / args.seconds, "missing": 0}
    for match_id, last in tally.last_move.items():
        if not window.inside(last) or ("list", match_id) not in seen:
            continue  # unfinished, or finished outside the window
        for model in ("list", "board"):
            if (model, match_id) in seen:
                lags[model].append(max(0.0, seen[(model, match_id)] - last))
            else:
                lags["missing"] += 1
    lags["errors"] = len(tally.errors)
    return lags


# -- servers ------------------------------------------------------------------------------------------
class Server:
    def __init__(self, command: list, env: dict, port: int, log: Path):
        self.port, self.log = port, log
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    conn.close()
                    break
            except OSError:
                time.sleep(0.2)
        else:
            self.stop()
            raise RuntimeError("server did not answer in 60 s")
        time.sleep(1.0)  # gunicorn: let every worker finish booting

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def schema_for(prefix: str) -> str:
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return schema


def drop(schema: str) -> None:
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def machine_busy(seconds: float = 1.0) -> float:
    """The share of the machine's CPU time (all cores) that was busy over ``seconds``, from /proc/stat."""
    def sample() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait
    total, idle = sample()
    time.sleep(seconds)
    total2, idle2 = sample()
    return 1.0 - (idle2 - idle) / max(1, total2 - total)


def settle(most: float = 20.0) -> float:
    """Before a configuration: a CHECKPOINT (the previous one's writes and dropped schema flushed now, not
    during this one's window), then wait until the machine is quiet (under 15 % busy over a second), at
    most ``most`` seconds. The lag phase, run right after two gunicorn configurations, met their
    teardown: it paced 60 moves/s against 80 asked, and its lag doubled (a session's run). Returns the wait."""
    start = time.monotonic()
    try:
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
    except psycopg.Error:
        pass  # not a superuser: the wait alone
    while time.monotonic() - start < most and machine_busy() >= 0.15:
        pass
    return time.monotonic() - start


def motley_env(schema: str, pool: int) -> dict:
    return dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_HOST=PG["host"],
                MOTLEY_POSTGRES_DBNAME=PG["dbname"], MOTLEY_POSTGRES_USER=PG["user"], MOTLEY_POSTGRES_SCHEMA=schema,
                MOTLEY_POSTGRES_POOL_SIZE=str(pool), MOTLEY_TASKS="inprocess", MOTLEY_RATE_LIMITS=NO_LIMITS,
                PYTHONPATH=str(ROOT))


def start_worker(env: dict, log: Path) -> tuple[dict, subprocess.Popen]:
    """The tables made once, then a Celery worker (2 processes) on its own queue; the API sends to it."""
    queue = f"motley-bench-{uuid.uuid4().hex[:8]}"
    env = dict(env, MOTLEY_TASKS="celery", MOTLEY_QUEUE=queue)
    subprocess.run([sys.executable, "-m", "api.cli", "migrate"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env["MOTLEY_CREATE_TABLES"] = "n"
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-c", "2",
                               "-l", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat",
                               "-n", f"{queue}@%h"], cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    time.sleep(5)  # the worker connects and sweeps
    if worker.poll() is not None:
        raise RuntimeError(f"the Celery worker exited: {log.read_text()[-2000:]}")
    return env, worker


def scrape(port: int) -> Optional[dict]:
    """Motley's /metrics: moves applied and the CPU seconds of each route's requests (None: no Motley)."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/metrics")
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
    except OSError:
        return None
    if response.status != 200:
        return None
    found: dict = {"moves": 0.0}
    for line in text.splitlines():
        if line.startswith("motley_moves_total "):
            found["moves"] = float(line.split()[1])
        elif line.startswith("motley_http_request_cpu_seconds_total{"):
            labels = dict(part.split("=", 1) for part in line[line.index("{") + 1:line.rindex("}")].split(","))
            key = f"{labels['method'].strip(chr(34))} {labels['route'].strip(chr(34))}"
            found[key] = found.get(key, 0.0) + float(line.rsplit(" ", 1)[1])
    return found


def route_cpu(before: Optional[dict], after: Optional[dict]) -> dict:
    """Where a move's server CPU went, by route: motley_http_request_cpu_seconds_total over
    motley_moves_total, both over the whole run of one K (ms a move; empty: no Motley)."""
    if before is None or after is None or after["moves"] <= before["moves"]:
        return {}
    moves = after["moves"] - before["moves"]
    return {key: (after[key] - before.get(key, 0.0)) * 1000 / moves for key in after if key != "moves"}


def run_config(label: str, command: list, env: dict, port: int, args, lane_factory, logs: Path,
               also: Optional[subprocess.Popen] = None) -> list[Result]:
    """Start the server, measure each K, stop it; ``also`` (the Celery worker) is counted in its CPU."""
    settle()
    server = Server(command, env, port, logs / f"{label.replace(' ', '_')}.log")
    pids = [server.process.pid] + ([also.pid] if also is not None else [])
    try:
        results = []
        for k in args.clients:
            before = scrape(port)
            result = measure(label, k, pids, args.warmup, args.seconds, lane_factory(port))
            result.routes = route_cpu(before, scrape(port))
            results.append(result)
            print_row(result)
        return results
    finally:
        server.stop()


def print_row(r: Result) -> None:
    refused = sum(r.refused.values())
    print(f"| {r.label} | {r.k} | {r.per_s:,.1f} | {r.p50:.2f} | {r.p99:.2f} | {r.p99 / r.p50:.1f} | "
          f"{r.server_cores:.2f} | {r.server_ms:.2f} | {r.client_cores:.2f} | {r.machine_cores:.2f} | "
          f"{refused} | {r.errors} |", flush=True)


# -- the peer -----------------------------------------------------------------------------------------
def run_peer(seconds: int, peers: Path) -> dict:
    """boardgame.io in memory and flat-file (write queue off): {(storage, k): (moves/s, p50, p99)}."""
    results = Path(tempfile.mkdtemp(prefix="bgio-peer-results-"))
    env = dict(os.environ, REPEATS="1", SECONDS_PER_RUN=str(seconds), WARMUP="2",
               STORAGES="memory flatfile-direct", RESULTS=str(results))
    started = time.monotonic()
    done = subprocess.run(["bash", str(peers / "run.sh")], cwd=peers, env=env, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"peer run failed: {done.stderr[-2000:]}")
    figures = {}
    for path in results.glob("moves-*-r1.json"):
        run = json.loads(path.read_text())
        figures[(run["storage"], run["k"])] = (run["moves_per_s"], run["latency"]["p50_ms"], run["latency"]["p99_ms"],
                                               run["cpu"]["server_cpu_ms_per_move"])
    print(f"(peer: {time.monotonic() - started:.0f} s, results in {results})")
    return figures


# -- main ---------------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20, help="the measuring window of each configuration")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--processes", type=int, nargs="*", default=[],
                        help="also run Motley under gunicorn with these process counts (e.g. 1 2)")
    parser.add_argument("--threads", type=int, default=None,
                        help="server threads per process, the same for every configuration "
                             "(default 4 x the largest K + 4: a stream holds a thread)")
    parser.add_argument("--pool-size", type=int, default=6, help="MOTLEY_POSTGRES_POOL_SIZE per process")
    parser.add_argument("--poll", type=float, default=0.05, help="the streams' poll interval (seconds)")
    parser.add_argument("--tasks", choices=("inprocess", "celery"), default="inprocess",
                        help="Motley's tasks in a thread of each API process, or on a Celery worker (2 processes)")
    parser.add_argument("--peer", action="store_true", help="also run the boardgame.io peer (~2 min)")
    parser.add_argument("--peer-seconds", type=int, default=10)
    parser.add_argument("--peer-dir", type=Path, default=PEERS, help="the peer harness (../shared/peers)")
    parser.add_argument("--lag", action="store_true",
                        help="P3: then move at half the peak and time each finished match's row in the match list "
                             "and on the leaderboard")
    parser.add_argument("--port", type=int, default=8795)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    threads = args.threads or 4 * max(args.clients) + 4
    logs = Path(tempfile.mkdtemp(prefix="http-moves-"))

    with psycopg.connect(**PG, autocommit=True) as conn:
        settings = {name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
                    for name in ("synchronous_commit", "fsync", "max_connections", "server_version")}
    print(f"# bench/http_moves.py  {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC  nproc {os.cpu_count()}  "
          f"loadavg {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(f"# PostgreSQL {settings['server_version']}: synchronous_commit={settings['synchronous_commit']} "
          f"fsync={settings['fsync']} max_connections={settings['max_connections']}")
    print(f"# server: {threads} threads per process; pool {args.pool_size}/process; tasks {args.tasks};"
          f" window {args.seconds:g} s after "
          f"{args.warmup:g} s warm-up; streams poll {args.poll:g} s; logs in {logs}")
    print("| config | K | moves/s (bare: req/s) | p50 ms | p99 ms | p99/p50 | server cores | server CPU ms/move "
          "| client cores | machine cores | refused | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    all_results: dict[tuple[str, int], Result] = {}
    bare_schema = schema_for("bare")
    try:
        for r in run_config("bare waitress", [sys.executable, "bench/bare_flask.py", "--port", str(args.port),
                                              "--schema", bare_schema, "--threads", str(threads),
                                              "--pool-size", str(args.pool_size)],
                            dict(os.environ), args.port, args, bare_lane, logs):
            all_results[("bare", r.k)] = r
    finally:
        drop(bare_schema)

    def motley(label: str, extra: list) -> list[Result]:
        schema = schema_for("httpmoves")
        env = motley_env(schema, args.pool_size)
        worker = None
        try:
            if args.tasks == "celery":
                env, worker = start_worker(env, logs / f"{label.replace(' ', '_')}.worker.log")
            command = [sys.executable, "-m", "api.cli", "serve", "--port", str(args.port), "--threads", str(threads),
                       *extra]
            return run_config(label + (" +celery" if worker else ""), command, env, args.port, args,
                              lambda port: motley_lane(port, args.poll, args.seed), logs, worker)
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=30)
            drop(schema)

    for r in motley("motley waitress", []):
        all_results[("motley", r.k)] = r
    for n in args.processes:
        for r in motley(f"motley gunicorn x{n}", ["--server", "gunicorn", "--processes", str(n)]):
            all_results[(f"gunicorn{n}", r.k)] = r

    lags, settled = None, 0.0
    if args.lag:
        peak = max(all_results[("motley", k)].per_s for k in args.clients)
        settled = settle()
        schema = schema_for("httplag")
        env, worker = motley_env(schema, args.pool_size), None
        try:
            if args.tasks == "celery":
                env, worker = start_worker(env, logs / "lag.worker.log")
            server = Server([sys.executable, "-m", "api.cli", "serve", "--port", str(args.port), "--threads",
                             str(threads)], env, args.port, logs / "lag.log")
            try:
                lags = measure_lag(args.port, [server.process.pid], max(args.clients), peak / 2, args)
            finally:
                server.stop()
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=30)
            drop(schema)

    peer = run_peer(args.peer_seconds, args.peer_dir) if args.peer else {}
    if peer:
        print("\n| peer (boardgame.io 0.50.2) | K | moves/s | p50 ms | p99 ms | server CPU ms/move |")
        print("|---|---:|---:|---:|---:|---:|")
        for (storage, k), (per_s, p50, p99, cpu) in sorted(peer.items()):
            print(f"| {storage} | {k} | {per_s:,.0f} | {p50:.2f} | {p99:.2f} | {cpu:.2f} |")

    print("\n## Ratios (issue 16, P1: motley/bare >= 0.5, motley/peer-flatfile >= 1, motley/peer-memory >= 0.5, "
          "p99/p50 <= 4)")
    print("| K | motley moves/s | motley/bare | motley/peer-flatfile | motley/peer-memory | p99/p50 |")
    print("|---:|---:|---:|---:|---:|---:|")
    for k in args.clients:
        m, b = all_results[("motley", k)], all_results[("bare", k)]
        flat, memory = peer.get(("flatfile-direct", k)), peer.get(("memory", k))
        to_flat = "-" if not flat else f"{m.per_s / flat[0]:.3f}"
        to_memory = "-" if not memory else f"{m.per_s / memory[0]:.3f}"
        print(f"| {k} | {m.per_s:,.1f} | {m.per_s / b.per_s:.3f} | {to_flat} | {to_memory} | {m.p99 / m.p50:.1f} |")
    if args.processes:
        base = args.processes[0]
        print(f"\n## Processes (gunicorn): moves/s and growth over {base} process(es)")
        print("| K | " + " | ".join(f"x{n} moves/s" for n in args.processes) + " | " +
              " | ".join(f"x{n}/x{base}" for n in args.processes[1:]) + " |")
        print("|---:|" + "---:|" * (2 * len(args.processes) - 1))
        for k in args.clients:
            rates = [all_results[(f"gunicorn{n}", k)].per_s for n in args.processes]
            print(f"| {k} | " + " | ".join(f"{rate:,.1f}" for rate in rates) + " | " +
                  " | ".join(f"{rate / rates[0]:.2f}" for rate in rates[1:]) + " |")
    routed = [r for r in all_results.values() if r.routes]
    if routed:
        print("\n## Where a move's server CPU goes: ms a move by route (motley_http_request_cpu_seconds_total), "
              "the rest being the main loop (reading requests), tasks, read models, the log watcher and listener")
        names = sorted({key for r in routed for key in r.routes}, key=lambda key: -max(r.routes.get(key, 0.0)
                                                                                      for r in routed))
        names = [key for key in names if max(r.routes.get(key, 0.0) for r in routed) >= 0.005]
        print("| config | K | server CPU ms a move | " + " | ".join(names) + " | routes | rest |")
        print("|---|---:|---:|" + "---:|" * (len(names) + 2))
        for r in routed:
            routes = sum(r.routes.values())
            cells = " | ".join(f"{r.routes.get(key, 0.0):.2f}" for key in names)
            print(f"| {r.label} | {r.k} | {r.server_ms:.2f} | {cells} | {routes:.2f} | {r.server_ms - routes:.2f} |")
    if lags is not None:
        print(f"\n## P3: lag from a match's last move to its row (p95 < 1 s), moving at half the peak "
              f"({peak / 2:,.1f} of {peak:,.1f} moves/s; measured {lags['moves_per_s']:,.1f}), "
              f"K={max(args.clients)}, tasks {args.tasks}; the machine settled {settled:.1f} s before it")
        print("| read model | matches | p50 s | p95 s | max s |")
        print("|---|---:|---:|---:|---:|")
        for model, label in (("list", "match list"), ("board", "leaderboard")):
            values = lags[model]
            print(f"| {label} | {len(values)} | {percentile(values, 0.5):.3f} | {percentile(values, 0.95):.3f} | "
                  f"{max(values) if values else float('nan'):.3f} |")
        if lags["missing"] or lags["errors"]:
            print(f"(rows never seen: {lags['missing']}; errors: {lags['errors']})")
    refusals = {f"{key[0]} K={key[1]}": r.refused for key, r in all_results.items() if r.refused}
    if refusals:
        print(f"\nrefusals by problem type: {refusals}")
    errors = {key: r.errors for key, r in all_results.items() if r.errors}
    if errors:
        print(f"\nerrors: {errors} (see the server logs in {logs})")
    else:
        shutil.rmtree(logs, ignore_errors=True)


if __name__ == "__main__":
    main()
