"""The embedded WSGI server: waitress, with the long-lived requests on threads of their own (issue 12).

A stream (``.../stream``, up to a day) or a read that waits for a read model (``?after=``, up to 5 s)
holds the thread that serves it. On waitress's one pool of ``threads``, eight open streams took every
thread and even ``GET /games`` stalled. Here waitress hands each request to one of two pools when it
has been read: the long-lived ones to a pool of ``stream_threads`` (idle threads cost little: a stream
sleeps on the log watcher, application/log_watcher.py), everything else to the ``threads`` that no
stream can take. api/rates.py still caps each client at a few long-lived requests at once.

What waitress refuses on its own (a body past the largest the app reads, headers too large, a request
it cannot parse, an application that failed before answering) is a problem document too
(``ProblemErrorTask``), as every refusal of the app is (api/problems.py).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask, ThreadedTaskDispatcher

from api import TRUSTED_PROXIES
from api.audit import IMPORT_MAX_BYTES
from api.limits import MAX_BODY_BYTES
from api.problems import PROBLEM_JSON
from api.rates import STREAM_SLOTS
from application import errors

#: Threads for streams and waiting reads, beside the request threads.
STREAM_THREADS = 600
#: Threads of the long-lived pool beyond its slots (api/rates.py STREAM_SLOTS): the app answers a stream
#: past the slots 503 (Retry-After), but only once a thread of this pool runs it. With exactly as many
#: threads as slots, every slot taken meant every thread taken: the next stream waited in waitress's
#: queue, unanswered, until one ended (up to a day), and the 503 was never sent. The spare threads run
#: those refusals (a few milliseconds each), and cover the moment a finished stream has given its slot
#: back but not yet its thread.
SPARE_STREAM_THREADS = 4

#: The problem types of waitress's own refusals (any other is RFC 9457's ``about:blank``, titled with the
#: status's reason phrase): by status, (slug, title); api/catalogue.py lists them.
WAITRESS_PROBLEMS = {
    400: (errors.BadRequest.slug, errors.BadRequest.title),
    413: (errors.TooLarge.slug, errors.TooLarge.title),
    431: ("headers-too-large", "Request header fields too large"),
    500: ("internal", "Internal server error"),  # as api/problems.internal_error answers
    501: ("not-implemented", "Not implemented"),
}


def is_long_lived(path: str, method: str, query: str) -> bool:
    """The requests api/rates.py counts as holding a thread (``holds_a_thread``), from the raw request."""
    if path.endswith("/stream"):
        return True
    # HEAD runs the GET view, its wait included: it is as long-lived as the GET.
    return method in ("GET", "HEAD") and "after" in parse_qs(query or "") and not path.endswith("/events")


class SplitDispatcher(ThreadedTaskDispatcher):
    """waitress's dispatcher, sending long-lived requests to a second pool of threads."""

    def __init__(self, threads: int, stream_threads: int):
        super().__init__()
        self.set_thread_count(threads)
        self.long_lived = ThreadedTaskDispatcher()
        self.long_lived.set_thread_count(stream_threads + SPARE_STREAM_THREADS)

    def add_task(self, task: Any) -> None:
        # The task is waitress's channel; its first request is the one it will serve now.
        requests = getattr(task, "requests", None) or []
        request = requests[0] if requests else None
        # A request waitress could not parse has no path (its 400 is answered by the request threads):
        # reading it raised here, and the connection was left hung with no answer.
        if (request is not None and not getattr(request, "error", None)
                and is_long_lived(getattr(request, "path", "") or "", getattr(request, "command", "") or "",
                                  getattr(request, "query", "") or "")):
            self.long_lived.add_task(task)
        else:
            super().add_task(task)

    def shutdown(self, cancel_pending: bool = True, timeout: int = 5) -> bool:
        self.long_lived.shutdown(cancel_pending, timeout)
        return super().shutdown(cancel_pending, timeout)


def waitress_problem(error: Any, path: Any = None) -> dict:
    """The problem document for one of waitress's own refusals (``waitress.utilities.Error``)."""
    status = int(error.code)
    known = WAITRESS_PROBLEMS.get(status)
    detail = str(error.body or error.reason)
    if status == 413:  # waitress names its limit, one past the largest body read (an import's)
        # The route's own limit: "larger than 33554432 bytes" to a route that reads 64 KiB at most.
        limit = IMPORT_MAX_BYTES if isinstance(path, str) and path.rstrip("/") == "/matches/import" else MAX_BODY_BYTES
        detail = f"the request body is larger than {limit} bytes, the most this route reads"
    problem = {
        "type": f"urn:motley:problem:{known[0]}" if known else "about:blank",
        "title": known[1] if known else str(error.reason),
        "status": status,
        "detail": detail,
    }
    # Headers too large: waitress stops reading and parses "GET /" in the request line's place, so the
    # path it holds is not the request's (an instance of "/" for a request to /matches).
    if isinstance(path, str) and path and status != 431:
        problem["instance"] = path
    return problem


class ProblemErrorTask(ErrorTask):
    """waitress's error answer (its status, and the connection closed after it), as a problem document
    instead of text/plain."""

    def execute(self) -> None:
        error = self.request.error
        body = json.dumps(waitress_problem(error, getattr(self.request, "path", None))).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", PROBLEM_JSON))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class InlineFlushChannel(HTTPChannel):
    """waitress's channel, which the main loop leaves alone while a task thread is writing to it.

    With ``send_bytes`` 1 (waitress's default) a task thread sends what it writes itself, holding the
    channel's ``outbuf_lock``, and wakes the main loop (``pull_trigger``) only when the socket took
    less than all of it. waitress's ``writable()`` is true as soon as the data is queued, so a main
    loop woken by anything else in that moment polls the socket as writable, fails to take the lock,
    and polls again: under load (one stream push for every seat on every move, and the GIL making the
    writer wait for its turn) this loop took ~17 spins a move and 13 % of the server's CPU (issue 16).

    Its error answers are problem documents (``ProblemErrorTask``).
    """

    error_task_class = ProblemErrorTask

    def writable(self) -> bool:
        if self.requests and not (self.will_close or self.close_when_flushed):
            # A task runs: if its thread holds the lock it is sending, and pulls the trigger if it
            # leaves anything; if it waits on the lock (the high watermark), the lock is free.
            if not self.outbuf_lock.acquire(False):
                return False
            self.outbuf_lock.release()
        return bool(super().writable())

    def write_soon(self, data: Any) -> int:
        written = super().write_soon(data)
        if self.total_outbufs_len:
            # The socket took less than all of it: the trigger waitress pulled may have found the lock
            # still held (writable() above false), so wake the main loop again now that it is free.
            self.server.pull_trigger()
        return written


def make_server(app: Any, host: str, port: int, threads: int = 8, stream_threads: int = STREAM_THREADS) -> Any:
    """A waitress server for ``app`` (call ``.run()``), its long-lived requests on their own threads."""
    config = getattr(app, "config", None)
    if config is not None:  # a Flask app: more long-lived requests than threads for them are a 503 (api/rates.py)
        config[STREAM_SLOTS] = stream_threads
    # Behind trusted proxies the app reads the client's address from X-Forwarded-For (werkzeug's ProxyFix,
    # api/__init__.py): waitress must pass the X-Forwarded-* headers on instead of removing them, as it
    # does by default. Without trusted proxies it still removes them, and ProxyFix is not installed.
    proxies = int(config.get(TRUSTED_PROXIES, 0) or 0) if config is not None else 0
    server = create_server(app, host=host, port=port, threads=threads,
                         _dispatcher=SplitDispatcher(threads, stream_threads),
                         clear_untrusted_proxy_headers=not proxies,
                         # Refuse (413) a body past the largest the app reads (an import) as soon as its
                         # Content-Length is read, instead of spooling up to waitress's 1 GiB first.
                         # waitress refuses a body of max_request_body_size bytes or more: one past it.
                         max_request_body_size=IMPORT_MAX_BYTES + 1,
                         # More connections than waitress's default 100: each open stream is one.
                         connection_limit=max(100, stream_threads + 4 * threads),
                         # Keep reading a connection while its request runs, so that a client that
                         # closes it is seen at once (environ's waitress.client_disconnected): a stream
                         # a page left ends at its next wait (api/context.stream_waits) instead of
                         # holding its slot until a write fails, two heartbeats later.
                         channel_request_lookahead=1)
    server.channel_class = InlineFlushChannel
    return server
