"""`motley serve` runs the API (waitress WSGI server); `motley migrate` creates the tables once."""

from __future__ import annotations

import argparse
import logging


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="motley", description="Motley game service")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--threads", type=int, default=8)
    commands.add_parser("migrate", help="create the event store and read-model tables, then exit")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")

    from infrastructure.composition import build
    from infrastructure.settings import Settings

    if args.command == "migrate":
        build(Settings.from_env(create_tables=True)).close()
        print("tables ready")
        return

    import waitress

    from api import create_app

    container = build()
    container.start()  # serving picks up work a previous run left; `migrate` above starts nothing
    settings = container.settings
    print(f"Motley on http://{args.host}:{args.port}/docs (store: {settings.store}, tasks: {settings.tasks})")
    waitress.serve(create_app(container), host=args.host, port=args.port, threads=args.threads)


if __name__ == "__main__":
    main()
