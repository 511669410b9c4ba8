"""The OpenAPI document tells the truth about the service: every refusal is documented as the
``application/problem+json`` it is, each operation states its security requirement, its possible
errors and the headers it reads and sends.

Two pieces, both through the libraries' own extension points: ``ProblemResponses`` replaces
flask-smorest's default error responses (``application/json`` with its own schema) by problem
documents, and ``MotleyDocs`` is an apispec plugin that completes each operation as it is added, and
writes every summary and description for /docs (Swagger UI, which renders Markdown): a docstring's
reStructuredText literals (``total``, two back-ticks) as Markdown's (one), and an operation's summary (the
docstring's first paragraph, as flask-smorest takes it) as its first sentence, the rest opening the
description.
"""

from __future__ import annotations

import http
import re
from typing import Any

from apispec import BasePlugin
from marshmallow import Schema, fields

from api.limits import MAX_IDEMPOTENCY_KEY, MAX_IF_MATCH_TAGS

PROBLEM_JSON = "application/problem+json"


class Problem(Schema):
    """An RFC 9457 problem document."""

    class Meta:
        unknown = "include"

    type = fields.String(required=True, metadata={"description": "urn:motley:problem:<slug>"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(metadata={"description": "The request path"})
    rule = fields.String(allow_none=True, metadata={"description": "The rule a refused move or option breaks"})
    errors = fields.Dict(metadata={"description": "422 validation, or a tournament option refused (points of "
                                                  "the wrong length...): the wrong fields, by location and name"})
    # The members some refusals add (docs/problems.md): named, so a client generated from this document
    # reads them (they were sent, and undeclared: a spec-driven client's probe).
    current_version = fields.Integer(metadata={"description": "409 stale-version, 412: the match's version now "
                                                              "(on a tournament's write, the tournament's)"})
    retry_after = fields.Float(metadata={"description": "429 and 503: seconds to wait (a game's cooldown's exactly; "
                                                        "the Retry-After header rounds it up)"})
    limit = fields.String(metadata={"description": "429 rate-limited: the limit reached (held_requests: the streams "
                                                  "and waiting reads a client may hold)"})
    dependencies = fields.Dict(metadata={"description": "503 of GET /ready: each dependency, ok or why not"})
    line = fields.Integer(metadata={"description": "422 of an import: the history's line refused (0: the whole)"})
    reason = fields.String(metadata={"description": "422 of an import: why that line was refused"})
    games = fields.List(fields.String(), metadata={"description": "404 or 422 for an unknown game: the games"})
    rules_versions = fields.List(fields.String(), metadata={
        "description": "404 for an unknown rules version: the game's rules versions"})
    types = fields.List(fields.String(), metadata={"description": "404 for an unknown problem type: the slugs"})


HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {"description": 'The match version of this answer, as "<version>", or "<version>.<forks>" for a '
                            "view that lists forks (a fork changes the view, not the version); a rewound read "
                            '(?version=) as "<version>.<forks>.<latest version>" (the view of an earlier version '
                            "changes as the match goes on: it is revealed at the end); each followed by its "
                            'reader\'s mark, "-<12 hex digits of your player id>" or "-auditor" (none without a '
                            "key: views differ by reader); send it back as If-Match (its version counts) or "
                            "If-None-Match",
             "schema": {"type": "string", "pattern": r'^"[0-9]+(\.[0-9]+){0,2}(-([0-9a-f]{12}|auditor))?"$'}},
    "ETag (events)": {"description": "The match version the page was read at, the page's window (the versions "
                                     "after `after` up to its last), `m` where more follow (`more`), else `e`, "
                                     'and the reader\'s mark, as "<version>.<after>.<last>e" ("12.0.12e", '
                                     '"12.5.10m-3f2a9c01b7d4", '
                                     '"12.0.12e-auditor"); send it back as If-None-Match with the same page: 304 '
                                     "while the match is at its version (another page's tag is another page's); "
                                     "as If-Match, its version counts",
                      "schema": {"type": "string",
                                 "pattern": r'^"[0-9]+\.[0-9]+\.[0-9]+[em](-([0-9a-f]{12}|auditor))?"$'}},
    "ETag (read model)": {"description": "This page's place in the event log: the match list's position "
                                         '("list-<position>", "list-<position>-own" for a page holding your '
                                         'unlisted matches), the position of the league read model\'s last '
                                         'change ("board-<position>", '
                                         '"ratings-<position>", "tournaments-<position>"), the standings\' '
                                         '("standings-<position>.<tournament version>"), a profile\'s '
                                         '("profile-<league change>.<digest of its recent matches>"), or a '
                                         'tournament\'s version ("tournament-<version>"); send it back as '
                                         "If-None-Match: 304 while it has not moved",
                          "schema": {"type": "string",
                                     "pattern": r'^"((list|ratings)-[0-9]+(-own)?|(board|tournaments|tournament)-[0-9]+'
                                                r'|standings-[0-9]+\.[0-9]+|profile-[0-9]+\.[0-9a-f]{12}(-own)?)"$'}},
    "ETag (document)": {"description": "A digest of this document, the same for every caller until a new release: "
                                       "send it back as If-None-Match: 304 while it is unchanged",
                        "schema": {"type": "string", "pattern": '^"[0-9a-f]{40}"$'}},
    "Cache-Control (document)": {"description": "public, max-age=300: the same for everyone, a cache (a CDN, a "
                                                "browser) may keep it 5 minutes, then ask again with If-None-Match",
                                 "schema": {"type": "string", "enum": ["public, max-age=300"]}},
    "Motley-Position": {"description": "The event log position at or past this write; pass it as ?after= to "
                                       "read your own write in a read model", "schema": {"type": "string",
                                                                                        "pattern": "^[0-9]+$"}},
    "Idempotent-Replayed": {"description": "true: this answer repeats the first answer to this Idempotency-Key",
                            "schema": {"type": "string", "enum": ["true"]}},
    "Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "string",
                                                                                   "pattern": "^[0-9]+$"}},
    "WWW-Authenticate": {"description": "The scheme to authenticate with", "schema": {"type": "string"}},
    # api/request_log.py: every answer carries it, and every log line of the request (quote it in a report)
    "X-Request-Id": {"description": "This request's id: the one the request sent when it is 1 to 128 visible "
                                    "ASCII characters, else a new one; the service's logs of it carry it",
                     "schema": {"type": "string", "pattern": r"^[\x21-\x7e]{1,128}$"}},
    "Location": {"description": "The path of the match this write created", "schema": {"type": "string"}},
    "Location (tournament)": {"description": "The path of the tournament this write created",
                              "schema": {"type": "string"}},
    "Location (report)": {"description": "The path of the sanction's report, with `after` set to this write's "
                                         "Motley-Position: read at once, it waits for the workers to compute it",
                          "schema": {"type": "string"}},
    "Location (player)": {"description": "The path of the player's profile", "schema": {"type": "string"}},
    "Location (joined)": {"description": "The path of the match whose seat this write took",
                          "schema": {"type": "string"}},
    "Location (move)": {"description": "The path of the match at the version this move left it "
                                       "(`/matches/{id}?version=N`)", "schema": {"type": "string"}},
    "Location (registered)": {"description": "The path of the tournament this write registered the caller in",
                              "schema": {"type": "string"}},
    "Location (key)": {"description": "The path of the new key (DELETE revokes it)", "schema": {"type": "string"}},
}

#: Request headers the service reads, by (method, path).
#: One of a match read's ETags, as If-Match takes it (api/limits.py ETAG), and a list of up to 16.
_TAG = r'(W/)?"?[0-9]{1,9}((\.[0-9]{1,9}){0,2}|(\.[0-9]{1,9}){2}[em])(-[0-9a-z]{1,12})?"?'
IF_MATCH_PATTERN = rf"^(\*|{_TAG}( *, *{_TAG}){{0,{MAX_IF_MATCH_TAGS - 1}}})$"
#: On a tournament's write, its read's ETag too (api/limits.py TOURNAMENT_ETAG).
_TOURNAMENT_TAG = rf'({_TAG}|(W/)?"?tournament-[0-9]{{1,9}}"?)'
TOURNAMENT_IF_MATCH_PATTERN = rf"^(\*|{_TOURNAMENT_TAG}( *, *{_TOURNAMENT_TAG}){{0,{MAX_IF_MATCH_TAGS - 1}}})$"
#: On a read model's page, its own ETag too (api/limits.py PAGE_ETAG); on a document, its digest (DOCUMENT_ETAG).
_PAGE_TAG = rf'({_TAG}|(W/)?"[a-z]{{4,11}}-[0-9]{{1,18}}(\.[0-9a-f]{{1,12}})?(-own)?")'
PAGE_IF_MATCH_PATTERN = rf"^(\*|{_PAGE_TAG}( *, *{_PAGE_TAG}){{0,{MAX_IF_MATCH_TAGS - 1}}})$"
_DOCUMENT_TAG = rf'({_TAG}|(W/)?"[\x21\x23-\x7e]*")'
DOCUMENT_IF_MATCH_PATTERN = rf"^(\*|{_DOCUMENT_TAG}( *, *{_DOCUMENT_TAG}){{0,{MAX_IF_MATCH_TAGS - 1}}})$"
REQUEST_HEADERS = {
    "If-None-Match": {"in": "header", "name": "If-None-Match", "required": False,
                      "description": 'The ETag of your last read ("12"): 304 while the match is at it',
                      "schema": {"type": "string"}},
    "If-None-Match (events)": {"in": "header", "name": "If-None-Match", "required": False,
                               "description": 'The ETag of your last read of this page ("12.0.12e"): 304 while '
                                              "the match is at its version (another page's tag is not this "
                                              "page's)", "schema": {"type": "string"}},
    "If-None-Match (read model)": {"in": "header", "name": "If-None-Match", "required": False,
                                   "description": 'The ETag of your last read of this page ("list-120"): 304 '
                                                  "while it has not moved", "schema": {"type": "string"}},
    "If-None-Match (document)": {"in": "header", "name": "If-None-Match", "required": False,
                                 "description": "The ETag of your last read of this document: 304 while it is "
                                                "unchanged", "schema": {"type": "string"}},
    "If-Match (document)": {"in": "header", "name": "If-Match", "required": False,
                            "description": 'The ETag of this document you read before, or "*": a 412 if the '
                                           "document is another now (api/headers.py)",
                            "schema": {"type": "string", "pattern": DOCUMENT_IF_MATCH_PATTERN}},
    "If-Match (page)": {"in": "header", "name": "If-Match", "required": False,
                        "description": 'The ETag of the page you read before ("board-96"): a 412 if the list has '
                                       "moved since, so pages read by offset are of one list (read again from the "
                                       "first page on a 412)",
                        "schema": {"type": "string", "pattern": PAGE_IF_MATCH_PATTERN}},
    "Idempotency-Key": {"in": "header", "name": "Idempotency-Key", "required": False,
                        "description": "A retried request with the same key is answered as the first was "
                                       f"(1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters)",
                        "schema": {"type": "string", "pattern": rf"^[\x21-\x7e]{{1,{MAX_IDEMPOTENCY_KEY}}}$"}},
    "If-Match": {"in": "header", "name": "If-Match", "required": False,
                 "description": 'The ETag of the match read the move is based on ("12"), or a list of them '
                                '(any may match); a stale one is a 412 (checked before expected_version); "*" '
                                'states no version',
                 "schema": {"type": "string", "pattern": IF_MATCH_PATTERN}},
    "If-Match (write)": {"in": "header", "name": "If-Match", "required": False,
                         "description": 'The ETag of the match read this write is based on ("12"), or a list of '
                                        'them (any may match): a stale one is a 412 and nothing is saved; "*" '
                                        'states no version',
                         "schema": {"type": "string", "pattern": IF_MATCH_PATTERN}},
    "If-Match (tournament)": {"in": "header", "name": "If-Match", "required": False,
                              "description": 'The ETag of the tournament read this write is based on '
                                             '("tournament-5"; its version alone, "5", will do), or a list of '
                                             'them (any may match): a stale one is a 412 and nothing is saved; '
                                             '"*" states no version',
                              "schema": {"type": "string", "pattern": TOURNAMENT_IF_MATCH_PATTERN}},
    "If-Match (read)": {"in": "header", "name": "If-Match", "required": False,
                        "description": 'Answer only if the match is still at the version of this ETag (or of '
                                       'one of a list of them): else a 412; "*" states no version',
                        "schema": {"type": "string", "pattern": IF_MATCH_PATTERN}},
    "X-Request-Id": {"in": "header", "name": "X-Request-Id", "required": False,
                     "description": "Your id for this request (1 to 128 visible ASCII characters), echoed in "
                                    "the answer and carried by the service's logs of it; another value is "
                                    "replaced by a new id, never refused",
                     "schema": {"type": "string"}},
    "Last-Event-ID": {"in": "header", "name": "Last-Event-ID", "required": False,
                      "description": "Resume after this event id (a version)",
                      "schema": {"type": "string", "pattern": "^[0-9]{1,9}$"}},
    "Last-Event-ID (position)": {"in": "header", "name": "Last-Event-ID", "required": False,
                                 "description": "Resume after this event id (an event log position; one past "
                                                "the log's end is a 422)",
                                 "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}},
}
#: The documents (api/headers.py DOCUMENTS): stored by caches, revalidated with If-None-Match.
DOCUMENT_PATHS = ("/games", "/games/{name}", "/games/{name}/schema", "/games/{name}/rules", "/problems",
                  "/problems/{slug}")
READS = {
    **{("get", path): ["If-None-Match (document)", "If-Match (document)"] for path in DOCUMENT_PATHS},
    ("get", "/matches/{match_id}"): ["If-None-Match", "If-Match (read)"],
    ("get", "/matches"): ["If-None-Match (read model)", "If-Match (page)"],
    ("get", "/matches/{match_id}/events"): ["If-None-Match (events)", "If-Match (read)"],
    **{("get", f"/matches/{{match_id}}/{read}"): ["If-Match (read)"] for read in ("diff", "export", "verify")},
    ("get", "/leaderboards/{game}"): ["If-None-Match (read model)", "If-Match (page)"],
    ("get", "/tournaments/{tournament_id}/standings"): ["If-None-Match (read model)", "If-Match (page)"],
    ("get", "/players/{player_id}/ratings/{game}"): ["If-None-Match (read model)", "If-Match (page)"],
    ("get", "/players/{player_id}"): ["If-None-Match (read model)", "If-Match (page)"],
    ("get", "/tournaments/{tournament_id}"): ["If-None-Match (read model)", "If-Match (page)"],
    ("get", "/tournaments"): ["If-None-Match (read model)", "If-Match (page)"],
    ("post", "/matches/{match_id}/moves"): ["Idempotency-Key", "If-Match"],
    **{("post", f"/matches/{{match_id}}/{write}"): ["If-Match (write)"]
       for write in ("seats", "start", "leave", "cancel", "resign", "return", "invitations", "claim")},
    ("get", "/matches/{match_id}/stream"): ["Last-Event-ID"],
    ("get", "/matches/{match_id}/events/stream"): ["Last-Event-ID"],
    ("post", "/matches"): ["Idempotency-Key"],
    ("post", "/players"): ["Idempotency-Key"],
    ("post", "/matches/{match_id}/forks"): ["Idempotency-Key"],
    ("post", "/matches/import"): ["Idempotency-Key"],
    ("post", "/tournaments"): ["Idempotency-Key"],
    **{(method, f"/tournaments/{{tournament_id}}/{write}"): ["If-Match (tournament)"]
       for method, write in (("post", "players"), ("delete", "players/{player_id}"), ("post", "start"),
                             ("post", "cancel"), ("post", "forfeits"), ("post", "sanctions"))},
    ("get", "/players/me/stream"): ["Last-Event-ID (position)"],
    ("get", "/tournaments/{tournament_id}/stream"): ["Last-Event-ID"],
}
#: Answer headers, by (method, path): (header, always sent).
SENDS = {
    **{("get", path): [("ETag (document)", True), ("Cache-Control (document)", True)] for path in DOCUMENT_PATHS},
    ("get", "/matches/{match_id}"): [("ETag", True)],
    ("get", "/matches"): [("ETag (read model)", True)],
    ("get", "/matches/{match_id}/events"): [("ETag (events)", True)],
    ("get", "/leaderboards/{game}"): [("ETag (read model)", True)],
    ("get", "/tournaments/{tournament_id}/standings"): [("ETag (read model)", True)],
    ("get", "/players/{player_id}/ratings/{game}"): [("ETag (read model)", True)],
    ("get", "/players/{player_id}"): [("ETag (read model)", True)],
    ("get", "/tournaments/{tournament_id}"): [("ETag (read model)", True)],
    ("get", "/tournaments"): [("ETag (read model)", True)],
    ("post", "/players"): [("Location (player)", True), ("Motley-Position", True), ("Idempotent-Replayed", False)],
    ("post", "/matches"): [("ETag", True), ("Motley-Position", False), ("Location", True),
                           ("Idempotent-Replayed", False)],
    ("post", "/matches/{match_id}/seats"): [("ETag", True), ("Motley-Position", False), ("Location (joined)", True)],
    ("post", "/matches/{match_id}/start"): [("ETag", True), ("Motley-Position", False)],
    ("post", "/matches/{match_id}/moves"): [("ETag", True), ("Motley-Position", False), ("Location (move)", True),
                                            ("Idempotent-Replayed", False)],
    ("post", "/matches/{match_id}/forks"): [("ETag", True), ("Motley-Position", True), ("Location", True),
                                            ("Idempotent-Replayed", False)],
    ("post", "/matches/import"): [("ETag", True), ("Motley-Position", True), ("Location", True),
                                  ("Idempotent-Replayed", False)],
    # The rest of a match's life (api/lifecycle.py) answers as every other write on a match does.
    **{("post", f"/matches/{{match_id}}/{verb}"): [("ETag", True), ("Motley-Position", False)]
       for verb in ("leave", "cancel", "resign", "return", "invitations", "claim")},
    ("post", "/matches/{match_id}/rematch"): [("ETag", True), ("Motley-Position", False), ("Location", True)],
    ("post", "/tournaments"): [("Location (tournament)", True), ("Motley-Position", True),
                               ("Idempotent-Replayed", False)],
    ("post", "/tournaments/{tournament_id}/players"): [("Motley-Position", True), ("Location (registered)", True)],
    ("post", "/players/me/keys"): [("Location (key)", True), ("Motley-Position", True)],
    ("delete", "/players/me/keys/{key_id}"): [("Motley-Position", True)],
    ("delete", "/tournaments/{tournament_id}/players/{player_id}"): [("Motley-Position", True)],
    ("post", "/tournaments/{tournament_id}/start"): [("Motley-Position", True)],
    ("post", "/tournaments/{tournament_id}/cancel"): [("Motley-Position", True)],
    ("post", "/tournaments/{tournament_id}/forfeits"): [("Motley-Position", True)],
    ("post", "/tournaments/{tournament_id}/sanctions"): [("Location (report)", True), ("Motley-Position", True)],
}
def _ref(method: str, path: str) -> str:
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


_MATCH = {"match_id": "$response.body#/id"}
#: OpenAPI links from what a write creates to the operations that use it (clients and stateful
#: testing follow them): (name, method, path, parameters).
LINKS = {
    ("post", "/players"): [("GetPlayer", "get", "/players/{player_id}", {"player_id": "$response.body#/id"})],
    ("post", "/matches"): [
        ("GetMatch", "get", "/matches/{match_id}", _MATCH),
        ("TakeSeat", "post", "/matches/{match_id}/seats", _MATCH),
        ("StartMatch", "post", "/matches/{match_id}/start", _MATCH),
        ("SubmitMove", "post", "/matches/{match_id}/moves", _MATCH),
        ("ListEvents", "get", "/matches/{match_id}/events", _MATCH),
    ],
    ("post", "/matches/{match_id}/seats"): [
        ("GetJoinedMatch", "get", "/matches/{match_id}", {"match_id": "$response.body#/match/id"}),
        ("StartJoinedMatch", "post", "/matches/{match_id}/start", {"match_id": "$response.body#/match/id"}),
    ],
    ("post", "/matches/{match_id}/start"): [
        ("GetStartedMatch", "get", "/matches/{match_id}", _MATCH),
        ("MoveInStartedMatch", "post", "/matches/{match_id}/moves", _MATCH),
    ],
    ("post", "/matches/{match_id}/moves"): [
        ("GetMovedMatch", "get", "/matches/{match_id}", _MATCH),
        ("ListMovedEvents", "get", "/matches/{match_id}/events", _MATCH),
    ],
    ("post", "/tournaments"): [
        ("GetTournament", "get", "/tournaments/{tournament_id}", {"tournament_id": "$response.body#/id"}),
        ("GetStandings", "get", "/tournaments/{tournament_id}/standings", {"tournament_id": "$response.body#/id"}),
    ],
}

#: Operations anyone may call; a key sent to them is not read.
PUBLIC = {("get", "/games"), ("get", "/games/{name}"), ("get", "/games/{name}/schema"), ("get", "/games/{name}/rules"),
          ("get", "/problems"),
          ("get", "/problems/{slug}"), ("get", "/health"), ("get", "/ready"), ("get", "/metrics"), ("post", "/players")}
#: Never refused for a database outage (they do not read it).
NO_DATABASE = {("get", "/games"), ("get", "/games/{name}"), ("get", "/games/{name}/rules"), ("get", "/health")}
#: Writes whose body names a game: an unknown one is a 404 (docs/problems.md), though the path has no id.
NAMES_A_GAME = {("post", "/matches"), ("post", "/tournaments")}

WRITES = {"post", "put", "patch", "delete"}


def problem_response(status: int, description: str) -> dict:
    response: dict[str, Any] = {"description": description,
                                "content": {PROBLEM_JSON: {"schema": "Problem"}}}
    headers: dict[str, Any] = {"X-Request-Id": {**HEADERS["X-Request-Id"], "required": True}}
    if status in (429, 503):
        headers["Retry-After"] = {**HEADERS["Retry-After"], "required": True}
    if status == 401:
        headers["WWW-Authenticate"] = HEADERS["WWW-Authenticate"]
    if status == 405:
        headers["Allow"] = {"description": "The methods this path allows", "required": True,
                            "schema": {"type": "string"}}
    response["headers"] = headers
    return response


def register_problem_responses(spec) -> None:
    """Every status flask-smorest names (``UNPROCESSABLE_ENTITY``, ``DEFAULT_ERROR``) as a problem."""
    spec.components.schema("Problem", schema=Problem)
    for status in http.HTTPStatus:
        if status >= 400:
            spec.components.response(status.name, problem_response(status, status.phrase), lazy=True)
    spec.components.response("DEFAULT_ERROR", problem_response(500, "Any other refusal or failure"), lazy=True)


DESCRIPTIONS = {
    400: ("BAD_REQUEST", "Malformed JSON, JSON nested too deep, or a header that is not what it must be"),
    401: ("UNAUTHORIZED", "Missing or wrong API key"),
    403: ("FORBIDDEN", "Not allowed to this player (not your seat), or the auditor's credential where a "
                       "player's key is needed"),
    404: ("NOT_FOUND", "No such player, game or match (or version)"),
    409: ("CONFLICT", "Not your turn, a stale version, a move overtaken, or the state does not allow it"),
    413: ("REQUEST_ENTITY_TOO_LARGE", "The body is larger than the service reads (64 KiB)"),
    415: ("UNSUPPORTED_MEDIA_TYPE", "The body is not JSON (send Content-Type: application/json; an import "
                                    "takes any), or is sent with a Content-Encoding (send it as it is)"),
    422: ("UNPROCESSABLE_ENTITY", "Unknown fields, wrong types, or a move or option the rules refuse"),
    429: ("TOO_MANY_REQUESTS", "A rate limit or a game's cooldown: wait Retry-After seconds"),
    503: ("SERVICE_UNAVAILABLE", "The database cannot be reached now (or a read model has not caught up); "
                                 "nothing was changed: retry after Retry-After seconds"),
}


#: The null branch of a nullable answer object: null and nothing else (OpenAPI 3.0.3: ``nullable`` adds
#: null to ``type``, ``enum`` then keeps only it).
NULL_ONLY = {"type": "object", "nullable": True, "enum": [None]}


def nullable_reference(self, field, ret: dict, **kwargs) -> dict:
    """A nullable nested schema as "that schema, or null". apispec writes it ``anyOf: [{type: object,
    nullable: true}, {$ref}]``, whose first branch takes any object: the document said ``"turn_limit":
    {}`` was valid, and the service refused it (an apispec attribute function, run after its own).

    It is ``oneOf`` the reference and null only, in a request body as in an answer: under OpenAPI 3.0.3
    ``nullable`` beside ``allOf`` does not make a referenced object schema take null (it counts beside a
    ``type`` only), and a validator (openapi-core) refused every null ``timer`` or ``result`` the service
    answers, and a request's ``"turn_limit": null``, the document's own default (a client-contract probe)."""
    branches = ret.get("anyOf")
    if (isinstance(branches, list) and len(branches) == 2 and {"type": "object", "nullable": True} in branches
            and any("$ref" in branch for branch in branches)):
        ret.pop("anyOf")
        reference = next(branch for branch in branches if "$ref" in branch)
        return {"oneOf": [reference, dict(NULL_ONLY)]}
    return {}


#: Where a sentence may begin after ". ": a capital, a digit, an opening parenthesis, quote or literal.
SENTENCE_START = re.compile(r"[A-Z0-9(\"'`]")
#: Keys whose strings are text for the reader (not values: examples, defaults and enums are kept as written).
TEXT_KEYS = ("summary", "description")
VALUE_KEYS = ("example", "examples", "default", "enum", "x-example")


def markdown(text: str) -> str:
    """reStructuredText's inline literal (``x``, two back-ticks, in the docstrings) as Markdown's (one back-tick):
    Swagger UI renders Markdown and showed the double back-ticks as they were."""
    return text.replace("``", "`")


def split_sentence(text: str) -> tuple[str, str]:
    """The first sentence of ``text`` (its lines joined) and the rest: a sentence ends at ". ", "! " or
    "? " outside parentheses and literals, before what may begin one (so "docs/deploy.md)" or "e.g. x"
    end none)."""
    text = " ".join(text.split())
    depth, literal = 0, False
    for i, character in enumerate(text):
        if character == "`":
            literal = not literal
        elif literal:
            continue
        elif character in "([":
            depth += 1
        elif character in ")]":
            depth = max(0, depth - 1)
        elif (character in ".!?" and depth == 0 and text[i + 1:i + 2] == " "
              and SENTENCE_START.match(text, i + 2)):
            return text[:i + 1], text[i + 2:]
    return text, ""


def as_markdown(node: Any) -> None:
    """Every summary and description in ``node`` (an operation, a parameter, a schema) in Markdown, in
    place; examples, defaults and enums are values, left as they are."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in TEXT_KEYS and isinstance(value, str):
                node[key] = markdown(value)
            elif key not in VALUE_KEYS:
                as_markdown(value)
    elif isinstance(node, list):
        for item in node:
            as_markdown(item)


def tidy_operation(operation: dict) -> None:
    """An operation's summary as one sentence (Swagger UI shows it on the operation's line), the rest of
    the docstring's first paragraph opening its description; every text in Markdown."""
    summary = operation.get("summary")
    if isinstance(summary, str):
        first, rest = split_sentence(summary)
        operation["summary"] = first
        if rest:
            description = operation.get("description")
            operation["description"] = f"{rest}\n\n{description}" if description else rest
    as_markdown(operation)


#: The answers declared outside api/schemas.py (api/health.py: plain marshmallow schemas, not
#: ``api.schemas.Answer``s), with the keys each sends only sometimes, as ``Answer.OPTIONAL`` says it:
#: every other key is listed required, as an ``Answer``'s are.
ANSWERS_ELSEWHERE: dict[str, tuple[str, ...]] = {"HealthOut": (), "ReadyOut": ()}


#: Each operation's name (``operationId``): what a client generator names its function or method after
#: (without one, ``post_matches_match_id_moves``; TypeScript's types had no operations at all).
OPERATION_IDS: dict[tuple[str, str], str] = {
    ("post", "/players"): "registerPlayer",
    ("get", "/players/me"): "getMe",
    ("get", "/players/me/matches"): "listMyMatches",
    ("get", "/players/me/invitations"): "listMyInvitations",
    ("get", "/players/me/stream"): "streamMyNews",
    ("get", "/players/me/keys"): "listMyKeys",
    ("post", "/players/me/keys"): "addKey",
    ("delete", "/players/me/keys/{key_id}"): "revokeKey",
    ("get", "/players/{player_id}"): "getPlayer",
    ("get", "/players/{player_id}/ratings/{game}"): "getPlayerRatings",
    ("get", "/games"): "listGames",
    ("get", "/games/{name}"): "getGame",
    ("get", "/games/{name}/schema"): "getGameSchema",
    ("get", "/games/{name}/rules"): "getGameRules",
    ("get", "/matches"): "listMatches",
    ("post", "/matches"): "createMatch",
    ("get", "/matches/{match_id}"): "getMatch",
    ("post", "/matches/{match_id}/seats"): "takeSeat",
    ("post", "/matches/{match_id}/start"): "startMatch",
    ("post", "/matches/{match_id}/moves"): "makeMove",
    ("get", "/matches/{match_id}/events"): "listMatchEvents",
    ("get", "/matches/{match_id}/stream"): "streamMatch",
    ("post", "/matches/{match_id}/leave"): "leaveMatch",
    ("post", "/matches/{match_id}/cancel"): "cancelMatch",
    ("post", "/matches/{match_id}/resign"): "resignMatch",
    ("post", "/matches/{match_id}/return"): "returnToMatch",
    ("post", "/matches/{match_id}/invitations"): "invitePlayer",
    ("post", "/matches/{match_id}/claim"): "claimMatch",
    ("post", "/matches/{match_id}/rematch"): "rematchMatch",
    ("get", "/matches/{match_id}/diff"): "diffMatch",
    ("get", "/matches/{match_id}/export"): "exportMatch",
    ("post", "/matches/import"): "importMatch",
    ("post", "/matches/{match_id}/forks"): "forkMatch",
    ("get", "/matches/{match_id}/verify"): "verifyMatch",
    ("get", "/matches/{match_id}/events/stream"): "streamMatchEvents",
    ("get", "/tournaments"): "listTournaments",
    ("post", "/tournaments"): "createTournament",
    ("get", "/tournaments/{tournament_id}"): "getTournament",
    ("post", "/tournaments/{tournament_id}/players"): "registerForTournament",
    ("delete", "/tournaments/{tournament_id}/players/{player_id}"): "withdrawFromTournament",
    ("post", "/tournaments/{tournament_id}/start"): "startTournament",
    ("post", "/tournaments/{tournament_id}/cancel"): "cancelTournament",
    ("post", "/tournaments/{tournament_id}/forfeits"): "forfeitAbsentPlayers",
    ("get", "/tournaments/{tournament_id}/standings"): "getStandings",
    ("get", "/tournaments/{tournament_id}/stream"): "followTournament",
    ("post", "/tournaments/{tournament_id}/sanctions"): "imposeSanction",
    ("get", "/tournaments/{tournament_id}/sanctions/{number}"): "getSanction",
    ("get", "/leaderboards/{game}"): "getLeaderboard",
    ("get", "/problems"): "listProblems",
    ("get", "/problems/{slug}"): "getProblem",
    ("get", "/health"): "getHealth",
    ("get", "/ready"): "getReadiness",
    ("get", "/metrics"): "getMetrics",
}


class MotleyDocs(BasePlugin):
    def schema_helper(self, name, definition, **kwargs) -> None:
        # The definition the plugins before this one built (the marshmallow plugin's), completed in place.
        if name in ANSWERS_ELSEWHERE and "required" not in definition:
            always = [key for key in definition.get("properties", {}) if key not in ANSWERS_ELSEWHERE[name]]
            if always:
                definition["required"] = sorted(always)
        as_markdown(definition)

    def path_helper(self, path=None, operations=None, parameters=None, **kwargs) -> None:
        as_markdown(parameters or [])  # the path's own parameters (its ids)

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for method, operation in (operations or {}).items():
            if not isinstance(operation, dict):
                continue
            tidy_operation(operation)
            self._complete(method, path or "", operation)

    @staticmethod
    def _complete(method: str, path: str, operation: dict) -> None:
        key = (method, path)
        if key in OPERATION_IDS:  # (a route missing here is caught by tests/platform/test_openapi.py)
            operation.setdefault("operationId", OPERATION_IDS[key])
        responses = operation.setdefault("responses", {})
        statuses = [400, 422, 429]
        if key not in NO_DATABASE:
            statuses.append(503)
        if key not in PUBLIC:
            statuses.append(401)
            # The key as a bearer token, or in X-API-Key (api/context.api_key reads both).
            if path.startswith("/players/me") or method in WRITES:
                operation["security"] = [{"bearer": []}, {"apiKey": []}]
            else:
                operation["security"] = [{}, {"bearer": []}, {"apiKey": []}]  # a spectator, or a seat with its key
        elif key == ("get", "/metrics"):
            operation["security"] = [{}, {"metricsToken": []}]  # open, unless the operator set a token
        else:
            operation["security"] = []
        if "{" in path or key in NAMES_A_GAME:
            statuses.append(404)
        if method in WRITES:
            statuses += [403, 409]
        elif path.startswith("/players/me"):
            statuses.append(403)  # the auditor's credential names no player (api/context.current_player)
        if "requestBody" in operation or method in ("post", "put", "patch"):
            # An import reads JSON Lines under any media type, but no content coding either (a review)
            statuses.append(415)
        statuses.append(413)  # any request's body is read up to 64 KiB, a GET's too (a client-contract probe)
        for status in sorted(statuses):
            name, _ = DESCRIPTIONS[status]
            responses.setdefault(str(status), name)
        for header_name in [*READS.get(key, ()), "X-Request-Id"]:
            header = REQUEST_HEADERS[header_name]
            parameters = [p for p in operation.get("parameters", [])
                          if not (isinstance(p, dict) and p.get("in") == "header" and p.get("name") == header["name"])]
            operation["parameters"] = [*parameters, header]
            if header["name"] == "If-Match":
                responses.setdefault("412", "PRECONDITION_FAILED")
        if key[1] in DOCUMENT_PATHS and method == "get":
            responses.setdefault("304", {"description": "Not modified: the document is still the one of the ETag "
                                                        "sent as If-None-Match"})
        for status, response in responses.items():
            if isinstance(response, dict):  # the named problem answers carry it already (problem_response)
                response.setdefault("headers", {})["X-Request-Id"] = {**HEADERS["X-Request-Id"], "required": True}
            if str(status) == "304" and isinstance(response, dict):  # the tag it still is (api/context.py)
                for header_name, _ in SENDS.get(key, ()):
                    if header_name.startswith("ETag"):
                        response.setdefault("headers", {})["ETag"] = {**HEADERS[header_name], "required": True}
            if re.fullmatch(r"2\d\d", str(status)) and isinstance(response, dict):
                headers = response.setdefault("headers", {})
                for header_name, always in SENDS.get(key, ()):
                    # "ETag (list)": the ETag header, described for its route
                    headers[header_name.split(" (")[0]] = {**HEADERS[header_name], "required": always}
                for name, target_method, target_path, taken in LINKS.get(key, ()):
                    response.setdefault("links", {})[name] = {"operationRef": _ref(target_method, target_path),
                                                              "parameters": taken}
