"""Le Bouffon's options (docs/rules/le-bouffon.md, section 5, "Options"), their house-rule list, and the
older rules versions kept for stored matches.

Rules 1.2.0: option ``ties``, house rule 5.4 match made configurable. House rule 5.4 match [PROPOSAL]
(house-rules.md §5.4): "The highest total wins; ties go to the better finishing place in the last deal, so
ranks never tie." Option ``ties``: "last-deal" (default) plays it exactly as 1.1.0; "shared" lets equal
totals share the rank (competition ranking 1, 1, 3), every seat tied at the top winning. Each deal scores
players − finishing place (house rule 5.4 scoring).

Rules 1.3.0: option ``first_deal_exchange``, house rule 5.4 exchange made configurable. House rule 5.4
exchange [PROPOSAL] (house-rules.md §5.4): "Exchange: none in the first game (roles are random)"; the
rulebook's point 3 ("Avant de commencer la partie, le roi doit donner deux cartes au bouffon et celui-ci
doit donner ses deux plus fortes au roi. L'héritier doit donner une carte à l'ouvrier et l'ouvrier doit
donner sa plus forte carte à l'héritier") names no exception for the first game. ``false`` (default)
plays exactly as 1.2.0; ``true`` gives the first deal the exchange of every later deal. From 1.3.0 the
observation shows the match's ``ties``, and the mcts bot ranks the standing by it.
"""

from __future__ import annotations

import random

import pytest

from domain.engine import CHANCE, SYSTEM, HouseRule, IllegalAction, InvalidOptions, Phase
from domain.games import get_engine, rules_versions
from domain.games.le_bouffon import ENGINE, ENGINES, LeBouffonEngine
from domain.games.le_bouffon import bots as bouffon_bots
from domain.games.le_bouffon.cards import EXCHANGES, ROLES_BY_COUNT, STRENGTH
from domain.games.le_bouffon.engine import TIES
from domain.games.le_bouffon.house_rules import HOUSE_RULES
from domain.playout import new_match
from domain.search import playout as search_playout
from tests.engines.harness import options_kept_through_replay, random_playout
from tests.engines.test_le_bouffon_audit import c, cards, seat_of, shuffle_for
from tests.engines.test_le_bouffon_playouts import check_observation, check_redaction, eager, make_invariant

E = ENGINE
V1_0 = ENGINES["1.0.0"]
V1_1 = ENGINES["1.1.0"]
V1_2 = ENGINES["1.2.0"]
SHARED = {"ties": "shared"}
EXCHANGE = {"first_deal_exchange": True}
DEFAULTS = {"deals": 5, "ties": "last-deal", "first_deal_exchange": False}
ROLES4 = ["roi", "héritier", "ouvrier", "bouffon"]


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
    assert E.rules_version == "1.3.0" and get_engine("le-bouffon") is E
    assert E.default_options() == DEFAULTS
    described = E.describe_options()
    assert set(described) == {"deals", "ties", "first_deal_exchange"}
    assert described["ties"] == {**described["ties"], "type": "string", "default": "last-deal",
                                 "enum": ["last-deal", "shared"]}
    assert described["ties"]["description"].startswith("House rule 5.4 match [PROPOSAL]: ")
    assert described["first_deal_exchange"] == {**described["first_deal_exchange"], "type": "boolean",
                                                "default": False}
    assert described["first_deal_exchange"]["description"].startswith("House rule 5.4 exchange [PROPOSAL]: ")
    assert described["deals"]["minimum"] == 1 and described["deals"]["maximum"] == 100
    assert E.check_options(3, {}) == DEFAULTS
    assert E.check_options(6, {"deals": 2, "ties": "shared"}) == {**DEFAULTS, "deals": 2, "ties": "shared"}
    assert E.check_options(4, EXCHANGE) == {**DEFAULTS, **EXCHANGE}
    assert E.initial_state(4, SHARED)["ties"] == "shared"
    assert E.initial_state(4, {})["ties"] == "last-deal"
    assert E.initial_state(4, EXCHANGE)["first_deal_exchange"] is True
    assert E.initial_state(4, {})["first_deal_exchange"] is False


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
    {"first_deal_exchange": 1},  # a boolean, not a number (JSON's true is no 1)
    {"first_deal_exchange": 0},
    {"first_deal_exchange": "true"},
    {"first_deal_exchange": None},
    {"first_deal_exchange": [True]},
    {"first_deal_exchange": True, "ties": "draw"},
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
    assert switched == {"deals": "5.4 deals", "ties": "5.4 match", "first_deal_exchange": "5.4 exchange"}
    assert set(switched) == set(E.describe_options())
    for old, unswitched in ((V1_0, {"ties", "first_deal_exchange"}), (V1_1, {"ties", "first_deal_exchange"}),
                            (V1_2, {"first_deal_exchange"})):  # the same rules, fewer of them switched
        assert [rule.to_json() for rule in old.house_rules] == [
            {**rule.to_json(), "option": None} if rule.option in unswitched else rule.to_json()
            for rule in HOUSE_RULES]
        assert {rule.option for rule in old.house_rules if rule.option is not None} == set(old.describe_options())
    assert [rule.id for rule in V1_2.house_rules if rule.option is not None] == ["5.4 deals", "5.4 match"]


# -- rules 1.0.0, 1.1.0 and 1.2.0 -----------------------------------------------------------------------
def test_older_versions_are_kept_and_refuse_ties():
    assert set(rules_versions("le-bouffon")) == {"1.0.0", "1.1.0", "1.2.0", "1.3.0"}
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


def test_older_versions_refuse_first_deal_exchange():
    """Rules 1.0.0 to 1.2.0 have no option first_deal_exchange: it is refused as unknown (even at its
    default), their states have no such key, and their observations do not show ``ties``."""
    assert get_engine("le-bouffon", "1.2.0") is V1_2 and V1_2.rules_version == "1.2.0"
    assert V1_2.default_options() == {"deals": 5, "ties": "last-deal"}
    assert set(V1_2.describe_options()) == {"deals", "ties"}
    for old in (V1_0, V1_1, V1_2):
        for options in (EXCHANGE, {"first_deal_exchange": False}, {"deals": 2, **EXCHANGE}):
            with pytest.raises(InvalidOptions, match="unknown option") as refused:
                old.check_options(4, options)
            assert refused.value.rule == "le-bouffon options"
            with pytest.raises(InvalidOptions):
                old.initial_state(4, options)
        state = old.initial_state(4, {})
        assert "first_deal_exchange" not in state
        assert "ties" not in old.public_observation(state) and "ties" not in old.observation(state, 0)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_1_2_0_defaults_play_exactly_as_1_1_0(n):
    """The same draws and moves: 1.1.0 and 1.2.0 with its defaults make the same states (but for 1.2.0's
    ``ties``), the same observations and the same result."""
    for seed in range(3):
        options = {"deals": 2}
        old = random_playout(V1_1, n, options, seed=seed, check_purity_every=100, policy=eager)
        new = random_playout(V1_2, n, options, seed=seed, check_purity_every=100, policy=eager)
        assert old.log == new.log
        assert all("ties" not in state for state in old.states)
        assert all(state["ties"] == "last-deal" for state in new.states)
        assert [{k: v for k, v in state.items() if k != "ties"} for state in new.states] == old.states
        assert V1_2.public_observation(new.final) == V1_1.public_observation(old.final)
        assert V1_2.result(new.final) == V1_1.result(old.final)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_1_3_0_defaults_play_exactly_as_1_2_0(n):
    """The same draws and moves: 1.2.0 and 1.3.0 with first_deal_exchange false (its default, or given)
    make the same states (but for 1.3.0's ``first_deal_exchange``), the same observations (but for
    1.3.0's ``ties`` in them) and the same result; the first deal has no exchange."""
    for seed in range(3):
        for options, ties in (({"deals": 2}, "last-deal"), ({"deals": 2, "first_deal_exchange": False, **SHARED},
                                                             "shared")):
            old_options = {k: v for k, v in options.items() if k != "first_deal_exchange"}
            old = random_playout(V1_2, n, old_options, seed=seed, check_purity_every=100, policy=eager)
            new = random_playout(E, n, options, seed=seed, check_purity_every=100, policy=eager)
            assert old.log == new.log
            assert all("first_deal_exchange" not in state for state in old.states)
            assert all(state["first_deal_exchange"] is False for state in new.states)
            stripped = [{k: v for k, v in state.items() if k != "first_deal_exchange"} for state in new.states]
            assert stripped == old.states
            for state in new.states[::7]:
                public = E.public_observation(state)
                assert public.pop("ties") == ties
                assert public == V1_2.public_observation(state)
            assert E.result(new.final) == V1_2.result(old.final)
            first_deal = [action for state, (_, action) in zip(new.states, new.log) if state["deal"] == 1]
            assert not any(action["type"] == "give" for action in first_deal)


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
    """The option stays in the state through every step; a replay with ``apply`` rebuilds it."""
    options_kept_through_replay(E, 4, {"deals": 2, **SHARED}, 5, lambda s: s["ties"] == "shared")


# -- rules 1.3.0: the first deal's exchange (house rule 5.4 exchange, option first_deal_exchange) ------
def first_deal(roles, wanted_by_role, **options):
    """Deal 1 through the checked ``step``: the roles draw, then a shuffle dealing each role its wanted
    cards, the bouffon and the ouvrier filled up first with the weakest cards left."""
    n = len(roles)
    state = E.initial_state(n, {"deals": 2, **options})
    state = E.step(state, CHANCE, {"type": "roles", "roles": list(roles)})
    wanted = {roles.index(role): chosen for role, chosen in wanted_by_role.items()}
    fill_first = [roles.index(role) for role in ("bouffon", "ouvrier") if role in roles]
    return E.step(state, CHANCE, shuffle_for(state, wanted, fill_first=fill_first))


#: 4 players, seats 0 roi, 1 héritier, 2 ouvrier, 3 bouffon. The bouffon's two strongest are minotaure#1
#: and paladin#1 (the rest of his hand is soldats 1-3), the ouvrier's strongest assassin#1 (the rest soldats
#: 3-6); the roi holds the other minotaure and the héritier two paladins.
WANTED4 = {"bouffon": [c("minotaure"), c("paladin")], "ouvrier": [c("assassin")],
           "roi": [c("minotaure", 2), c("archer")], "héritier": cards("paladin", 2, first=2)}


def test_first_deal_exchanges_with_the_option_as_the_rulebook_says():
    """Rulebook 3 in the first deal (first_deal_exchange true): the roi gives 2 cards of his choice to
    the bouffon, who gives his 2 strongest; the héritier gives 1 card to the ouvrier, who gives his
    strongest. Sealed choices, worked out on the hands before any exchange; then the roi leads (rulebook 4)."""
    state = first_deal(ROLES4, WANTED4, **EXCHANGE)
    roi, her, ouv, bouf = (seat_of(state, role) for role in ROLES4)
    assert (roi, her, ouv, bouf) == (0, 1, 2, 3)
    before = [list(hand) for hand in state["hands"]]
    assert state["deal"] == 1 and state["phase"] == "exchange"
    assert E.to_act(state).kind == Phase.PLAYERS and E.to_act(state).seats == (roi, her)
    assert E.legal_actions(state, ouv) == [] and E.legal_actions(state, bouf) == []
    assert {"type": "give", "cards": [c("archer"), c("minotaure", 2)]} in E.legal_actions(state, roi)
    assert len(E.legal_actions(state, her)) == 14  # any one card of his 14
    # the givers' choices are checked as in later deals
    for seat, action in ((roi, {"type": "give", "cards": [c("archer")]}),
                         (her, {"type": "give", "cards": cards("paladin", 2, first=2)}),
                         (roi, {"type": "play", "cards": [c("archer")]}),
                         (bouf, {"type": "give", "cards": [c("minotaure")]})):
        with pytest.raises(IllegalAction):
            E.step(state, seat, action)
    state = E.step(state, her, {"type": "give", "cards": [c("paladin", 2)]})
    assert state["phase"] == "exchange" and E.to_act(state).seats == (roi,)
    assert E.observation(state, her)["gift"] == [c("paladin", 2)] and "gift" not in E.observation(state, ouv)
    # the roi gives his best two: the bouffon keeps them (never hands the roi's gift back)
    state = E.step(state, roi, {"type": "give", "cards": [c("archer"), c("minotaure", 2)]})
    hands = state["hands"]
    assert state["phase"] == "play" and E.to_act(state).seats == (roi,) and state["trick"]["leader"] == roi
    assert set(hands[roi]) == set(before[roi]) - {c("archer"), c("minotaure", 2)} | {c("minotaure"), c("paladin")}
    assert set(hands[bouf]) == set(before[bouf]) - {c("minotaure"), c("paladin")} | {c("archer"), c("minotaure", 2)}
    assert set(hands[her]) == set(before[her]) - {c("paladin", 2)} | {c("assassin")}
    assert set(hands[ouv]) == set(before[ouv]) - {c("assassin")} | {c("paladin", 2)}
    assert [len(hand) for hand in hands] == [len(hand) for hand in before]
    gift, strongest = [c("archer"), c("minotaure", 2)], [c("paladin"), c("minotaure")]
    assert state["exchanged"][roi] == {"gave": gift, "received": strongest}
    assert state["exchanged"][bouf] == {"gave": strongest, "received": gift}
    assert state["exchanged"][her] == {"gave": [c("paladin", 2)], "received": [c("assassin")]}
    assert state["exchanged"][ouv] == {"gave": [c("assassin")], "received": [c("paladin", 2)]}
    # the bouffon's two strongest, the ouvrier's strongest, of the hands before the exchange
    assert sorted(STRENGTH[card] for card in before[bouf])[-2:] == [13, 14]
    assert max(STRENGTH[card] for card in before[ouv]) == 12
    # each party sees its own exchange only
    assert E.observation(state, roi)["exchange"]["received"] == E.observation(state, bouf)["exchange"]["gave"]
    assert "exchange" not in E.public_observation(state)


def test_first_deal_exchange_three_players_only_the_roi_gives():
    """3 players (roi, noble, bouffon): in the first deal with the option only the roi gives; the noble
    keeps his hand."""
    roles = ["bouffon", "roi", "noble"]
    state = first_deal(roles, {"bouffon": cards("minotaure", 2), "roi": [c("soldat-8")]}, **EXCHANGE)
    roi, noble, bouf = 1, 2, 0
    before = [list(hand) for hand in state["hands"]]
    assert state["phase"] == "exchange" and E.to_act(state).seats == (roi,)
    state = E.step(state, roi, {"type": "give", "cards": [c("soldat-8"), before[roi][0]]})
    assert set(cards("minotaure", 2)) <= set(state["hands"][roi]) and state["hands"][noble] == before[noble]
    assert {c("soldat-8"), before[roi][0]} <= set(state["hands"][bouf])


def test_first_deal_has_no_exchange_without_the_option_nor_in_older_versions():
    """The same draws without the option (its default false, or given false), and under 1.2.0: no exchange
    in the first deal (house rule 5.4 exchange), the roi leads at once with the hands as dealt."""
    dealt = first_deal(ROLES4, WANTED4, **EXCHANGE)
    for engine, options in ((E, {}), (E, {"first_deal_exchange": False}), (V1_2, {}), (V1_1, {})):
        state = engine.initial_state(4, {"deals": 2, **options})
        state = engine.step(state, CHANCE, {"type": "roles", "roles": ROLES4})
        state = engine.step(state, CHANCE, shuffle_for(state, {ROLES4.index(role): chosen
                                                               for role, chosen in WANTED4.items()},
                                                       fill_first=(3, 2)))
        assert state["phase"] == "play" and engine.to_act(state).seats == (0,)
        assert state["hands"] == dealt["hands"]  # the same cards, none exchanged
        assert engine.legal_actions(state, 0)[0]["type"] == "play"
        assert not any(action["type"] == "give" for action in engine.legal_actions(state, 0))
        assert state["exchanged"] == [None] * 4


def test_second_deal_exchanges_either_way():
    """The option changes the first deal only: with it or without, the second deal has its exchange."""
    for options in ({}, EXCHANGE):
        rng = random.Random(4)
        state = new_match(E, 4, {"deals": 2, **options})
        while state["deal"] == 1 or state["phase"] != "exchange":
            assert state["phase"] != "over"
            turn = E.to_act(state)
            if turn.kind == Phase.CHANCE:
                state = E.step(state, CHANCE, E.sample_chance(state, rng))
            elif turn.kind == Phase.AUTO:
                state = E.step(state, SYSTEM, E.auto_action(state))
            else:
                seat = turn.seats[0]
                state = E.step(state, seat, rng.choice(E.legal_actions(state, seat)))
        assert state["deal"] == 2 and state["first_deal_exchange"] is bool(options)


def check_exchanges(playout, n, deals):
    """Every deal has its exchange, the first included: the givers give (roi 2 cards, héritier 1) and the
    receivers hand over their strongest of the hands before any exchange (rulebook 3)."""
    givers = len([role for role in EXCHANGES if role in ROLES_BY_COUNT[n]])
    gives = [action for _, action in playout.log if action["type"] == "give"]
    assert len(gives) == givers * deals, "one exchange per deal, the first included"
    first = [(state, action) for state, (_, action) in zip(playout.states, playout.log)
             if state["deal"] == 1 and action["type"] == "give"]
    assert len(first) == givers
    exchanged = 0
    for before, after in zip(playout.states, playout.states[1:]):
        if before["phase"] == "exchange" and after["phase"] == "play":
            exchanged += 1
            for giver in range(n):
                role = before["roles"][giver]
                if role not in EXCHANGES:
                    continue
                receiver = before["roles"].index(EXCHANGES[role][0])
                size = EXCHANGES[role][1]
                received = after["exchanged"][giver]["received"]
                strongest = sorted(STRENGTH[card] for card in before["hands"][receiver])[-size:]
                assert sorted(STRENGTH[card] for card in received) == strongest
                assert set(received) <= set(before["hands"][receiver]) and set(received) <= set(after["hands"][giver])
    assert exchanged == deals


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_playouts_with_the_first_deal_exchange_keep_its_secrets(n):
    """Random matches with first_deal_exchange true (1 or 2 deals): each ends and replays (the harness);
    cards are conserved; each seat observes only the public observation, its hand, its gift and its own
    exchange, the public one no card of a hand; the first deal's gifts are shown to giver and receiver only,
    as in later deals (the checks of test_le_bouffon_playouts)."""
    for seed in range(4):
        deals = 1 + seed % 2
        playout = random_playout(E, n, {"deals": deals, **EXCHANGE}, seed=seed,
                                 check_observation=check_observation, invariant=make_invariant(n),
                                 check_purity_every=1 if seed == 0 else 60,
                                 policy=None if seed < 2 else eager)
        check_redaction(E, playout, n)
        check_exchanges(playout, n, deals)
        assert playout.final["first_deal_exchange"] is True and len(playout.final["history"]) == deals


# -- the mcts bot ranks the standing by the match's tie rule --------------------------------------------
def scored_last_deal(**options):
    """3 players, the second and last deal just ended (AUTO step due): totals 3, 3, 0 once it is scored,
    seat 1 having finished before seat 0 in it (TWO_TIED)."""
    state = last_deal_state(E, *TWO_TIED, **options)
    assert state["scores"] == [2, 1, 0] and state["finished"] == [1, 0, 2]  # the last deal's points not in yet
    return state


def test_the_bot_standing_follows_the_tie_rule():
    """Totals 3, 3, 0 after the last deal: "last-deal" ranks seat 1 (first out in it) before seat 0, as the
    engine's result does; "shared" ranks them equal. The mcts evaluation rewards accordingly."""
    for options, standing, ranks in (({}, [1, 0, 2], (2, 1, 3)), (SHARED, [0, 0, 2], (1, 1, 3))):
        state = scored_last_deal(**options)
        assert bouffon_bots.standings(state) == standing
        assert bouffon_bots._evaluate(state) == [(2 - s) / 2 for s in standing]  # the last deal: standing only
        _, result = finish(E, state)
        assert result.ranks == ranks and [rank - 1 for rank in ranks] == standing
    state = scored_last_deal(**SHARED)
    del state["ties"]  # an observation before 1.3.0 does not show it: the default
    assert bouffon_bots.standings(state) == [1, 0, 2]
    # before the last deal the standing weighs half, the deal's finishing place the other half
    state = dict(scored_last_deal(**SHARED), deals=3)
    assert bouffon_bots._evaluate(state) == [0.5 * 1 + 0.5 * 0.5, 0.5 * 1 + 0.5 * 1, 0.0]


def test_the_observation_shows_ties_and_the_bot_keeps_it():
    """From 1.3.0 the observation shows the match's ``ties``; the bot's determinisation keeps it (the
    sample shows the seat exactly what it saw), so its playouts are judged by the match's own rule."""
    rng = random.Random(7)
    for ties in TIES:
        state = new_match(E, 4, {"deals": 2, "ties": ties})
        state = E.step(state, CHANCE, E.sample_chance(state, rng))
        state = E.step(state, CHANCE, E.sample_chance(state, rng))
        assert E.public_observation(state)["ties"] == ties
        for seat in range(4):
            observation = E.observation(state, seat)
            assert observation["ties"] == ties
            sample = bouffon_bots.determinize(observation, seat, rng)
            assert sample["ties"] == ties and E.observation(sample, seat) == observation
            ended = search_playout(bouffon_bots.SEARCH, sample, rng)
            assert ended["phase"] == "score" and ended["ties"] == ties
            assert bouffon_bots.SEARCH.rewards(ended) == bouffon_bots._evaluate(ended)


def test_the_bot_standing_agrees_with_the_result_over_random_matches():
    """Over random 2-deal matches under each tie rule, the standing the bot computes when the last deal
    ends is the engine's result (ranks − 1); some of them end in equal totals, where the rules differ."""
    differ = 0
    for ties in TIES:
        for n in (3, 4):
            for seed in range(12):
                playout = random_playout(E, n, {"deals": 2, "ties": ties}, seed=seed, check_purity_every=1000,
                                         policy=eager)
                last = [state for state in playout.states if state["phase"] == "score"][-1]
                result = E.result(playout.final)
                assert result is not None
                assert bouffon_bots.standings(last) == [rank - 1 for rank in result.ranks]
                differ += ties == "shared" and len(set(result.ranks)) < n
    assert differ > 0, "no match ended in equal totals"
