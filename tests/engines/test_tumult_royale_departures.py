"""Tumult Royale 1.1.0: the two rules departures of issue 9, each against the rule it follows, and
1.0.0 still playing exactly as it did (docs/rules/tumult-royale.md, "Changelog").

Citations: "rulebook <step>" = ../shared/rules/rulebooks/tumult-royale.txt from its second component
list on; "HR 4.5" = ../shared/rules/house-rules.md section 4.5.
"""

from __future__ import annotations

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, Timer
from domain.games import get_engine, rules_versions
from tests.engines.harness import random_playout
from tests.engines.test_tumult_royale import E10, E, check_observation, invariant, tumult_state


def spun(engine, n=2, options=None, spin=3):
    """Round 1 right after the spin (regions 1..10 in order, identity shuffle)."""
    s = engine.initial_state(n, engine.check_options(n, options or {}))
    s = engine.step(s, CHANCE, {"type": "regions", "order": list(range(1, 11))})
    s = engine.step(s, CHANCE, {"type": "deal", "ranks": list(range(1, n + 1))})
    while s["phase"] == "first-statues":
        s = engine.step(s, s["turn"], engine.legal_actions(s, s["turn"])[0])
    s = engine.step(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
    if not s["options"]["gamble"]:
        s = engine.step(s, CHANCE, {"type": "spin", "value": spin})
    return s


def test_the_current_version_is_the_newest_and_the_older_ones_stay_registered():
    """A match is replayed with the rules it was played with (contract: rules versions)."""
    assert E.rules_version == "1.2.0" and E10.rules_version == "1.0.0"
    assert set(rules_versions("tumult-royale")) == {"1.0.0", "1.1.0", "1.2.0"}
    assert get_engine("tumult-royale", "1.0.0") is E10


# ---------------------------------------------------------------------------------------------
# rulebook step 2 "Get Taxes": the ready question before the hourglass
# ---------------------------------------------------------------------------------------------
def test_rb2_everyone_ready_before_the_hourglass_is_turned():
    """Rulebook 2 Get Taxes: "Before the tax collection phase starts, it's important to decide which
    commodities you want to take ... The king or queen then asks everyone if they're ready to play.
    Once everyone is ready, the king flips the hourglass". 1.1.0: the demand is known, nobody may
    touch a tile yet, and the hourglass (the tax timer) starts only when the last seat is ready."""
    s = spun(E, 3, spin=4)
    assert s["phase"] == "ready" and E.to_act(s).seats == (0, 1, 2)
    assert E.public_observation(s)["demand"] == 4  # decide knowing the demand
    assert E.observation(s, 1)["ready"] == [False, False, False]
    assert E.legal_actions(s, 0) == [{"type": "ready"}]
    with pytest.raises(IllegalAction) as refused:
        E.step(s, 0, {"type": "peek", "tile": 0})
    assert "Get Taxes" in refused.value.rule
    for bad in ({"type": "ready", "now": True}, {"type": "done"}):
        with pytest.raises(IllegalAction):
            E.step(s, 0, bad)
    assert E.timer(s) == Timer("ready-1", 30)  # the question itself is bounded
    s = E.step(s, 0, {"type": "ready"})
    assert E.to_act(s).seats == (1, 2) and E.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction):
        E.step(s, 0, {"type": "ready"})  # once is enough
    s = E.step(s, 2, {"type": "ready"})
    assert s["phase"] == "ready" and E.timer(s).phase == "ready-1"
    s = E.step(s, 1, {"type": "ready"})
    assert s["phase"] == "tax" and E.timer(s) == Timer("tax-1", 20)  # now the hourglass runs
    assert E.to_act(s).seats == (0, 1, 2) and {"type": "peek", "tile": 0} in E.legal_actions(s, 0)


def test_rb2_the_ready_step_times_out_so_nobody_can_stall():
    """Rulebook 2 (the ready question) bounded by the server: when ``ready_seconds`` run out, the
    timeout starts the hourglass whoever is not ready yet; only that step closes it."""
    s = spun(E, 2, options={"ready_seconds": 7})
    assert E.timer(s) == Timer("ready-1", 7)
    s = E.step(s, 1, {"type": "ready"})
    assert E.timeout_action(s) == {"type": "start-tax"}
    with pytest.raises(IllegalAction):
        E.step(s, SYSTEM, {"type": "close-tax"})  # the hourglass is not running yet
    started = E.step(s, SYSTEM, E.timeout_action(s))
    assert started["phase"] == "tax" and E.timer(started) == Timer("tax-1", 20)
    assert E.to_act(started).seats == (0, 1)  # the seat that was not ready collects all the same
    with pytest.raises(IllegalAction):
        E.step(started, SYSTEM, {"type": "start-tax"})
    closed = E.step(started, SYSTEM, E.timeout_action(started))
    assert closed["phase"] == "tumults"


def test_rb2_ready_step_in_the_gamble_variant_and_not_in_async_mode():
    """HR 4.5: the gamble variant spins after the hourglass, so the ready step follows the shuffle;
    the asynchronous mode has no hourglass (unhurried single peeks), so no ready step."""
    s = spun(E, 2, options={"gamble": True})
    assert s["phase"] == "ready" and s["demand"] is None
    assert E.timer(s).phase == "ready-1"
    s = spun(E, 2, options={"tax_mode": "async"})
    assert s["phase"] == "tax" and E.timer(s) is None and E.to_act(s).seats == (0,)


def test_rb2_1_0_0_turns_the_hourglass_at_the_spin():
    """1.0.0 (kept for its matches): the timed phase started the moment the demand was spun."""
    s = spun(E10, 2)
    assert s["phase"] == "tax" and E10.timer(s) == Timer("tax-1", 20)
    with pytest.raises(IllegalAction):
        E10.step(s, 0, {"type": "ready"})


def test_rb2_ready_step_through_the_observations_hides_no_more_and_no_less():
    """During the ready step every tile is still face down: the slots show all 27 face down and no
    seat holds a value; kept counts are zero."""
    s = spun(E, 2)
    for viewer in (0, 1, None):
        obs = E.observe(s, viewer)
        assert obs["slots"] == "d" * 27 and obs["castles"] == [[] if viewer == seat else 0 for seat in (0, 1)]
        assert obs.get("hand") is None and "'value'" not in repr(obs)


# ---------------------------------------------------------------------------------------------
# rulebook step 3 "The Greediest Player": a counted take of 0 is not greedy
# ---------------------------------------------------------------------------------------------
def test_rb3_a_counted_take_of_zero_is_not_greedy():
    """Rulebook 3 "The Greediest Player ... just can't get enough of swiping"; "Show Some Mercy ...
    subtract 1 from the number of commodities I have robbed". The rulebook is silent on a take that
    mercy brings to 0; 1.1.0 reads it as no take: seat 0 (mercy, one bread unit) is not greediest,
    keeps his supporters and, placing nothing, his consolation (rulebook 4). 1.0.0 made him greediest."""
    s = tumult_state(["B1", "M1"], "M3 M3 T3 T3", demand=2, mercy=[True, False], ranks=[1, 2])
    step = E.auto_action(s)
    bread = step["tumults"][0]
    assert bread["commodity"] == "bread" and bread["took"] == [1, 0] and bread["counted"] == [0, 0]
    assert bread["greediest"] is None and bread["lost"] == 0
    after = E.step(s, SYSTEM, step)
    assert after["supporters"] == s["supporters"] and after["greedy"][0] is False
    assert after["phase"] == "round-end" and 0 in E.auto_action(after)["consolation"]

    old = E10.auto_action(s)["tumults"][0]
    assert old["greediest"] == 0 and old["lost"] == 3  # 1.0.0, as it was played
    old_after = E10.step(s, SYSTEM, E10.auto_action(s))
    assert old_after["greedy"][0] is True and 0 not in E10.auto_action(old_after)["consolation"]


def test_rb3_zero_counted_takes_leave_no_greediest_but_one_counted_unit_does():
    """Rulebook 3: mercy takes 1 off each merciful take; whoever still counts a unit is greediest
    (ties -> the higher rank), whoever counts 0 never is."""
    both = tumult_state(["B1", "B1"], "M3 M3 T3 T3", demand=2, mercy=[True, True], ranks=[1, 2])
    assert E.auto_action(both)["tumults"][0]["greediest"] is None
    assert E10.auto_action(both)["tumults"][0]["greediest"] == 0  # 1.0.0: the higher rank
    one = tumult_state(["B1", "B1"], "M3 M3 T3 T3", demand=2, mercy=[True, False], ranks=[1, 2])
    for engine in (E, E10):
        bread = engine.auto_action(one)["tumults"][0]
        assert bread["counted"] == [0, 1] and bread["greediest"] == 1
    # in round 1 mercy does not apply: one unit is one unit, greediest in both versions
    first = tumult_state(["B1", ""], "M3 M3 T3 T3", demand=2, mercy=[True, False], ranks=[2, 1], round_=1)
    assert E.auto_action(first)["tumults"][0]["greediest"] == 0


# ---------------------------------------------------------------------------------------------
# the contract, for both versions
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", [E, E10], ids=["1.1.0", "1.0.0"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_playouts_check_the_contract_under_both_versions(engine, n):
    """A few harness playouts per version: the checked step, purity, observations that share
    nothing (mutated at every step), replay through the trusted apply, conservation, secrecy."""
    for seed in range(3):
        options = {"tax_mode": "async" if seed == 2 else "live", "gamble": seed == 1}
        playout = random_playout(engine, n, options, seed=100 * n + seed, invariant=invariant,
                                 check_observation=check_observation, check_purity_every=25,
                                 timeout_probability=0.2)
        assert engine.result(playout.final) is not None
        phases = {state["phase"] for state in playout.states}
        assert ("ready" in phases) == (engine is E and options["tax_mode"] == "live")



def test_no_module_level_state_changes_while_matches_are_played():
    """Contract: no engine keeps module-level mutable state (read-only tables and pure functools
    caches only): every module-level dict, list or set of the package is the same after playouts."""
    import copy
    import sys

    modules = [m for name, m in sys.modules.items() if name.startswith("domain.games.tumult_royale")]
    tables = {(m.__name__, key): value for m in modules for key, value in vars(m).items()
              if isinstance(value, (dict, list, set)) and not key.startswith("__")}
    assert ("domain.games.tumult_royale.phases", "PLAYER_PHASES") in tables
    engines = rules_versions("tumult-royale").values()
    before = copy.deepcopy(tables, {id(e): e for e in engines})  # the engines themselves by identity
    for engine in (E, E10):
        random_playout(engine, 3, {}, seed=5, check_purity_every=100)
    assert tables == before
