"""Fool's Crown computer opponents (domain/games/fools_crown/bots.py; docs/rules/fools-crown.md,
"Computer opponents"): every level plays legal moves only and finishes matches, the determinizer
rebuilds a state that shows the seat exactly its observation, and a bot given the same observation
and legal actions chooses the same whatever the hidden cards are."""

from __future__ import annotations

import random

import pytest

from domain.games import get_engine
from domain.games.fools_crown.bots import determinize, search_bot
from domain.playout import new_match, play

ENGINE = get_engine("fools-crown")
LEVELS = ("random", "basic", "strong", "mcts")
#: A small budget keeps whole matches quick in a test; the shipped budget is used on single moves.
QUICK = {"mcts": lambda bot: lambda o, legal, rng: bot.bots[len(o["hands"])].with_budget(iterations=24)(o, legal, rng)}


def bot(level):
    chosen = ENGINE.bots()[level]
    return QUICK[level](chosen) if level in QUICK else chosen


def decisions(seed: int, players: int, options=None, limit: int = 400):
    """(state, seat) of the player decisions of one random match."""
    found = []

    def policy(state, seat, legal, rng):
        if len(found) < limit:
            found.append((state, seat))
        return rng.choice(legal)

    play(ENGINE, new_match(ENGINE, players, options), random.Random(seed), policy)
    return found


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_level_plays_legal_moves_and_finishes(level, players):
    chosen = bot(level)
    seen = []

    def policy(state, seat, legal, rng):
        action = chosen(ENGINE.observation(state, seat), legal, rng)
        assert action in legal
        seen.append(action["type"])
        return action

    # checked: every move goes through engine.step, which refuses an illegal one
    outcome = play(ENGINE, new_match(ENGINE, players), random.Random(players), policy, checked=True)
    assert outcome.result is not None and outcome.player_moves == len(seen) > 0


def test_the_shipped_search_answers_with_a_legal_move():
    state, seat = next((s, t) for s, t in decisions(3, 4) if len(ENGINE.legal_actions(s, t)) > 5)
    legal = ENGINE.legal_actions(state, seat)
    assert ENGINE.bots()["mcts"](ENGINE.observation(state, seat), legal, random.Random(0)) in legal


@pytest.mark.parametrize("players,options", [(2, {}), (3, {"commit_order": "seat-order"}), (4, {})])
def test_the_determinisation_shows_the_seat_its_observation(players, options):
    for state, seat in decisions(players, players, options):
        observation = ENGINE.observation(state, seat)
        sampled = determinize(observation, seat, random.Random(1))
        assert ENGINE.observation(sampled, seat) == observation
        assert ENGINE.legal_actions(sampled, seat) == ENGINE.legal_actions(state, seat)
        # the same 48 playable cards and 2 Jokers, nowhere twice
        cards = sampled["deck"] + sampled["discard"] + sum(sampled["hands"], []) + sum(sampled["jokers"], [])
        cards += [c for commit in sampled["commits"] if commit for c in commit]
        assert len(cards) == len(set(cards)) == 50


def _hidden(state):
    return (state["deck"], state["discard"], [h for h in state["hands"]], state["commits"])


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_never_reads_the_hidden_cards(level):
    """Two states that show the seat the same observation but hide different cards: the bot chooses
    the same in both (its rng seeded alike), and the determinizer samples the same from both."""
    chosen = bot(level)
    compared = 0
    for state, seat in decisions(11, 3)[:60:3]:
        observation = ENGINE.observation(state, seat)
        other = determinize(observation, seat, random.Random(99))  # other hidden cards, same view
        assert ENGINE.observation(other, seat) == observation
        assert _hidden(other) != _hidden(state)
        legal = ENGINE.legal_actions(state, seat)
        assert chosen(observation, legal, random.Random(5)) == chosen(
            ENGINE.observation(other, seat), ENGINE.legal_actions(other, seat), random.Random(5))
        assert determinize(observation, seat, random.Random(3)) == determinize(
            ENGINE.observation(other, seat), seat, random.Random(3))
        compared += 1
    assert compared >= 10


def test_the_search_keeps_the_rules_version():
    old = get_engine("fools-crown", "1.0.1")
    assert old.bots()["mcts"].bots[2].game.engine.rules_version == "1.0.1"
    assert search_bot(ENGINE).bots[4].game.engine is ENGINE
