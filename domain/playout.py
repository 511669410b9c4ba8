"""The one playout loop: chance, automatic steps, timed phases and a policy choosing moves.

Bots that simulate, the benchmarks, the test harness and the tests all play matches in the bare
engine through :func:`play`, instead of each keeping a copy of the loop. Pure: the caller passes the
random generator, and nothing here does I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Optional

from domain.engine import CHANCE, SYSTEM, Actor, Engine, Phase, Result, State

#: ``policy(state, seat, legal_actions, rng) -> action``: how a seat chooses (uniform by default).
Policy = Callable[[State, int, list, random.Random], Any]
#: ``on_step(state_before, actor, action, state_after)``: called after every applied step.
OnStep = Callable[[State, Actor, Any, State], None]


def uniform(state: State, seat: int, legal: list, rng: random.Random) -> Any:
    return rng.choice(legal)


@dataclass
class Outcome:
    state: State
    result: Optional[Result]
    steps: int  # every applied step (chance, automatic, timeouts, player actions)
    player_moves: int


def next_step(
    engine: Engine,
    state: State,
    rng: random.Random,
    policy: Policy = uniform,
    timeout_probability: float = 0.0,
    policies: Optional[dict[int, Policy]] = None,
) -> Optional[tuple[Actor, Any]]:
    """What happens next in ``state``: ``(actor, action)``, or ``None`` once the match is over.

    Chance is sampled, an automatic step computed, a running timed phase times out with
    ``timeout_probability`` before each player action, and otherwise one of the seats to act
    (chosen at random among simultaneous ones) chooses by its policy.
    """
    turn = engine.to_act(state)
    if turn.kind == Phase.OVER:
        return None
    if turn.kind == Phase.CHANCE:
        return CHANCE, engine.sample_chance(state, rng)
    if turn.kind == Phase.AUTO:
        return SYSTEM, engine.auto_action(state)
    if timeout_probability and engine.timer(state) is not None and rng.random() < timeout_probability:
        return SYSTEM, engine.timeout_action(state)
    seat = turn.seats[0] if len(turn.seats) == 1 else rng.choice(turn.seats)
    legal = engine.legal_actions(state, seat)
    choose = (policies or {}).get(seat, policy)
    return seat, choose(state, seat, legal, rng)


def play(
    engine: Engine,
    state: State,
    rng: random.Random,
    policy: Policy = uniform,
    policies: Optional[dict[int, Policy]] = None,
    timeout_probability: float = 0.0,
    max_steps: int = 1_000_000,
    checked: bool = False,
    on_step: Optional[OnStep] = None,
) -> Outcome:
    """Play from ``state`` to the end. ``checked`` sends every step through ``engine.step`` (the
    checked entry point) instead of the trusted ``apply``."""
    transition = engine.step if checked else engine.apply
    steps = player_moves = 0
    while steps < max_steps:
        chosen = next_step(engine, state, rng, policy, timeout_probability, policies)
        if chosen is None:
            return Outcome(state, engine.result(state), steps, player_moves)
        actor, action = chosen
        after = transition(state, actor, action)
        if on_step is not None:
            on_step(state, actor, action, after)
        state = after
        steps += 1
        if type(actor) is int:
            player_moves += 1
    raise RuntimeError(f"{engine.name}: no end after {max_steps} steps")


def new_match(engine: Engine, num_players: int, options: Optional[dict] = None) -> State:
    return engine.initial_state(num_players, engine.check_options(num_players, options or {}))
