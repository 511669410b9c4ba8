"""The web client for people (issue 15): static files served at ``/``, built on the public JSON API only.

No build step and nothing loaded from outside the machine: ES modules, a stylesheet and an inline-SVG
chart under ``api/web/`` (shipped as package data). The pages call the same endpoints an integrator
would, so they are also the reference client. Not part of the OpenAPI document: a plain Flask blueprint.
"""

from __future__ import annotations

import os

from flask import Blueprint, send_from_directory

WEB_ROOT = os.path.join(os.path.dirname(__file__), "web")

blp = Blueprint("web", __name__)

#: The page loads only its own files, runs no inline script or style, and is framed by nobody. Any
#: script running on this origin could read the API keys the page keeps (the auditor's included), so
#: nothing but these files may run; framing would let another site overlay its own clicks (the join
#: link's button). A hostile-input probe found no injection; this keeps one from mattering.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


@blp.after_request
def page_headers(response):
    response.headers.update(PAGE_HEADERS)
    return response


@blp.get("/")
def index():
    # The single page; it routes by the URL fragment (#/match/<id>, #/replay/<id>, ...), so one file serves all.
    return send_from_directory(WEB_ROOT, "index.html", max_age=0)


@blp.get("/web/<path:name>")
def asset(name: str):
    return send_from_directory(WEB_ROOT, name, max_age=0)
