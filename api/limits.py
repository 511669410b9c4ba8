"""What the API bounds before a view runs: the body's size and nesting, and the headers it trusts.

A hostile request must be refused with a clear 4xx problem before it costs anything: a body larger
than ``MAX_CONTENT_LENGTH`` is a 413 (werkzeug stops reading it), JSON nested deeper than any real
action is a 400 (Python's parser would otherwise exhaust the stack), and the headers the views read
as numbers or store in events are checked to be what they must be.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.exceptions import BadRequest

from api.context import api_key, is_auditor_key, names_a_player, service
from api.headers import DOCUMENTS
from api.keyless import tries_key
from api.rates import address as client_address
from application import errors
from application.history import repeated_key

#: The largest request body read, in bytes (a move, a match to create: a few hundred bytes).
MAX_BODY_BYTES = 64 * 1024
#: The deepest JSON nesting accepted (every game's actions are a few levels deep).
MAX_JSON_DEPTH = 32
#: An Idempotency-Key is up to this many visible ASCII characters (a UUID is 36); it is kept in the
#: match's events, so it must not grow them.
MAX_IDEMPOTENCY_KEY = 128

IDEMPOTENCY_KEY = re.compile(rf"[\x21-\x7e]{{1,{MAX_IDEMPOTENCY_KEY}}}")
#: ``If-Match`` holds the ETag of a match read: a version such as ``"12"``, ``"12.1"`` for a view that
#: lists a fork, ``"12.1.30"`` for a rewound read, ``"12.0.12e"`` for
#: an event list page, each marked with its reader (``"12-3f2a9c0d11e4"``,
#: ``api/matches.reader_mark``) (RFC 9110 §8.8.3; api/matches.py).
ETAG = re.compile(r'\s*(W/)?"?([0-9]{1,9})((\.[0-9]{1,9}){0,2}|(\.[0-9]{1,9}){2}[em])(-[0-9a-z]{1,12})?"?\s*')
#: Or, on a read of a read model's page (a GET), that page's ETag: ``"board-96"``, ``"list-120-own"``,
#: ``"standings-96.7"``, ``"profile-96.3f2a9c01b7d4"`` (api/openapi.py, "ETag (read model)").
PAGE_ETAG = re.compile(r'\s*(W/)?"[a-z]{4,11}-[0-9]{1,18}(\.[0-9a-f]{1,12})?(-own)?"\s*')
#: Or, on a tournament's write, the ETag of a tournament read: ``"tournament-5"`` (its version; a match's
#: ``"5"`` reads as that version too).
TOURNAMENT_ETAG = re.compile(r'\s*(W/)?"?tournament-[0-9]{1,9}"?\s*')
#: Or, on a read of a document (a game, its schema or rules, a problem type, the OpenAPI document), its
#: ETag: a digest of its body (api/headers.py).
#: Any entity-tag (RFC 9110 §8.8.3) is one a document may once have had: another is a 412, not a 422 (a probe
#: of this session's change: "zz" was refused as a match's tag, a list holding the document's own too).
DOCUMENT_ETAG = re.compile(r'\s*(W/)?"[\x21\x23-\x7e]*"\s*')
#: The most tags an ``If-Match`` list may hold (more is a 422: a list of many only costs the server).
MAX_IF_MATCH_TAGS = 16
#: ``Last-Event-ID`` is the id of a server-sent event: a version (ASCII digits only; ``"²".isdigit()``).
EVENT_ID = re.compile(r"[0-9]{1,9}")
#: On /players/me/stream an id is an event log position, as ``?after=`` takes it (up to 18 digits): with
#: 9 its stream could not be resumed once the log passed 999,999,999 (a fuzzing probe).
POSITION_ID = re.compile(r"[0-9]{1,18}")


def json_depth(value) -> int:
    """How deep a parsed JSON value nests (walked without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


class MalformedJSON(BadRequest):
    """A body that is not JSON: api/problems.py answers 400 malformed-json with this description."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object whose names are unique (RFC 8259 §4 "SHOULD"): with one name twice, the last won
    silently, so ``{"game": "jest", ..., "game": "jester"}`` made a Jester match."""
    made = dict(pairs)
    twice = repeated_key(pairs, made)
    if twice is not None:
        raise MalformedJSON(f"the JSON body names {json.dumps(twice)} twice in one object")
    return made


def no_constant(name: str) -> Any:
    """NaN, Infinity and -Infinity are no JSON (RFC 8259 §6), though Python's json reads them."""
    raise MalformedJSON(f"the request body is not valid JSON ({name} is no JSON number)")


def finite(text: str) -> float:
    """A JSON number Python reads as infinity (1e400) is past any number the service takes: said so, where
    a move carrying one was refused as "an action is a JSON object with a string type" (a security probe)."""
    value = float(text)
    if not math.isfinite(value):
        raise MalformedJSON(f"the request body holds a number out of range ({text[:40]})")
    return value


def check_body() -> None:
    limit = request.max_content_length
    if limit is not None and request.content_length is not None and request.content_length > limit:
        raise errors.TooLarge(f"the request body is larger than {limit} bytes")
    if request.url_rule is None or request.method in ("GET", "HEAD", "OPTIONS"):
        # No route (its 404 or 405 is the answer), or a read, whose body means nothing (RFC 9110 §9.3.1)
        # and is never read: a text body sent with GET /games was a 415.
        return
    coding = (request.headers.get("Content-Encoding") or "").strip().lower()
    has_body = bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if coding not in ("", "identity") and has_body:
        # Read as it came: a body labelled br was taken as plain JSON, a gzip one "not UTF-8" (400).
        raise errors.UnsupportedEncoding(f"the body is sent with Content-Encoding {coding[:40]}: send it "
                                         "uncompressed (this server reads no content coding)")
    if not request.is_json:
        if request.endpoint != "audit.Import" and request.content_length:
            # Else the view's parser would read no body at all and answer that every field is missing
            # (also when no Content-Type was sent: curl -d without -H sends one, other clients none).
            raise errors.UnsupportedMediaType(
                f"the body is {request.mimetype or 'of no media type'}: send JSON, with "
                "'Content-Type: application/json'")
        return
    raw = request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH: werkzeug stops reading
    if not raw:
        return
    try:
        parsed = json.loads(raw, object_pairs_hook=unique_keys, parse_constant=no_constant, parse_float=finite)
    except RecursionError:
        raise errors.BadRequest(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels") from None
    except json.JSONDecodeError:
        if request.endpoint == "audit.Import":
            return  # an import reads JSON Lines under any media type: its view parses them line by line
        # Refused here, not left to the view's parser: a view that reads no body (register, start,
        # resign, cancel) has none, and would act on a request it could not read.
        raise MalformedJSON("the request body is not valid JSON") from None
    except UnicodeDecodeError:  # before ValueError, its base: the bytes are not text at all
        raise errors.BadRequest("the request body is not UTF-8") from None
    except ValueError:  # valid JSON Python will not read: an integer of over 4,300 digits
        raise MalformedJSON("the request body is not valid JSON") from None
    if json_depth(parsed) > MAX_JSON_DEPTH:
        raise errors.BadRequest(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")


def check_headers() -> None:
    if request.url_rule is None:
        return  # no such route: its 404 or 405 says more than a header's 422
    key = request.headers.get("Idempotency-Key")
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise errors.InvalidRequest(
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters (a UUID will do)")
    etag = request.headers.get("If-Match")
    # An empty or blank If-Match is refused as the document says, not taken for none: a client whose
    # version variable was empty had its write saved unguarded (a probe: seats, moves, resign, cancel).
    read = request.method in ("GET", "HEAD")
    tournament_write = not read and request.url_rule.rule.startswith("/tournaments/<")
    if etag is not None and etag.strip() != "*" and not all(
            ETAG.fullmatch(tag) or (read and PAGE_ETAG.fullmatch(tag))
            or (read and request.endpoint in DOCUMENTS and DOCUMENT_ETAG.fullmatch(tag))
            or (tournament_write and TOURNAMENT_ETAG.fullmatch(tag))
            for tag in etag.split(",", MAX_IF_MATCH_TAGS - 1)):  # a list: RFC 9110 §13.1.1
        raise errors.InvalidRequest('If-Match must be the ETag of a match read, a version such as "12", or a list '
                                    f'of up to {MAX_IF_MATCH_TAGS} of them (on a read of a list, the ETag of a '
                                    'page of it, such as "board-96"; on a tournament\'s write, the ETag of the '
                                    'tournament read, such as "tournament-5"; on a read of a document, its ETag)')
    event_id = request.headers.get("Last-Event-ID")
    ids = POSITION_ID if request.url_rule.rule == "/players/me/stream" else EVENT_ID
    if event_id is not None and event_id.strip() and not ids.fullmatch(event_id.strip()):
        raise errors.InvalidRequest("Last-Event-ID must be the id of an event of this stream (a version on a "
                                    "match's or a tournament's stream, an event log position on /players/me/stream)")


def check_positions() -> None:
    """``?after=`` names a position some write answered with (a read model waits for it): one past the
    log's end was never answered, so waiting for it can only time out; it is refused at once (422),
    not left to a 503. (The event list's ``after`` is a version, not a position.)"""
    after = request.args.get("after", "")
    rule = request.url_rule.rule if request.url_rule is not None else ""
    # HEAD runs the GET view: it waited 5 s for the position and answered 503 where the GET is a 422.
    if request.method not in ("GET", "HEAD") or not after.isascii() or not after.isdigit() or rule.endswith("/events"):
        return
    if int(after) > service().log_position():
        raise errors.InvalidRequest(f"no write has answered with Motley-Position {after}: the event log ends "
                                    f"before it", rule="read your own writes")


def check_credentials() -> None:
    """A write needs a valid key (a player's, or the auditor's): refused with 401 before its body is
    read, else a client sending no key or a wrong one was first told (422) what was wrong with its body,
    fixed it, and only then learnt that it needed a key. A read takes no key (a spectator's), but one
    sent must be valid: a wrong key made a spectator of its sender on some reads, without a word."""
    if not tries_key():
        return  # a 404 or 405 says more; a preflight or a route that reads no key has none to try
    reading = request.method in ("GET", "HEAD")
    key = api_key()  # an Authorization header that is not "Bearer <key>" is a 401 here too
    if key is None:
        if reading:
            return
        raise errors.Unauthenticated("send your API key as 'Authorization: Bearer <key>'")
    rates = current_app.extensions.get("motley.rates")
    if rates is not None:  # an address that guessed too many keys is refused (429) before its key is tried
        rates.refuse_if_spent("auth_failures", client_address())
    if not is_auditor_key(key) and not names_a_player(key):
        if rates is not None:
            # Counted now, in one step with the test: counted after its 401, 60 wrong keys sent at once
            # had 15 guesses answered with auth_failures=10/minute.
            rates.take("auth_failures", client_address())
            g.auth_failure_counted = True
        raise errors.Unauthenticated("the API key is not valid")


def register(app: Flask) -> None:
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default is None: unbounded
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.before_request(check_credentials)
    app.before_request(check_headers)
    app.before_request(check_body)
    app.before_request(check_positions)
