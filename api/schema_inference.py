"""Write the JSON Schema of each game's actions and observations (api/game_schemas/<game>.json).

The schemas are inferred (genson) from what the engines really emit over random playouts at every
player count: every legal action offered to a seat (one schema per action ``type``), every seat's
observation and the spectator's. They are committed and served by ``GET /games/{name}/schema``;
tests/platform/test_discovery.py checks them against other random matches. Run it again when a
game's rules version changes what it emits:

    .venv/bin/python -m api.schema_inference [--event-parts] [matches per player count, default 12] [game ...]

``--event-parts`` keeps each file as it is and (re)writes only the parts that describe the event list's
payloads (``collect_event_parts``): ``redacted_action``, ``chance_outcome`` and ``step``, inferred over
every shipped rules version (stored matches and their forks play on under theirs). The actions and
observations are the current version's; tests/platform/test_discovery.py checks every older version's
against them too. Jester's event parts were written so (100 matches a count) when its 1.0.0 and 1.1.0
redacted moves (a buy's place hidden) proved missing.

Rare shapes need more matches: Fool's Crown 1.3.0 was inferred from 48 a count (its Noble Exchange, a
hand with no Squire and nothing to commit, did not come up in 12 or 24), Jester 1.3.0 and Le Bouffon
from 100 (Jester's `specialize` from a guild, once the reserve is empty, did not come up in 48; Le
Bouffon's file predated its observation's `played`). Jest's file is kept: inferred again, it would
narrow `trophy_winners` (null in matches these seeds do not reach), which is written by hand as what it
is, a map from trophy card to seat (inferred, an object of 17 fixed fields named "2C" and so on).
The observation fields' descriptions (``observation`` and ``public_observation``) are written by hand in the
files and inferring writes none: a regeneration must carry them over (tests/platform/test_schema_descriptions.py
holds them).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from genson import SchemaBuilder

from domain.engine import CHANCE, SYSTEM, Phase
from domain.games import available_engines, rules_versions
from domain.playout import new_match, next_step

OUT = Path(__file__).resolve().parent / "game_schemas"
SCHEMA_URI = "http://json-schema.org/draft-07/schema#"
SEED_BASE = 1_000  # the test draws from other seeds


def builder() -> SchemaBuilder:
    return SchemaBuilder(schema_uri=None)


def option_variants(engine) -> list[dict]:
    """The default options, then each boolean or enumerated option at each of its other values: a shape
    only an option gives (Fool's Crown's ``max_rounds`` is null without the safety cap) was left out
    of the schema when only the defaults were played."""
    variants: list[dict] = [{}]
    for name, described in engine.describe_options().items():
        values = [True, False] if described.get("type") == "boolean" else described.get("enum", [])
        variants.extend({name: value} for value in values if value != described.get("default"))
    return variants


# Actions no random playout reached in the matches inferred from, added by hand: Jester's consolation
# (docs/rules/jester.md, round end 4) is offered only when no favor left has an effect for the last
# chooser, and was missing from the served schema, so a client that checked its moves against it
# refused the only move it had (tests/platform/test_discovery.py builds that state).
HAND_WORKED_ACTIONS = {"jester": [{"type": "favor-consolation"}]}


def inferred_matches(engine, matches: int):
    """The matches the schemas are inferred from: ``matches`` a player count, the option variants in
    turn, each (its player count, its random draws, its first state), on seeds the tests do not use."""
    variants = option_variants(engine)
    for players in range(engine.min_players, engine.max_players + 1):
        for index in range(matches):
            rng = random.Random(SEED_BASE + 100 * players + index)
            yield players, rng, new_match(engine, players, variants[index % len(variants)])


def one_of_types(built: dict[str, SchemaBuilder]) -> list[dict]:
    """One schema a ``type``, in order of type: the variants of a ``oneOf``."""
    variants = []
    for kind, each in sorted(built.items()):
        schema = each.to_schema()
        schema["properties"]["type"] = {"const": kind}
        variants.append(schema)
    return variants


def collect(engine, matches: int, max_steps: int = 20_000):
    actions: dict[str, SchemaBuilder] = {}
    for action in HAND_WORKED_ACTIONS.get(engine.name, []):
        actions.setdefault(action["type"], builder()).add_object(action)
    seats, spectators = builder(), builder()
    for players, rng, state in inferred_matches(engine, matches):
        for _ in range(max_steps):
            spectators.add_object(engine.observe(state, None))
            for seat in range(players):
                seats.add_object(engine.observe(state, seat))
            turn = engine.to_act(state)
            if turn.kind == Phase.PLAYERS:
                for seat in turn.seats:
                    for action in engine.legal_actions(state, seat):
                        actions.setdefault(action["type"], builder()).add_object(action)
            step = next_step(engine, state, rng, timeout_probability=0.05)
            if step is None:
                break
            state = engine.apply(state, *step)
    return actions, seats, spectators


def document(name: str, engine, matches: int) -> dict:
    actions, seats, spectators = collect(engine, matches)
    variants = one_of_types(actions)
    for variant in variants:  # an action with a key more is refused (422, "action format"): say so
        variant["additionalProperties"] = False
    return {
        "$schema": SCHEMA_URI,
        "title": f"{engine.title} {engine.rules_version}: actions and observations",
        "game": name,
        "rules_version": engine.rules_version,
        "action": {"description": "One of the legal_actions a match lists for a seat (by its type)",
                   "oneOf": variants},
        "observation": {"description": "What a seat sees (observation with a seat's key)", **seats.to_schema()},
        "public_observation": {"description": "What a spectator sees", **spectators.to_schema()},
    }


def collect_event_parts(engine, matches: int, max_steps: int = 20_000) -> dict[str, dict[str, SchemaBuilder]]:
    """What the event list holds besides the actions a seat may send, by part and type: ``redacted_action``,
    every move as it is shown to another seat or a spectator where part of it is hidden
    (``Engine.redact``; ``hidden: true`` in the event: a Jest offer without its cards, a Le Bouffon gift
    as its count), which a client that checked the event list against the action schema refused;
    ``chance_outcome``, a ChanceDrawn event's outcome (whole, or null while it is hidden), and ``step``,
    a StepResolved or TimedOut event's step, which no schema described."""
    parts: dict[str, dict[str, SchemaBuilder]] = {"redacted_action": {}, "chance_outcome": {}, "step": {}}
    for players, rng, state in inferred_matches(engine, matches):
        for _ in range(max_steps):
            chosen = next_step(engine, state, rng, timeout_probability=0.05)
            if chosen is None:
                break
            actor, action = chosen
            if actor == CHANCE:
                parts["chance_outcome"].setdefault(action["type"], builder()).add_object(action)
            elif actor == SYSTEM:
                parts["step"].setdefault(action["type"], builder()).add_object(action)
            else:
                for viewer in (None, *range(players)):
                    shown = engine.redact(state, actor, action, viewer)
                    if shown is not None and shown != action and isinstance(shown, dict):
                        parts["redacted_action"].setdefault(shown["type"], builder()).add_object(shown)
            state = engine.apply(state, *chosen)
    return parts


EVENT_PARTS = {
    "redacted_action": ("Another seat's move as the event list shows it while part of it is hidden from you "
                        "(the event's hidden is true; its action is null when all of it is), by its type"),
    "chance_outcome": "A ChanceDrawn event's outcome, by its type (null while it is hidden from you)",
    "step": "A StepResolved or TimedOut event's step (the automatic steps and timeouts), by its type",
}


def event_parts_document(engines, matches: int) -> dict:
    """The parts of a game's schema document that describe its event list's payloads, as every one of
    ``engines`` (each shipped rules version) emits them: a stored match replays, and its forks play on,
    under its own version, whose event list is served beside the current one's (Jester before 1.2.0
    hid a buy's place: ``{"type": "buy", "place": "hidden"}``, which the current version's schema refused)."""
    collected: dict[str, dict[str, SchemaBuilder]] = {"redacted_action": {}, "chance_outcome": {}, "step": {}}
    for engine in engines:
        for part, built in collect_event_parts(engine, matches).items():
            for kind, each in built.items():
                collected[part].setdefault(kind, builder()).add_schema(each.to_schema())
    document: dict[str, dict] = {}
    for part, built in collected.items():
        variants = one_of_types(built)
        if variants:
            document[part] = {"description": EVENT_PARTS[part], "oneOf": variants}
        else:  # JSON Schema's oneOf may not be empty: "not {}" matches nothing
            document[part] = {"description": EVENT_PARTS[part] + ": none in this game", "not": {}}
    return document


def main() -> None:
    arguments = sys.argv[1:]
    events_only = "--event-parts" in arguments  # (re)write only the event parts, the files kept as they are
    arguments = [a for a in arguments if a != "--event-parts"]
    matches = int(arguments[0]) if arguments else 12
    only = set(arguments[1:])
    OUT.mkdir(exist_ok=True)
    for name, engine in available_engines().items():
        if only and name not in only:
            continue
        path = OUT / f"{name}.json"
        kept = path.read_text() if events_only else None
        written = json.loads(kept) if kept else document(name, engine, matches)
        written.update(event_parts_document(rules_versions(name).values(), matches))
        indent = 2 if kept and kept.startswith("{\n  \"") else 1  # a kept file keeps its layout
        path.write_text(json.dumps(written, indent=indent, sort_keys=True) + "\n")
        print(f"{path.relative_to(OUT.parent.parent)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
