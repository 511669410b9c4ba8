"""The HTTP API: a Flask app factory with one blueprint per resource and one error map."""

from __future__ import annotations

import os
from typing import Optional

import flask_swagger_ui
from flask import Flask, send_from_directory
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from api import (
    audit,
    catalogue,
    cors,
    games,
    headers,
    health,
    leaderboards,
    lifecycle,
    limits,
    matches,
    me,
    metrics,
    openapi,
    players,
    problems,
    rates,
    stream_schemas,
    tournaments,
    web,
)

#: app.config key: how many proxies in front of the app are trusted (``MOTLEY_TRUSTED_PROXIES``). The
#: server reads it (api/server.make_server): waitress must then pass X-Forwarded-* on to ProxyFix below.
TRUSTED_PROXIES = "MOTLEY_TRUSTED_PROXIES"

SWAGGER_DIST = os.path.join(os.path.dirname(flask_swagger_ui.__file__), "dist")

DOCS_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Motley API</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>"""
#: Its start, a file of its own: the page runs no inline script (DOCS_HEADERS).
DOCS_INIT = 'SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui"});\n'
#: The API's docs share the web client's origin, whose stored keys (the auditor's too) any script of the
#: origin could read: they run their own files only, and are framed by nobody (a security probe: the page
#: ran an inline script and could be framed). Swagger UI sets style attributes: those are allowed.
DOCS_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


class MotleyApi(Api):
    def handle_http_exception(self, error):  # every error answers as a problem document
        return problems.http_error(error)

    def _register_responses(self):  # and is documented as one (application/problem+json)
        openapi.register_problem_responses(self.spec)


def create_app(motley=None, config: Optional[dict] = None) -> Flask:
    """Build the Flask app around a composition-root container (``infrastructure.composition``)."""
    if motley is None:
        from infrastructure.composition import build

        motley = build()
    app = Flask("motley")
    # A doubled slash is a path the API has not (a 404 problem), not werkzeug's 308 to the merged path:
    # an HTML body, a Location built from the client's Host, and for //matches one naming the host
    # "matches" (a security probe). Set before any rule is added: each rule binds it as it is added.
    app.url_map.merge_slashes = False
    app.config.update(
        API_TITLE="Motley",
        API_VERSION="1.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        JSON_SORT_KEYS=False,
    )
    app.config.update(config or {})
    assert isinstance(app.json, DefaultJSONProvider)
    app.json.sort_keys = False  # keep the schemas' field order: id and status first, not alphabetical
    app.extensions["motley"] = motley
    api = MotleyApi(app, spec_kwargs={"info": {"description": "Jester-and-royalty games as event-sourced matches."},
                                      "extra_plugins": [openapi.MotleyDocs()]})
    api.ma_plugin.converter.add_attribute_function(openapi.nullable_reference)
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    api.spec.components.security_scheme("apiKey", {"type": "apiKey", "in": "header", "name": "X-API-Key"})
    api.spec.components.security_scheme("metricsToken", {
        "type": "http", "scheme": "bearer",
        "description": "The operator's MOTLEY_METRICS_TOKEN, asked of a scrape of /metrics only when it is set"})
    app.url_map.converters["match_id"] = matches.MatchIdConverter
    api.register_converter(matches.MatchIdConverter, matches.match_id_schema)
    for blueprint in (me.blp, players.blp, games.blp, matches.blp, lifecycle.blp, audit.blp, tournaments.blp,
                      leaderboards.blp, catalogue.blp):
        api.register_blueprint(blueprint)
    api.register_blueprint(health.blp)
    stream_schemas.register(api.spec)  # the streams' frames: x-sse-events (api/stream_schemas.py)
    metrics.register(app, api)  # request ids, JSON access lines and /metrics: first to see each request
    problems.register(app)
    audit.register(app)  # before the body limits: an import may be larger
    health.register(app)  # first: while the database is away, nothing else runs
    limits.register(app)
    settings = getattr(motley, "settings", None)
    app.extensions["motley.rates"] = rates.register(
        app, getattr(settings, "rate_limits", ""), getattr(settings, "rate_limit_storage", "memory://"),
        rates.namespace_of(settings))
    headers.register(app)
    cors.register(app, getattr(settings, "cors_origins", "*"))
    proxies = int(getattr(settings, "trusted_proxies", 0) or 0)
    app.config[TRUSTED_PROXIES] = proxies
    if proxies:  # the client's address (and scheme and host) as the trusted proxies forwarded them
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]

    @app.get("/docs")
    def docs():
        return DOCS_PAGE, 200, DOCS_HEADERS

    @app.get("/docs/init.js")
    def docs_init():
        return DOCS_INIT, 200, {"Content-Type": "text/javascript; charset=utf-8", **DOCS_HEADERS}

    @app.get("/docs/static/<path:name>")
    def docs_static(name):
        answer = send_from_directory(SWAGGER_DIST, name)
        answer.headers.update(DOCS_HEADERS)
        return answer

    app.register_blueprint(web.blp)  # the web client at / (api/web.py)

    return app
