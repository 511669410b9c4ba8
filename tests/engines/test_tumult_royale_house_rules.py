"""Tumult Royale's house-rule catalogue (``house_rules``, domain/games/tumult_royale/house_rules.py) and
option descriptions, per rules version, against what the engine plays (audit catalogue26, T1-T8).

Citations: "rulebook l.N" = ../shared/rules/rulebooks/tumult-royale.txt line N; "HR 4.5" =
../shared/rules/house-rules.md section 4.5; TR-… = the [ENGINE TR-…] tags of docs/rules/tumult-royale.md.
"""

from __future__ import annotations

import pytest

from domain.engine import SYSTEM, HouseRule, IllegalAction, Timer
from domain.games import rules_versions
from domain.games.tumult_royale.engine import TumultRoyaleEngine
from domain.games.tumult_royale.house_rules import HOUSE_RULES, house_rules
from domain.games.tumult_royale.state import RULES
from tests.engines.test_tumult_royale import E10, E, started, tumult_state
from tests.engines.test_tumult_royale_departures import spun

VERSIONS = rules_versions("tumult-royale")
IDS = ["4.5 king's give-back", "4.5 commodity mix", "4.5 region tiles", "4.5 costs", "TR-DISTANT",
       "4.5 tiles in play", "4.5 gamble variant", "4.5 tumult order", "TR-ZERO", "TR-LOSS", "4.5 placement",
       "TR-PASS", "4.5 chronicle thresholds", "TR-READY", "4.5 digital tax collection", "TR-DONE",
       "4.5 peek limit", "4.5 asynchronous mode"]


def entry(engine, rule_id: str) -> HouseRule:
    return next(rule for rule in engine.house_rules if rule.id == rule_id)


def test_each_version_serves_its_own_catalogue():
    """1.0.0 and 1.1.0 list the same ids in the docs' order, and differ exactly in TR-ZERO (1.1.0's
    zero-take rule) and TR-READY (1.1.0's bounded ready step, switched by ``ready_seconds``). Fails on
    the catalogue before audit catalogue26, one tuple for both versions without either entry."""
    assert set(VERSIONS) == {"1.0.0", "1.1.0", "1.2.0"}
    assert VERSIONS["1.2.0"] is E and VERSIONS["1.0.0"] is E10
    assert E.house_rules == HOUSE_RULES == TumultRoyaleEngine.house_rules == house_rules(RULES["1.2.0"])
    assert E10.house_rules == house_rules(RULES["1.0.0"])
    assert VERSIONS["1.1.0"].house_rules == house_rules(RULES["1.1.0"])
    for engine in VERSIONS.values():
        assert [rule.id for rule in engine.house_rules] == IDS
    differ = {new.id for new, old in zip(VERSIONS["1.1.0"].house_rules, E10.house_rules) if new != old}
    assert differ == {"TR-ZERO", "TR-READY"}
    differ = {new.id for new, old in zip(E.house_rules, VERSIONS["1.1.0"].house_rules) if new != old}
    assert differ == {"4.5 tiles in play"}  # 1.2.0: switched by set_aside
    assert entry(E, "TR-READY").option == "ready_seconds" and entry(E10, "TR-READY").option is None
    assert "ready_seconds" not in E10.describe_options()


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_every_option_names_a_house_rule(version):
    """Each option of each version switches a house rule the catalogue lists, so the create form flags
    every one (api/web/app.js ``optionField``); before, ``ready_seconds`` and ``tax_seconds`` named none."""
    engine = VERSIONS[version]
    named = {rule.option: rule.id for rule in engine.house_rules if rule.option is not None}
    assert set(named) == set(engine.describe_options())
    expected = {"gamble": "4.5 gamble variant", "tax_seconds": "4.5 digital tax collection",
                "tax_mode": "4.5 asynchronous mode"}
    if version != "1.0.0":
        expected["ready_seconds"] = "TR-READY"
    if version == "1.2.0":
        expected["set_aside"] = "4.5 tiles in play"
    assert named == expected


def zero_take_state():
    """Round 2: seat 1 (mercy) holds the only bread unit taken, a 1; 1 bread left against a demand of 3."""
    return tumult_state(["", "B1"], "B1 M3 M3 T3 T3", demand=3, mercy=[False, True], ranks=[1, 2])


def test_tr_zero_says_what_each_version_plays():
    """TR-ZERO (rulebook l.196, l.200 silent on a take mercy brings to 0): 1.1.0 has no greediest and
    takes no supporters; 1.0.0 makes the 1-unit taker the greediest at a count of 0."""
    assert "counts 0 after mercy is never its greediest" in entry(E, "TR-ZERO").text
    assert "even when mercy brings his count to 0" in entry(E10, "TR-ZERO").text
    s = zero_take_state()
    new, old = E.auto_action(s)["tumults"][0], E10.auto_action(s)["tumults"][0]
    assert new["commodity"] == old["commodity"] == "bread" and new["counted"] == old["counted"] == [0, 0]
    assert (new["greediest"], new["lost"]) == (None, 0)
    assert (old["greediest"], old["lost"]) == (1, 3)
    after = E.step(s, SYSTEM, E.auto_action(s))
    assert after["greedy"] == [False, False]  # may still get the +2 for placing no statue
    nobody = tumult_state(["", ""], "B1 M1 T1", demand=2, mercy=[False, False], ranks=[1, 2])
    for engine in (E, E10):  # a tumult nobody took from has no greediest, in both versions
        assert [t["greediest"] for t in engine.auto_action(nobody)["tumults"]] == [None, None, None]


def test_tr_ready_says_what_each_version_plays():
    """TR-READY (rulebook l.156 "asks everyone if they're ready ... Once everyone is ready, the king flips
    the hourglass"): 1.1.0 asks, bounded by ready_seconds, live mode only; 1.0.0 turns the hourglass at
    the spin (with the gamble variant, at the shuffle)."""
    assert "ready_seconds (default 30 s)" in entry(E, "TR-READY").text and "Live mode only" in entry(E, "TR-READY").text
    assert entry(E10, "TR-READY").text.startswith("There is no ready question")
    s = spun(E, 2, options={"ready_seconds": 12})
    assert s["phase"] == "ready" and E.timer(s) == Timer("ready-1", 12)
    s = E.step(s, 0, {"type": "ready"})
    s = E.step(s, SYSTEM, E.timeout_action(s))  # seat 1 never said ready: the hourglass starts anyway
    assert s["phase"] == "tax" and E.timer(s) == Timer("tax-1", 20)
    assert spun(E, 2, options={"tax_mode": "async"})["phase"] == "tax"  # no ready step in async mode
    old = spun(E10, 2)
    assert old["phase"] == "tax" and E10.timer(old) == Timer("tax-1", 20)
    assert spun(E10, 2, options={"gamble": True})["phase"] == "tax"


def test_tax_collection_entries_say_what_the_engine_plays():
    """4.5 digital tax collection (HR 4.5: "A peeked tile is unavailable to others", over rulebook l.184)
    and TR-DONE (rulebook l.162, l.172: collection lasts until the hourglass runs out)."""
    assert "no other player may peek" in entry(E, "4.5 digital tax collection").text
    s = started(2)
    assert s["phase"] == "tax"
    s = E.step(s, 0, {"type": "peek", "tile": 5})
    with pytest.raises(IllegalAction) as refused:
        E.step(s, 1, {"type": "peek", "tile": 5})
    assert refused.value.rule == "house rule 4.5 digital tax collection"
    with pytest.raises(IllegalAction):
        E.step(s, 0, {"type": "done"})  # only with an empty hand
    s = E.step(s, 0, {"type": "return"})
    s = E.step(s, 0, {"type": "done"})
    assert E.legal_actions(s, 0) == [] and E.to_act(s).seats == (1,)  # no way back
    s = E.step(s, 1, {"type": "done"})
    assert s["phase"] == "tumults"  # before the timer ran out
    assert "with no way back" in entry(E, "TR-DONE").text


def test_option_descriptions_say_what_each_option_changes():
    """Audit catalogue26 T3, T6: what async changes, the gamble variant's name, live mode only."""
    for engine in (E, E10):
        described = engine.describe_options()
        assert "Taxing Royalty Who Love to Gamble" in described["gamble"]["description"]
        mode = described["tax_mode"]["description"]
        assert "one seat at a time in rank order from the king" in mode and "8 peeks a seat each round" in mode
        assert ("no ready step" in mode) == (engine is E)
        assert described["tax_seconds"]["description"].endswith("Live mode only")
        assert "goes back face down" in described["tax_seconds"]["description"]
    ready = E.describe_options()["ready_seconds"]["description"]
    assert "the hourglass starts anyway" in ready and ready.endswith("Live mode only")
