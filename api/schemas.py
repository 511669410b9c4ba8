"""Request and response schemas (marshmallow). Requests refuse unknown fields and wrong types."""

from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class StrictBoolean(fields.Boolean):
    """Only JSON true and false: ``"yes"`` or ``1`` is a wrong type, not a boolean."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


def Int(**kwargs):
    return fields.Integer(strict=True, **kwargs)


# -- players ---------------------------------------------------------------------------------------
class RegisterPlayer(StrictSchema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))


class PlayerOut(Schema):
    id = fields.String()
    name = fields.String()


class RegisteredPlayer(PlayerOut):
    api_key = fields.String(metadata={"description": "Send as 'Authorization: Bearer <api_key>'. Shown once."})


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


# -- matches ---------------------------------------------------------------------------------------
class CreateMatch(StrictSchema):
    game = fields.String(required=True)
    seats = Int(required=True, validate=validate.Range(min=1, max=12))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    computers = fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^\d+$")),
        values=fields.String(),
        load_default=dict,
        metadata={"description": 'Seats given to computer opponents: {"2": "strong"}'},
    )


class JoinMatch(StrictSchema):
    seat = Int(validate=validate.Range(min=0), load_default=None, allow_none=True)


class SubmitMove(StrictSchema):
    action = fields.Dict(keys=fields.String(), required=True,
                         metadata={"description": "One of the legal_actions the match lists for you"})
    expected_version = Int(validate=validate.Range(min=1), load_default=None, allow_none=True,
                           metadata={"description": "The version you saw; a stale one is refused (409)"})


class MatchQuery(StrictSchema):
    version = fields.Integer(validate=validate.Range(min=1), load_default=None,
                  metadata={"description": "Rewind: the match as it was at this version"})


class MatchListQuery(StrictSchema):
    game = fields.String(load_default=None)
    status = fields.String(load_default=None, validate=validate.OneOf(["open", "active", "finished"]))
    player = fields.String(load_default=None, metadata={"description": "Only matches this player is seated at"})
    open = fields.Boolean(load_default=False, metadata={"description": "Only matches with a free seat"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    after = fields.Integer(load_default=None, validate=validate.Range(min=0),
                           metadata={"description": "Wait (up to 5 s) until the list includes the change at this "
                                                    "Motley-Position (read your own writes)"})


class StreamQuery(StrictSchema):
    seconds = fields.Float(load_default=30.0, validate=validate.Range(min=0.1, max=300),
                           metadata={"description": "How long to follow before the stream ends"})
    poll = fields.Float(load_default=0.2, validate=validate.Range(min=0.05, max=5),
                        metadata={"description": "Seconds between checks for a new version"})


class EventQuery(StrictSchema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0),
                           metadata={"description": "Only events after this version"})
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=5000))


class SeatOut(Schema):
    seat = fields.Integer()
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    computer = fields.String(allow_none=True)


class ToActOut(Schema):
    kind = fields.String(metadata={"description": "players, chance, auto, over or waiting"})
    seats = fields.List(fields.Integer())


class MatchOut(Schema):
    id = fields.String()
    game = fields.String()
    rules_version = fields.String()
    status = fields.String()
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
    created_at = fields.String()
    updated_at = fields.String()


class JoinedOut(Schema):
    seat = fields.Integer()
    match = fields.Nested(MatchOut)


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


class MatchPageOut(Schema):
    items = fields.List(fields.Nested(MatchSummaryOut))
    total = fields.Integer()
    limit = fields.Integer()
    offset = fields.Integer()


class EventOut(Schema):
    class Meta:
        unknown = RAISE

    version = fields.Integer()
    type = fields.String()
    at = fields.String()


class EventPageOut(Schema):
    items = fields.List(fields.Dict())
    last_version = fields.Integer()
