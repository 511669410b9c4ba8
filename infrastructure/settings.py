"""Settings, read once from the environment. The defaults run Motley embedded: a SQLite file for the
event store and the read models, and the workers' tasks in a thread of the same process."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Optional


def _flag(value: str) -> bool:
    return value.strip().lower() in ("1", "y", "yes", "t", "true", "on")


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
            postgres_port=env.get("MOTLEY_POSTGRES_PORT", cls.postgres_port),
            postgres_dbname=env.get("MOTLEY_POSTGRES_DBNAME", cls.postgres_dbname),
            postgres_user=env.get("MOTLEY_POSTGRES_USER", cls.postgres_user),
            postgres_password=env.get("MOTLEY_POSTGRES_PASSWORD", cls.postgres_password),
            postgres_schema=env.get("MOTLEY_POSTGRES_SCHEMA", cls.postgres_schema),
            postgres_pool_size=int(env.get("MOTLEY_POSTGRES_POOL_SIZE", cls.postgres_pool_size)),
            postgres_pool_timeout=int(env.get("MOTLEY_POSTGRES_POOL_TIMEOUT", cls.postgres_pool_timeout)),
            tasks=env.get("MOTLEY_TASKS", cls.tasks),
            broker_url=env.get("MOTLEY_BROKER_URL", cls.broker_url),
            queue=env.get("MOTLEY_QUEUE", cls.queue),
            create_tables=_flag(env.get("MOTLEY_CREATE_TABLES", "y")),
            auditor_key=env.get("MOTLEY_AUDITOR_KEY", cls.auditor_key),
            rate_limits=env.get("MOTLEY_RATE_LIMITS", cls.rate_limits),
            rate_limit_storage=env.get("MOTLEY_RATE_LIMIT_STORAGE", cls.rate_limit_storage),
            trusted_proxies=int(env.get("MOTLEY_TRUSTED_PROXIES", cls.trusted_proxies)),
            cors_origins=env.get("MOTLEY_CORS_ORIGINS", cls.cors_origins),
            metrics_token=env.get("MOTLEY_METRICS_TOKEN", cls.metrics_token),
            random_seed=int(env["MOTLEY_RANDOM_SEED"]) if env.get("MOTLEY_RANDOM_SEED") else None,
        )
        values.update(overrides)
        if values["tasks"] not in ("inprocess", "celery"):  # a typo ran every task in the API process
            raise ValueError(f"MOTLEY_TASKS must be 'inprocess' or 'celery', not {values['tasks']!r}")
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
