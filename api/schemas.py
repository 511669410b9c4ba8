"""Request and response schemas (marshmallow). Requests refuse unknown fields and wrong types."""

from __future__ import annotations

import re
import unicodedata
from uuid import UUID

import flask_smorest
from flask import current_app, request
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema
from webargs.flaskparser import FlaskParser

from application.history import BLANK_GLYPHS, CONTROL_CHARACTERS, SEAT_KEY, name_problem

#: The player id in the OpenAPI examples (a player's id as the API writes it; /docs' "Try it out"
#: sends the examples, so they are valid bodies, an id to be replaced by one of yours).
EXAMPLE_PLAYER_ID = "3f2b8c1e-6a4d-4e2b-9c1f-0a7d5e8b9c21"


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class StrictArgumentsParser(FlaskParser):
    """webargs' parser, which lets each schema refuse unknown query parameters too: by default it
    dropped them, and a typo (``?stauts=finished``, ``?versoin=12``) answered the unfiltered list or
    the live match instead of saying what was wrong (422, as for an unknown field in a body)."""

    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": None, "querystring": None}


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's blueprint with the strict parser: every module's routes are declared on it."""

    ARGUMENTS_PARSER = StrictArgumentsParser()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.before_request(refuse_undeclared_query)


def declares_query(view, method: str) -> bool:
    """Whether the route's view for ``method`` declares query parameters (flask-smorest's ``_apidoc``)."""
    handler = getattr(getattr(view, "view_class", None), method, view)
    parameters = (getattr(handler, "_apidoc", None) or {}).get("arguments", {}).get("parameters", [])
    return any(parameter.get("in") == "query" for parameter in parameters)


def refuse_undeclared_query() -> None:
    """A query parameter on a route that takes none is a 422, as the strict parser answers an unknown
    one on a route that takes some: silently ignored, a typo (``/export?verison=3``) or a filter the
    route does not have (``/games?name=jest``) answered as if it had been understood."""
    if not request.args or request.endpoint is None or request.method == "OPTIONS":
        return  # OPTIONS asks which methods the resource allows (RFC 9110 9.3.7): its query is no input
    method = "get" if request.method == "HEAD" else request.method.lower()
    if not declares_query(current_app.view_functions.get(request.endpoint), method):
        flask_smorest.abort(422, messages={"query": {name: ["Unknown field."] for name in request.args}})


class StrictBoolean(fields.Boolean):
    """Only JSON true and false: ``"yes"`` or ``1`` is a wrong type, not a boolean."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


class StrictNumber(fields.Float):
    """Only a JSON number in a body: ``"60"`` is a wrong type, as for the strict integers."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValidationError("Not a valid number.")
        return super()._deserialize(value, attr, data, **kwargs)


def Int(**kwargs):
    return fields.Integer(strict=True, **kwargs)


#: The largest integer a query or body may hold: the stores keep versions, offsets and positions in
#: 32- or 64-bit columns, and no match comes near this.
MAX_INT = 2**31 - 1

#: No control characters (C0, DEL, C1) and no lone surrogates: a NUL cannot be stored in PostgreSQL
#: text or jsonb, a lone surrogate cannot be encoded as UTF-8, and the others only serve to forge what
#: other clients display.
#: The same rule for the OpenAPI document (an ECMA-262 pattern; lone surrogates cannot be sent as UTF-8).
NO_CONTROL_CHARACTERS_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"


def no_control_characters(value: str) -> None:
    if CONTROL_CHARACTERS.search(value):
        raise ValidationError("Must not hold control characters.")


def display_name(value: str) -> None:
    """A name other players see: something visible, in the order it is written (``name_problem``)."""
    problem = name_problem(value)
    if problem:
        raise ValidationError(problem)


#: Characters that draw nothing and are no part of writing a name: format characters (a zero-width
#: space, a byte-order mark, a word joiner, tag characters) other than the zero-width (non-)joiners that
#: some scripts and emoji need, the combining grapheme joiner, and the blank letters. Inside a name they
#: make "ann" and "ann\u200b" two names that look one.
KEEPS_JOINERS = frozenset("\u200c\u200d")


def invisible(character: str) -> bool:
    return (unicodedata.category(character) == "Cf" and character not in KEEPS_JOINERS) \
        or character == "\u034f" or character in BLANK_GLYPHS


def no_invisible_characters(value: str) -> None:
    if any(invisible(character) for character in value):
        raise ValidationError("A name must not hold characters that show nothing (a zero-width space, say).")


class DisplayName(fields.String):
    """A name other players see, as they will see it: without the spaces around it, and in Unicode's
    composed form (NFC), so that an "é" typed as one character or as "e" and its accent is one name."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        # Only spaces are trimmed: a control character at either end (a tab, U+0085) is still refused.
        start, end = 0, len(text)
        while start < end and unicodedata.category(text[start]) == "Zs":
            start += 1
        while end > start and unicodedata.category(text[end - 1]) == "Zs":
            end -= 1
        return unicodedata.normalize("NFC", text[start:end])


def Name(max_length: int, **kwargs):
    """A player's or a tournament's name: free of control and invisible characters, 1 to
    ``max_length`` characters once trimmed, something visible, in the order it is written."""
    return DisplayName(validate=[no_control_characters, no_invisible_characters,
                                 validate.Length(min=1, max=max_length), display_name],
                       metadata={"pattern": NO_CONTROL_CHARACTERS_PATTERN}, **kwargs)


def Text(validate_also=(), **kwargs):
    """A string free of control characters."""
    metadata = {"pattern": NO_CONTROL_CHARACTERS_PATTERN, **kwargs.pop("metadata", {})}
    return fields.String(validate=[no_control_characters, *validate_also], metadata=metadata, **kwargs)


class IdString(fields.String):
    """A player's or match's id in a body: a UUID however it is written (upper case, braces, no hyphens)
    is the id as the API writes it, as in a path, where ``/players/{ID}`` finds the same player. Compared
    as it was sent, an upper-case id was "not registered" in a tournament."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return str(UUID(text))
        except ValueError:
            return text  # not a UUID: unknown, as the command that looks it up says


def Id(**kwargs):
    """An id in a body (``IdString``), free of control characters."""
    metadata = {"pattern": NO_CONTROL_CHARACTERS_PATTERN, **kwargs.pop("metadata", {})}
    return IdString(validate=[no_control_characters, validate.Length(max=100)], metadata=metadata, **kwargs)


class WrittenInteger(fields.Integer):
    """An integer written as one: digits, maybe a minus sign. ``int()`` also takes "+5", " 5", "5_000" and
    other scripts' digits ("٥"); a client sending those has a bug to hear about, and a position written so
    skipped the quick 422 of one past the log's end (api/limits.check_positions) for a 503 after 5 s."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not WRITTEN_INTEGER.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


WRITTEN_INTEGER = re.compile("-?[0-9]+")


def Count(**kwargs):
    """A query integer from 0 (or ``min``) to ``MAX_INT`` (a larger one is a 422, not a database error)."""
    minimum = kwargs.pop("min", 0)
    maximum = kwargs.pop("max", MAX_INT)
    return WrittenInteger(validate=validate.Range(min=minimum, max=maximum), **kwargs)


# -- players ---------------------------------------------------------------------------------------
class RegisterPlayer(StrictSchema):
    name = Name(40, required=True)


class PlayerOut(Schema):
    id = fields.String()
    name = fields.String()


class RegisteredPlayer(PlayerOut):
    api_key = fields.String(allow_none=True, metadata={"description": "Send as 'Authorization: Bearer <api_key>'. "
                                                                      "Shown once (null in a retry's answer)."})
    key_id = fields.String(allow_none=True,
                           metadata={"description": "Names this key for DELETE /players/me/keys/{key_id}"})


class NewKey(Schema):
    key_id = fields.String(metadata={"description": "Names this key for DELETE /players/me/keys/{key_id}"})
    api_key = fields.String(metadata={"description": "Send as 'Authorization: Bearer <api_key>'. Shown once."})


class HeldKey(Schema):
    key_id = fields.String(metadata={"description": "Names the key for DELETE /players/me/keys/{key_id}"})
    current = fields.Boolean(metadata={"description": "This request was sent with it"})


class KeyList(Schema):
    items = fields.List(fields.Nested(HeldKey))


# -- games -----------------------------------------------------------------------------------------
class GameOut(Schema):
    name = fields.String()
    title = fields.String()
    summary = fields.String()
    rules_version = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    default_options = fields.Dict()
    computer_levels = fields.List(fields.String())
    options_schema = fields.Dict(metadata={"description": "The options as a JSON Schema object: each one's type, "
                                                          "default, allowed values or range, and meaning"})
    schema_url = fields.String(metadata={"description": "The JSON Schema of the game's actions and observations"})


class GameSchemaOut(Schema):
    schema_uri = fields.String(data_key="$schema", attribute="$schema")
    title = fields.String()
    game = fields.String()
    rules_version = fields.String()
    action = fields.Dict(metadata={"description": "JSON Schema of an action (oneOf, by type)"})
    observation = fields.Dict(metadata={"description": "JSON Schema of a seat's observation"})
    public_observation = fields.Dict(metadata={"description": "JSON Schema of a spectator's observation"})
    redacted_action = fields.Dict(metadata={"description": "JSON Schema of another seat's move in the event list "
                                                           "while part of it is hidden (hidden: true), by type"})
    chance_outcome = fields.Dict(metadata={"description": "JSON Schema of a ChanceDrawn event's outcome, by type"})
    step = fields.Dict(metadata={"description": "JSON Schema of a StepResolved or TimedOut event's step, by type"})


# -- matches ---------------------------------------------------------------------------------------
class TurnLimit(StrictSchema):
    seconds = StrictNumber(required=True, validate=validate.Range(min=0.1, max=7 * 86400),
                           metadata={"description": "Seconds each turn may take (a deadline per turn)"})
    on_timeout = fields.String(load_default="computer", validate=validate.OneOf(["computer", "claim"]),
                               metadata={"description": "When a seat's time runs out: the computer plays it on "
                                                        "(computer), or the others may claim the match (claim)"})


#: A seat number as a JSON key: ASCII digits with no leading zero ("1", never "01", "١" or "1\n"), so
#: that two keys never name one seat and no key is too long to read as a number.
SEAT_NUMBER_PATTERN = "^(0|[1-9][0-9]{0,2})$"


def seat_number(value: str) -> None:
    if SEAT_KEY.fullmatch(value) is None:
        raise ValidationError("A seat number: 0, 1, 2, ... in ASCII digits, without leading zeros.")


class CreateMatch(StrictSchema):
    game = fields.String(required=True)
    seats = Int(required=True, validate=validate.Range(min=1, max=12))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    computers = fields.Dict(
        keys=fields.String(validate=seat_number, metadata={"pattern": SEAT_NUMBER_PATTERN}),
        values=fields.String(),
        load_default=dict,
        metadata={"description": 'Seats given to computer opponents: {"2": "strong"}'},
    )
    reveal_at_end = StrictBoolean(load_default=True,
                                  metadata={"description": "false: seats and spectators never see what was "
                                                           "hidden, not even once the match is over"})
    rated = StrictBoolean(load_default=True,
                          metadata={"description": "false: the result does not change the players' ratings"})
    require_version = StrictBoolean(load_default=False,
                                    metadata={"description": "true: a move without If-Match or expected_version "
                                                             "is refused (428)"})
    unlisted = StrictBoolean(load_default=False,
                             metadata={"description": "true: kept out of the open list, joined with the "
                                                      "invitation_code the creator reads in the match"})
    turn_limit = fields.Nested(TurnLimit, load_default=None, allow_none=True,
                               metadata={"description": "Absent players: a time limit per turn, enforced by the "
                                                        "worker (issue 13)"})


class Invite(StrictSchema):
    player_id = Id(required=True, metadata={"description": "The player invited: its stream gets an invitation"})


class JoinMatch(StrictSchema):
    seat = Int(validate=validate.Range(min=0, max=MAX_INT), load_default=None, allow_none=True)
    invitation_code = Text(load_default=None, allow_none=True, validate_also=[validate.Length(max=100)],
                           metadata={"description": "An unlisted match's invitation code"})


class SubmitMove(StrictSchema):
    action = fields.Dict(keys=fields.String(), required=True,
                         metadata={"description": "One of the legal_actions the match lists for you"})
    expected_version = Int(validate=validate.Range(min=1, max=MAX_INT), load_default=None, allow_none=True,
                           metadata={"description": "The version you saw; a stale one is refused (409)"})


class MatchQuery(StrictSchema):
    version = Count(min=1, load_default=None,
                  metadata={"description": "Rewind: the match as it was at this version"})


class MatchListQuery(StrictSchema):
    game = Text(load_default=None, validate_also=[validate.Length(max=100)])
    status = fields.String(load_default=None, validate=validate.OneOf(["open", "active", "finished", "cancelled"]))
    player = Id(load_default=None, metadata={"description": "Only matches this player is seated at"})
    open = fields.Boolean(load_default=False, metadata={"description": "Only matches with a free seat"})
    limit = Count(load_default=20, min=1, max=200)
    offset = Count(load_default=0)
    order = fields.String(load_default="activity", validate=validate.OneOf(["activity", "created"]),
                          metadata={"description": "activity: newest activity first, paged by offset; created: "
                                                   "newest listed first, paged by a stable cursor (next_cursor): "
                                                   "matches are listed in the order their creations committed, "
                                                   "a match's created_at in the list at least its own (later by "
                                                   "a microsecond where another created at once committed "
                                                   "first)"})
    cursor = Text(load_default=None, validate_also=[validate.Length(max=200)],
                  metadata={"description": "The next_cursor of the previous page (order=created): the pages "
                                           "never shift, however the list changes while it is read"})
    after = Count(load_default=None,
                           metadata={"description": "Wait (up to 5 s) until the list includes the change at this "
                                                    "Motley-Position (read your own writes); 503 with "
                                                    "Retry-After if it has not caught up by then; a position "
                                                    "past the log's end (no write answered it) is a 422"})

    @validates_schema
    def check_cursor_order(self, data, **kwargs):
        # A cursor is a place in creation order: with order=activity it paged the creation order
        # instead, and the client never learned that its pages no longer followed activity.
        if data.get("cursor") and data.get("order") == "activity":
            raise ValidationError("a cursor pages the list in creation order: send it with order=created",
                                  field_name="cursor")


class EventStreamQuery(StrictSchema):
    seconds = fields.Float(load_default=30.0, validate=validate.Range(min=0.1, max=86400),
                           metadata={"description": "How long to follow before the stream ends (up to a day; "
                                                    "reconnect with Last-Event-ID to go on)"})
    poll = fields.Float(load_default=0.2, validate=validate.Range(min=0.05, max=5),
                        metadata={"description": "Seconds between checks for a new version"})


class StreamQuery(EventStreamQuery):
    changes = fields.Boolean(load_default=False,
                             metadata={"description": "true: each frame (event `changes`) holds only what changed "
                                                     "since the version you have (Last-Event-ID): the new events as "
                                                     "you may see them, the new version, to_act and your legal "
                                                     "actions, not the whole view; `revealed: true` when the "
                                                     "events you had before it are now shown whole (the match "
                                                     "ended revealed): read GET /matches/{id}/events again"})


class MyMatchesQuery(StrictSchema):
    to_move = fields.Boolean(load_default=False, metadata={"description": "Only the matches waiting for your move"})
    limit = Count(load_default=200, min=1, max=200)
    offset = Count(load_default=0)
    after = Count(load_default=None, metadata={"description": "Wait (up to 5 s) until the list includes the "
                                                              "change at this Motley-Position (past the log's "
                                                              "end: a 422)"})


class MyStreamQuery(StrictSchema):
    seconds = fields.Float(load_default=300.0, validate=validate.Range(min=0.1, max=86400),
                           metadata={"description": "How long to follow before the stream ends (reconnect "
                                                    "with Last-Event-ID to go on)"})
    poll = fields.Float(load_default=0.2, validate=validate.Range(min=0.05, max=5),
                        metadata={"description": "Seconds between reads of the event log"})


class EventQuery(StrictSchema):
    after = Count(load_default=0, metadata={"description": "Only events after this version"})
    limit = Count(load_default=500, min=1, max=5000)
    until = Count(load_default=None, min=1, metadata={"description": "Only events up to this version"})


class SeatOut(Schema):
    seat = fields.Integer()
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    computer = fields.String(allow_none=True)
    kept_for = fields.String(allow_none=True, metadata={"description": "A fork's seat kept for this player id"})


class ToActOut(Schema):
    kind = fields.String(metadata={"description": "players, chance, auto, over (finished or cancelled) or "
                                                  "waiting (open: for its seats and its start)"})
    seats = fields.List(fields.Integer())


class MatchOut(Schema):
    id = fields.String()
    game = fields.String()
    rules_version = fields.String()
    status = fields.String(metadata={"description": "open, active, finished or cancelled"})
    created_by = fields.String(allow_none=True, metadata={"description": "The player who created it (who may "
                                                                         "cancel it and invite; a tournament's "
                                                                         "organiser for its matches)"})
    version = fields.Integer()
    seats = fields.List(fields.Nested(SeatOut))
    options = fields.Dict()
    your_seat = fields.Integer(allow_none=True)
    to_act = fields.Nested(ToActOut)
    timer = fields.Dict(allow_none=True)
    observation = fields.Raw(allow_none=True)
    legal_actions = fields.List(fields.Dict())
    result = fields.Dict(allow_none=True)
    moves = fields.Integer()
    viewer = fields.Dict(metadata={"description": "How the caller sees the match: seat, spectator or auditor"})
    reveal_at_end = fields.Boolean()
    rated = fields.Boolean(metadata={"description": "Its result counts for its human players' ratings (created "
                                                    "rated, not an imported copy, two or more human seats)"})
    chance = fields.Dict(allow_none=True, metadata={"description": "The chance commitment (SHA-256 of the "
                                                                   "seed); the seed once revealed"})
    lineage = fields.Dict(metadata={"description": "parent (match and version), forks, and imported (a copy "
                                                   "rebuilt from an export: never rated or counted)"})
    resigned = fields.List(fields.Integer(), metadata={"description": "Seats that resigned (ranked last, tied; "
                                                                      "the computer plays them on)"})
    rematch = fields.Dict(metadata={"description": "of: the match this one is the rematch of; next: the "
                                                   "rematch of this one (ids, or null)"})
    turn_limit = fields.Dict(allow_none=True, metadata={"description": "seconds per turn and on_timeout, or null"})
    turn_clock = fields.Dict(allow_none=True, metadata={"description": "The running turn: phase, deadline and the "
                                                                       "seats it waits for"})
    absent = fields.List(fields.Integer(), metadata={
        "description": "Seats whose turn ran out (until they move, or POST /matches/{id}/return)"})
    can_claim = fields.Boolean(metadata={
        "description": "Your seat may end the match now with POST /matches/{id}/claim (a match created with "
                       "turn_limit.on_timeout \"claim\", another seat's time ran out)"})
    unlisted = fields.Boolean(metadata={"description": "Joined by invitation code only"})
    versions_required = fields.Boolean(metadata={"description": "Moves must state the version they are based on"})
    invitation_code = fields.String(metadata={"description": "An unlisted match's code: its creator only"})
    state = fields.Raw(metadata={"description": "The whole game state: the auditor, or everyone once a "
                                                "finished match is revealed"})
    created_at = fields.String()
    updated_at = fields.String()


class JoinedOut(Schema):
    seat = fields.Integer()
    match = fields.Nested(MatchOut)


# -- audit and rewind (issue 11) ------------------------------------------------------------------
class DiffQuery(StrictSchema):
    from_ = Count(required=True, data_key="from",
                  metadata={"description": "The earlier version (0: before the match was created)"})
    to = Count(min=1, required=True, metadata={"description": "The later version"})


class DiffOut(Schema):
    from_ = fields.Integer(data_key="from", attribute="from")
    to = fields.Integer()
    events = fields.List(fields.Dict())
    viewer = fields.Dict()


class ForkMatch(StrictSchema):
    version = Count(min=1, required=True, strict=True,  # a body's integer: "12" or 12.5 is a wrong type
                    metadata={"description": "The parent's version the fork starts from"})
    reserved = fields.Dict(keys=fields.String(validate=validate.Regexp(r"^\d{1,2}$")),
                           values=Text(validate_also=[validate.Length(min=1, max=100)]), load_default=dict,
                           metadata={"description": 'Seats kept for named players: {"0": "<player id>"}'})


class VerifyOut(Schema):
    verified = fields.Boolean()
    chance_outcomes_checked = fields.Integer()
    inherited_from_parent = fields.Integer()
    reason = fields.String(allow_none=True)
    version = fields.Integer(allow_none=True)
    commitment = fields.String()


class TermsOut(Schema):
    turn_limit = fields.Dict(allow_none=True, metadata={"description": "seconds per turn and on_timeout, or null"})
    rated = fields.Boolean(metadata={"description": "Its result counts for its human players' ratings"})
    versions_required = fields.Boolean(metadata={"description": "Moves must state the version they are based on"})
    unlisted = fields.Boolean(metadata={"description": "Joined by invitation code only (listed only to its "
                                                       "players, asking for their own, and the auditor)"})


class MatchSummaryOut(Schema):
    id = fields.String(attribute="match_id")
    game = fields.String()
    status = fields.String()
    seats = fields.List(fields.Nested(SeatOut), attribute="players")
    open_seats = fields.Integer()
    to_act = fields.Nested(ToActOut)
    version = fields.Integer()
    moves = fields.Integer()
    winners = fields.List(fields.Integer())
    created_at = fields.DateTime()
    last_activity = fields.DateTime(attribute="updated_at")
    terms = fields.Nested(TermsOut, metadata={"description": "What a player agrees to by joining (empty for a "
                                                             "row not rewritten since the terms were listed: "
                                                             "motley rebuild matches)"})


class MatchPageOut(Schema):
    items = fields.List(fields.Nested(MatchSummaryOut))
    total = fields.Integer(metadata={"description": "The rows matching (with a cursor: those from it on)"})
    limit = fields.Integer()
    offset = fields.Integer()
    next_cursor = fields.String(allow_none=True, metadata={"description": "order=created: pass as cursor for the "
                                                                          "next page; null on the last page"})


class EventPageOut(Schema):
    items = fields.List(fields.Dict(), metadata={"description": (
        "Each event: version, type, at and its fields as the caller may see them. A move, a chance outcome "
        "or an automatic step withheld from the caller, wholly (null) or in part (another seat's cards "
        "taken out), says hidden: true; read it again once the match is revealed")})
    last_version = fields.Integer()
    version = fields.Integer(metadata={"description": "Where the match is now (its latest version)"})
    more = fields.Boolean(metadata={"description": "Whether events follow past last_version (up to until)"})
    viewer = fields.Dict(metadata={"description": "How the caller sees the match: seat, spectator or auditor"})


class ProblemTypeOut(Schema):
    type = fields.String(metadata={"description": "urn:motley:problem:<slug>"})
    slug = fields.String()
    status = fields.Integer()
    title = fields.String()
    description = fields.String()
    documentation = fields.String(metadata={"description": "Its section in docs/problems.md"})


# -- tournaments, leaderboards, profiles (issue 10) ------------------------------------------------
AFTER = dict(load_default=None, metadata={"description": "Wait (up to 5 s) until the read model includes the "
                                                          "change at this Motley-Position; 503 with Retry-After "
                                                          "if it has not caught up by then; past the log's end "
                                                          "(no write answered it) a 422"})


class CreateTournament(StrictSchema):
    game = fields.String(required=True)
    name = Name(80, required=True)
    format = fields.String(load_default="swiss", validate=validate.OneOf(["swiss", "round-robin"]))
    rounds = Int(required=True, validate=validate.Range(min=1, max=20))
    table_size = Int(load_default=None, validate=validate.Range(min=1, max=12),
                     metadata={"description": "Players per table (default: the game's largest up to 4)"})
    points = fields.List(Int(validate=validate.Range(min=0, max=1000)), load_default=None,
                         validate=validate.Length(min=1, max=100),
                         metadata={"description": "Points for places 1, 2, ... (default: table size - place)"})
    bye_points = Int(load_default=None, validate=validate.Range(min=0, max=1000),
                     metadata={"description": "Points for a bye (default: the middle place's points)"})
    tie_breaks = fields.List(fields.String(validate=validate.OneOf(["opponents-points", "wins", "average-place"])),
                             load_default=None)
    match_options = fields.Dict(keys=fields.String(), load_default=dict)
    rated = StrictBoolean(load_default=True)
    round_deadline_seconds = Int(load_default=None, allow_none=True, validate=validate.Range(min=1, max=30 * 86400),
                                 metadata={"description": "After it the organiser may forfeit absent players"})
    computer = fields.String(load_default=None, allow_none=True,
                             metadata={"description": "A computer level: computers fill the seats where the "
                                                      "players do not divide into tables (games with computers)"})
    turn_limit = fields.Nested(TurnLimit, load_default=None, allow_none=True,
                               metadata={"description": "Each table's match's time limit per turn, as a match's: "
                                                        "a seat still to act when it runs out is absent, and the "
                                                        "computer plays it (computer) or the others may claim "
                                                        "(claim), so a vanished player holds no round up"})


class TournamentListQuery(StrictSchema):
    game = Text(load_default=None, validate_also=[validate.Length(max=100)])
    status = fields.String(load_default=None, validate=validate.OneOf(["open", "active", "finished"]))
    limit = Count(load_default=20, min=1, max=200)
    offset = Count(load_default=0)
    after = Count(**AFTER)


class NoFields(StrictSchema):
    """The body of a request whose caller is its subject (register yourself, start): none, or ``{}``.
    A field is refused (422) rather than ignored: ``{"player_id": ...}`` sent to register someone else
    would otherwise register the caller."""


class AfterQuery(StrictSchema):
    after = Count(**AFTER)


class PageQuery(AfterQuery):
    limit = Count(load_default=50, min=1, max=500)
    offset = Count(load_default=0)


class Sanction(StrictSchema):
    kind = fields.String(required=True, validate=validate.OneOf(["disqualify", "void"]))
    player_id = Id(load_default=None)
    match_id = Id(load_default=None)
    reason = Text(load_default="", validate_also=[validate.Length(max=500)])


class Forfeit(StrictSchema):
    player_ids = fields.List(Id(), required=True,
                             validate=validate.Length(min=1, max=12))


class TournamentOut(Schema):
    id = fields.String()
    game = fields.String()
    name = fields.String()
    status = fields.String()
    organiser = fields.String()
    format = fields.String()
    table_size = fields.Integer()
    rounds_planned = fields.Integer()
    points = fields.List(fields.Integer())
    bye_points = fields.Integer()
    tie_breaks = fields.List(fields.String())
    match_options = fields.Dict()
    rated = fields.Boolean()
    round_deadline_seconds = fields.Integer(allow_none=True)
    computer = fields.String(allow_none=True)
    turn_limit = fields.Dict(allow_none=True, metadata={"description": "seconds per turn and on_timeout, or null"})
    players = fields.List(fields.Dict())
    rounds = fields.List(fields.Dict())
    sanctions = fields.List(fields.Dict())


class TournamentPageOut(Schema):
    items = fields.List(fields.Dict())
    total = fields.Integer()
    limit = fields.Integer()
    offset = fields.Integer()


class StandingsOut(Schema):
    tournament_id = fields.String()
    status = fields.String()
    rounds_paired = fields.Integer()
    items = fields.List(fields.Dict())


class LeaderboardOut(Schema):
    game = fields.String()
    items = fields.List(fields.Dict())
    total = fields.Integer()
    limit = fields.Integer()
    offset = fields.Integer()


class RatingHistoryOut(Schema):
    player_id = fields.String()
    game = fields.String()
    rating = fields.Dict(allow_none=True)
    history = fields.List(fields.Dict())


class ProfileOut(Schema):
    id = fields.String()
    name = fields.String()
    ratings = fields.List(fields.Dict())
    statistics = fields.List(fields.Dict())
    recent_matches = fields.List(fields.Dict())


class SanctionReportOut(Schema):
    number = fields.Integer()
    kind = fields.String()
    player_id = fields.String()
    match_id = fields.String()
    reason = fields.String()
    tournament_id = fields.String()
    position = fields.Integer()
    changed = fields.List(fields.Dict())
