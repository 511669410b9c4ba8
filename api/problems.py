"""The one place that turns every refusal into an RFC 9457 problem document
(``application/problem+json``): service errors, validation errors, malformed JSON, unknown routes."""

from __future__ import annotations

import logging

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

from application import errors

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"

# Service errors, most specific first: (class, HTTP status, problem type slug).
STATUS = [
    (errors.NotFound, 404, "not-found"),
    (errors.Unauthenticated, 401, "unauthenticated"),
    (errors.Forbidden, 403, "forbidden"),
    (errors.IllegalMove, 422, "illegal-move"),
    (errors.InvalidRequest, 422, "invalid-request"),
    (errors.StaleVersion, 409, "stale-version"),
    (errors.NotYourTurn, 409, "not-your-turn"),
    (errors.NoLongerLegal, 409, "move-overtaken"),
    (errors.TimeIsUp, 409, "time-is-up"),
    (errors.Conflict, 409, "conflict"),
    (errors.TooSoon, 429, "too-soon"),
]


def problem(status: int, slug: str, title: str, detail: str, headers=None, **extra) -> Response:
    body = {
        "type": f"urn:motley:problem:{slug}",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": request.path,
    }
    body.update({key: value for key, value in extra.items() if value is not None})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def service_error(error: errors.ServiceError) -> Response:
    for cls, status, slug in STATUS:
        if isinstance(error, cls):
            break
    else:
        status, slug = 400, "bad-request"
    headers = {"WWW-Authenticate": 'Bearer realm="motley"'} if status == 401 else None
    return problem(status, slug, error.title, error.detail, headers=headers, rule=error.rule, **error.extra)


def http_error(error: HTTPException) -> Response:
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    if error.code == 422 and messages is not None:
        # webargs validation: name every wrong, missing or unknown field.
        # Keyed by where the field was sent ("json", "query"), then by field name.
        return problem(422, "validation", "Invalid request body or parameters",
                       "some fields are missing, unknown or of the wrong type", errors=messages)
    if error.code == 400 and (messages is not None or "json" in str(error.description).lower()):
        return problem(400, "malformed-json", "Malformed JSON", "the request body is not valid JSON")
    detail = data.get("message") or error.description or error.name
    return problem(error.code or 500, error.name.lower().replace(" ", "-"), error.name, detail,
                   headers=data.get("headers"))


def internal_error(error: Exception) -> Response:
    log.exception("unhandled error", exc_info=error)
    return problem(500, "internal", "Internal server error", "the server failed; nothing was changed")


def register(app: Flask) -> None:
    app.register_error_handler(errors.ServiceError, service_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, internal_error)
