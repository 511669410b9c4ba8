"""Write the JSON Schema of each game's actions and observations (api/game_schemas/<game>.json).

The schemas are inferred (genson) from what the engines really emit over random playouts at every
player count: every legal action offered to a seat (one schema per action ``type``), every seat's
observation and the spectator's. They are committed and served by ``GET /games/{name}/schema``;
tests/platform/test_discovery.py checks them against other random matches. Run it again when a
game's rules version changes what it emits:

    .venv/bin/python -m api.schema_inference [--redacted] [matches per player count, default 12] [game ...]

``--redacted`` keeps each file as it is and (re)writes only its ``redacted_action``: the shapes of other
seats' moves in the event list while part of them is hidden (``Engine.redact``).

Rare shapes need more matches: Fool's Crown 1.3.0 was inferred from 48 a count (its Noble Exchange, a
hand with no Squire and nothing to commit, did not come up in 12 or 24), Jester 1.3.0 and Le Bouffon
from 100 (Jester's `specialize` from a guild, once the reserve is empty, did not come up in 48; Le
Bouffon's file predated its observation's `played`). Jest's file is kept: inferred again, it would
narrow `trophy_winners` (null in matches these seeds do not reach), which is written by hand as what it
is, a map from trophy card to seat (inferred, an object of 17 fixed fields named "2C" and so on).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from genson import SchemaBuilder

from domain.engine import Phase
from domain.games import available_engines
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


def collect(engine, matches: int, max_steps: int = 20_000):
    actions: dict[str, SchemaBuilder] = {}
    for action in HAND_WORKED_ACTIONS.get(engine.name, []):
        actions.setdefault(action["type"], builder()).add_object(action)
    seats, spectators = builder(), builder()
    variants = option_variants(engine)
    for players in range(engine.min_players, engine.max_players + 1):
        for index in range(matches):
            rng = random.Random(SEED_BASE + 100 * players + index)
            state = new_match(engine, players, variants[index % len(variants)])
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
    variants = []
    for kind, built in sorted(actions.items()):
        schema = built.to_schema()
        schema["properties"]["type"] = {"const": kind}
        variants.append(schema)
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


def collect_redacted(engine, matches: int, max_steps: int = 20_000) -> dict[str, SchemaBuilder]:
    """Every move as the event list shows it to another seat or a spectator where part of it is hidden
    (``Engine.redact``; ``hidden: true`` in the event), by its type: a Jest offer without its cards, a
    Le Bouffon gift as its count. Those shapes are not actions a seat may send, and a client that
    checked the event list against the action schema refused them."""
    shapes: dict[str, SchemaBuilder] = {}
    variants = option_variants(engine)
    for players in range(engine.min_players, engine.max_players + 1):
        for index in range(matches):
            rng = random.Random(SEED_BASE + 100 * players + index)
            state = new_match(engine, players, variants[index % len(variants)])
            for _ in range(max_steps):
                step = next_step(engine, state, rng, timeout_probability=0.05)
                if step is None:
                    break
                actor, action = step
                if isinstance(actor, int):
                    for viewer in (None, *range(players)):
                        shown = engine.redact(state, actor, action, viewer)
                        if shown is not None and shown != action and isinstance(shown, dict):
                            shapes.setdefault(shown["type"], builder()).add_object(shown)
                state = engine.apply(state, *step)
    return shapes


def redacted_document(engine, matches: int) -> dict:
    """The ``redacted_action`` part of a game's schema document."""
    variants = []
    for kind, built in sorted(collect_redacted(engine, matches).items()):
        schema = built.to_schema()
        schema["properties"]["type"] = {"const": kind}
        variants.append(schema)
    described = ("Another seat's move as the event list shows it while part of it is hidden from you "
                 "(the event's hidden is true; its action is null when all of it is), by its type")
    if not variants:
        return {"description": described + ": none in this game (a move is shown whole, or as null)", "not": {}}
    return {"description": described, "oneOf": variants}


def main() -> None:
    arguments = sys.argv[1:]
    redacted_only = "--redacted" in arguments  # add only ``redacted_action`` to the files as they are
    arguments = [a for a in arguments if a != "--redacted"]
    matches = int(arguments[0]) if arguments else 12
    only = set(arguments[1:])
    OUT.mkdir(exist_ok=True)
    for name, engine in available_engines().items():
        if only and name not in only:
            continue
        path = OUT / f"{name}.json"
        kept = path.read_text() if redacted_only else None
        written = json.loads(kept) if kept else document(name, engine, matches)
        written["redacted_action"] = redacted_document(engine, matches)
        indent = 2 if kept and kept.startswith("{\n  \"") else 1  # a kept file keeps its layout
        path.write_text(json.dumps(written, indent=indent, sort_keys=True) + "\n")
        print(f"{path.relative_to(OUT.parent.parent)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
