"""The shared flat search (domain/search.py FlatSearch) on a toy game whose best move is known:
seat 0 picks a number, a die is rolled, and the seat's reward is the number's worth plus the die's
noise. The heuristic the search starts from always picks 0."""

from __future__ import annotations

import random

from domain.engine import CHANCE, Phase, ToAct
from domain.search import FlatSearch, SearchGame

WORTH = {0: 0.2, 1: 0.6, 2: 0.4}  # 1 is best


class Toy:
    """Only what the search uses of an engine: a pick, then a die, then the end."""

    def to_act(self, state):
        if state["pick"] is None:
            return ToAct(Phase.PLAYERS, (0,))
        if state["die"] is None:
            return ToAct(Phase.CHANCE)
        return ToAct(Phase.OVER)

    def legal_actions(self, state, seat):
        return [{"pick": v} for v in WORTH]

    def sample_chance(self, state, rng):
        return rng.randint(1, 6)

    def apply(self, state, actor, action):
        if actor == CHANCE:
            return {**state, "die": action}
        return {**state, "pick": action["pick"]}


def reward(state):
    # the die's noise differs from pick to pick (and averages to nothing for each), as a playout's would
    return [WORTH[state["pick"]] + ((state["die"] + 2 * state["pick"]) % 6 - 2.5) / 10]


def heuristic(observation, legal, rng):
    return legal[0]


def sampled(observation, seat, rng):
    sampled.calls += 1
    return {"pick": None, "die": None}


sampled.calls = 0
GAME = SearchGame(engine=Toy(), determinize=sampled, seat=lambda observation: 0, evaluate=reward)  # type: ignore[arg-type]
LEGAL = [{"pick": v} for v in WORTH]


def test_it_finds_the_best_move_through_the_noise_of_chance():
    bot = FlatSearch(GAME, heuristic, playouts=60)
    assert [bot({}, LEGAL, random.Random(seed)) for seed in range(5)] == [{"pick": 1}] * 5


def test_it_keeps_the_heuristics_move_unless_beaten_beyond_its_noise():
    stubborn = FlatSearch(GAME, heuristic, playouts=60, z=1e9)
    assert stubborn({}, LEGAL, random.Random(0)) == {"pick": 0}


def test_a_single_legal_action_is_played_without_searching():
    sampled.calls = 0
    assert FlatSearch(GAME, heuristic)({}, LEGAL[:1], random.Random(0)) == LEGAL[0]
    assert sampled.calls == 0


def test_the_budget_is_the_playouts_and_a_clock_stops_it():
    sampled.calls = 0
    FlatSearch(GAME, heuristic, playouts=30)({}, LEGAL, random.Random(0))
    assert 0 < sampled.calls <= 30  # one sample serves every arm in the running
    ticks = iter(range(1000))
    timed = FlatSearch(GAME, heuristic, playouts=10_000).with_budget(seconds=3, clock=lambda: next(ticks))
    sampled.calls = 0
    assert timed({}, LEGAL, random.Random(0)) in LEGAL
    assert sampled.calls <= 3  # the clock ticks once a sample; three ticks, no more samples
    assert timed.with_budget(iterations=7).playouts == 7
