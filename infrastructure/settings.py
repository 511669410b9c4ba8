"""Settings, read once from the environment. The defaults run Motley embedded: a SQLite file for the
event store and the read models, and the workers' tasks in a thread of the same process."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Optional

YES = ("1", "y", "yes", "t", "true", "on")
NO = ("0", "n", "no", "f", "false", "off")
#: The auditor's credential reads every match whole: a one-character one was taken without a word.
AUDITOR_KEY_MIN = 16


def _flag(env: Any, name: str, default: str) -> bool:
    """A yes or no: any other value (``nope``, ``ye``) was read as no, and a fresh store then served
    503s that blamed the database for tables never made."""
    value = env.get(name, default).strip().lower()
    if value not in YES + NO:
        raise ValueError(f"{name} must be yes or no (1/0, true/false, on/off), not {env[name]!r}")
    return value in YES


def _whole(env: Any, name: str, default: Optional[int], low: Optional[int] = None,
           high: Optional[int] = None) -> Optional[int]:
    """A whole number from ``name``, named when it is not one: "invalid literal for int()" named no
    variable, and a negative MOTLEY_TRUSTED_PROXIES let any request with X-Forwarded-For fail (500)."""
    raw = env.get(name)
    if raw is None or (default is None and not raw.strip()):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bounds}, not {value}")
    return value


def _origins(value: str) -> str:
    """MOTLEY_CORS_ORIGINS as api/cors.py compares them, exactly: an origin is scheme://host[:port],
    and one written with a path (a trailing slash) matched no browser's Origin, without a word."""
    for origin in (part.strip() for part in value.split(",")):
        if origin in ("", "*"):
            continue
        scheme, sep, rest = origin.partition("://")
        if not sep or not scheme or not rest or "/" in rest:
            raise ValueError(f"MOTLEY_CORS_ORIGINS: {origin!r} is not an origin (scheme://host[:port], "
                             "no path or trailing slash)")
    return value


def _schemes(name: str, value: str, known: Any, examples: str, separator: str = "") -> str:
    """A URL whose scheme names a transport the library has (kombu's for the broker, limits' for the
    counters): an unknown one (``amqq://``) was taken at start and failed at each task sent, or at the
    first request, without naming the variable."""
    for url in (value.split(separator) if separator else [value]):
        scheme = url.strip().partition("://")[0]
        if scheme not in known and scheme.partition("+")[0] not in known:
            raise ValueError(f"{name}: {scheme!r} is not a scheme its library knows (such as {examples})")
    return value


@dataclass(frozen=True)
class Settings:
    store: str = "sqlite"  # "sqlite" or "postgres"
    sqlite_path: str = "var/motley.sqlite"
    postgres_host: str = "127.0.0.1"
    postgres_port: str = "5432"
    postgres_dbname: str = "postgres"
    postgres_user: str = "postgres"
    postgres_password: str = ""
    postgres_schema: str = "public"
    postgres_pool_size: int = 5
    # Seconds a request waits for a pooled connection (the library's POSTGRES_CONNECT_TIMEOUT; its
    # default of 30, times ten retries, made requests hang for minutes in an outage).
    postgres_pool_timeout: int = 2
    tasks: str = "inprocess"  # "inprocess" or "celery"
    broker_url: str = "amqp://guest:guest@127.0.0.1:5672//"
    queue: str = "motley"
    create_tables: bool = True
    auditor_key: str = ""  # the admin credential that reads every match unredacted; empty: no auditor
    # Rate limits (api/rates.py): "register=60/minute,moves=600/minute", over its defaults; and where
    # the counters live ("memory://" per process, "redis://host:6379" shared by all API processes).
    rate_limits: str = ""
    rate_limit_storage: str = "memory://"
    # How many reverse proxies stand in front of the API (MOTLEY_TRUSTED_PROXIES): with N, a request's
    # client address is read from the last N entries of X-Forwarded-For (werkzeug's ProxyFix), so the
    # per-address limits count each client, not the proxy. 0: the header is ignored (it is anyone's to send).
    trusted_proxies: int = 0
    # The origins whose pages may call the API from a browser (MOTLEY_CORS_ORIGINS, api/cors.py):
    # "*" any, a comma-separated list of origins, or empty for none.
    cors_origins: str = "*"
    # The bearer token a scrape of /metrics sends (MOTLEY_METRICS_TOKEN); empty: /metrics is public.
    metrics_token: str = ""
    # For tests only: the seed of the generator that draws chance and computers' choices in this
    # process (MOTLEY_RANDOM_SEED). Unset, draws come from the operating system: a seeded service's
    # shuffles could be predicted by anyone who knows the seed.
    random_seed: Optional[int] = None
    extra_env: dict = field(default_factory=dict)

    @classmethod
    def from_env(cls, environ=None, **overrides) -> Settings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = dict(
            store=env.get("MOTLEY_STORE", cls.store),
            sqlite_path=env.get("MOTLEY_SQLITE_PATH", cls.sqlite_path),
            postgres_host=env.get("MOTLEY_POSTGRES_HOST", cls.postgres_host),
            postgres_port=str(_whole(env, "MOTLEY_POSTGRES_PORT", int(cls.postgres_port), 1, 65535)),
            postgres_dbname=env.get("MOTLEY_POSTGRES_DBNAME", cls.postgres_dbname),
            postgres_user=env.get("MOTLEY_POSTGRES_USER", cls.postgres_user),
            postgres_password=env.get("MOTLEY_POSTGRES_PASSWORD", cls.postgres_password),
            postgres_schema=env.get("MOTLEY_POSTGRES_SCHEMA", cls.postgres_schema),
            postgres_pool_size=_whole(env, "MOTLEY_POSTGRES_POOL_SIZE", cls.postgres_pool_size, 1),
            postgres_pool_timeout=_whole(env, "MOTLEY_POSTGRES_POOL_TIMEOUT", cls.postgres_pool_timeout, 1),
            tasks=env.get("MOTLEY_TASKS", cls.tasks),
            broker_url=env.get("MOTLEY_BROKER_URL", cls.broker_url),
            queue=env.get("MOTLEY_QUEUE", cls.queue),
            create_tables=_flag(env, "MOTLEY_CREATE_TABLES", "y"),
            auditor_key=env.get("MOTLEY_AUDITOR_KEY", cls.auditor_key),
            rate_limits=env.get("MOTLEY_RATE_LIMITS", cls.rate_limits),
            rate_limit_storage=env.get("MOTLEY_RATE_LIMIT_STORAGE", cls.rate_limit_storage),
            trusted_proxies=_whole(env, "MOTLEY_TRUSTED_PROXIES", cls.trusted_proxies, 0),
            cors_origins=_origins(env.get("MOTLEY_CORS_ORIGINS", cls.cors_origins)),
            metrics_token=env.get("MOTLEY_METRICS_TOKEN", cls.metrics_token),
            random_seed=_whole(env, "MOTLEY_RANDOM_SEED", None),
        )
        # Read by the server (api/wsgi.stream_threads), checked here with the others: `motley migrate` and a
        # one-process serve took MOTLEY_STREAM_THREADS=x without a word (a docs walker's probe).
        _whole(env, "MOTLEY_STREAM_THREADS", None, 1)
        values.update(overrides)
        if values["store"] not in ("sqlite", "postgres"):
            # Checked here, not only when the store is opened: a Celery worker reads its settings at its
            # start but opens the store at its first task, so a typo started a worker that said "ready"
            # and then failed every task it took (an operator probe).
            raise ValueError(f"MOTLEY_STORE must be 'sqlite' or 'postgres', not {values['store']!r}")
        if values["tasks"] not in ("inprocess", "celery"):  # a typo ran every task in the API process
            raise ValueError(f"MOTLEY_TASKS must be 'inprocess' or 'celery', not {values['tasks']!r}")
        if values["tasks"] == "celery":  # kombu's transports; "a;b" lists failover brokers
            from kombu.transport import TRANSPORT_ALIASES
            _schemes("MOTLEY_BROKER_URL", values["broker_url"], TRANSPORT_ALIASES, "amqp://, redis://", ";")
        from limits.storage import SCHEMES
        _schemes("MOTLEY_RATE_LIMIT_STORAGE", values["rate_limit_storage"], SCHEMES, "memory://, redis://")
        if values["auditor_key"] and len(values["auditor_key"]) < AUDITOR_KEY_MIN:
            raise ValueError(f"MOTLEY_AUDITOR_KEY must be at least {AUDITOR_KEY_MIN} characters (it reads every "
                             "match whole), or empty for no auditor")
        return cls(**values)

    def postgres_conninfo(self) -> dict:
        """psycopg.connect's arguments for a connection of its own, outside the pool."""
        return {"host": self.postgres_host, "port": self.postgres_port, "dbname": self.postgres_dbname,
                "user": self.postgres_user, "password": self.postgres_password}

    def eventsourcing_env(self) -> dict:
        """The `eventsourcing` library's environment for the application named "motley"."""
        if self.store == "postgres":
            env = {
                # The library's store, each save one statement (infrastructure/postgres_store.py, issue 16).
                "PERSISTENCE_MODULE": "infrastructure.postgres_store:MotleyPostgresFactory",
                "POSTGRES_HOST": self.postgres_host,
                "POSTGRES_PORT": self.postgres_port,
                "POSTGRES_DBNAME": self.postgres_dbname,
                "POSTGRES_USER": self.postgres_user,
                "POSTGRES_PASSWORD": self.postgres_password,
                "POSTGRES_SCHEMA": self.postgres_schema,
                "POSTGRES_POOL_SIZE": str(self.postgres_pool_size),
                "POSTGRES_MAX_OVERFLOW": "5",
                "POSTGRES_CONNECT_TIMEOUT": str(self.postgres_pool_timeout),
                # No ping before each use (a round trip per checkout): after a failure the database
                # gate checks the pool once, when the database is back (infrastructure/health.py).
                "POSTGRES_PRE_PING": "n",
                "POSTGRES_LOCK_TIMEOUT": "10",
                "POSTGRES_CONN_MAX_AGE": "600",
            }
        elif self.store == "sqlite":  # its folder is made by the composition root, not here
            env = {
                # The library's store, reading records for the replay (infrastructure/record_reads.py).
                "PERSISTENCE_MODULE": "infrastructure.record_reads:MotleySQLiteFactory",
                "SQLITE_DBNAME": self.sqlite_path,
                "SQLITE_LOCK_TIMEOUT": "10",
            }
        else:
            raise ValueError(f"MOTLEY_STORE must be 'sqlite' or 'postgres', not {self.store!r}")
        env["CREATE_TABLE"] = "y" if self.create_tables else "n"
        env.update(self.extra_env)
        return env
