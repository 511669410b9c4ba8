"""The games Motley hosts: what a front end needs to build a create-match form (each option as a JSON
Schema), and the JSON Schema of each game's actions and observations (api/game_schemas/, written by
api/schema_inference.py)."""

import json
from functools import cache
from pathlib import Path

from flask.views import MethodView

from api import schemas
from api.context import service
from api.schemas import Blueprint
from application import errors

blp = Blueprint("games", __name__, url_prefix="/games", description="The games and their rules versions")

GAME_SCHEMAS = Path(__file__).resolve().parent / "game_schemas"


@cache
def game_schema(name: str) -> dict:
    return json.loads((GAME_SCHEMAS / f"{name}.json").read_text())


def options_schema(engine) -> dict:
    """A JSON Schema object of the game's options, from the engine (``Engine.describe_options``)."""
    return {"type": "object", "additionalProperties": False, "properties": engine.describe_options()}


def game_out(name, engine):
    return {
        "rules_versions": list(service().rules_versions(name)),
        "name": name,
        "title": engine.title,
        "summary": engine.summary,
        "rules_version": engine.rules_version,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "default_options": engine.default_options(),
        "computer_levels": sorted(engine.bots()),
        "options_schema": options_schema(engine),
        "schema_url": f"/games/{name}/schema",
    }


def known_engine(name):
    games = service().games()
    if name not in games:
        raise errors.NotFound(f"no game named {errors.quoted(name)}", games=sorted(games))
    return games[name]


@blp.route("")
class Games(MethodView):
    @blp.response(200, schemas.GameOut(many=True))
    def get(self):
        """Every game, with its player counts, options and rules version."""
        return [game_out(name, engine) for name, engine in service().games().items()]


@blp.route("/<name>")
class Game(MethodView):
    @blp.arguments(schemas.GameQuery, location="query")
    @blp.response(200, schemas.GameOut)
    def get(self, query, name):
        """One game, as its current rules version has it, or as an older one (``?rules_version=``) that
        a stored match still plays under (a fork of an old match keeps its version)."""
        engine = known_engine(name)
        if query["rules_version"] is not None:
            versions = service().rules_versions(name)
            if query["rules_version"] not in versions:
                raise errors.NotFound(f"{name} has no rules version {errors.quoted(query['rules_version'])}",
                                      rules_versions=list(versions))
            engine = versions[query["rules_version"]]
        return game_out(name, engine)


@blp.route("/<name>/schema")
class GameSchema(MethodView):
    @blp.response(200, schemas.GameSchemaOut)
    def get(self, name):
        """The JSON Schema (draft 7) of the game's actions (one variant per action type) and of what a
        seat and a spectator observe, inferred from the engine's own output over random matches (its
        current rules version's, which every older version's validate against; the event list's parts,
        redacted moves, chance outcomes and steps, from every version)."""
        known_engine(name)
        return game_schema(name)
