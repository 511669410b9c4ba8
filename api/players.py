"""Players: register (get an API key), rotate and revoke keys, and read a player."""

import hashlib

from flask import request
from flask.views import MethodView

from api import schemas
from api.context import api_key, container, current_player, not_modified, service
from api.matches import IDEMPOTENCY_HEADER, IDEMPOTENCY_PARAMETER, sees_unlisted
from api.schemas import Blueprint
from application import errors
from application.freshness import wait_until_applied
from application.league import changed_at, player_league, rating_history

blp = Blueprint("players", __name__, url_prefix="/players", description="Register and identify players")


@blp.route("")
class Players(MethodView):
    @blp.arguments(schemas.RegisterPlayer, example={"name": "ann"})
    @blp.response(201, schemas.RegisteredPlayer)
    @blp.doc(parameters=[{**IDEMPOTENCY_PARAMETER, "description": (
        "A retried registration with the same key names the same player, not its key (api_key null: a key "
        "is shown once, and this key is no secret); use a UUID, as every registration shares one key space")}])
    def post(self, body):
        """Register a player; the API key in the answer is shown once and stored hashed. Retried with
        the same Idempotency-Key, the answer names the same player, with api_key and key_id null: the
        player is registered once, and its key is never shown again."""
        player_id, key = service().register_player_once(body["name"], request.headers.get(IDEMPOTENCY_HEADER) or None)
        out = {"id": str(player_id), "name": body["name"], "api_key": key,
               "key_id": None if key is None else service().key_id_of(key)}
        # Where it is, and the log's position past it (every write answers with one, README).
        headers = {"Location": f"/players/{player_id}", "Motley-Position": str(service().log_position())}
        return out, 201, headers if key is not None else {**headers, "Idempotent-Replayed": "true"}


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, schemas.PlayerOut)
    def get(self):
        """The player whose API key authenticates this request."""
        player = current_player()
        return {"id": str(player.id), "name": player.name}


@blp.route("/me/keys")
class MyKeys(MethodView):
    @blp.response(200, schemas.KeyList)
    def get(self):
        """Your keys' ids (never the keys themselves), the one this request was sent with marked
        ``current``: revoke the others you no longer use, one whose answer was lost among them."""
        player = current_player()
        current = service().key_id_of(api_key() or "")
        held = service().get_player(player.id).keys  # as stored now, not as this key was verified
        return {"items": [{"key_id": key, "current": key == current} for key in held]}

    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(201, schemas.NewKey)
    def post(self, _body):
        """Add an API key (rotation): the new key is shown once; revoke the old one once clients use it."""
        player = current_player()
        new_id, key = service().add_key(player)
        # Every write answers with the log's position past it (README), a key's too (a docs probe).
        return {"key_id": new_id, "api_key": key}, {"Location": f"/players/me/keys/{new_id}",
                                                    "Motley-Position": str(service().log_position())}


@blp.route("/me/keys/<key_id>")
class MyKey(MethodView):
    @blp.arguments(schemas.NoFields, required=False)
    @blp.response(204)
    def delete(self, _body, key_id):
        """Revoke one of your keys (not your only one): requests with it are refused from now on by this
        API process, and by the others within a few seconds (each keeps a verified key that long:
        docs/deploy.md)."""
        service().revoke_key(current_player(), key_id)
        return "", {"Motley-Position": str(service().log_position())}


@blp.route("/<player_id>")
class PlayerById(MethodView):
    @blp.arguments(schemas.AfterQuery, location="query")
    @blp.response(200, schemas.ProfileOut)
    @blp.alt_response(304, description="Not modified: neither the ratings, the match list nor the player have "
                                       "moved since the ETag sent as If-None-Match (cheap polling)")
    def get(self, query, player_id):
        """A player's public profile: rating and statistics per game, recent matches."""
        player = service().get_player(player_id)
        motley = container()
        # Both read models it shows must have the caller's write: the ratings, and the recent matches.
        wait_until_applied(motley.league_view, motley.league.name, query["after"])
        wait_until_applied(motley.match_list, motley.app.name, query["after"])
        listed_only = not sees_unlisted(str(player.id))
        # The league's last change, read before its rows, and the recent matches it shows. Not the player's
        # version: a name never changes, and the version moves only with a key added or revoked, which
        # anyone polling saw. Not the match list's position either: it moves with every event of the log,
        # so a profile polled on a busy server was never a 304.
        league = changed_at(motley.league_view)
        recent = motley.match_list.query(player_id=str(player.id), limit=10, listed_only=listed_only).rows
        shown = "|".join(f"{m.match_id}:{m.version}:{m.status}" for m in recent)
        tag = (f"profile-{league}.{hashlib.sha256(shown.encode()).hexdigest()[:12]}"
               f"{'' if listed_only else '-own'}")
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        ratings, statistics = player_league(motley.league_view, str(player.id))
        return {"id": str(player.id), "name": player.name, "ratings": ratings, "statistics": statistics,
                "recent_matches": [{"id": m.match_id, "game": m.game, "status": m.status, "winners": m.winners,
                                    "last_activity": m.updated_at.isoformat()} for m in recent]}, \
            {"ETag": f'"{tag}"'}


@blp.route("/<player_id>/ratings/<game>")
class RatingHistory(MethodView):
    @blp.arguments(schemas.AfterQuery, location="query")
    @blp.response(200, schemas.RatingHistoryOut)
    @blp.alt_response(304, description="Not modified: the ratings have not moved since the ETag sent as "
                                       "If-None-Match (cheap polling)")
    def get(self, query, player_id, game):
        """A player's rating in ``game`` now and after each rated match, in the order their ends were recorded
        (the event log's: ``position``)."""
        player = service().get_player(player_id)
        if game not in service().games():
            raise errors.NotFound(f"no game named {errors.quoted(game)}", games=sorted(service().games()))
        motley = container()
        wait_until_applied(motley.league_view, motley.league.name, query["after"])
        shown = sees_unlisted(str(player.id))
        tag = f"ratings-{changed_at(motley.league_view)}{'-own' if shown else ''}"
        if (unchanged := not_modified(tag)) is not None:
            return unchanged
        rating, history = rating_history(motley.league_view, game, str(player.id))
        # An unlisted match's rating change is the player's, but its id is for its players and the auditor;
        # so are its log position and time, which its players share: shown, anyone who compared histories
        # learnt who played a private match together, when, and each one's place.
        history = [{**{k: v for k, v in item.items() if k != "unlisted"},
                    **({} if shown or not item.get("unlisted") else {"match_id": None, "position": None, "at": None})}
                   for item in history]
        return {"player_id": str(player.id), "game": game, "rating": rating, "history": history}, \
            {"ETag": f'"{tag}"'}
