"""Prometheus metrics at ``GET /metrics`` (text format 0.0.4).

* ``motley_http_request_duration_seconds{method, route}``: request latency by route, the Flask URL
  rule (``/matches/<match_id>/moves``), never the raw path; ``motley_http_requests_total{method,
  route, status}``.
* ``motley_http_request_cpu_seconds_total{method, route}``: the CPU time of the threads that served
  the route's requests: the application's work and the server's writes of the answer, a stream's
  whole life included (``CpuByRoute``), not the server's reading of the request on its main loop.
  Divided by ``motley_moves_total`` it says where a move's CPU goes (bench/http_moves.py prints it).
* ``motley_moves_total``: moves applied (201 answers to POST /matches/{id}/moves that are not an
  idempotent replay); ``motley_moves_refused_total{status}``.
* ``motley_saves_total`` and ``motley_events_saved_total``: saves to the event store and the events
  they held (counted at the recorder, so every save of this process is seen, whoever made it).
* ``motley_log_position``, ``motley_projection_position{read_model}`` and
  ``motley_projection_lag_events{read_model}``: the log's last notification id, each read model's
  tracked position and the difference, read when scraped (two ``max()`` selects,
  as ``application.freshness`` reads them).
* ``motley_task_queue_depth{queue}``: tasks waiting, read when scraped: the broker queue's message
  count (Celery) or the in-process queue's length, and tasks held in the outbox while the broker is
  away (``queue="outbox"``: every API process's, summed; ``motley_task_outbox`` is the same gauge,
  which each process sets as its outbox changes).

Under gunicorn the counters are multiprocess-safe: with ``PROMETHEUS_MULTIPROC_DIR`` set (gunicorn.conf.py
does it) every worker writes its own files and a scrape of any worker sums them all. That variable must be
set before ``prometheus_client`` is first imported, so this module imports it only when an app is built
(after the fork).
"""

from __future__ import annotations

import hmac
import os
import threading
import time
from typing import Any, Optional

from flask import Flask, Response, current_app, g, request
from flask.views import MethodView

from api import health, request_log
from api.schemas import Blueprint
from application import errors
from infrastructure.task_queues import computers_queue_name

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
MOVES_ENDPOINT = "matches.Moves"
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

blp = Blueprint("metrics", __name__, description="Operational metrics (Prometheus)")

_lock = threading.Lock()
_instruments: Optional[dict] = None


def instruments() -> dict:
    """The process's metric objects, made once (after any fork: see the module's docstring)."""
    global _instruments
    with _lock:
        if _instruments is None:
            from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics

            disable_created_metrics()  # no *_created series: they double the lines and no dashboard reads them
            registry = CollectorRegistry(auto_describe=True)
            _instruments = {
                "registry": registry,
                "latency": Histogram("motley_http_request_duration_seconds", "Request latency by route",
                                     ["method", "route"], buckets=BUCKETS, registry=registry),
                "requests": Counter("motley_http_requests", "Requests answered, by route and status",
                                    ["method", "route", "status"], registry=registry),
                "cpu": Counter("motley_http_request_cpu_seconds",
                               "CPU seconds of the threads serving the route's requests (streams whole)",
                               ["method", "route"], registry=registry),
                "moves": Counter("motley_moves", "Moves applied (not counting idempotent replays)",
                                 registry=registry),
                "refused": Counter("motley_moves_refused", "Moves refused, by status", ["status"],
                                   registry=registry),
                "saves": Counter("motley_saves", "Saves to the event store", registry=registry),
                "events": Counter("motley_events_saved", "Events stored by those saves", registry=registry),
                # Set by each process as its outbox changes; under gunicorn a scrape sums the live ones.
                "outbox": Gauge("motley_task_outbox", "Tasks kept in the outbox while the broker is away",
                                multiprocess_mode="livesum", registry=registry),
            }
        return _instruments


#: The answer to a scrape without the operator's metrics token, when one is set.
TOKEN_MISSING = {
    "description": "The operator set a metrics token (MOTLEY_METRICS_TOKEN) and the scrape did not send it as "
                   "its bearer token",
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    "headers": {"WWW-Authenticate": {"description": "The scheme to authenticate with", "schema": {"type": "string"}}},
}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(responses={"200": {"description": "The metrics in the Prometheus text format (version 0.0.4)",
                                "content": {"text/plain": {"schema": {"type": "string"}}}},
                        "401": TOKEN_MISSING})
    def get(self):
        """Prometheus metrics: request latency by route, moves, saves, projection lag, task queue depth.
        With ``MOTLEY_METRICS_TOKEN`` set, only a scrape that sends it as its bearer token is answered."""
        container = current_app.extensions["motley"]
        token = container.settings.metrics_token
        if token:
            check_scraper(token)
        return Response(exposition(container), content_type=CONTENT_TYPE)


def check_scraper(token: str) -> None:
    """A scrape sends the operator's metrics token as its bearer token (the scheme in any case, as for a
    key). A wrong one is a guess, counted and limited with the address's wrong keys (``auth_failures``):
    uncounted, the token could be guessed at /metrics without end (a review). A scrape that sends no
    credential at all guesses nothing and is not counted, as a request with no key (api/rates.py): 30
    of them (a scraper not yet given the token, a health check) locked every key of the address out."""
    from api.rates import address

    rates = current_app.extensions.get("motley.rates")
    credential = request.headers.get("Authorization", "")
    counted = rates if credential.strip() else None
    if counted is not None:
        counted.refuse_if_spent("auth_failures", address())
    scheme, _, sent = credential.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(sent.strip().encode(), token.encode()):
        if counted is not None:
            counted.take("auth_failures", address())
            g.auth_failure_counted = True  # counted here, not again for its 401 (api/rates.py)
        raise errors.Unauthenticated("/metrics needs the metrics token (MOTLEY_METRICS_TOKEN) as its bearer token")


def exposition(container: Any) -> bytes:
    from prometheus_client import CollectorRegistry, generate_latest

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        merged = CollectorRegistry()
        multiprocess.MultiProcessCollector(merged)
        counters = generate_latest(merged)
    else:
        merged = instruments()["registry"]
        counters = generate_latest(merged)
    # Every process's outbox, summed: the outbox of the process that answered the scrape alone jumped
    # from scrape to scrape between the processes' counts and never showed the total.
    outbox = sum(sample.value for family in merged.collect() if family.name == "motley_task_outbox"
                 for sample in family.samples)
    state = CollectorRegistry(auto_describe=False)
    state.register(StateCollector(container, int(outbox)))
    return counters + generate_latest(state)


class StateCollector:
    """What is read when scraped rather than counted: positions, lag and queue depth. A part that
    cannot be read now (the database or the broker away) is left out rather than failing the scrape."""

    def __init__(self, container: Any, outbox: int = 0):
        self.container, self.outbox = container, outbox

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily

        app = self.container.app
        try:
            log_position = app.log_position()
        except Exception:
            log_position = None
        if log_position is not None:
            yield GaugeMetricFamily("motley_log_position", "The event log's last notification id", value=log_position)
            positions = GaugeMetricFamily("motley_projection_position", "A read model's tracked position",
                                          labels=["read_model"])
            lag = GaugeMetricFamily("motley_projection_lag_events",
                                    "Notifications in the log that a read model has not applied yet",
                                    labels=["read_model"])
            for name, view in (("match_list", getattr(self.container, "match_list", None)),
                               ("league", getattr(self.container, "league_view", None))):
                try:
                    tracked = view.position(app.name) if view is not None else None
                except Exception:
                    tracked = None
                if tracked is not None:
                    positions.add_metric([name], tracked)
                    lag.add_metric([name], max(0, log_position - tracked))
            yield positions
            yield lag
        depth = GaugeMetricFamily("motley_task_queue_depth", "Tasks waiting to run", labels=["queue"])
        for queue, count in queue_depths(self.container, self.outbox):
            depth.add_metric([queue], count)
        yield depth


_broker_cache: dict = {}


def queue_depths(container: Any, outbox: int = 0) -> list[tuple[str, int]]:
    """The tasks waiting in each queue; ``outbox`` is every API process's outbox, summed."""
    tasks = getattr(container, "tasks", None)
    depths: list[tuple[str, int]] = []
    lanes = getattr(tasks, "depths", None)
    if callable(lanes):  # the in-process queue (infrastructure.task_queues.InProcessTaskQueue)
        depths.extend(lanes())
    if isinstance(getattr(tasks, "waiting", None), int):  # the Celery queue's outbox: saved while the broker was away
        depths.append(("outbox", outbox))
    settings: Any = getattr(container, "settings", None)
    if getattr(settings, "tasks", None) == "celery":
        for queue in (settings.queue, computers_queue_name(settings.queue)):  # the computers' lane too
            count = broker_depth(settings.broker_url, queue)
            if count is not None:
                depths.append((queue, count))
    return depths


def broker_depth(url: str, queue: str, ttl: float = 5.0) -> Optional[int]:
    """The broker queue's message count (a passive declare), at most once every ``ttl`` seconds."""
    cached = _broker_cache.get((url, queue))
    if cached is not None and time.monotonic() - cached[0] < ttl:
        return cached[1]
    count: Optional[int] = None
    try:
        from kombu import Connection

        with Connection(url, connect_timeout=1) as connection:
            count = connection.default_channel.queue_declare(queue=queue, passive=True).message_count
    except Exception:
        count = None
    _broker_cache[(url, queue)] = (time.monotonic(), count)
    return count


def count_saves(container: Any) -> None:
    """Count every save at the application's recorder (once per container)."""
    recorder = getattr(getattr(container, "app", None), "recorder", None)
    if recorder is None or getattr(recorder, "_motley_counted", False):
        return
    insert_events = recorder.insert_events
    metric = instruments()

    def counted(stored_events, **kwargs):
        result = insert_events(stored_events, **kwargs)
        metric["saves"].inc()
        metric["events"].inc(len(stored_events))
        return result

    recorder.insert_events = counted
    recorder._motley_counted = True


def _observe(response: Response) -> Response:
    started = g.get("started")
    if started is None:
        return response
    metric = instruments()
    route = request_log.route_label()
    # Any token is a method on the wire: a label per one would let anyone grow the series without bound.
    method = request.method if request.method in KNOWN_METHODS else "other"
    request.environ[ROUTE_KEY] = (method, route)  # for CpuByRoute, once the answer is sent
    metric["latency"].labels(method, route).observe(time.perf_counter() - started)
    metric["requests"].labels(method, route, str(response.status_code)).inc()
    if request.endpoint == MOVES_ENDPOINT and request.method == "POST":
        if response.status_code == 201 and "Idempotent-Replayed" not in response.headers:
            metric["moves"].inc()
        elif response.status_code >= 400:
            metric["refused"].labels(str(response.status_code)).inc()
    return response


ROUTE_KEY = "motley.route"
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class CpuByRoute:
    """WSGI middleware counting each request's CPU time (``time.thread_time`` of the thread serving
    it) by route: the application's call, then every step of its answer's iteration, the server's
    writes between them included, which for a stream is its whole life. Counted when the server
    closes the answer, under the route ``_observe`` recorded (a request Flask never answered: none)."""

    def __init__(self, wsgi_app: Any):
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict, start_response: Any) -> Any:
        started = time.thread_time()
        answer = self.wsgi_app(environ, start_response)
        spent = time.thread_time() - started
        wrapper = environ.get("wsgi.file_wrapper")
        if wrapper is not None and isinstance(wrapper, type) and isinstance(answer, wrapper):
            _count_cpu(environ, spent)  # a file the server sends itself: leave it unwrapped
            return answer
        return _CountedAnswer(answer, environ, spent)


class _CountedAnswer:
    def __init__(self, answer: Any, environ: dict, spent: float):
        self.answer, self.environ, self.spent = answer, environ, spent

    def __iter__(self) -> Any:
        chunks = iter(self.answer)
        thread_time = time.thread_time
        while True:
            started = thread_time()
            try:
                chunk = next(chunks)
            except StopIteration:
                self.spent += thread_time() - started
                return
            self.spent += thread_time() - started
            resumed = thread_time()
            yield chunk
            self.spent += thread_time() - resumed  # the server writing the chunk on this thread

    def close(self) -> None:
        try:
            close = getattr(self.answer, "close", None)
            if close is not None:
                started = time.thread_time()
                close()
                self.spent += time.thread_time() - started
        finally:
            _count_cpu(self.environ, self.spent)


def _count_cpu(environ: dict, spent: float) -> None:
    route = environ.get(ROUTE_KEY)
    if route is not None:
        instruments()["cpu"].labels(*route).inc(max(0.0, spent))


def register(app: Flask, api: Any) -> None:
    """The request ids and JSON access lines (api/request_log.py), the metrics and ``/metrics``."""
    request_log.register(app)  # first among the before_request functions: it also starts the clock
    metric = instruments()
    count_saves(app.extensions.get("motley"))
    watchers = getattr(getattr(app.extensions.get("motley"), "tasks", None), "outbox_watchers", None)
    if isinstance(watchers, list):
        watchers.append(metric["outbox"].set)
    api.register_blueprint(blp)
    health.ALWAYS.add("metrics.Metrics")  # scraped while the database is away too (the lag is left out)
    app.after_request(_observe)
    app.wsgi_app = CpuByRoute(app.wsgi_app)  # type: ignore[method-assign]
