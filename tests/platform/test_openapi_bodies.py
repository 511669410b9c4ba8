"""The OpenAPI document types the answers' bodies, as a client generated from it needs them, and /docs
reads well (a newcomer's report).

The answers' nested objects were untyped (``fields.Dict()``: ``{"type": "object",
"additionalProperties": {}}``): tournament rounds and tables, standings rows, leaderboard rows, profiles,
rating histories, sanction reports, a match's result, timer, clock, viewer, lineage and chance. Each is a
schema of its own now, with every key the service answers: the answers of a played tournament and of
matches are checked here against a strict copy of the document (no key it does not declare), every key
each typed object declares is seen in them, and answers that go through their schema's dump are
compared with what the service built (a key the schema missed would be dropped silently).

/docs (Swagger UI) renders Markdown: the docstrings' reStructuredText literals (``total``) showed
as typed, and an operation's whole first paragraph was its summary.

No answer schema listed ``required`` keys (a probe that checked ~31,000 real answers found only the
Problem schema did): a generated client took every key of every answer as optional, and a key the
service stopped sending could never fail validation. Each answer schema lists now the keys the service
always sends (``api.schemas.Answer``; a nullable one may be null), and only the keys it sends in some
answers stay optional: here every answer component has its list, the real answers hold every key it
names (a dropped one fails), and every optional key the scenario reaches is seen missing somewhere."""

from __future__ import annotations

import copy
import json
import random
import re
import time
from collections import defaultdict

import pytest
from marshmallow import fields
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIResponse
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict
from werkzeug.wrappers import Response

from api import create_app, schemas
from api.openapi import split_sentence
from application.league import leaderboard, player_league, rating_history, standings_rows
from application.views import tournament_view
from domain.engine import Phase
from tests.platform.openapi_check import AnsweredRequest

#: The answers' objects that were untyped, by component and property: each now names a schema with
#: properties (through an array's items, a map's values or a nullable reference).
TYPED = {
    "TournamentOut": ["players", "rounds", "sanctions", "turn_limit"],
    "RoundOut": ["tables"],
    "TableOut": ["result"],
    "StandingsOut": ["items"],
    "StandingOut": ["tie_breaks"],
    "LeaderboardOut": ["items"],
    "ProfileOut": ["ratings", "statistics", "recent_matches"],
    "RatingHistoryOut": ["rating", "history"],
    "SanctionReportOut": ["changed"],
    "SanctionChangeOut": ["rank", "points", "tie_breaks", "rating"],
    "MatchOut": ["result", "timer", "turn_clock", "viewer", "lineage", "chance", "rematch", "turn_limit"],
    "LineageOut": ["parent", "forks"],
    "TournamentPageOut": ["items"],
    "EventPageOut": ["viewer"],
    "DiffOut": ["viewer"],
}
#: Where the content is a game's own (its options, observation, state, actions, result's breakdown) or
#: an event's fields, the object stays open: every other object an answer holds is typed.
OPEN = {"MatchOut.options", "MatchOut.observation", "MatchOut.legal_actions[]", "MatchOut.state",
        "ResultOut.detail", "TournamentOut.match_options", "TermsOut.options"}
#: Status-like fields: each one lists the values it takes.
ENUMS = {("MatchOut", "status"), ("ToActOut", "kind"), ("ViewerOut", "kind"), ("MatchSummaryOut", "status"),
         ("TournamentOut", "status"), ("TournamentOut", "format"), ("TournamentPlayerOut", "status"),
         ("TableResultOut", "how"), ("SanctionOut", "kind"), ("StandingsOut", "status"), ("StandingOut", "status"),
         ("SanctionReportOut", "kind"), ("RecentMatchOut", "status"), ("TournamentSummaryOut", "status"),
         ("TurnLimitOut", "on_timeout")}
#: Keys an object holds only in answers the scenario below does not give: an unlisted match's code, and
#: the timer of a game's real-time phase (jest and jester have none).
RARE = {"MatchOut": {"invitation_code"}, "TimerOut": {"phase", "deadline"}}
#: The answer components without a ``required`` list, every key of which is genuinely optional:
NOTHING_ALWAYS_SENT = {
    # Each tournament answers its own tie-breaks only (none at all when created with "tie_breaks": []).
    "TieBreaksOut",
    # A match list row written before the terms were listed holds {} until `motley rebuild matches`
    # (docs/tournaments.md, "Read models"), as MatchSummaryOut.terms says; rows written since hold all four
    # (and the rules version and options since 2026-12-06).
    "TermsOut",
}
#: Optional keys that the scenario's answers all held (each sent only in answers it does not give,
#: or missing only from answers it does not give): every other optional key is seen missing somewhere.
OPTIONAL_SEEN_ALWAYS = {
    # Every tournament of the scenario uses all three tie-breaks.
    "TieBreaksOut": {"opponents-points", "wins", "average-place"},
    # Only a match list row written before the terms were listed lacks them.
    "TermsOut": {"turn_limit", "rated", "versions_required", "unlisted", "rules_version", "options"},
    # Only a history that fails the check lacks it (a match stored before provable chance: no commitment).
    "VerifyOut": {"commitment"},
}


@pytest.fixture
def app(sqlite_motley):
    return create_app(sqlite_motley)


@pytest.fixture
def document(app):
    return app.test_client().get("/openapi.json").get_json()


def reference(schema):
    """The component a schema refers to, directly or as an allOf or oneOf of it (and null)."""
    for branch in [schema, *schema.get("allOf", []), *schema.get("oneOf", [])]:
        if "$ref" in branch:
            return branch["$ref"].rsplit("/", 1)[1]
    return None


def component(document, schema):
    """The component a property's schema names: itself, through an array's items or a map's values;
    None for an inline schema."""
    if reference(schema) is not None:
        return reference(schema)
    if "items" in schema:
        return component(document, schema["items"])
    if isinstance(schema.get("additionalProperties"), dict):
        return component(document, schema["additionalProperties"])
    return None


def test_the_answers_nested_objects_are_schemas_with_properties(document):
    schemas = document["components"]["schemas"]
    for name, properties in TYPED.items():
        for prop in properties:
            target = component(document, schemas[name]["properties"][prop])
            assert target is not None, f"{name}.{prop} is untyped: {schemas[name]['properties'][prop]}"
            assert schemas[target]["properties"], (name, prop, target)
            assert schemas[target]["additionalProperties"] is False, (name, prop, target)


def open_objects(document, name, seen=None):
    """The properties of component ``name`` (and of every component it reaches) that are open objects."""
    schemas = document["components"]["schemas"]
    seen = set() if seen is None else seen
    if name in seen:
        return set()
    seen.add(name)
    found = set()
    for prop, schema in schemas[name].get("properties", {}).items():
        for where, inner in ((f"{name}.{prop}", schema), (f"{name}.{prop}[]", schema.get("items"))):
            if inner is None:
                continue
            target = component(document, inner)
            if target is not None:
                found |= open_objects(document, target, seen)
            elif inner.get("type") in ("object", None) and "items" not in inner and not inner.get("properties"):
                found.add(where)
    return found


def test_only_a_games_own_content_stays_an_open_object(document):
    """A generated client gets a type for everything but what each game defines for itself."""
    answers = ["MatchOut", "JoinedOut", "TournamentOut", "TournamentPageOut", "StandingsOut", "LeaderboardOut",
               "ProfileOut", "RatingHistoryOut", "SanctionReportOut", "MatchPageOut", "EventPageOut", "DiffOut"]
    found = set()
    for name in answers:
        found |= open_objects(document, name)
    assert found == OPEN


#: The keys each answer component sends only sometimes (by data key): every other key it declares is
#: always sent, and listed required (api/schemas.py says when each of these is sent).
SOMETIMES = {
    "MatchOut": {"invitation_code", "state"},  # the creator of an unlisted match; the auditor or revealed
    "ResultOut": {"resigned", "absent"},  # a match ended by resignations or a claim
    "MatchPageOut": {"next_cursor"},  # GET /matches, not GET /players/me/matches nor /invitations
    "VerifyOut": {"commitment"},  # a history verified
    "MatchEvent": {"hidden", "by"},  # the events that may withhold something; a move
    "SanctionOut": {"player_id", "match_id"},  # a disqualification; a void
    "SanctionReportOut": {"player_id", "match_id"},
    "SanctionChangeOut": {"rank", "points", "tie_breaks"},  # a player in the tournament
    "TieBreaksOut": {"opponents-points", "wins", "average-place"},
    "TermsOut": {"turn_limit", "rated", "versions_required", "unlisted", "rules_version", "options"},
}


def references(node) -> list[str]:
    """The components ``node`` refers to (not through them)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return [node["$ref"].rsplit("/", 1)[1]]
        return [name for value in node.values() for name in references(value)]
    if isinstance(node, list):
        return [name for value in node for name in references(value)]
    return []


def answer_components(document) -> set[str]:
    """Every component a 2xx answer's body names, directly or through another component."""
    schemas_ = document["components"]["schemas"]
    todo = [name for item in document["paths"].values() for operation in item.values() if isinstance(operation, dict)
            for status, response in operation.get("responses", {}).items()
            if str(status).startswith("2") and isinstance(response, dict)
            for name in references(response.get("content", {}))]
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += references(schemas_[name])
    return found


def test_every_answer_schema_lists_the_keys_the_service_always_sends(document):
    """A client generated from the document types what an answer always holds as present: each answer
    component lists it ``required`` (nullable where it may be null); only what is sent sometimes is not."""
    schemas_ = document["components"]["schemas"]
    answers = answer_components(document)
    assert {"MatchOut", "SeatOut", "TournamentOut", "TableOut", "SanctionChangeOut", "HealthOut",
            "ReadyOut"} <= answers and NOTHING_ALWAYS_SENT <= answers
    assert not answers & {"CreateMatch", "TurnLimit", "Problem"}  # request bodies and refusals are not answers
    for name in sorted(answers):
        schema = schemas_[name]
        if name in NOTHING_ALWAYS_SENT:
            assert "required" not in schema, name
            continue
        assert schema.get("required"), f"{name} lists no required key: a client takes all of them as optional"
        assert set(schema["required"]) <= set(schema["properties"]), name
    optional = {name: set(schemas_[name]["properties"]) - set(schemas_[name].get("required", ())) for name in answers}
    assert {name: keys for name, keys in optional.items() if keys} == SOMETIMES
    # A key always sent that may be null is required and nullable ("that schema, or null" for an object).
    match = schemas_["MatchOut"]
    assert {"result", "your_seat"} <= set(match["required"]) and match["properties"]["your_seat"]["nullable"]
    assert {"type": "object", "nullable": True, "enum": [None]} in match["properties"]["result"]["oneOf"]
    assert {"api_key", "key_id"} <= set(schemas_["RegisteredPlayer"]["required"])  # null in a retry's answer
    # Request bodies keep their own required keys: what a client must send.
    assert schemas_["CreateMatch"]["required"] == ["game", "seats"] and schemas_["TurnLimit"]["required"] == ["seconds"]


def test_an_answer_marks_its_fields_required_but_those_it_names_optional():
    assert schemas.PlayerOut._declared_fields["name"].required and schemas.MatchOut().fields["id"].required
    assert not schemas.MatchOut().fields["state"].required

    class Anonymous(schemas.PlayerOut):
        OPTIONAL = ("name",)

    # The inherited field is copied: the schema it comes from still requires it.
    assert not Anonymous._declared_fields["name"].required and Anonymous._declared_fields["id"].required
    assert schemas.PlayerOut._declared_fields["name"].required
    # Dumping ignores it: a missing key is left out (and the document's validation says so).
    assert Anonymous().dump({"id": "x"}) == {"id": "x"} == schemas.PlayerOut().dump({"id": "x"})
    with pytest.raises(TypeError, match="nmae"):
        type("Misnamed", (schemas.Answer,), {"OPTIONAL": ("nmae",), "name": fields.String()})


def test_status_fields_list_their_values(document):
    schemas = document["components"]["schemas"]
    for name, prop in ENUMS:
        assert schemas[name]["properties"][prop].get("enum"), (name, prop)
    assert set(schemas["TableResultOut"]["properties"]["how"]["enum"]) == {"played", "forfeit", "void"}
    assert set(schemas["ToActOut"]["properties"]["kind"]["enum"]) == {"players", "chance", "auto", "over", "waiting"}


def test_the_descriptions_a_newcomer_misread_say_what_the_service_does(document):
    schemas = document["components"]["schemas"]
    computers = schemas["CreateMatch"]["properties"]["computers"]["description"]
    # the example names a level every game has; strong is named as Fool's Crown's own
    assert '"basic"' in computers and '"strong"' not in computers and "Fool's Crown also strong" in computers
    assert "rematch" in schemas["SeatOut"]["properties"]["kept_for"]["description"]
    planned = schemas["TournamentOut"]["properties"]["rounds_planned"]["description"]
    assert "rounds" in planned and "creation" in planned
    assert "paired" in schemas["TournamentOut"]["properties"]["rounds"]["description"]
    assert "require_version" in schemas["MatchOut"]["properties"]["versions_required"]["description"]


def texts(node, where=""):
    """Every summary and description in the document, with where it is."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("summary", "description") and isinstance(value, str):
                yield f"{where}/{key}", value
            elif key not in ("example", "examples", "default", "enum"):
                yield from texts(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from texts(value, f"{where}/{i}")


def test_docs_show_markdown_literals_and_one_sentence_summaries(document):
    assert "``" not in json.dumps(document)
    written = dict(texts(document))
    assert written["/paths//players/me/matches/get/summary"].startswith(
        "Your active matches, all of them counted in `total` and paged by `limit` and `offset`")
    for method_path in ((method, path) for path, item in document["paths"].items() for method in item):
        operation = document["paths"][method_path[1]][method_path[0]]
        if not isinstance(operation, dict) or "summary" not in operation:
            continue
        summary = operation["summary"]
        assert "\n" not in summary and split_sentence(summary) == (summary, ""), method_path
    create = document["paths"]["/matches"]["post"]
    assert create["summary"] == "Create a match; seats may be given to computer opponents."
    assert create["description"].startswith("Players then join and start it. Retried with the same Idempotency-Key")
    verify = document["paths"]["/matches/{match_id}/verify"]["get"]
    assert verify["summary"].endswith('(docs/architecture.md, "Provable chance").')
    assert verify["description"] == "409 until the seed is revealed."


@pytest.mark.parametrize("text, first, rest", [
    ("One game.", "One game.", ""),
    ("Start it. Then\nplay.", "Start it.", "Then play."),
    ("Revoke it (each keeps a key that long:\ndocs/deploy.md).", "Revoke it (each keeps a key that long: "
                                                                  "docs/deploy.md).", ""),
    ("Mine (all. Of them) here. (Yours too.)", "Mine (all. Of them) here.", "(Yours too.)"),
    ("End with `a. B` set. 409 otherwise.", "End with `a. B` set.", "409 otherwise."),
    ("Roughly e.g. this one.", "Roughly e.g. this one.", ""),
])
def test_a_summary_is_split_after_its_first_sentence(text, first, rest):
    assert split_sentence(text) == (first, rest)


# -- real answers, against a strict copy of the document ----------------------------------------------
def strict_copy(document) -> dict:
    """The document with every object schema closed: a key an answer holds that its schema does not
    declare is an error (marshmallow 4's RAISE default writes it so today; this does not rely on it).
    Those that say they are open stay open: a match event's fields are its type's (MatchEvent)."""
    strict = copy.deepcopy(document)
    for schema in strict["components"]["schemas"].values():
        if schema.get("properties") and schema.get("additionalProperties") is not True:
            schema["additionalProperties"] = False
    return strict


class Checked:
    """Calls the app and checks every 2xx JSON answer against the strict document, recording the keys
    each component's objects held."""

    def __init__(self, app, document):
        self.http = app.test_client()
        self.document = document
        config = Config(extra_media_type_deserializers={"application/problem+json": json.loads})
        self.openapi = OpenAPI.from_dict(strict_copy(document), config=config)
        self.keys: dict[str, set] = defaultdict(set)
        self.always: dict[str, set] = {}  # the keys every object of a component held
        self.places: dict[tuple[str, str], tuple[int, tuple]] = {}  # (component, key): the first answer, where
        self.answers: list[tuple[AnsweredRequest, int, Headers, object]] = []
        self.checked = 0

    def call(self, method, path, body=None, key=None, status=None, **kwargs):
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        response = self.http.open(path, method=method, json=body, headers=headers, **kwargs)
        text = response.get_data(as_text=True)
        assert status is None or response.status_code == status, (method, path, response.status_code, text)
        if 200 <= response.status_code < 300 and response.mimetype == "application/json":
            request = response.request
            answered = AnsweredRequest(
                host_url=request.host_url, path=request.path, method=request.method.lower(),
                parameters=RequestParameters(query=ImmutableMultiDict(request.args), header=Headers(request.headers),
                                             cookie=ImmutableMultiDict(request.cookies)))
            self.openapi.validate_response(answered, WerkzeugOpenAPIResponse(response))
            operation = self.operation(method.lower(), request.path)
            schema = operation["responses"][str(response.status_code)]["content"]["application/json"]["schema"]
            headers = Headers([(name, value) for name, value in response.headers
                               if name.lower() not in ("content-type", "content-length")])
            self.answers.append((answered, response.status_code, headers, json.loads(text)))
            self.record(schema, json.loads(text))
            self.checked += 1
        response.close()
        return json.loads(text) if text else None

    def operation(self, method, path):
        # Literal paths first: /players/me is not /players/{player_id}.
        for template in sorted(self.document["paths"], key=lambda template: template.count("{")):
            item = self.document["paths"][template]
            if re.fullmatch(re.sub(r"\{[^/]+\}", "[^/]+", template), path) and method in item:
                return item[method]
        raise AssertionError(f"{method} {path} is not documented")

    def record(self, schema, value, path=()):
        """The keys of each object of ``value`` (answered for ``schema``), under its component's name:
        all those held, those every object held, and where in the answers each was first held."""
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.record(schema.get("items") or {}, item, (*path, i))
        elif isinstance(value, dict) and (name := reference(schema)) is not None:
            properties = self.document["components"]["schemas"][name].get("properties", {})
            self.keys[name] |= set(value)
            self.always[name] = self.always.get(name, set(value)) & set(value)
            for key, item in value.items():
                self.places.setdefault((name, key), (len(self.answers) - 1, path))
                if key in properties:
                    self.record(properties[key], item, (*path, key))

    def refusal_without(self, place: tuple[int, tuple], key: str):
        """What the strict document says of the answer at ``place`` without ``key`` (None: valid)."""
        answered, status, headers, body = self.answers[place[0]]
        body = copy.deepcopy(body)
        target = body
        for step in place[1]:
            target = target[step]
        del target[key]
        response = Response(json.dumps(body), status=status, headers=headers, mimetype="application/json")
        try:
            self.openapi.validate_response(answered, WerkzeugOpenAPIResponse(response))
        except Exception as refusal:  # noqa: BLE001 - openapi-core's InvalidData and its kin
            return refusal
        return None

    def get(self, path, **kwargs):
        return self.call("GET", path, **kwargs)

    def post(self, path, body=None, **kwargs):
        return self.call("POST", path, body, **kwargs)


def as_json(value):
    return json.loads(json.dumps(value))


def play(motley, match_id, rng, until_version=None):
    """Random legal moves through the service; automatic steps resolved here."""
    app = motley.app
    while True:
        match = app.get_match(match_id)
        turn = match.to_act()
        if turn.kind == Phase.OVER or (until_version is not None and match.version >= until_version):
            return match
        if turn.kind == Phase.AUTO:
            app.resolve_automatic_step(match_id)
            continue
        if turn.kind != Phase.PLAYERS:
            motley.tasks.drain()
            continue
        seat = turn.seats[0]
        app.submit_move(match_id, app.get_player(match.players[seat]),
                        rng.choice(match.engine.legal_actions(match.state, seat)))


def test_a_played_tournament_and_its_matches_answer_as_the_strict_document_says(app, document, sqlite_motley):
    motley, rng = sqlite_motley, random.Random(11)
    api = Checked(app, document)
    org = api.post("/players", {"name": "org"}, status=201)["api_key"]
    people = {}
    for name in ("ann", "bob", "cy", "dan"):
        registered = api.post("/players", {"name": name}, status=201)
        people[registered["id"]] = registered["api_key"]
    ann, bob, cy, dan = list(people)

    # A swiss tournament of four at tables of three: a bye each round, a deadline to forfeit after.
    created = api.post("/tournaments", {"game": "jest", "name": "cup", "rounds": 2, "table_size": 3,
                                        "round_deadline_seconds": 1,
                                        "tie_breaks": ["opponents-points", "wins", "average-place"],
                                        "turn_limit": {"seconds": 600, "on_timeout": "computer"}},
                       key=org, status=201)
    tid = created["id"]
    for pid, key in people.items():
        api.post(f"/tournaments/{tid}/players", key=key, status=201)
    started = api.post(f"/tournaments/{tid}/start", key=org, status=200)
    (first,) = started["rounds"][0]["tables"]
    assert started["rounds"][0]["byes"] and started["rounds"][0]["deadline"]
    table_match = api.get(f"/matches/{first['match_id']}", key=people[first["players"][0]], status=200)
    assert table_match["turn_clock"]["seats"] is not None and table_match["turn_limit"]["seconds"] == 600
    play(motley, first["match_id"], rng)
    played = api.get(f"/matches/{first['match_id']}", status=200)  # an engine's result: no resigned, no absent
    assert played["status"] == "finished" and not {"resigned", "absent"} & set(played["result"])
    motley.tasks.drain()
    view = api.get(f"/tournaments/{tid}", status=200)
    assert view["rounds"][0]["tables"][0]["result"]["how"] == "played" and len(view["rounds"]) == 2
    (second,) = view["rounds"][1]["tables"]
    (resting,) = view["rounds"][1]["byes"]
    api.call("DELETE", f"/tournaments/{tid}/players/{resting}", key=people[resting], status=200)
    time.sleep(1.1)  # the round's deadline: the organiser forfeits an absent player
    absent = second["players"][-1]
    forfeited = api.post(f"/tournaments/{tid}/forfeits", {"player_ids": [absent]}, key=org, status=200)
    assert forfeited["status"] == "finished" and forfeited["rounds"][1]["tables"][0]["result"]["how"] == "forfeit"
    # A rated jest match of a round-1 player and two players outside the tournament: the void of round 1
    # below replays the game's ratings, and theirs move too (a report's entry with its rating alone).
    eve = api.post("/players", {"name": "eve"}, status=201)["api_key"]
    outside = api.post("/matches", {"game": "jest", "seats": 3}, key=org, status=201)
    for key in (org, eve, people[first["players"][0]]):
        api.post(f"/matches/{outside['id']}/seats", {}, key=key, status=201)
    api.post(f"/matches/{outside['id']}/start", key=org, status=200)
    play(motley, outside["id"], rng)
    motley.tasks.drain()
    position = motley.app.log_position()

    # The reads of the league, before the sanctions.
    after = {"query_string": {"after": position}}
    api.get(f"/tournaments/{tid}/standings", status=200, **after)
    api.get("/leaderboards/jest", status=200, **after)
    api.get("/tournaments", status=200, **after)
    for pid in people:
        api.get(f"/players/{pid}", status=200, **after)
        api.get(f"/players/{pid}/ratings/jest", status=200, **after)

    # Sanctions: the round-1 match voided (ratings replayed: some players lose theirs), one disqualified.
    voided = api.post(f"/tournaments/{tid}/sanctions", {"kind": "void", "match_id": first["match_id"],
                                                        "reason": "a wrong deal"}, key=org, status=201)
    disqualified = api.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": second["players"][0],
                                                              "reason": "played for another"}, key=org, status=201)
    assert [s["kind"] for s in disqualified["sanctions"]] == ["void", "disqualify"] and voided["sanctions"]
    motley.tasks.drain()
    after = {"query_string": {"after": motley.app.log_position()}}
    reports = [api.get(f"/tournaments/{tid}/sanctions/{n}", status=200, **after) for n in (1, 2)]
    assert reports[0]["changed"] and reports[1]["changed"]
    assert {False, True} == {change["in_tournament"] for change in reports[0]["changed"]}
    standings = api.get(f"/tournaments/{tid}/standings", status=200, **after)
    assert {row["status"] for row in standings["items"]} == {"registered", "withdrawn", "disqualified"}
    api.get("/leaderboards/jest", status=200, **after)

    # A rated match outside the tournament, two players, one resigning: a result with resigned and absent.
    match = api.post("/matches", {"game": "jester", "seats": 2}, key=people[ann], status=201)
    path = f"/matches/{match['id']}"
    api.post(f"{path}/seats", {}, key=people[ann], status=201)
    api.post(f"{path}/seats", {}, key=people[bob], status=201)
    api.post(f"{path}/start", key=people[ann], status=200)
    play(motley, match["id"], rng, until_version=api.get(path, status=200)["version"] + 2)
    version = api.get(path, status=200)["version"]
    finished = api.post(f"{path}/resign", key=people[bob], status=200)
    assert finished["status"] == "finished" and finished["result"]["resigned"] == [1]
    assert finished["chance"]["seed"] and "state" in finished
    api.get(f"{path}/events", key=people[ann], status=200)
    api.get(f"{path}/diff", key=people[ann], status=200, query_string={"from": 0, "to": 2})
    # A fork (lineage: parent and forks) with a seat kept; a rematch with each seat kept for its player.
    fork = api.post(f"{path}/forks", {"version": version, "reserved": {"0": ann}}, key=people[ann], status=201)
    assert fork["lineage"]["parent"]["match_id"] == match["id"] and fork["seats"][0]["kept_for"] == ann
    assert api.get(path, status=200)["lineage"]["forks"]
    rematch = api.post(f"{path}/rematch", key=people[ann], status=201)
    assert rematch["rematch"]["of"] == match["id"] and rematch["seats"][1]["kept_for"] == bob
    # The rematch and the fork went through MatchOut's dump: nothing the view holds was dropped.
    assert rematch == api.get(f"/matches/{rematch['id']}", key=people[ann], status=200)
    assert fork == api.get(f"/matches/{fork['id']}", key=people[ann], status=200)
    position = {"query_string": {"after": motley.app.log_position()}}
    motley.tasks.drain()
    api.get(f"/players/{ann}", status=200, **position)
    api.get(f"/players/{ann}/ratings/jester", status=200, **position)
    api.get("/leaderboards/jester", status=200, **position)
    api.get(f"/players/{ann}", key=people[ann], status=200, **position)
    # The match lists (a cursor, or none: your own matches), the chance check.
    listed = api.get("/matches", status=200, query_string={"after": position["query_string"]["after"],
                                                            "order": "created", "limit": 2})
    assert listed["next_cursor"] and len(listed["items"]) == 2 and listed["items"][0]["terms"]
    api.get("/matches", status=200, query_string={"cursor": listed["next_cursor"], "order": "created"})
    assert "next_cursor" not in api.get("/players/me/matches", key=people[cy], status=200)
    assert api.get(f"{path}/verify", status=200)["verified"] is True

    # Every key each typed object declares was answered somewhere (a misnamed field would never be).
    schemas = document["components"]["schemas"]
    typed = {component(document, schemas[name]["properties"][prop])
             for name, props in TYPED.items() for prop in props} | set(TYPED)
    for name in sorted(typed):
        declared = set(schemas[name]["properties"])
        assert api.keys[name] <= declared, (name, api.keys[name] - declared)
        unseen = declared - api.keys[name] - RARE.get(name, set())
        assert not unseen, f"{name} declares {sorted(unseen)}, which no answer held"
    assert api.checked > 40

    # The answers hold every key their schemas list required: each key an answer held, dropped from the
    # first answer that held it, is refused if it is listed required (the service must send it) and
    # taken if not. And each optional key is missing from some answer (else it may be always sent).
    refused = []
    for (name, key), place in sorted(api.places.items()):
        required = key in schemas[name].get("required", ())
        refusal = api.refusal_without(place, key)
        assert (refusal is not None) == required, (name, key, place, refusal)
        if required:
            refused.append((name, key))
    assert len(refused) > 200 and {("MatchOut", "voided"), ("TableOut", "computers"), ("SeatOut", "kept_for"),
                                   ("ResultOut", "ranks"), ("StandingOut", "tie_breaks")} <= set(refused)
    for name, always in sorted(api.always.items()):
        optional = always - set(schemas[name].get("required", ()))
        assert optional <= OPTIONAL_SEEN_ALWAYS.get(name, set()), f"{name}: every answer held {sorted(optional)}"

    # The answers that go through their schema's dump hold everything the service built.
    league, tournament = motley.league_view, motley.tournaments.get(tid)
    assert api.get(f"/tournaments/{tid}", status=200) == as_json(tournament_view(tournament))
    assert api.get(f"/tournaments/{tid}/standings", status=200)["items"] == as_json(standings_rows(league, tid))
    items, _ = leaderboard(league, "jester", 50, 0)
    assert items and api.get("/leaderboards/jester", status=200)["items"] == as_json(items)
    ratings, statistics = player_league(league, ann)
    profile = api.get(f"/players/{ann}", status=200)
    assert profile["ratings"] == as_json(ratings) and profile["statistics"] == as_json(statistics)
    rating, history = rating_history(league, "jester", ann)
    answered = api.get(f"/players/{ann}/ratings/jester", key=people[ann], status=200)
    assert answered["rating"] == as_json(rating)
    assert answered["history"] == as_json([{k: v for k, v in h.items() if k != "unlisted"} for h in history])
    for number, report in enumerate(reports, start=1):
        assert report == as_json(league.get("report", tid, f"{number:04d}").data)
