"""The games Motley hosts: what a front end needs to build a create-match form (each option as a JSON
Schema), and the JSON Schema of each game's actions and observations (api/game_schemas/, written by
api/schema_inference.py)."""

import html
import json
from functools import cache
from pathlib import Path

from flask import Response, request
from flask.views import MethodView
from markdown_it import MarkdownIt

from api import schemas
from api.context import service
from api.schemas import Blueprint
from application import errors

blp = Blueprint("games", __name__, url_prefix="/games", description="The games and their rules versions")

GAME_SCHEMAS = Path(__file__).resolve().parent / "game_schemas"
#: Each game's rules as implemented, its house rules marked (docs/rules/<game>.md, beside the code).
RULES_DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
RULES_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
RULES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: the rules</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/web/style.css"></head>
<body class="rules-page"><main><p><a href="/">Motley</a></p>
{body}</main></body></html>
"""


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


@blp.route("/<name>/rules")
class GameRules(MethodView):
    @blp.arguments(schemas.GameRulesQuery, location="query")
    @blp.doc(responses={"200": {
        "description": "The game's rules as Motley plays them (its current rules version, with the changelog "
                       "of every version; asked for an older version, headed by a note that says where to read "
                       "what it plays otherwise), each house rule marked: Markdown, or the same as an HTML "
                       "page for a browser (Accept: text/html)",
        "content": {"text/markdown": {"schema": {"type": "string"}}, "text/html": {"schema": {"type": "string"}}}}})
    def get(self, query, name):
        """The rules: a player learns them here, where the page's game cards link (they were in the
        repository only, out of a player's reach: a new-player probe). With ``?rules_version=`` of an
        older version, the same page headed by where that version differs (a player of an old match's
        fork asked for its rules and was refused: a versions probe)."""
        engine = known_engine(name)
        asked = engine_of_version(name, query["rules_version"])
        try:
            text = (RULES_DOCS / f"{name}.md").read_text(encoding="utf-8")
        except OSError:
            raise errors.NotFound(f"the rules of {name} are not installed with this copy of Motley "
                                  f"(docs/rules/{name}.md)") from None
        if asked.rules_version != engine.rules_version:
            text = (f"> **You asked for the rules of {engine.title} {asked.rules_version}**, which a match "
                    f"created under it still plays (a fork of such a match keeps it). This page is "
                    f"{engine.rules_version}'s, the rules a new match plays: what {asked.rules_version} plays "
                    f"otherwise is in the changes of every version after it, listed below. Its options and "
                    f"house rules: `GET /games/{name}?rules_version={asked.rules_version}`.\n\n" + text)
        if request.accept_mimetypes.best_match(["text/markdown", "text/html"]) == "text/html":
            body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
            # A page of this origin, as the web client's: no script at all, framed by nobody (a security probe).
            answer = Response(RULES_PAGE.format(title=html.escape(engine.title), body=body),
                              content_type="text/html; charset=utf-8", headers=RULES_PAGE_HEADERS)
        else:
            answer = Response(text, content_type="text/markdown; charset=utf-8")
        answer.vary.add("Accept")  # a cache keeps the page and the Markdown apart (both are stored: api/headers.py)
        return answer
