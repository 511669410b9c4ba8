"""Headers every answer carries, so that caches and browsers never keep or reinterpret what is private.

* ``Cache-Control: no-store`` on answers that may hold a secret: an API key (registration, key
  rotation) or a seat's private view (any request that sent a key). RFC 9111 §5.2.2.5. And on every
  read whose answer depends on who asks, a spectator's too: Chromium kept a spectator's view of a
  match and revalidated it for the seat's own request (If-None-Match with the version, the same for
  every viewer: a 304), so a player who had watched its match as a spectator was shown the spectator's
  view, without its moves. Only the documents, the same for everyone, may be stored.
* ``Vary: Authorization, X-API-Key``: the same URL answers differently for each caller (a seat's
  view, a spectator's), so a shared cache must key on the credentials. RFC 9110 §12.5.5.
* The documents (the games, their rules and schemas, the problem types, the OpenAPI document) are the
  same for every caller and change only with a new release of the service: ``Cache-Control: public,
  max-age=300`` and a strong ``ETag`` (a digest of the body), answered 304 to ``If-None-Match``, and no
  ``Vary`` on the credentials, so a CDN in front of the API keeps one copy for everyone (a spectator
  probe: they had no validator at all, and varied on keys they never read).
* ``X-Content-Type-Options: nosniff``: a JSON answer is never run as a script or page.
* An ``OPTIONS`` request is answered 204 with ``Allow`` (Flask's own answer is an empty text/html 200).
"""

from __future__ import annotations

from flask import Flask, Response, request

from api.keyless import UNKEYED_READS
from application import errors

AUTH_HEADERS = ("Authorization", "X-API-Key")
#: The routes whose answer is a document, the same for every caller until the next release.
DOCUMENTS = {"games.Games", "games.Game", "games.GameSchema", "games.GameRules", "problems.Problems",
             "problems.ProblemType", "api-docs.openapi_json"}
#: How long a cache may keep a document without asking again (a new release changes its ETag).
DOCUMENT_MAX_AGE = 300


def carries_credentials() -> bool:
    return any(request.headers.get(name) for name in AUTH_HEADERS)


def add_headers(response: Response) -> Response:
    if request.method == "OPTIONS" and response.status_code == 200 and not response.get_data():
        # Flask's automatic OPTIONS answer: the Allow header and nothing else, so no content and no
        # text/html type (RFC 9110 §9.3.7, §15.3.5).
        response.status_code = 204
        response.headers.pop("Content-Type", None)
    if response.status_code == 204:
        # No content, so no type: a revoked key's 204 said application/json over an empty body (an
        # OpenAPI probe), which a client that parses by type fails to read.
        response.headers.pop("Content-Type", None)
    response.headers["X-Content-Type-Options"] = "nosniff"
    if request.method in ("GET", "HEAD") and request.endpoint in DOCUMENTS and response.status_code == 200:
        response.add_etag()
        tag = response.get_etag()[0] or ""
        if request.if_match and not request.if_match.star_tag and not request.if_match.contains(tag):
            # A problem, as every refusal is: werkzeug's make_conditional answered 412 with the document
            # itself, cacheable, and to "*" too, though the document exists (a fuzzing probe).
            from api.problems import service_error

            refused = service_error(errors.PreconditionFailed(
                f'the document is not the one of the ETag sent as If-Match: it is "{tag}" now'))
            refused.headers["X-Content-Type-Options"] = "nosniff"  # as on every answer (above)
            return refused
        response.cache_control.public = True
        response.cache_control.max_age = DOCUMENT_MAX_AGE
        # 304 to an If-None-Match that names this ETag (in place); If-Match was answered above.
        response.make_conditional({key: value for key, value in request.environ.items() if key != "HTTP_IF_MATCH"})
        return response
    response.vary.update(AUTH_HEADERS)
    if carries_credentials() or request.method not in ("GET", "HEAD", "OPTIONS") or (
            request.method != "OPTIONS" and request.endpoint not in UNKEYED_READS):
        response.headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask) -> None:
    app.after_request(add_headers)
