"""A match's whole life besides its moves (issue 13): leave a seat, cancel, resign, come back, claim, rematch."""

from flask.views import MethodView

from api import schemas
from api.context import api_key, current_player, is_auditor_key, service
from api.matches import caller_view, if_match, plain, saved_answer, saved_headers, written
from api.schemas import Blueprint
from application.views import AUDITOR, Viewer, lens_for, match_view

blp = Blueprint("lifecycle", __name__, url_prefix="/matches",
                description="Leave a seat, cancel an open match, resign, play again")


@blp.route("/<match_id>/leave")
class Leave(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.MatchOut)
    def post(self, _body, match_id):
        """Give up your seat before the match starts; it is free for anyone again."""
        player = current_player()
        saved = if_match(match_id, lambda version: service().leave_match(match_id, player, version))
        return saved_answer(saved, player, 200)


@blp.route("/<match_id>/cancel")
class Cancel(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.MatchOut)
    def post(self, _body, match_id):
        """Call off an open match (its creator only, the auditor for its own forks): its status becomes
        cancelled for good."""
        if is_auditor_key(api_key()):
            # The auditor's private fork (created by "auditor"): nobody could call it off, and one nobody
            # joined stayed open for ever.
            saved = if_match(match_id, lambda version: service().cancel_match_as(match_id, AUDITOR, version))
            view = match_view(saved.match, lens_for(saved.match, Viewer.the_auditor()))
            return plain(view, 200, saved_headers(saved))
        player = current_player()
        saved = if_match(match_id, lambda version: service().cancel_match(match_id, player, version))
        return saved_answer(saved, player, 200)


@blp.route("/<match_id>/resign")
class Resign(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.MatchOut)
    def post(self, _body, match_id):
        """Resign during play: your seat is ranked last (tied with any other resigned seat) and the
        computer plays it until the end; the match ends at once when one person's seat is left, or none
        (only computers: they share the win)."""
        player = current_player()
        saved = if_match(match_id, lambda version: service().resign_match(match_id, player, version))
        return saved_answer(saved, player, 200)


@blp.route("/<match_id>/return")
class Return(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.MatchOut)
    def post(self, _body, match_id):
        """Come back after your turn ran out (your seat is ``absent``): you play your seat again, not the
        computer, and the turn limit counts for you again. 409 (``rule: absence``) when you are not absent."""
        player = current_player()
        saved = if_match(match_id, lambda version: service().come_back(match_id, player, version))
        return saved_answer(saved, player, 200)


@blp.route("/<match_id>/invitations")
class Invitations(MethodView):
    @blp.arguments(schemas.Invite, example={"player_id": schemas.EXAMPLE_PLAYER_ID})
    @blp.response(200, schemas.MatchOut)
    def post(self, body, match_id):
        """Invite a player to your open match: its GET /players/me/stream gets an ``invitation`` and it
        joins without the invitation code."""
        player = current_player()
        saved = if_match(match_id, lambda version: service().invite(match_id, player, body["player_id"], version))
        return saved_answer(saved, player, 200)


@blp.route("/<match_id>/claim")
class Claim(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(200, schemas.MatchOut)
    def post(self, _body, match_id):
        """End a match created with ``turn_limit.on_timeout = "claim"`` once another seat's time ran out
        (it is ``absent``): the absent (and resigned) seats rank last, the present ones share the win."""
        player = current_player()
        saved = if_match(match_id, lambda version: service().claim_match(match_id, player, version))
        return saved_answer(saved, player, 200)


@blp.route("/<match_id>/rematch")
class Rematch(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(201, schemas.MatchOut)
    @blp.alt_response(200, schema=schemas.MatchOut, description="The rematch another player asked for first "
                                                                 "(you are seated in the seat kept for you)")
    def post(self, _body, match_id):
        """Play again (a player of the finished match): a new open match with the same game, seats,
        computers and options, each seat kept for its player, you seated; the two link to each other
        (``rematch``). Asked again, or by another player, it answers 200 with the same rematch, the
        caller seated in its kept seat (201 with a new one once that one was cancelled)."""
        # No If-Match here: the finished match only gains rematch links, so the second asker, or a retry
        # after a lost answer, would be a 412 for the version the first rematch added.
        player = current_player()
        new_id, created = service().rematch(match_id, player)
        match = service().get_match(new_id)
        status = 201 if created else 200
        return caller_view(match, player), status, {**written(match), "Location": f"/matches/{new_id}"}
