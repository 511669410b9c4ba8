"""Liveness (``/health``) and readiness (``/ready``), and the fast 503 while the database is away.

``/health`` answers as long as the process does (a load balancer must not restart a healthy process
because its database is down); ``/ready`` names each dependency and answers 503 when one of them
cannot be reached, saying which. While the database gate (``infrastructure.health``) knows the
database is away, every other request is refused at once with 503 and ``Retry-After``: no request
thread waits for a pool that cannot give a connection.
"""

from __future__ import annotations

from flask import Flask, request
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.context import container
from api.problems import RETRY_AFTER_UNAVAILABLE
from api.schemas import Blueprint
from application import errors
from infrastructure.health import position_within

#: How long liveness waits for a pooled connection to read the log's position (else it says null).
HEALTH_WAIT_SECONDS = 0.5

blp = Blueprint("health", __name__, description="Liveness and readiness of the service")

#: Endpoints answered even while the database is away (none of them reads it).
ALWAYS = {"health.Health", "health.Ready", "games.Games", "games.Game", "games.GameRules", "api-docs.openapi_json",
          "docs", "docs_static", "index", "static"}


class HealthOut(Schema):
    status = fields.String(metadata={"description": "ok: the process answers"})
    position = fields.Integer(allow_none=True,
                              metadata={"description": "The event log's position; null while the database is "
                                                       "away, or every pooled connection is busy (for 0.5 s)"})


class ReadyOut(Schema):
    status = fields.String(validate=validate.OneOf(["ready", "degraded"]), metadata={
        "description": "ready, or degraded: the broker is away (writes succeed, their tasks wait in the "
                       "process; the read models lag until it returns). Alert on it"})
    dependencies = fields.Dict(keys=fields.String(), values=fields.String(),
                               metadata={"description": "Each dependency (database, tables, broker) and its state: "
                                                        "ok, or why it cannot be reached"})


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthOut)
    def get(self):
        """Liveness: 200 while the process answers, whatever its dependencies do."""
        motley = container()
        position = None
        if motley.gate is None or motley.gate.down() is None:
            try:
                position = position_within(motley.app, HEALTH_WAIT_SECONDS)
            except Exception:  # noqa: BLE001 - the database dropped (found by this read first), tables missing...
                position = None  # liveness says the process answers; /ready says what is wrong
        return {"status": "ok", "position": position}


@blp.route("/ready")
class Ready(MethodView):
    @blp.response(200, ReadyOut)
    def get(self):
        """Readiness: 503 naming what cannot be reached when the service cannot serve without it (the
        database, its tables); 200 otherwise, ``degraded`` while the broker is away (writes are kept in
        the process's outbox and sent when it returns; the read models wait)."""
        dependencies = container().dependencies
        report = dependencies.report()
        down = {name for name, reason in report.items() if reason is not None}
        states = {name: reason or "ok" for name, reason in report.items()}
        if down - set(dependencies.optional):
            raise errors.Unavailable(f"cannot reach: {', '.join(sorted(down))}", retry_after=RETRY_AFTER_UNAVAILABLE,
                                     dependencies=states)
        return {"status": "degraded" if down else "ready", "dependencies": states}


def refuse_while_the_database_is_away() -> None:
    gate = getattr(container(), "gate", None)
    # A preflight (OPTIONS) needs no database: refused, a browser showed a CORS failure, and the page never
    # read the 503 and its Retry-After.
    if gate is None or request.endpoint in ALWAYS or request.method == "OPTIONS":
        return
    reason = gate.down()
    if reason is not None:
        raise errors.Unavailable("the database cannot be reached now; nothing was changed",
                                 retry_after=RETRY_AFTER_UNAVAILABLE)


def register(app: Flask) -> None:
    app.before_request(refuse_while_the_database_is_away)
