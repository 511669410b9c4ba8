"""Players: register (get an API key), and read a player."""

from flask.views import MethodView
from flask_smorest import Blueprint

from api import schemas
from api.context import current_player, service

blp = Blueprint("players", __name__, url_prefix="/players", description="Register and identify players")


@blp.route("")
class Players(MethodView):
    @blp.arguments(schemas.RegisterPlayer)
    @blp.response(201, schemas.RegisteredPlayer)
    def post(self, body):
        """Register a player; the API key in the answer is shown once and stored hashed."""
        player_id, key = service().register_player(body["name"])
        return {"id": str(player_id), "name": body["name"], "api_key": key}


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, schemas.PlayerOut)
    def get(self):
        """The player whose API key authenticates this request."""
        player = current_player()
        return {"id": str(player.id), "name": player.name}


@blp.route("/<player_id>")
class PlayerById(MethodView):
    @blp.response(200, schemas.PlayerOut)
    def get(self, player_id):
        """A player's public profile."""
        player = service().get_player(player_id)
        return {"id": str(player.id), "name": player.name}
