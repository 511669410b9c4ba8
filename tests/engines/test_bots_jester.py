"""Jester computer opponents (domain/games/jester/bots.py; docs/rules/jester.md, "Computer
opponents"): every level plays legal moves only and finishes matches, the determinizer rebuilds a
state that shows the seat exactly its observation, and a bot given the same observation and legal
actions chooses the same whatever the hidden cards are."""

from __future__ import annotations

import random

import pytest

from domain.games import get_engine
from domain.games.jester.bots import EXACT, SEARCHED, FlatSearch, determinize
from domain.playout import new_match, play

ENGINE = get_engine("jester")
LEVELS = ("random", "basic", "mcts")


def bot(level):
    chosen = ENGINE.bots()[level]
    if level == "mcts":  # a small budget keeps whole matches quick; the shipped one on single moves
        chosen = chosen.with_budget(iterations=8)
    return chosen


def decisions(seed: int, players: int, limit: int = 600):
    found = []

    def policy(state, seat, legal, rng):
        if len(found) < limit:
            found.append((state, seat))
        return rng.choice(legal)

    play(ENGINE, new_match(ENGINE, players), random.Random(seed), policy)
    return found


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_each_level_plays_legal_moves_and_finishes(level, players):
    chosen = bot(level)
    moves = []
    # The search plays the first and the last seat (every seat of two), random the others: a search at
    # all four seats took 70-180 s of the suite and checks nothing more (each seat's observation is its own).
    playing = {0, players - 1} if level == "mcts" else set(range(players))

    def policy(state, seat, legal, rng):
        action = chosen(ENGINE.observation(state, seat), legal, rng) if seat in playing else rng.choice(legal)
        assert action in legal
        moves.append(action)
        return action

    # checked: every move goes through engine.step, which refuses an illegal one
    outcome = play(ENGINE, new_match(ENGINE, players), random.Random(players), policy, checked=True)
    assert outcome.result is not None and outcome.player_moves == len(moves) > 0


def test_the_shipped_search_answers_with_a_legal_move():
    state, seat = next((s, t) for s, t in decisions(5, 3)
                       if s["stack"][-1]["kind"] == "play" and len(ENGINE.legal_actions(s, t)) > 2)
    legal = ENGINE.legal_actions(state, seat)
    assert ENGINE.bots()["mcts"](ENGINE.observation(state, seat), legal, random.Random(0)) in legal


def basic_decisions(seed: int, players: int):
    """(state, seat) at every decision of a match the basic level plays (it reaches other
    decisions than random play: specializations, favors' cards and markers...)."""
    found = []
    basic = ENGINE.bots()["basic"]

    def policy(state, seat, legal, rng):
        found.append((state, seat))
        return basic(ENGINE.observation(state, seat), legal, rng) if len(found) % 3 else rng.choice(legal)

    play(ENGINE, new_match(ENGINE, players), random.Random(seed), policy)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_determinisation_shows_the_seat_its_observation(players):
    exact = 0
    for state, seat in decisions(players, players) + basic_decisions(players, players):
        observation = ENGINE.observation(state, seat)
        sampled = determinize(observation, seat, random.Random(1))
        assert ENGINE.observation(sampled, seat) == observation
        kind = observation["decision"]["kind"]
        if kind in EXACT:  # the pending decisions are the match's own
            assert sampled["stack"] == state["stack"]
            exact += 1
        elif kind in SEARCHED:  # a city visit: all but the classes it took, once at its order stage
            frame = state["stack"][-1]
            assert sampled["stack"][:-1] == state["stack"][:-1]
            assert {**sampled["stack"][-1], "classes": None} == {**frame, "classes": None}
            assert frame["stage"] == "order" or sampled["stack"][-1] == frame
        if kind != "city":  # a city visit's classes are guessed (only its basic move uses them)
            assert ENGINE.legal_actions(sampled, seat) == ENGINE.legal_actions(state, seat)
        # Whether each seat has had a turn (the Red Chairs variant's chairs open after it, court.py):
        # round 1 counted from 1.5.0's public round_turns; it was guessed as none for every seat.
        taken = [p["turns"] for p in state["players"]]
        guessed = [p["turns"] for p in sampled["players"]]
        assert guessed == taken if state["round"] == 1 else min(guessed) >= 1, (taken, guessed)
        for place in range(4):  # ten cards of each place, wherever they are
            assert sampled["piles"][place] + sum(p["hand"][place] + p["table"][place]
                                                 for p in sampled["players"]) == 10
    assert exact > 100


def _hidden(state):
    return ([p["hand"] for p in state["players"]], [p["crowns"] for p in state["players"]],
            state["events"], state["pool"])


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_never_reads_the_hidden_cards(level):
    """Two states that show the seat the same observation but hide different cards: the bot chooses
    the same in both (its rng seeded alike), and the determinizer samples the same from both."""
    chosen = bot(level)
    compared = 0
    for state, seat in decisions(13, 3)[20:200:6]:
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


def _searched_decisions(players: int, limit: int = 12):
    return [(s, t) for s, t in decisions(7, players)
            if s["stack"][-1]["kind"] in SEARCHED and len(ENGINE.legal_actions(s, t)) > 1][:limit]


def test_the_search_keeps_basics_choice_unless_it_finds_better_beyond_noise():
    """Basic is the first to draw from the rng; a search that asks for an impossible margin plays
    what basic plays, so the search can only depart from basic where its playouts say so."""
    basic, stubborn = ENGINE.bots()["basic"], FlatSearch(ENGINE, playouts=8, z=1e9)
    for state, seat in _searched_decisions(3):
        observation, legal = ENGINE.observation(state, seat), ENGINE.legal_actions(state, seat)
        assert stubborn(observation, legal, random.Random(4)) == basic(observation, legal, random.Random(4))


def test_a_clock_bounds_the_search_and_its_budget_keeps_it_a_function_of_the_rng():
    state, seat = next((s, t) for s, t in _searched_decisions(4) if len(ENGINE.legal_actions(s, t)) > 2)
    observation, legal = ENGINE.observation(state, seat), ENGINE.legal_actions(state, seat)
    readings = []

    def jumping_clock():  # a second later at every reading
        readings.append(None)
        return float(len(readings))

    shipped = ENGINE.bots()["mcts"]
    assert shipped.clock is None and shipped.seconds is None  # the listed level reads no clock
    timed = shipped.with_budget(seconds=0.5, clock=jumping_clock)
    assert timed(observation, legal, random.Random(0)) in legal
    assert len(readings) == 2  # the deadline, then the first look before a second sample: out of time
    again = shipped.with_budget(iterations=12)
    assert again(observation, legal, random.Random(3)) == again(observation, legal, random.Random(3))
