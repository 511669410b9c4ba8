"""What each server-sent event of the streams holds: one schema per event's ``data``, registered as
OpenAPI components (``register``), and the ``x-sse-events`` each stream's 200 answer lists (``stream_answer``).

OpenAPI 3.0 has no server-sent events: a stream's answer is ``text/event-stream``, a string. Its frames
(``event: <name>``, ``data: <JSON>``) were described in prose only, so a client generated from the document
typed nothing of the payload a bot depends on most (a your-turn item's match, a changes frame: a bot
developer's probe). Each stream's media type now carries the vendor extension ``x-sse-events``: each event
name it sends, with a ``$ref`` to the component schema of its data (tests/platform/test_stream_schemas.py
opens the streams and checks every frame against it). Heartbeats (comment lines) and a player stream's
first id alone carry no data, and are not listed.

Each schema's docstring is its description in the document (``describe``): apispec reads a ``Meta``
description, but then leaves out ``additionalProperties: false``, which every answer of the service states.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping

from marshmallow import INCLUDE, fields, validate

from api.openapi import markdown
from api.schemas import (
    MATCH_STATUSES,
    Answer,
    MatchOut,
    Moment,
    ResultOut,
    SanctionOut,
    StandingOut,
    ToActOut,
    TournamentOut,
)
from application.views import EVENT_FIELDS, PARTLY_SHOWN
from domain.match import Match

#: Every stored event type of a match, as its events stream names its frames (the domain's events, in
#: the order Match declares them).
MATCH_EVENT_TYPES: tuple[str, ...] = tuple(
    name for name, value in vars(Match).items()
    if isinstance(value, type) and issubclass(value, Match.Event) and value is not Match.Event)


def fields_by_type() -> str:
    """Each event type and the fields it adds (application/views.py: EVENT_FIELDS, ``listed``)."""
    described = []
    for kind in MATCH_EVENT_TYPES:
        names = [name for name in EVENT_FIELDS.get(kind, ()) if name != "request_key"]
        if kind == "Created":
            names += ["computers (bots, by the name the API used first)", "imported (an imported copy's only)"]
        if kind in PARTLY_SHOWN:
            names.append("hidden")
        if kind == "MoveMade":
            names += ["by", "request_key (the auditor's only)"]
        described.append(f"{kind}: {', '.join(names) if names else 'nothing more'}")
    return "; ".join(described)


class MatchEvent(Answer):
    """One stored event of a match as the caller may see it (hidden content redacted): an item of GET
    /matches/{match_id}/events, and the data of each frame of GET /matches/{match_id}/events/stream
    (the frame's event name is its ``type``). Its version, type and at, then the fields of its type.
    The game's own parts (a move's action, a chance outcome, a step: GET /games/{name}/schema) may
    be withheld, wholly (null) or in part: each event of the types that may be (MoveMade, ChanceDrawn,
    StepResolved, TimedOut) says ``hidden``, a boolean, true where something of it is withheld from the
    caller (read it again once the match is revealed). A MoveMade says ``by``: ``"computer"`` where the
    computer played the seat (a computer opponent's, a resigned seat's, or one whose turn limit ran
    out), else ``"player"``."""

    class Meta:
        unknown = INCLUDE  # each type has fields of its own: open (additionalProperties: true)

    version = fields.Integer(metadata={"description": "The match version this event made (the frame's id)"})
    type = fields.String(validate=validate.OneOf(MATCH_EVENT_TYPES),
                         metadata={"description": "The stored event's type (the frame's event name)"})
    at = Moment(metadata={"description": "When it was stored (ISO 8601, with its UTC offset)"})
    hidden = fields.Boolean(metadata={"description": "MoveMade, ChanceDrawn, StepResolved and TimedOut only: "
                                                     "whether something of it is withheld from the caller"})
    by = fields.String(validate=validate.OneOf(["player", "computer"]),
                       metadata={"description": "MoveMade only: who made the move for the seat"})
    OPTIONAL = ("hidden", "by")  # sent by some types only (tests/platform/test_openapi_bodies.py SOMETIMES)


class MatchStreamChanges(Answer):
    """The data of a ``changes`` frame of GET /matches/{match_id}/stream?changes=true: what changed since
    the version the client holds (the previous frame's, or its Last-Event-ID): the new version, status,
    whose turn, the caller's legal actions, the result, and the new events as the event list has them."""

    version = fields.Integer(metadata={"description": "The match's version now (the frame's id)"})
    status = fields.String(validate=validate.OneOf(MATCH_STATUSES),
                           metadata={"description": "open, active, finished or cancelled"})
    to_act = fields.Nested(ToActOut)
    legal_actions = fields.List(fields.Dict(), metadata={"description": "The actions your seat may send now "
                                                                        "(GET /games/{name}/schema: action)"})
    result = fields.Nested(ResultOut, allow_none=True, metadata={"description": "The result once finished, or "
                                                                               "null"})
    events = fields.List(fields.Nested(MatchEvent), metadata={
        "description": "The events after the version the client held, up to this one, as GET "
                       "/matches/{match_id}/events lists them"})
    revealed = fields.Boolean(metadata={"description": "The match ended revealed and what the client holds of it "
                                                       "was redacted: read the events again (GET "
                                                       "/matches/{match_id}/events) for the whole history"})


class TournamentStreamTournament(Answer):
    """The data of a ``tournament`` frame of GET /tournaments/{tournament_id}/stream: the tournament at
    the frame's version (its id), and its standings then."""

    tournament = fields.Nested(TournamentOut, metadata={"description": "As GET /tournaments/{tournament_id} "
                                                                       "answers"})
    standings = fields.List(fields.Nested(StandingOut), metadata={
        "description": "The items of GET /tournaments/{tournament_id}/standings at that version: best first, "
                       "the disqualified last"})


# -- GET /players/me/stream (application/inbox.py) --------------------------------------------------
def _kind(name: str) -> fields.String:
    return fields.String(validate=validate.OneOf([name]), metadata={"description": f"{name} (the frame's event)"})


class PlayerStreamMatchItem(Answer):
    """What every match item of the player's stream holds (its ``type`` is each subclass's own)."""

    type = fields.String(metadata={"description": "The frame's event name"})
    match_id = fields.String(metadata={"description": "The match it tells of (GET /matches/{match_id})"})
    version = fields.Integer(metadata={"description": "The match's version the item tells of (match.version)"})
    match = fields.Nested(MatchOut, metadata={"description": "The match as you see it at that version, with "
                                                             "your legal actions: a bot moves from it alone"})


class PlayerStreamInvitation(PlayerStreamMatchItem):
    """You were invited to an open match, or a seat is kept for you (a rematch, a fork): you may join it."""

    type = _kind("invitation")


class PlayerStreamSeatsFilled(PlayerStreamMatchItem):
    """An open match you sit at has every seat taken: its creator or a seated player may start it."""

    type = _kind("seats-filled")


class PlayerStreamStarted(PlayerStreamMatchItem):
    """A match you sit at started (or a fork of it resumed)."""

    type = _kind("started")


class PlayerStreamYourTurn(PlayerStreamMatchItem):
    """Your seat is to act (told once per match version): choose among ``match.legal_actions`` and send it
    (POST /matches/{match_id}/moves). Send ``expected_version`` = ``version`` only where a stale read would
    change your choice, or the match requires versions: where seats act at once, the others' moves make
    ``version`` stale often (docs/clients.md)."""

    type = _kind("your-turn")


class PlayerStreamAbsent(PlayerStreamMatchItem):
    """Your turn ran out: the computer plays your seat, or the others may claim, until you come back (POST
    /matches/{id}/return, or a move)."""

    type = _kind("absent")


class PlayerStreamClaimable(PlayerStreamMatchItem):
    """Another seat's time ran out in a match to be claimed: you may end it (POST /matches/{id}/claim)."""

    type = _kind("claimable")


class PlayerStreamFinished(PlayerStreamMatchItem):
    """A match you sit at finished: ``match.result`` holds its result."""

    type = _kind("finished")


class PlayerStreamCancelled(PlayerStreamMatchItem):
    """A match you sat at, or were invited to, was called off (before its start, or voided by its
    tournament's organiser)."""

    type = _kind("cancelled")


class PlayerStreamTournamentItem(Answer):
    """What every tournament item of the player's stream holds (its ``type`` is each subclass's own)."""

    type = fields.String(metadata={"description": "The frame's event name"})
    tournament_id = fields.String(metadata={"description": "The tournament it tells of"})
    version = fields.Integer(metadata={"description": "The tournament's version the item tells of"})
    tournament = fields.Nested(TournamentOut, metadata={"description": "The tournament as of that version (as GET "
                                                                       "/tournaments/{tournament_id} answers)"})


class PlayerStreamBye(PlayerStreamTournamentItem):
    """You sit a round of a tournament out: the bye scores you ``points``."""

    type = _kind("bye")
    round = fields.Integer(metadata={"description": "The round of the bye"})
    points = fields.Integer(metadata={"description": "What the bye scores (the tournament's bye_points)"})


class PlayerStreamForfeited(PlayerStreamTournamentItem):
    """The organiser forfeited you at a table, absent after the round's deadline."""

    type = _kind("forfeited")
    round = fields.Integer(metadata={"description": "The table's round"})
    table = fields.Integer(metadata={"description": "The table's number in its round"})
    match_id = fields.String(metadata={"description": "The table's match"})


class PlayerStreamWithdrawn(PlayerStreamTournamentItem):
    """You were withdrawn from a tournament (by yourself or its organiser)."""

    type = _kind("withdrawn")
    by = fields.String(metadata={"description": "The player id of who withdrew you: yours, or the organiser's"})


class PlayerStreamDisqualified(PlayerStreamTournamentItem):
    """The organiser disqualified you."""

    type = _kind("disqualified")
    reason = fields.String(metadata={"description": "The organiser's reason"})


class PlayerStreamTournamentFinished(PlayerStreamTournamentItem):
    """A tournament you played finished: your final standing."""

    type = _kind("tournament-finished")
    standing = fields.Nested(StandingOut, metadata={"description": "Your row of its final standings"})


class PlayerStreamStandingsChanged(PlayerStreamTournamentItem):
    """A sanction after a tournament's end (another's disqualification, a voided match) changed its final
    standings: your standing now."""

    type = _kind("standings-changed")
    sanction = fields.Nested(SanctionOut, metadata={"description": "The sanction"})
    standing = fields.Nested(StandingOut, metadata={"description": "Your row of its standings now"})


class PlayerStreamTournamentCancelled(PlayerStreamTournamentItem):
    """A tournament you registered for was called off before its start."""

    type = _kind("tournament-cancelled")


#: The component schemas this module adds to the document, by name (``register``).
COMPONENTS: dict[str, type[Answer]] = {schema.__name__: schema for schema in (
    MatchEvent, MatchStreamChanges, TournamentStreamTournament,
    PlayerStreamInvitation, PlayerStreamSeatsFilled, PlayerStreamStarted, PlayerStreamYourTurn, PlayerStreamAbsent,
    PlayerStreamClaimable, PlayerStreamFinished, PlayerStreamCancelled,
    PlayerStreamBye, PlayerStreamForfeited, PlayerStreamWithdrawn, PlayerStreamDisqualified,
    PlayerStreamTournamentFinished, PlayerStreamStandingsChanged, PlayerStreamTournamentCancelled,
)}

#: Each stream's events: event name -> the component schema of its data.
MATCH_STREAM = {"match": "MatchOut", "changes": "MatchStreamChanges"}
MATCH_EVENTS_STREAM = {kind: "MatchEvent" for kind in MATCH_EVENT_TYPES}
TOURNAMENT_STREAM = {"tournament": "TournamentStreamTournament"}
PLAYER_STREAM = {
    "invitation": "PlayerStreamInvitation", "seats-filled": "PlayerStreamSeatsFilled",
    "started": "PlayerStreamStarted", "your-turn": "PlayerStreamYourTurn", "absent": "PlayerStreamAbsent",
    "claimable": "PlayerStreamClaimable", "finished": "PlayerStreamFinished", "cancelled": "PlayerStreamCancelled",
    "bye": "PlayerStreamBye", "forfeited": "PlayerStreamForfeited", "withdrawn": "PlayerStreamWithdrawn",
    "disqualified": "PlayerStreamDisqualified", "tournament-finished": "PlayerStreamTournamentFinished",
    "standings-changed": "PlayerStreamStandingsChanged", "tournament-cancelled": "PlayerStreamTournamentCancelled",
}

#: Said at the end of each stream's 200 description.
SEE_EVENTS = ("Each frame's `data` (JSON) is described in this media type's `x-sse-events`: each event name this "
              "stream sends, with a `$ref` to the component schema of its data (OpenAPI 3.0 cannot describe "
              "server-sent events otherwise)")


def stream_answer(description: str, events: Mapping[str, str]) -> dict:
    """A stream's 200 answer: ``text/event-stream`` (a string to OpenAPI 3.0), with ``x-sse-events``
    naming the schema of each event's data."""
    return {"description": f"{description}. {SEE_EVENTS}",
            "content": {"text/event-stream": {
                "schema": {"type": "string"},
                "x-sse-events": {name: {"$ref": f"#/components/schemas/{schema}"} for name, schema in events.items()},
            }}}


def describe(schema: type[Answer]) -> str:
    """A schema's description: its docstring (and, for an event, the fields of each type)."""
    text = " ".join(inspect.cleandoc(schema.__doc__ or "").split())
    return f"{text} Fields by type: {fields_by_type()}." if schema is MatchEvent else text


def register(spec) -> None:
    """Add the schemas of the streams' data to ``spec``'s components (those they nest, MatchOut and the
    like, are the routes' answers' own)."""
    for name, schema in COMPONENTS.items():
        if name not in spec.components.schemas:
            spec.components.schema(name, {"description": describe(schema)}, schema=schema)
        else:  # a route's answer nests it already (MatchEvent: the event list's items), undescribed
            spec.components.schemas[name].setdefault("description", markdown(describe(schema)))
