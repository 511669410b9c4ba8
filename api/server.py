"""The embedded WSGI server: waitress, with the long-lived requests on threads of their own (issue 12).

A stream (``.../stream``, up to a day) or a read that waits for a read model (``?after=``, up to 5 s)
holds the thread that serves it. On waitress's one pool of ``threads``, eight open streams took every
thread and even ``GET /games`` stalled. Here waitress hands each request to one of two pools when it
has been read: the long-lived ones to a pool of ``stream_threads`` (idle threads cost little: a stream
sleeps on the log watcher, application/log_watcher.py), everything else to the ``threads`` that no
stream can take. api/rates.py still caps each client at a few long-lived requests at once.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ThreadedTaskDispatcher

from api.rates import STREAM_SLOTS

#: Threads for streams and waiting reads, beside the request threads.
STREAM_THREADS = 600


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
        self.long_lived.set_thread_count(stream_threads)

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


class InlineFlushChannel(HTTPChannel):
    """waitress's channel, which the main loop leaves alone while a task thread is writing to it.

    With ``send_bytes`` 1 (waitress's default) a task thread sends what it writes itself, holding the
    channel's ``outbuf_lock``, and wakes the main loop (``pull_trigger``) only when the socket took
    less than all of it. waitress's ``writable()`` is true as soon as the data is queued, so a main
    loop woken by anything else in that moment polls the socket as writable, fails to take the lock,
    and polls again: under load (one stream push for every seat on every move, and the GIL making the
    writer wait for its turn) this loop took ~17 spins a move and 13 % of the server's CPU (issue 16).
    """

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
    if hasattr(app, "config"):  # a Flask app: more long-lived requests than threads for them are a 503 (api/rates.py)
        app.config[STREAM_SLOTS] = stream_threads
    server = create_server(app, host=host, port=port, threads=threads,
                         _dispatcher=SplitDispatcher(threads, stream_threads),
                         # More connections than waitress's default 100: each open stream is one.
                         connection_limit=max(100, stream_threads + 4 * threads),
                         # Keep reading a connection while its request runs, so that a client that
                         # closes it is seen at once (environ's waitress.client_disconnected): a stream
                         # a page left ends at its next wait (api/context.stream_waits) instead of
                         # holding its slot until a write fails, two heartbeats later.
                         channel_request_lookahead=1)
    server.channel_class = InlineFlushChannel
    return server
