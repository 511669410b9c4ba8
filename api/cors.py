"""Cross-origin requests (CORS), so that a game front end served from its own origin calls the API
from the browser: flask-cors answers the preflight and marks every answer, refusals included, with
the origins ``MOTLEY_CORS_ORIGINS`` allows (``*`` by default; empty: none).

Allowing any origin is safe here: a caller is who its key says, sent as a header a page sets itself,
never a cookie the browser would add on its own, so another site's page can act only with a key it
already holds. Credentialed requests (cookies) are not allowed.
"""

from __future__ import annotations

import re

from flask import Flask, Response
from flask_cors import CORS

#: Request headers a page may send: the key, a body's type, versions, retries and stream resumption.
ALLOWED = ["Authorization", "X-API-Key", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
           "Last-Event-ID", "X-Request-Id"]
#: Answer headers a page may read (besides the CORS-safelisted ones): every header the API documents.
EXPOSED = ["ETag", "Location", "Motley-Position", "Idempotent-Replayed", "Retry-After", "WWW-Authenticate",
           "X-Request-Id", "Allow", "Content-Disposition", "Date"]  # Date: the page's clock against the server's
#: Seconds a browser may keep a preflight's answer.
MAX_AGE = 600


def origins(setting: str) -> list[str]:
    """``MOTLEY_CORS_ORIGINS``: a comma-separated list of origins (each exactly, no patterns), or ``*``."""
    return [origin.strip() for origin in setting.split(",") if origin.strip()]


def register(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    if allowed:
        # Each origin exactly: flask-cors reads a string holding "*", "?" or "^" as a pattern that only
        # has to match an origin's start ("https://*.play.example" let in https://xplay.example.evil.net).
        # As patterns of their own, escaped and anchored, they also make it answer Vary: Origin.
        exact = "*" if "*" in allowed else [re.compile(re.escape(origin) + r"\Z") for origin in allowed]
        # The methods the API has: flask-cors advertises PUT and PATCH too by default, which no route takes.
        CORS(app, origins=exact, allow_headers=ALLOWED, expose_headers=EXPOSED, max_age=MAX_AGE,
             methods=["GET", "HEAD", "POST", "DELETE", "OPTIONS"], supports_credentials=False)
        if exact != "*":  # the answer depends on the origin, a refused one's too: a cache must key on it
            app.after_request(vary_on_origin)


def vary_on_origin(response: Response) -> Response:
    response.vary.add("Origin")
    return response
