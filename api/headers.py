"""Headers every answer carries, so that caches and browsers never keep or reinterpret what is private.

* ``Cache-Control: no-store`` on answers that may hold a secret: an API key (registration, key
  rotation) or a seat's private view (any request that sent a key). RFC 9111 §5.2.2.5.
* ``Vary: Authorization, X-API-Key``: the same URL answers differently for each caller (a seat's
  view, a spectator's), so a shared cache must key on the credentials. RFC 9110 §12.5.5.
* ``X-Content-Type-Options: nosniff``: a JSON answer is never run as a script or page.
* An ``OPTIONS`` request is answered 204 with ``Allow`` (Flask's own answer is an empty text/html 200).
"""

from __future__ import annotations

from flask import Flask, Response, request

AUTH_HEADERS = ("Authorization", "X-API-Key")


def carries_credentials() -> bool:
    return any(request.headers.get(name) for name in AUTH_HEADERS)


def add_headers(response: Response) -> Response:
    if request.method == "OPTIONS" and response.status_code == 200 and not response.get_data():
        # Flask's automatic OPTIONS answer: the Allow header and nothing else, so no content and no
        # text/html type (RFC 9110 §9.3.7, §15.3.5).
        response.status_code = 204
        response.headers.pop("Content-Type", None)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.vary.update(AUTH_HEADERS)
    if carries_credentials() or request.method not in ("GET", "HEAD", "OPTIONS"):
        response.headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask) -> None:
    app.after_request(add_headers)
