"""House rules in the catalogue: house-rules.md asks that every [PROPOSAL] rule, which is Motley's and not
the publisher's, be flagged in the UI and kept configurable. Each engine lists them (``Engine.house_rules``,
in the order of docs/rules/<game>.md), naming the option that switches one, and GET /games and GET
/games/{name} (any rules version) serve them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api import create_app
from domain.engine import HouseRule
from domain.games import available_engines, rules_versions
from tests.platform.client import ApiClient

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
EVERY_VERSION = [(name, version) for name in available_engines() for version in rules_versions(name)]


@pytest.fixture
def client(sqlite_motley):
    return ApiClient(create_app(sqlite_motley))


def cited(doc: str, rule_id: str) -> bool:
    """The rules document names the rule: its id as written ("FC-ORDER", "3.4 step 2", "S1"); an id
    "<section> <topic>" by its house-rules section, as the engines' refusals cite it ("house rule 4.5
    tumult order"; the document tags "[PROPOSAL 4.5 ...]"); "task 5" also within a range ("tasks 4–5")."""
    if rule_id in doc:
        return True
    section = re.fullmatch(r"(\d+\.\d+) \S.*", rule_id)
    if section:
        return re.search(rf"(PROPOSAL|HR|house rules?) {re.escape(section[1])}\b", doc) is not None
    part = re.fullmatch(r"(R\d+) \S.*", rule_id)  # "R4 both trophies": a part of a numbered rule (Jest)
    if part:
        return re.search(rf"\b{part[1]}\b", doc) is not None
    numbered = re.fullmatch(r"(\w+) (\d+)", rule_id)
    if numbered:
        ranges = re.findall(rf"\b{re.escape(numbered[1])}s? (\d+)–(\d+)", doc)
        return any(int(low) <= int(numbered[2]) <= int(high) for low, high in ranges)
    return False


@pytest.mark.parametrize("name, version", EVERY_VERSION)
def test_each_engine_names_its_house_rules_and_the_options_that_switch_them(name, version):
    engine = rules_versions(name)[version]
    rules = engine.house_rules
    assert isinstance(rules, tuple) and all(isinstance(rule, HouseRule) for rule in rules), name
    ids = [rule.id for rule in rules]
    assert all(isinstance(i, str) and i.strip() for i in ids) and len(set(ids)) == len(ids), ids
    assert all(isinstance(rule.text, str) and rule.text.strip() for rule in rules), name
    options = engine.describe_options()
    for rule in rules:
        assert rule.option is None or rule.option in options, (name, version, rule)
    doc = (DOCS / f"{name}.md").read_text()
    for rule in rules:
        assert cited(doc, rule.id), (name, rule.id)
    assert rules, name


def test_the_options_that_switch_house_rules_are_the_expected_ones():
    engines = available_engines()
    switched = {name: {rule.option for rule in engine.house_rules} - {None} for name, engine in engines.items()}
    assert switched["fools-crown"] == {"commit_order", "safety_cap", "challenge_sat_out"}
    assert switched["le-bouffon"] == {"deals", "ties", "first_deal_exchange"}
    assert switched["tumult-royale"] == {"gamble", "tax_mode", "tax_seconds", "ready_seconds", "set_aside"}
    assert switched["jest"] == {"one_player_both_trophies", "ties"}
    assert switched["jester"] == {"vp_floor", "influence_needs_markers"}  # red_chairs: the rulebook's variant


#: Options that switch no house rule: the rulebook's own variant (Jester's red chairs, rulebooks/jester.txt
#: "Variant: Red Chairs"). Every other option of every version names an entry, so the page flags it.
RULEBOOK_OPTIONS = {("jester", "red_chairs")}


@pytest.mark.parametrize("name, version", EVERY_VERSION)
def test_every_option_of_each_version_is_named_by_a_house_rule(name, version):
    """An option is a house rule's switch (house-rules.md: "keep them configurable"), so the create form
    badges it (api/web/app.js ``optionField``: some entry's ``option`` names it); only the rulebook's own
    variants are exempt. Tumult Royale's ``ready_seconds`` and ``tax_seconds`` named none before audit
    catalogue26."""
    engine = rules_versions(name)[version]
    named = {rule.option for rule in engine.house_rules} - {None}
    unnamed = {option for option in engine.describe_options() if (name, option) not in RULEBOOK_OPTIONS}
    assert unnamed <= named, (name, version, sorted(unnamed - named))


def test_the_catalogue_serves_each_games_house_rules(client):
    engines = available_engines()
    games = client.get("/games").body
    assert {game["name"] for game in games} == set(engines)
    for game in games:
        assert game["house_rules"] == [rule.to_json() for rule in engines[game["name"]].house_rules], game["name"]
        for rule in game["house_rules"]:
            assert set(rule) == {"id", "text", "option"}
            assert rule["option"] is None or rule["option"] in game["options_schema"]["properties"]


def test_one_game_serves_the_house_rules_of_the_rules_version_asked(client):
    for name, version in EVERY_VERSION:
        read = client.get(f"/games/{name}", query={"rules_version": version})
        assert read.status == 200, read.text
        assert read.body["house_rules"] == [rule.to_json() for rule in rules_versions(name)[version].house_rules]
    current = client.get("/games/fools-crown")
    assert current.status == 200
    assert current.body["house_rules"] == [rule.to_json() for rule in available_engines()["fools-crown"].house_rules]


def test_the_openapi_document_describes_house_rules(client):
    document = client.get("/openapi.json").body
    schemas = document["components"]["schemas"]
    game = next(schema for schema in schemas.values()
                if "house_rules" in schema.get("properties", {}) and "options_schema" in schema["properties"])
    assert "house_rules" in game.get("required", []) and game["properties"]["house_rules"]["description"]
    rule = schemas["HouseRuleOut"] if "HouseRuleOut" in schemas else schemas["HouseRule"]
    assert set(rule["properties"]) == {"id", "text", "option"}
    assert all(field.get("description") for field in rule["properties"].values())
    assert rule["properties"]["option"].get("nullable") is True or "null" in str(rule["properties"]["option"])


@pytest.mark.parametrize("name, version", EVERY_VERSION)
def test_every_option_has_a_title_in_plain_words(name, version):
    """A newcomer probe: the create form showed each option's description, the exact rule with its
    house-rule tags ("[PROPOSAL]", "HR 3.4", "FC-CAP") and file names. Each option also has a JSON Schema
    ``title`` in plain words, which the form shows first."""
    for option, schema in rules_versions(name)[version].describe_options().items():
        title = schema.get("title")
        assert isinstance(title, str) and 10 < len(title) <= 160, (name, version, option)
        assert not re.search(r"\[|docs/|\.md|HR \d|[A-Z]{2,}-[A-Z]+|PROPOSAL|house rule", title), (name, option, title)
