"""Where a move's server time goes: random Jest matches through the Flask app in this process (no
HTTP server, no network), on a fresh PostgreSQL schema, with the in-process task queue.

    python bench/request_path.py [--matches N] [--profile] [--top K]

Prints the server's CPU milliseconds per move (every request a client makes for a move: its reads
of the match, the move, and the in-process projection it triggers) and, with ``--profile``, the
functions with the most own time (cProfile), so a change to the request path is profiled before and
after in one command (issue 16). The client plays as bench/api_jest.py does: a view, the mover's
view, the move.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
import uuid
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import create_app  # noqa: E402
from infrastructure.composition import build  # noqa: E402
from infrastructure.settings import Settings  # noqa: E402

PG = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres")
NO_LIMITS = "register=100000/minute,create=100000/minute,moves=100000/minute"  # a bench, not abuse


def play(client, rng: random.Random) -> tuple[int, int]:
    """One 3-player Jest match to its end: (moves, requests)."""
    keys = [client.post("/players", json={"name": f"bench{i}"}).get_json()["api_key"] for i in range(3)]
    auth = [{"Authorization": f"Bearer {key}"} for key in keys]
    match = client.post("/matches", json={"game": "jest", "seats": 3}, headers=auth[0]).get_json()
    path = f"/matches/{match['id']}"
    for headers in auth:
        client.post(f"{path}/seats", json={}, headers=headers)
    client.post(f"{path}/start", headers=auth[0])
    moves, requests = 0, 6
    while True:
        view = client.get(path).get_json()
        requests += 1
        if view["status"] == "finished":
            return moves, requests
        seats = view["to_act"]["seats"] if view["to_act"]["kind"] == "players" else []
        if not seats:
            continue
        seat = rng.choice(seats)
        mine = client.get(path, headers=auth[seat]).get_json()
        requests += 1
        if not mine["legal_actions"]:
            continue
        answer = client.post(f"{path}/moves", json={"action": rng.choice(mine["legal_actions"])}, headers=auth[seat])
        requests += 1
        assert answer.status_code in (201, 409), answer.get_data(as_text=True)
        moves += answer.status_code == 201


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime", help="pstats order: tottime or cumtime")
    args = parser.parse_args()
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    container = build(Settings(store="postgres", postgres_dbname=PG["dbname"], postgres_schema=schema,
                               rate_limits=NO_LIMITS))
    try:
        client = create_app(container).test_client()
        rng = random.Random(1)
        play(client, rng)  # warm: imports, caches, prepared statements
        profiler = cProfile.Profile() if args.profile else None
        moves = requests = 0
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler:
            profiler.enable()
        for _ in range(args.matches):
            m, r = play(client, rng)
            moves, requests = moves + m, requests + r
            container.tasks.drain()
        if profiler:
            profiler.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        container.close()
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    print(f"Jest through the Flask app in-process on PostgreSQL: {args.matches} matches, {moves} moves, "
          f"{requests} requests")
    print(f"  CPU per move: {cpu / moves * 1000:.2f} ms  (wall {wall / moves * 1000:.2f} ms; "
          f"{requests / moves:.1f} requests a move)")
    if profiler:
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
