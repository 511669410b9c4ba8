"""Jester: hand-worked rule tests. Each test cites the rule it checks (rulebook section of
../shared/rules/rulebooks/jester.txt or house-rule tag of house-rules.md section 1)."""

from __future__ import annotations

import copy

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions, Phase
from domain.games.jester import ENGINE, ENGINES
from domain.games.jester.data import DISCIPLINES, PLACES

E = ENGINE
V1_1 = ENGINES["1.1.0"]  # the rules before 1.2.0's departures (docs/rules/jester.md, changelog)


def setup_outcome(s, **changes):
    pool = [d for d in DISCIPLINES for _ in range(s["pool"][DISCIPLINES.index(d)])]
    out = {"type": "shuffle", "deck": "setup", "events": [1, 2, 3, 4, 5, 6], "favors": [1, 2, 3, 4, 5, 6, 7],
           "court": list(DISCIPLINES), "stamps": pool, "prices": [1, 2, 2, 2, 3, 3, 3]}
    out.update(changes)
    return out


def setup_state(n=4, red_chairs=False, start=0):
    """Setup with fixed chance outcomes: events 1,2,3; favors 1-5 (1-4 with 2 players); court
    stamps in discipline order (King acrobatics, Queen singing, Prince harp, Princess magic);
    price tokens 1,2,2,2,3,3,3; each player puts his 2 starting markers in guild 1."""
    s = E.initial_state(n, E.check_options(n, {"red_chairs": red_chairs}))
    s = E.step(s, CHANCE, setup_outcome(s))
    s = E.step(s, CHANCE, {"type": "start", "seat": start})
    for k in range(n):
        s = E.step(s, (start + k) % n, {"type": "setup-guild", "guilds": [1, 1]})
    return s


def board(n=4, seat=0, round_=1, **kw):
    """A state where ``seat`` is about to play a card, with a full city (2 stamps per teacher).
    Every purse is set to $6 by hand: the worked examples below count from it (the rulebook's
    starting purse, $10 since rules 1.3.0, is checked by test_setup_components)."""
    s = copy.deepcopy(setup_state(n, **kw))
    s["round"] = round_
    s["city"] = [2] * 7
    s["pool"] = [max(0, v - 2) for v in s["pool"]]
    s["stack"] = [{"kind": "play", "seat": seat}]
    for p in s["players"]:
        p["guilds"] = [0] * 6
        p["reserve"] = 12
        p["money"] = 6
    return s


def act(s, seat, action, engine=E):
    """The checked entry point (engine contract): check, then the trusted apply."""
    return engine.step(s, seat, action)


def auto(s):
    assert E.to_act(s).kind == Phase.AUTO
    return E.step(s, SYSTEM, E.auto_action(s))


def kind(s):
    return s["stack"][-1]["kind"] if s["stack"] else None


def P(s, seat):
    return s["players"][seat]


def D(name):
    return DISCIPLINES.index(name)


def finish_turn(s, seat):
    """Decline the optional steps left in ``seat``'s turn until the next turn or the round end."""
    for _ in range(20):
        if kind(s) not in ("city", "specialize", "buy", "guild", "tragedy", "swap") or \
                E.to_act(s).seats != (seat,):
            return s
        legal = E.legal_actions(s, seat)
        for pref in ("no-buy", "no-order", "no-specialize", "city-skip", "guild-done", "tragedy-skip",
                     "no-swap"):
            if {"type": pref} in legal:
                s = act(s, seat, {"type": pref})
                break
        else:
            return s
    return s


# ------------------------------------------------------------------------------------------------
# Setup
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,stamps,favors", [(2, 8, 4), (3, 10, 5), (4, 12, 5)])
def test_setup_components(n, stamps, favors):
    """Rulebook Setup 2-8: $10 ("two coins of value $3 and four of value $1", rules 1.3.0) and
    2 crowns each, one card of each place, 12 markers, favors 5 of 7
    (4 with 2 players), 7 court stamps, 8/10/12 city stamps, 2 players remove 7 stamps; house rule
    S2: each player places 2 markers in the guilds; S1: 4 objects per teacher."""
    s = setup_state(n)
    assert s["round"] == 1 and kind(s) == "play" and s["stack"][-1]["seat"] == 0
    for p in s["players"]:
        assert p["money"] == 10 and p["crowns"] == 2 and p["hand"] == [1, 1, 1, 1]
        assert p["reserve"] == 10 and p["guilds"] == [2, 0, 0, 0, 0, 0]
    assert s["piles"] == [10 - n] * 4
    assert len(s["favors"]) == favors
    assert sum(s["city"]) == stamps
    assert sorted(s["court"]) == sorted(DISCIPLINES)
    assert sorted(s["prices"]) == [1, 2, 2, 2, 3, 3, 3]
    assert s["objects"] == [4] * 7
    assert sum(s["city"]) + sum(s["pool"]) + 7 + s["removed_stamps"] == 28
    assert s["removed_stamps"] == (7 if n == 2 else 0)
    assert len(s["events"]) == 3


def test_red_chairs_variant_three_crowns():
    """Variant Red Chairs: each player starts with 3 crowns instead of 2."""
    s = setup_state(3, red_chairs=True)
    assert all(p["crowns"] == 3 for p in s["players"])


def test_options_and_player_counts():
    """2 to 4 players; the option red_chairs is a boolean (and, since 1.4.0, vp_floor and
    influence_needs_markers: tests/engines/test_jester_options.py)."""
    assert E.check_options(2, {}) == {"red_chairs": False, "vp_floor": True, "influence_needs_markers": True}
    for bad in (1, 5):
        with pytest.raises(InvalidOptions):
            E.check_options(bad, {})
    with pytest.raises(InvalidOptions):
        E.check_options(3, {"red_chairs": 1})
    with pytest.raises(InvalidOptions):
        E.check_options(3, {"speed": True})


def test_setup_chance_steps_validated():
    """Setup 3/5/7/8 are one chance step (the events, favors, court stamps, city stamps and price
    tokens shuffled): a non-permutation is refused; the starting player (house rule S3) is drawn
    uniformly and public."""
    s = E.initial_state(3, E.check_options(3, {}))
    assert E.to_act(s).kind == Phase.CHANCE
    for bad in (setup_outcome(s, events=[1, 1, 2, 3, 4, 5]), setup_outcome(s, prices=[1, 2, 3]),
                setup_outcome(s, court=["harp"] * 7), setup_outcome(s, deck="city"),
                {"type": "shuffle", "deck": "setup"}):
        with pytest.raises(IllegalAction):
            E.step(s, CHANCE, bad)
    s = E.step(s, CHANCE, setup_outcome(s, events=[6, 5, 4, 3, 2, 1], favors=[7, 6, 5, 4, 3, 2, 1]))
    assert s["events"] == [6, 5, 4] and s["favors"] == [3, 4, 5, 6, 7]
    assert s["court"] == list(DISCIPLINES) and s["prices"] == [1, 2, 2, 2, 3, 3, 3]
    outcomes = E.chance_outcomes(s)
    assert [o for o, _ in outcomes] == [{"type": "start", "seat": k} for k in range(3)]
    assert all(abs(p - 1 / 3) < 1e-9 for _, p in outcomes)
    assert E.chance_is_public(s, outcomes[0][0])
    s = E.step(s, CHANCE, {"type": "start", "seat": 2})
    assert kind(s) == "setup-guild" and E.to_act(s).seats == (2,)


def test_starting_markers_are_player_decisions():
    """House rule S2: in turn order from the starting player, 2 markers each, in any guild(s)
    (one decision naming both guilds)."""
    s = E.initial_state(2, E.check_options(2, {}))
    import random
    rng = random.Random(0)
    while kind(s) != "setup-guild":
        s = E.step(s, CHANCE, E.sample_chance(s, rng) if kind(s) != "ch-start" else
                    {"type": "start", "seat": 1})
    legal = E.legal_actions(s, 1)
    assert len(legal) == 21 and {"type": "setup-guild", "guilds": [4, 4]} in legal
    assert {"type": "setup-guild", "guilds": [6, 3]} not in legal  # listed once, in guild order
    assert E.legal_actions(s, 0) == []
    s = act(s, 1, {"type": "setup-guild", "guilds": [3, 6]})
    assert P(s, 1)["guilds"] == [0, 0, 1, 0, 0, 1] and E.to_act(s).seats == (0,)


# ------------------------------------------------------------------------------------------------
# Turn, buying, rescue
# ------------------------------------------------------------------------------------------------
def test_play_only_cards_in_hand():
    """1st Action: a player may visit only a place whose card he holds."""
    s = board()
    P(s, 0)["hand"] = [0, 1, 0, 2]
    assert E.legal_actions(s, 0) == [{"type": "play", "place": "theater"}, {"type": "play", "place": "guilds"}]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "play", "place": "city"})
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "play", "place": "theater"})


def test_malformed_actions_rejected():
    """check_action refuses malformed actions with IllegalAction (never KeyError/TypeError)."""
    s = board()
    for bad in (None, [], "play", {}, {"type": 3}, {"type": "play"}, {"type": "play", "place": 1},
                {"type": "play", "place": "city", "x": 1}, {"type": "buy", "place": "city"}):
        with pytest.raises(IllegalAction):
            E.check_action(s, 0, bad)
    s = act(s, 0, {"type": "play", "place": "guilds"})
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "guild-move", "from": "reserve", "to": True})


def test_buy_prices_from_event_card():
    """Setup 4 / 2nd Action: the event card's two places cost $2, the others $1; one card only."""
    s = board()  # event 1: City + Theater cost $2
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    assert kind(s) == "buy"
    s2 = act(s, 0, {"type": "buy", "place": "city"})
    assert P(s2, 0)["money"] == 4 and P(s2, 0)["hand"][0] == 2 and s2["piles"][0] == 5
    s3 = act(s, 0, {"type": "buy", "place": "court"})
    assert P(s3, 0)["money"] == 5 and s3["stack"][-1] == {"kind": "play", "seat": 1}


def test_must_buy_with_empty_hand():
    """2nd Action: no player may end his turn with no card: with one card he must buy."""
    s = board()
    P(s, 0)["hand"] = [0, 0, 0, 1]
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    assert {"type": "no-buy"} not in E.legal_actions(s, 0)
    assert len(E.legal_actions(s, 0)) == 4


def test_no_money_rescue():
    """2nd Action + house rule P5: with an empty hand and no money for any card, the player boxes
    one of his markers (from a guild, the royalty - closing the gap -, the Counselor or the
    specialization table), receives $3 and buys."""
    s = board()
    P(s, 0)["hand"] = [0, 0, 0, 1]
    P(s, 0)["money"] = 0
    P(s, 0)["reserve"] = 0
    P(s, 0)["guilds"] = [0, 0, 12, 0, 0, 0]
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    s["royalty"] = [1, 0, 2, None]
    P(s, 0)["guilds"][2] -= 1
    assert kind(s) == "rescue"
    legal = E.legal_actions(s, 0)
    assert {"type": "rescue", "from": 3} in legal and {"type": "rescue", "from": "queen"} in legal
    s = act(s, 0, {"type": "rescue", "from": "queen"})
    assert s["royalty"] == [1, 2, None, None]
    assert P(s, 0)["boxed"] == 1 and P(s, 0)["money"] == 3
    assert {"type": "no-buy"} not in E.legal_actions(s, 0)
    s = act(s, 0, {"type": "buy", "place": "city"})
    assert P(s, 0)["money"] == 1 and P(s, 0)["hand"] == [1, 0, 0, 0]


def test_rescue_with_every_pile_empty_takes_back_the_card():
    """House rule P5: if every pile is empty the player takes back the card he just played."""
    s = board()
    P(s, 0)["hand"] = [0, 0, 0, 1]
    s["piles"] = [0, 0, 0, 0]
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    assert P(s, 0)["hand"] == [0, 0, 0, 1] and P(s, 0)["table"] == [0, 0, 0, 0]
    assert s["stack"][-1] == {"kind": "play", "seat": 1}


# ------------------------------------------------------------------------------------------------
# City
# ------------------------------------------------------------------------------------------------
def test_example_1_magic_class():
    """Rulebook Example 1: Blue takes a magic class for $3, puts a marker on the 1-point space of
    the specialization table and orders the magic object for $1."""
    s = board()
    s["prices"][D("magic")] = 3
    s = act(s, 0, {"type": "play", "place": "city"})
    assert {"type": "city-shop"} in E.legal_actions(s, 0)
    s = act(s, 0, {"type": "city-class", "discipline": "magic"})
    assert P(s, 0)["money"] == 3 and P(s, 0)["stamps"][D("magic")] == 1 and s["city"][D("magic")] == 1
    assert P(s, 0)["pawn"] == "city:magic"
    assert kind(s) == "specialize"
    s = act(s, 0, {"type": "specialize", "from": "reserve"})
    assert P(s, 0)["spec"][D("magic")] and P(s, 0)["reserve"] == 11
    assert E.legal_actions(s, 0) == [{"type": "order", "discipline": "magic"}, {"type": "no-order"}]
    s = act(s, 0, {"type": "order", "discipline": "magic"})
    assert P(s, 0)["money"] == 2 and P(s, 0)["order"] == "magic" and s["objects"][D("magic")] == 3
    from domain.games.jester.scoring import final_items
    assert final_items(s)["specialization"][0] == 1


def test_example_2_second_singing_class_and_order_cost():
    """Rulebook Example 2 (house rule P1): Red's second singing class moves his marker from 1 to
    3 points by itself; returning to the city collects his previous object; with two other objects
    in the shop the new order costs $3."""
    s = board(round_=2)
    p = P(s, 0)
    p["stamps"][D("singing")] = 1
    p["spec"][D("singing")] = True
    p["reserve"] = 11
    p["order"] = "poetry"
    s["objects"][D("poetry")] = 3
    P(s, 1)["order"] = "harp"
    P(s, 2)["order"] = "magic"
    s["objects"][D("harp")] = 3
    s["objects"][D("magic")] = 3
    s = act(s, 0, {"type": "play", "place": "city"})
    assert P(s, 0)["made"][D("poetry")] and P(s, 0)["order"] is None
    s = act(s, 0, {"type": "city-class", "discipline": "singing"})
    assert P(s, 0)["money"] == 4 and kind(s) == "city"  # no marker decision: it advanced
    from domain.games.jester.scoring import final_items
    assert final_items(s)["specialization"][0] == 3
    s = act(s, 0, {"type": "order", "discipline": "singing"})
    assert P(s, 0)["money"] == 1 and P(s, 0)["order"] == "singing"


def test_city_restrictions():
    """Visiting the CITY: occupied spaces and absent teachers cannot be chosen; one class per
    discipline per round; the class must be paid."""
    s = board()
    P(s, 1)["pawn"] = "city:magic"
    s["city"][D("juggling")] = 0
    P(s, 0)["round_stamps"] = ["harp"]
    P(s, 0)["money"] = 2
    s["prices"] = [1, 2, 2, 2, 3, 3, 3]
    s = act(s, 0, {"type": "play", "place": "city"})
    classes = [a["discipline"] for a in E.legal_actions(s, 0) if a["type"] == "city-class"]
    assert classes == ["acrobatics", "singing"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "city-class", "discipline": "magic"})


def test_shop_visit_collects_object():
    """Visiting the CITY: a player may play a city card only to collect his ordered object (the
    shop holds several pawns)."""
    s = board()
    P(s, 0)["order"] = "harp"
    P(s, 1)["pawn"] = "city:shop"
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-shop"})
    assert P(s, 0)["made"][D("harp")] and P(s, 0)["order"] is None and P(s, 0)["pawn"] == "city:shop"
    assert kind(s) == "buy"


def test_no_repeated_objects_and_specialize_from_guild():
    """Visiting the CITY: never two objects of one kind; with an empty reserve the specialization
    marker may come from a guild."""
    s = board()
    P(s, 0)["made"][D("acrobatics")] = True
    P(s, 0)["reserve"] = 0
    P(s, 0)["guilds"] = [0, 0, 1, 0, 0, 11]
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "acrobatics"})
    assert E.legal_actions(s, 0) == [{"type": "specialize", "from": 3}, {"type": "specialize", "from": 6},
                                     {"type": "no-specialize"}]
    s = act(s, 0, {"type": "specialize", "from": 6})
    assert P(s, 0)["guilds"][5] == 10 and P(s, 0)["spec"][D("acrobatics")]
    assert kind(s) == "buy"  # no object to order: the acrobatics object is already his


def test_master_buffoon_two_classes():
    """Guild 01 Master Buffoon (threshold 4, house rule S4): two classes, both paid, a marker for
    each if wished, one object only, the pawn left on one of the two spaces."""
    s = board()
    P(s, 0)["guilds"] = [4, 0, 0, 0, 0, 0]
    P(s, 0)["money"] = 10
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "singing"})
    s = act(s, 0, {"type": "no-specialize"})
    assert {"type": "city-skip"} in E.legal_actions(s, 0)
    assert {"type": "city-class", "discipline": "singing"} not in E.legal_actions(s, 0)
    s = act(s, 0, {"type": "city-class", "discipline": "juggling"})
    s = act(s, 0, {"type": "specialize", "from": "reserve"})
    assert P(s, 0)["money"] == 10 - 2 - 3
    assert E.legal_actions(s, 0) == [{"type": "pawn", "discipline": "singing"},
                                     {"type": "pawn", "discipline": "juggling"}]
    s = act(s, 0, {"type": "pawn", "discipline": "juggling"})
    assert P(s, 0)["pawn"] == "city:juggling"
    assert E.legal_actions(s, 0) == [{"type": "order", "discipline": "singing"},
                                     {"type": "order", "discipline": "juggling"}, {"type": "no-order"}]
    s = act(s, 0, {"type": "order", "discipline": "singing"})
    assert kind(s) == "buy" and P(s, 0)["round_stamps"] == ["singing", "juggling"]


def test_master_buffoon_needs_four_markers():
    """House rule S4: with 3 markers in guild 01 there is no second class."""
    s = board()
    P(s, 0)["guilds"] = [3, 0, 0, 0, 0, 0]
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "singing"})
    s = act(s, 0, {"type": "no-specialize"})
    assert {"type": "city-skip"} not in E.legal_actions(s, 0)


@pytest.mark.parametrize("markers,cost", [(3, 0), (2, 2)])
def test_craftsmen_free_order(markers, cost):
    """Guild 02 Craftsmen (threshold 3, DERIVED in house rule S4): the order is free; without the
    power it costs $1 + $1 per other player's object in the shop."""
    s = board()
    P(s, 0)["guilds"] = [0, markers, 0, 0, 0, 0]
    P(s, 2)["order"] = "poetry"
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "acrobatics"})
    s = act(s, 0, {"type": "no-specialize"})
    money = P(s, 0)["money"]
    s = act(s, 0, {"type": "order", "discipline": "acrobatics"})
    assert money - P(s, 0)["money"] == cost


# ------------------------------------------------------------------------------------------------
# Theater
# ------------------------------------------------------------------------------------------------
def test_example_3_individual_tragedy():
    """Rulebook Example 3: alone in the theater Blue gains 2 fame, blocks tragedy and adds a marker
    from his reserve to the Heralds guild."""
    s = board()
    s = act(s, 0, {"type": "play", "place": "theater"})
    assert P(s, 0)["fame"] == 2 and P(s, 0)["pawn"] == "theater"
    assert [a["genre"] for a in E.legal_actions(s, 0)] == ["comedy", "tragedy", "musical", "circus"]
    s = act(s, 0, {"type": "genre", "genre": "tragedy"})
    assert s["blocked"] == ["tragedy"]
    s = act(s, 0, {"type": "tragedy", "from": "reserve", "to": 6})
    assert P(s, 0)["guilds"][5] == 1 and P(s, 0)["reserve"] == 11 and kind(s) == "buy"


def test_example_4_collective_performance():
    """Rulebook Example 4: Red joins Blue in the theater: Red +1 fame, Blue +$1; Red takes circus
    (+$2). A third visitor gains 1 fame, Blue and Red $1 each, and may choose only comedy or
    musical."""
    s = board()
    P(s, 1)["pawn"] = "theater"
    P(s, 1)["fame"] = 2
    s["blocked"] = ["tragedy"]
    s = act(s, 0, {"type": "play", "place": "theater"})
    assert P(s, 0)["fame"] == 1 and P(s, 1)["money"] == 7
    s = act(s, 0, {"type": "genre", "genre": "circus"})
    assert P(s, 0)["money"] == 8
    s = act(s, 0, {"type": "no-buy"})
    s["stack"] = [{"kind": "play", "seat": 2}]  # the third visitor
    s = act(s, 2, {"type": "play", "place": "theater"})
    assert P(s, 2)["fame"] == 1 and P(s, 0)["money"] == 9 and P(s, 1)["money"] == 8
    assert E.legal_actions(s, 2) == [{"type": "genre", "genre": "comedy"}, {"type": "genre", "genre": "musical"}]


def test_fourth_genre_frees_all_at_end_of_turn():
    """Visiting the THEATER: the player using the 4th genre completes his turn, then the blocking
    markers are removed."""
    s = board()
    s["blocked"] = ["tragedy", "musical", "circus"]
    s = act(s, 0, {"type": "play", "place": "theater"})
    s = act(s, 0, {"type": "genre", "genre": "comedy"})
    assert P(s, 0)["crowns"] == 3 and len(s["blocked"]) == 4
    s = act(s, 0, {"type": "no-buy"})
    assert s["blocked"] == []


@pytest.mark.parametrize("genre", ["comedy", "musical", "circus", "tragedy"])
def test_theater_directors_double_bonus(genre):
    """Guild 03 Theater Directors (threshold 3, house rule S4): 2 crowns, 2 cards, $4 or 2 markers
    (never both on the royalty, house rule P3)."""
    s = board()
    P(s, 0)["guilds"] = [0, 0, 3, 0, 0, 0]
    P(s, 0)["reserve"] = 9
    s = act(s, 0, {"type": "play", "place": "theater"})
    s = act(s, 0, {"type": "genre", "genre": genre})
    p = P(s, 0)
    if genre == "comedy":
        assert p["crowns"] == 4
    elif genre == "circus":
        assert p["money"] == 10
    elif genre == "musical":
        s = act(s, 0, {"type": "take-card", "place": "court"})
        s = act(s, 0, {"type": "take-card", "place": "court"})
        assert P(s, 0)["hand"] == [1, 0, 3, 1] and s["piles"][2] == 4
    else:
        s = act(s, 0, {"type": "tragedy", "from": "reserve", "to": "king"})
        assert s["royalty"] == [0, None, None, None] and P(s, 0)["vp"] == 0  # P3: no VP
        assert {"type": "tragedy", "from": "reserve", "to": "king"} not in E.legal_actions(s, 0)
        s = act(s, 0, {"type": "tragedy", "from": 3, "to": 5})
        assert P(s, 0)["guilds"] == [0, 0, 2, 0, 1, 0]
    assert kind(s) == "buy"


def test_directors_below_threshold_single_bonus():
    """House rule S4: 2 markers in guild 03 do not double."""
    s = board()
    P(s, 0)["guilds"] = [0, 0, 2, 0, 0, 0]
    s = act(s, 0, {"type": "play", "place": "theater"})
    s = act(s, 0, {"type": "genre", "genre": "circus"})
    assert P(s, 0)["money"] == 8


def test_fame_threshold_13():
    """Visiting the THEATER + house rule 1.4: fame is capped at 13; the first to reach 13 scores 5
    VP, the next ones 3 VP."""
    s = board()
    P(s, 0)["fame"] = 12
    P(s, 1)["fame"] = 12
    s = act(s, 0, {"type": "play", "place": "theater"})
    assert P(s, 0)["fame"] == 13 and P(s, 0)["vp"] == 5
    s = finish_turn(act(s, 0, {"type": "genre", "genre": "circus"}), 0)
    s = act(s, 1, {"type": "play", "place": "theater"})
    assert P(s, 1)["fame"] == 13 and P(s, 1)["vp"] == 3


# ------------------------------------------------------------------------------------------------
# Court: Play A and the ten chairs
# ------------------------------------------------------------------------------------------------
def court_a(s, chair, seat=0):
    s = act(s, seat, {"type": "play", "place": "court"})
    assert P(s, seat)["pawn"] == "court"
    return act(s, seat, {"type": "court-a", "chair": chair})


def test_red_chairs_closed_in_round_1():
    """Visiting the COURT: red chairs (odd, house rule 1.4) cannot be occupied in round 1."""
    s = board()
    s = act(s, 0, {"type": "play", "place": "court"})
    chairs = [a["chair"] for a in E.legal_actions(s, 0) if a["type"] == "court-a"]
    assert chairs == [2, 4, 6, 8, 10]
    s2 = board(round_=2)
    s2 = act(s2, 0, {"type": "play", "place": "court"})
    assert [a["chair"] for a in E.legal_actions(s2, 0) if a["type"] == "court-a"] == list(range(1, 11))


def test_red_chairs_variant_from_second_turn():
    """Variant Red Chairs: red chairs may be taken in round 1 from the player's second turn."""
    s = board(red_chairs=True)
    s1 = act(s, 0, {"type": "play", "place": "court"})
    assert {"type": "court-a", "chair": 1} not in E.legal_actions(s1, 0)
    P(s, 0)["turns"] = 1
    s2 = act(s, 0, {"type": "play", "place": "court"})
    assert {"type": "court-a", "chair": 1} in E.legal_actions(s2, 0)


def test_full_hall_only_play_b():
    """Visiting the COURT: a noble needs an empty chair; the hall is emptied only at round end."""
    s = board(round_=2)
    s["chairs"] = [1] * 10
    s = act(s, 0, {"type": "play", "place": "court"})
    assert E.legal_actions(s, 0) == [{"type": "court-b", "from": "reserve"}]


def test_chair_1_discard_and_marker_each_victim_decides():
    """Chair I (red) + house rule P4: each opponent discards a card of his choice onto its pile and
    removes a marker from a guild of his choice to his reserve, unless he spends a crown; a player
    with one card only loses the marker. The victims decide in a PLAYERS phase."""
    s = board(round_=2)
    for q in (1, 2, 3):
        P(s, q)["guilds"] = [0, 1, 0, 0, 0, 1]
        P(s, q)["reserve"] = 10
    P(s, 3)["hand"] = [0, 0, 1, 0]
    P(s, 3)["crowns"] = 0
    s = court_a(s, 1)
    assert P(s, 0)["money"] == 8
    assert kind(s) == "victims" and E.to_act(s).seats == (1, 2, 3)
    assert E.legal_actions(s, 0) == []
    legal1 = E.legal_actions(s, 1)
    assert {"type": "defend"} in legal1
    assert {"type": "suffer", "discard": "theater", "guild": 6} in legal1
    assert E.legal_actions(s, 3) == [{"type": "suffer", "discard": None, "guild": 2},
                                     {"type": "suffer", "discard": None, "guild": 6}]
    piles = list(s["piles"])
    s = act(s, 1, {"type": "suffer", "discard": "theater", "guild": 6})
    assert P(s, 1)["hand"] == [1, 0, 1, 1] and s["piles"][1] == piles[1] + 1
    assert P(s, 1)["guilds"] == [0, 1, 0, 0, 0, 0] and P(s, 1)["reserve"] == 11
    s = act(s, 2, {"type": "defend"})
    assert P(s, 2)["crowns"] == 1 and P(s, 2)["hand"] == [1, 1, 1, 1]
    assert E.to_act(s).seats == (3,)
    s = act(s, 3, {"type": "suffer", "discard": None, "guild": 2})
    assert P(s, 3)["hand"] == [0, 0, 1, 0] and kind(s) == "buy"


def test_chair_2_marker_and_card():
    """Chair II (blue): a marker from the reserve to any guild and a place card of his choice."""
    s = board()
    s = court_a(s, 2)
    assert E.legal_actions(s, 0) == [{"type": "chair-guild", "guild": g} for g in range(1, 7)]
    s = act(s, 0, {"type": "chair-guild", "guild": 4})
    s = act(s, 0, {"type": "take-card", "place": "theater"})
    assert P(s, 0)["guilds"][3] == 1 and P(s, 0)["hand"] == [1, 2, 0, 1] and P(s, 0)["money"] == 8


def test_chair_3_victory_points():
    """Chair III (red): each opponent loses 2 VP (never below 0, house rule P6)."""
    s = board(round_=2)
    P(s, 1)["vp"] = 5
    P(s, 2)["vp"] = 1
    s = court_a(s, 3)
    assert E.to_act(s).seats == (1, 2)  # seat 3 has no VP to lose
    s = act(s, 1, {"type": "suffer", "discard": None, "guild": None})
    s = act(s, 2, {"type": "suffer", "discard": None, "guild": None})
    assert P(s, 1)["vp"] == 3 and P(s, 2)["vp"] == 0


def test_chair_4_objects():
    """Chair IV (blue): $2 per object token in front of the player."""
    s = board()
    P(s, 0)["made"] = [True, False, True, False, False, False, True]
    P(s, 0)["order"] = "harp"  # an object on order does not count
    s = court_a(s, 4)
    assert P(s, 0)["money"] == 6 + 2 + 6


def test_chair_5_money():
    """Chair V (red): each opponent loses $2; with $1 he loses it; with $0 nothing."""
    s = board(round_=2)
    P(s, 2)["money"] = 1
    P(s, 3)["money"] = 0
    s = court_a(s, 5)
    assert E.to_act(s).seats == (1, 2)
    s = act(s, 1, {"type": "suffer", "discard": None, "guild": None})
    s = act(s, 2, {"type": "suffer", "discard": None, "guild": None})
    assert [P(s, q)["money"] for q in range(4)] == [8, 4, 0, 0]


def test_chair_6_crown_and_point():
    """Chair VI (blue): a crown and 1 VP."""
    s = court_a(board(), 6)
    assert P(s, 0)["crowns"] == 3 and P(s, 0)["vp"] == 1 and P(s, 0)["money"] == 8


def test_chair_7_marker_and_fame_13_immune():
    """Chair VII (red): each opponent removes a guild marker and loses 1 fame; partial penalty
    when one item is missing; a player who reached fame 13 loses no fame."""
    s = board(round_=2)
    P(s, 1)["guilds"] = [1, 0, 0, 0, 0, 0]
    P(s, 1)["fame"] = 4
    P(s, 2)["fame"] = 13
    P(s, 2)["f13"] = True
    P(s, 3)["fame"] = 3
    s = court_a(s, 7)
    assert E.to_act(s).seats == (1, 3)  # seat 2: no marker in a guild and immune to fame loss
    s = act(s, 1, {"type": "suffer", "discard": None, "guild": 1})
    s = act(s, 3, {"type": "suffer", "discard": None, "guild": None})
    assert P(s, 1)["fame"] == 3 and P(s, 1)["guilds"] == [0] * 6 and P(s, 3)["fame"] == 2
    assert P(s, 2)["fame"] == 13


def test_chair_8_fame_money():
    """Chair VIII (blue): $1 per two fame, rounded down (7 fame -> $3)."""
    s = board()
    P(s, 0)["fame"] = 7
    s = court_a(s, 8)
    assert P(s, 0)["money"] == 6 + 2 + 3


def test_chair_9_discard_and_fame():
    """Chair IX (red): each opponent discards a card (none with a single card) and loses 1 fame."""
    s = board(round_=2)
    P(s, 1)["fame"] = 2
    P(s, 2)["hand"] = [1, 0, 0, 0]
    P(s, 2)["fame"] = 1
    s = court_a(s, 9)
    assert E.to_act(s).seats == (1, 2, 3)
    assert E.legal_actions(s, 2) == [{"type": "defend"}, {"type": "suffer", "discard": None, "guild": None}]
    s = act(s, 1, {"type": "suffer", "discard": "city", "guild": None})
    s = act(s, 2, {"type": "suffer", "discard": None, "guild": None})
    s = act(s, 3, {"type": "defend"})
    assert P(s, 1)["hand"] == [0, 1, 1, 1] and P(s, 1)["fame"] == 1
    assert P(s, 2)["hand"] == [1, 0, 0, 0] and P(s, 2)["fame"] == 0
    assert P(s, 3)["crowns"] == 1 and P(s, 3)["hand"] == [1, 1, 1, 1]


def test_chair_10_crown_and_dollar():
    """Chair X (blue): a crown and $1."""
    s = court_a(board(), 10)
    assert P(s, 0)["crowns"] == 3 and P(s, 0)["money"] == 9


# ------------------------------------------------------------------------------------------------
# Court: Play B
# ------------------------------------------------------------------------------------------------
def test_example_5_play_b_push_and_swap():
    """Rulebook Example 5: Yellow plays B: King's space, 1 VP, Green pushed to the Queen; tied at
    one marker each, Yellow has more fame and swaps Juggling and Harp."""
    s = board()
    s["royalty"] = [1, None, None, None]
    P(s, 0)["fame"] = 4
    P(s, 1)["fame"] = 2
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-b", "from": "reserve"})
    assert s["royalty"] == [0, 1, None, None] and P(s, 0)["vp"] == 1 and P(s, 0)["reserve"] == 11
    assert kind(s) == "swap" and len(E.legal_actions(s, 0)) == 22
    s = act(s, 0, {"type": "swap", "disciplines": ["harp", "juggling"]})
    assert s["court"][2] == "juggling" and s["court"][4] == "harp"


def test_example_6_domino_to_counselor():
    """Rulebook Example 6: Green plays B, every marker is pushed and his own marker on the Princess
    falls onto the Counselor; all have one royalty marker, Green and Yellow the most fame: Green
    may swap (house rule P2: only the active player swaps)."""
    s = board()
    yellow, blue, red, green = 0, 1, 2, 3
    s["royalty"] = [yellow, blue, red, green]
    for seat, fame in ((yellow, 5), (blue, 2), (red, 2), (green, 5)):
        P(s, seat)["fame"] = fame
    s["stack"] = [{"kind": "play", "seat": green}]
    s = act(s, green, {"type": "play", "place": "court"})
    s = act(s, green, {"type": "court-b", "from": "reserve"})
    assert s["royalty"] == [green, yellow, blue, red] and s["counselor"] == [green]
    assert kind(s) == "swap" and E.to_act(s).seats == (green,)


def test_play_b_no_majority_no_swap_unless_grand_duke():
    """Court Play B + house rule P2 / Guild 04 Grand Duke (threshold 3): without the majority no
    swap; with the Grand Duke and a royalty marker he may swap."""
    s = board()
    s["royalty"] = [1, 2, 1, None]
    P(s, 0)["fame"] = 10
    s1 = act(act(s, 0, {"type": "play", "place": "court"}), 0, {"type": "court-b", "from": "reserve"})
    assert s1["royalty"] == [0, 1, 2, 1] and kind(s1) == "buy"
    P(s, 0)["guilds"] = [0, 0, 0, 3, 0, 0]
    s2 = act(act(s, 0, {"type": "play", "place": "court"}), 0, {"type": "court-b", "from": "reserve"})
    assert kind(s2) == "swap"


def test_play_b_tie_on_fame_all_tied_may_swap():
    """House rule P2: tied on markers and on fame, the active player is among the tied: he swaps."""
    s = board()
    s["royalty"] = [1, None, None, None]
    P(s, 0)["fame"] = P(s, 1)["fame"] = 3
    s = act(act(s, 0, {"type": "play", "place": "court"}), 0, {"type": "court-b", "from": "reserve"})
    assert kind(s) == "swap"
    s = act(s, 0, {"type": "no-swap"})
    assert kind(s) == "buy"


def test_play_b_marker_from_guild_when_reserve_empty():
    """Court Play B: without a marker in reserve the player moves one from any guild."""
    s = board()
    P(s, 0)["reserve"] = 0
    P(s, 0)["guilds"] = [0, 0, 0, 0, 2, 10]
    s = act(s, 0, {"type": "play", "place": "court"})
    assert [a for a in E.legal_actions(s, 0) if a["type"] == "court-b"] == [
        {"type": "court-b", "from": 5}, {"type": "court-b", "from": 6}]
    s = act(s, 0, {"type": "court-b", "from": 5})
    assert P(s, 0)["guilds"][4] == 1 and s["royalty"][0] == 0


def test_victim_without_crown_is_still_asked():
    """Rules 1.1.0 - Court, chair effects ("any player can avoid suffering the penalty of a red
    chair by spending one of his crowns") + house rule P4 (each victim decides; crowns spent per
    victim) + crowns sit behind the screen: a victim with no crown and a single way to suffer is
    still asked, like the others (chair III, every opponent at 4 VP, seat 2 without crowns), so
    nothing tells the others that his screen is empty. Worked by hand: seat 2 may only suffer
    (4 - 2 = 2 VP), seat 1 defends (2 -> 1 crown, 4 VP), seat 3 suffers (2 VP)."""
    s = board(round_=2)
    for q in (1, 2, 3):
        P(s, q)["vp"] = 4
    P(s, 2)["crowns"] = 0
    s = court_a(s, 3)
    assert P(s, 2)["vp"] == 4 and E.to_act(s).seats == (1, 2, 3)  # not resolved at once
    assert E.legal_actions(s, 2) == [{"type": "suffer", "discard": None, "guild": None}]
    assert E.legal_actions(s, 1) == [{"type": "defend"}, {"type": "suffer", "discard": None, "guild": None}]
    with pytest.raises(IllegalAction):
        act(s, 2, {"type": "defend"})  # defend needs a crown
    # what the others see is the same whether seat 2 has a crown or not
    s_crown = copy.deepcopy(s)
    P(s_crown, 2)["crowns"] = 1
    for viewer in (None, 0, 1, 3):
        obs = E.public_observation if viewer is None else (lambda st, v=viewer: E.observation(st, v))
        assert obs(s) == obs(s_crown)
    suffer = {"type": "suffer", "discard": None, "guild": None}
    for viewer in (None, 0, 1, 3):
        assert E.redact(s, 2, suffer, viewer) == E.redact(s_crown, 2, suffer, viewer) == suffer
    s = act(s, 2, suffer)
    assert P(s, 2)["vp"] == 2 and E.to_act(s).seats == (1, 3)
    s = act(s, 1, {"type": "defend"})
    s = act(s, 3, suffer)
    assert [P(s, q)["vp"] for q in range(4)] == [0, 4, 2, 2]
    assert [P(s, q)["crowns"] for q in range(4)] == [2, 1, 0, 2]
    assert kind(s) == "buy"


# ------------------------------------------------------------------------------------------------
# Guilds
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("played,limit", [(0, 2), (1, 3), (2, 4)])
def test_guild_visit_manipulations(played, limit):
    """Visiting the GUILDS: up to 2/3/4 markers placed or moved with the 1st/2nd/3rd guild card;
    markers come from the reserve, never from the court or the table."""
    s = board()
    P(s, 0)["table"][3] = played
    P(s, 0)["hand"][3] = 1
    s["royalty"] = [0, None, None, None]
    s = act(s, 0, {"type": "play", "place": "guilds"})
    for k in range(limit):
        assert kind(s) == "guild"
        s = act(s, 0, {"type": "guild-move", "from": "reserve", "to": 2})
    assert kind(s) == "buy" and P(s, 0)["guilds"][1] == limit
    assert s["royalty"] == [0, None, None, None]


def test_guild_move_between_guilds():
    """Visiting the GUILDS: manipulating also means moving a marker from one guild to another."""
    s = board()
    P(s, 0)["guilds"] = [3, 0, 0, 0, 0, 0]
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-move", "from": 1, "to": 5})
    s = act(s, 0, {"type": "guild-done"})
    assert P(s, 0)["guilds"] == [2, 0, 0, 0, 1, 0] and kind(s) == "buy"
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "guild-move", "from": 1, "to": 1})


# ------------------------------------------------------------------------------------------------
# End of the round
# ------------------------------------------------------------------------------------------------
def test_round_end_everyone_same_number_of_turns():
    """Rulebook How to Play example (Rui, Bia, Leo, Ana): Bia plays a 3rd court card, completes her
    turn, Leo and Ana play, then the round ends; if Ana (last) triggers, it ends right after."""
    s = board()
    P(s, 1)["table"][2] = 2
    P(s, 1)["hand"] = [0, 0, 2, 0]
    s = finish_turn(act(s, 0, {"type": "play", "place": "guilds"}), 0)
    s = act(s, 1, {"type": "play", "place": "court"})
    assert s["trigger"] == 1
    s = act(s, 1, {"type": "court-a", "chair": 6})
    s = finish_turn(s, 1)
    assert s["stack"][-1] == {"kind": "play", "seat": 2}
    s = finish_turn(act(s, 2, {"type": "play", "place": "guilds"}), 2)
    assert s["stack"][-1] == {"kind": "play", "seat": 3}
    s = finish_turn(act(s, 3, {"type": "play", "place": "guilds"}), 3)
    assert kind(s) == "favor" and E.to_act(s).seats == (1,)  # the triggerer chooses first
    # Ana (seat 3, last in turn order) triggers: the round ends right after her turn
    t = board(seat=3)
    P(t, 3)["table"][0] = 2
    t = finish_turn(act(t, 3, {"type": "play", "place": "city"}), 3)
    t = finish_turn(act(t, 3, {"type": "city-shop"}), 3)
    assert kind(t) == "favor" and E.to_act(t).seats == (3,)


def round_end(s, trigger=0):
    from domain.games.jester.core import settle
    from domain.games.jester.round_end import begin_round_end
    from domain.games.jester.rules import handlers
    s = copy.deepcopy(s)
    s["trigger"] = trigger
    s["stack"] = []
    begin_round_end(s)
    settle(s, handlers(E.rules_version))
    return s


def test_task_1_return_cards_merchants_keep_two():
    """Task 1 + Guild 05 Merchants (threshold 2): the table cards return to their piles; a
    Merchants player chooses and keeps two of them (the example: 7 cards, keeps court and city)."""
    s = board()
    P(s, 0)["table"] = [2, 2, 1, 2]
    P(s, 0)["guilds"] = [0, 0, 0, 0, 2, 0]
    P(s, 1)["table"] = [1, 1, 1, 0]
    piles = list(s["piles"])
    s = round_end(s)
    assert kind(s) == "keep" and E.to_act(s).seats == (0,)
    s = act(s, 0, {"type": "keep", "place": "court"})
    s = act(s, 0, {"type": "keep", "place": "city"})
    assert P(s, 0)["hand"] == [2, 1, 2, 1]
    assert all(p["table"] == [0, 0, 0, 0] for p in s["players"])
    assert s["piles"] == [piles[0] + 2, piles[1] + 3, piles[2] + 1, piles[3] + 2]
    assert kind(s) == "favor"


def test_task_1_without_merchants_no_keep():
    """Task 1: with only 1 marker in the Merchants guild (threshold 2) every table card returns."""
    s = board()
    P(s, 0)["table"] = [2, 0, 0, 0]
    P(s, 0)["guilds"] = [0, 0, 0, 0, 1, 0]
    s = round_end(s)
    assert kind(s) == "favor" and P(s, 0)["table"] == [0] * 4


def test_task_2_favors_in_order_from_triggerer():
    """Task 2: the triggerer chooses first, then clockwise; a chosen favor is turned over; all
    are face up again afterwards."""
    s = round_end(board(), trigger=2)
    assert E.to_act(s).seats == (2,)
    assert [a["favor"] for a in E.legal_actions(s, 2)] == [1, 2, 3, 4, 5]
    s = act(s, 2, {"type": "favor", "favor": 4})
    assert P(s, 2)["money"] == 11 and E.to_act(s).seats == (3,)
    assert {"type": "favor", "favor": 4} not in E.legal_actions(s, 3)
    s = act(s, 3, {"type": "favor", "favor": 3})
    s = act(s, 0, {"type": "favor", "favor": 2})
    s = act(s, 1, {"type": "favor", "favor": 5})
    assert kind(s) == "round-end-scoring" and s["favors_used"] == []


@pytest.mark.parametrize("favor", [1, 2, 3, 4, 5, 6, 7])
def test_each_kings_favor(favor):
    """King's Favors 1-7: two cards; 1 VP + $2 + crown; two crowns; $5; VP by fame (3-7: 3, 8-13:
    4); half the nobles at court (7 -> 3); manipulate up to three guild markers."""
    s = board()
    s["favors"] = [1, 2, 3, 4, 5, 6, 7]
    P(s, 0)["fame"] = 8
    s["chairs"] = [1, 2, 3, 1, 2, 3, 1, None, None, None]
    s = round_end(s)
    s = act(s, 0, {"type": "favor", "favor": favor})
    p = P(s, 0)
    if favor == 1:
        s = act(s, 0, {"type": "take-card", "place": "guilds"})
        s = act(s, 0, {"type": "take-card", "place": "guilds"})
        assert P(s, 0)["hand"] == [1, 1, 1, 3]
    elif favor == 2:
        assert (p["vp"], p["money"], p["crowns"]) == (1, 8, 3)
    elif favor == 3:
        assert p["crowns"] == 4
    elif favor == 4:
        assert p["money"] == 11
    elif favor == 5:
        assert p["vp"] == 4
    elif favor == 6:
        assert p["vp"] == 3
    else:
        for _ in range(3):
            s = act(s, 0, {"type": "guild-move", "from": "reserve", "to": 6})
        assert P(s, 0)["guilds"][5] == 3
    assert E.to_act(s).seats == (1,)


def test_favor_5_low_fame_and_consolation():
    """King's Favors 5 (fame 3-7: 3 VP) and the note: the LAST player to choose (seat 1 of 2), for
    whom no remaining favor has an effect, receives 1 VP and $1."""
    s = board(n=2)
    s["favors"] = [1, 5, 6, 7]
    s["favors_used"] = []
    P(s, 0)["fame"] = 3
    s = round_end(s)
    s = act(s, 0, {"type": "favor", "favor": 5})
    assert P(s, 0)["vp"] == 3
    s["favors_used"] = [5, 1, 7]  # left: favor 6 with no noble at court
    assert E.legal_actions(s, 1) == [{"type": "favor-consolation"}]
    s = act(s, 1, {"type": "favor-consolation"})
    assert P(s, 1)["vp"] == 1 and P(s, 1)["money"] == 7


def scoring_state(**kw):
    s = round_end(board(**kw))
    s["stack"] = s["stack"][:-1]
    while s["stack"][-1]["kind"] != "round-end-scoring":
        s["stack"].pop()
    return s


def test_task_3_theater_guilds_court():
    """Task 3 (one AUTO step with task 4's prestige): half fame rounded down (7 -> 3); per guild 2 VP
    to the majority, 1 each for two tied, none for three tied; 1 VP per royalty space."""
    s = scoring_state()
    P(s, 0)["fame"] = 7
    P(s, 1)["fame"] = 1
    P(s, 0)["guilds"] = [3, 1, 1, 0, 0, 0]
    P(s, 1)["guilds"] = [1, 1, 1, 0, 0, 0]
    P(s, 2)["guilds"] = [0, 0, 1, 0, 0, 0]
    s["royalty"] = [2, 0, 2, None]
    step = E.auto_action(s)
    assert step["theater"] == [3, 0, 0, 0]
    assert step["guilds"] == [3, 1, 0, 0]
    assert step["court"] == [1, 0, 2, 0]
    s = auto(s)
    assert [p["vp"] for p in s["players"]] == [7, 1, 2, 0]
    assert kind(s) == "next-round"


@pytest.mark.parametrize("counselor,points", [
    ([1], [0, 6, 0, 0]),            # one Blue marker alone: 6
    ([0, 0, 2], [4, 0, 2, 0]),      # Yellow two markers, Green one: 4 and 2
    ([0, 1, 2], [2, 2, 2, 0]),      # three players: 2 each
    ([0, 1, 2, 3], [1, 1, 1, 1]),   # four players: 1 each, 2 lost
])
def test_task_3_counselor_examples(counselor, points):
    """Task 3 Counselor examples (house rule 1.4: floor(6 / markers) each); the Counselor's markers
    then return to their players, the royalty stays."""
    s = scoring_state()
    s["counselor"] = list(counselor)
    s["royalty"] = [None] * 4
    reserves = [p["reserve"] for p in s["players"]]
    assert E.auto_action(s)["court"] == points
    s = auto(s)
    assert s["counselor"] == []
    assert [p["reserve"] for p in s["players"]] == [reserves[q] + counselor.count(q) for q in range(4)]


def test_auto_step_must_match():
    """An AUTO step is applied only as computed."""
    s = scoring_state()
    step = E.auto_action(s)
    step["vp"] = [99, 0, 0, 0]
    with pytest.raises(IllegalAction):
        E.step(s, SYSTEM, step)
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "favor", "favor": 1})


def test_task_4_royal_prestige_and_conversion():
    """House rule task 4: each stamp taken this round is worth King 4, Queen 3, Prince 2, Princess
    1, beside the Counselor 0; from the starting player each converts all of it: 1 -> 1 VP, 1 -> $1,
    2 -> 1 crown (1 -> 1 with the Heralds, threshold 3)."""
    s = scoring_state()
    # court: King acrobatics, Queen singing, Prince harp, Princess magic, then juggling, poetry, theater
    P(s, 0)["round_stamps"] = ["acrobatics", "singing", "poetry"]  # 4 + 3 + 0
    P(s, 1)["round_stamps"] = ["magic", "harp"]  # 1 + 2
    P(s, 1)["guilds"] = [0, 0, 0, 0, 0, 3]
    assert E.auto_action(s)["prestige"] == [7, 3, 0, 0]
    s = auto(s)
    assert E.to_act(s).seats == (0,)
    legal = E.legal_actions(s, 0)
    assert {"type": "convert", "into": "crowns", "amount": 3} in legal
    assert {"type": "convert", "into": "crowns", "amount": 4} not in legal
    s = act(s, 0, {"type": "convert", "into": "crowns", "amount": 3})
    assert P(s, 0)["crowns"] == 5 and s["prestige"][0] == 1
    vp = P(s, 0)["vp"]
    s = act(s, 0, {"type": "convert", "into": "vp", "amount": 1})
    assert P(s, 0)["vp"] == vp + 1 and E.to_act(s).seats == (1,)
    assert {"type": "convert", "into": "crowns", "amount": 3} in E.legal_actions(s, 1)  # Heralds 1:1
    s = act(s, 1, {"type": "convert", "into": "money", "amount": 2})
    s = act(s, 1, {"type": "convert", "into": "crowns", "amount": 1})
    assert P(s, 1)["money"] == 8 and P(s, 1)["crowns"] == 3
    assert kind(s) == "next-round"


def test_task_5_next_round():
    """House rule task 5: pawns leave, the hall is emptied only if it is full, city stamps are
    returned and redrawn (chance), price tokens reshuffled, the next event priced, the starting
    player passes left, the genre blockers and royalty stay."""
    s = scoring_state()
    s["chairs"] = [0] * 10
    s["blocked"] = ["comedy"]
    s["royalty"] = [1, None, None, None]
    for p in s["players"]:
        p["pawn"] = "theater"
    s = auto(s)
    step = E.auto_action(s)
    assert step["type"] == "next-round" and step["round"] == 2 and step["start"] == 1
    assert step["hall_emptied"] is True and step["event"] == 2
    s = auto(s)
    assert s["chairs"] == [None] * 10 and s["blocked"] == ["comedy"] and s["royalty"][0] == 1
    assert all(p["pawn"] is None for p in s["players"]) and sum(s["city"]) == 0
    assert E.to_act(s).kind == Phase.CHANCE
    pool = [d for d in DISCIPLINES for _ in range(s["pool"][D(d)])]
    s = E.step(s, CHANCE, {"type": "shuffle", "deck": "city", "stamps": pool,
                            "prices": [3, 3, 3, 2, 2, 2, 1]})
    assert sum(s["city"]) == 12 and s["prices"] == [3, 3, 3, 2, 2, 2, 1]
    assert s["stack"][-1] == {"kind": "play", "seat": 1}
    from domain.games.jester.core import place_price
    assert [place_price(s, p) for p in PLACES] == [2, 1, 1, 2]  # event 2: City + Guilds


def test_task_5_hall_not_full_stays():
    """End of the Round: nobles are removed only if the last empty chair was occupied."""
    s = scoring_state()
    s["chairs"] = [0] * 9 + [None]
    s = auto(auto(s))
    assert s["chairs"] == [0] * 9 + [None]


# ------------------------------------------------------------------------------------------------
# End of the game
# ------------------------------------------------------------------------------------------------
def final_state(**kw):
    s = scoring_state(**kw)
    s["round"] = 3
    s["stack"] = [{"kind": "final-scoring"}]
    return s


def test_end_game_items():
    """End of the Game items 1-6: sets of 4 cards 3 VP, objects 2 VP, table markers 1/3/6 VP,
    $3 -> 1 VP, 7 disciplines 10 VP / 6 disciplines 7 VP (marked, house rule P1), most markers on
    the board 8 VP and second 4 VP."""
    s = final_state()
    p = P(s, 0)
    p["hand"] = [2, 3, 2, 2]
    p["made"] = [True, True, False, False, False, False, False]
    p["order"] = "magic"
    p["stamps"] = [1, 2, 3, 1, 1, 1, 1]
    p["spec"] = [True, True, True, True, True, True, False]
    p["money"] = 8
    p["guilds"] = [3, 0, 0, 0, 0, 0]
    s["royalty"] = [0, 1, None, None]
    P(s, 1)["guilds"] = [0, 2, 0, 0, 0, 0]
    P(s, 2)["guilds"] = [1, 0, 0, 0, 0, 0]
    step = E.auto_action(s)
    assert step["sets"][0] == 6 and step["objects"][0] == 4
    assert step["specialization"][0] == 1 + 3 + 6 + 1 + 1 + 1
    assert step["money"][0] == 2 and step["disciplines"][0] == 7
    assert step["influence"] == [8, 4, 0, 0]


def test_end_game_influence_tie_splits_12():
    """End of the Game item 6: a tie for 1st place shares 8+4 and there is no 2nd place; a tie for
    2nd gives nothing."""
    s = final_state()
    for q, g in enumerate([3, 3, 1, 0]):
        P(s, q)["guilds"] = [g, 0, 0, 0, 0, 0]
    assert E.auto_action(s)["influence"] == [6, 6, 0, 0]
    for q, g in enumerate([3, 2, 2, 0]):
        P(s, q)["guilds"] = [g, 0, 0, 0, 0, 0]
    assert E.auto_action(s)["influence"] == [8, 0, 0, 0]


def test_crown_penalty_and_winner():
    """Crown Penalty: the fewest crowns lose 10 VP; tied, the lowest fame among them; still tied,
    all. Winner: VP, then fame, then markers on the board; VP never below 0 (house rule P6)."""
    s = final_state()
    for q, (crowns, fame, vp) in enumerate([(1, 5, 30), (1, 3, 5), (1, 3, 40), (4, 0, 40)]):
        P(s, q).update(crowns=crowns, fame=fame, vp=vp, money=0, hand=[0, 0, 0, 1])
        P(s, q)["guilds"] = [0] * 6
    step = E.auto_action(s)
    assert step["crown_penalty"] == [0, -10, -10, 0]
    s = auto(s)
    assert E.to_act(s).kind == Phase.OVER
    result = E.result(s)
    assert result.scores == (30, 0, 30, 40)
    assert result.ranks == (2, 4, 3, 1)  # 30-30 tie broken by fame
    assert E.legal_actions(s, 0) == []


def test_winner_tie_on_markers_then_shared():
    """Winner of the Game: tied on VP and fame, the most markers on the board wins; still tied,
    shared victory (house rule)."""
    s = final_state()
    for q in range(4):
        P(s, q).update(crowns=3, fame=2, vp=10, money=0, hand=[0, 0, 0, 1])
        P(s, q)["guilds"] = [0] * 6
    s = auto(s)
    assert E.result(s).ranks == (1, 1, 1, 1)


def test_a_finished_view_names_the_winners_keys_in_order():
    """Winner of the Game: VP, then fame, then influence markers on the board (guilds and royalty
    spaces). A finished match's views hold those keys, named and in that order, so a tie on VP can say
    which key ranked it without a client counting the markers itself."""
    s = final_state()
    # influence (item 6): seat 2 first (4 markers) 8 VP, seat 0 second (3) 4 VP: all three end on 30 VP
    for q, (fame, guild, vp) in enumerate([(5, 1, 26), (5, 2, 30), (3, 4, 22), (0, 0, 10)]):
        P(s, q).update(crowns=3, fame=fame, vp=vp, money=0, hand=[0, 0, 0, 1])
        P(s, q)["guilds"] = [guild, 0, 0, 0, 0, 0]
    s["royalty"] = [0, 0, None, None]  # seat 0: two royalty spaces, 1 + 2 = 3 markers against seat 1's 2
    assert "ranking" not in E.public_observation(s)  # only once over
    s = auto(s)
    ranking = E.public_observation(s)["ranking"]
    assert [k["key"] for k in ranking] == ["vp", "fame", "markers_on_board"]
    assert ranking[0]["values"] == list(E.result(s).scores) == [30, 30, 30, 0]
    assert ranking[1]["values"] == [5, 5, 3, 0]
    assert ranking[2]["values"] == [3, 2, 4, 0]
    assert E.result(s).ranks == (1, 2, 3, 4)
    assert all(E.observation(s, q)["ranking"] == ranking for q in range(4))


# ------------------------------------------------------------------------------------------------
# Hidden information
# ------------------------------------------------------------------------------------------------
def test_observation_hides_hands_crowns_and_future_events():
    """Hidden information: a hand and the crowns behind the screen are seen by their owner only;
    the face-down events stay hidden; buying and taking cards are redacted for the others."""
    s = board()
    P(s, 1)["hand"] = [3, 0, 0, 1]
    P(s, 1)["crowns"] = 7
    obs = E.observation(s, 0)
    assert obs["hand"] == P(s, 0)["hand"] and obs["my_crowns"] == 2
    assert "hand" not in obs["players"] and "crowns" not in obs["players"]
    assert obs["players"]["hand_count"] == [4, 4, 4, 4]
    assert "[3, 0, 0, 1]" not in str(obs) and "crowns" not in str(obs["players"])
    assert obs["events"] == [1] and 2 not in obs["events"]
    pub = E.public_observation(s)
    assert "hand" not in pub and "my_crowns" not in pub
    buy = {"type": "buy", "place": "court"}
    assert V1_1.redact(s, 0, buy, 1) == {"type": "buy", "place": "hidden"}  # before 1.2.0
    assert V1_1.redact(s, 0, buy, None) == {"type": "buy", "place": "hidden"}
    assert V1_1.redact(s, 0, buy, 0) == buy
    assert E.redact(s, 0, buy, 1) == buy  # 1.2.0: shown (test_event_list_shows_where_a_card_came_from)
    assert E.redact(s, 0, {"type": "play", "place": "court"}, 1) == {"type": "play", "place": "court"}
    fresh = E.initial_state(2, E.check_options(2, {}))
    assert E.redact(fresh, CHANCE, setup_outcome(fresh), 0) is None


def test_end_game_seven_disciplines_and_unmarked():
    """End of the Game item 5 + house rule P1: 7 marked disciplines 10 VP; a discipline taken but
    without a table marker neither scores nor counts (6 marked + 1 unmarked -> 7 VP)."""
    s = final_state()
    P(s, 0)["stamps"] = [1] * 7
    P(s, 0)["spec"] = [True] * 7
    P(s, 1)["stamps"] = [1] * 7
    P(s, 1)["spec"] = [True] * 6 + [False]
    step = E.auto_action(s)
    assert step["disciplines"][:2] == [10, 7]
    assert step["specialization"][:2] == [7, 6]


def test_heralds_threshold():
    """Guild 06 Heralds (threshold 3, DERIVED): with only 2 markers crowns cost 2 prestige each."""
    s = scoring_state()
    P(s, 0)["round_stamps"] = ["harp"]  # Prince: 2 prestige
    P(s, 0)["guilds"] = [0, 0, 0, 0, 0, 2]
    s = auto(s)
    assert [a for a in E.legal_actions(s, 0) if a["into"] == "crowns"] == [
        {"type": "convert", "into": "crowns", "amount": 1}]
    s = act(s, 0, {"type": "convert", "into": "crowns", "amount": 1})
    assert s["prestige"][0] == 0 and P(s, 0)["crowns"] == 3 and kind(s) == "next-round"


def test_observation_shares_nothing_with_the_state():
    """Observations are plain JSON values: changing one never changes the state."""
    s = board()
    before = copy.deepcopy(s)
    obs = E.observation(s, 0)
    obs["hand"].append(9)
    obs["piles"][0] = 99
    obs["players"]["guilds"][1][0] = 5
    obs["decision"]["seat"] = 3
    assert s == before


def test_malformed_actions_fuzz_only_illegal_action():
    """check_action and the checked step refuse anything not legal with IllegalAction (wrong seat,
    wrong phase, wrong or extra keys, wrong types), across the states of a whole match."""
    import random

    from domain.engine import same_json as same
    from tests.engines.harness import random_playout
    playout = random_playout(E, 3, {"red_chairs": True}, seed=11, check_purity_every=1000)
    rng = random.Random(5)
    junk = [None, True, 1, -1, "x", [], {}, "reserve", "king", 2.5]
    for state, (actor, action) in list(zip(playout.states, playout.log))[::3]:
        candidates = [{"type": action.get("type", "x")}, {**action, "extra": 1}, "play", None]
        for key in action:
            if key != "type":
                for value in rng.sample(junk, 4):
                    candidates.append({**action, key: value})
        for bad in candidates:
            for seat in range(3):
                if any(same(bad, option) for option in E.legal_actions(state, seat)):
                    continue
                with pytest.raises(IllegalAction):
                    E.check_action(state, seat, bad)
                with pytest.raises(IllegalAction):
                    E.step(state, seat, bad)
        if actor == SYSTEM:
            with pytest.raises(IllegalAction):
                E.step(state, SYSTEM, {**action, "round": 9})
        if actor == CHANCE:
            with pytest.raises(IllegalAction):
                E.step(state, CHANCE, {**action, "type": "nope"})


# ------------------------------------------------------------------------------------------------
# Rules 1.1.0 (audit fixes): the no-money rescue's sources; the favor consolation
# ------------------------------------------------------------------------------------------------
def _rescue_state(**player):
    """Seat 0 plays his last card (guilds), does nothing there and has $0: the rescue is due."""
    s = board()
    P(s, 0)["hand"] = [0, 0, 0, 1]
    P(s, 0)["money"] = 0
    P(s, 0).update(player)
    s = act(s, 0, {"type": "play", "place": "guilds"})
    if kind(s) == "guild":
        s = act(s, 0, {"type": "guild-done"})
    return s


def test_rescue_sources_are_guilds_court_and_specialization_table_not_the_reserve():
    """Rules 1.1.0 (replaced in 1.2.0, see test_rescue_boxes_any_of_his_markers_reserve_included) -
    rulebook 2nd Action (buying): "The marker removed by the player may be taken
    from any guild, from the court (royalty spaces and Counselor) and also from the specializations
    table"; "if the marker is removed from one of the four royalty spaces ... move the remaining
    markers back". The reserve is not among them: with 5 markers in reserve, seat 0 may box only
    his guild-3 marker, his Queen, his Counselor marker or his acrobatics table marker. He boxes
    the Queen: royalty [2, 0, 1, -] -> [2, 1, -, -], boxed 1, $0 + $3, reserve still 5."""
    s = _rescue_state(reserve=5, guilds=[0, 0, 1, 0, 0, 0])
    s["royalty"], s["counselor"] = [2, 0, 1, None], [0]
    P(s, 0)["spec"][D("acrobatics")] = True
    assert kind(s) == "rescue"
    assert V1_1.legal_actions(s, 0) == [{"type": "rescue", "from": f}
                                        for f in (3, "queen", "counselor", "acrobatics")]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "rescue", "from": "reserve"}, engine=V1_1)
    s = act(s, 0, {"type": "rescue", "from": "queen"}, engine=V1_1)
    assert s["royalty"] == [2, 1, None, None]
    assert P(s, 0)["boxed"] == 1 and P(s, 0)["money"] == 3 and P(s, 0)["reserve"] == 5
    assert P(s, 0)["guilds"][2] == 1 and s["counselor"] == [0]
    s = act(s, 0, {"type": "buy", "place": "court"}, engine=V1_1)
    assert P(s, 0)["money"] == 2 and P(s, 0)["hand"] == [0, 0, 1, 0]


def test_rescue_from_the_reserve_only_without_a_marker_on_the_board_or_table():
    """Rules 1.1.0 - rulebook 2nd Action + house rule P5 [ENGINE fallback]: only when none of his
    markers is in a guild, at court or on the specialization table may he box one from the reserve
    (4 -> 3, $3); with no marker at all he takes back the card just played (P5). (1.2.0 lists the
    same single source here.)"""
    for engine in (V1_1, E):
        s = _rescue_state(reserve=4, guilds=[0] * 6)
        assert kind(s) == "rescue" and engine.legal_actions(s, 0) == [{"type": "rescue", "from": "reserve"}]
        s = act(s, 0, {"type": "rescue", "from": "reserve"}, engine=engine)
        assert P(s, 0)["reserve"] == 3 and P(s, 0)["boxed"] == 1 and P(s, 0)["money"] == 3
        s = _rescue_state(reserve=0, guilds=[0] * 6)
        assert P(s, 0)["hand"] == [0, 0, 0, 1] and P(s, 0)["table"] == [0, 0, 0, 0]
        assert s["stack"][-1] == {"kind": "play", "seat": 1}


def test_favor_consolation_only_for_the_last_chooser():
    """Rules 1.1.0 - King's Favors note: "in the rare case that the LAST player to choose a favor
    cannot apply the effect of the remaining favors, he receives 1 victory point and $1" (house
    rules: "a favour with no effect for the last chooser"). 3 players, trigger seat 0, favors
    1 4 5 6 7 kept, every pile empty, nobody at court, fame 0, seats 1 and 2 without markers.
    Seat 0 takes favor 4 ($6 + $5). For seat 1 (2nd of 3) no remaining favor (1, 5, 6, 7) has an
    effect, yet he must choose one: he takes 6 (0 nobles / 2 = 0 VP). Seat 2, the last, has none
    with an effect among 1 5 7: the consolation only, 0 + 1 VP and $6 + $1."""
    s = board(n=3)
    s["favors"] = [1, 4, 5, 6, 7]
    s["piles"] = [0, 0, 0, 0]
    for q in (1, 2):
        P(s, q)["reserve"] = 0
    s = round_end(s)
    assert kind(s) == "favor" and E.to_act(s).seats == (0,)
    s = act(s, 0, {"type": "favor", "favor": 4})
    assert P(s, 0)["money"] == 11
    assert E.to_act(s).seats == (1,)
    assert E.legal_actions(s, 1) == [{"type": "favor", "favor": f} for f in (1, 5, 6, 7)]
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "favor-consolation"})
    s = act(s, 1, {"type": "favor", "favor": 6})
    assert (P(s, 1)["vp"], P(s, 1)["money"]) == (0, 6)
    assert E.to_act(s).seats == (2,)
    assert E.legal_actions(s, 2) == [{"type": "favor-consolation"}]
    s = act(s, 2, {"type": "favor-consolation"})
    assert (P(s, 2)["vp"], P(s, 2)["money"]) == (1, 7)
    assert kind(s) == "round-end-scoring"
