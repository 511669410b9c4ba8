"""500 open streams while moves keep their rate (issue 12).

    python bench/streams.py [--streams 500] [--seconds 20] [--clients 4] [--port P]

Starts `motley serve` (waitress, its streams on their own threads: api/server.py) on a fresh
PostgreSQL schema with in-process tasks. Phase 1: K clients play Jest matches for S seconds; moves per
second. Then opens N match streams (server-sent events), from 127.0.0.x source addresses four at a
time (the per-client cap on long-lived requests is 4), spread over idle open matches and the
matches being played. Phase 2: the same clients play again with every stream open; moves per second,
how many streams are still open at the end, the events they received, and the latency of GET /games
meanwhile. Prints the ratio of the two move rates.
"""

from __future__ import annotations

import argparse
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_jest import PG, ROOT, Client  # noqa: E402  (the same bench client plays the matches)

NO_LIMITS = "register=100000/minute,create=100000/minute,moves=100000/minute"


class TimedClient(Client):
    """bench/api_jest.py's client, playing matches until a deadline."""

    def __init__(self, base: str, seed: int, until: float, started: list):
        super().__init__(base, 10**6, seed)
        self.until, self.started = until, started

    def play_one(self):
        if time.monotonic() > self.until:
            raise StopIteration
        super().play_one()

    def run(self):
        try:
            while time.monotonic() < self.until:
                self.play_one()
        except StopIteration:
            pass
        except Exception as error:  # reported by the main thread
            self.error = error


def play_for(base: str, clients: int, seconds: float, seed: int) -> tuple[int, float, list[float]]:
    until = time.monotonic() + seconds
    players = [TimedClient(base, seed + i, until, []) for i in range(clients)]
    started = time.perf_counter()
    for player in players:
        player.start()
    for player in players:
        player.join()
    elapsed = time.perf_counter() - started
    errors = [p.error for p in players if p.error]
    if errors:
        raise SystemExit(f"a client failed: {errors[0]!r}")
    latencies = [latency for p in players for latency in p.latencies]
    return len(latencies), elapsed, latencies


class Streams(threading.Thread):
    """N raw HTTP connections holding GET /matches/{id}/stream, read by one selector thread."""

    def __init__(self, port: int, paths: list[str]):
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.events = 0
        self.open = 0
        self.refused = 0
        self.stop = False
        for index, path in enumerate(paths):
            source = f"127.0.{1 + index // 1000}.{2 + (index // 4) % 250}"  # four streams per address
            sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0), timeout=10)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            head = sock.recv(4096)
            if not head.startswith(b"HTTP/1.1 200"):
                self.refused += 1
                sock.close()
                continue
            self.events += head.count(b"\nid: ") + head.startswith(b"id: ")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.open += 1

    def run(self):
        while not self.stop:
            for key, _ in self.selector.select(timeout=0.5):
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    self.open -= 1
                    continue
                self.events += data.count(b"id: ")

    def close(self):
        self.stop = True
        self.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--port", type=int, default=8793)
    args = parser.parse_args()

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_DBNAME=PG["dbname"],
               MOTLEY_POSTGRES_SCHEMA=schema, MOTLEY_POSTGRES_POOL_SIZE="8", MOTLEY_TASKS="inprocess",
               MOTLEY_RATE_LIMITS=NO_LIMITS, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(args.port),
                               "--threads", "8", "--stream-threads", str(args.streams + 50)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{args.port}"
    streams = None
    try:
        for _ in range(200):
            try:
                requests.get(base + "/games", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        before, before_elapsed, before_latencies = play_for(base, args.clients, args.seconds, seed=1)

        # Idle open matches to watch, and the matches just played (finished: their stream ends at
        # once, so the streams watch open ones mostly).
        key = requests.post(base + "/players", json={"name": "watched"}, timeout=10).json()["api_key"]
        idle = [requests.post(base + "/matches", json={"game": "jest", "seats": 3},
                              headers={"Authorization": f"Bearer {key}"}, timeout=10).json()["id"]
                for _ in range(50)]
        paths = [f"/matches/{idle[i % len(idle)]}/stream?seconds=600" for i in range(args.streams)]
        opened_at = time.perf_counter()
        streams = Streams(args.port, paths)
        opening = time.perf_counter() - opened_at
        streams.start()
        probe: list[float] = []
        stop_probe = threading.Event()

        def probe_games():
            while not stop_probe.is_set():
                started = time.perf_counter()
                requests.get(base + "/games", timeout=30)
                probe.append(time.perf_counter() - started)
                time.sleep(0.2)

        prober = threading.Thread(target=probe_games, daemon=True)
        prober.start()
        # Joining the idle matches changes them: every stream of those gets an event.
        for match_id in idle[:10]:
            requests.post(f"{base}/matches/{match_id}/seats", json={}, headers={"Authorization": f"Bearer {key}"},
                          timeout=10)
        after, after_elapsed, after_latencies = play_for(base, args.clients, args.seconds, seed=2)
        stop_probe.set()
        prober.join(timeout=30)
        still_open = streams.open
    finally:
        if streams is not None:
            streams.close()
        server.terminate()
        server.wait(timeout=30)
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    def p(values, q):
        values = sorted(values)
        return values[min(len(values) - 1, int(len(values) * q))] * 1000

    rate_before, rate_after = before / before_elapsed, after / after_elapsed
    p50_before, p50_after = statistics.median(before_latencies) * 1000, statistics.median(after_latencies) * 1000
    print(f"Streams beside moves, Jest over HTTP on PostgreSQL, {args.clients} clients, {args.seconds:g} s a phase")
    print(f"  without streams: {rate_before:.1f} moves/s (POST /moves p50 {p50_before:.1f} ms)")
    print(f"  {args.streams} streams asked, {streams.open + (args.streams - streams.open - streams.refused)} opened "
          f"in {opening:.1f} s, {streams.refused} refused; open at the end: {still_open}; "
          f"events received: {streams.events}")
    print(f"  with them open: {rate_after:.1f} moves/s (POST /moves p50 {p50_after:.1f} ms, "
          f"p99 {p(after_latencies, 0.99):.1f} ms)")
    print(f"  GET /games meanwhile: p50 {p(probe, 0.5):.1f} ms, p99 {p(probe, 0.99):.1f} ms, "
          f"max {max(probe) * 1000:.1f} ms")
    print(f"  ratio moves/s with / without the streams: {rate_after / rate_before:.2f}")


if __name__ == "__main__":
    main()
