"""Random Jest matches through the HTTP API on PostgreSQL, with K concurrent clients.

    python bench/api_jest.py [--matches N] [--clients K] [--port P]

Starts `motley serve` (waitress) on a fresh PostgreSQL schema with its tasks in-process, plays N
matches with K client threads (each move a real HTTP request), and prints moves per second and the
p50/p99 latency of POST /moves. In the same run it measures a raw psycopg single-row INSERT per
transaction on the same database, and prints the ratio of the two.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
PG = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres")


def raw_inserts(seconds: float) -> float:
    """Single-row INSERTs, one transaction each, on one connection: rows per second."""
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute("CREATE TEMP TABLE raw_bench (id bigserial PRIMARY KEY, body jsonb)")
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            with conn.transaction():
                conn.execute("INSERT INTO raw_bench (body) VALUES (%s)", ('{"type": "offer"}',))
            count += 1
        return count / (time.perf_counter() - start)


class Client(threading.Thread):
    def __init__(self, base: str, matches: int, seed: int):
        super().__init__(daemon=True)
        self.base, self.matches, self.rng = base, matches, random.Random(seed)
        self.http = requests.Session()
        self.latencies: list[float] = []
        self.error = None

    def call(self, method, path, key=None, body=None):
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        response = self.http.request(method, self.base + path, json=body, headers=headers, timeout=30)
        return response.status_code, response.json()

    def run(self):
        try:
            for _ in range(self.matches):
                self.play_one()
        except Exception as error:  # reported by the main thread
            self.error = error

    def play_one(self):
        keys = [self.call("POST", "/players", body={"name": f"bench{i}"})[1]["api_key"] for i in range(3)]
        _, match = self.call("POST", "/matches", keys[0], {"game": "jest", "seats": 3})
        for key in keys:
            self.call("POST", f"/matches/{match['id']}/seats", key, {})
        self.call("POST", f"/matches/{match['id']}/start", keys[0])
        while True:
            _, view = self.call("GET", f"/matches/{match['id']}")
            if view["status"] == "finished":
                return
            seats = view["to_act"]["seats"] if view["to_act"]["kind"] == "players" else []
            if not seats:
                time.sleep(0.005)
                continue
            seat = self.rng.choice(seats)
            _, mine = self.call("GET", f"/matches/{match['id']}", keys[seat])
            if not mine["legal_actions"]:
                continue
            action = self.rng.choice(mine["legal_actions"])
            started = time.perf_counter()
            status, _ = self.call("POST", f"/matches/{match['id']}/moves", keys[seat], {"action": action})
            self.latencies.append(time.perf_counter() - started)
            assert status in (201, 409), status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=40, help="matches in all")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args()

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    env = dict(os.environ, MOTLEY_STORE="postgres", MOTLEY_POSTGRES_DBNAME=PG["dbname"],
               MOTLEY_POSTGRES_SCHEMA=schema, MOTLEY_POSTGRES_POOL_SIZE="8", MOTLEY_TASKS="inprocess",
               PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(args.port),
                               "--threads", str(max(8, args.clients * 2))],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(100):
            try:
                requests.get(base + "/games", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        per_client = max(1, args.matches // args.clients)
        clients = [Client(base, per_client, seed) for seed in range(args.clients)]
        started = time.perf_counter()
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        elapsed = time.perf_counter() - started
        errors = [c.error for c in clients if c.error]
        if errors:
            raise SystemExit(f"a client failed: {errors[0]!r}")
        latencies = sorted(latency for c in clients for latency in c.latencies)
        moves = len(latencies)
        raw = raw_inserts(3.0)
    finally:
        server.terminate()
        server.wait(timeout=20)
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(f"Jest over HTTP on PostgreSQL: {per_client * args.clients} matches, {args.clients} clients, {moves} moves")
    print(f"  moves per second (wall, incl. reads between moves): {moves / elapsed:.1f}")
    print(f"  POST /moves latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"  raw psycopg single-row INSERT per transaction (1 connection): {raw:.0f} rows/s")
    print(f"  ratio raw inserts / API moves: {raw / (moves / elapsed):.1f}")


if __name__ == "__main__":
    main()
