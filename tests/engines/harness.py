"""Random playouts that check the rule-engine contract at every step (OpenSpiel style).

Every game's tests call :func:`random_playout` many times. The match is driven by the domain's one
playout loop (``domain.playout.next_step``) and every new step goes through the checked entry point
``engine.step``, as the application sends it. At every step the harness checks that the engine lists
legal actions for whoever must act and none for anyone else, that listed chance outcomes are
possible ones, that ``step`` leaves the old state untouched, that observations are JSON, share no
list or dict with the state nor with each other's, and can be changed freely (each one is mutated
deeply; the state must not change), that ``observe`` refuses what is not a seat, and (through
``check_observation``) that each seat sees nothing it must not. At the end: the match is over with
a well-formed result, and replaying the recorded steps through the trusted ``apply`` (what replay of
stored events uses) rebuilds every intermediate state exactly. See domain/engine.py for the contract.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from domain.engine import CHANCE, SYSTEM, Engine, IllegalAction, Phase
from domain.playout import new_match, next_step, uniform


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


_LEAVES = frozenset((str, int, float, bool, type(None)))


def _containers(value, found: Optional[dict] = None) -> dict:
    """Every list, dict and set object inside ``value`` (by id), walking dicts, lists, tuples and
    dataclass-like objects (a typed state). A walk with a stack, not a recursion: it runs on every
    state and observation of every playout, and was most of the engines' tests' time."""
    if found is None:
        found = {}
    leaves = _LEAVES
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            if id(item) not in found:
                found[id(item)] = item
                for inner in item.values():
                    if type(inner) not in leaves:
                        push(inner)
        elif kind is list or kind is set:
            if id(item) not in found:
                found[id(item)] = item
                for inner in item:
                    if type(inner) not in leaves:
                        push(inner)
        elif kind is tuple:
            for inner in item:
                if type(inner) not in leaves:
                    push(inner)
        elif kind in leaves:
            continue
        elif isinstance(item, (dict, list, set)):  # a subclass
            if id(item) not in found:
                found[id(item)] = item
                push(tuple(item.values()) if isinstance(item, dict) else tuple(item))
        elif hasattr(item, "__dict__") and not isinstance(item, type):
            push(vars(item))
    return found


def _mutate(value, found: Optional[dict] = None) -> dict:
    """Change a JSON observation deeply, the way a careless caller might: append to every list,
    add a key to every dict and change every value of it. Returns the lists and dicts it changed
    (by id; ``found`` collects them), in the same walk."""
    if found is None:
        found = {}
    if type(value) is list:
        found[id(value)] = value
        for item in value:
            if type(item) is list or type(item) is dict:
                _mutate(item, found)
        value.append("<mutated>")
    elif type(value) is dict:
        found[id(value)] = value
        for key, item in list(value.items()):
            if type(item) is list or type(item) is dict:
                _mutate(item, found)
            else:
                value[key] = "<mutated>"
        value["<mutated>"] = True
    return found


def check_observations(engine: Engine, state: Any, num_players: int, snapshot: Any = None) -> list:
    """The observations of ``state`` (public first, then each seat's): JSON, sharing no list or dict
    with the state nor with one another, and refusing non-seats. Every one is mutated deeply; if
    ``snapshot`` (a deep copy of ``state``) is given, the state must still equal it.

    Without ``snapshot`` (a step between two full checks) nothing is mutated: the observations are
    walked for the lists and dicts they hold, and the same identity checks run. Plain JSON (checked
    above) holds nothing else, so an observation sharing no list or dict with the state cannot change
    it; the mutation proves that on the full checks, and the walk costs a third of it.

    Returns copies of the observations taken before mutation."""
    public = engine.public_observation(state)
    observations = [public] + [engine.observation(state, seat) for seat in range(num_players)]
    pristine = [_roundtrip(observation) for observation in observations]
    for observation, plain in zip(observations, pristine):
        assert plain == observation, f"observation is not plain JSON: {observation!r}"
    for bad in (True, False, -1, num_players, "0", 1.0):
        try:
            engine.observe(state, bad)
        except IllegalAction:
            continue
        raise AssertionError(f"{engine.name}: observe(state, {bad!r}) must be refused")
    checked = engine.observe(state, 0)
    assert checked == pristine[1], "observe(state, 0) is seat 0's observation"
    in_state = _containers(state)
    seen: dict = {}
    for index, observation in enumerate(observations):
        viewer = "public" if index == 0 else f"seat {index - 1}"
        # The objects it holds are the ones it changes (or, between full checks, walks).
        mine = _mutate(observation) if snapshot is not None else _containers(observation)
        shared = mine.keys() & in_state.keys()
        assert not shared, f"{engine.name}: {viewer} observation shares {len(shared)} list/dict with state"
        aliased = mine.keys() & seen.keys()
        other = seen[min(aliased)] if aliased else None
        assert not aliased, f"{engine.name}: {viewer} observation shares a list/dict with {other}'s"
        seen.update(dict.fromkeys(mine, viewer))
    for observation in (checked, engine.observe(state, None)):
        if snapshot is not None:
            _mutate(observation)
        else:
            assert not _containers(observation).keys() & in_state.keys(), f"{engine.name}: observe shares with state"
    if snapshot is not None:
        assert state == snapshot, f"{engine.name}: changing an observation changed the state"
    return pristine


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
    ``check_purity_every``: every that many steps the state is deep-copied and compared after
    ``step`` and after the observations were mutated (the aliasing checks by object identity, and
    the mutation itself, run at every step; the final replay then catches any change they caused).
    """
    rng = random.Random(seed)
    state = new_match(engine, num_players, options)
    initial = copy.deepcopy(state)
    playout = Playout()
    for index in range(max_steps):
        full = index % check_purity_every == 0
        snapshot = copy.deepcopy(state) if full else None
        observations = check_observations(engine, state, num_players, snapshot)
        if index:  # the game's own checks, on every state a step produced
            for seat in range(num_players):
                if check_observation is not None:
                    check_observation(state, seat, observations[seat + 1])
            if invariant is not None:
                invariant(state)
        turn = engine.to_act(state)
        if turn.kind == Phase.PLAYERS:
            assert turn.seats, turn
            for seat in turn.seats:
                assert engine.legal_actions(state, seat), f"seat {seat} must act but has no legal action"
            for other in range(num_players):
                if other not in turn.seats:
                    assert engine.legal_actions(state, other) == [], other
        chosen = next_step(engine, state, rng, policy or uniform, timeout_probability)
        if chosen is None:
            break
        actor, action = chosen
        if actor == CHANCE:
            listed = engine.chance_outcomes(state)
            if listed is not None:
                assert action in [outcome for outcome, _ in listed], action
                total = sum(p for _, p in listed)
                assert abs(total - 1.0) < 1e-9, total
        assert isinstance(action, dict) and "type" in action, action
        assert _roundtrip(action) == action, f"action is not plain JSON: {action!r}"
        new_state = engine.step(state, actor, action)
        if snapshot is not None:
            assert state == snapshot, f"step mutated the state it was given (step {index})"
        playout.states.append(state)
        playout.log.append((actor, action))
        state = new_state
    else:
        raise AssertionError(f"{engine.name}: no end after {max_steps} steps")

    result = engine.result(state)
    assert result is not None, "the match is over but has no result"
    assert len(result.scores) == num_players and len(result.ranks) == num_players
    assert min(result.ranks) == 1 and result.winners
    _roundtrip(result.to_json())
    for seat in range(num_players):
        assert engine.legal_actions(state, seat) == []

    # Replay: the recorded steps, applied through the trusted ``apply`` as stored events are,
    # rebuild every state exactly, drawing no chance again.
    replayed = initial
    for index, (actor, action) in enumerate(playout.log):
        assert replayed == playout.states[index], f"replay diverged before step {index}"
        replayed = engine.apply(replayed, actor, _roundtrip(action))
    assert replayed == state, "replay diverged at the end"
    playout.final = state
    return playout


def options_kept_through_replay(engine: Engine, num_players: int, options: dict, seed: int,
                                kept: Callable[[Any], bool]) -> Any:
    """Plays a match under ``options`` with random legal actions (any acting seat), checks ``kept(state)``
    after every step, and that a replay with ``apply`` from the same options rebuilds the final state (the
    stored Created event holds the options; replay never draws again). Returns the final state."""
    rng = random.Random(seed)
    state = new_match(engine, num_players, options)
    steps = []
    while engine.to_act(state).kind != Phase.OVER:
        turn = engine.to_act(state)
        if turn.kind == Phase.CHANCE:
            actor, action = CHANCE, engine.sample_chance(state, rng)
        elif turn.kind == Phase.AUTO:
            actor, action = SYSTEM, engine.auto_action(state)
        else:
            actor = rng.choice(turn.seats)
            action = rng.choice(engine.legal_actions(state, actor))
        state = engine.step(state, actor, action)
        steps.append((actor, action))
        assert kept(state), (actor, action)
    replayed = new_match(engine, num_players, options)
    for actor, action in steps:
        replayed = engine.apply(replayed, actor, action)
    assert replayed == state
    return state
