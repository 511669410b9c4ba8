"""The problem types (``urn:motley:problem:<slug>``), each documented (issue 13): GET /problems lists
them and GET /problems/{slug} says what one means, from the refusal classes' own docstrings and the
API's own answers; docs/problems.md is the same catalogue for reading."""

from __future__ import annotations

import inspect

from flask.views import MethodView

from api import schemas
from api.schemas import Blueprint
from application import errors
from application import history as _history  # noqa: F401  (its refusal class joins the catalogue)

blp = Blueprint("problems", __name__, url_prefix="/problems", description="What each problem type means")

#: The problems the API itself answers with (api/problems.py), besides the service's refusals.
API_PROBLEMS = [
    ("malformed-json", 400, "Malformed JSON", "The request body is not valid JSON."),
    ("validation", 422, "Invalid request body or parameters",
     "A field is unknown, missing, of the wrong type or out of range; `errors` names each, by location and field."),
    ("method-not-allowed", 405, "Method Not Allowed",
     "The path does not take this method; `Allow` lists those it does."),
    ("internal", 500, "Internal server error", "The server failed; nothing was changed. Retry later."),
    # The HTTP server's own (api/server.py WAITRESS_PROBLEMS), answered before the request reaches the API.
    ("headers-too-large", 431, "Request header fields too large",
     "The request's line and headers are larger than the server reads (256 KiB); nothing was read."),
    ("not-implemented", 501, "Not implemented",
     "The request's Transfer-Encoding is one the server does not implement (only chunked is; RFC 9112 §6.1); "
     "nothing was read."),
]


def _refusals(cls: type[errors.ServiceError]) -> list[type[errors.ServiceError]]:
    found = [cls]
    for sub in cls.__subclasses__():
        found.extend(_refusals(sub))
    return found


def catalogue() -> list[dict]:
    entries: dict[str, dict] = {}
    for refusal in _refusals(errors.ServiceError):
        if refusal.slug not in entries:
            doc = inspect.getdoc(refusal) if refusal.__doc__ else None
            entries[refusal.slug] = {"status": refusal.status, "title": refusal.title,
                                     "description": doc or refusal.title}
    for slug, status, title, description in API_PROBLEMS:
        entries.setdefault(slug, {"status": status, "title": title, "description": description})
    return [{"type": f"urn:motley:problem:{slug}", "slug": slug, **entry,
             "documentation": f"docs/problems.md#{slug}"} for slug, entry in sorted(entries.items())]


@blp.route("")
class Problems(MethodView):
    @blp.response(200, schemas.ProblemTypeOut(many=True))
    def get(self):
        """Every problem type an answer may carry, with its status and meaning."""
        return catalogue()


@blp.route("/<slug>")
class ProblemType(MethodView):
    @blp.response(200, schemas.ProblemTypeOut)
    def get(self, slug):
        """What the problem type ``urn:motley:problem:<slug>`` means."""
        for entry in catalogue():
            if entry["slug"] == slug:
                return entry
        raise errors.NotFound(f"no problem type {slug!r}", types=[e["slug"] for e in catalogue()])
