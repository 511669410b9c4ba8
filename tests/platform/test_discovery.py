"""Discovery (issue 13): a front end builds a create-match form for every game from GET /games alone,
and every action and observation the service serves validates against its game's JSON Schema
(GET /games/{name}/schema) over random matches the schemas were not inferred from."""

from __future__ import annotations

import json
import random

import fastjsonschema
import pytest
from jsonschema import Draft7Validator

from api import create_app
from api.schema_inference import option_variants
from domain.engine import CHANCE, SYSTEM, Phase
from domain.games import available_engines, rules_versions
from domain.playout import new_match, next_step
from tests.platform.client import ApiClient, play_randomly

FAST_OPTIONS = {"le-bouffon": {"deals": 1}, "tumult-royale": {"tax_mode": "async"}}


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def form_values(schema: dict) -> dict:
    """What a form built from the options schema lets a user pick: here every option away from its
    default (the other boolean, the last allowed value, the top of the range)."""
    chosen = {}
    for name, option in schema["properties"].items():
        if "enum" in option:
            chosen[name] = option["enum"][-1]
        elif option["type"] == "boolean":
            chosen[name] = not option["default"]
        elif option["type"] in ("integer", "number") and "maximum" in option:
            chosen[name] = option["maximum"]
        else:
            chosen[name] = option["default"]
    return chosen


def test_a_front_end_builds_a_create_match_form_for_every_game(client):
    _, key = client.register("ann")
    games = client.get("/games").body
    assert {g["name"] for g in games} == set(available_engines())
    for game in games:
        schema = game["options_schema"]
        Draft7Validator.check_schema(schema)
        validator = Draft7Validator(schema)
        defaults = {name: option["default"] for name, option in schema["properties"].items()}
        assert defaults == game["default_options"] and validator.is_valid(defaults)
        chosen = form_values(schema)
        assert validator.is_valid(chosen), (game["name"], chosen)
        made = client.post("/matches", {"game": game["name"], "seats": game["min_players"], "options": chosen},
                           key=key)
        assert made.status == 201 and made.body["options"] == chosen, made.text
        for name, option in schema["properties"].items():  # what the schema refuses, the service refuses
            # A form needs the choices: every string option lists its allowed values.
            assert option["type"] != "string" or "enum" in option, (game["name"], name)
            wrong = [option["maximum"] + 1] if "maximum" in option else []
            wrong += ["not-" + option["enum"][0]] if "enum" in option else []
            wrong += [[]]  # no option is a list
            for value in wrong:
                assert not validator.is_valid({name: value})
                refused = client.post("/matches", {"game": game["name"], "seats": game["min_players"],
                                                   "options": {name: value}}, key=key)
                assert refused.status == 422, (game["name"], name, value, refused.text)
        assert not validator.is_valid({"no-such-option": 1})


def test_a_front_end_reads_the_rules_version_a_stored_match_plays_under(client):
    """A fork of an old match keeps its rules version, whose options can differ (Tumult Royale 1.0.0 has
    no ready_seconds): /games described only the current version, so a client showed such a match an
    option it does not have. Every game lists its versions, and ?rules_version= reads any of them."""
    games = {g["name"]: g for g in client.get("/games").body}
    for name, game in games.items():
        assert game["rules_versions"][-1] == game["rules_version"] == available_engines()[name].rules_version
        for version in game["rules_versions"]:
            read = client.get(f"/games/{name}", query={"rules_version": version})
            assert read.status == 200 and read.body["rules_version"] == version, read.text
            Draft7Validator.check_schema(read.body["options_schema"])
            # Its schema link answers, saying which versions the document describes (this one among them).
            described = client.get(read.body["schema_url"])
            assert described.status == 200 and version in described.body["rules_versions"], described.text
            assert ("?rules_version=" in read.body["schema_url"]) == (version != game["rules_version"])
    old = client.get("/games/tumult-royale", query={"rules_version": "1.0.0"}).body
    assert "ready_seconds" in games["tumult-royale"]["options_schema"]["properties"]
    assert "ready_seconds" not in old["options_schema"]["properties"] and "ready_seconds" not in old["default_options"]
    unknown = client.get("/games/jester", query={"rules_version": "9.9.9"})
    assert unknown.status == 404 and unknown.headers["Content-Type"] == "application/problem+json"
    assert unknown.body["rules_versions"] == games["jester"]["rules_versions"], unknown.text
    assert client.get("/games/jester", query={"rules_version": ""}).status == 422
    assert client.get("/games/jester/schema", query={"rules_version": "9.9.9"}).status == 404


def validators(client, name: str) -> dict:
    document = client.get(f"/games/{name}/schema").body
    assert document["game"] == name and document["$schema"].startswith("http://json-schema.org/draft-07")
    assert document["rules_version"] == available_engines()[name].rules_version
    return {part: Validator(document[part])
            for part in ("action", "observation", "public_observation", "redacted_action", "chance_outcome", "step")}


class Validator:
    """A game's schema, compiled by fastjsonschema (the playouts check some 100,000 values a game:
    jsonschema's own validator took 96 % of these tests' time), with jsonschema's Draft7Validator, the
    reference, naming what a value breaks and checking every SAMPLEth value too, so the two are seen
    to agree (formats unchecked in both, as Draft7Validator leaves them)."""

    SAMPLE = 40

    def __init__(self, schema: dict):
        self.reference = Draft7Validator(schema)
        self.fast = fastjsonschema.compile(schema, use_formats=False)
        self.checked = 0

    def errors(self, value) -> list:
        self.checked += 1
        try:
            self.fast(value)
        except fastjsonschema.JsonSchemaValueException as error:
            found = list(self.reference.iter_errors(value))
            assert found, f"fastjsonschema refused what jsonschema takes: {error.message}"
            return found
        if self.checked % self.SAMPLE == 0:
            found = list(self.reference.iter_errors(value))
            assert not found, f"jsonschema refused what fastjsonschema took: {found[0].message}"
        return []


def check(validator: Validator, value, where: str) -> None:
    errors = validator.errors(value)
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].absolute_path)}"


def check_described(validator: Validator, observation: dict, where: str) -> None:
    """An observation's schema leaves room for more keys (a newer rules version's), so a key the served
    schema does not name validates yet tells a client nothing: Jester's finished view gained `ranking`,
    and only its schema file, edited by hand, could say what it holds."""
    check(validator, observation, where)
    unnamed = set(observation) - set(validator.reference.schema["properties"])
    assert not unnamed, f"{where}: {sorted(unnamed)} not in the game's schema"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(available_engines()))
def test_every_action_and_observation_an_engine_emits_validates_over_random_matches(sqlite_motley, name):
    client = ApiClient(create_app(sqlite_motley))
    engine = available_engines()[name]
    # api/schema_inference.py infers from seeds 1000 and up: these are matches it never saw
    playouts_validate(validators(client, name), engine, seeds=max(2, len(option_variants(engine))))


OLDER_VERSIONS = [(name, version) for name in sorted(available_engines()) for version in rules_versions(name)
                  if version != available_engines()[name].rules_version]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "version"), OLDER_VERSIONS)
def test_an_older_rules_version_emits_only_what_its_games_schema_describes(sqlite_motley, name, version):
    """The served schema is inferred from the current version (GET /games/{name}/schema), yet stored
    matches and their forks play on under older ones (GET /games/{name}?rules_version=): a client checking
    their moves and views against it must not refuse them. A probe found them valid; this keeps them so."""
    client = ApiClient(create_app(sqlite_motley))
    engine = rules_versions(name)[version]
    playouts_validate(validators(client, name), engine, seeds=len(option_variants(engine)))


def playouts_validate(schema: dict, engine, seeds: int) -> None:
    """Random matches of ``engine`` at every player count (each option variant in turn), every
    observation, legal action, chance outcome, automatic step and redacted move checked on ``schema``."""
    variants = option_variants(engine)  # a shape only an option gives must be in the schema too
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(seeds):
            rng = random.Random(seed)
            state = new_match(engine, players, variants[seed % len(variants)])
            for step in range(20_000):
                check_described(schema["public_observation"], engine.observe(state, None),
                                f"{players}p seed {seed} step {step}")
                for seat in range(players):
                    check_described(schema["observation"], engine.observe(state, seat), f"seat {seat} step {step}")
                turn = engine.to_act(state)
                for seat in turn.seats if turn.kind == Phase.PLAYERS else ():
                    for action in engine.legal_actions(state, seat):
                        check(schema["action"], action, f"an action of seat {seat} at step {step}")
                chosen = next_step(engine, state, rng, timeout_probability=0.05)
                if chosen is None:
                    break
                actor, action = chosen
                if actor in (CHANCE, SYSTEM):  # the event list's ChanceDrawn outcomes and automatic steps
                    check(schema["chance_outcome" if actor == CHANCE else "step"], action, f"{actor} at step {step}")
                for viewer in (None, *range(players)) if isinstance(actor, int) else ():
                    # Another seat's move as the event list shows it: whole (an action), null, or part
                    # hidden, in the shapes ``redacted_action`` lists (a Jest offer without its cards).
                    shown = engine.redact(state, actor, action, viewer)
                    if shown is not None and shown != action:
                        check(schema["redacted_action"], shown, f"seat {actor}'s move to {viewer} at step {step}")
                state = engine.apply(state, *chosen)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(available_engines()))
def test_every_served_view_validates_against_its_games_schema(sqlite_motley, name, seed):
    motley, client = sqlite_motley, ApiClient(create_app(sqlite_motley))
    schema = validators(client, name)
    engine = available_engines()[name]
    keys = [client.register(f"p{i}")[1] for i in range(engine.min_players)]
    created = client.post("/matches", {"game": name, "seats": engine.min_players,
                                       "options": FAST_OPTIONS.get(name, {})}, key=keys[0])
    match_id = created.body["id"]
    for key in keys:
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=keys[0])
    play_randomly(client, match_id, keys, random.Random(seed), settle=lambda: motley.tasks.drain(), timeout=240)
    views = [client.get(f"/matches/{match_id}", key=None).body] + [
        json.loads(text) for key, text in client.log if key is not None and text.startswith("{")]
    served = 0
    for view in views:
        if view.get("id") != match_id or view.get("observation") is None:
            continue
        part = "observation" if view["your_seat"] is not None else "public_observation"
        check(schema[part], view["observation"], f"version {view['version']}")
        for action in view["legal_actions"]:
            check(schema["action"], action, f"an action at version {view['version']}")
        served += 1
    assert served > 10


def test_a_rare_action_no_random_match_reached_is_in_its_games_schema(sqlite_motley):
    """Jester's consolation (docs/rules/jester.md, round end 4): the last player to choose a King's
    Favor, when none left has an effect for him, has it as his only move. Random playouts never reached
    it, so the served schema left it out and a client checking its moves refused the one it had."""
    from tests.engines.test_jester import E, act, board, round_end

    state = board(n=4)
    state["favors"] = [2, 3, 4, 5, 6]  # a setup draw that removed favors 1 and 7
    state = round_end(state, trigger=0)  # nobody has fame or a noble at court
    for seat, favor in ((0, 2), (1, 3), (2, 4)):
        state = act(state, seat, {"type": "favor", "favor": favor})
    offered = E.legal_actions(state, 3)  # favors 5 (fame 3) and 6 (2 nobles) would do nothing
    assert offered == [{"type": "favor-consolation"}]
    schema = validators(ApiClient(create_app(sqlite_motley)), "jester")
    for action in offered:
        check(schema["action"], action, "the consolation")


def test_an_action_with_a_key_more_is_refused_by_its_games_schema_as_by_the_server(sqlite_motley):
    """The server refuses an action with an extra key (422, "action format"); the served schema took it,
    so a client checking its moves against the schema learnt of it only from the 422 (a probe)."""
    client = ApiClient(create_app(sqlite_motley))
    for name in available_engines():
        variants = client.get(f"/games/{name}/schema").body["action"]["oneOf"]
        assert all(variant["additionalProperties"] is False for variant in variants), name
    keys = [client.register(f"p{i}")[1] for i in range(3)]
    match_id = client.new_match("jest", 3, keys)
    view = client.get(f"/matches/{match_id}", key=keys[0]).body
    action = view["legal_actions"][0]
    schema = validators(client, "jest")["action"]
    assert schema.errors(action) == [] and schema.errors({**action, "note": "gg"})
    refused = client.post(f"/matches/{match_id}/moves", {"action": {**action, "note": "gg"}}, key=keys[0])
    assert refused.status == 422 and refused.body["rule"] == "action format", refused.text


def test_the_compiled_check_refuses_what_the_reference_refuses_and_names_it():
    """The playouts' check (Validator) is fastjsonschema's compiled schema, named by jsonschema: what
    the schema refuses is refused with jsonschema's message and path; an integral 2.0 is an integer in
    both (draft 7)."""
    validator = Validator({"type": "object", "required": ["card", "count"], "additionalProperties": False,
                           "properties": {"card": {"type": "string", "enum": ["2S", "3H"]},
                                          "count": {"type": "integer", "minimum": 1}}})
    assert validator.errors({"card": "2S", "count": 1}) == []
    assert validator.errors({"card": "2S", "count": 2.0}) == []
    for bad, path in (({"card": "4D", "count": 1}, ["card"]), ({"card": "2S", "count": 0}, ["count"]),
                      ({"card": "2S", "count": 1.5}, ["count"]), ({"card": "2S"}, []),
                      ({"card": "2S", "count": 1, "x": 1}, []), (["2S"], [])):
        found = validator.errors(bad)
        assert found and list(found[0].absolute_path) == path, (bad, found)
