"""Every answer the API tests receive is checked against the service's own OpenAPI document
(openapi-core): its status is documented for the operation, and its media type, body and documented
headers are as the document says. Paths and methods the document does not list (the 404 and 405
answers to them) are checked by the client only to be problem documents.

An answer is checked each time for the first FULL answers of its operation and status (and, for a
refusal, its problem type) in a test process, then one in EVERY: openapi-core took two thirds of the
time of the tests that play many matches through the API (test_secrets, profiled), for the thousandth
answer of a shape already checked; after successes were sampled so, the refusals checked every time (a
Tumult Royale seat's cooldown 429s, a move racing a timer's 409s) still took a third of test_secrets'
time. MOTLEY_CHECK_EVERY_ANSWER=1 checks them all."""

from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import dataclass
from typing import Any

from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIResponse
from openapi_core.datatypes import RequestParameters
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from werkzeug.datastructures import Headers, ImmutableMultiDict

_parsed: dict[str, OpenAPI] = {}  # by the document's text: every test's app serves the same one, and
# openapi-core's parse and its validators, built once per document, cost a platform test 0.2 s each
_lock = threading.Lock()
_KEY = "tests.openapi_document"
FULL, EVERY = 30, 5
_answered: dict[tuple[str, str, int, str], int] = {}
_ALL = os.environ.get("MOTLEY_CHECK_EVERY_ANSWER", "") not in ("", "0")
_IDS = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(?<=/)\d+(?=/|$)")


def _sampled_out(method: str, path: str, status: int, problem: str = "") -> bool:
    """Whether this answer is left unchecked: its operation, status and problem type were checked FULL
    times, and it is not the EVERYth since."""
    if _ALL:
        return False
    key = (method, _IDS.sub("{}", path), status, problem)
    with _lock:
        count = _answered[key] = _answered.get(key, 0) + 1
    return count > FULL and count % EVERY != 0


@dataclass
class AnsweredRequest:
    """The openapi-core view of a request already answered (its body was read by the view)."""

    host_url: str
    path: str
    method: str
    parameters: RequestParameters
    content_type: str = "application/json"
    body: bytes = b""


def document_of(flask_app) -> OpenAPI:
    with _lock:
        if _KEY not in flask_app.extensions:  # kept on the app: an id() may be reused by a later app
            text = flask_app.test_client().get("/openapi.json").get_data(as_text=True)
            if text not in _parsed:
                config = Config(extra_media_type_deserializers={"application/problem+json": json.loads})
                _parsed[text] = OpenAPI.from_dict(json.loads(text), config=config)
            flask_app.extensions[_KEY] = _parsed[text]
        return flask_app.extensions[_KEY]


def check_answer(flask_app, response: Any) -> None:
    """Raise AssertionError if ``response`` (a Flask test response) does not match the document."""
    request = response.request
    if request.path in ("/openapi.json", "/docs") or request.path.startswith("/docs/"):
        return
    problem = ""
    if response.status_code >= 400:  # each kind of refusal of an operation is counted on its own
        body = response.get_json(silent=True)
        problem = str(body.get("type", "")) if isinstance(body, dict) else ""
    if _sampled_out(request.method, request.path, response.status_code, problem):
        return
    answered = AnsweredRequest(
        host_url=request.host_url, path=request.path, method=request.method.lower(),
        parameters=RequestParameters(query=ImmutableMultiDict(request.args), header=Headers(request.headers),
                                     cookie=ImmutableMultiDict(request.cookies)),
        content_type=request.mimetype or "application/json",
    )
    try:
        document_of(flask_app).validate_response(answered, WerkzeugOpenAPIResponse(response))
    except (PathNotFound, OperationNotFound):
        return
    except Exception as error:
        detail = [f"{type(error).__name__}: {error}"]
        for inner in getattr(error, "schema_errors", None) or [getattr(error, "__cause__", None)]:
            if inner is not None:
                detail.append(f"{type(inner).__name__}: {getattr(inner, 'message', inner)}")
                for deeper in getattr(inner, "schema_errors", None) or []:
                    detail.append(str(getattr(deeper, "message", deeper)))
        raise AssertionError(f"{request.method} {request.full_path} answered {response.status_code} not as "
                             f"documented: {' | '.join(detail)}\n{response.get_data(as_text=True)[:300]}") from None
