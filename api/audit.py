"""Audit and rewind (issue 11): diffs, export and import, forks, the chance check and the live event
stream. Every answer goes through the one visibility policy (``application/views.py``) for the
caller's viewer: a seat (its API key), a spectator (no key) or the auditor (``MOTLEY_AUDITOR_KEY``)."""

from __future__ import annotations

import hashlib

from flask import Response, request, stream_with_context
from flask.views import MethodView

from api import schemas
from api.context import (
    api_key,
    authenticated,
    check_match_if_match,
    container,
    current_player,
    event_stream,
    is_auditor_key,
    json_text,
    reader_mark,
    service,
    stream_ended,
    stream_waits,
)
from api.schemas import Blueprint
from api.stream_schemas import MATCH_EVENTS_STREAM, stream_answer
from application import errors
from application.following import OVER, follow_events
from application.history import History
from application.service import creation_scope, parse_id
from application.views import Viewer

blp = Blueprint("audit", __name__, url_prefix="/matches",
                description="Audit and rewind: diffs, export and import, forks, provable chance, live events")

JSON_LINES = "application/x-ndjson"
#: The largest history an import reads (a 10,000-event match is about 2 MB).
IMPORT_MAX_BYTES = 32 * 1024 * 1024


def viewer() -> Viewer:
    """The caller as a viewer: the auditor's credential, a player's key (a wrong key is a 401), or
    nobody (a spectator)."""
    key = api_key()
    if key is None:
        return Viewer.spectator()
    if is_auditor_key(key):
        return Viewer.the_auditor()
    return Viewer.player(str(authenticated(key).id))


def last_event_id(version_now: int) -> int:
    """The version a match's stream resumes after (``Last-Event-ID``; 0 without one). One past the
    match's version now was never sent by this stream (an id of another stream): a client's mistake, said
    at once (422) as the event list says it of ``after``, not a stream that sends nothing for its
    whole time, or, once the match catches up, skips the events in between."""
    text = (request.headers.get("Last-Event-ID") or "").strip()
    seen = int(text) if text.isdigit() else 0
    if seen > version_now:
        raise errors.InvalidRequest(f"Last-Event-ID ({seen}) is past the match's last version ({version_now})")
    return seen


def with_invitation(match, who, view):
    """An unlisted match's invitation code is shown to its creator only, who passes it on (the auditor
    creates the forks it makes of a live match unlisted, and sees everything anyway)."""
    creator = who.player_id is not None and who.player_id == match.created_by
    if match.invitation is not None and (who.auditor or creator):
        view["invitation_code"] = match.invitation
    return view


def created_headers(match) -> dict:
    """A new match's answer headers: where it is, its version, and the log position its write reached
    (``?after=`` on a read model then shows it), as every write answers."""
    return {"Location": f"/matches/{match.id}", "ETag": f'"{match.version}{reader_mark()}"',  # the reader's view
            "Motley-Position": str(service().log_position())}


def history() -> History:
    return History(service())


def register(app) -> None:
    """Before the body limits run: an import may be larger than any other request."""

    @app.before_request
    def allow_large_imports():
        if request.endpoint == "audit.Import":
            request.max_content_length = IMPORT_MAX_BYTES


@blp.route("/<match_id>/diff")
class Diff(MethodView):
    @blp.arguments(schemas.DiffQuery, location="query")
    @blp.response(200, schemas.DiffOut)
    def get(self, query, match_id):
        """The events between two versions (``from`` < version <= ``to``) as the caller may see them."""
        # If-Match after the read's own refusals (a bad range's 422): a request that fails anyway is not
        # answered 412 (RFC 9110 §13.2.1), as the match's rewound read does.
        answer = history().diff(match_id, viewer(), query["from_"], query["to"])
        check_match_if_match(lambda: service().read_match(match_id).version)
        return answer


@blp.route("/<match_id>/export")
class Export(MethodView):
    @blp.doc(responses={"200": {
        "description": "JSON Lines: one event a line, with the game and rules version, redacted for the caller",
        "content": {JSON_LINES: {"schema": {"type": "string", "description": "One JSON object a line"}}},
        "headers": {"Content-Disposition": {"description": 'attachment; filename="match-<id>.jsonl"',
                                            "schema": {"type": "string"}, "required": True}}}})
    def get(self, match_id):
        """The whole match as JSON Lines, as the caller may see it (the auditor's is unredacted and
        can be imported)."""
        lines = history().export(match_id, viewer())
        first = next(lines, "")  # refusals (404, 401) are raised before the answer starts
        check_match_if_match(lambda: service().read_match(match_id).version)
        body = (chunk for part in ([first], lines) for chunk in part)
        response = Response(stream_with_context(body), mimetype=JSON_LINES)
        # The id as the API writes it: "urn:uuid:..." or upper case also find the match, and a colon is
        # no part of a file name on every system.
        response.headers["Content-Disposition"] = f'attachment; filename="match-{parse_id(match_id, "match")}.jsonl"'
        return response


@blp.route("/import")
class Import(MethodView):
    @blp.response(201, schemas.MatchOut)
    @blp.doc(requestBody={"content": {JSON_LINES: {"schema": {"type": "string"}}}, "required": True,
                          "description": "An auditor's export of a match (JSON Lines, read under any media type)"})
    def post(self):
        """Create a new match from an auditor's export: every event is replayed through the rules
        (the engine's checked step) and the bookkeeping checked; a tampered or illegal history is
        refused (422) with its line number and the reason. Auditor only."""
        if not is_auditor_key(api_key()):
            if api_key() is None:
                raise errors.Unauthenticated("import needs the auditor's credential")
            current_player()  # a key nobody holds is a 401, as everywhere
            raise errors.Forbidden("only the auditor imports histories")
        try:
            # Decoded strictly: werkzeug's as_text replaces a bad byte with U+FFFD, and the copy was
            # saved with a name the file did not hold.
            text = request.get_data().decode("utf-8")
        except UnicodeDecodeError:
            raise errors.BadRequest("the history must be UTF-8 JSON Lines") from None
        text = text.removeprefix("\ufeff")  # a byte order mark, as an editor on Windows saves the file
        match = history().import_history(text, request.headers.get("Idempotency-Key") or None, auditor_scope())
        _, view = history().match(match.id, Viewer.the_auditor())
        headers = created_headers(match)
        if getattr(match, "replayed", False):  # a retry: the first copy
            headers["Idempotent-Replayed"] = "true"
        return view, 201, headers


@blp.route("/<match_id>/forks")
class Forks(MethodView):
    @blp.arguments(schemas.ForkMatch, example={"version": 12})
    @blp.response(201, schemas.MatchOut)
    def post(self, body, match_id):
        """Fork the match at a version: a new match with that history, its seats open again
        (``reserved`` keeps a seat for a named player), later chance drawn afresh. The parent is not
        changed; both show the lineage. Allowed once the match is finished and revealed, or to the
        auditor."""
        who = viewer()
        player = None if who.auditor else current_player()
        creator = "auditor" if player is None else str(player.id)
        # The fork's id under an Idempotency-Key comes from a secret of its creator's (the player's salt,
        # the auditor's key): an auditor's private fork of a live match, its id computed from "auditor"
        # and a guessed key, told its players that the auditor was looking into their match.
        scope = creation_scope(player) if player is not None else auditor_scope()
        fork = history().fork(match_id, who, body["version"], body["reserved"], creator,
                              request.headers.get("Idempotency-Key") or None, scope=scope)
        _, view = history().match(fork.id, who)
        headers = created_headers(fork)
        if getattr(fork, "replayed", False):  # a retry: the first fork
            headers["Idempotent-Replayed"] = "true"
        return with_invitation(fork, who, view), 201, headers


@blp.route("/<match_id>/verify")
class Verify(MethodView):
    @blp.response(200, schemas.VerifyOut)
    @blp.alt_response(409, response="CONFLICT", description="The seed is not revealed yet (the match is not "
                                                            "finished, or was created not to reveal it)")
    def get(self, match_id):
        """Check the chance commitment and re-derive every chance outcome from the revealed seed
        (docs/architecture.md, "Provable chance"). 409 until the seed is revealed."""
        verdict = history().verify(match_id, viewer())  # its 409 (no seed yet) before a 412
        check_match_if_match(lambda: service().read_match(match_id).version)
        return verdict


@blp.route("/<match_id>/events/stream")
class EventStream(MethodView):
    @blp.arguments(schemas.EventStreamQuery, location="query")
    @blp.doc(responses={"204": {"description": "Nothing will come: the match is over and Last-Event-ID "
                                               "is its last version (an EventSource stops reconnecting on a 204)"},
                    "200": stream_answer("Server-sent events: one per stored event, id = its version, "
                                         "event = the stored event's type (`Created`, `SeatTaken`, "
                                         "`Started`, `ChanceDrawn`, `MoveMade`, `StepResolved`, "
                                         "`Finished`, ...: docs/architecture.md lists them), data = the "
                                         "event as the caller may see it (an item of GET "
                                         "/matches/{match_id}/events: `MatchEvent`). A comment line "
                                         "(`: still here`) is a heartbeat", MATCH_EVENTS_STREAM)})
    def get(self, query, match_id):
        """The match's events live, redacted like the event list; resume with ``Last-Event-ID`` (the
        last version received): nothing is missed, nothing repeated. Ends when the match is finished
        (or cancelled) and every event is sent, or after ``seconds``."""
        who = viewer()
        motley_history = history()
        latest, _ = motley_history.lens(match_id, who)  # 404 before the stream starts
        seen = last_event_id(latest.version)
        if (ended := stream_ended(latest.status in OVER, seen, latest.version)) is not None:
            return ended
        poll, sleep = stream_waits(latest.id, query["poll"])
        items = follow_events(motley_history, latest.id, who, seen, query["seconds"], poll, sleep=sleep)

        def events():
            for item in items:
                if item is None:
                    yield ": still here\n\n"
                else:
                    yield f"id: {item['version']}\nevent: {item['type']}\ndata: {json_text(item)}\n\n"

        return event_stream(events(), quiet_at_first=seen >= latest.version)


def auditor_scope() -> str:
    """The scope of the auditor's Idempotency-Keys: a secret of the auditor's, so an id computed from a
    guessed key tells nobody what the auditor made."""
    return "auditor:" + hashlib.sha256(container().settings.auditor_key.encode()).hexdigest()
