"""Request and response schemas (marshmallow). Requests refuse unknown fields and wrong types."""

from __future__ import annotations

import copy
import re
from typing import ClassVar
from uuid import UUID

import flask_smorest
from flask import current_app, request
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema
from marshmallow.fields import Field
from marshmallow.schema import SchemaMeta
from webargs.flaskparser import FlaskParser

from application.history import CONTROL_CHARACTERS, SEAT_KEY
from application.names import kept_name, name_problem
from application.views import AUDITOR, SEAT, SPECTATOR
from domain import tournament as tournaments
from domain.engine import Phase
from domain.match import STATUS_ACTIVE, STATUS_CANCELLED, STATUS_FINISHED, STATUS_OPEN

#: The player id in the OpenAPI examples (a player's id as the API writes it; /docs' "Try it out"
#: sends the examples, so they are valid bodies, an id to be replaced by one of yours).
EXAMPLE_PLAYER_ID = "3f2b8c1e-6a4d-4e2b-9c1f-0a7d5e8b9c21"


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class AnswerMeta(SchemaMeta):
    """Marks every field of an ``Answer`` required but those its ``OPTIONAL`` names (each field copied
    first: a field inherited from another schema is that schema's own object)."""

    @classmethod
    def get_declared_fields(mcs, klass: SchemaMeta, cls_fields: list[tuple[str, Field]],
                            inherited_fields: list[tuple[str, Field]], dict_cls: type[dict] = dict) -> dict[str, Field]:
        declared = super().get_declared_fields(klass, cls_fields, inherited_fields, dict_cls)
        optional = set(getattr(klass, "OPTIONAL", ()))
        if optional - set(declared):
            raise TypeError(f"{klass.__name__}.OPTIONAL names no field of it: {sorted(optional - set(declared))}")
        marked = dict_cls()
        for name, field in declared.items():
            marked[name] = copy.copy(field)
            marked[name].required = name not in optional
        return marked


class Answer(Schema, metaclass=AnswerMeta):
    """An object the service answers with. Each key it declares is one the service always sends (a
    nullable one may be null), listed ``required`` in the OpenAPI document, so that a client generated
    from it types it as present and an answer without it fails validation; ``OPTIONAL`` names the
    fields (by attribute) sent only in some answers, each saying when in its schema's comment.

    Dumping ignores ``required`` (flask-smorest dumps answers: a key missing from what a view built
    is left out, and the document's validation then says so); no answer is ever loaded."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ()


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
    # No query parameter takes several values: given twice (?status=open&status=finished), the first was
    # read and the other dropped without a word, as a duplicate key in a JSON body is not (400).
    repeated = [name for name in request.args if len(request.args.getlist(name)) > 1]
    if repeated:
        flask_smorest.abort(422, messages={"query": {name: ["Given more than once."] for name in repeated}})


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
        raise ValidationError("Must not hold control characters or lone surrogates.")


def display_name(value: str) -> None:
    """A name other players see: something visible, in the order it is written (``name_problem``)."""
    problem = name_problem(value)
    if problem:
        raise ValidationError(problem)


class DisplayName(fields.String):
    """A name other players see, as they will see it: without the spaces around it, and in Unicode's
    composed form (NFC), so that an "é" typed as one character or as "e" and its accent is one name.
    ``max_length``: a name longer than it as sent (times ``COMPOSING``: composing shortens it) is refused
    before it is read any further (a name of 32,000 combining marks held a request thread for 688 s)."""

    COMPOSING = 4  # NFC makes at most one character of a few (a Hangul syllable of three jamo)

    def __init__(self, *args, max_length: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_length = max_length

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > self.COMPOSING * self.max_length:
            raise ValidationError(f"Longer than maximum length {self.max_length}.")
        return kept_name(text)


def Name(max_length: int, **kwargs):
    """A player's or a tournament's name: free of control and invisible characters, 1 to
    ``max_length`` characters once trimmed, something visible, in the order it is written."""
    return DisplayName(validate=[no_control_characters, validate.Length(min=1, max=max_length), display_name],
                       metadata={"pattern": NO_CONTROL_CHARACTERS_PATTERN}, max_length=max_length, **kwargs)


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
    return IdString(validate=[no_control_characters, validate.Length(min=1, max=100)], metadata=metadata, **kwargs)


class WrittenInteger(fields.Integer):
    """An integer written as one: digits, maybe a minus sign. ``int()`` also takes "+5", " 5", "5_000" and
    other scripts' digits ("٥"); a client sending those has a bug to hear about, and a position written so
    skipped the quick 422 of one past the log's end (api/limits.check_positions) for a 503 after 5 s."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not WRITTEN_INTEGER.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


WRITTEN_INTEGER = re.compile("-?[0-9]+")


class WrittenNumber(fields.Float):
    """A query number written in ASCII decimals ("2", "0.5"): ``float()`` also takes other scripts'
    digits ("２"), which the integers of the same queries refuse (``WrittenInteger``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not WRITTEN_NUMBER.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


WRITTEN_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def Count(**kwargs):
    """A query integer from 0 (or ``min``) to ``MAX_INT`` (a larger one is a 422, not a database error)."""
    minimum = kwargs.pop("min", 0)
    maximum = kwargs.pop("max", MAX_INT)
    return WrittenInteger(validate=validate.Range(min=minimum, max=maximum), **kwargs)


# -- players ---------------------------------------------------------------------------------------
class RegisterPlayer(StrictSchema):
    name = Name(40, required=True)


class PlayerOut(Answer):
    id = fields.String()
    name = fields.String()


class RegisteredPlayer(PlayerOut):
    api_key = fields.String(allow_none=True, metadata={"description": "Send as 'Authorization: Bearer <api_key>'. "
                                                                      "Shown once (null in a retry's answer)."})
    key_id = fields.String(allow_none=True,
                           metadata={"description": "Names this key for DELETE /players/me/keys/{key_id}"})


class NewKey(Answer):
    key_id = fields.String(metadata={"description": "Names this key for DELETE /players/me/keys/{key_id}"})
    api_key = fields.String(metadata={"description": "Send as 'Authorization: Bearer <api_key>'. Shown once."})


class HeldKey(Answer):
    key_id = fields.String(metadata={"description": "Names the key for DELETE /players/me/keys/{key_id}"})
    current = fields.Boolean(metadata={"description": "This request was sent with it"})


class KeyList(Answer):
    items = fields.List(fields.Nested(HeldKey))


# -- games -----------------------------------------------------------------------------------------
class HouseRuleOut(Answer):
    id = fields.String(metadata={"description": "Its tag or section in the game's rules document "
                                                "(docs/rules/<game>.md), as \"FC-ORDER\" or \"3.4 step 2\""})
    text = fields.String(metadata={"description": "What the engine does under it, in a sentence or two"})
    option = fields.String(allow_none=True, metadata={
        "description": "The option (a key of options_schema) that switches it; null when none does"})


class GameOut(Answer):
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
    schema_url = fields.String(metadata={"description": "The JSON Schema of the game's actions and observations "
                                                        "(inferred from its current rules version)"})
    rules_versions = fields.List(fields.String(), metadata={
        "description": "Every rules version a match of this game may be played under, oldest first: a "
                       "match keeps the version it started with (its view's rules_version); "
                       "?rules_version= reads this game as that version (its options and players)"})
    house_rules = fields.List(fields.Nested(HouseRuleOut), metadata={
        "description": "Motley's own rules, decided where the rulebook is silent or unplayable: not the "
                       "publisher's (house-rules.md [PROPOSAL]), in the order the game's rules document "
                       "gives them"})


class GameSchemaQuery(StrictSchema):
    rules_version = Text(load_default=None, validate_also=[validate.Length(min=1, max=40)], metadata={
        "description": "A rules version of the game's rules_versions (404 for another): the one document "
                       "describes them all (its rules_versions)"})


class GameQuery(StrictSchema):
    rules_version = Text(load_default=None, validate_also=[validate.Length(min=1, max=40)], metadata={
        "description": "A rules version of rules_versions (default: the current one): its options, "
                       "defaults, players and computer levels, as a match of that version has them"})


class GameRulesQuery(StrictSchema):
    rules_version = Text(load_default=None, validate_also=[validate.Length(min=1, max=40)], metadata={
        "description": "A rules version of rules_versions (default: the current one): the page is the current "
                       "one's, headed by a note on reading what that version plays otherwise"})


class GameSchemaOut(Answer):
    schema_uri = fields.String(data_key="$schema", attribute="$schema")
    title = fields.String()
    game = fields.String()
    rules_version = fields.String(metadata={"description": "The rules version it was inferred from (the current)"})
    rules_versions = fields.List(fields.String(), metadata={
        "description": "Every rules version whose actions, observations and events it describes: an older "
                       "version's are among those listed (Tumult Royale 1.0.0 offers no ready)"})
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
    options = fields.Dict(
        keys=fields.String(), load_default=dict,
        metadata={"description": "The game's options, as GET /games/{name} describes them in options_schema "
                                 "(type, values, default, bounds); any left out take their default, and the "
                                 "match stores them all. An unknown option or a value the schema does not allow "
                                 "is refused: 422 invalid-request, its detail naming the option (docs/problems.md)"})
    computers = fields.Dict(
        keys=fields.String(validate=seat_number, metadata={"pattern": SEAT_NUMBER_PATTERN}),
        values=fields.String(),
        load_default=dict,
        metadata={"description": 'Seats given to computer opponents, by seat number, with their level: '
                                 '{"2": "basic"} (every game has random, basic and mcts, Fool\'s Crown also '
                                 'strong; GET /games/{name} lists its computer_levels)'},
    )
    reveal_at_end = StrictBoolean(load_default=True,
                                  metadata={"description": "false: seats and spectators never see what the game "
                                                           "keeps hidden (the shuffles and other chance draws, "
                                                           "undealt cards, hands and face-down cards the rules "
                                                           "never show), not even once the match is over; what "
                                                           "the rules themselves show at the end is shown (e.g. "
                                                           "Jest's scored Jests, docs/rules/jest.md). true: once "
                                                           "over, everything is shown to everyone"})
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


class TournamentQuery(StrictSchema):
    version = Count(min=1, load_default=None,
                  metadata={"description": "The tournament as it was at this version (a stream item's version)"})


class MatchListQuery(StrictSchema):
    game = Text(load_default=None, validate_also=[validate.Length(min=1, max=100)])
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


#: What a stream's ``poll`` does: next to nothing here (a spectator probe found poll=5 and poll=0.05 alike).
POLL = ("Seconds between checks for news where no log watcher runs; this server's streams are woken as the "
        "event log moves and recheck at least every 5 s, whatever is asked, so it changes nothing here")


class EventStreamQuery(StrictSchema):
    seconds = WrittenNumber(load_default=30.0, validate=validate.Range(min=0.1, max=86400),
                           metadata={"description": "How long to follow before the stream ends (up to a day; "
                                                    "reconnect with Last-Event-ID to go on)"})
    poll = WrittenNumber(load_default=0.2, validate=validate.Range(min=0.05, max=5),
                        metadata={"description": POLL})


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


class MyInvitationsQuery(StrictSchema):
    limit = Count(load_default=20, min=1, max=200)
    offset = Count(load_default=0)
    after = Count(load_default=None, metadata={"description": "Wait (up to 5 s) until the list includes the "
                                                              "change at this Motley-Position (past the log's "
                                                              "end: a 422)"})


class MyStreamQuery(StrictSchema):
    seconds = WrittenNumber(load_default=300.0, validate=validate.Range(min=0.1, max=86400),
                           metadata={"description": "How long to follow before the stream ends (reconnect "
                                                    "with Last-Event-ID to go on)"})
    poll = WrittenNumber(load_default=0.2, validate=validate.Range(min=0.05, max=5),
                        metadata={"description": POLL})


class EventQuery(StrictSchema):
    after = Count(load_default=0, metadata={"description": "Only events after this version"})
    limit = Count(load_default=500, min=1, max=5000)
    # ``after`` past the end names events nobody can have seen (422); ``until`` past it is a bound on
    # a match that may still grow, so it reads to the end, as no ``until`` does.
    until = Count(load_default=None, min=1, metadata={
        "description": "Only events up to this version. Past the match's last version it reads to the end "
                       "(a live match grows); after past the last version is a 422"})


# -- answers -----------------------------------------------------------------------------------------
# The objects an answer nests are schemas of their own, so the document types every field a client reads.
# Answers that go through their schema's dump (flask-smorest's response) keep only the fields declared:
# every key the service builds is declared; where the content is a game's own, the field stays open.
MATCH_STATUSES = [STATUS_OPEN, STATUS_ACTIVE, STATUS_FINISHED, STATUS_CANCELLED]


class JsonNumber(fields.Float):
    """A JSON number answered as it is: an integer stays an integer (``fields.Float`` wrote 60 as 60.0)."""

    def _serialize(self, value, attr, obj, **kwargs):
        return value


def Moment(**kwargs):
    """A moment as the service writes it: ISO 8601 with its UTC offset."""
    # format date-time (RFC 3339, which these are): a generated client reads a datetime, as it does the list's.
    metadata = {"description": "ISO 8601, with its UTC offset", "format": "date-time", **kwargs.pop("metadata", {})}
    return fields.String(metadata=metadata, **kwargs)


class SeatOut(Answer):
    seat = fields.Integer()
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    computer = fields.String(allow_none=True, metadata={"description": "The computer level playing it (a "
                                                                       "computer opponent's seat), or null"})
    kept_for = fields.String(allow_none=True, metadata={"description": "The player id this free seat is kept "
                                                                       "for: a fork's seat (reserved) or a "
                                                                       "rematch's (each player's own seat)"})


class ToActOut(Answer):
    kind = fields.String(validate=validate.OneOf([Phase.PLAYERS, Phase.CHANCE, Phase.AUTO, Phase.OVER, "waiting"]),
                         metadata={"description": "players, chance, auto, over (finished or cancelled) or "
                                                  "waiting (open: for its seats and its start)"})
    seats = fields.List(fields.Integer(), metadata={"description": "The seats to act (kind players)"})


class ViewerOut(Answer):
    kind = fields.String(validate=validate.OneOf([SEAT, SPECTATOR, AUDITOR]),
                         metadata={"description": "seat (a player seated here), spectator (anyone else) or "
                                                  "auditor"})
    seat = fields.Integer(allow_none=True, metadata={"description": "The caller's seat, or null"})
    sees_all = fields.Boolean(metadata={"description": "Sees everything: the auditor, or anyone once a finished "
                                                       "match is revealed"})
    sees_own = fields.Boolean(metadata={"description": "Sees the seat's own private view: false without a seat, "
                                                       "and for a seat whose player resigned (the computer plays "
                                                       "it on; its view is a spectator's, also after the end for "
                                                       "the versions from the resignation on)"})


class TimerOut(Answer):
    phase = fields.String(metadata={"description": "The timed phase running, named uniquely within the match"})
    deadline = Moment(metadata={"description": "When it times out (ISO 8601, with its UTC offset)"})


class TurnClockOut(Answer):
    phase = fields.String(metadata={"description": "The turn it times (turn-<version>)"})
    deadline = Moment(metadata={"description": "When the seats it waits for become absent (ISO 8601)"})
    seats = fields.List(fields.Integer(), metadata={"description": "The seats it waits for"})


class TurnLimitOut(Answer):
    seconds = JsonNumber(metadata={"description": "Seconds each turn may take"})
    on_timeout = fields.String(validate=validate.OneOf(["computer", "claim"]),
                               metadata={"description": "When a seat's time runs out: the computer plays it on "
                                                        "(computer), or the others may claim the match (claim)"})


class ResultOut(Answer):
    # Only a match ended by resignations or a claim (domain/match.resignation_result); an engine's own
    # result (Result.to_json) holds the other four.
    OPTIONAL = ("resigned", "absent")

    scores = fields.List(JsonNumber(), metadata={"description": "One score per seat, as the game counts them"})
    ranks = fields.List(fields.Integer(), metadata={"description": "One rank per seat: 1 is best, tied seats "
                                                                   "share a rank (1, 1, 3)"})
    winners = fields.List(fields.Integer(), metadata={"description": "The seats ranked 1 (none: nobody won)"})
    detail = fields.Dict(allow_none=True, metadata={"description": "The game's own breakdown of the result "
                                                                   "(free-form, by game), or null"})
    resigned = fields.List(fields.Integer(), metadata={"description": "A match ended with resignations or a "
                                                                      "claim: the seats that resigned (ranked "
                                                                      "last, tied)"})
    absent = fields.List(fields.Integer(), metadata={"description": "A match ended with resignations or a claim: "
                                                                    "the absent seats ranked last (not those "
                                                                    "that resigned)"})


class ChanceOut(Answer):
    scheme = fields.String(metadata={"description": "How the outcomes derive from the seed"})
    commitment = fields.String(metadata={"description": "SHA-256 of the seed, public from the first event"})
    seed = fields.String(allow_none=True, metadata={"description": "The seed, once revealed to the caller "
                                                                   "(else null)"})


class ParentOut(Answer):
    match_id = fields.String(metadata={"description": "The match this one was forked from"})
    version = fields.Integer(metadata={"description": "The parent's version the fork starts from"})
    prefix_end = fields.Integer(metadata={"description": "The last version of the history copied from the parent"})


class ForkOut(Answer):
    match_id = fields.String(metadata={"description": "A fork of this match"})
    version = fields.Integer(metadata={"description": "The version it was forked at"})


class LineageOut(Answer):
    parent = fields.Nested(ParentOut, allow_none=True, metadata={"description": "The match and version this "
                                                                               "one was forked from, or null"})
    forks = fields.List(fields.Nested(ForkOut), metadata={"description": "The forks of this match the caller may "
                                                                         "know of"})
    imported = fields.Boolean(metadata={"description": "A copy rebuilt from an export: never rated or counted"})


class RematchOut(Answer):
    of = fields.String(allow_none=True, metadata={"description": "The match this one is the rematch of, or null"})
    next = fields.String(allow_none=True, metadata={"description": "The rematch of this one, or null"})


class MatchTournamentOut(Answer):
    id = fields.String(metadata={"description": "The tournament (GET /tournaments/{id})"})
    round = fields.Integer(metadata={"description": "The round this match is a table of"})
    table = fields.Integer(metadata={"description": "Its table's number in that round"})


class MatchOut(Answer):
    # invitation_code: an unlisted match, to its creator and the auditor (api/audit.with_invitation);
    # state: the auditor, or anyone once a finished match is revealed (application/views.match_view).
    OPTIONAL = ("invitation_code", "state")

    id = fields.String()
    game = fields.String()
    rules_version = fields.String()
    status = fields.String(validate=validate.OneOf(MATCH_STATUSES),
                           metadata={"description": "open, active, finished or cancelled"})
    created_by = fields.String(allow_none=True, metadata={"description": "The player who created it (who may "
                                                                         "cancel it and invite; a tournament's "
                                                                         "organiser for its matches)"})
    version = fields.Integer()
    seats = fields.List(fields.Nested(SeatOut))
    options = fields.Dict(metadata={"description": "The game's options (GET /games/{name}: options_schema)"})
    your_seat = fields.Integer(allow_none=True)
    to_act = fields.Nested(ToActOut)
    timer = fields.Nested(TimerOut, allow_none=True, metadata={"description": "The game's timed phase running "
                                                                             "(a sealed, real-time phase), or null"})
    observation = fields.Raw(allow_none=True, metadata={"description": "What the caller observes (GET "
                                                                       "/games/{name}/schema: observation, "
                                                                       "public_observation)"})
    legal_actions = fields.List(fields.Dict(), metadata={"description": "The actions your seat may send now "
                                                                        "(GET /games/{name}/schema: action); "
                                                                        "empty in a rewound read (?version=), "
                                                                        "even of the latest version: a read of "
                                                                        "history"})
    result = fields.Nested(ResultOut, allow_none=True, metadata={"description": "The result once finished, or "
                                                                               "null"})
    moves = fields.Integer()
    viewer = fields.Nested(ViewerOut, metadata={"description": "How the caller sees the match: seat, spectator "
                                                               "or auditor"})
    reveal_at_end = fields.Boolean()
    rated = fields.Boolean(metadata={"description": "Its result counts for its human players' ratings (created "
                                                    "rated, not an imported copy, two or more human seats, "
                                                    "not voided by its tournament's organiser; docs/tournaments.md)"})
    chance = fields.Nested(ChanceOut, allow_none=True, metadata={"description": "The chance commitment (SHA-256 "
                                                                               "of the seed); the seed once "
                                                                               "revealed"})
    lineage = fields.Nested(LineageOut, metadata={"description": "parent (match and version), forks, and "
                                                                 "imported (a copy rebuilt from an export: never "
                                                                 "rated or counted)"})
    resigned = fields.List(fields.Integer(), metadata={"description": "Seats that resigned (ranked last, tied; "
                                                                      "the computer plays them on)"})
    forfeited = fields.List(fields.Integer(), metadata={"description": "Seats its tournament's organiser "
                                                                       "forfeited, absent after the round's "
                                                                       "deadline (among the resigned too)"})
    tournament = fields.Nested(MatchTournamentOut, allow_none=True, metadata={
        "description": "The tournament table this match is (id, round, table), or null: any other match, "
                       "and its forks and imported copies (docs/tournaments.md)"})
    rematch = fields.Nested(RematchOut, metadata={"description": "of: the match this one is the rematch of; "
                                                                 "next: the rematch of this one (ids, or null; "
                                                                 "both null for an imported copy, whose "
                                                                 "history's links name the original's "
                                                                 "matches)"})
    turn_limit = fields.Nested(TurnLimitOut, allow_none=True,
                               metadata={"description": "seconds per turn and on_timeout, or null"})
    turn_clock = fields.Nested(TurnClockOut, allow_none=True,
                               metadata={"description": "The running turn: phase, deadline and the seats it "
                                                        "waits for"})
    absent = fields.List(fields.Integer(), metadata={
        "description": "Seats whose turn ran out (until they move, or POST /matches/{id}/return)"})
    can_claim = fields.Boolean(metadata={
        "description": "Your seat may end the match now with POST /matches/{id}/claim (a match created with "
                       "turn_limit.on_timeout \"claim\", another seat's time ran out)"})
    unlisted = fields.Boolean(metadata={"description": "Joined by invitation code only"})
    versions_required = fields.Boolean(metadata={"description": "Moves must state the version they are based on "
                                                                "(If-Match or expected_version): what "
                                                                "require_version set at its creation"})
    voided = fields.String(allow_none=True, metadata={
        "description": "Why its tournament's organiser voided it: while it was played (status \"cancelled\"), "
                       "or after it finished (its result stays, counted for nobody); null for a match never voided"})
    invitation_code = fields.String(metadata={"description": "An unlisted match's code: its creator only"})
    state = fields.Raw(metadata={"description": "The whole game state: the auditor, or everyone once a "
                                                "finished match is revealed"})
    created_at = Moment()
    updated_at = Moment()


class JoinedOut(Answer):
    seat = fields.Integer()
    match = fields.Nested(MatchOut)


# -- audit and rewind (issue 11) ------------------------------------------------------------------
class DiffQuery(StrictSchema):
    from_ = Count(required=True, data_key="from",
                  metadata={"description": "The earlier version (0: before the match was created)"})
    to = Count(min=1, required=True, metadata={"description": "The later version"})


class AsBuilt(fields.Nested):
    """A nested schema for the document only: its value is sent as the view built it. An event's fields
    are its type's own (``MatchEvent``: ``unknown = INCLUDE``), which a dump through the schema would
    drop; a free-form object typed nothing of an event-list item (a left-alone item)."""

    def _serialize(self, nested_obj, attr, obj, **kwargs):  # type: ignore[override]  # as Nested itself
        return nested_obj


class DiffOut(Answer):
    from_ = fields.Integer(data_key="from", attribute="from")
    to = fields.Integer()
    events = fields.List(AsBuilt("MatchEvent"), metadata={"description": "The events after version from, up to "
                                                                         "version to, as GET "
                                                                         "/matches/{match_id}/events lists them"})
    viewer = fields.Nested(ViewerOut, metadata={"description": "How the caller sees the match: seat, spectator "
                                                               "or auditor"})


class ForkMatch(StrictSchema):
    version = Count(min=1, required=True, strict=True,  # a body's integer: "12" or 12.5 is a wrong type
                    metadata={"description": "The parent's version the fork starts from"})
    reserved = fields.Dict(keys=fields.String(validate=validate.Regexp(r"^\d{1,2}$")),
                           values=Text(validate_also=[validate.Length(min=1, max=100)]), load_default=dict,
                           metadata={"description": 'Seats kept for named players: {"0": "<player id>"}'})


class VerifyOut(Answer):
    # The commitment: only a history verified (application/chance.Verdict: its details); one that fails, as
    # a match stored before provable chance (it made no commitment), answers verified false and the reason
    # without it. Every verdict names the history's last version and whether it holds the end.
    OPTIONAL = ("commitment",)

    verified = fields.Boolean()
    chance_outcomes_checked = fields.Integer()
    inherited_from_parent = fields.Integer()
    reason = fields.String(allow_none=True)
    version = fields.Integer(allow_none=True)
    commitment = fields.String()
    last_version = fields.Integer(metadata={"description": "The last event of the history checked"})
    ended = fields.Boolean(metadata={"description": "Whether the history checked holds the match's end (a "
                                                    "match still being played, or a file cut short, does not)"})
    committed_here = fields.Boolean(metadata={"description": (
        "This server published the commitment when the match was created, before any chance was drawn. False "
        "for an imported copy: its file brought the commitment and the seed together, so whoever wrote it could "
        "have chosen the seed (the outcomes still follow from it); verify the original where it was played")})


class TermsOut(Answer):
    # No key is always sent: a match list row written before the terms were listed holds {} until
    # `motley rebuild matches` (docs/tournaments.md, "Read models"; MatchSummaryOut.terms says so);
    # every row written since holds all four, and since 6 December 2026 the rules version and options
    # too (application/projections.match_row).
    OPTIONAL = ("turn_limit", "rated", "versions_required", "unlisted", "rules_version", "options")

    turn_limit = fields.Nested(TurnLimitOut, allow_none=True,
                               metadata={"description": "seconds per turn and on_timeout, or null"})
    rated = fields.Boolean(metadata={"description": "Its result counts for its human players' ratings (false "
                                                    "once voided by its tournament's organiser)"})
    versions_required = fields.Boolean(metadata={"description": "Moves must state the version they are based on"})
    unlisted = fields.Boolean(metadata={"description": "Joined by invitation code only (listed only to its "
                                                       "players, asking for their own, and the auditor)"})
    rules_version = fields.String(metadata={"description": "The rules version it is played under (GET "
                                                           "/games/{name}?rules_version= describes it)"})
    options = fields.Dict(metadata={"description": "Its game's options, every one (an option that switches a "
                                                   "house rule: GET /games house_rules)"})


class MatchSummaryOut(Answer):
    id = fields.String(attribute="match_id")
    game = fields.String()
    status = fields.String(validate=validate.OneOf(MATCH_STATUSES))
    seats = fields.List(fields.Nested(SeatOut), attribute="players")
    open_seats = fields.Integer(metadata={"description": "Seats nobody holds, no computer plays and none kept for "
                                                         "a named player, while the match is open (0 after); an "
                                                         "unlisted match's too, which only its players see"})
    to_act = fields.Nested(ToActOut)
    version = fields.Integer()
    moves = fields.Integer()
    winners = fields.List(fields.Integer())
    absent = fields.List(fields.Integer(), metadata={
        "description": "Seats whose turn ran out and whose player is not back: a computer plays them (or the "
                       "match waits for a claim); a finished match's were away when it ended, so a winner "
                       "among them won on the computer's play ([] in a row not rewritten since the list "
                       "held it: motley rebuild matches)"})
    created_at = fields.DateTime()
    last_activity = fields.DateTime(attribute="updated_at")
    terms = fields.Nested(TermsOut, metadata={"description": "What a player agrees to by joining (empty for a "
                                                             "row not rewritten since the terms were listed: "
                                                             "motley rebuild matches)"})


class MatchPageOut(Answer):
    # GET /matches pages with a cursor; GET /players/me/matches (api/me.py) by offset only.
    OPTIONAL = ("next_cursor",)

    items = fields.List(fields.Nested(MatchSummaryOut))
    total = fields.Integer(metadata={"description": "The rows matching (with a cursor: those from it on)"})
    limit = fields.Integer()
    offset = fields.Integer()
    next_cursor = fields.String(allow_none=True, metadata={"description": "order=created: pass as cursor for the "
                                                                          "next page; null on the last page"})


class EventPageOut(Answer):
    # "MatchEvent" by name (api/stream_schemas.py, which imports this module): the stream's frames' schema.
    items = fields.List(AsBuilt("MatchEvent"), metadata={"description": (
        "Each event: version, type, at and its fields as the caller may see them. A move, a chance outcome "
        "or an automatic step withheld from the caller, wholly (null) or in part (another seat's cards "
        "taken out), says hidden: true; read it again once the match is revealed. Each of them says hidden: "
        "false where nothing of it is withheld (all of them once the match is revealed, and the auditor's). "
        "A move (MoveMade) says by: "
        "\"player\", or \"computer\" where the computer played the seat (a computer opponent's, a resigned seat's, "
        "or one whose turn limit ran out)")})
    last_version = fields.Integer()
    version = fields.Integer(metadata={"description": "Where the match is now (its latest version)"})
    more = fields.Boolean(metadata={"description": "Whether events follow past last_version (up to until)"})
    viewer = fields.Nested(ViewerOut, metadata={"description": "How the caller sees the match: seat, spectator "
                                                               "or auditor"})


class ProblemTypeOut(Answer):
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
                         metadata={"description": "Points for places 1, 2, ...: one per place of a table, never "
                                                  "more for a worse place (default: table size - place)"})
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


TOURNAMENT_STATUSES = [tournaments.STATUS_OPEN, tournaments.STATUS_ACTIVE, tournaments.STATUS_FINISHED,
                       tournaments.STATUS_CANCELLED]


class TournamentListQuery(StrictSchema):
    game = Text(load_default=None, validate_also=[validate.Length(min=1, max=100)])
    player = Id(load_default=None, metadata={"description": "Only tournaments this player entered (registered, "
                                                            "playing, withdrawn during play or disqualified)"})
    status = fields.String(load_default=None, validate=validate.OneOf(TOURNAMENT_STATUSES))
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
    match_id = Id(load_default=None, metadata={
        "description": "The match of the table meant: refused (409) unless the players sit at that table of "
                       "the current round. Without it, the players' table of the current round, whichever it "
                       "is: a forfeit asked about one round could settle a table of the next (a probe)"})


ENTRANT_STATUSES = [tournaments.ENTRANT, tournaments.WITHDRAWN, tournaments.DISQUALIFIED]
ENTRANT_STATUS = ("registered (still in), withdrawn (not paired again; past results stand) or disqualified "
                  "(listed last, without a rank)")


class TournamentPlayerOut(Answer):
    player_id = fields.String()
    name = fields.String(metadata={"description": "The name it registered with"})
    status = fields.String(validate=validate.OneOf(ENTRANT_STATUSES), metadata={"description": ENTRANT_STATUS})


class TableResultOut(Answer):
    ranks = fields.List(fields.Integer(), allow_none=True,
                        metadata={"description": "The rank of each of the table's players, in the order of "
                                                 "players (1 is best; computers only place them); null for a "
                                                 "void table"})
    how = fields.String(validate=validate.OneOf([tournaments.PLAYED, tournaments.FORFEIT, tournaments.VOID]),
                        metadata={"description": "played (the match's result), forfeit (absent players "
                                                 "forfeited by the organiser) or void (a sanction: scores "
                                                 "nothing)"})


class TableOut(Answer):
    table = fields.Integer(metadata={"description": "The table's number in its round, from 1"})
    match_id = fields.String(metadata={"description": "The table's match (GET /matches/{match_id})"})
    players = fields.List(fields.String(), metadata={"description": "Player ids, in seat order"})
    computers = fields.Integer(metadata={"description": "Computer opponents seated after the players"})
    result = fields.Nested(TableResultOut, allow_none=True,
                           metadata={"description": "The table's result once recorded, or null"})


class RoundOut(Answer):
    round = fields.Integer(metadata={"description": "The round's number, from 1"})
    tables = fields.List(fields.Nested(TableOut))
    byes = fields.List(fields.String(), metadata={"description": "Players who sit this round out (they score "
                                                                "bye_points; one withdrawn or disqualified while "
                                                                "the round is played stays listed and scores "
                                                                "nothing for it: docs/tournaments.md)"})
    deadline = Moment(allow_none=True, metadata={"description": "After it the organiser may forfeit absent "
                                                                "players (ISO 8601), or null: no deadline"})


class SanctionOut(Answer):
    # player_id: a disqualification; match_id: a void (domain/tournament.py).
    OPTIONAL = ("player_id", "match_id")

    number = fields.Integer(metadata={"description": "Its number: GET /tournaments/{id}/sanctions/{number} "
                                                     "reports what it changed"})
    kind = fields.String(validate=validate.OneOf(["disqualify", "void"]))
    player_id = fields.String(metadata={"description": "The player disqualified (kind disqualify)"})
    match_id = fields.String(metadata={"description": "The match voided (kind void)"})
    reason = fields.String()


class TournamentOut(Answer):
    id = fields.String()
    version = fields.Integer(metadata={"description": "Its version (the ETag's number): a read with ?version= "
                                                      "shows it as it was then"})
    game = fields.String()
    name = fields.String()
    status = fields.String(validate=validate.OneOf(TOURNAMENT_STATUSES))
    organiser = fields.String(metadata={"description": "The player who created it"})
    format = fields.String(validate=validate.OneOf(list(tournaments.FORMATS)))
    table_size = fields.Integer()
    rounds_planned = fields.Integer(metadata={"description": "The number of rounds to play: the rounds given at "
                                                             "creation (rounds below lists the rounds paired so "
                                                             "far)"})
    points = fields.List(fields.Integer(), metadata={"description": "Points for places 1, 2, ..."})
    bye_points = fields.Integer()
    tie_breaks = fields.List(fields.String(validate=validate.OneOf(list(tournaments.TIE_BREAKS))))
    match_options = fields.Dict(metadata={"description": "The game's options for every table's match"})
    rated = fields.Boolean()
    round_deadline_seconds = fields.Integer(allow_none=True)
    computer = fields.String(allow_none=True)
    turn_limit = fields.Nested(TurnLimitOut, allow_none=True,
                               metadata={"description": "seconds per turn and on_timeout, or null"})
    players = fields.List(fields.Nested(TournamentPlayerOut), metadata={"description": "In registration order"})
    rounds = fields.List(fields.Nested(RoundOut), metadata={"description": "The rounds paired so far, each with "
                                                                           "its tables (not the number planned: "
                                                                           "rounds_planned)"})
    sanctions = fields.List(fields.Nested(SanctionOut), metadata={"description": "Disqualifications and voided "
                                                                                 "matches, in order"})


class TournamentSummaryOut(Answer):
    id = fields.String()
    game = fields.String()
    name = fields.String()
    status = fields.String(validate=validate.OneOf(TOURNAMENT_STATUSES))
    format = fields.String(validate=validate.OneOf(list(tournaments.FORMATS)))
    table_size = fields.Integer()
    rounds = fields.Integer(metadata={"description": "The rounds planned (rounds_planned)"})
    rounds_paired = fields.Integer()
    players = fields.Integer(metadata={"description": "How many players registered"})
    organiser = fields.String()
    created_at = Moment()


class TournamentPageOut(Answer):
    items = fields.List(fields.Nested(TournamentSummaryOut))
    total = fields.Integer()
    limit = fields.Integer()
    offset = fields.Integer()


class TieBreaksOut(Answer):
    """The tournament's tie-breaks, each under its name (only those it uses)."""

    # No key is always sent: each tournament has its own tie-breaks, none at all when created with
    # "tie_breaks": [] (then {}: domain/tournament.standings).
    OPTIONAL = ("opponents_points", "wins", "average_place")

    opponents_points = fields.Integer(data_key="opponents-points", attribute="opponents-points",
                                      metadata={"description": "The points of every opponent met"})
    wins = fields.Integer(metadata={"description": "Tables won"})
    average_place = fields.Float(data_key="average-place", attribute="average-place", allow_none=True,
                                 metadata={"description": "The average place (lower is better), rounded to 4 "
                                                          "decimals; null before any table"})


class StandingOut(Answer):
    rank = fields.Integer(allow_none=True, metadata={"description": "1 is best; tied players share a rank; null "
                                                                    "for a disqualified player, and for every "
                                                                    "player of a called-off tournament"})
    player_id = fields.String()
    name = fields.String()
    status = fields.String(validate=validate.OneOf(ENTRANT_STATUSES), metadata={"description": ENTRANT_STATUS})
    points = fields.Integer()
    played = fields.Integer(metadata={"description": "Tables played (not byes, not void ones)"})
    wins = fields.Integer()
    byes = fields.Integer()
    tie_breaks = fields.Nested(TieBreaksOut)


class StandingsOut(Answer):
    tournament_id = fields.String()
    status = fields.String(validate=validate.OneOf(TOURNAMENT_STATUSES))
    rounds_paired = fields.Integer()
    items = fields.List(fields.Nested(StandingOut), metadata={"description": "Best first, the disqualified last"})


class RatingOut(Answer):
    player_id = fields.String()
    name = fields.String()
    game = fields.String()
    mu = fields.Float(metadata={"description": "The rating's mean (openskill Plackett-Luce)"})
    sigma = fields.Float(metadata={"description": "Its uncertainty"})
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma: what players are ordered by"})
    played = fields.Integer(metadata={"description": "Rated matches played"})
    wins = fields.Integer(metadata={"description": "Rated matches won"})


class LeaderboardRowOut(RatingOut):
    """A rating with its place on the board."""

    place = fields.Integer(metadata={"description": "1 is best; players of the same rating share the better "
                                                    "place (1, 1, 3)"})


class LeaderboardOut(Answer):
    game = fields.String()
    items = fields.List(fields.Nested(LeaderboardRowOut))
    total = fields.Integer()
    limit = fields.Integer()
    offset = fields.Integer()


class RatingPointOut(Answer):
    match_id = fields.String(allow_none=True, metadata={"description": "The rated match; null for an unlisted "
                                                                       "one, but in the player's own history "
                                                                       "(its key) and to the auditor"})
    position = fields.Integer(allow_none=True, metadata={"description": "The event log position of its finish; "
                                                                       "null for an unlisted one, as match_id"})
    at = Moment(allow_none=True, metadata={"description": "When it finished (ISO 8601); null for an unlisted one, "
                                                          "as match_id"})
    place = fields.Integer(metadata={"description": "The player's rank in it"})
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma after it"})


class RatingHistoryOut(Answer):
    player_id = fields.String()
    game = fields.String()
    rating = fields.Nested(RatingOut, allow_none=True, metadata={"description": "The rating now, or null before "
                                                                               "any rated match"})
    history = fields.List(fields.Nested(RatingPointOut), metadata={"description": "The rating after each rated "
                                                                                  "match, in the order their ends "
                                                                                  "were recorded (position); the "
                                                                                  "finish times (at) of matches "
                                                                                  "ended at once may differ from "
                                                                                  "that order by milliseconds"})


class StatisticsOut(Answer):
    game = fields.String()
    played = fields.Integer(metadata={"description": "Finished matches played, rated or not, forks included: "
                                                     "those in which a person (not only computers) moved; not "
                                                     "imported copies nor void tournament tables. A seat that "
                                                     "never moved counts too, and one away at the end (the "
                                                     "computer playing it) as last"})
    wins = fields.Integer(metadata={"description": "First places, a shared one counting for each"})
    average_place = fields.Float(metadata={"description": "The average place (1 is first), rounded to 4 decimals"})


class RecentMatchOut(Answer):
    id = fields.String()
    game = fields.String()
    status = fields.String(validate=validate.OneOf(MATCH_STATUSES))
    winners = fields.List(fields.Integer(), metadata={"description": "The winning seats, once finished"})
    last_activity = Moment()


class ProfileOut(Answer):
    id = fields.String()
    name = fields.String()
    ratings = fields.List(fields.Nested(RatingOut), metadata={"description": "The rating in each game played rated"})
    statistics = fields.List(fields.Nested(StatisticsOut), metadata={"description": "Each game's finished "
                                                                                    "matches, rated or not"})
    recent_matches = fields.List(fields.Nested(RecentMatchOut), metadata={"description": "The last ten, newest "
                                                                                        "activity first"})


class RatingValueOut(Answer):
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()
    played = fields.Integer()


class RankChangeOut(Answer):
    before = fields.Integer(allow_none=True)
    after = fields.Integer(allow_none=True, metadata={"description": "null: disqualified"})


class PointsChangeOut(Answer):
    before = fields.Integer(allow_none=True)
    after = fields.Integer(allow_none=True)


class TieBreaksChangeOut(Answer):
    before = fields.Nested(TieBreaksOut, allow_none=True)
    after = fields.Nested(TieBreaksOut, allow_none=True)


class RatingChangeOut(Answer):
    before = fields.Nested(RatingValueOut, allow_none=True, metadata={"description": "null: not rated"})
    after = fields.Nested(RatingValueOut, allow_none=True, metadata={"description": "null: not rated"})


class SanctionChangeOut(Answer):
    # A player in the tournament only: one outside it is listed for its rating alone (application/league.py).
    OPTIONAL = ("rank", "points", "tie_breaks")

    player_id = fields.String()
    name = fields.String(allow_none=True)
    in_tournament = fields.Boolean(metadata={"description": "false: a player outside the tournament whose rating "
                                                            "changed (a void replays the game's ratings)"})
    rank = fields.Nested(RankChangeOut, metadata={"description": "In the tournament only"})
    points = fields.Nested(PointsChangeOut, metadata={"description": "In the tournament only"})
    tie_breaks = fields.Nested(TieBreaksChangeOut, metadata={"description": "In the tournament only"})
    rating = fields.Nested(RatingChangeOut)


class SanctionReportOut(Answer):
    # As the sanction's (SanctionOut): player_id for a disqualification, match_id for a void.
    OPTIONAL = ("player_id", "match_id")

    number = fields.Integer()
    kind = fields.String(validate=validate.OneOf(["disqualify", "void"]))
    player_id = fields.String(metadata={"description": "The player disqualified (kind disqualify)"})
    match_id = fields.String(metadata={"description": "The match voided (kind void)"})
    reason = fields.String()
    tournament_id = fields.String()
    position = fields.Integer(metadata={"description": "The event log position of the sanction"})
    changed = fields.List(fields.Nested(SanctionChangeOut),
                          metadata={"description": "Each player whose rank, points, tie-breaks or rating the "
                                                   "sanction changed, before and after"})
