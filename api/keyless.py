"""The routes that never read a credential: a key sent to them is neither tried nor refused."""

from __future__ import annotations

from flask import request

#: The one write anybody may send without a key: registering.
KEYLESS_WRITES = {"players.Players"}


#: Reads that never look at a credential: liveness, readiness, metrics, the documents and the page.
UNKEYED_READS = {"health.Health", "health.Ready", "metrics.Metrics", "games.Games", "games.Game",
                 "games.GameSchema", "games.GameRules",  # the rules page too: a revoked key was a 401 there
                 "problems.Problems", "problems.ProblemType",  # documents as the games are
                 "api-docs.openapi_json", "docs", "docs_static", "index", "static", "web.index", "web.asset"}


def tries_key() -> bool:
    """Whether this request's key, if it sent one, is tried: not for a path with no route or without
    the method (their 404 or 405 says more), a preflight, or a route that reads none."""
    return request.url_rule is not None and request.method != "OPTIONS" and not reads_no_key()


def reads_no_key() -> bool:
    """Whether this request's route ignores any key it carries (README: the documents, /games, /problems
    and the health routes never look at it; registering neither)."""
    if request.method in ("GET", "HEAD"):
        return request.endpoint in UNKEYED_READS
    return request.endpoint in KEYLESS_WRITES
