"""Jester: an independent audit of the engine against the rulebook (rulebooks/jester.txt) and the
house rules (house-rules.md section 1). Each test cites the rule it checks and complements
tests/engines/test_jester.py; states are built through the engine's API (initial_state, chance
outcomes, actions) and, where a situation would take many turns to reach, by setting a few fields
of a copy of such a state."""

from __future__ import annotations

import copy

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, Phase
from domain.games.jester import ENGINE as E
from domain.games.jester import ENGINES
from domain.games.jester.data import DISCIPLINES


# -- helpers -----------------------------------------------------------------------------------------
def D(name):
    return DISCIPLINES.index(name)


def P(s, seat):
    return s["players"][seat]


def kind(s):
    return s["stack"][-1]["kind"] if s["stack"] else None


def act(s, seat, action, engine=E):
    """The checked entry point (engine contract): check, then the trusted apply."""
    return engine.step(s, seat, action)


def auto(s):
    assert E.to_act(s).kind == Phase.AUTO
    return E.step(s, SYSTEM, E.auto_action(s))


def started(n=4, start=0, red_chairs=False, guilds=(1, 1), court=None):
    """A match after setup, through the API: events 1,2,3; favors 1-5 kept (1-4 with 2 players);
    court stamps in ``court`` order (default discipline order: King acrobatics, Queen singing,
    Prince harp, Princess magic); prices 1,2,2,2,3,3,3; every player puts his 2 markers in
    ``guilds``."""
    s = E.initial_state(n, E.check_options(n, {"red_chairs": red_chairs}))
    pool = [d for d in DISCIPLINES for _ in range(s["pool"][D(d)])]
    s = E.step(s, CHANCE, {"type": "shuffle", "deck": "setup", "events": [1, 2, 3, 4, 5, 6],
                            "favors": [1, 2, 3, 4, 5, 6, 7], "court": list(court or DISCIPLINES),
                            "stamps": pool, "prices": [1, 2, 2, 2, 3, 3, 3]})
    s = E.step(s, CHANCE, {"type": "start", "seat": start})
    for k in range(n):
        s = act(s, (start + k) % n, {"type": "setup-guild", "guilds": list(guilds)})
    return s


def tweak(s, **players):
    """A copy of ``s`` with some player fields set: tweak(s, p1={"money": 3})."""
    s = copy.deepcopy(s)
    for key, fields in players.items():
        P(s, int(key[1:])).update(copy.deepcopy(fields))
    return s


def decline(s, seat):
    """Decline every optional step left in ``seat``'s turn."""
    for _ in range(30):
        if E.to_act(s).kind != Phase.PLAYERS or E.to_act(s).seats != (seat,) or kind(s) == "play":
            return s
        legal = E.legal_actions(s, seat)
        for pref in ("no-buy", "no-order", "no-specialize", "city-skip", "guild-done", "tragedy-skip",
                     "no-swap", "keep-done"):
            if {"type": pref} in legal:
                s = act(s, seat, {"type": pref})
                break
        else:
            s = act(s, seat, legal[0])
    return s


# -- malformed actions and actors ---------------------------------------------------------------------
def test_malformed_action_with_non_string_keys_is_illegal_action():
    """Engine contract (domain/engine.py): an illegal or malformed action raises IllegalAction naming
    the rule, never TypeError - even a dict whose keys are not all strings."""
    s = started()
    for bad in ({"type": "play", 1: "city"}, {1: "x", "type": "play", "place": "city"},
                {"type": "play", None: None}):
        with pytest.raises(IllegalAction) as err:
            E.check_action(s, 0, bad)
        assert err.value.rule
        with pytest.raises(IllegalAction):
            E.step(s, 0, bad)


def test_a_bool_is_not_a_seat():
    """Engine contract: seats are the integers 0..n-1; False is not seat 0."""
    s = started()
    with pytest.raises(IllegalAction):
        E.check_action(s, False, {"type": "play", "place": "city"})
    with pytest.raises(IllegalAction):
        E.step(s, False, {"type": "play", "place": "city"})
    assert E.legal_actions(s, False) == []
    E.check_action(s, 0, {"type": "play", "place": "city"})  # accepted for seat 0 ...
    with pytest.raises(IllegalAction):  # ... but not for False
        E.step(s, False, {"type": "play", "place": "city"})


# -- setup ----------------------------------------------------------------------------------------------
def test_setup_through_the_api():
    """Setup 2-8 + house rules S2, S3: $10 (two $3 and four $1 coins; rules 1.3.0),
    2 crowns, one card of each place, 12 markers (2 of them in
    the guilds in turn order from the starting player); 10 - n cards per pile; the first event card
    prices the piles; 12 city stamps with 4 players; the starting player acts first."""
    s = started(n=4, start=2, guilds=(3, 5))
    for q in range(4):
        p = P(s, q)
        assert p["money"] == 10 and p["crowns"] == 2 and p["hand"] == [1, 1, 1, 1]
        assert p["reserve"] == 10 and p["guilds"] == [0, 0, 1, 0, 1, 0]
    assert s["piles"] == [6, 6, 6, 6] and sum(s["city"]) == 12
    assert E.observation(s, 0)["card_prices"] == [2, 2, 1, 1]  # event 1: City + Theater
    assert E.to_act(s).seats == (2,) and kind(s) == "play"


def test_setup_markers_follow_turn_order_from_the_starting_player():
    """House rule S2: each player, in turn order from the starting player, places 2 markers."""
    s = E.initial_state(3, E.check_options(3, {}))
    pool = [d for d in DISCIPLINES for _ in range(s["pool"][D(d)])]
    s = E.step(s, CHANCE, {"type": "shuffle", "deck": "setup", "events": [6, 5, 4, 3, 2, 1],
                            "favors": [7, 6, 5, 4, 3, 2, 1], "court": list(DISCIPLINES),
                            "stamps": pool, "prices": [1, 2, 2, 2, 3, 3, 3]})
    s = E.step(s, CHANCE, {"type": "start", "seat": 1})
    order = []
    for _ in range(3):
        seat = E.to_act(s).seats[0]
        order.append(seat)
        s = act(s, seat, {"type": "setup-guild", "guilds": [2, 6]})
    assert order == [1, 2, 0]
    assert s["favors"] == [3, 4, 5, 6, 7] and E.observation(s, 0)["events"] == [6]
    assert sum(s["city"]) == 10


# -- theater -------------------------------------------------------------------------------------------
def test_theater_own_pawn_alone_is_an_individual_performance():
    """Visiting the THEATER 1: a player alone in the theater (his own pawn from an earlier visit
    does not make a crowd) gets 2 fame and no one gets money."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "theater"})
    s = act(s, 0, {"type": "genre", "genre": "comedy"})
    s = decline(s, 0)
    for q in (1, 2, 3):
        s = decline(act(s, q, {"type": "play", "place": "guilds"}), q)
    assert P(s, 0)["pawn"] == "theater" and P(s, 0)["fame"] == 2
    s = tweak(s, p0={"hand": [0, 1, 0, 0]})
    money = P(s, 0)["money"]
    s = act(s, 0, {"type": "play", "place": "theater"})
    assert P(s, 0)["fame"] == 4 and P(s, 0)["money"] == money


def test_theater_fame_capped_at_13_and_bonus_5_then_3():
    """THEATER 'Attention' + house rule 1.4: fame stops at 13; the first player to reach it scores
    5 VP, the next ones 3 VP; gains above 13 are lost."""
    s = started()
    s = tweak(s, p0={"fame": 12}, p1={"fame": 12})
    s = act(s, 0, {"type": "play", "place": "theater"})  # alone: +2, capped at 13
    assert P(s, 0)["fame"] == 13 and P(s, 0)["vp"] == 5
    s = decline(act(s, 0, {"type": "genre", "genre": "circus"}), 0)
    s = act(s, 1, {"type": "play", "place": "theater"})  # collective: +1
    assert P(s, 1)["fame"] == 13 and P(s, 1)["vp"] == 3 and P(s, 0)["money"] == 10 + 2 + 1


def test_tragedy_alternative_move_between_guilds_and_no_guild_to_king():
    """Theater bonuses, Tragedy: add a marker from the reserve to a guild or the King, or instead
    move one from a guild to another guild; a guild marker may not go to the King."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "theater"})
    s = act(s, 0, {"type": "genre", "genre": "tragedy"})
    legal = E.legal_actions(s, 0)
    assert {"type": "tragedy", "from": 1, "to": 4} in legal
    assert {"type": "tragedy", "from": "reserve", "to": "king"} in legal
    assert {"type": "tragedy", "from": 1, "to": "king"} not in legal
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "tragedy", "from": 1, "to": "king"})
    s = act(s, 0, {"type": "tragedy", "from": 1, "to": 4})
    assert P(s, 0)["guilds"] == [1, 0, 0, 1, 0, 0] and kind(s) == "buy"


def test_tragedy_on_a_full_royalty_pushes_the_princess_to_the_counselor():
    """House rule P3 + Play B path: a Tragedy marker on the King pushes the royalty like Play B (the
    Princess's marker falls onto the Counselor) but scores no VP."""
    s = started()
    s = copy.deepcopy(s)
    s["royalty"] = [1, 2, 3, 1]
    s = act(s, 0, {"type": "play", "place": "theater"})
    s = act(s, 0, {"type": "genre", "genre": "tragedy"})
    s = act(s, 0, {"type": "tragedy", "from": "reserve", "to": "king"})
    assert s["royalty"] == [0, 1, 2, 3] and s["counselor"] == [1] and P(s, 0)["vp"] == 0
    assert kind(s) == "buy"  # no swap (P3)


# -- city ----------------------------------------------------------------------------------------------
def test_second_class_of_an_unmarked_discipline_marker_goes_to_three():
    """Visiting the CITY + house rule P1: a marker put on a later class of a discipline sits at the
    level of the stamps owned (2 -> 3 VP) and scores it at the end of the game."""
    s = started()
    s = copy.deepcopy(s)
    s["round"] = 2
    P(s, 0)["stamps"][D("singing")] = 1  # a singing class of round 1, no marker
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "singing"})
    assert kind(s) == "specialize"
    s = act(s, 0, {"type": "specialize", "from": "reserve"})
    assert P(s, 0)["spec"][D("singing")] and P(s, 0)["stamps"][D("singing")] == 2
    from domain.games.jester.scoring import final_items
    assert final_items(s)["specialization"][0] == 3


def test_specialization_marker_from_the_reserve_first():
    """Visiting the CITY: a guild marker may go to the table only when the reserve is empty."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "acrobatics"})
    assert E.legal_actions(s, 0) == [{"type": "specialize", "from": "reserve"}, {"type": "no-specialize"}]


def test_order_needs_an_object_token_left():
    """Visiting the CITY: the object is taken from the teacher's space; none left, no order."""
    s = started()
    s = copy.deepcopy(s)
    s["objects"][D("acrobatics")] = 0
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "acrobatics"})
    s = act(s, 0, {"type": "no-specialize"})
    assert kind(s) == "buy"


def test_order_cost_counts_other_players_orders_and_craftsmen_free():
    """Visiting the CITY: an order costs $1 + $1 per object of another player in the shop (his own
    previous one is collected first); with the Craftsmen (3 markers) it is free."""
    s = started()
    s = tweak(s, p0={"order": "poetry"}, p1={"order": "harp"}, p2={"order": "magic"})
    t = act(s, 0, {"type": "play", "place": "city"})
    assert P(t, 0)["made"][D("poetry")] and P(t, 0)["order"] is None
    t = act(t, 0, {"type": "city-class", "discipline": "acrobatics"})  # $1
    t = act(t, 0, {"type": "no-specialize"})
    t = act(t, 0, {"type": "order", "discipline": "acrobatics"})
    assert P(t, 0)["money"] == 10 - 1 - 3
    c = tweak(s, p0={"guilds": [2, 3, 0, 0, 0, 0], "reserve": 7})
    c = act(c, 0, {"type": "play", "place": "city"})
    c = act(c, 0, {"type": "city-class", "discipline": "acrobatics"})
    c = act(c, 0, {"type": "no-specialize"})
    c = act(c, 0, {"type": "order", "discipline": "acrobatics"})
    assert P(c, 0)["money"] == 10 - 1  # the class; the order is free


def test_order_only_for_the_class_just_taken():
    """Visiting the CITY: no object of a class other than the one taken."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "acrobatics"})
    s = act(s, 0, {"type": "no-specialize"})
    assert E.legal_actions(s, 0) == [{"type": "order", "discipline": "acrobatics"}, {"type": "no-order"}]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "order", "discipline": "magic"})


def test_a_pawn_in_the_shop_blocks_no_teacher():
    """Visiting the CITY: a pawn in the craftsman's shop occupies no teacher space."""
    s = started()
    s = tweak(s, p1={"pawn": "city:shop"}, p2={"pawn": "city:harp"})
    s = act(s, 0, {"type": "play", "place": "city"})
    classes = [a["discipline"] for a in E.legal_actions(s, 0) if a["type"] == "city-class"]
    assert classes == ["acrobatics", "singing", "magic"]  # the first 12 stamps: 3 of each of 4


# -- court -------------------------------------------------------------------------------------------
def test_chair_5_takes_what_the_victim_has():
    """Chair V (red): each opponent loses $2; with $1 he loses it; with $0 nothing (no decision).
    Rules 1.1.0 (Court, chair effects; house rule P4; crowns behind the screen): the victims with
    no crown are still asked, with `suffer` as their only legal action."""
    s = started()
    s = copy.deepcopy(s)
    s["round"] = 2
    s = tweak(s, p1={"money": 1, "crowns": 0}, p2={"money": 0}, p3={"money": 5, "crowns": 0})
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-a", "chair": 5})
    assert kind(s) == "victims" and E.to_act(s).seats == (1, 3)  # seat 2 has no money to lose
    for q in (1, 3):
        assert E.legal_actions(s, q) == [{"type": "suffer", "discard": None, "guild": None}]
        s = act(s, q, {"type": "suffer", "discard": None, "guild": None})
    assert [P(s, q)["money"] for q in range(4)] == [10 + 2, 0, 0, 3]
    assert kind(s) == "buy"


def test_red_chair_penalty_defended_by_a_crown_each_victim():
    """Play A: any player avoids a red chair's penalty by spending one of his crowns (house rule P4:
    per victim)."""
    s = started()
    s = copy.deepcopy(s)
    s["round"] = 2
    s = tweak(s, p1={"vp": 5}, p2={"vp": 5}, p3={"vp": 5})
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-a", "chair": 3})
    assert E.to_act(s).seats == (1, 2, 3)
    s = act(s, 2, {"type": "defend"})
    s = act(s, 1, {"type": "suffer", "discard": None, "guild": None})
    s = act(s, 3, {"type": "defend"})
    assert [P(s, q)["vp"] for q in range(4)] == [0, 3, 5, 5]
    assert [P(s, q)["crowns"] for q in range(4)] == [2, 2, 1, 1]


def test_chair_9_fame_13_player_still_discards():
    """Chair IX + THEATER 'Attention': a player at fame 13 loses no fame but still discards."""
    s = started()
    s = copy.deepcopy(s)
    s["round"] = 2
    s = tweak(s, p1={"fame": 13, "f13": True, "crowns": 0})
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-a", "chair": 9})
    assert 1 in E.to_act(s).seats
    assert all(a["discard"] is not None for a in E.legal_actions(s, 1))
    s = act(s, 1, {"type": "suffer", "discard": "city", "guild": None})
    assert P(s, 1)["fame"] == 13 and P(s, 1)["hand"] == [0, 1, 1, 1]


def test_play_b_alone_on_royalty_may_swap_and_swap_moves_stamps():
    """Play B: one marker on the royalty is a majority; swapping exchanges two of the seven court
    stamps (Counselor side included); +1 VP."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-b", "from": "reserve"})
    assert P(s, 0)["vp"] == 1 and s["royalty"] == [0, None, None, None] and kind(s) == "swap"
    s = act(s, 0, {"type": "swap", "disciplines": ["acrobatics", "theater"]})
    assert s["court"][0] == "theater" and s["court"][6] == "acrobatics"


def test_play_b_minority_without_grand_duke_no_swap():
    """Play B + house rule P2: with fewer royalty markers than another player, no swap."""
    s = started()
    s = copy.deepcopy(s)
    s["royalty"] = [1, 1, None, None]
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-b", "from": "reserve"})
    assert s["royalty"] == [0, 1, 1, None] and kind(s) == "buy"


def test_red_chairs_allowed_from_round_2():
    """Play A 'Important': red chairs cannot be occupied in round 1, only from round 2."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "court"})
    chairs = [a["chair"] for a in E.legal_actions(s, 0) if a["type"] == "court-a"]
    assert chairs == [2, 4, 6, 8, 10]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "court-a", "chair": 1})
    t = started()
    t = copy.deepcopy(t)
    t["round"] = 2
    t = act(t, 0, {"type": "play", "place": "court"})
    assert [a["chair"] for a in E.legal_actions(t, 0) if a["type"] == "court-a"] == list(range(1, 11))


# -- guilds ----------------------------------------------------------------------------------------------
def test_guild_markers_never_from_the_court_or_the_table():
    """Visiting the GUILDS: markers placed in the guilds come from the reserve (or move between
    guilds), never from the court or the specialization table."""
    s = started()
    s = copy.deepcopy(s)
    s["royalty"] = [0, None, None, None]
    s["counselor"] = [0]
    P(s, 0)["spec"][0] = True
    s = act(s, 0, {"type": "play", "place": "guilds"})
    sources = {a.get("from") for a in E.legal_actions(s, 0)}
    assert sources == {"reserve", 1, None}
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "guild-move", "from": "king", "to": 2})


def test_guild_visit_two_moves_then_buy():
    """Visiting the GUILDS: 1st guild card of the round, up to two manipulations, then the buy."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-move", "from": "reserve", "to": 6})
    s = act(s, 0, {"type": "guild-move", "from": 1, "to": 6})
    assert P(s, 0)["guilds"] == [1, 0, 0, 0, 0, 2] and kind(s) == "buy"


# -- buying -----------------------------------------------------------------------------------------------
def test_only_one_card_bought_per_turn():
    """2nd Action: only a single card may be bought at the end of a turn."""
    s = started()
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    s = act(s, 0, {"type": "buy", "place": "court"})
    assert E.to_act(s).seats == (1,) and kind(s) == "play"
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "buy", "place": "court"})


def test_empty_pile_cannot_be_bought():
    """2nd Action: a pile that has run out cannot be bought from."""
    s = started()
    s = copy.deepcopy(s)
    s["piles"][2] = 0
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    assert {"type": "buy", "place": "court"} not in E.legal_actions(s, 0)


# -- end of the round -------------------------------------------------------------------------------------
def _play_round_1_to_the_end():
    """Round 1 through the API: seat 1 plays court, court, court (the 3rd triggers), the others
    city/guilds/city cards; the round ends after seat 3 (start 0)."""
    s = started()
    s = tweak(s, p1={"hand": [0, 0, 3, 0]})
    for turn in range(3):
        for q in range(4):
            if kind(s) != "play":
                return s
            assert E.to_act(s).seats == (q,)
            if q == 1:
                s = act(s, 1, {"type": "play", "place": "court"})
                s = act(s, 1, {"type": "court-a", "chair": [2, 4, 6][turn]})
                if kind(s) == "take-card":
                    s = act(s, 1, {"type": "take-card", "place": "city"})
                if kind(s) == "chair-guild":
                    s = act(s, 1, {"type": "chair-guild", "guild": 2})
                    s = act(s, 1, {"type": "take-card", "place": "city"})
                s = decline(s, 1)
            else:
                s = tweak(s, **{f"p{q}": {"hand": [1, 1, 1, 1]}})
                place = ["city", "guilds", "city"][turn]
                s = decline(act(s, q, {"type": "play", "place": place}), q)
    return s


def test_round_end_through_the_api_favors_from_trigger_each_once():
    """End of the Round tasks 1-2: cards on the table go back to the piles; the triggering player
    chooses a favor first, then clockwise; a chosen favor cannot be chosen again this round."""
    s = _play_round_1_to_the_end()
    assert s["trigger"] == 1 and kind(s) == "favor"
    assert all(sum(P(s, q)["table"]) == 0 for q in range(4))
    assert E.to_act(s).seats == (1,)
    s = act(s, 1, {"type": "favor", "favor": 4})
    assert E.to_act(s).seats == (2,)
    assert {"type": "favor", "favor": 4} not in E.legal_actions(s, 2)
    with pytest.raises(IllegalAction):
        act(s, 2, {"type": "favor", "favor": 4})
    s = act(s, 2, {"type": "favor", "favor": 3})
    s = act(s, 3, {"type": "favor", "favor": 2})
    assert E.to_act(s).seats == (0,)
    assert E.legal_actions(s, 0) == [{"type": "favor", "favor": 1}, {"type": "favor", "favor": 5}]


def test_full_round_cycle_next_round_start_passes_left_and_favors_face_up():
    """End of the Round + house rules S3/task 5: after the tasks, round 2 starts with the player to
    the left of the previous starting player, all five favors available again, the event of
    round 2 pricing the piles, and hands carried over."""
    s = _play_round_1_to_the_end()
    for q in (1, 2, 3, 0):
        legal = E.legal_actions(s, q)
        s = act(s, q, legal[0])
        while E.to_act(s).kind == Phase.PLAYERS and kind(s) == "take-card":
            s = act(s, q, E.legal_actions(s, q)[0])
        while kind(s) == "guild":
            s = act(s, q, {"type": "guild-done"})
    s = auto(s)  # task 3
    while kind(s) == "convert":
        seat = E.to_act(s).seats[0]
        s = act(s, seat, {"type": "convert", "into": "vp", "amount": s["prestige"][seat]})
    hands = [P(s, q)["hand"][:] for q in range(4)]
    s = auto(s)  # task 5
    assert E.to_act(s).kind == Phase.CHANCE
    pool = [d for d in DISCIPLINES for _ in range(s["pool"][D(d)])]
    s = E.step(s, CHANCE, {"type": "shuffle", "deck": "city", "stamps": pool,
                            "prices": [1, 2, 2, 2, 3, 3, 3]})
    assert s["round"] == 2 and E.to_act(s).seats == (1,)
    assert [P(s, q)["hand"] for q in range(4)] == hands
    obs = E.observation(s, 1)
    assert obs["events"] == [1, 2] and obs["card_prices"] == [2, 1, 1, 2]
    assert "favors_used" not in obs and s["favors"] == [1, 2, 3, 4, 5]


def test_guild_scoring_three_way_tie_nobody_scores_two_players_tie_one_each():
    """End of the Round task 3, Guilds: majority 2 VP; two tied 1 each; three or four tied none."""
    s = _play_round_1_to_the_end()
    s = copy.deepcopy(s)
    for q in range(4):
        P(s, q)["guilds"] = [[1, 2, 3, 0, 0, 0], [1, 2, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0],
                             [0, 0, 0, 0, 0, 0]][q]
        P(s, q)["fame"] = 0
    s["royalty"] = [None] * 4
    s["counselor"] = []
    s["stack"] = [{"kind": "round-end-scoring"}]
    step = E.auto_action(s)
    assert step["guilds"] == [1 + 2, 1, 0, 0]  # guild 1: three tied; guild 2: two tied; guild 3


def test_task_4_prestige_only_for_stamps_of_this_round():
    """House rule task 4: only stamps taken this round give prestige (stamps of earlier rounds,
    still on the player's board, do not)."""
    s = started()
    s = copy.deepcopy(s)
    P(s, 0)["stamps"][D("acrobatics")] = 2
    P(s, 0)["round_stamps"] = ["acrobatics"]
    s["stack"] = [{"kind": "round-end-scoring"}]
    assert E.auto_action(s)["prestige"][0] == 4


def test_favor_5_and_6_values():
    """King's Favors 5 (fame 3-7: 3 VP, 8-13: 4 VP) and 6 (half the nobles, rounded down)."""
    from domain.games.jester.round_end import apply_favor
    s = started()
    for fame, vp in ((3, 3), (7, 3), (8, 4), (13, 4)):
        t = copy.deepcopy(s)
        P(t, 0)["fame"] = fame
        apply_favor(t, {"idx": 0, "order": [0]}, 0, {"type": "favor", "favor": 5})
        assert P(t, 0)["vp"] == vp
    t = copy.deepcopy(s)
    t["chairs"] = [1] * 7 + [None] * 3
    apply_favor(t, {"idx": 0, "order": [0]}, 0, {"type": "favor", "favor": 6})
    assert P(t, 0)["vp"] == 3


# -- end of the game ---------------------------------------------------------------------------------------
def _final(s):
    s = copy.deepcopy(s)
    s["round"] = 3
    s["stack"] = [{"kind": "final-scoring"}]
    return s


def test_final_items_each_rule():
    """End of the Game items 1-4: a set of 4 different cards 3 VP (two sets 6); objects made 2 VP
    (the shop's don't count); table markers 1/3/6; $3 -> 1 VP (rounded down)."""
    s = _final(started())
    P(s, 0).update(hand=[2, 2, 3, 2], money=8, order="harp", made=[True, False, False, True, False, False, False])
    P(s, 0)["stamps"] = [3, 2, 1, 0, 0, 0, 0]
    P(s, 0)["spec"] = [True, True, True, False, False, False, False]
    step = E.auto_action(s)
    assert step["sets"][0] == 6 and step["objects"][0] == 4
    assert step["specialization"][0] == 6 + 3 + 1 and step["money"][0] == 2


def test_six_marked_disciplines_7vp_and_influence_second_place():
    """End of the Game items 5-6: 6 marked disciplines 7 VP; most markers on the board (guilds and
    royalty) 8 VP, the single 2nd 4 VP."""
    s = _final(started())
    P(s, 0)["stamps"] = [1, 1, 1, 1, 1, 1, 0]
    P(s, 0)["spec"] = [True] * 6 + [False]
    s["royalty"] = [2, 2, None, None]  # seat 2: 2 guild markers + 2 royalty = 4
    P(s, 1)["guilds"] = [3, 0, 0, 0, 0, 0]  # 3
    step = E.auto_action(s)
    assert step["disciplines"][0] == 7
    assert step["influence"] == [0, 4, 8, 0]


def test_crown_penalty_single_fewest():
    """Crown Penalty: the single player with the fewest crowns loses 10 VP (not below 0, P6)."""
    s = _final(started())
    for q, (crowns, vp) in enumerate([(3, 20), (1, 4), (2, 20), (5, 20)]):
        P(s, q).update(crowns=crowns, vp=vp, hand=[0, 0, 0, 1], money=0, guilds=[0] * 6)
    step = E.auto_action(s)
    assert step["crown_penalty"] == [0, -10, 0, 0]
    s = auto(s)
    assert P(s, 1)["vp"] == 0 and E.result(s).scores[1] == 0


# -- hidden information ---------------------------------------------------------------------------------
def test_observation_independent_of_other_players_hidden_data():
    """Hidden information: another player's hand contents, his crowns, the face-down events, the
    removed favors and the face-down stamps change nothing in a seat's observation."""
    s = started()
    t = copy.deepcopy(s)
    P(t, 1)["hand"] = [4, 0, 0, 0]  # same size
    P(t, 1)["crowns"] = 9
    t["events"] = [1, 6, 5]
    t["pool"] = list(reversed(t["pool"]))
    assert E.observation(t, 0) == E.observation(s, 0)
    assert E.public_observation(t) == E.public_observation(s)
    assert E.observation(t, 1) != E.observation(s, 1)


def test_event_list_hides_cards_taken_by_others():
    """Hidden information, rules 1.0.0 and 1.1.0: a Musical / favor / chair card taken and
    Merchants' kept cards go to a hidden hand: the others see the place as hidden; the setup
    shuffle is hidden from all. (Since 1.2.0 the place is shown: docs/rules/jester.md, Hidden
    information; tests/engines/test_jester.py::test_event_list_shows_where_a_card_came_from.)"""
    s = started()
    for old in (ENGINES["1.0.0"], ENGINES["1.1.0"]):
        for action in ({"type": "take-card", "place": "city"}, {"type": "keep", "place": "court"}):
            assert old.redact(s, 0, action, 1)["place"] == "hidden"
            assert old.redact(s, 0, action, None)["place"] == "hidden"
            assert old.redact(s, 0, action, 0) == action


# -- more city, court and favor statements ---------------------------------------------------------------
def test_master_buffoon_pays_both_one_object_pawn_on_either_space():
    """Guild 01 Master Buffoon (4 markers, house rule S4): two classes, both paid and stamped, one
    table-marker decision each, only one of the two objects; the pawn stays on one of the two."""
    s = started()
    s = tweak(s, p0={"guilds": [4, 0, 0, 0, 0, 0], "reserve": 8})
    s = act(s, 0, {"type": "play", "place": "city"})
    s = act(s, 0, {"type": "city-class", "discipline": "acrobatics"})  # $1
    s = act(s, 0, {"type": "specialize", "from": "reserve"})
    assert kind(s) == "city" and {"type": "city-class", "discipline": "acrobatics"} not in E.legal_actions(s, 0)
    s = act(s, 0, {"type": "city-class", "discipline": "singing"})  # $2
    assert kind(s) == "specialize"
    s = act(s, 0, {"type": "no-specialize"})
    assert E.legal_actions(s, 0) == [{"type": "pawn", "discipline": "acrobatics"},
                                     {"type": "pawn", "discipline": "singing"}]
    s = act(s, 0, {"type": "pawn", "discipline": "singing"})
    assert P(s, 0)["pawn"] == "city:singing" and P(s, 0)["money"] == 10 - 1 - 2
    s = act(s, 0, {"type": "order", "discipline": "acrobatics"})
    assert kind(s) == "buy" and P(s, 0)["order"] == "acrobatics" and P(s, 0)["money"] == 10 - 1 - 2 - 1
    assert P(s, 0)["stamps"][:2] == [1, 1] and P(s, 0)["round_stamps"] == ["acrobatics", "singing"]


def test_chair_2_with_an_empty_reserve_gives_only_the_card():
    """Chair II (blue): the marker must come from the personal reserve; with none, only the card."""
    s = started()
    s = tweak(s, p0={"reserve": 0, "guilds": [12, 0, 0, 0, 0, 0]})
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-a", "chair": 2})
    assert kind(s) == "take-card"
    s = act(s, 0, {"type": "take-card", "place": "theater"})
    assert P(s, 0)["guilds"] == [12, 0, 0, 0, 0, 0] and P(s, 0)["hand"] == [1, 2, 0, 1]


def test_chair_1_each_opponent_marker_goes_back_to_reserve_two_players():
    """Chair I (red), 2 players: the single opponent discards and takes a guild marker back."""
    s = started(n=2)
    s = copy.deepcopy(s)
    s["round"] = 2
    s = tweak(s, p1={"crowns": 0})
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-a", "chair": 1})
    assert E.to_act(s).seats == (1,)
    s = act(s, 1, {"type": "suffer", "discard": "guilds", "guild": 1})
    assert P(s, 1)["hand"] == [1, 1, 1, 0] and P(s, 1)["guilds"][0] == 1 and P(s, 1)["reserve"] == 11


def test_merchants_keep_at_most_two_cards():
    """End of the Round task 1: the Merchants (2 markers) keep up to two table cards; the rest go
    back to their piles."""
    s = started(guilds=(5, 5))
    s = copy.deepcopy(s)
    for q in range(4):
        P(s, q)["table"] = [1, 1, 1, 0]
        P(s, q)["hand"] = [0, 0, 0, 1]
    s["piles"] = [6 - 4, 6 - 4, 6 - 4, 6 + 0]
    s["trigger"] = 0
    s["stack"] = []
    from domain.games.jester.core import settle
    from domain.games.jester.round_end import begin_round_end
    from domain.games.jester.rules import handlers
    begin_round_end(s)
    settle(s, handlers(E.rules_version))
    assert kind(s) == "keep" and E.to_act(s).seats == (0, 1, 2, 3)
    s = act(s, 0, {"type": "keep", "place": "city"})
    s = act(s, 0, {"type": "keep", "place": "court"})
    assert 0 not in E.to_act(s).seats
    s = act(s, 1, {"type": "keep-done"})
    s = act(s, 2, {"type": "keep", "place": "theater"})
    s = act(s, 2, {"type": "keep-done"})
    s = act(s, 3, {"type": "keep", "place": "theater"})
    assert {"type": "keep", "place": "theater"} not in E.legal_actions(s, 3)  # only table cards
    s = act(s, 3, {"type": "keep", "place": "city"})
    assert kind(s) == "favor"
    assert P(s, 0)["hand"] == [1, 0, 1, 1] and P(s, 1)["hand"] == [0, 0, 0, 1]
    assert P(s, 3)["hand"] == [1, 1, 0, 1] and all(sum(P(s, q)["table"]) == 0 for q in range(4))
    assert s["piles"] == [2 + 2, 2 + 2, 2 + 3, 6]


def test_favor_1_and_7():
    """King's Favors 1 (two place cards, equal or different) and 7 (up to three guild moves)."""
    s = started()
    t = copy.deepcopy(s)
    t["stack"] = [{"kind": "favor", "order": [0, 1, 2, 3], "idx": 0}]
    t = act(t, 0, {"type": "favor", "favor": 1})
    t = act(t, 0, {"type": "take-card", "place": "court"})
    t = act(t, 0, {"type": "take-card", "place": "court"})
    assert P(t, 0)["hand"] == [1, 1, 3, 1] and E.to_act(t).seats == (1,)
    t = copy.deepcopy(s)
    t["favors"] = [3, 4, 5, 6, 7]
    t["stack"] = [{"kind": "favor", "order": [0, 1, 2, 3], "idx": 0}]
    t = act(t, 0, {"type": "favor", "favor": 7})
    for move in ({"from": "reserve", "to": 2}, {"from": 1, "to": 2}, {"from": "reserve", "to": 6}):
        t = act(t, 0, {"type": "guild-move", **move})
    assert P(t, 0)["guilds"] == [1, 2, 0, 0, 0, 1] and E.to_act(t).seats == (1,)


def test_illegal_actions_name_a_rule():
    """Engine contract: IllegalAction cites the rule broken (a rulebook section or house-rule tag)."""
    s = started()
    cases = [(s, 1, {"type": "play", "place": "city"}),
             (s, 0, {"type": "play", "place": "nowhere"}),
             (act(s, 0, {"type": "play", "place": "court"}), 0, {"type": "court-a", "chair": 1}),
             (act(s, 0, {"type": "play", "place": "city"}), 0, {"type": "city-class", "discipline": "poetry"})]
    for state, seat, action in cases:
        with pytest.raises(IllegalAction) as err:
            E.check_action(state, seat, action)
        assert err.value.rule.startswith(("jester", "house rule")) and err.value.detail


def test_red_chairs_variant_through_the_api():
    """Variant: Red Chairs: 3 crowns each; a red chair may be taken from the player's second turn of
    the game in round 1 (not on his first)."""
    s = started(red_chairs=True)
    assert all(P(s, q)["crowns"] == 3 for q in range(4))
    t = act(s, 0, {"type": "play", "place": "court"})
    assert [a["chair"] for a in E.legal_actions(t, 0) if a["type"] == "court-a"] == [2, 4, 6, 8, 10]
    s = decline(act(act(s, 0, {"type": "play", "place": "guilds"}), 0, {"type": "guild-done"}), 0)
    for q in (1, 2, 3):
        s = decline(act(s, q, {"type": "play", "place": "guilds"}), q)
    s = act(s, 0, {"type": "play", "place": "court"})
    assert {"type": "court-a", "chair": 1} in E.legal_actions(s, 0)


def test_fame_13_immune_even_when_only_the_track_says_so():
    """THEATER 'Attention': whoever is at fame 13 loses no fame to red chairs (VII, IX); the engine
    reads the fame track itself, not only its 'reached 13' flag."""
    s = started()
    s = copy.deepcopy(s)
    s["round"] = 2
    s = tweak(s, p1={"fame": 13, "crowns": 0, "hand": [0, 0, 0, 1]}, p2={"fame": 0, "hand": [0, 0, 0, 1]},
              p3={"fame": 0, "hand": [1, 0, 0, 0]})
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-a", "chair": 9})  # nobody can be harmed: one card or no fame
    assert P(s, 1)["fame"] == 13 and kind(s) == "buy"


def test_three_rounds_start_passes_left_favors_from_each_trigger():
    """Object of the Game / End of the Game + house rules S3, task 5: exactly three rounds; the
    starting player passes left each round; every round's favors start with that round's trigger;
    the result ranks by VP, then fame, then markers on the board."""
    import random

    rng = random.Random(3)
    s = started(n=3, start=2)
    starts, triggers, favor_first = [], [], []
    for _ in range(5000):
        turn = E.to_act(s)
        if turn.kind == Phase.OVER:
            break
        if turn.kind == Phase.CHANCE:
            s = E.step(s, CHANCE, E.sample_chance(s, rng))
            continue
        if turn.kind == Phase.AUTO:
            s = auto(s)
            continue
        seat = turn.seats[0]
        if kind(s) == "play" and (not starts or starts[-1][0] != s["round"]):
            starts.append((s["round"], seat))
        if kind(s) == "favor" and s["stack"][-1]["idx"] == 0:
            triggers.append(s["trigger"])
            favor_first.append(seat)
        legal = E.legal_actions(s, seat)
        s = act(s, seat, legal[rng.randrange(len(legal))])
    assert E.to_act(s).kind == Phase.OVER and s["round"] == 3
    assert starts == [(1, 2), (2, 0), (3, 1)]
    assert favor_first == triggers and len(triggers) == 3
    result = E.result(s)
    from domain.games.jester.core import markers_on_board
    keys = [(P(s, q)["vp"], P(s, q)["fame"], markers_on_board(s, q)) for q in range(3)]
    assert list(result.ranks) == [1 + sum(k > keys[q] for k in keys) for q in range(3)]
    assert list(result.scores) == [P(s, q)["vp"] for q in range(3)]
