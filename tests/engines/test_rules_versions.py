"""Every shipped rules version still replays its recorded matches exactly (issue 11).

The fixtures under tests/fixtures/histories/<game>/<rules version>/ were recorded by the engines of the
commit that shipped each version (tests/fixtures/histories/README.md says how), in the export format:
one event a line. Each is replayed here with ``get_engine(game, rules_version)``: every step through the
checked ``engine.step`` (so each recorded action must still be legal under its version) to the
recorded result, and once more through the trusted ``apply`` to the same state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.engine import CHANCE, SYSTEM, Phase
from domain.games import GAME_PACKAGES, get_engine, rules_versions

HISTORIES = Path(__file__).resolve().parent.parent / "fixtures" / "histories"
FIXTURES = sorted(HISTORIES.glob("*/*/*.jsonl"))

#: Every version shipped (the contract lists them); each must have fixtures.
SHIPPED = {
    ("jest", "1.0.0"), ("jest", "1.1.0"), ("jest", "1.2.0"),
    ("jester", "1.0.0"), ("jester", "1.1.0"), ("jester", "1.2.0"), ("jester", "1.3.0"), ("jester", "1.4.0"),
    ("jester", "1.5.0"),
    ("tumult-royale", "1.0.0"), ("tumult-royale", "1.1.0"), ("tumult-royale", "1.2.0"),
    ("fools-crown", "1.0.1"), ("fools-crown", "1.1.0"),
    ("fools-crown", "1.2.0"), ("fools-crown", "1.3.0"), ("fools-crown", "1.4.0"), ("fools-crown", "1.5.0"),
    ("le-bouffon", "1.0.0"), ("le-bouffon", "1.1.0"), ("le-bouffon", "1.2.0"), ("le-bouffon", "1.3.0"),
}

STEP_EVENTS = {
    "ChanceDrawn": lambda data: (CHANCE, data["outcome"]),
    "MoveMade": lambda data: (data["seat"], data["action"]),
    "StepResolved": lambda data: (SYSTEM, data["step"]),
    "TimedOut": lambda data: (SYSTEM, data["step"]),
}


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def plain(value):
    return json.loads(json.dumps(value))


def test_every_shipped_version_has_fixtures():
    recorded = {(path.parent.parent.name, path.parent.name) for path in FIXTURES}
    assert SHIPPED <= recorded
    assert {game for game, _ in recorded} == set(GAME_PACKAGES)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}-{p.parent.name}-{p.stem}")
def test_a_recorded_match_replays_under_its_own_rules_version(path: Path):
    lines = read(path)
    game, version = lines[0]["game"], lines[0]["rules_version"]
    assert (game, version) == (path.parent.parent.name, path.parent.name)
    assert all(line["game"] == game and line["rules_version"] == version for line in lines)
    assert [line["version"] for line in lines] == list(range(1, len(lines) + 1))
    if version not in rules_versions(game):
        pytest.xfail(f"{game} rules {version} is shipped but not registered in ENGINES: its matches cannot replay")
    engine = get_engine(game, version)
    assert engine.rules_version == version

    created = lines[0]["data"]
    seats, options = created["seats"], created["options"]
    assert plain(engine.check_options(seats, options)) == options
    steps = [STEP_EVENTS[line["event"]](line["data"]) for line in lines if line["event"] in STEP_EVENTS]
    assert steps, "a recorded match has steps"

    checked = engine.initial_state(seats, options)
    for number, (actor, action) in enumerate(steps):
        try:
            checked = engine.step(checked, actor, action)
        except Exception as error:  # the line number tells which step a changed rule refuses
            pytest.fail(f"step {number} ({actor}: {action}) is refused under {game} {version}: {error}")
    assert engine.to_act(checked).kind == Phase.OVER
    assert plain(engine.result(checked).to_json()) == lines[-1]["data"]["result"]
    assert lines[-1]["event"] == "Finished"

    trusted = engine.initial_state(seats, options)
    for actor, action in steps:
        trusted = engine.apply(trusted, actor, action)
    assert trusted == checked
