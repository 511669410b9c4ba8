"""gunicorn settings for Motley's API (docs/deploy.md). From the repository root:

    MOTLEY_STORE=postgres MOTLEY_CREATE_TABLES=n gunicorn api.wsgi:app

reads this file by itself. ``MOTLEY_PROCESSES`` (2), ``MOTLEY_THREADS`` (8), ``MOTLEY_STREAM_THREADS``
(200: threads each process keeps for streams, beside the request threads) and ``MOTLEY_BIND``
(127.0.0.1:8000) size it; each process opens its own pools (``MOTLEY_POSTGRES_POOL_SIZE``). Create the
tables first (``motley migrate``): workers started here never do. ``motley serve --processes N`` runs
the same settings (``api.wsgi.gunicorn_options``) and creates the tables itself.
"""

import os

from api.wsgi import gunicorn_options

for _name, _value in gunicorn_options(
    processes=int(os.environ.get("MOTLEY_PROCESSES", "2")),
    threads=int(os.environ.get("MOTLEY_THREADS", "8")),
    bind=os.environ.get("MOTLEY_BIND", "127.0.0.1:8000"),
).items():
    globals()[_name] = _value
