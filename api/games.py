"""The games Motley hosts."""

from flask.views import MethodView
from flask_smorest import Blueprint

from api import schemas
from api.context import service
from application import errors

blp = Blueprint("games", __name__, url_prefix="/games", description="The games and their rules versions")


def game_out(name, engine):
    return {
        "name": name,
        "title": engine.title,
        "summary": engine.summary,
        "rules_version": engine.rules_version,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "default_options": engine.default_options(),
        "computer_levels": sorted(engine.bots()),
    }


@blp.route("")
class Games(MethodView):
    @blp.response(200, schemas.GameOut(many=True))
    def get(self):
        """Every game, with its player counts, options and rules version."""
        return [game_out(name, engine) for name, engine in service().games().items()]


@blp.route("/<name>")
class Game(MethodView):
    @blp.response(200, schemas.GameOut)
    def get(self, name):
        """One game."""
        games = service().games()
        if name not in games:
            raise errors.NotFound(f"no game named {name!r}", games=sorted(games))
        return game_out(name, games[name])
