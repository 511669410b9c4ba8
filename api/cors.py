"""Cross-origin requests (CORS), so that a game front end served from its own origin calls the API
from the browser: flask-cors answers the preflight and marks every answer, refusals included, with
the origins ``MOTLEY_CORS_ORIGINS`` allows (``*`` by default; empty: none).

Allowing any origin is safe here: a caller is who its key says, sent as a header a page sets itself,
never a cookie the browser would add on its own, so another site's page can act only with a key it
already holds. Credentialed requests (cookies) are not allowed.
"""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

#: Request headers a page may send: the key, a body's type, versions, retries and stream resumption.
ALLOWED = ["Authorization", "X-API-Key", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
           "Last-Event-ID", "X-Request-Id"]
#: Answer headers a page may read (besides the CORS-safelisted ones): every header the API documents.
EXPOSED = ["ETag", "Location", "Motley-Position", "Idempotent-Replayed", "Retry-After", "WWW-Authenticate",
           "X-Request-Id", "Allow", "Content-Disposition"]
#: Seconds a browser may keep a preflight's answer.
MAX_AGE = 600


def origins(setting: str) -> list[str]:
    """``MOTLEY_CORS_ORIGINS``: a comma-separated list of origins, or ``*`` for any."""
    return [origin.strip() for origin in setting.split(",") if origin.strip()]


def register(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    if allowed:
        CORS(app, origins="*" if "*" in allowed else allowed, allow_headers=ALLOWED, expose_headers=EXPOSED,
             max_age=MAX_AGE, supports_credentials=False)
