"""Tumult Royale computer opponents (domain/games/tumult_royale/bots.py; docs/rules/tumult-royale.md,
"Computer opponents"): every level plays legal moves only and finishes matches, the determinizer
rebuilds a state that shows the seat exactly its observation, and a bot given the same observation
and legal actions chooses the same whatever the hidden tiles are."""

from __future__ import annotations

import random

import pytest

from domain.games import get_engine
from domain.games.tumult_royale import ENGINES
from domain.games.tumult_royale.bots import determinize
from domain.playout import new_match, play

ENGINE = get_engine("tumult-royale")
LEVELS = ("random", "basic", "mcts")
MODES = [(2, {}), (3, {"tax_mode": "async"}), (4, {"gamble": True})]


def bot(level):
    chosen = ENGINE.bots()[level]
    if level == "mcts":  # a small budget keeps whole matches quick; the shipped one on single moves
        chosen = chosen.with_budget(iterations=8, determinizations=2)
    return chosen


def decisions(seed: int, players: int, options=None, limit: int = 800):
    found = []

    def policy(state, seat, legal, rng):
        if len(found) < limit:
            found.append((state, seat))
        return rng.choice(legal)

    play(ENGINE, new_match(ENGINE, players, options), random.Random(seed), policy)
    return found


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players,options", MODES)
def test_each_level_plays_legal_moves_and_finishes(level, players, options):
    chosen = bot(level)
    moves = []

    def policy(state, seat, legal, rng):
        action = chosen(ENGINE.observation(state, seat), legal, rng)
        assert action in legal
        moves.append(action)
        return action

    # checked: every move goes through engine.step, which refuses an illegal one
    outcome = play(ENGINE, new_match(ENGINE, players, options), random.Random(players), policy, checked=True)
    assert outcome.result is not None and outcome.player_moves == len(moves) > 0


def test_the_shipped_search_answers_with_a_legal_move():
    state, seat = next((s, t) for s, t in decisions(5, 3) if s["phase"] == "placement"
                       and len(ENGINE.legal_actions(s, t)) > 2)
    legal = ENGINE.legal_actions(state, seat)
    assert ENGINE.bots()["mcts"](ENGINE.observation(state, seat), legal, random.Random(0)) in legal


@pytest.mark.parametrize("players,options", MODES)
def test_the_determinisation_shows_the_seat_its_observation(players, options):
    phases = set()
    for state, seat in decisions(players, players, options):
        observation = ENGINE.observation(state, seat)
        sampled = determinize(observation, seat, random.Random(1))
        assert ENGINE.observation(sampled, seat) == observation
        assert ENGINE.legal_actions(sampled, seat) == ENGINE.legal_actions(state, seat)
        phases.add(observation["phase"])
    assert {"tax", "placement"} <= phases


def _hidden(state):
    return (state["regions"], state["layout"], state["castle"], state["set_aside"])


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_never_reads_the_hidden_tiles(level):
    """Two states that show the seat the same observation but hide different tiles: the bot chooses
    the same in both (its rng seeded alike), and the determinizer samples the same from both."""
    chosen = bot(level)
    compared = 0
    for state, seat in decisions(13, 3)[::15]:
        observation = ENGINE.observation(state, seat)
        other = determinize(observation, seat, random.Random(99))
        assert ENGINE.observation(other, seat) == observation
        if _hidden(other) == _hidden(state):
            continue
        legal = ENGINE.legal_actions(state, seat)
        assert chosen(observation, legal, random.Random(5)) == chosen(
            ENGINE.observation(other, seat), legal, random.Random(5))
        assert determinize(observation, seat, random.Random(3)) == determinize(
            ENGINE.observation(other, seat), seat, random.Random(3))
        compared += 1
    assert compared >= 15


@pytest.mark.parametrize("version", ["1.0.0", ENGINE.rules_version])
def test_every_observation_names_the_matchs_options_and_the_search_plays_by_them(version):
    """A computer reads only its observation: the gamble variant (the spin after tax collection) was
    guessed from the phase, so in placement a gamble match was searched as a plain one."""
    engine = ENGINES.get(version, ENGINE)
    options = {"gamble": True, "tax_mode": "async", "tax_seconds": 7}
    seen = []

    def policy(state, seat, legal, rng):
        observation = engine.observation(state, seat)
        assert observation["options"] == state["options"] == engine.public_observation(state)["options"]
        if state["phase"] == "placement":
            seen.append(determinize(observation, seat, random.Random(2))["options"])
        return rng.choice(legal)

    play(engine, new_match(engine, 3, options), random.Random(4), policy)
    assert seen and all(sampled == {**engine.default_options(), **options} for sampled in seen)
