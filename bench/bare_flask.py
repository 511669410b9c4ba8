"""The bare stack for bench/http_moves.py: a Flask endpoint doing one INSERT per request on PostgreSQL.

    python bench/bare_flask.py --port P --schema S [--threads T] [--server waitress|gunicorn] [--processes N]

``POST /moves`` takes a small JSON body (what a move sends), inserts one row in its own transaction
(committed, so as durable as a Motley move: ``synchronous_commit`` is the server's) and answers 201
with the row's id as JSON. It is served by the same WSGI server with the same settings as Motley's API
in the same bench run; with gunicorn each worker opens its own pool after the fork.
"""

from __future__ import annotations

import argparse
import json
import os

PG = dict(host="127.0.0.1", port=5432, dbname="test", user="postgres")


def create_app(schema: str, pool_size: int):
    from flask import Flask, Response, request
    from psycopg_pool import ConnectionPool

    conninfo = " ".join(f"{key}={value}" for key, value in PG.items())
    pool = ConnectionPool(conninfo, min_size=pool_size, max_size=pool_size, open=True,
                          kwargs={"options": f"-c search_path={schema}"})
    app = Flask("bare")

    @app.post("/moves")
    def move():
        body = request.get_json()
        with pool.connection() as conn:  # one transaction, committed when the block ends
            row = conn.execute("INSERT INTO bare_moves (match, body) VALUES (%s, %s) RETURNING id",
                               (body.get("match"), json.dumps(body))).fetchone()
        return Response(json.dumps({"id": row[0], "version": row[0]}), status=201, mimetype="application/json")

    @app.get("/health")
    def health():
        return {"status": "ok"}

    return app


def prepare(schema: str) -> None:
    import psycopg

    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        conn.execute(f'CREATE TABLE IF NOT EXISTS "{schema}".bare_moves '
                     "(id bigserial PRIMARY KEY, match text, body jsonb NOT NULL)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--server", choices=("waitress", "gunicorn"), default="waitress")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--pool-size", type=int, default=5)
    args = parser.parse_args()
    prepare(args.schema)
    if args.server == "waitress":
        import waitress

        waitress.serve(create_app(args.schema, args.pool_size), host=args.host, port=args.port, threads=args.threads)
        return
    from gunicorn.app.base import BaseApplication

    class Gunicorn(BaseApplication):
        def load_config(self) -> None:
            # The same settings as Motley's (api/wsgi.py gunicorn_options), its hooks left out.
            for key, value in {"bind": f"{args.host}:{args.port}", "workers": args.processes,
                               "worker_class": "gthread", "threads": args.threads, "preload_app": False,
                               "keepalive": 75, "timeout": 60, "graceful_timeout": 10, "accesslog": None,
                               "control_socket_disable": True}.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self):
            return create_app(args.schema, args.pool_size)  # in the worker, after the fork

    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    Gunicorn().run()


if __name__ == "__main__":
    main()
