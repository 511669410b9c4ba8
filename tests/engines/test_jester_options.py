"""Jester rules 1.4.0 (and 1.5.0, which keeps them): its two options, each switching a house rule
(docs/rules/jester.md, "Players, options, components" and "Changes in 1.4.0"), its house-rule list, and 1.0.0-1.3.0
kept without them. Hand-worked cases
cite the rule they check (rulebook ../shared/rules/rulebooks/jester.txt, house rules section 1):

* ``vp_floor`` [PROPOSAL P6]: true (default), "The VP track never goes below 0. This includes chair III and the
  crown penalty"; false, the rulebook, silent about a floor: chair III ("opponents -2 VP") and the Crown
  Penalty ("loses 10VP") take their full amount;
* ``influence_needs_markers`` [ENGINE J-INFLUENCE]: true (default), End of the Game item 6's bonus only for
  players with a marker on the board; false, its letter: "Whoever has the greatest quantity of influence
  markers on the board (guilds and royalty spaces) receives 8VP. The 2nd player with the greatest quantity
  receives 4VP. If two or more players tie for 1st place, they add and divide the points (8+4), and there is
  no 2nd place. If there is a tie for 2nd place, none of the tied players scores." 0 is a quantity too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.engine import SYSTEM, HouseRule, InvalidOptions
from domain.games import get_engine, rules_versions
from domain.games.jester import ENGINE as E
from domain.games.jester import ENGINES
from domain.games.jester.core import markers_on_board
from domain.games.jester.scoring import crown_penalty, final_items
from tests.engines.harness import options_kept_through_replay, random_playout
from tests.engines.test_jester import P, act, auto, board, court_a, final_state, kind
from tests.engines.test_jester_playouts import check_observation, check_redaction, invariant

V1_3, V1_4 = ENGINES["1.3.0"], ENGINES["1.4.0"]
NO_FLOOR = {"vp_floor": False}
ZERO_COUNTS = {"influence_needs_markers": False}
BOTH_OFF = {**NO_FLOOR, **ZERO_COUNTS}
HISTORIES = Path(__file__).resolve().parent.parent / "fixtures" / "histories" / "jester"


def with_options(s, **options):
    """``s`` (a state of the ``tests.engines.test_jester`` helpers, made with the defaults) with the match's
    options: rules 1.4.0 keeps them in the state's ``opts``, the defaults filled in by ``check_options``."""
    s["opts"] = E.check_options(s["n"], options)
    return s


def suffer(s, seat):
    return act(s, seat, {"type": "suffer", "discard": None, "guild": None})


# -- vp_floor (house rule P6) ------------------------------------------------------------------------------
def test_chair_3_with_the_floor_p6():
    """Default (P6, as 1.3.0): chair III, "opponents -2 VP", never below 0. Seat 1 at 5 VP goes to 3, seat 2 at
    1 VP to 0, and seat 3 at 0 VP has nothing to lose: he is no victim."""
    s = with_options(board(round_=2))
    for seat, vp in ((1, 5), (2, 1), (3, 0)):
        P(s, seat)["vp"] = vp
    s = court_a(s, 3)
    assert kind(s) == "victims" and E.to_act(s).seats == (1, 2)
    s = suffer(suffer(s, 1), 2)
    assert [P(s, q)["vp"] for q in range(4)] == [0, 3, 0, 0]


def test_chair_3_without_the_floor_takes_the_full_2_vp():
    """``vp_floor`` false: chair III takes its full 2 VP (the rulebook states no floor). Seat 1: 5 -> 3; seat 2:
    1 -> -1; seat 3: 0 -> -2, so seat 3 is a victim too, asked as every victim is (P4: he may defend with a
    crown; he has the 2 he started with)."""
    s = with_options(board(round_=2), **NO_FLOOR)
    for seat, vp in ((1, 5), (2, 1), (3, 0)):
        P(s, seat)["vp"] = vp
    s = court_a(s, 3)
    assert E.to_act(s).seats == (1, 2, 3)
    assert {"type": "defend"} in E.legal_actions(s, 3)
    s = suffer(suffer(suffer(s, 1), 2), 3)
    assert [P(s, q)["vp"] for q in range(4)] == [0, 3, -1, -2]
    assert E.public_observation(s)["players"]["vp"] == [0, 3, -1, -2]


def test_a_negative_total_adds_later_gains_as_any_other():
    """``vp_floor`` false: -2 VP, then Court Play B's "+1 VP" (rulebook Play B: "He scores 1 victory point")
    makes -1, not 0 (P6 would have made the -2 a 0, and the floor is not applied to the sum either)."""
    s = with_options(board(round_=2), **NO_FLOOR)
    P(s, 0)["vp"] = -2
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-b", "from": "reserve"})
    assert P(s, 0)["vp"] == -1


def crown_state(**options):
    """The final AUTO step (4 players) with no scoring item but the Crown Penalty: no money, one card, no
    marker on the board (with ``influence_needs_markers`` true nobody scores item 6). Crowns (3, 1, 3, 3):
    seat 1 alone has the fewest and loses 10 VP (rulebook Crown Penalty)."""
    s = with_options(final_state(), **options)
    for q, (crowns, fame, vp) in enumerate([(3, 0, 20), (1, 2, 5), (3, 0, 0), (3, 0, 7)]):
        P(s, q).update(crowns=crowns, fame=fame, vp=vp, money=0, hand=[0, 0, 0, 1])
        P(s, q)["guilds"] = [0] * 6
    assert s["royalty"] == [None] * 4 and not any(any(P(s, q)["spec"]) for q in range(4))
    return s


def test_crown_penalty_with_and_without_the_floor():
    """Rulebook Crown Penalty: "This player loses 10VP". Seat 1 has 5 VP. Default (P6): 0 VP, tied with
    seat 2 at 0, fame breaks the tie (Winner of the Game: 2 over 0), ranks 1, 3, 4, 2. ``vp_floor`` false:
    -5 VP, last; ranking unchanged otherwise (VP, then fame, then markers on the board)."""
    step = E.auto_action(crown_state())
    assert step["crown_penalty"] == [0, -10, 0, 0] and step["vp"] == [20, 0, 0, 7]
    end = auto(crown_state())
    assert E.result(end).scores == (20, 0, 0, 7) and E.result(end).ranks == (1, 3, 4, 2)

    step = E.auto_action(crown_state(**NO_FLOOR))
    assert step["crown_penalty"] == [0, -10, 0, 0] and step["vp"] == [20, -5, 0, 7]
    end = auto(crown_state(**NO_FLOOR))
    assert [p["vp"] for p in end["players"]] == [20, -5, 0, 7]
    assert E.result(end).scores == (20, -5, 0, 7) and E.result(end).ranks == (1, 4, 3, 2)
    assert E.public_observation(end)["final"]["vp"] == [20, -5, 0, 7]


def test_a_negative_total_enters_the_final_scoring_whole():
    """``vp_floor`` false: a player at -6 VP (three chair IIIs) with $6 (End of the Game item 4: "Each $3 ... is
    worth 1VP") is at -4 before the Crown Penalty and -14 after it: the floor is applied to neither sum."""
    s = crown_state(**NO_FLOOR)
    P(s, 1).update(vp=-6, money=6)
    step = E.auto_action(s)
    assert step["money"][1] == 2 and step["vp"][1] == -14


# -- influence_needs_markers (ENGINE J-INFLUENCE) --------------------------------------------------------
def influence(guild_markers, **options):
    """End of the Game item 6 with each seat's markers on the board (all in guild 2; no royalty)."""
    s = with_options(final_state(n=len(guild_markers)), **options)
    for q, count in enumerate(guild_markers):
        P(s, q)["guilds"] = [0, count, 0, 0, 0, 0]
    assert s["royalty"] == [None] * 4
    assert [markers_on_board(s, q) for q in range(s["n"])] == list(guild_markers)
    return E.auto_action(s)["influence"]


def test_2_players_the_second_with_0_markers_j_influence():
    """2 players, seat 0 with 3 markers on the board, seat 1 with none. J-INFLUENCE (default): seat 1 has no
    quantity to rank, no 4 VP. ``influence_needs_markers`` false: "The 2nd player with the greatest quantity
    receives 4VP": 0 is his quantity, 4 VP."""
    assert influence([3, 0]) == [8, 0]
    assert influence([3, 0], **ZERO_COUNTS) == [8, 4]
    assert influence([0, 3], **ZERO_COUNTS) == [4, 8]


@pytest.mark.parametrize("n, share", [(2, 6), (3, 4), (4, 3)])
def test_nobody_has_a_marker(n, share):
    """All at 0. J-INFLUENCE (default): nobody scores. ``influence_needs_markers`` false: all tie for 1st
    place, "they add and divide the points (8+4), and there is no 2nd place": 12 // n each (the engine's
    rounding down, as for any tie for 1st)."""
    assert influence([0] * n) == [0] * n
    assert influence([0] * n, **ZERO_COUNTS) == [share] * n


def test_the_rulebooks_tie_rules_apply_to_0_as_to_any_quantity():
    """``influence_needs_markers`` false, item 6's tie rules: two or more at 0 in 2nd place tie ("If there
    is a tie for 2nd place, none of the tied players scores"); a single 0 behind a single 1st is 2nd; a 0
    behind a tie for 1st is nothing ("there is no 2nd place"); a 0 behind 1st and 2nd is 3rd."""
    assert influence([2, 0, 0], **ZERO_COUNTS) == [8, 0, 0] == influence([2, 0, 0])
    assert influence([0, 5, 0, 0], **ZERO_COUNTS) == [0, 8, 0, 0]
    assert influence([2, 2, 0], **ZERO_COUNTS) == [6, 6, 0] == influence([2, 2, 0])
    assert influence([3, 1, 0], **ZERO_COUNTS) == [8, 4, 0] == influence([3, 1, 0])
    assert influence([3, 1, 1, 0], **ZERO_COUNTS) == [8, 0, 0, 0] == influence([3, 1, 1, 0])
    # with markers the two readings agree: only 0 markers differ
    assert influence([4, 3, 2, 1], **ZERO_COUNTS) == [8, 4, 0, 0] == influence([4, 3, 2, 1])


def test_both_off_together():
    """Both options false, 2 players: seat 1 (0 markers, 0 VP, the fewer crowns) gets 4 VP for item 6 and
    loses 10 VP: -6."""
    s = with_options(final_state(n=2), **BOTH_OFF)
    for q, crowns in enumerate([3, 1]):
        P(s, q).update(crowns=crowns, fame=0, vp=0, money=0, hand=[0, 0, 0, 1])
    P(s, 0)["guilds"] = [0, 2, 0, 0, 0, 0]
    step = E.auto_action(s)
    assert step["influence"] == [8, 4] and step["crown_penalty"] == [0, -10] and step["vp"] == [8, -6]


# -- options: defaults, description, refusals ----------------------------------------------------------
def test_options_defaults_and_description():
    assert E.rules_version == "1.5.0" and get_engine("jester") is E  # 1.5.0 keeps 1.4.0's options
    assert V1_4.default_options() == E.default_options() and V1_4.describe_options() == E.describe_options()
    assert E.default_options() == {"red_chairs": False, "vp_floor": True, "influence_needs_markers": True}
    described = E.describe_options()
    assert list(described) == ["red_chairs", "vp_floor", "influence_needs_markers"]
    for name in ("vp_floor", "influence_needs_markers"):
        assert described[name]["type"] == "boolean" and described[name]["default"] is True
    assert described["vp_floor"]["description"].startswith("House rule P6 [PROPOSAL]")
    assert described["influence_needs_markers"]["description"].startswith("House rule J-INFLUENCE [ENGINE]")
    assert E.check_options(3, {}) == E.default_options()
    assert E.check_options(2, NO_FLOOR) == {"red_chairs": False, "vp_floor": False, "influence_needs_markers": True}
    assert E.initial_state(4, BOTH_OFF)["opts"] == {"red_chairs": False, **BOTH_OFF}


@pytest.mark.parametrize("options", [
    {"vp_floor": 0}, {"vp_floor": "false"}, {"vp_floor": None},
    {"influence_needs_markers": 1}, {"influence_needs_markers": "no"}, {"vp_floor_": False},
])
def test_check_options_refuses_wrong_types(options):
    with pytest.raises(InvalidOptions) as refused:
        E.check_options(3, options)
    assert refused.value.rule == "jester options"


# -- the house-rule list -------------------------------------------------------------------------------
def test_house_rules_name_their_options_from_1_4_0():
    assert all(isinstance(rule, HouseRule) for rule in E.house_rules)
    switched = {rule.option: rule.id for rule in E.house_rules if rule.option is not None}
    assert switched == {"influence_needs_markers": "J-INFLUENCE", "vp_floor": "P6"}
    assert set(switched) == set(E.describe_options()) - {"red_chairs"}  # the rulebook's variant, no house rule
    for version, engine in ENGINES.items():  # the same rules, switched by no option before 1.4.0
        if version != "1.4.0":
            assert all(rule.option is None for rule in engine.house_rules), version
    assert [r.to_json() for r in V1_3.house_rules] == [{**r.to_json(), "option": None} for r in V1_4.house_rules]
    # 1.5.0: the same options; only P5's text says more (its nine-turn cap, tests/engines/test_jester_turn_cap.py)
    assert [(r.id, r.option) for r in V1_4.house_rules] == [(r.id, r.option) for r in E.house_rules]


# -- rules 1.0.0 to 1.3.0 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "1.2.0", "1.3.0"])
def test_older_versions_refuse_the_options(version):
    engine = ENGINES[version]
    assert get_engine("jester", version) is engine and version in rules_versions("jester")
    assert engine.default_options() == {"red_chairs": False}
    assert list(engine.describe_options()) == ["red_chairs"]
    for options in (NO_FLOOR, ZERO_COUNTS, {"vp_floor": True}, {"influence_needs_markers": True}):
        with pytest.raises(InvalidOptions, match="unknown option"):
            engine.check_options(3, options)
    assert engine.initial_state(2, {})["opts"] == {"red_chairs": False}  # states as that version made them


def test_an_older_state_keeps_the_floor_and_the_markers():
    """A 1.3.0 state has neither option in its ``opts``: P6 and J-INFLUENCE as ever (chair III spares a 0 VP
    player; a 2nd with 0 markers gets nothing)."""
    s = board(round_=2)
    s["opts"] = {"red_chairs": False}
    P(s, 1)["vp"] = 3
    s = court_a(s, 3)
    assert V1_3.to_act(s).seats == (1,)
    f = final_state(n=2)
    f["opts"] = {"red_chairs": False}
    P(f, 0)["guilds"] = [1, 0, 0, 0, 0, 0]
    assert V1_3.auto_action(f)["influence"] == [8, 0]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_defaults_play_exactly_as_1_3_0(n):
    """The same draws and moves: 1.3.0 and 1.4.0 with its defaults make the same states (but for 1.4.0's two
    options in ``opts``) and the same result."""
    for seed in range(4):
        old = random_playout(V1_3, n, {"red_chairs": seed % 2 == 1}, seed=seed, check_purity_every=200)
        new = random_playout(V1_4, n, {"red_chairs": seed % 2 == 1}, seed=seed, check_purity_every=200)
        assert old.log == new.log
        strip = [{**state, "opts": {"red_chairs": state["opts"]["red_chairs"]}} for state in new.states]
        assert strip == old.states
        assert V1_3.result(old.final) == V1_4.result(new.final)


def test_the_1_4_0_fixtures_with_the_defaults_are_1_3_0s():
    """tests/fixtures/histories/jester/1.4.0: the option sets both versions have ({} and red_chairs) wrote the
    events of 1.3.0's files but for Created's options (and the match's name and version)."""
    compared = 0
    for path in sorted((HISTORIES / "1.4.0").glob("*.jsonl")):
        old_path = HISTORIES / "1.3.0" / path.name
        new = [json.loads(line) for line in path.read_text().splitlines()]
        if new[0]["data"]["options"]["vp_floor"] is False:
            assert new[0]["data"]["options"]["influence_needs_markers"] is False
            assert not old_path.exists()
            continue
        old = [json.loads(line) for line in old_path.read_text().splitlines()]
        assert [(e["event"], e["data"]) for e in new[1:]] == [(e["event"], e["data"]) for e in old[1:]]
        assert new[0]["data"]["options"] == {**old[0]["data"]["options"], "vp_floor": True,
                                             "influence_needs_markers": True}
        compared += 1
    assert compared == 12


# -- random playouts with both options off -----------------------------------------------------------------
def no_floor_invariant(state):
    """``test_jester_playouts.invariant`` (cards, markers, stamps, objects, nobles...) but for the floor."""
    invariant({**state, "players": [{**p, "vp": max(0, p["vp"])} for p in state["players"]]})


def check_final(playout):
    """The final scoring as the two options false make it: item 6 by the rulebook's letter (every seat
    ranked, 0 too) and no floor anywhere: the final VP is the VP before it plus the six items and the
    penalty. Returns whether a VP went below 0."""
    before, (actor, last) = playout.states[-1], playout.log[-1]
    assert actor == SYSTEM and last["type"] == "final-scoring"
    n = before["n"]
    board_markers = [markers_on_board(before, q) for q in range(n)]
    values = sorted(set(board_markers), reverse=True)
    first = [q for q in range(n) if board_markers[q] == values[0]]
    expected = [0] * n
    if len(first) > 1:
        expected = [12 // len(first) if q in first else 0 for q in range(n)]
    else:
        expected[first[0]] = 8
        second = [q for q in range(n) if len(values) > 1 and board_markers[q] == values[1]]
        if len(second) == 1:
            expected[second[0]] = 4
    assert last["influence"] == expected == final_items(before)["influence"]
    items = {k: last[k] for k in ("sets", "objects", "specialization", "money", "disciplines", "influence")}
    assert last["crown_penalty"] == crown_penalty(before)
    vp = [before["players"][q]["vp"] + sum(items[k][q] for k in items) + last["crown_penalty"][q] for q in range(n)]
    assert last["vp"] == vp == [p["vp"] for p in playout.final["players"]]
    assert E.result(playout.final).scores == tuple(vp)
    return any(p["vp"] < 0 for state in playout.states for p in state["players"]) or min(vp) < 0


def spiteful(state, seat, legal, rng):
    """Random, but mostly taking chair III when it is free and suffering rather than defending, so that
    VP go below 0 in some matches (uniform play seldom takes a player's VP down to 0)."""
    chair_3 = {"type": "court-a", "chair": 3}
    if chair_3 in legal and rng.random() < 0.9:
        return chair_3
    suffers = [a for a in legal if a["type"] == "suffer"]
    if suffers and rng.random() < 0.9:
        return rng.choice(suffers)
    return rng.choice(legal)


@pytest.mark.parametrize("red_chairs", [False, True])
def test_random_playouts_with_both_options_off(red_chairs):
    """Matches with both options false (20 a player count without red chairs, 6 with them; the even seeds
    uniform, the odd ones ``spiteful``): each ends after three rounds, replays through ``apply`` to the live
    state (the harness), keeps the conservation invariants and the secrets, and scores as the options say;
    some VP goes below 0 (without red chairs chair III opens only in round 2, and fewer matches take a VP
    below 0: fewer seeds had none). A seat ends with 0 markers on the board too seldom in these matches: the
    hand-worked cases above give item 6 to one."""
    options = {"red_chairs": red_chairs, **BOTH_OFF}
    negative = 0
    for n in (2, 3, 4):
        for seed in range(6 if red_chairs else 20):
            playout = random_playout(E, n, dict(options), seed=seed, policy=spiteful if seed % 2 else None,
                                     check_observation=check_observation, invariant=no_floor_invariant,
                                     check_purity_every=1 if seed < 2 else 200)
            assert playout.final["over"] and playout.final["round"] == 3
            assert playout.final["opts"] == options
            if seed < 3:
                check_redaction(playout, n)
            negative += check_final(playout)
    assert negative > 0, "no playout took a VP below 0"


def test_options_survive_every_step_and_replay():
    """The options stay in the state through every step; a replay with ``apply`` rebuilds it."""
    options_kept_through_replay(E, 2, BOTH_OFF, 5, lambda s: s["opts"] == {"red_chairs": False, **BOTH_OFF})


def test_the_computers_read_the_matchs_options_from_the_observation():
    """A probe: a computer sees only its observation, which held none of the match's options, and its
    determinised state always had the defaults (no red chairs, the floor, markers needed), so with
    influence_needs_markers false it scored a second place with 0 markers [8, 0] where the engine gives
    [8, 4]. Since 1.4.0 the observation names the options; older versions' observations do not."""
    import random

    from domain.games.jester.bots import determinize

    def ended(**options):
        s = with_options(final_state(n=2), **options)
        P(s, 0)["guilds"], P(s, 1)["guilds"] = [0, 3, 0, 0, 0, 0], [0] * 6
        return s

    s = ended(**ZERO_COUNTS)
    options = {"red_chairs": False, "vp_floor": True, "influence_needs_markers": False}
    for seat in (0, 1, None):
        assert E.observe(s, seat)["options"] == options, seat
    sample = determinize(E.observe(s, 0), 0, random.Random(1))
    assert sample["opts"] == options
    assert final_items(sample)["influence"] == final_items(s)["influence"] == [8, 4]
    default = determinize(E.observe(ended(), 0), 0, random.Random(1))
    assert final_items(default)["influence"] == [8, 0]
    old = V1_3.initial_state(2, V1_3.check_options(2, {}))
    assert "options" not in V1_3.observe(old, 0) and "options" not in V1_3.observe(old, None)
