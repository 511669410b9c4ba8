"""Random playouts that check the rule-engine contract at every step (OpenSpiel style).

Every game's tests call :func:`random_playout` many times. At every step it checks that the engine
lists legal actions for whoever must act, accepts them, leaves the old state untouched, produces JSON
observations, and (through ``check_observation``) hides what each seat must not see; at the end that
the match is over with a well-formed result and that replaying the recorded actions from the initial
state rebuilds every intermediate state exactly.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from domain.engine import CHANCE, SYSTEM, Engine, Phase


@dataclass
class Playout:
    states: list = field(default_factory=list)  # states[i] is the state before log[i]
    log: list = field(default_factory=list)  # (actor, action)
    final: Any = None

    @property
    def steps(self) -> int:
        return len(self.log)


def _roundtrip(value):
    return json.loads(json.dumps(value))


def random_playout(
    engine: Engine,
    num_players: int,
    options: Optional[dict] = None,
    seed: int = 0,
    max_steps: int = 200_000,
    check_observation: Optional[Callable[[Any, int, Any], None]] = None,
    invariant: Optional[Callable[[Any], None]] = None,
    check_purity_every: int = 1,
    timeout_probability: float = 0.05,
    policy: Optional[Callable[[Any, int, list, random.Random], Any]] = None,
) -> Playout:
    """Play one match with random legal actions and check the contract throughout.

    ``check_observation(state, seat, observation)`` raises if ``observation`` shows ``seat``
    anything it must not see; ``invariant(state)`` raises if a conserved quantity is off.
    ``policy(state, seat, legal, rng)`` may replace the uniform random choice.
    """
    rng = random.Random(seed)
    options = engine.check_options(num_players, options or {})
    state = engine.initial_state(num_players, options)
    initial = state
    playout = Playout()
    for step in range(max_steps):
        turn = engine.to_act(state)
        if turn.kind == Phase.OVER:
            break
        if turn.kind == Phase.CHANCE:
            actor, action = CHANCE, engine.sample_chance(state, rng)
            listed = engine.chance_outcomes(state)
            if listed is not None:
                assert action in [outcome for outcome, _ in listed], action
                total = sum(p for _, p in listed)
                assert abs(total - 1.0) < 1e-9, total
        elif turn.kind == Phase.AUTO:
            actor, action = SYSTEM, engine.auto_action(state)
        else:
            assert turn.kind == Phase.PLAYERS and turn.seats, turn
            timer = engine.timer(state)
            if timer is not None and rng.random() < timeout_probability:
                actor, action = SYSTEM, engine.timeout_action(state)
            else:
                seat = rng.choice(turn.seats)
                legal = engine.legal_actions(state, seat)
                assert legal, f"seat {seat} must act but has no legal action"
                action = policy(state, seat, legal, rng) if policy else rng.choice(legal)
                engine.check_action(state, seat, action)
                for other in range(num_players):
                    if other not in turn.seats:
                        assert engine.legal_actions(state, other) == [], other
                actor = seat
        assert isinstance(action, dict) and "type" in action, action
        assert _roundtrip(action) == action, f"action is not plain JSON: {action!r}"
        before = copy.deepcopy(state) if step % check_purity_every == 0 else None
        new_state = engine.apply(state, actor, action)
        if before is not None:
            assert state == before, f"apply mutated the state it was given (step {step})"
        playout.states.append(state)
        playout.log.append((actor, action))
        state = new_state
        public = engine.public_observation(state)
        _roundtrip(public)
        for seat in range(num_players):
            observation = engine.observation(state, seat)
            assert _roundtrip(observation) == observation, "observation is not plain JSON"
            if check_observation is not None:
                check_observation(state, seat, observation)
        if invariant is not None:
            invariant(state)
    else:
        raise AssertionError(f"{engine.name}: no end after {max_steps} steps")

    result = engine.result(state)
    assert result is not None, "the match is over but has no result"
    assert len(result.scores) == num_players and len(result.ranks) == num_players
    assert min(result.ranks) == 1 and result.winners
    _roundtrip(result.to_json())
    for seat in range(num_players):
        assert engine.legal_actions(state, seat) == []

    # Replay: the recorded actions rebuild every state exactly, drawing no chance again.
    replayed = initial
    for index, (actor, action) in enumerate(playout.log):
        assert replayed == playout.states[index], f"replay diverged before step {index}"
        replayed = engine.apply(replayed, actor, _roundtrip(action))
    assert replayed == state, "replay diverged at the end"
    playout.final = state
    return playout
