"""Structured logs: one JSON object a line, each carrying the request id of the request it belongs to.

Every request gets an id: the caller's ``X-Request-Id`` when it is a plausible one (1 to 128 visible
ASCII characters), else a new one. The answer echoes it in ``X-Request-Id``; every log record made
while the request runs carries it as ``request_id``; and one access line per request (logger
``motley.access``) says what was asked, by which route (the URL rule, not the raw path), the status
and the time taken. ``configure()`` makes the process's logs JSON (``motley serve``, gunicorn).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from datetime import datetime, timezone
from typing import Any, Optional

from flask import Flask, Response, g, has_request_context, request

HEADER = "X-Request-Id"
MAX_LENGTH = 128
access_log = logging.getLogger("motley.access")

#: What a LogRecord holds by itself: everything else on a record came as ``extra`` and is logged.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}


def plausible(value: Optional[str]) -> bool:
    return bool(value) and len(value) <= MAX_LENGTH and all(33 <= ord(c) <= 126 for c in value)  # type: ignore


def request_id() -> Optional[str]:
    """The id of the request being answered (None outside a request)."""
    return g.get("request_id") if has_request_context() else None


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON: time, level, logger, message, request_id, pid and any extras."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        rid = getattr(record, "request_id", None) or request_id()
        if rid:
            line["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _STANDARD:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure(level: int = logging.INFO) -> None:
    """The process's logs as JSON lines on standard error (replacing any earlier root handlers)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def _start() -> None:
    g.started = time.perf_counter()
    incoming = request.headers.get(HEADER)
    g.request_id = incoming if plausible(incoming) else uuid.uuid4().hex


def _finish(response: Response) -> Response:
    rid = g.get("request_id")
    if rid is None:  # a request refused before ours ran (no before_request of ours): give it one now
        rid = g.request_id = uuid.uuid4().hex
    response.headers[HEADER] = rid
    if access_log.isEnabledFor(logging.INFO):
        started = g.get("started")
        rule = route_label()
        access_log.info(
            "%s %s %s", request.method, rule, response.status_code,
            extra={"method": request.method, "route": rule, "path": request.path, "status": response.status_code,
                   "duration_ms": None if started is None else round((time.perf_counter() - started) * 1000, 3),
                   "remote": request.remote_addr},
        )
    return response


def register(app: Flask) -> None:
    """Give every request an id and log it; call before any other before_request is registered, so
    that a request refused early (413, 503) still has its id and its access line."""
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    app.after_request(_finish)


def route_label() -> str:
    """The request's route as metrics and access lines name it: the rule, but ``/matches/<match_id>`` for
    the converter that keeps ``/matches/import`` apart (it renamed the route ``/matches/<match_id:match_id>``
    and a dashboard on the old label went quiet; the other converters' labels stay as they were);
    "unmatched" for no route."""
    if request.url_rule is None:
        return "unmatched"
    return request.url_rule.rule.replace("<match_id:match_id>", "<match_id>")
