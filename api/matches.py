"""Matches: create, join, start, read (as the caller may see it, at any version), move, events."""

import base64
import json
from datetime import datetime, timezone
from typing import Callable, Optional, TypeVar

from flask import Response, current_app, request
from flask.views import MethodView
from werkzeug.routing import BaseConverter

from api import schemas
from api.audit import history, last_event_id, viewer, with_invitation
from api.context import (
    api_key,
    authenticated,
    check_game_filter,
    check_match_if_match,
    check_player_filter,
    container,
    current_player,
    event_stream,
    if_match_versions,
    is_auditor_key,
    json_text,
    not_modified,
    read_precondition_failed,
    reader_mark,
    service,
    stream_ended,
    stream_waits,
    version_from_etag,
    weak_tag_refused,
)
from api.schemas import Blueprint
from api.stream_schemas import MATCH_STREAM, stream_answer
from application import errors
from application.errors import InvalidRequest, PreconditionFailed, StaleVersion
from application.following import OVER, follow
from application.freshness import wait_until_applied
from application.history import CONTROL_CHARACTERS
from application.ports import FIRST_PAGE
from application.views import Viewer, lens_for, match_view

blp = Blueprint("matches", __name__, url_prefix="/matches", description="Matches, moves and their events")

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_PARAMETER = {"in": "header", "name": IDEMPOTENCY_HEADER, "schema": {"type": "string"},
                         "description": "A retried request with the same key is answered as the first was"}


def next_cursor(created_at, match_id) -> str:
    """An opaque cursor: the (created_at, match_id) key of a page's last row."""
    text = json.dumps([created_at.isoformat(), match_id])
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def cursor_key(cursor: str) -> tuple:
    try:
        created, match_id = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        # The match id goes to the database as it is: a NUL in it (which PostgreSQL text cannot hold) was
        # a 500, not the 422 of any other cursor no answer gave.
        if not isinstance(match_id, str) or CONTROL_CHARACTERS.search(match_id):
            raise ValueError("not a match id")
        when = datetime.fromisoformat(created)
        if when.tzinfo is None:
            raise ValueError("a cursor's time is UTC")
        # In UTC, as the list stores its times: SQLite compares them as text, and a time written with
        # another offset compared wrong there (PostgreSQL compared it right).
        return when.astimezone(timezone.utc), match_id
    except (ValueError, TypeError):
        raise InvalidRequest("cursor must be a next_cursor this list answered with") from None


def caller_view(match, player):
    """The match as the caller sees it, by the one visibility policy (application/views.py)."""
    who = Viewer.spectator() if player is None else Viewer.player(str(player.id))
    return with_invitation(match, who, match_view(match, lens_for(match, who)))


def plain(view: dict, status: int, headers: dict) -> Response:
    """A match view answered as it is, not through its schema's dump: the views are built JSON-ready
    (application/views.py) and equal their MatchOut dump (tests/platform/test_plain_answers.py), and
    the dump was a sixth of a move's server time (issue 16). The schema still documents the answer."""
    return current_app.response_class(json_text(view), status, headers, mimetype="application/json")


def etag_of(match, forks: int = 0) -> str:
    """A match view's entity tag: its version, and the number of forks it lists, if any, then the
    reader's mark (``reader_mark``). A fork changes the parent's view (its lineage) but not its version:
    with the version alone, a client polling with If-None-Match was told 304 of a view that had changed
    (RFC 9110 §8.8.1)."""
    return (f"{match.version}.{forks}" if forks else str(match.version)) + reader_mark()


def rewound_etag(version: int, forks: int, latest) -> str:
    """A rewound read's entity tag: its version, the forks it lists, and the match's latest version.
    The view of an earlier version still changes as the match goes on (everything is shown once it is
    finished and revealed), so the version alone would validate a view read before the reveal after it;
    any event since moves the latest version, and a fork moves the count (RFC 9110 §8.8.3)."""
    return f"{version}.{forks}.{latest.version}{reader_mark()}"


def headers_for(match, position=None, forks: int = 0):
    headers = {"ETag": f'"{etag_of(match, forks)}"'}
    if position is not None:
        headers["Motley-Position"] = str(position)
    return headers


def events_etag(version: int, after: int, until: Optional[int], limit: int) -> str:
    """An event list page's entity tag: the match's version, the page's window (the versions after
    ``after`` up to its last, one event a version; ``m`` where more follow, else ``e``) and the reader's
    mark, as ``"161.5.10m"``. What a
    reader is shown of an event changes with events only (a reveal comes with the end), so these say
    the page. With the version alone every page of a match had one tag: a poller that read ``?limit=5``
    and then sent its tag with ``?after=5`` was told 304 while 156 events were missing (a streams probe);
    the ``e`` keeps it from being a rewound match read's tag. Its version comes first, as ``If-Match``
    reads it (``version_from_etag``)."""
    bound = version if until is None else min(until, version)
    last = min(bound, after + limit)
    # "m" where more events follow within what was asked (the page says "more": true), "e" where it ends
    # there: ?limit=5 and ?until=5 hold the same events but not the same "more" (a fuzzing probe).
    return f"{version}.{after}.{max(after, last)}{'m' if last < bound else 'e'}{reader_mark()}"


def list_etag(position: int, listed_only: bool) -> str:
    """A match list page's entity tag: the list's position in the event log (every write that changes a
    row moves it), and whether the page holds the player's unlisted matches (their own key's view)."""
    return f"list-{position}" if listed_only else f"list-{position}-own"


T = TypeVar("T")


#: The version a weak If-Match states: none (versions start at 1, and a tag of digits reads as 0 or more:
#: "0" is a strong tag of no version), so the command's 412 follows any refusal it would get anyway (a
#: stranger's 403), as for a stale strong tag.
NEVER_A_VERSION = -1


def strong_versions() -> Optional[frozenset[int]]:
    """The versions of ``If-Match``'s strong match tags: None without one or with ``*``."""
    return if_match_versions(version_from_etag)


def stated_version(match_id) -> Optional[int]:
    """The version a write's ``If-Match`` states: None without one, or with ``*`` (any current version
    will do, RFC 9110 §13.1.1). A weak tag never matches (strong comparison): ``NEVER_A_VERSION``. A
    list holds when any of its strong tags is the match's version: that version is the one stated (the
    command still compares it as it saves, so a write landing in between makes it stale), else one of
    the list's, which is stale."""
    strong = strong_versions()
    if strong is None:
        return None
    if not strong:
        return NEVER_A_VERSION
    if len(strong) == 1:
        return next(iter(strong))
    current = service().get_match(match_id).version
    return current if current in strong else max(strong)


def if_match(match_id, command: Callable[[Optional[int]], T]) -> T:
    """``command`` given the version ``If-Match`` states, which it is refused against when stale: a
    412. Only moves compared it; a leave, a start or a resign with a stale If-Match was saved."""
    stated = stated_version(match_id)
    try:
        return command(stated)
    except StaleVersion as stale:
        if stated is None:
            raise
        raise precondition_failed(stated, stale) from None


def precondition_failed(stated: Optional[int], stale: StaleVersion) -> PreconditionFailed:
    """The 412 of an If-Match the match is not at: ``stale`` said so in the body's terms."""
    if stated == NEVER_A_VERSION:
        return weak_tag_refused(stale.extra.get("current_version"), **stale.extra)
    return PreconditionFailed(stale.detail, **stale.extra)


def sees_unlisted(player_id: Optional[str]) -> bool:
    """Whether a list shows unlisted matches: to the auditor, and to a player asking for its own
    (``player_id`` its own id); to nobody else, who would learn who plays them and where."""
    key = api_key(strict=False)
    if key is None:
        return False
    if is_auditor_key(key):
        return True
    try:
        return player_id is not None and str(authenticated(key).id) == player_id
    except errors.Unauthenticated:
        return False


def written(match):
    """Headers after a write: the log position now is at or past the write, so a client that waits
    for it in ``GET /matches?after=`` reads its own write."""
    return headers_for(match, service().log_position())


def saved_answer(saved, player, status):
    """The answer to a command on a match (``Motley._command``'s ``Saved``): the match as saved, as the
    caller sees it, and ``saved_headers``."""
    return plain(caller_view(saved.match, player), status, saved_headers(saved))


def saved_headers(saved):
    """``written`` for a command's ``Saved``: the position of the save's last event (the log's position
    now when the command saved nothing), the match as saved; neither read again (issue 16)."""
    position = service().log_position() if saved.position is None else saved.position
    return headers_for(saved.match, position)


@blp.route("")
class Matches(MethodView):
    @blp.arguments(schemas.MatchListQuery, location="query")
    @blp.response(200, schemas.MatchPageOut)
    @blp.alt_response(304, description="Not modified: the match list has not moved since the ETag sent as "
                                       "If-None-Match (cheap polling)")
    def get(self, query):
        """List matches (the read model kept by the workers), newest activity first."""
        # A filter no match can pass is a mistake to say (422), not an empty list: a game's name misspelt,
        # or a player named by something other than its id.
        check_game_filter(query["game"])
        check_player_filter(query["player"])
        motley = container()
        wait_until_applied(motley.match_list, motley.app.name, query["after"])
        key = cursor_key(query["cursor"]) if query["cursor"] else FIRST_PAGE if query["order"] == "created" else None
        listed_only = not sees_unlisted(query["player"])
        # The list's position, read before its rows (which are then at it or past it: a tag never stands
        # for older rows); with whether the caller sees the player's unlisted matches, the page's tag.
        tag = list_etag(motley.match_list.position(motley.app.name) or 0, listed_only)
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        page = motley.match_list.query(
            game=query["game"], status=query["status"], player_id=query["player"],
            open_only=query["open"], limit=query["limit"], offset=query["offset"], after=key,
            listed_only=listed_only,
        )
        # Rows follow this page's when more match than the offset and this page hold (an offset page that
        # ends the list is the last: its cursor would only lead to an empty page).
        more = key is not None and len(page.rows) == query["limit"] and page.total > query["offset"] + query["limit"]
        last = page.rows[-1] if more else None
        return {"items": page.rows, "total": page.total, "limit": query["limit"], "offset": query["offset"],
                "next_cursor": None if last is None else next_cursor(last.created_at, last.match_id)}, \
            {"ETag": f'"{tag}"'}

    @blp.arguments(schemas.CreateMatch, example={"game": "jest", "seats": 3, "computers": {"2": "basic"}})
    @blp.response(201, schemas.MatchOut)
    @blp.doc(parameters=[IDEMPOTENCY_PARAMETER])
    def post(self, body):
        """Create a match; seats may be given to computer opponents. Players then join and start it.
        Retried with the same Idempotency-Key, the answer is the first match (as it is now)."""
        player = current_player()
        computers = {int(seat): level for seat, level in body["computers"].items()}
        saved = service().create_match_once(
            player, body["game"], body["seats"], body["options"], computers,
            body["reveal_at_end"], body["rated"], request.headers.get(IDEMPOTENCY_HEADER) or None,
            body["turn_limit"], body["unlisted"], body["require_version"])
        headers = {**saved_headers(saved), "Location": f"/matches/{saved.match.id}"}
        if saved.outcome:  # a retry: the first match
            headers["Idempotent-Replayed"] = "true"
        return plain(caller_view(saved.match, player), 201, headers)


class MatchIdConverter(BaseConverter):
    """A match's id in ``/matches/<match_id>``: anything but ``import``, a route of its own. A GET
    there was read as the match "import" and answered 404 (and OPTIONS listed GET); it is a 405 with
    ``Allow: POST``. The id's own checks stay in the service (``urn:uuid:`` and upper case find it)."""

    regex = r"(?!import$)[^/]+"


def match_id_schema(_converter: BaseConverter) -> dict:
    return {"type": "string", "minLength": 1}


def check_read_if_match(match_id, version: Optional[int], who: Viewer) -> None:
    """RFC 9110 §13.1.1: a read is conditional on If-Match too, a 412 when it does not hold. The match's
    view holds for a tag of its version now (as a write reads it: the version counts); a rewound read's
    (``?version=``) for its own tag, whose version is the rewound one."""
    header = (request.headers.get("If-Match") or "").strip()
    if not header or header == "*":
        return
    current = service().read_match(match_id)
    if version is not None and not 1 <= version <= current.version:
        return  # the read is a 404, which no precondition turns into a 412 (RFC 9110 §13.2.1; a review)
    if version is None:
        holds = stated_version(match_id) == current.version
    else:  # its own tag, the reader's mark aside (as everywhere, only what the tag says of the match counts)
        tag = rewound_etag(version, len(history().forks(current.id, who)), current).split("-", 1)[0]
        holds = tag in {t.strip().strip('"').split("-", 1)[0] for t in header.split(",")
                        if not t.strip().startswith("W/")}
    if not holds:
        weak_only = version is None and all(tag.strip().startswith("W/") for tag in header.split(","))
        raise read_precondition_failed(current.version, weak_only)


@blp.route("/<match_id:match_id>")
class MatchById(MethodView):
    @blp.arguments(schemas.MatchQuery, location="query")
    @blp.response(200, schemas.MatchOut)
    @blp.alt_response(304, description="Not modified: the match is still at the version of the ETag sent "
                                       "as If-None-Match (cheap polling)")
    def get(self, query, match_id):  # If-None-Match is documented with the other headers (api/openapi.py)
        """The match as the caller may see it (a seat's observation with a seat's key, a spectator's
        without), now or rewound to any earlier version."""
        who = viewer()  # a wrong key is a 401 before anything else, a 304 included
        version = query["version"]
        check_read_if_match(match_id, version, who)
        if request.if_none_match:
            current = service().read_match(match_id)  # the tag is known before any view is built
            forks = len(history().forks(current.id, who))
            tag = etag_of(current, forks) if version is None else rewound_etag(version, forks, current)
            # If-None-Match compares weakly (RFC 9110 §13.1.2): W/"12" matches version 12 too.
            if (version is None or version <= current.version) and request.if_none_match.contains_weak(tag):
                return Response(status=304, headers={"ETag": f'"{tag}"'}, mimetype="application/json")
        match, view = history().match(match_id, who, version)
        forks = len(view["lineage"]["forks"])
        if version is None:
            return plain(with_invitation(match, who, view), 200, headers_for(match, forks=forks))
        latest = service().read_match(match.id)
        return plain(with_invitation(latest, who, view), 200, {"ETag": f'"{rewound_etag(version, forks, latest)}"'})


@blp.route("/<match_id>/seats")
class Seats(MethodView):
    @blp.arguments(schemas.JoinMatch, required=False, example={"seat": 1})  # no body: any free seat
    @blp.response(201, schemas.JoinedOut)
    def post(self, body, match_id):
        """Take a seat (the first free one unless one is named)."""
        player = current_player()
        saved = if_match(match_id, lambda version: service().join_match(
            match_id, player, body["seat"], body["invitation_code"], expected_version=version))
        # A 201 names what it created (RFC 9110 §15.3.2): the seat is the match's; without a Location the
        # created resource was the request's own path, a 405 to a GET (a client-contract probe).
        headers = {**saved_headers(saved), "Location": f"/matches/{saved.match.id}"}
        return plain({"seat": saved.outcome, "match": caller_view(saved.match, player)}, 201, headers)


@blp.route("/<match_id>/start")
class Start(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.MatchOut)
    def post(self, _body, match_id):
        """Start the match once every seat is taken (by its creator or a seated player)."""
        player = current_player()
        return saved_answer(if_match(match_id, lambda version: service().start_match(match_id, player, version)),
                            player, 200)


@blp.route("/<match_id>/moves")
class Moves(MethodView):
    @blp.arguments(schemas.SubmitMove, example={"action": {"type": "offer", "up": "3H", "down": "4S"},
                                                "expected_version": 7})
    @blp.response(201, schemas.MatchOut)
    @blp.doc(parameters=[IDEMPOTENCY_PARAMETER])
    @blp.alt_response(412, response="PRECONDITION_FAILED",
                      description="The If-Match version is not the match's version now")
    @blp.alt_response(428, response="PRECONDITION_REQUIRED",
                      description="The match requires a version (If-Match or expected_version) with each move")
    def post(self, body, match_id):
        """Submit a move for your seat. Illegal moves are refused (422, naming the rule), moves out of
        turn or against a stale expected_version with 409; nothing is appended then."""
        player = current_player()
        key = request.headers.get(IDEMPOTENCY_HEADER) or None
        expected, precondition = body["expected_version"], False
        stated = stated_version(match_id)
        if stated is not None:
            precondition = True
            if expected is not None and expected != stated:
                # Both stated, and they disagree: the move cannot be made. The precondition is
                # evaluated first (RFC 9110 §13.2.2): a stale If-Match is the 412, else the body's 409.
                match = service().get_match(match_id)
                current = match.version
                if match.seat_of(str(player.id)) is None:  # refused anyway: that, not the 412 (§13.2.1)
                    raise errors.Forbidden("you hold no seat at this match")
                if stated != current:
                    raise precondition_failed(stated, StaleVersion(
                        f"If-Match says version {stated}, the match is at version {current}", current_version=current))
                precondition = False
            else:
                expected = stated
        try:
            # A retry's If-Match list holds when any of its tags is the version the move was played at.
            receipt = service().submit_move(match_id, player, body["action"], expected, key,
                                            stated=(strong_versions() or None) if precondition else None)
        except StaleVersion as stale:
            if not precondition:
                raise
            raise precondition_failed(stated, stale) from None  # a failed If-Match is a 412
        match = receipt.match or service().get_match(receipt.match_id, version=receipt.version)
        headers = headers_for(match, receipt.position)
        headers["Location"] = f"/matches/{match.id}?version={match.version}"  # the match as this move left it
        if receipt.replayed:
            headers["Idempotent-Replayed"] = "true"
        return plain(caller_view(match, player), 201, headers)


@blp.route("/<match_id>/events")
class Events(MethodView):
    @blp.arguments(schemas.EventQuery, location="query")
    @blp.response(200, schemas.EventPageOut)
    @blp.alt_response(304, description="Not modified: the match is still at the version of the ETag sent "
                                       "as If-None-Match (cheap polling)")
    def get(self, query, match_id):
        """The match's history as the caller may see it (hidden content redacted), a page at a time:
        the events after ``after`` (up to ``until``), read in time proportional to the page."""
        after, until = query["after"], query["until"]
        if until is not None and until < after:
            raise InvalidRequest(f"until ({until}) comes before after ({after})")
        who = viewer()  # a wrong key is a 401 before anything else, a 304 included
        current = service().read_match(match_id)
        if after > current.version:  # a cursor no answer gave: a client's mistake, said at once (not a 412)
            raise InvalidRequest(f"after ({after}) is past the match's last version ({current.version})")
        check_match_if_match(lambda: current.version)  # before If-None-Match (RFC 9110 §13.2.2)
        if request.if_none_match:
            tag = events_etag(current.version, after, until, query["limit"])
            if request.if_none_match.contains_weak(tag):
                return Response(status=304, headers={"ETag": f'"{tag}"'}, mimetype="application/json")
        page = history().events(match_id, who, after, until, query["limit"])  # a version never goes back
        return page, 200, {"ETag": f'"{events_etag(page["version"], after, until, query["limit"])}"'}


@blp.route("/<match_id>/stream")
class Stream(MethodView):
    @blp.arguments(schemas.StreamQuery, location="query")
    @blp.doc(responses={"204": {"description": "Nothing will come: the match is over and Last-Event-ID "
                                               "is its last version (an EventSource stops reconnecting on a 204)"},
                    "200": stream_answer("Server-sent events, id = the match version: one `match` event "
                                         "whenever the match changes, data = the match as the caller "
                                         "sees it (`MatchOut`, as GET /matches/{match_id} answers, but for "
                                         "`lineage.forks`, always empty, and the creator's "
                                         "`invitation_code`: read the match for those); with "
                                         "`changes=true` a `changes` event instead, data = {version, "
                                         "status, to_act, legal_actions, result, events: the new events "
                                         "as GET /matches/{match_id}/events lists them, revealed: true "
                                         "once the match ended revealed and what you hold was "
                                         "redacted} (`MatchStreamChanges`). A comment line (`: still here`) "
                                         "is a heartbeat. Reconnecting with Last-Event-ID = the version you "
                                         "hold sends nothing until the match moves on: read the match (or "
                                         "connect without it) to have the current view at once",
                                         MATCH_STREAM)})
    def get(self, query, match_id):
        """Follow a match live: the caller's view is pushed (server-sent events) whenever its version
        changes, until the match is finished (or cancelled) or ``seconds`` pass; reconnect with Last-Event-ID."""
        current = service().read_match(match_id)  # an unknown match is a 404, before the stream starts
        match_uuid = current.id
        who = viewer()
        seen = last_event_id(current.version)
        if (ended := stream_ended(current.status in OVER, seen, current.version)) is not None:
            return ended
        poll, sleep = stream_waits(match_uuid, query["poll"])
        updates = follow(service(), match_uuid, who, seen, query["seconds"], poll, sleep=sleep)

        def events():
            sent = seen
            # Whether the client holds events it was shown redacted (reconnecting, it may: say so once).
            holds_redacted = seen > 0
            for update in updates:
                if update is None:
                    yield ": still here\n\n"
                elif query["changes"]:  # only what changed since the version the client has (issue 13)
                    version, view = update
                    new = history().events(match_id, who, after=sent, until=version, limit=version - sent)
                    frame = {"version": version, "status": view["status"], "to_act": view["to_act"],
                             "legal_actions": view["legal_actions"], "result": view["result"], "events": new["items"],
                             # The match ended revealed: what the client holds of it was redacted, and a
                             # frame of new events alone never said so.
                             "revealed": view["viewer"]["sees_all"] and holds_redacted}
                    holds_redacted = not view["viewer"]["sees_all"]
                    sent = version
                    yield f"id: {version}\nevent: changes\ndata: {json_text(frame)}\n\n"
                else:
                    version, view = update
                    yield f"id: {version}\nevent: match\ndata: {json_text(view)}\n\n"

        return event_stream(events(), quiet_at_first=seen >= current.version)
