"""What a bot author reads in GET /games/{name}/schema (a bot-developer probe): every top-level field of a
seat's observation and of a spectator's carries a description, written by hand in api/game_schemas/<game>.json.
Only a few had one, and a bot compared Tumult Royale's observation ``ranks`` (each seat's nobility rank, 1 = the
king or queen) with a result's ``ranks`` (the final placing) and was wrong. api/schema_inference.py infers the
rest of the file and writes no such description: a regeneration must carry them over, or this test fails."""

from __future__ import annotations

import pytest

from api.games import GAME_SCHEMAS, game_schema
from domain.games import available_engines

PARTS = ("observation", "public_observation")


def test_every_game_has_its_schema_file():
    assert {path.stem for path in GAME_SCHEMAS.glob("*.json")} == set(available_engines())


@pytest.mark.parametrize("game", sorted(available_engines()))
@pytest.mark.parametrize("part", PARTS)
def test_every_top_level_observation_field_is_described(game, part):
    properties = game_schema(game)[part]["properties"]
    assert properties, (game, part)
    undescribed = [
        name for name, field in properties.items()
        if not isinstance(field.get("description"), str) or not field["description"].strip()
    ]
    assert not undescribed, f"{game} {part}: no description for {undescribed}"


@pytest.mark.parametrize("part", PARTS)
def test_tumult_royales_ranks_are_the_nobility_not_the_final_placing(part):
    properties = game_schema("tumult-royale")[part]["properties"]
    ranks = properties["ranks"]["description"]
    assert "nobility" in ranks.lower() and "result.ranks" in ranks
    final = properties["result"]["properties"]["ranks"]["description"]
    assert "placing" in final.lower() and "nobility" in final.lower()
