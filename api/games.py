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
        "house_rules": [rule.to_json() for rule in engine.house_rules],
        "schema_url": f"/games/{name}/schema" + (
            "" if engine is known_engine(name) else f"?rules_version={engine.rules_version}"),
    }


def known_engine(name):
    games = service().games()
    if name not in games:
        raise errors.NotFound(f"no game named {errors.quoted(name)}", games=sorted(games))
    return games[name]


def engine_of_version(name, version):
    """Game ``name``'s engine for rules ``version`` (None: the current one); a 404 naming the versions."""
    engine = known_engine(name)
    if version is None:
        return engine
    versions = service().rules_versions(name)
    if version not in versions:
        raise errors.NotFound(f"{name} has no rules version {errors.quoted(version)}", rules_versions=list(versions))
    return versions[version]


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
        return game_out(name, engine_of_version(name, query["rules_version"]))


@blp.route("/<name>/schema")
class GameSchema(MethodView):
    @blp.arguments(schemas.GameSchemaQuery, location="query")
    @blp.response(200, schemas.GameSchemaOut)
    def get(self, query, name):
        """The JSON Schema (draft 7) of the game's actions (one variant per action type) and of what a
        seat and a spectator observe, inferred from the engine's own output over random matches (its
        current rules version's, which every older version's validate against; the event list's parts,
        redacted moves, chance outcomes and steps, from every version)."""
        # One document serves every version: inferred from the current one, it holds every older
        # version's output too (tests/platform/test_discovery.py plays each against it); ``rules_versions``
        # says which it describes, where a version's own actions are only some of those listed.
        engine_of_version(name, query["rules_version"])
        return {**game_schema(name), "rules_versions": list(service().rules_versions(name))}
