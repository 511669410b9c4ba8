"""Le Bouffon rules 1.2.0: option ``ties``, house rule 5.4 match made configurable (docs/rules/le-bouffon.md,
section 5, "Options"), its house-rule list, and rules 1.0.0 and 1.1.0 kept for stored matches.

House rule 5.4 match [PROPOSAL] (house-rules.md §5.4): "The highest total wins; ties go to the better
finishing place in the last deal, so ranks never tie." Option ``ties``: "last-deal" (default) plays it
exactly as 1.1.0; "shared" lets equal totals share the rank (competition ranking 1, 1, 3), every seat tied
at the top winning. Each deal scores players − finishing place (house rule 5.4 scoring).
"""

from __future__ import annotations

import random

import pytest

from domain.engine import CHANCE, SYSTEM, HouseRule, InvalidOptions, Phase
from domain.games import get_engine, rules_versions
from domain.games.le_bouffon import ENGINE, ENGINES, LeBouffonEngine
from domain.games.le_bouffon.cards import ROLES_BY_COUNT
from domain.games.le_bouffon.house_rules import HOUSE_RULES
from domain.playout import new_match
from tests.engines.harness import random_playout
from tests.engines.test_le_bouffon_playouts import check_observation, check_redaction, eager, make_invariant

E = ENGINE
V1_0 = ENGINES["1.0.0"]
V1_1 = ENGINES["1.1.0"]
SHARED = {"ties": "shared"}


def last_deal_state(engine, history, finished, **options):
    """The AUTO step that scores the last deal of a match of ``len(history) + 1`` deals: ``history`` the
    earlier deals' finishing orders (first out first), ``finished`` the last deal's."""
    n = len(finished)
    deals = len(history) + 1
    state = engine.initial_state(n, {"deals": deals, **options})
    scores = [0] * n
    entries = []
    for number, order in enumerate(history, start=1):
        points = [0] * n
        for place, seat in enumerate(order):
            points[seat] = n - 1 - place  # house rule 5.4 scoring: players − finishing place
        scores = [a + b for a, b in zip(scores, points)]
        entries.append({"deal": number, "order": list(order), "points": points})
    previous = history[-1]
    roles = [None] * n
    for place, seat in enumerate(previous):
        roles[seat] = ROLES_BY_COUNT[n][place]
    state.update(phase="score", deal=deals, scores=scores, history=entries, finished=list(finished),
                 roles=roles, order=list(previous), hands=[[] for _ in range(n)],
                 trick=engine._new_trick(previous[0]))
    return state


def finish(engine, state):
    """The last deal scored through the checked ``step``: the match is over; its result."""
    assert engine.to_act(state).kind == Phase.AUTO
    end = engine.step(state, SYSTEM, engine.auto_action(state))
    assert engine.to_act(end).kind == Phase.OVER
    return end, engine.result(end)


# -- hand-worked cases (house rule 5.4 match) ------------------------------------------------------
# 3 players, 2 deals: deal 1 order 0, 1, 2 (points 2, 1, 0); deal 2 order 1, 0, 2 (points 1, 2, 0).
TWO_TIED = ([[0, 1, 2]], [1, 0, 2])


def test_two_players_equal_on_total_last_deal_breaks_it_as_before():
    """Totals 3, 3, 0. "last-deal" (default, and 1.1.0): seat 1 finished first in the last deal, seat 0
    second, so seat 1 ranks 1st and wins alone: ranks 2, 1, 3."""
    for engine, options in ((E, {}), (E, {"ties": "last-deal"}), (V1_1, {}), (V1_0, {})):
        end, result = finish(engine, last_deal_state(engine, *TWO_TIED, **options))
        assert end["scores"] == [3, 3, 0]
        assert result.ranks == (2, 1, 3) and result.winners == (1,)
        assert result.detail["tiebreak"] == "finishing place in the last deal"


def test_two_players_equal_on_total_shared_gives_equal_ranks_and_both_win():
    """Totals 3, 3, 0 with "shared": seats 0 and 1 share rank 1 and both win; seat 2 is 3rd (1, 1, 3)."""
    end, result = finish(E, last_deal_state(E, *TWO_TIED, **SHARED))
    assert end["scores"] == [3, 3, 0] and end["ties"] == "shared"
    assert result.ranks == (1, 1, 3) and result.winners == (0, 1)
    assert result.to_json()["winners"] == [0, 1] and result.to_json()["ranks"] == [1, 1, 3]
    assert result.detail["tiebreak"] == "none: equal totals share the rank"
    assert result.detail["deals"] == end["history"]


def test_three_way_tie():
    """3 players, 2 deals: deal 1 order 0, 2, 1 (points 2, 0, 1); deal 2 order 1, 2, 0 (points 0, 2, 1):
    totals 2, 2, 2. "last-deal": the last deal's order decides all, seat 1, seat 2, seat 0 (ranks 3, 1, 2);
    "shared": all three rank 1 and all win."""
    history, finished = [[0, 2, 1]], [1, 2, 0]
    end, result = finish(E, last_deal_state(E, history, finished))
    assert end["scores"] == [2, 2, 2]
    assert result.ranks == (3, 1, 2) and result.winners == (1,)
    end, result = finish(E, last_deal_state(E, history, finished, **SHARED))
    assert end["scores"] == [2, 2, 2]
    assert result.ranks == (1, 1, 1) and result.winners == (0, 1, 2)


def test_tie_below_the_top_four_players():
    """4 players, 2 deals: deal 1 order 0, 1, 2, 3 (points 3, 2, 1, 0); deal 2 order 0, 2, 1, 3 (points
    3, 1, 2, 0): totals 6, 3, 3, 0. "last-deal": seat 2 finished before seat 1 in the last deal (ranks 1, 3,
    2, 4); "shared": 1, 2, 2, 4, seat 0 the only winner."""
    history, finished = [[0, 1, 2, 3]], [0, 2, 1, 3]
    end, result = finish(E, last_deal_state(E, history, finished))
    assert end["scores"] == [6, 3, 3, 0] and result.ranks == (1, 3, 2, 4)
    end, result = finish(E, last_deal_state(E, history, finished, **SHARED))
    assert result.ranks == (1, 2, 2, 4) and result.winners == (0,)


def test_no_tie_both_values_agree():
    """4 players finishing 0, 1, 2, 3 in both deals: totals 6, 4, 2, 0, no tie, so both values rank
    1, 2, 3, 4. One deal never ties (points n−1 … 0): order 1, 2, 0 ranks 3, 1, 2 under "shared" too."""
    for options in ({}, SHARED):
        end, result = finish(E, last_deal_state(E, [[0, 1, 2, 3]], [0, 1, 2, 3], **options))
        assert end["scores"] == [6, 4, 2, 0] and result.ranks == (1, 2, 3, 4) and result.winners == (0,)
    one_deal = E.initial_state(3, {"deals": 1, "ties": "shared"})
    one_deal.update(phase="over", scores=[0, 2, 1], history=[{"deal": 1, "order": [1, 2, 0], "points": [0, 2, 1]}])
    assert E.result(one_deal).ranks == (3, 1, 2) and E.result(one_deal).winners == (1,)


def test_a_state_without_ties_plays_the_default():
    """A state with no ``ties`` key (1.1.0's, or one the bots rebuild from an observation) plays
    "last-deal" under the 1.2.0 engine too."""
    state = last_deal_state(E, *TWO_TIED)
    del state["ties"]
    _, result = finish(E, state)
    assert result.ranks == (2, 1, 3)


# -- options: defaults, description, refusals ---------------------------------------------------------
def test_options_defaults_and_description():
    assert E.rules_version == "1.2.0" and get_engine("le-bouffon") is E
    assert E.default_options() == {"deals": 5, "ties": "last-deal"}
    described = E.describe_options()
    assert set(described) == {"deals", "ties"}
    assert described["ties"] == {**described["ties"], "type": "string", "default": "last-deal",
                                 "enum": ["last-deal", "shared"]}
    assert described["ties"]["description"].startswith("House rule 5.4 match [PROPOSAL]: ")
    assert described["deals"]["minimum"] == 1 and described["deals"]["maximum"] == 100
    assert E.check_options(3, {}) == {"deals": 5, "ties": "last-deal"}
    assert E.check_options(6, {"deals": 2, "ties": "shared"}) == {"deals": 2, "ties": "shared"}
    assert E.initial_state(4, SHARED)["ties"] == "shared"
    assert E.initial_state(4, {})["ties"] == "last-deal"


@pytest.mark.parametrize("options", [
    {"ties": "draw"},  # not one of the enum's values
    {"ties": "Shared"},
    {"ties": ""},
    {"ties": True},
    {"ties": 1},
    {"ties": None},
    {"ties": ["shared"]},
    {"bogus": 1},
    {"deals": 0, "ties": "shared"},
])
def test_check_options_refuses_wrong_types_and_values(options):
    with pytest.raises(InvalidOptions) as refused:
        E.check_options(3, options)
    assert refused.value.rule == "le-bouffon options"
    with pytest.raises(InvalidOptions):
        E.initial_state(3, options)


# -- the house-rule list ------------------------------------------------------------------------------
def test_house_rules_name_the_options_that_switch_them():
    assert E.house_rules is HOUSE_RULES and LeBouffonEngine.house_rules is HOUSE_RULES
    assert all(isinstance(rule, HouseRule) and rule.text for rule in HOUSE_RULES)
    switched = {rule.option: rule.id for rule in E.house_rules if rule.option is not None}
    assert switched == {"deals": "5.4 deals", "ties": "5.4 match"}
    assert set(switched) == set(E.describe_options())
    for old in (V1_0, V1_1):  # the same rules; only "5.4 deals" is switched, by deals
        assert [rule.to_json() for rule in old.house_rules] == [
            {**rule.to_json(), "option": None} if rule.option == "ties" else rule.to_json() for rule in HOUSE_RULES]
        assert {rule.option: rule.id for rule in old.house_rules if rule.option is not None} == {"deals": "5.4 deals"}


# -- rules 1.0.0 and 1.1.0 -----------------------------------------------------------------------------
def test_older_versions_are_kept_and_refuse_ties():
    assert set(rules_versions("le-bouffon")) == {"1.0.0", "1.1.0", "1.2.0"}
    for version, old in (("1.0.0", V1_0), ("1.1.0", V1_1)):
        assert get_engine("le-bouffon", version) is old and old.rules_version == version
        assert old.default_options() == {"deals": 5}
        assert set(old.describe_options()) == {"deals"}
        assert old.check_options(3, {"deals": 2}) == {"deals": 2}
        for options in (SHARED, {"ties": "last-deal"}, {"deals": 2, "ties": "shared"}):
            with pytest.raises(InvalidOptions, match="unknown option"):
                old.check_options(3, options)
        assert "ties" not in old.initial_state(3, {})  # states as their version made them
    with pytest.raises(ValueError):
        LeBouffonEngine(rules_version="9.9.9")


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_1_2_0_defaults_play_exactly_as_1_1_0(n):
    """The same draws and moves: 1.1.0 and 1.2.0 with its defaults make the same states (but for 1.2.0's
    ``ties``), the same observations and the same result."""
    for seed in range(3):
        options = {"deals": 2}
        old = random_playout(V1_1, n, options, seed=seed, check_purity_every=100, policy=eager)
        new = random_playout(E, n, options, seed=seed, check_purity_every=100, policy=eager)
        assert old.log == new.log
        assert all("ties" not in state for state in old.states)
        assert all(state["ties"] == "last-deal" for state in new.states)
        assert [{k: v for k, v in state.items() if k != "ties"} for state in new.states] == old.states
        assert E.public_observation(new.final) == V1_1.public_observation(old.final)
        assert E.result(new.final) == V1_1.result(old.final)


# -- random playouts with shared ties ---------------------------------------------------------------------
def check_shared_result(playout, n, deals):
    final = playout.final
    assert final["ties"] == "shared" and len(final["history"]) == deals
    scores = final["scores"]
    result = E.result(final)
    assert list(result.scores) == scores
    assert list(result.ranks) == [1 + sum(1 for other in scores if other > mine) for mine in scores]
    assert result.winners == tuple(seat for seat in range(n) if scores[seat] == max(scores))
    # ranks consistent with totals: a higher total never ranks worse, equal totals rank alike
    for a in range(n):
        for b in range(n):
            assert (scores[a] > scores[b]) == (result.ranks[a] < result.ranks[b])
    return len(set(result.ranks)) < n, len(result.winners) > 1


def test_random_playouts_with_shared_ties():
    """About 100 matches of 1 or 2 deals with "shared" (3 to 6 players): each ends, replays through
    ``apply`` to the live state (the harness), keeps the cards and secrets of the default playouts, and
    ranks by total with shared ranks; some end in a tie, some in a shared first place."""
    tied = shared_top = 0
    for n, count in ((3, 35), (4, 30), (5, 20), (6, 15)):
        for seed in range(count):
            deals = 1 + seed % 2
            playout = random_playout(E, n, {"deals": deals, **SHARED}, seed=seed,
                                     check_observation=check_observation, invariant=make_invariant(n),
                                     check_purity_every=1 if seed < 2 else 60,
                                     policy=None if seed < 4 else eager)
            if seed < 4:
                check_redaction(E, playout, n)
            ties, top = check_shared_result(playout, n, deals)
            tied += ties
            shared_top += top
    assert tied > 0, "no playout ended with equal totals"
    assert shared_top > 0, "no playout ended in a shared first place"


def test_ties_survive_every_step_and_replay():
    """The option stays in the state through every step, and a replay with ``apply`` from the same
    options rebuilds it (the stored Created event holds them; replay never draws again)."""
    rng = random.Random(5)
    options = {"deals": 2, **SHARED}
    state = new_match(E, 4, options)
    steps = []
    while E.to_act(state).kind != Phase.OVER:
        turn = E.to_act(state)
        if turn.kind == Phase.CHANCE:
            actor, action = CHANCE, E.sample_chance(state, rng)
        elif turn.kind == Phase.AUTO:
            actor, action = SYSTEM, E.auto_action(state)
        else:
            actor = turn.seats[0]
            action = rng.choice(E.legal_actions(state, actor))
        state = E.step(state, actor, action)
        steps.append((actor, action))
        assert state["ties"] == "shared"
    replayed = new_match(E, 4, options)
    for actor, action in steps:
        replayed = E.apply(replayed, actor, action)
    assert replayed == state
