"""The one place that turns every refusal into an RFC 9457 problem document
(``application/problem+json``): service errors, validation errors, malformed JSON, unknown routes.

A service refusal carries its own answer (status, type, title: the table in ``application.errors``);
this module only renders it. Anything unexpected is a 500 that says nothing was changed, except a
database or broker that cannot be reached, which is a 503 with ``Retry-After``.
"""

from __future__ import annotations

import logging
import math
from functools import cache
from typing import Optional
from urllib.parse import quote

from eventsourcing.persistence import InterfaceError, OperationalError
from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

from api.limits import MalformedJSON
from application import errors
from infrastructure.health import DatabaseAway, StoreLocked

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
#: Seconds a client waits before retrying after a 503 (the database or the broker is away).
RETRY_AFTER_UNAVAILABLE = 2


def problem(status: int, slug: str, title: str, detail: str, headers: Optional[dict] = None, **extra) -> Response:
    body = {
        "type": f"urn:motley:problem:{slug}",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": instance(),
    }
    body.update({key: value for key, value in extra.items() if value is not None})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def instance() -> str:
    """The request's path as it was written, a URI reference (RFC 9457 §3.1.5): the decoded path of
    /matches/a%20b%3Fc%23d read "/matches/a b?c#d", another path, a query and a fragment, and re-encoding
    it made /matches/a%2Fb "/matches/a/b". The server's raw request target where it gives one."""
    raw = request.environ.get("REQUEST_URI") or request.environ.get("RAW_URI")
    if isinstance(raw, str) and raw.startswith("/"):
        return raw.split("?", 1)[0].split("#", 1)[0]
    return quote(request.path, safe="/:@!$&'()*+,;=~")


def service_error(error: errors.ServiceError) -> Response:
    headers = dict(error.headers)
    retry_after = error.extra.get("retry_after", error.retry_after)
    if retry_after is not None:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return problem(error.status, error.slug, error.title, error.detail, headers=headers, rule=error.rule,
                   **error.extra)


def http_error(error: HTTPException) -> Response:
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    if error.code == 422 and messages is not None:
        # webargs validation: name every wrong, missing or unknown field.
        # Keyed by where the field was sent ("json", "query"), then by field name.
        return problem(422, "validation", "Invalid request body or parameters",
                       "some fields are missing, unknown or of the wrong type", errors=messages)
    if isinstance(error, MalformedJSON):  # our own reading of the body (api/limits.py) says what is wrong
        return problem(400, "malformed-json", "Malformed JSON", str(error.description))
    if error.code == 400 and (messages is not None or "json" in str(error.description).lower()):
        return problem(400, "malformed-json", "Malformed JSON", "the request body is not valid JSON")
    if error.code == 413:
        return service_error(errors.TooLarge(
            f"the request body is larger than {request.max_content_length} bytes"))
    headers = dict(data.get("headers") or {})
    valid_methods = getattr(error, "valid_methods", None)
    if error.code == 405 and valid_methods:  # RFC 9110 §15.5.6: a 405 names the allowed methods
        headers["Allow"] = ", ".join(sorted(valid_methods))
    detail = data.get("message") or error.description or error.name
    # werkzeug's own words ("If you entered the URL manually please check your spelling") told a client
    # nothing about this API (a bot-author probe): what was asked, and where the paths are listed.
    if error.code == 404 and not data.get("message"):
        detail = f"no path {instance()} in this API (GET /openapi.json lists every path)"
    elif error.code == 405 and not data.get("message") and valid_methods:
        detail = f"{request.method} is not allowed on {instance()}; it allows {headers['Allow']}"
    slug = error.name.lower().replace(" ", "-")
    return problem(error.code or 500, slug, titles().get(slug, error.name), detail, headers=headers)


@cache
def titles() -> dict[str, str]:
    """Each problem type's one title, as the service's refusals give it: an unknown route's 404 was
    titled "Not Found" (werkzeug's) and an unknown id's "Not found", for one type."""
    found: dict[str, str] = {}
    pending = [errors.ServiceError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if getattr(cls, "slug", None) and getattr(cls, "title", None):
            found.setdefault(cls.slug, cls.title)
    return found


def unavailable(error: Exception) -> Response:
    """The event store could not be reached (an outage, a full pool): nothing was saved."""
    log.warning("the event store is unavailable: %s", error)
    return service_error(errors.Unavailable("the database cannot be reached now; nothing was changed",
                                            retry_after=RETRY_AFTER_UNAVAILABLE))


def missing_table(error: BaseException) -> bool:
    """Whether ``error`` (or what it wraps: the library re-raises psycopg's and sqlite3's errors as its own)
    says a table does not exist: PostgreSQL's undefined_table (42P01), SQLite's "no such table"."""
    seen: set[int] = set()
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if getattr(current, "sqlstate", None) == "42P01" or "no such table" in str(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def internal_error(error: Exception) -> Response:
    if isinstance(error, StoreLocked):  # reachable, but held: say so, not "cannot be reached"
        log.warning("a save found the event store locked: %s", error)
        return service_error(errors.Unavailable(f"the event store is busy ({error}); nothing was changed",
                                                retry_after=RETRY_AFTER_UNAVAILABLE))
    if isinstance(error, (OperationalError, InterfaceError, DatabaseAway)):
        return unavailable(error)
    if missing_table(error):  # a deployment that skipped `motley migrate` (a docs probe: a 500 `internal`)
        log.error("a table is missing (%s): run motley migrate", error)
        return service_error(errors.Unavailable("the service's tables are missing: its operator must run "
                                                "motley migrate; nothing was changed",
                                                retry_after=RETRY_AFTER_UNAVAILABLE))
    log.exception("unhandled error", exc_info=error)
    return problem(500, "internal", "Internal server error", "the server failed; nothing was changed")


def register(app: Flask) -> None:
    app.register_error_handler(errors.ServiceError, service_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, internal_error)
