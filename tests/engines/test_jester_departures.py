"""Jester 1.2.0 and 1.3.0: the rules departures (1.2.0: issue 9; 1.3.0: the starting purse),
each against the rule it follows (rulebook ../shared/rules/rulebooks/jester.txt;
docs/rules/jester.md, changelog), the engine contract (one
checked path, observations that share nothing) and the older rules versions, kept for the matches
played under them."""

from __future__ import annotations

import copy
import random

import pytest

from domain.engine import CHANCE, IllegalAction
from domain.games import get_engine, rules_versions
from domain.games.jester import ENGINE as E
from domain.games.jester import ENGINES, JesterEngine
from domain.playout import new_match, play
from tests.engines.test_jester import D, P, act, board, kind, round_end

V1_0, V1_1, V1_2 = ENGINES["1.0.0"], ENGINES["1.1.0"], ENGINES["1.2.0"]


def test_rules_versions():
    """Rules versions: 1.5.0 is current (its turn cap: tests/engines/test_jester_turn_cap.py; 1.4.0's options:
    tests/engines/test_jester_options.py); 1.0.0 to 1.4.0 stay available for the matches played with them;
    an unknown version is refused."""
    assert E.rules_version == "1.5.0" and get_engine("jester") is E
    assert {v: e.rules_version for v, e in rules_versions("jester").items()} == {
        "1.0.0": "1.0.0", "1.1.0": "1.1.0", "1.2.0": "1.2.0", "1.3.0": "1.3.0", "1.4.0": "1.4.0", "1.5.0": "1.5.0"}
    assert get_engine("jester", "1.0.0") is V1_0 and get_engine("jester", "1.1.0") is V1_1
    assert get_engine("jester", "1.2.0") is V1_2 and get_engine("jester", "1.3.0") is ENGINES["1.3.0"]
    assert get_engine("jester", "1.4.0") is ENGINES["1.4.0"]
    with pytest.raises(ValueError):
        JesterEngine(rules_version="0.9.0")


# -- 2nd action: the no-money rescue ------------------------------------------------------------------
def _rescue_state(**player):
    """Seat 0 plays his last card (guilds), does nothing there and has $0: the rescue is due."""
    s = board()
    P(s, 0)["hand"] = [0, 0, 0, 1]
    P(s, 0)["money"] = 0
    P(s, 0).update(player)
    s = act(s, 0, {"type": "play", "place": "guilds"})
    if kind(s) == "guild":
        s = act(s, 0, {"type": "guild-done"})
    assert kind(s) == "rescue"
    return s


def test_rescue_boxes_any_of_his_markers_reserve_included():
    """Rules 1.2.0 - rulebook 2nd Action: "The player removes one of his influence markers from the
    game and returns it to the box ... The marker removed by the player may be taken from any guild,
    from the court (royalty spaces and Counselor) and also from the specializations table ... the
    player must evaluate where to take the marker from in order to minimize his loss." Any of his
    markers, his choice, the reserve included. Seat 0 holds the Merchants power with exactly its
    2 markers (house rule S4), the Queen, a Counselor marker, an acrobatics table marker and 3 in
    reserve. He boxes a reserve marker: reserve 3 -> 2, boxed 1, $0 + $3, and keeps his Merchants,
    his Queen and his Counselor marker. Under 1.1.0 the reserve was refused while any marker was
    placed: he had to give up one of them (here: the Merchants power, or a royalty point)."""
    s = _rescue_state(reserve=3, guilds=[0, 0, 0, 0, 2, 0])
    s["royalty"], s["counselor"] = [2, 0, 1, None], [0]
    P(s, 0)["spec"][D("acrobatics")] = True
    assert E.legal_actions(s, 0) == [{"type": "rescue", "from": f}
                                     for f in ("reserve", 5, "queen", "counselor", "acrobatics")]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "rescue", "from": "reserve"}, engine=V1_1)
    after = act(s, 0, {"type": "rescue", "from": "reserve"})
    assert P(after, 0)["reserve"] == 2 and P(after, 0)["boxed"] == 1 and P(after, 0)["money"] == 3
    assert P(after, 0)["guilds"] == [0, 0, 0, 0, 2, 0] and after["royalty"] == [2, 0, 1, None]
    assert after["counselor"] == [0] and P(after, 0)["spec"][D("acrobatics")]
    assert kind(after) == "buy"
    # a placed marker may still be chosen: the Queen, the markers behind closing the gap
    queen = act(s, 0, {"type": "rescue", "from": "queen"})
    assert queen["royalty"] == [2, 1, None, None] and P(queen, 0)["reserve"] == 3
    with pytest.raises(IllegalAction):  # not a marker of his
        act(s, 0, {"type": "rescue", "from": "king"})


# -- hidden information: where a card came from --------------------------------------------------------
def test_event_list_shows_where_a_card_came_from():
    """Rules 1.2.0 - Hidden information: no rule hides where a bought or taken card comes from
    (rulebook 2nd Action: "Buy a place card from the table"; the piles are sorted by place on the
    board, Setup 4) and the observations show every pile's size, so the event list shows the place
    of a `buy`, `take-card` (Musical, chair II, favor 1) and `keep` (Merchants) to everyone, as
    played; before 1.2.0 the others saw "hidden" while the pile counts told them. What the event
    list shows is exactly what the public observation's piles already tell."""
    s = board()
    s = act(s, 0, {"type": "play", "place": "guilds"})
    s = act(s, 0, {"type": "guild-done"})
    assert kind(s) == "buy"
    buy = {"type": "buy", "place": "court"}
    for viewer in (None, 0, 1, 2, 3):
        assert E.redact(s, 0, buy, viewer) == buy
    piles_before = E.public_observation(s)["piles"]
    after = act(s, 0, buy)
    piles_after = E.public_observation(after)["piles"]
    changed = [place for place, a, b in zip(("city", "theater", "court", "guilds"), piles_before, piles_after)
               if a != b]
    assert changed == [buy["place"]] and piles_after[2] == piles_before[2] - 1
    for action in ({"type": "take-card", "place": "city"}, {"type": "keep", "place": "court"}):
        assert all(E.redact(s, 0, action, viewer) == action for viewer in (None, 1, 2, 3))
        assert V1_1.redact(s, 0, action, 1) == {**action, "place": "hidden"}  # before 1.2.0
    shown = E.redact(s, 0, buy, 1)
    shown["place"] = "x"  # a fresh copy: changing it changes nothing else
    assert buy == {"type": "buy", "place": "court"}


# -- Court Play B: swap any two stamps ------------------------------------------------------------------
def _swap_state():
    """Rulebook Example 5: Yellow (seat 0) plays B, pushes Green to the Queen and, with more fame,
    may swap two court stamps (King acrobatics, Queen singing, Prince harp, Princess magic, then
    juggling, poetry, theater beside the Counselor)."""
    s = board()
    s["royalty"] = [1, None, None, None]
    P(s, 0)["fame"] = 4
    P(s, 1)["fame"] = 2
    s = act(s, 0, {"type": "play", "place": "court"})
    s = act(s, 0, {"type": "court-b", "from": "reserve"})
    assert kind(s) == "swap"
    return s


def test_swap_accepts_the_two_disciplines_in_either_order():
    """Rules 1.2.0 - Court Play B: "manipulating means that the player may swap the positions of any
    two stamps among the seven that are on the court": a swap names two stamps, in no order.
    Example 5's Juggling and Harp swap is accepted as ["juggling", "harp"] as well as the listed
    ["harp", "juggling"] (each pair is listed once, 21 + no-swap), with the same court after it
    (Prince juggling, harp beside the Counselor); under 1.1.0 only the listed order was accepted.
    Two equal stamps or a third one are still refused."""
    s = _swap_state()
    assert len(E.legal_actions(s, 0)) == 22
    assert {"type": "swap", "disciplines": ["harp", "juggling"]} in E.legal_actions(s, 0)
    listed = act(s, 0, {"type": "swap", "disciplines": ["harp", "juggling"]})
    reversed_ = act(s, 0, {"type": "swap", "disciplines": ["juggling", "harp"]})
    assert reversed_ == listed
    assert reversed_["court"][2] == "juggling" and reversed_["court"][4] == "harp"
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "swap", "disciplines": ["juggling", "harp"]}, engine=V1_1)
    for bad in (["harp", "harp"], ["harp", "juggling", "magic"], ["harp"], ["harp", "nothing"],
                ["harp", True], "harp"):
        with pytest.raises(IllegalAction):
            act(s, 0, {"type": "swap", "disciplines": bad})
    with pytest.raises(IllegalAction):  # extra keys are still refused
        act(s, 0, {"type": "swap", "disciplines": ["juggling", "harp"], "also": 1})


# -- the engine contract --------------------------------------------------------------------------------
class CountingChecks(JesterEngine):
    """The current engine, counting how often its own check runs."""

    def __init__(self):
        super().__init__()
        self.checks = 0

    def check_action(self, state, seat, action):
        self.checks += 1
        return super().check_action(state, seat, action)


def test_apply_is_trusted_and_step_checks_once():
    """Engine contract (domain/engine.py): `apply` is the trusted transition replay uses and checks
    nothing again; `step` checks each player action exactly once (1.1.0 re-checked in apply and
    kept a module-level cache of the last checked action to avoid it)."""
    engine = CountingChecks()
    steps = []
    checked = play(engine, new_match(engine, 3), random.Random(4), checked=True,
                   on_step=lambda before, actor, action, after: steps.append((actor, action)))
    player_moves = sum(1 for actor, _ in steps if type(actor) is int)
    assert engine.checks == player_moves == checked.player_moves > 0
    engine.checks = 0
    state = new_match(engine, 3)
    for actor, action in steps:
        state = engine.apply(state, actor, action)
    assert engine.checks == 0 and state == checked.state


def test_observations_of_one_state_share_nothing():
    """Engine contract: the observations of one state share no list or dict with the state or with
    each other (1.1.0 reused the public lists for every seat of the same state): a caller changing
    seat 0's observation changes neither seat 1's, nor the public one, nor the state."""
    s = board()
    before = copy.deepcopy(s)
    public, first, second = E.public_observation(s), E.observation(s, 0), E.observation(s, 1)
    expected = copy.deepcopy((public, second))
    first["piles"].append(99)
    first["players"]["guilds"][1][0] = 5
    first["court"].reverse()
    first["decision"]["seat"] = 3
    assert (public, second) == expected and s == before
    assert E.observation(s, 0)["piles"] == public["piles"]


def test_a_shuffle_is_checked_once_by_validate_chance():
    """Setup 3-8 (one hidden shuffle): the checked step validates a shuffle (a permutation of each
    deck, a `true` is not the event 1); the trusted apply takes a stored one as it is."""
    s = E.initial_state(2, E.check_options(2, {}))
    good = E.sample_chance(s, random.Random(1))
    events = list(good["events"])
    bad = {**good, "events": [True if e == 1 else e for e in events]}
    with pytest.raises(IllegalAction):
        E.step(s, CHANCE, bad)
    assert E.step(s, CHANCE, good) == E.apply(s, CHANCE, good)


# -- the older versions keep their rules ----------------------------------------------------------------
def test_rules_1_0_0_resolve_a_victim_without_choice_at_once():
    """Rules 1.0.0 (kept for its matches; changed in 1.1.0): a red-chair victim with no crown and
    a single way to suffer suffered at once. Chair III, every opponent at 4 VP, seat 2 without
    crowns: under 1.0.0 he is at 2 VP right away and only seats 1 and 3 are asked; under 1.1.0 and
    1.2.0 he is asked too."""
    s = board(round_=2)
    for q in (1, 2, 3):
        P(s, q)["vp"] = 4
    P(s, 2)["crowns"] = 0
    s = act(s, 0, {"type": "play", "place": "court"})
    old = act(s, 0, {"type": "court-a", "chair": 3}, engine=V1_0)
    assert P(old, 2)["vp"] == 2 and V1_0.to_act(old).seats == (1, 3)
    for engine in (V1_1, E):
        new = act(s, 0, {"type": "court-a", "chair": 3}, engine=engine)
        assert P(new, 2)["vp"] == 4 and engine.to_act(new).seats == (1, 2, 3)


def test_rules_1_0_0_consolation_for_any_chooser():
    """Rules 1.0.0 (kept for its matches; changed in 1.1.0 to the last chooser only, King's Favors
    note): any chooser with no available favor that has an effect for him received 1 VP and $1.
    3 players, favors 1 4 5 6 7, every pile empty, nobody at court, fame 0, seat 1 without markers:
    after seat 0 takes favor 4, seat 1 (2nd of 3) gets the consolation under 1.0.0 only."""
    s = board(n=3)
    s["favors"] = [1, 4, 5, 6, 7]
    s["piles"] = [0, 0, 0, 0]
    P(s, 1)["reserve"] = 0
    s = round_end(s)
    s = act(s, 0, {"type": "favor", "favor": 4})
    assert V1_0.legal_actions(s, 1) == [{"type": "favor-consolation"}]
    assert E.legal_actions(s, 1) == V1_1.legal_actions(s, 1) == [
        {"type": "favor", "favor": f} for f in (1, 5, 6, 7)]
    old = act(s, 1, {"type": "favor-consolation"}, engine=V1_0)
    assert (P(old, 1)["vp"], P(old, 1)["money"]) == (1, 7)


# -- rules 1.3.0 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_starting_purse_is_two_3_coins_and_four_1_coins(n):
    """Rules 1.3.0 - rulebook Setup: "Each player receives: ... two coins of value $3 and four of
    value $1" (the per-player list: "6 coins (two $3 and four $1)"): $10, not $6. The components'
    36 coins (12 x $3, 24 x $1) make exactly four such purses. So a player can take the $3 magic
    class and still buy a $2 card and order an object on his first turn. 1.0.0-1.2.0 gave $6."""
    for engine, purse in ((E, 10), (V1_2, 6), (V1_1, 6), (V1_0, 6)):
        s = engine.initial_state(n, engine.check_options(n, {}))
        assert [p["money"] for p in s["players"]] == [purse] * n
        s = engine.step(s, CHANCE, engine.sample_chance(s, random.Random(n)))
        s = engine.step(s, CHANCE, {"type": "start", "seat": 0})
        assert engine.observation(s, 1)["players"]["money"] == [purse] * n


def test_setup_markers_accept_the_two_guilds_in_either_order():
    """Rules 1.3.0 - house rule S2: each player places "2 influence markers from his reserve in any
    guild(s)": a pair in no order, so [5, 2] is the listed [2, 5] (1.2.0 took only [2, 5])."""
    s = E.initial_state(2, E.check_options(2, {}))
    s = E.step(s, CHANCE, E.sample_chance(s, random.Random(0)))
    s = E.step(s, CHANCE, {"type": "start", "seat": 0})
    assert {"type": "setup-guild", "guilds": [5, 2]} not in E.legal_actions(s, 0)  # listed once
    t = E.step(s, 0, {"type": "setup-guild", "guilds": [5, 2]})
    assert P(t, 0)["guilds"] == [0, 1, 0, 0, 1, 0] and P(t, 0)["reserve"] == 10
    for bad in ([5, True], [5, 7], [2], [5, 2, 2], "25"):
        with pytest.raises(IllegalAction):
            E.step(s, 0, {"type": "setup-guild", "guilds": bad})
    old = V1_2.initial_state(2, V1_2.check_options(2, {}))
    old = V1_2.step(old, CHANCE, V1_2.sample_chance(old, random.Random(0)))
    old = V1_2.step(old, CHANCE, {"type": "start", "seat": 0})
    with pytest.raises(IllegalAction):
        V1_2.step(old, 0, {"type": "setup-guild", "guilds": [5, 2]})
    assert P(V1_2.step(old, 0, {"type": "setup-guild", "guilds": [2, 5]}), 0)["guilds"] == [0, 1, 0, 0, 1, 0]
