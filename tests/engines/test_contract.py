"""The engine contract's shared checks, for every game and every shipped rules version (issue 9;
the contract is domain/engine.py's docstring).

Each test walks real random matches (the domain's one playout loop) and, at the states met on the
way, asks ``engine.step`` (the one checked entry point) to take what a careless or hostile client
could send: a legal action with an int made a bool or a float, a seat that is no seat, a chance
outcome that is not possible, a tampered shuffle, a wrong automatic step. Every one must be refused
with IllegalAction and change nothing. It also pins down that ``apply`` is the trusted transition
(replay calls no check) and that no engine keeps module-level mutable state.
"""

from __future__ import annotations

import copy
import functools
import random
import re
import sys
import types
from typing import Any, Iterator

import pytest

from domain.engine import CHANCE, SYSTEM, Engine, IllegalAction, InvalidOptions, Phase, same_json, strictly_in
from domain.games import GAME_PACKAGES, available_engines, rules_versions
from domain.playout import new_match, next_step, play
from tests.engines.harness import check_observations

ENGINES = available_engines()
#: (game, rules version) for every shipped version of every present game.
VERSIONS = [(name, version) for name in ENGINES for version in rules_versions(name)]
IDS = [f"{name}-{version}" for name, version in VERSIONS]
SEEDS = (1, 2)


def _engine(name: str, version: str) -> Engine:
    return rules_versions(name)[version]


def _counts(engine: Engine) -> tuple[int, int]:
    return engine.min_players, engine.max_players


@functools.cache
def _trail(name: str, version: str, num_players: int, seed: int) -> tuple:
    """One random match through the checked ``step``: ((state before, actor, action), ...)."""
    engine = _engine(name, version)
    steps: list = []
    play(
        engine,
        new_match(engine, num_players),
        random.Random(seed),
        timeout_probability=0.05,
        checked=True,
        on_step=lambda before, actor, action, after: steps.append((before, actor, action)),
    )
    return tuple(steps)


def _states(name: str, version: str, seeds: tuple = SEEDS) -> Iterator[tuple[Engine, int, Any, Any, Any]]:
    """(engine, num_players, state, actor, action) for every step of a few matches (one per seed)
    of the fewest and of the most players."""
    engine = _engine(name, version)
    for num_players in sorted(set(_counts(engine))):
        for seed in seeds:
            for state, actor, action in _trail(name, version, num_players, seed):
                yield engine, num_players, state, actor, action


def _refused(engine: Engine, state: Any, actor: Any, action: Any) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        engine.step(state, actor, action)
    assert state == before, "a refused step changed the state"


def _int_paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    """The paths of every int (not bool) inside a JSON value."""
    if type(value) is int:
        yield path
    elif type(value) is dict:
        for key, item in value.items():
            yield from _int_paths(item, path + (key,))
    elif type(value) is list:
        for index, item in enumerate(value):
            yield from _int_paths(item, path + (index,))


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    value = copy.deepcopy(value)
    if not path:
        return new
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return value


def _lax_twins(value: Any, path: tuple) -> list:
    """What Python's ``==`` confuses with the int at ``path``: the same number as a float, and the
    bool of the same truth (``True == 1``)."""
    target = value
    for key in path:
        target = target[key]
    return [_replaced(value, path, float(target)), _replaced(value, path, bool(target))]


# -- strict JSON ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_an_int_made_a_bool_or_a_float_is_refused_through_step(name, version):
    """A legal action (or chance outcome, or automatic step) with one int replaced by the float of
    that number, or by a bool (``true`` must never pass for a seat ``1``), is refused by ``step``:
    strict JSON equality (domain.engine.same_json)."""
    tried = 0
    for engine, _, state, actor, action in _states(name, version):
        paths = list(_int_paths(action))
        for path in paths[:3]:
            for twin in _lax_twins(action, path):
                if actor == CHANCE and engine.chance_outcomes(state) is None:
                    continue  # an unlisted outcome (a shuffle) of ints: the permutation check decides
                if type(actor) is int and strictly_in(twin, engine.legal_actions(state, actor)):
                    continue
                _refused(engine, state, actor, twin)
                tried += 1
    if name == "le-bouffon":  # its actions, outcomes and steps name cards and roles (strings) ...
        assert tried > 0  # ... but the deal's score counts points
    else:
        assert tried > 20, f"{name}: only {tried} actions with ints were met"


@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_what_is_no_action_at_all_is_refused_as_action_format(name, version):
    """Not a JSON object with a string type, whatever the game: rule ``action format``, as
    docs/clients.md tells a bot (the shared check named it ``actions``; a bot author's probe)."""
    for engine, _, state, actor, _ in _states(name, version, seeds=(1,)):
        if type(actor) is not int:
            continue
        for nothing in ({"x": 1}, {"type": 5}, {}, [], "play", None, {"type": "pass", "cards": {1, 2}}):
            with pytest.raises(IllegalAction) as refused:
                engine.step(state, actor, nothing)
            assert refused.value.rule == "action format", (nothing, refused.value)
        return
    raise AssertionError(f"{name} {version}: no seat ever acted")


def test_strict_json_equality_tells_bools_and_floats_from_ints():
    assert not same_json(True, 1) and not same_json(1.0, 1) and not same_json([True], [1])
    assert not strictly_in({"seat": True}, [{"seat": 1}]) and strictly_in({"seat": 1}, [{"seat": 1}])


# -- seats ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_only_real_int_seats_act_and_observe(name, version):
    """A seat is an int in 0..n-1: ``True`` (== 1), ``-1`` (a Python index), ``n`` and ``"0"`` are
    refused by ``step`` (with an action legal for the seat they alias) and by ``observe``, and
    have no legal actions."""
    tried = 0
    for engine, num_players, state, actor, action in _states(name, version):
        if type(actor) is not int:
            continue
        aliases = [(True, 1), (False, 0), (-1, num_players - 1), (num_players, 0), ("0", 0), (1.0, 1)]
        for bad, seat in aliases:
            if seat == actor:
                _refused(engine, state, bad, action)
                assert engine.legal_actions(state, bad) == [], bad
                tried += 1
    assert tried > 10
    engine, num_players, state, _, _ = next(_states(name, version))
    for bad in (True, False, -1, num_players, "0", 1.0, [0]):
        with pytest.raises(IllegalAction):
            engine.observe(state, bad)


# -- chance -----------------------------------------------------------------------------------------
def _first_list_path(value: Any, path: tuple = ()) -> tuple | None:
    if type(value) is list and value:
        return path
    if type(value) is dict:
        for key, item in value.items():
            found = _first_list_path(item, path + (key,))
            if found is not None:
                return found
    return None


def _tampered(outcome: dict) -> list:
    """Outcomes a cheating client might send instead: an unknown type; for a shuffle (the first
    non-empty list in it), a card dropped, one duplicated, one replaced by a foreign one."""
    tampered = [dict(outcome, type=outcome["type"] + "-tampered"), dict(outcome, extra=1)]
    path = _first_list_path(outcome)
    if path is not None:
        target = outcome
        for key in path:
            target = target[key]
        foreign = "<foreign>" if isinstance(target[0], str) else 10**6
        tampered += [
            _replaced(outcome, path, target[:-1]),
            _replaced(outcome, path, target + [target[0]]),
            _replaced(outcome, path, [foreign] + target[1:]),
        ]
    return tampered


@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_impossible_or_tampered_chance_outcomes_are_refused(name, version):
    """Listed outcomes (dice, roles): strict membership; unlisted ones (shuffles): the engine's
    ``validate_chance``, which takes exactly the cards to shuffle. A chance outcome is refused
    when no chance is due, and a seat's action is refused while chance is due."""
    tried = 0
    for engine, _, state, actor, action in _states(name, version):
        if actor != CHANCE:
            if tried < 50:  # no chance outcome is due where a player or the system acts
                _refused(engine, state, CHANCE, action)
            continue
        listed = engine.chance_outcomes(state)
        for bad in _tampered(action):
            if listed is not None and strictly_in(bad, [outcome for outcome, _ in listed]):
                continue
            _refused(engine, state, CHANCE, bad)
            tried += 1
        some_action = {"type": "pass"}
        for seat in range(engine.num_players(state)):
            _refused(engine, state, seat, some_action)
    assert tried > 0


# -- automatic steps ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_a_wrong_system_step_is_refused(name, version):
    """SYSTEM may only take the automatic step due now (``auto_action``) or, in a running timed
    phase, its ``timeout_action``: a changed step, another type, or any step while players act
    without a timer is refused."""
    tried = 0
    for engine, _, state, actor, action in _states(name, version):
        turn = engine.to_act(state)
        if actor == SYSTEM:
            for bad in [dict(action, type=action["type"] + "-x"), dict(action, extra=True)] + [
                _replaced(action, path, 10**6) for path in list(_int_paths(action))[:3]
            ]:
                _refused(engine, state, SYSTEM, bad)
                tried += 1
        elif turn.kind == Phase.PLAYERS and engine.timer(state) is None and tried < 200:
            _refused(engine, state, SYSTEM, {"type": "timeout"})
            _refused(engine, state, SYSTEM, action)
            tried += 1
    assert tried > 0


# -- apply is trusted ---------------------------------------------------------------------------------
_CHECKS = ("check", "check_action", "check_seat", "check_chance", "check_system", "validate_chance")


def _counting(engine: Engine) -> tuple[Engine, dict]:
    """The same engine (same rules version) whose checks count their calls."""
    calls = dict.fromkeys(_CHECKS, 0)

    def counted(method):
        def wrapper(self, *args, **kwargs):
            calls[method] += 1
            return getattr(super(counting_class, self), method)(*args, **kwargs)

        return wrapper

    methods = {method: counted(method) for method in _CHECKS}
    counting_class = type("Counting" + type(engine).__name__, (type(engine),), methods)
    counting = copy.copy(engine)
    counting.__class__ = counting_class
    return counting, calls


@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_replay_through_apply_calls_no_check(name, version):
    """Issue 9: legality is checked once. Replaying a long recorded match through ``apply`` (what
    replay of stored events does) calls none of the checks, and rebuilds the same state; ``step``
    on the same match does call them (so the count can fail)."""
    engine = _engine(name, version)
    num_players = engine.max_players
    trail = _trail(name, version, num_players, 7)
    counting, calls = _counting(engine)
    state = trail[0][0]
    for index, (before, actor, action) in enumerate(trail):
        assert state == before, f"replay diverged before step {index}"
        state = counting.apply(state, actor, action)
    assert calls == dict.fromkeys(_CHECKS, 0), calls
    assert counting.result(state) == engine.result(state) and counting.to_act(state).kind == Phase.OVER
    assert len(trail) > 20
    before, actor, action = next((s, a, x) for s, a, x in trail if type(a) is int)
    counting.step(before, actor, action)
    assert calls["check"] == 1 and calls["check_action"] >= 1


# -- observations share nothing ---------------------------------------------------------------------
@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_observations_share_nothing_with_the_state_or_each_other(name, version):
    """Issue 9: a caller may change an observation freely. The harness's check (every observation
    mutated deeply, the state unchanged; no list or dict shared between the state and any
    observation, or between two seats' observations) on every state of a match per player count."""
    for engine, num_players, state, _, _ in _states(name, version, seeds=SEEDS[:1]):
        check_observations(engine, state, num_players, copy.deepcopy(state))


class _LeakyBouffon(type(ENGINES["le-bouffon"])):  # type: ignore[misc]
    """Le Bouffon as it was before issue 9: the observation hands out the state's own hand."""

    def observation(self, state, seat):
        observation = super().observation(state, seat)
        observation["hand"] = state["hands"][seat]
        return observation


class _SharingBouffon(type(ENGINES["le-bouffon"])):  # type: ignore[misc]
    """Observations of two seats that share one list (Jester's before issue 9)."""

    def observation(self, state, seat):
        observation = super().observation(state, seat)
        observation["shared"] = self.__dict__.setdefault("_shared", [])
        return observation


def test_the_harness_catches_an_observation_that_aliases_the_state_or_another_seat():
    for leaky, message in ((_LeakyBouffon(), "with state"), (_SharingBouffon(), "with seat 0")):
        roles = {"type": "roles", "roles": ["roi", "noble", "bouffon"]}
        state = leaky.step(new_match(leaky, 3), CHANCE, roles)
        state = leaky.step(state, *next_step(leaky, state, random.Random(0)))
        with pytest.raises(AssertionError, match=message):
            check_observations(leaky, state, 3, copy.deepcopy(state))


# -- no module-level mutable state ---------------------------------------------------------------------
def _game_modules(package: str) -> dict:
    return {
        name: module
        for name, module in sorted(sys.modules.items())
        if module is not None and (name == package or name.startswith(package + "."))
    }


def _mutable_globals(modules: dict) -> dict:
    """Every dict, list, set or bytearray a module holds at top level or as a class attribute of a
    class it defines, by where it is; and every attribute of the engines themselves."""
    found = {}
    for module_name, module in modules.items():
        for attr, value in vars(module).items():
            if attr.startswith("__"):  # the interpreter's own (__builtins__, __annotations__...)
                continue
            if isinstance(value, (dict, list, set, bytearray)):
                found[f"{module_name}.{attr}"] = value
            elif isinstance(value, type) and value.__module__ == module_name:
                for class_attr, class_value in vars(value).items():
                    if class_attr.startswith("__"):
                        continue
                    if isinstance(class_value, (dict, list, set, bytearray)):
                        found[f"{module_name}.{attr}.{class_attr}"] = class_value
    return found


def _fingerprint(value: Any, depth: int = 0) -> Any:
    """A comparable picture of a value: containers by content, any other object by identity (the
    engines' own attributes are watched on their own)."""
    if value is None or isinstance(value, (str, int, float, bytes)) or depth > 50:
        return (type(value).__name__, value if depth <= 50 else None)
    if isinstance(value, dict):
        return ("dict", tuple((repr(key), _fingerprint(item, depth + 1)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_fingerprint(item, depth + 1) for item in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(item) for item in value)))
    if isinstance(value, bytearray):
        return ("bytearray", bytes(value))
    return ("object", id(value))


def _snapshot(values: dict) -> dict:
    return {where: _fingerprint(value) for where, value in values.items()}


def _busy(engine: Engine, num_players: int, seed: int, bot_moves: int = 2) -> None:
    """A match that exercises every public method: checked steps, observations, redaction, the
    result, and each bot (it chooses ``bot_moves`` moves now and then: searching bots are slow)."""
    budget = {level: bot_moves for level in engine.bots()}

    def policy(state, seat, legal, rng):
        for viewer in (None, *range(num_players)):
            engine.observe(state, viewer)
        left = [level for level, moves in budget.items() if moves]
        if left and rng.random() < 0.1:
            level = rng.choice(left)
            budget[level] -= 1
            return engine.bots()[level](engine.observe(state, seat), legal, rng)
        return rng.choice(legal)

    def on_step(before, actor, action, after):
        for viewer in (None, *range(num_players)):
            engine.redact(before, actor, action, viewer)

    outcome = play(engine, new_match(engine, num_players), random.Random(seed), policy,
                   timeout_probability=0.05, checked=True, on_step=on_step)
    assert outcome.result is not None and engine.result(outcome.state) is not None


@pytest.mark.parametrize("name", list(ENGINES))
def test_no_module_level_mutable_state(name):
    """Issue 9: no engine keeps module-level mutable state (no memo dict filled at run time, no
    "last checked action" cache). Every dict/list/set at the top level of the game's modules or in
    their classes, and every engine's own attributes, are the same after a few busy matches of
    every rules version (the current engine's bots choosing some moves) as before them."""
    package = GAME_PACKAGES[name]
    package = package if isinstance(package, str) else package.__name__
    versions = rules_versions(name)
    for engine in versions.values():
        engine.bots()  # bots may be imported lazily: import them before the snapshot
    modules = _game_modules(package)
    modules.update(_game_modules("domain.engine"))
    modules.update(_game_modules("domain.playout"))
    watched = _mutable_globals(modules)
    watched.update({f"{name} {version} engine": vars(engine) for version, engine in versions.items()})
    before = _snapshot(watched)
    for engine in versions.values():
        for num_players in sorted(set(_counts(engine))):
            for seed in (11, 12):
                with_bots = engine is ENGINES[name] and seed == 11 and num_players == engine.max_players
                _busy(engine, num_players, seed, bot_moves=2 if with_bots else 0)
    after = _snapshot(watched)
    changed = [where for where in before if before[where] != after[where]]
    assert not changed, f"{name}: module-level state changed during play: {changed}"
    assert len(watched) > 1


def test_the_module_state_check_sees_a_cache_filled_at_run_time():
    """The check above can fail: a planted "last checked action" cache and a class-level memo list
    are seen to change."""
    module = types.ModuleType("planted")

    class Planted:
        memo: list = []

    Planted.__module__ = "planted"
    module.LAST_CHECKED = {"action": None}
    module.Planted = Planted
    watched = _mutable_globals({"planted": module})
    assert set(watched) == {"planted.LAST_CHECKED", "planted.Planted.memo"}
    before = _snapshot(watched)
    module.LAST_CHECKED["action"] = {"type": "take", "from": 1}
    Planted.memo.append(1)
    after = _snapshot(watched)
    assert [where for where in before if before[where] != after[where]] == list(watched)


# -- apply leaves its state alone --------------------------------------------------------------------
@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_apply_never_changes_the_state_it_is_given(name, version):
    """The contract's ``apply`` is pure, and the service relies on it (issue 16): a command acts on
    a copy of the cached match that shares its engine state with every reader of the cache
    (domain/match.py ``Match.working_copy``), so an engine that changed a state in place would change
    what other requests are reading."""
    for engine, _, state, actor, action in _states(name, version, seeds=SEEDS[:1]):
        frozen = copy.deepcopy(state)
        engine.apply(state, actor, action)
        assert same_json(state, frozen), f"apply({actor}, {action}) changed the state it was given"


@pytest.mark.parametrize("name, version", VERSIONS, ids=IDS)
def test_every_value_the_options_schema_allows_is_taken_and_every_other_refused(name, version):
    """What GET /games publishes (``describe_options``: an option's enum, minimum and maximum) is what
    ``check_options`` enforces: each engine checked its own by hand, so a schema and its check could part
    (the base class now enforces the schema's bounds for every engine)."""
    engine = rules_versions(name)[version]
    players = engine.min_players
    for key, schema in engine.describe_options().items():
        for allowed in schema.get("enum", []):
            assert engine.check_options(players, {key: allowed})[key] == allowed
        if "enum" in schema:
            with pytest.raises(InvalidOptions):
                engine.check_options(players, {key: f"not {schema['enum'][0]}"})
        # A value of another type is refused in the schema's words ("integer"), not Python's ("int").
        wrong = "x" if schema["type"] != "string" else 0
        with pytest.raises(InvalidOptions) as refused:
            engine.check_options(players, {key: wrong})
        assert not re.search(r"\b(str|bool|int|float|dict|list)\b", str(refused.value)), str(refused.value)
        for bound, outside in (("minimum", -1), ("maximum", 1)):
            if bound in schema:
                assert engine.check_options(players, {key: schema[bound]})[key] == schema[bound]
                with pytest.raises(InvalidOptions):
                    engine.check_options(players, {key: schema[bound] + outside})


# -- the harness itself ------------------------------------------------------------------------------
class _Leaky:
    """An engine whose seats' observations hand out a list of the state itself (the trophies)."""

    def __init__(self, engine: Engine):
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def observation(self, state: Any, seat: int) -> Any:
        seen = self._engine.observation(state, seat)
        seen["leak"] = state["trophies"]
        return seen

    def observe(self, state: Any, seat: Any) -> Any:  # the checked entry point (a seat is checked first)
        seen = self._engine.observe(state, seat)
        if seat is not None:
            seen["leak"] = state["trophies"]
        return seen


@pytest.mark.parametrize("full", [True, False])
def test_the_harness_catches_an_observation_sharing_a_list_with_the_state(full):
    """The aliasing check (tests/engines/harness.py) on both of its paths: the full check, which mutates
    the observations, and the walk between full checks."""
    engine = available_engines()["jest"]
    state = new_match(engine, 3, {})
    leaky: Any = _Leaky(engine)
    with pytest.raises(AssertionError, match="seat 0 observation shares 1 list/dict with state"):
        check_observations(leaky, state, 3, copy.deepcopy(state) if full else None)
    state = new_match(engine, 3, {})  # the full check's mutation went through the leak into the old one
    assert len(check_observations(engine, state, 3, copy.deepcopy(state) if full else None)) == 4
