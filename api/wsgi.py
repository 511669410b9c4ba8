"""The WSGI entry for several API processes: ``gunicorn api.wsgi:app`` (settings: ./gunicorn.conf.py), or
``motley serve --processes N``, which runs the same gunicorn with the same settings.

The application is built after the fork, in each worker process, the first time ``app`` is looked up
(gunicorn does that as the worker starts, never in the master unless ``preload_app`` is set, which the
settings here refuse): each process has its own connection pools, as the eventsourcing library needs
(a pool that crossed a fork broke the parent's connections). The master only creates the tables, once,
before it forks (``motley serve``), so that workers never race to create them.
"""

from __future__ import annotations

import glob
import logging
import os
import signal
import tempfile
import threading
import time
from typing import Any, Optional

_lock = threading.Lock()
_app: Any = None
_pid: Optional[int] = None

LOG_CONFIG = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "api.request_log.JsonFormatter"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
    "root": {"level": "INFO", "handlers": ["stderr"]},
    "loggers": {"gunicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False}},
}


def create():
    """This process's Flask app around its own container (``infrastructure.composition.build``)."""
    global _app, _pid
    with _lock:
        if _app is None or _pid != os.getpid():
            from api import create_app
            from api.rates import STREAM_SLOTS
            from infrastructure.composition import build_when_reachable

            container = build_when_reachable(sleep=waiting_to_boot)
            container.start()  # the sweep: work a previous run left (idempotent, whichever process sends it)
            _app, _pid = create_app(container), os.getpid()
            # gunicorn runs streams on the process's own threads: they may take this many of them, the
            # rest answer every other request (gunicorn_options gives the process both).
            _app.config[STREAM_SLOTS] = stream_threads()
        return _app


def __getattr__(name: str) -> Any:  # ``api.wsgi:app``: built when first looked up, in the worker
    if name == "app":
        return create()
    raise AttributeError(name)


# -- gunicorn ------------------------------------------------------------------------------------------
def on_starting(server) -> None:
    """In the master, before any worker: a folder for the workers' metric files (prometheus_client's
    multiprocess mode; api/metrics.py), claimed for this server and emptied of a previous run's."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        folder = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="motley-metrics-")
    claim_metrics_folder(folder)


#: This process's hold on its metrics folder (an open file locked with flock), once claimed.
_metrics_claim: Optional[int] = None
METRICS_LOCK = "motley.lock"


def claim_metrics_folder(folder: str, empty: bool = True) -> None:
    """Hold ``folder`` for this server while it runs, and (``empty``) empty it of a previous run's metric
    files: a gunicorn master does, before any worker writes one; a one-process server has its own open
    already, which it must not lose, and keeps the rest as before. A
    second server started on the same folder (another port, a canary, or a start that then failed)
    emptied it under the running one, whose counters then read 0 for good, and a one-process server
    there added its counts to the other's (an operator probe): now it is refused, in one line, before it
    binds its port or touches a file. The hold is an exclusive ``flock`` on ``motley.lock`` in the folder:
    the system lets it go when the master and every worker that inherited it have ended, a kill -9
    included, so a stale lock never stops a restart."""
    global _metrics_claim
    if _metrics_claim is not None:
        return
    import fcntl

    try:
        os.makedirs(folder, exist_ok=True)
        held = os.open(os.path.join(folder, METRICS_LOCK), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:  # a file, a folder it may not write: named, not "[Errno 17] File exists"
        raise RuntimeError(f"PROMETHEUS_MULTIPROC_DIR {folder} cannot hold the metrics: "
                           f"{error.strerror or error}") from None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(held)
        raise RuntimeError(f"PROMETHEUS_MULTIPROC_DIR {folder} is in use by another running Motley server: give "
                           "each server a folder of its own (this one would empty it, and both servers' counts "
                           "would be added together)") from None
    _metrics_claim = held
    for stale in glob.glob(os.path.join(folder, "*.db")) if empty else ():
        os.remove(stale)


def post_fork(server, worker) -> None:
    global _worker
    _worker = worker
    logging.getLogger("motley.wsgi").info("worker %s started", os.getpid())


_worker: Any = None  # this process's gunicorn worker, once forked


def waiting_to_boot(seconds: float) -> None:
    """A pause of a worker that waits for the store to boot: it tells the master it is alive (else, past
    its 60 s timeout, the master killed it and started another), and a SIGTERM meanwhile ends the wait
    (else the master waited its whole graceful timeout, then killed it)."""
    time.sleep(seconds)
    if _worker is not None:
        if not _worker.alive:
            raise SystemExit(0)
        _worker.notify()


def post_worker_init(worker) -> None:
    """On SIGTERM (this worker alone, or the whole tier), end the open streams before gunicorn's
    drain: gthread waits for every request thread, and a stream's lasts up to its ``seconds``."""
    stops = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame) -> None:
        from api.context import stop_streams

        app = _app if _pid == os.getpid() else None
        stop_streams(None if app is None else getattr(app.extensions["motley"], "watcher", None))
        if callable(stops):
            stops(signum, frame)

    signal.signal(signal.SIGTERM, on_term)
    signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn has it: a SIGTERM interrupts no request's system call


def worker_exit(server, worker) -> None:
    """In the worker, once it has stopped serving: its container closed, so a projection still due is
    sent and tasks the broker never took are named in the log (CeleryTaskQueue.close). Nothing closed it:
    a worker stopped with the broker away dropped its outbox without a word (an operator probe)."""
    app = _app if _pid == os.getpid() else None
    if app is not None:
        try:
            app.extensions["motley"].close()
        except Exception:  # the process is ending: say so, never keep it from exiting
            logging.getLogger("motley.wsgi").exception("closing worker %s", os.getpid())


def child_exit(server, worker) -> None:
    """A worker's live gauges go with it (its counters stay summed in)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def stream_threads() -> int:
    """The threads each process keeps for streams and waiting reads (``MOTLEY_STREAM_THREADS``)."""
    raw = os.environ.get("MOTLEY_STREAM_THREADS", str(DEFAULT_STREAM_THREADS))
    try:
        threads = int(raw)
    except ValueError:
        threads = -1
    if threads < 1:  # named: "invalid literal for int()" named no variable, after "Motley on ..." was said
        raise ValueError(f"MOTLEY_STREAM_THREADS must be a whole number, at least 1, not {raw!r}")
    return threads


#: Threads per gunicorn process for streams and waiting reads, beside the request threads.
DEFAULT_STREAM_THREADS = 200


def gunicorn_options(processes: int = 2, threads: int = 8, bind: str = "127.0.0.1:8000",
                     streams: Optional[int] = None) -> dict:
    """The settings of ./gunicorn.conf.py and of ``motley serve --processes N``. A stream holds one of
    gthread's threads while it is open: each process gets ``threads`` for requests plus ``streams``
    (``MOTLEY_STREAM_THREADS``) that streams may take, and no more (api/rates.py answers 503 past them),
    so 16 open streams no longer leave 8 threads nothing to answer the rest with."""
    streams = stream_threads() if streams is None else streams
    os.environ["MOTLEY_STREAM_THREADS"] = str(streams)  # for the workers' apps, forked from here
    return {
        "wsgi_app": "api.wsgi:app",
        "bind": bind,
        "workers": processes,
        "worker_class": "gthread",  # threads per process: a stream holds one while it is open
        "threads": threads + streams,
        "worker_connections": max(1000, 2 * (threads + streams)),
        "preload_app": False,  # never build the application before the fork
        "keepalive": 75,
        "timeout": 60,
        "graceful_timeout": 10,
        "control_socket_disable": True,  # gunicorn 24+: no shared ~/.gunicorn socket between instances
        "accesslog": None,  # api/request_log.py writes one JSON access line per request instead
        "logconfig_dict": LOG_CONFIG,
        "on_starting": on_starting,
        "post_fork": post_fork,
        "post_worker_init": post_worker_init,
        "worker_exit": worker_exit,
        "child_exit": child_exit,
    }


def serve(processes: int, threads: int, host: str, port: int, streams: Optional[int] = None) -> None:
    """Run gunicorn in this process as the master of ``processes`` workers."""
    from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

    options = gunicorn_options(processes, threads, f"{host}:{port}", streams)

    class Gunicorn(BaseApplication):
        def load_config(self) -> None:
            for key, value in options.items():
                if key in self.cfg.settings:  # a setting this gunicorn does not know is left out
                    self.cfg.set(key, value)

        def load(self):
            return create()

    Gunicorn().run()
