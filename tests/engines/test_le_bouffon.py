"""Hand-worked Le Bouffon cases, each citing the rule it checks.

"rulebook N" is point N of ../shared/rules/rulebooks/le-bouffon.txt ("Comment jouer?"); "house rule
5.x" is the Le Bouffon section of house-rules.md. Seats in the 4-player cases: 0 roi, 1 héritier,
2 ouvrier, 3 bouffon (so the order of play is 0, 1, 2, 3).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions, Phase
from domain.games import get_engine
from domain.games.le_bouffon import ENGINE
from domain.games.le_bouffon.cards import DECK, ROLES_BY_COUNT, STRENGTH, sort_cards
from domain.playout import new_match, next_step, play

ROLES4 = ["roi", "héritier", "ouvrier", "bouffon"]


def c(kind: str, copy: int = 1) -> str:
    """A card id: c("soldat-3", 2) == "soldat-3#2", c("archer") == "archer#1"."""
    return f"{kind}#{copy}"


def cards(kind: str, count: int, first: int = 1) -> list[str]:
    return [c(kind, copy) for copy in range(first, first + count)]


def filler(count: int, kind: str = "soldat-1", first: int = 1) -> list[str]:
    return cards(kind, count, first)


def play_state(hands, roles=None, deals=5, leader=None):
    """A state in the play phase with the given hands, the leader (default: the roi) to lead."""
    n = len(hands)
    roles = roles or (ROLES4 if n == 4 else list(ROLES_BY_COUNT[n]))
    state = ENGINE.initial_state(n, {"deals": deals})
    state.update(
        roles=list(roles),
        order=[roles.index(role) for role in ROLES_BY_COUNT[n]],
        hands=[sort_cards(hand) for hand in hands],
        phase="play",
    )
    state["trick"] = ENGINE._new_trick(roles.index("roi") if leader is None else leader)
    return state


def act(state, seat, kind, *played):
    action = {"type": kind} if kind == "pass" else {"type": kind, "cards": list(played)}
    ENGINE.check_action(state, seat, action)
    return ENGINE.step(state, seat, action)


def turn(state):
    return ENGINE.to_act(state).seats


def illegal(state, seat, action, rule_part=None):
    with pytest.raises(IllegalAction) as info:
        ENGINE.check_action(state, seat, action)
    with pytest.raises(IllegalAction):
        ENGINE.step(state, seat, action)
    if rule_part:
        assert rule_part in info.value.rule
    return info.value


def deal_with(state, hands_by_seat):
    """Apply a shuffle that deals exactly these hands (house rule 5.4 deal: role order from the roi)."""
    order_seats = state["order"]
    n = len(order_seats)
    pools = {seat: list(hands_by_seat[seat]) for seat in range(n)}
    order = []
    index = 0
    while any(pools.values()):
        seat = order_seats[index % n]
        assert pools[seat], "hand sizes do not match the deal"
        order.append(pools[seat].pop(0))
        index += 1
    return ENGINE.step(state, CHANCE, {"type": "shuffle", "order": order})


# -- registry, options -------------------------------------------------------------------------


def test_registered_and_options():
    assert get_engine("le-bouffon") is ENGINE
    defaults = {"deals": 5, "ties": "last-deal", "first_deal_exchange": False}
    assert ENGINE.default_options() == defaults
    assert ENGINE.check_options(4, {}) == defaults
    assert ENGINE.check_options(6, {"deals": 2}) == {**defaults, "deals": 2}
    # The options schema's "integer" takes 2.0 (JSON Schema): so does the engine, and keeps the int.
    assert ENGINE.check_options(4, {"deals": 2.0}) == {**defaults, "deals": 2} and type(ENGINE.check_options(
        4, {"deals": 2.0})["deals"]) is int
    for bad in ({"deals": 0}, {"deals": "2"}, {"deals": True}, {"rounds": 3}, {"deals": 2.5}):
        with pytest.raises(InvalidOptions):
            ENGINE.check_options(4, bad)
    for players in (2, 7):  # house rule 5.1: 3 to 6 players
        with pytest.raises(InvalidOptions):
            ENGINE.check_options(players, {})


# -- rulebook 1-2: roles and the deal ----------------------------------------------------------


def test_rulebook_2_deck_sizes_and_unique_ids():
    """Rulebook 2 / house rule 5.2: 54 cards for 3-4 players, two decks (108) for 5-6; unique ids."""
    for n, size in ((3, 54), (4, 54), (5, 108), (6, 108)):
        state = ENGINE.initial_state(n, {})
        state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, random.Random(n)))
        outcome = ENGINE.sample_chance(state, random.Random(n))
        assert len(outcome["order"]) == size == len(set(outcome["order"]))
    kinds = Counter(card.split("#")[0] for card in DECK[1])
    assert kinds["minotaure"] == 2 and kinds["paladin"] == 4 and kinds["soldat-8"] == 4 and len(kinds) == 14
    assert Counter(STRENGTH[card] for card in DECK[2])[14] == 4


def test_rulebook_1_first_roles_are_a_public_chance_draw():
    """Rulebook 1: roles are random in the first deal; house rule 5.4 roles by player count."""
    for n in (3, 4, 5, 6):
        state = ENGINE.initial_state(n, {})
        assert ENGINE.to_act(state).kind == Phase.CHANCE
        outcomes = ENGINE.chance_outcomes(state)
        assert len(outcomes) == {3: 6, 4: 24, 5: 120, 6: 720}[n]
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        outcome = outcomes[5][0]
        assert sorted(outcome["roles"]) == sorted(ROLES_BY_COUNT[n])
        assert ENGINE.chance_is_public(state, outcome)
        assert ENGINE.redact(state, CHANCE, outcome, None) == outcome
    assert ROLES_BY_COUNT[3] == ["roi", "noble", "bouffon"]
    assert ROLES_BY_COUNT[5] == ["roi", "héritier", "noble", "ouvrier", "bouffon"]
    state = ENGINE.initial_state(4, {})
    with pytest.raises(IllegalAction):
        ENGINE.step(state, CHANCE, {"type": "roles", "roles": ["roi", "roi", "ouvrier", "bouffon"]})
    with pytest.raises(IllegalAction):
        ENGINE.step(state, CHANCE, {"type": "roles", "roles": ["roi", "noble", "ouvrier", "bouffon"]})


def test_deal_starts_with_the_roi_and_shuffle_is_hidden():
    """House rule 5.4 deal: one card at a time in role order from the roi; extra cards go to the
    higher roles. Rulebook 4: the roi leads the first trick; no exchange in the first deal."""
    state = ENGINE.initial_state(4, {})
    state = ENGINE.step(state, CHANCE, {"type": "roles", "roles": ["ouvrier", "bouffon", "roi", "héritier"]})
    assert state["order"] == [2, 3, 0, 1]
    order = list(DECK[1])
    shuffled = ENGINE.step(state, CHANCE, {"type": "shuffle", "order": order})
    assert [len(hand) for hand in shuffled["hands"]] == [13, 13, 14, 14]
    assert order[0] in shuffled["hands"][2] and order[1] in shuffled["hands"][3] and order[2] in shuffled["hands"][0]
    assert shuffled["phase"] == "play" and turn(shuffled) == (2,)
    assert ENGINE.redact(state, CHANCE, {"type": "shuffle", "order": order}, 2) is None
    for bad in (order[:-1], order[:-1] + [order[0]], order + ["joker#1"]):
        with pytest.raises(IllegalAction):
            ENGINE.step(state, CHANCE, {"type": "shuffle", "order": bad})
    sizes = {}
    for n in (3, 5, 6):
        s = ENGINE.initial_state(n, {})
        s = ENGINE.step(s, CHANCE, {"type": "roles", "roles": list(ROLES_BY_COUNT[n])})
        s = ENGINE.step(s, CHANCE, ENGINE.sample_chance(s, random.Random(0)))
        sizes[n] = [len(hand) for hand in s["hands"]]
    assert sizes == {3: [18, 18, 18], 5: [22, 22, 22, 21, 21], 6: [18] * 6}


# -- rulebook 5-7: sets and following --------------------------------------------------------


def test_rulebook_5_sets_of_equal_strength():
    """Rulebook 5: two soldats of 3 may go together, a soldat 3 with an assassin may not; 1-4 cards."""
    state = play_state([cards("soldat-3", 2) + [c("assassin")] + cards("soldat-5", 4) + [c("soldat-5", 5)],
                        filler(5), filler(5, "soldat-4"), filler(5, "soldat-2")])
    assert act(state, 0, "play", c("soldat-3", 1), c("soldat-3", 2))["trick"]["top"]["count"] == 2
    illegal(state, 0, {"type": "play", "cards": [c("soldat-3"), c("assassin")]}, "rulebook 5")
    illegal(state, 0, {"type": "play", "cards": cards("soldat-5", 5)})  # no quintuple, even with 2 decks


def test_rulebook_6_follow_same_count_strictly_higher():
    """Rulebook 6: on three soldats of 6, three archers go; three soldats of 4 do not (weaker), two
    magiciens do not (wrong count), equal strength does not (only the bouffon's laugh)."""
    state = play_state([cards("soldat-6", 3) + filler(3),
                        cards("archer", 3) + cards("soldat-4", 3) + cards("magicien", 2),
                        cards("soldat-6", 1, 4) + filler(2, "soldat-2"),
                        filler(4, "soldat-3")])
    state = act(state, 0, "play", *cards("soldat-6", 3))
    assert turn(state) == (1,)
    illegal(state, 1, {"type": "play", "cards": cards("soldat-4", 3)}, "rulebook 6")
    illegal(state, 1, {"type": "play", "cards": cards("magicien", 2)}, "rulebook 6")
    legal = ENGINE.legal_actions(state, 1)
    assert {"type": "play", "cards": cards("archer", 3)} in legal and {"type": "pass"} in legal
    assert all(len(a.get("cards", [1, 2, 3])) == 3 for a in legal)
    after = act(state, 1, "play", *cards("archer", 3))
    assert after["trick"]["top"] == {"seat": 1, "cards": cards("archer", 3), "count": 3, "strength": 9, "kind": "set"}
    # Equal strength (a single soldat 6 on a single soldat 6) is refused to a non-bouffon.
    single = act(play_state([[c("soldat-6")] + filler(2), filler(3, "soldat-2"),
                             [c("soldat-6", 2)] + filler(2, first=3), filler(3, "soldat-3")]), 0, "play", c("soldat-6"))
    single = act(single, 1, "pass")
    illegal(single, 2, {"type": "play", "cards": [c("soldat-6", 2)]}, "rulebook 6")
    illegal(single, 2, {"type": "laugh", "cards": [c("soldat-6", 2)]}, "rulebook 10")


def test_rulebook_7_the_leader_plays_anything_and_must_play():
    """Rulebook 7: the first to play lays any set; house rule 5.4 leads: the leader may not pass."""
    state = play_state([[c("minotaure")] + cards("soldat-1", 4) + [c("archer")], filler(3, "soldat-2"),
                        filler(3, "soldat-3"), filler(3, "soldat-4")])
    legal = ENGINE.legal_actions(state, 0)
    assert {"type": "pass"} not in legal
    assert {"type": "play", "cards": cards("soldat-1", 4)} in legal
    assert {"type": "play", "cards": [c("minotaure")]} in legal
    assert len(legal) == 1 + 1 + (4 + 6 + 4 + 1)
    illegal(state, 0, {"type": "pass"}, "house rule 5.4")
    illegal(state, 0, {"type": "laugh", "cards": [c("archer")]})


# -- rulebook 4, 8, 9: order of play, the end of a trick ------------------------------------------


def test_rulebook_4_and_8_role_order_and_last_player_leads():
    """Rulebook 4: order roi, héritier, ouvrier, bouffon. Rulebook 8: the roi leads, the bouffon lays
    last: the trick ends (the roi may not play on the bouffon's cards) and the bouffon leads."""
    state = play_state([[c("soldat-2"), c("archer")] + filler(2), [c("soldat-4")] + filler(2, "soldat-3"),
                        [c("soldat-5")] + filler(2, first=3), [c("soldat-7")] + filler(2, "soldat-2", 2)],
                       roles=["roi", "héritier", "ouvrier", "bouffon"])
    seen = []
    for card in (c("soldat-2"), c("soldat-4"), c("soldat-5"), c("soldat-7")):
        seat = turn(state)[0]
        seen.append(seat)
        state = act(state, seat, "play", card)
    assert seen == [0, 1, 2, 3]
    trick = state["trick"]
    assert trick["top"] is None and trick["leader"] == 3 and turn(state) == (3,)
    assert ENGINE.legal_actions(state, 0) == []
    illegal(state, 0, {"type": "play", "cards": [c("archer")]}, "turn order")


def test_role_order_not_seat_order():
    """Rulebook 4: play follows the role hierarchy whatever the seats are."""
    roles = ["bouffon", "ouvrier", "roi", "héritier"]
    state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), filler(3, "soldat-1"), filler(3, "soldat-2")],
                       roles=roles)
    assert turn(state) == (2,)
    state = act(state, 2, "play", c("soldat-1"))
    assert turn(state) == (3,)
    state = act(state, 3, "pass")
    assert turn(state) == (1,)
    state = act(state, 1, "pass")
    assert turn(state) == (0,)


def test_rulebook_9_pass_and_last_layer_leads():
    """Rulebook 9: the bouffon cannot lay anything and passes; the ouvrier laid last and leads."""
    state = play_state([[c("soldat-2")] + filler(2), [c("soldat-4")] + filler(2, "soldat-3"),
                        [c("guerrier")] + filler(2, "soldat-2"), [c("soldat-7")] + filler(2, first=3)])
    state = act(state, 0, "play", c("soldat-2"))
    state = act(state, 1, "play", c("soldat-4"))
    state = act(state, 2, "play", c("guerrier"))
    assert ENGINE.legal_actions(state, 3) == [{"type": "pass"}]
    state = act(state, 3, "pass")
    assert state["trick"]["leader"] == 2 and turn(state) == (2,) and state["trick"]["top"] is None


def test_one_play_per_round_of_the_table():
    """House rule 5.3: each player acts at most once per round of the table; a pass is final for
    the trick. All pass after the lead: the leader, last to lay, leads again."""
    state = play_state([[c("archer"), c("soldat-2")] + filler(2),
                        [c("soldat-4"), c("assassin")] + filler(2, "soldat-3"),
                        filler(3, "soldat-5"), filler(3, first=4)])
    state = act(state, 0, "play", c("archer"))
    state = act(state, 1, "pass")
    state = act(state, 2, "pass")
    state = act(state, 3, "pass")
    assert state["trick"]["leader"] == 0 and state["trick"]["top"] is None and turn(state) == (0,)
    # héritier passed, bouffon lays later: the héritier does not get a second chance at this trick
    state = act(state, 0, "play", c("soldat-2"))
    state = act(state, 1, "pass")
    state = act(state, 2, "play", c("soldat-5"))
    state = act(state, 3, "pass")
    assert state["trick"]["leader"] == 2


# -- rulebook 10: the laugh ---------------------------------------------------------------------


def test_rulebook_10_the_laugh_ends_the_trick():
    """Rulebook 10: the ouvrier leads an archer, the bouffon plays an archer too: the trick ends, the
    roi and héritier do not play, the bouffon leads the next trick."""
    state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), [c("archer")] + filler(2),
                        [c("archer", 2)] + filler(2, "soldat-2")], leader=2)
    state = act(state, 2, "play", c("archer"))
    assert {"type": "laugh", "cards": [c("archer", 2)]} in ENGINE.legal_actions(state, 3)
    state = act(state, 3, "laugh", c("archer", 2))
    assert state["trick"]["leader"] == 3 and state["trick"]["top"] is None and turn(state) == (3,)
    assert state["hands"][0] == filler(3, "soldat-8") and len(state["hands"][3]) == 2
    assert c("archer", 2) in state["played"]


def test_the_bouffon_playing_the_top_again_as_a_play_is_told_the_laugh():
    """Rulebook 10 tells the laugh as playing the same cards: sent as a "play" it is refused (rulebook 6:
    strictly stronger), and the refusal names the laugh action."""
    state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), [c("archer")] + filler(2),
                        [c("archer", 2)] + filler(2, "soldat-2")], leader=2)
    state = act(state, 2, "play", c("archer"))
    with pytest.raises(IllegalAction, match='"laugh"'):
        ENGINE.check_action(state, 3, {"type": "play", "cards": [c("archer", 2)]})


def test_laugh_limits():
    """House rule 5.4 rire du bouffon: only the bouffon, only with the very count and strength of
    the top, never on a lead; a non-bouffon has no laugh."""
    state = play_state([cards("soldat-5", 2) + filler(2), [c("soldat-5", 3)] + filler(2, "soldat-2"),
                        filler(3, first=3), cards("soldat-5", 1, 4) + [c("soldat-6")] + filler(2, "soldat-2", 4)])
    state = act(state, 0, "play", *cards("soldat-5", 2))
    illegal(state, 1, {"type": "laugh", "cards": [c("soldat-5", 3)]}, "rulebook 10")
    state = act(state, 1, "pass")
    state = act(state, 2, "pass")
    illegal(state, 3, {"type": "laugh", "cards": [c("soldat-5", 4)]}, "rulebook 10")  # one card on a pair
    illegal(state, 3, {"type": "laugh", "cards": [c("soldat-6")]}, "rulebook 10")
    assert not [a for a in ENGINE.legal_actions(state, 3) if a["type"] == "laugh"]
    lead = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), filler(3, "soldat-6"), filler(3)], leader=3)
    illegal(lead, 3, {"type": "laugh", "cards": [c("soldat-1")]}, "house rule 5.4")


def test_laugh_on_paladin_exception_uses_the_same_paladins():
    """House rule 5.4: the laugh on k paladins laid as k+1 cards is the same k paladins."""
    state = play_state([cards("soldat-3", 3) + filler(1), [c("paladin"), c("paladin", 2)] + filler(2, "soldat-2"),
                        filler(3, first=2), cards("paladin", 2, 3) + [c("soldat-2", 5)]])
    state = act(state, 0, "play", *cards("soldat-3", 3))
    state = act(state, 1, "play", c("paladin"), c("paladin", 2))
    state = act(state, 2, "pass")
    illegal(state, 3, {"type": "laugh", "cards": [c("paladin", 3)]}, "rulebook 10")
    assert {"type": "laugh", "cards": cards("paladin", 2, 3)} in ENGINE.legal_actions(state, 3)
    state = act(state, 3, "laugh", *cards("paladin", 2, 3))
    assert state["trick"]["leader"] == 3


def test_laugh_with_last_cards_goes_out_and_next_active_leads():
    """Finishing on a laugh is allowed (house rule 5.4 end of a deal); the laugher is out, so the next
    active player in role order (the roi) leads."""
    state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), [c("guerrier")] + filler(2),
                        [c("guerrier", 2)]], leader=2)
    state = act(state, 2, "play", c("guerrier"))
    state = act(state, 3, "laugh", c("guerrier", 2))
    assert state["finished"] == [3]
    assert state["trick"]["leader"] == 0 and turn(state) == (0,)


# -- exceptions: paladin and minotaure ---------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3])
def test_paladin_exception_k_on_k_plus_1(k):
    """House rule 5.2 [FOUND]: one paladin beats a pair, two a triple, three a quadruple; the new top
    counts as k+1 cards of paladin strength (house rule 5.4)."""
    state = play_state([cards("assassin", k + 1) + filler(2), cards("paladin", 4) + filler(1, "soldat-2"),
                        filler(3, first=3), filler(3, "soldat-3")])
    state = act(state, 0, "play", *cards("assassin", k + 1))
    legal = ENGINE.legal_actions(state, 1)
    assert {"type": "play", "cards": cards("paladin", k)} in legal
    plays = {len(a["cards"]) for a in legal if a["type"] == "play"}
    assert plays == {k, k + 1}  # k paladins (exception) or k+1 paladins (the usual rule)
    after = act(state, 1, "play", *cards("paladin", k))
    top = after["trick"]["top"]
    assert (top["count"], top["strength"], top["kind"], len(top["cards"])) == (k + 1, 13, "paladin", k)


def test_paladin_exception_limits():
    """House rule 5.4: exactly k paladins on k+1 cards weaker than paladin; not on a single, not
    1 paladin on a triple; the paladin top is not beaten by k+1 paladins."""
    state = play_state([cards("soldat-3", 3) + [c("soldat-4")] + filler(1), cards("paladin", 4) + filler(1, "soldat-2"),
                        filler(3, first=3), filler(3, "soldat-3", 4)])
    triple = act(state, 0, "play", *cards("soldat-3", 3))
    illegal(triple, 1, {"type": "play", "cards": [c("paladin")]}, "rulebook 6")
    assert {"type": "play", "cards": cards("paladin", 2)} in ENGINE.legal_actions(triple, 1)
    single = act(state, 0, "play", c("soldat-4"))
    assert {len(a["cards"]) for a in ENGINE.legal_actions(single, 1) if a["type"] == "play"} == {1}
    pair_state = play_state([cards("soldat-3", 2) + filler(2), [c("paladin")] + filler(2, "soldat-2"),
                             cards("paladin", 2, 2) + filler(1, first=5), filler(3, "soldat-3", 4)])
    pal = act(act(pair_state, 0, "play", *cards("soldat-3", 2)), 1, "play", c("paladin"))
    illegal(pal, 2, {"type": "play", "cards": cards("paladin", 2, 2)}, "rulebook 6")
    illegal(pal, 2, {"type": "play", "cards": [c("paladin", 2)]}, "rulebook 6")


def test_paladin_top_beaten_by_one_minotaure_or_k_plus_1_minotaures():
    """House rule 5.4: a k-paladin top (k+1 cards) falls to 1 minotaure or to k+1 minotaures (2 decks)."""
    hands = [cards("soldat-3", 2) + filler(2), [c("paladin")] + filler(2, "soldat-2"),
             cards("minotaure", 2) + filler(1, first=5), filler(3, "soldat-3", 4), filler(3, "soldat-4")]
    state = play_state(hands)  # 5 players: roi 0, héritier 1, noble 2, ouvrier 3, bouffon 4
    state = act(act(state, 0, "play", *cards("soldat-3", 2)), 1, "play", c("paladin"))
    legal = [a for a in ENGINE.legal_actions(state, 2) if a["type"] == "play"]
    assert sorted(len(a["cards"]) for a in legal) == [1, 1, 2]
    one = act(state, 2, "play", c("minotaure"))
    assert one["trick"]["top"]["kind"] == "minotaure" and one["trick"]["top"]["count"] == 2
    two = act(state, 2, "play", *cards("minotaure", 2))
    assert two["trick"]["top"]["kind"] == "set" and two["trick"]["top"]["strength"] == 14


@pytest.mark.parametrize("size", [2, 3, 4])
def test_minotaure_exception_beats_pairs_triples_quadruples(size):
    """House rule 5.2 [FOUND]: one minotaure beats a pair, a triple or a quadruple."""
    state = play_state([cards("paladin", size) + filler(1), [c("minotaure")] + filler(2, "soldat-2"),
                        filler(3, first=3), filler(3, "soldat-3")])
    state = act(state, 0, "play", *cards("paladin", size))
    after = act(state, 1, "play", c("minotaure"))
    top = after["trick"]["top"]
    assert (top["count"], top["strength"], top["kind"]) == (size, 14, "minotaure")


def test_minotaure_single_is_unbeatable_but_laughable():
    """House rule 5.4: nothing beats a single minotaure (equal strength is refused, rulebook 6); the
    bouffon may laugh with the other minotaure."""
    state = play_state([[c("minotaure")] + filler(2), filler(3, "soldat-2"), filler(3, first=3),
                        [c("minotaure", 2)] + filler(2, "soldat-3")])
    state = act(act(act(state, 0, "play", c("minotaure")), 1, "pass"), 2, "pass")
    illegal(state, 3, {"type": "play", "cards": [c("minotaure", 2)]}, "rulebook 6")
    assert ENGINE.legal_actions(state, 3) == [{"type": "pass"}, {"type": "laugh", "cards": [c("minotaure", 2)]}]


def test_minotaure_exception_top_beaten_only_by_same_size_minotaures():
    """House rule 5.4: 1 minotaure laid on a pair is beaten only by a pair of minotaures (2 decks),
    not by another single minotaure; the laugh on it is one minotaure."""
    hands = [cards("soldat-8", 2) + filler(2), [c("minotaure")] + filler(2, "soldat-2"),
             [c("minotaure", 2)] + filler(2, first=3), cards("minotaure", 2, 3) + filler(1, "soldat-3"),
             filler(3, "soldat-4")]
    state = play_state(hands)  # 5 players: roi 0, héritier 1, noble 2, ouvrier 3, bouffon 4
    state = act(act(state, 0, "play", *cards("soldat-8", 2)), 1, "play", c("minotaure"))
    illegal(state, 2, {"type": "play", "cards": [c("minotaure", 2)]}, "rulebook 6")
    state = act(state, 2, "pass")
    assert {"type": "play", "cards": cards("minotaure", 2, 3)} in ENGINE.legal_actions(state, 3)
    bouffon = play_state([cards("soldat-8", 2) + filler(2), [c("minotaure")] + filler(2, "soldat-2"),
                          filler(3, first=3), filler(3, "soldat-3"), [c("minotaure", 2)] + filler(2, "soldat-4")])
    bouffon = act(act(act(act(bouffon, 0, "play", *cards("soldat-8", 2)), 1, "play", c("minotaure")), 2, "pass"),
                  3, "pass")
    assert {"type": "laugh", "cards": [c("minotaure", 2)]} in ENGINE.legal_actions(bouffon, 4)
    # Sent as a play, the refusal tells him the count, and that those cards are his laugh.
    refused = illegal(bouffon, 4, {"type": "play", "cards": [c("minotaure", 2)]}, "rulebook 6")
    assert "2 card(s)" in refused.detail and '"laugh"' in refused.detail


# -- going out, end of the deal, scoring, next roles ---------------------------------------------------


def test_player_out_is_skipped_and_next_active_leads():
    """House rule 5.4 leads: a player with an empty hand is skipped; if the last to lay is out, the
    next active player in role order leads."""
    state = play_state([filler(3, "soldat-8"), [c("archer")], filler(3, first=3), filler(3, "soldat-3")])
    state = act(state, 0, "play", c("soldat-8"))
    state = act(state, 1, "play", c("archer"))
    assert state["finished"] == [1]
    state = act(act(state, 2, "pass"), 3, "pass")
    assert state["trick"]["leader"] == 2 and turn(state) == (2,)
    state = act(state, 2, "play", c("soldat-1", 3))
    assert turn(state) == (3,)
    state = act(state, 3, "pass")
    assert turn(state) == (0,)


def test_end_of_deal_scoring_and_new_roles():
    """Rulebook 1 (4 players): the ouvrier finishes first and becomes roi, the roi second becomes
    héritier, the bouffon third becomes ouvrier, the last (héritier) becomes bouffon. House rule 5.4
    match: points = players - finishing place (3, 2, 1, 0)."""
    state = play_state([[c("soldat-5"), c("soldat-2")], [c("soldat-1"), c("soldat-1", 2), c("soldat-1", 3)],
                        [c("archer")], [c("soldat-3"), c("soldat-6")]], deals=2, leader=2)
    state = act(state, 2, "play", c("archer"))  # the ouvrier goes out first
    state = act(act(state, 3, "pass"), 0, "pass")
    state = act(state, 1, "pass")
    assert turn(state) == (3,)  # the ouvrier is out: the next in role order (the bouffon) leads
    state = act(state, 3, "play", c("soldat-3"))
    state = act(state, 0, "play", c("soldat-5"))
    state = act(state, 1, "pass")
    state = act(state, 0, "play", c("soldat-2"))  # the roi goes out second
    state = act(state, 1, "pass")
    state = act(state, 3, "play", c("soldat-6"))  # the bouffon goes out third: the héritier is left
    assert ENGINE.to_act(state).kind == Phase.AUTO
    # The trick the deal ended in stays in view until it is scored, but it names no seat to play:
    # the seat it named last had just gone out.
    ended = ENGINE.public_observation(state)["trick"]
    assert ended["turn"] is None and ended["plays"][-1] == [3, "play", [c("soldat-6")]]
    auto = ENGINE.auto_action(state)
    assert auto == {"type": "score-deal", "deal": 1, "order": [2, 0, 3, 1], "points": [2, 0, 3, 1],
                    "totals": [2, 0, 3, 1], "roles": {"roi": 2, "héritier": 0, "ouvrier": 3, "bouffon": 1}}
    with pytest.raises(IllegalAction):
        ENGINE.step(state, SYSTEM, dict(auto, points=[3, 2, 1, 0]))
    with pytest.raises(IllegalAction):
        ENGINE.step(state, 1, {"type": "pass"})
    state = ENGINE.step(state, SYSTEM, auto)
    assert state["roles"] == ["héritier", "bouffon", "roi", "ouvrier"] and state["order"] == [2, 0, 3, 1]
    assert ENGINE.to_act(state).kind == Phase.CHANCE and state["deal"] == 2 and state["scores"] == [2, 0, 3, 1]
    assert all(hand == [] for hand in state["hands"])


def _second_deal_state(n):
    """A state at the start of deal 2 with roles in seat order (seat 0 roi ... seat n-1 bouffon)."""
    state = ENGINE.initial_state(n, {"deals": 2})
    state.update(phase="shuffle", deal=2, roles=list(ROLES_BY_COUNT[n]), order=list(range(n)))
    return state


def test_rulebook_3_exchange_four_players():
    """Rulebook 3: the roi gives 2 cards of his choice to the bouffon, who gives his 2 strongest; the
    héritier gives 1 to the ouvrier, who gives his strongest; both worked out on the hands before
    any exchange (house rule 5.4): the bouffon never hands back the roi's gift."""
    deck = list(DECK[1])
    hands = {0: [], 1: [], 2: [], 3: []}
    special = {3: cards("minotaure", 2) + [c("soldat-2")], 2: [c("paladin"), c("assassin")],
               0: [c("paladin", 2), c("soldat-1")]}
    rest = [card for card in deck if card not in sum(special.values(), [])]
    for seat in range(4):
        hands[seat] = list(special.get(seat, []))
    sizes = [14, 14, 13, 13]
    weak_first = sort_cards(rest)
    # give the bouffon and ouvrier only weak extra cards so their strongest are the special ones
    for seat in (3, 2, 1, 0):
        while len(hands[seat]) < sizes[seat]:
            hands[seat].append(weak_first.pop(0) if seat in (2, 3) else weak_first.pop())
    state = deal_with(_second_deal_state(4), hands)
    assert state["phase"] == "exchange"
    assert turn(state) == (0, 1)  # the roi and the héritier choose at the same time
    assert ENGINE.legal_actions(state, 2) == [] and ENGINE.legal_actions(state, 3) == []
    assert len(ENGINE.legal_actions(state, 0)) == 14 * 13 // 2
    illegal(state, 0, {"type": "give", "cards": [c("paladin", 2)]}, "rulebook 3")
    illegal(state, 1, {"type": "give", "cards": [c("paladin", 2)]}, "own cards")
    illegal(state, 1, {"type": "play", "cards": [hands[1][0]]}, "rulebook 3")
    # No action at all (an unknown type) is `action format` in every phase, as docs/clients.md says: it
    # was `rulebook 3` during the exchange (a referee's probe).
    assert illegal(state, 0, {"type": "dance"}).rule == "action format"
    gift = {"type": "give", "cards": [c("paladin", 2), c("soldat-1")]}
    after_roi = ENGINE.step(state, 0, gift)
    assert turn(after_roi) == (1,)
    assert ENGINE.redact(state, 0, gift, 3) == gift and ENGINE.redact(state, 0, gift, 0) == gift
    assert ENGINE.redact(state, 0, gift, 1) == {"type": "give", "count": 2}
    assert ENGINE.redact(state, 0, gift, None) == {"type": "give", "count": 2}
    assert "gift" in ENGINE.observation(after_roi, 0) and "gift" not in ENGINE.observation(after_roi, 3)
    herit_gift = hands[1][0]
    done = ENGINE.step(after_roi, 1, {"type": "give", "cards": [herit_gift]})
    assert done["phase"] == "play" and turn(done) == (0,)
    assert set(cards("minotaure", 2)) <= set(done["hands"][0])
    assert c("paladin", 2) in done["hands"][3] and c("soldat-1") in done["hands"][3]
    assert c("paladin") in done["hands"][1] and herit_gift in done["hands"][2]
    assert [len(h) for h in done["hands"]] == sizes
    assert done["exchanged"][0] == {"gave": sort_cards([c("paladin", 2), c("soldat-1")]),
                                    "received": cards("minotaure", 2)}
    assert done["exchanged"][2] == {"gave": [c("paladin")], "received": [herit_gift]}
    assert ENGINE.observation(done, 3)["exchange"]["received"] == sort_cards([c("paladin", 2), c("soldat-1")])


def test_exchange_uses_hands_before_gifts():
    """House rule 5.4 exchange: the bouffon's strongest are taken from his hand before the roi's gift,
    so a minotaure gift stays with him. Three players: only roi and bouffon exchange (rulebook 3: the
    noble gives nothing)."""
    deck = sort_cards(DECK[1])
    hands = {0: [c("minotaure"), c("minotaure", 2)] + deck[:16], 1: deck[16:34], 2: deck[34:52]}
    assert len(hands[2]) == 18 and len(set(sum(hands.values(), []))) == 54
    state = deal_with(_second_deal_state(3), hands)
    assert turn(state) == (0,)
    done = ENGINE.step(state, 0, {"type": "give", "cards": cards("minotaure", 2)})
    assert set(cards("minotaure", 2)) <= set(done["hands"][2])
    assert set(ENGINE.strongest(hands[2], 2, state["dealt"])) <= set(done["hands"][0])
    assert done["hands"][1] == sort_cards(hands[1])


def _bouffon_gives(engine, bouffon_hand: list[str]) -> list[str]:
    """What the roi receives in a three-player deal 2 where the bouffon (seat 2) is dealt
    ``bouffon_hand`` in that order; the rest of one deck goes to the roi and the noble."""
    rest = [card for card in sort_cards(DECK[1]) if card not in bouffon_hand]  # weakest first
    fill = 18 - len(bouffon_hand)
    hands = {2: bouffon_hand + rest[:fill], 0: rest[fill:fill + 18], 1: rest[fill + 18:]}
    state = _second_deal_state(3)
    state = engine.step(state, CHANCE, {"type": "shuffle", "order": [
        hands[seat].pop(0) for _ in range(18) for seat in (0, 1, 2)]})
    done = engine.step(state, 0, {"type": "give", "cards": state["hands"][0][:2]})
    return done["exchanged"][0]["received"]


def test_rulebook_3_the_strongest_copies_given_are_those_dealt_first():
    """Rulebook 3: the bouffon gives "ses deux meilleures cartes"; copies of a kind are interchangeable
    (docs/rules/le-bouffon.md 1), so which copy goes is the engine's choice. Rules 1.1.0 give the copies
    dealt first (the shuffle is secret, so the choice is as good as random): receiving paladin#1 no longer
    tells the roi that the bouffon holds no paladin#2 (1.0.0 gave the highest copy numbers, a leak)."""
    first, second = [c("paladin", 1), c("paladin", 2)], [c("paladin", 2), c("paladin", 1)]
    assert _bouffon_gives(ENGINE, [c("minotaure")] + first) == sort_cards([c("paladin", 1), c("minotaure")])
    assert _bouffon_gives(ENGINE, [c("minotaure")] + second) == sort_cards([c("paladin", 2), c("minotaure")])
    # With three paladins and no minotaure: the two dealt first, whatever their numbers.
    three = [c("paladin", 3), c("paladin", 1), c("paladin", 2)]
    assert _bouffon_gives(ENGINE, three) == [c("paladin", 1), c("paladin", 3)]
    # Rules 1.0.0, which stored matches keep: the highest copy numbers, whatever the deal's order.
    old = get_engine("le-bouffon", "1.0.0")
    assert _bouffon_gives(old, [c("minotaure")] + first) == sort_cards([c("paladin", 2), c("minotaure")])
    assert _bouffon_gives(old, three) == [c("paladin", 2), c("paladin", 3)]


def test_the_copy_received_says_nothing_of_the_givers_other_copies():
    """Hidden information (rulebook 3: only the two players see the exchange): over random deals, given
    the copy the roi receives, every other copy of that kind is as likely in the bouffon's hand as not
    in it. Under 1.0.0 a received paladin#1 meant the bouffon held no paladin #2-#4."""
    rng = random.Random(5)
    held_with_1 = Counter()
    received_1 = 0
    for _ in range(3000):
        state = _second_deal_state(3)
        order = list(DECK[1])
        rng.shuffle(order)
        state = ENGINE.step(state, CHANCE, {"type": "shuffle", "order": order})
        bouffon = state["hands"][2]
        if c("paladin", 1) not in bouffon or any(card.startswith("minotaure") for card in bouffon):
            continue
        done = ENGINE.step(state, 0, {"type": "give", "cards": state["hands"][0][:2]})
        if c("paladin", 1) in done["exchanged"][0]["received"] and len(
                [card for card in bouffon if card.startswith("paladin")]) >= 3:
            received_1 += 1
            held_with_1.update(card for card in bouffon if card.startswith("paladin#") and card != c("paladin", 1))
    assert received_1 > 40
    # Each of #2-#4 held about equally often alongside a received #1 (never under 1.0.0's rule, where
    # #1 came only when the bouffon held at most one other copy).
    assert all(held_with_1[c("paladin", k)] > received_1 * 0.4 for k in (2, 3, 4)), (received_1, held_with_1)


def test_no_exchange_in_the_first_deal():
    """House rule 5.4 exchange: none in the first deal (roles are random)."""
    state = ENGINE.initial_state(4, {})
    state = ENGINE.step(state, CHANCE, {"type": "roles", "roles": ROLES4})
    state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, random.Random(3)))
    assert state["phase"] == "play" and turn(state) == (0,)


def test_match_result_and_tiebreak():
    """House rule 5.4 match: the highest total wins; a tie goes to the better place in the last deal."""
    state = ENGINE.initial_state(3, {"deals": 2})
    state.update(phase="over", deal=2, scores=[2, 2, 2], history=[
        {"deal": 1, "order": [0, 1, 2], "points": [2, 1, 0]},
        {"deal": 2, "order": [2, 1, 0], "points": [0, 1, 2]}])
    result = ENGINE.result(state)
    assert result.ranks == (3, 2, 1) and result.winners == (2,)
    state["scores"] = [3, 2, 1]
    assert ENGINE.result(state).ranks == (1, 2, 3)
    assert ENGINE.result(ENGINE.initial_state(3, {})) is None


# -- malformed actions, observations ----------------------------------------------------------------


def test_malformed_actions_raise_illegal_action():
    state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), filler(3, "soldat-6"), filler(3)])
    bad_actions = [
        None, [], "pass", {}, {"type": 3}, {"type": "jump"}, {"type": "play"}, {"type": "play", "cards": "soldat-8#1"},
        {"type": "play", "cards": []}, {"type": "play", "cards": [1]}, {"type": "play", "cards": [c("soldat-8")] * 2},
        {"type": "play", "cards": [c("soldat-8")], "extra": 1}, {"type": "play", "cards": [c("soldat-7")]},
        {"type": "give", "cards": [c("soldat-8")]},
    ]
    for action in bad_actions:
        with pytest.raises(IllegalAction):
            ENGINE.check_action(state, 0, action)
        with pytest.raises(IllegalAction):
            ENGINE.step(state, 0, action)
    for seat in (1, 4, -1, "0", None, CHANCE):
        with pytest.raises(IllegalAction):
            ENGINE.check_action(state, seat, {"type": "play", "cards": [c("soldat-8")]})
    moved = act(state, 0, "play", c("soldat-8"))
    with pytest.raises(IllegalAction):
        ENGINE.check_action(moved, 1, {"type": "pass", "cards": []})
    # cards in any order are accepted
    pair = play_state([cards("soldat-8", 2) + filler(1), filler(3, "soldat-7"), filler(3, "soldat-6"), filler(3)])
    assert act(pair, 0, "play", c("soldat-8", 2), c("soldat-8", 1))["trick"]["top"]["cards"] == cards("soldat-8", 2)


def test_observation_shows_own_hand_and_counts_only():
    state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), filler(2, "soldat-6"), filler(4)])
    obs = ENGINE.observation(state, 1)
    assert obs["hand"] == filler(3, "soldat-7") and obs["hand_counts"] == [3, 3, 2, 4]
    assert obs["seat"] == 1 and obs["roles"] == ROLES4 and obs["trick"]["turn"] == 0
    text = repr(obs)
    assert "soldat-8" not in text and "soldat-6" not in text and "soldat-1" not in text
    public = ENGINE.public_observation(state)
    assert "hand" not in public and "soldat" not in repr(public)


def test_legal_actions_agree_with_check_action():
    """Every set a player could name (1-4 cards of one strength from his hand, plus pass and laugh)
    is accepted by check_action exactly when legal_actions lists it (rulebook 5, 6, 10; house rule 5.4)."""
    from itertools import combinations

    rng = random.Random(7)
    checked = 0
    for n in (3, 4, 5, 6):
        for game in range(3):
            state = ENGINE.initial_state(n, {"deals": 2})
            while (chosen := next_step(ENGINE, state, rng)) is not None:
                seat, action = chosen
                if type(seat) is int and state["phase"] == "play" and rng.random() < 0.3:
                    legal = ENGINE.legal_actions(state, seat)
                    groups = {}
                    for card in state["hands"][seat]:
                        groups.setdefault(STRENGTH[card], []).append(card)
                    candidates = [{"type": "pass"}]
                    for same in groups.values():
                        for size in range(1, min(4, len(same)) + 1):
                            for combo in combinations(same, size):
                                candidates += [{"type": t, "cards": list(combo)} for t in ("play", "laugh")]
                    for action in candidates:
                        try:
                            ENGINE.check_action(state, seat, action)
                            accepted = True
                        except IllegalAction:
                            accepted = False
                        assert accepted == (action in legal), (action, state["trick"]["top"])
                        checked += 1
                state = ENGINE.step(state, *chosen)
    assert checked > 1000


def test_bots_play_whole_matches_from_observations_only():
    """The bots (random, basic) choose legal actions from a seat's observation; the basic bot laughs
    when it can (rulebook 10) and gives its weakest cards (rulebook 3)."""
    bots = ENGINE.bots()
    assert {"random", "basic"} <= set(bots)
    rng = random.Random(11)

    def by_bot(state, seat, legal, rng):
        action = bots["basic" if seat % 2 else "random"](ENGINE.observe(state, seat), legal, rng)
        assert action in legal
        return action

    for n in (3, 4, 5, 6):
        outcome = play(ENGINE, new_match(ENGINE, n, {"deals": 2}), rng, policy=by_bot, checked=True)
        assert outcome.result is not None and ENGINE.result(outcome.state) is not None
    laugh_state = play_state([filler(3, "soldat-8"), filler(3, "soldat-7"), [c("archer")] + filler(2),
                              [c("archer", 2), c("assassin")] + filler(2, "soldat-2")], leader=2)
    laugh_state = act(laugh_state, 2, "play", c("archer"))
    legal = ENGINE.legal_actions(laugh_state, 3)
    assert bots["basic"](ENGINE.observation(laugh_state, 3), legal, rng) == {"type": "laugh", "cards": [c("archer", 2)]}
    gift = bots["basic"]({}, [{"type": "give", "cards": [c("minotaure"), c("soldat-1")]},
                              {"type": "give", "cards": [c("soldat-1"), c("soldat-2")]}], rng)
    assert gift == {"type": "give", "cards": [c("soldat-1"), c("soldat-2")]}


def test_exchange_six_players_noble_and_marchand_keep_their_hands():
    """Rulebook 3: noble and marchand give nothing; with two decks the bouffon still gives exactly his
    2 strongest and the ouvrier his strongest (house rule 5.4: on the hands before any exchange)."""
    state = _second_deal_state(6)  # seats 0 roi, 1 héritier, 2 noble, 3 marchand, 4 ouvrier, 5 bouffon
    state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, random.Random(21)))
    before = [list(hand) for hand in state["hands"]]
    assert turn(state) == (0, 1) and ENGINE.public_observation(state)["waiting"] == [0, 1]
    assert ENGINE.legal_actions(state, 2) == [] and ENGINE.legal_actions(state, 3) == []
    state = ENGINE.step(state, 1, {"type": "give", "cards": [before[1][0]]})
    assert ENGINE.public_observation(state)["waiting"] == [0]
    state = ENGINE.step(state, 0, {"type": "give", "cards": before[0][:2]})
    assert state["hands"][2] == before[2] and state["hands"][3] == before[3]
    strongest_b = sort_cards(before[5])[-2:]
    strongest_o = sort_cards(before[4])[-1:]
    assert max(STRENGTH[card] for card in before[5]) == STRENGTH[strongest_b[-1]]
    assert sorted(state["hands"][0]) == sorted([card for card in before[0] if card not in before[0][:2]] + strongest_b)
    assert sorted(state["hands"][5]) == sorted([card for card in before[5] if card not in strongest_b] + before[0][:2])
    assert sorted(state["hands"][1]) == sorted(before[1][1:] + strongest_o)
    assert sorted(state["hands"][4]) == sorted([card for card in before[4] if card not in strongest_o] + [before[1][0]])
    assert turn(state) == (0,) and state["trick"]["top"] is None


def test_changing_an_observation_changes_nothing_in_the_match():
    """Issue 9 (docs/rules/le-bouffon.md §8): observations are fresh copies. Before, the observation
    handed out the state's own hand, plays and roles, so a caller changing it changed the match."""
    import copy

    rng = random.Random(4)
    state = new_match(ENGINE, 4, {"deals": 2})
    while state["phase"] != "play" or not state["trick"]["plays"]:
        state = ENGINE.step(state, *next_step(ENGINE, state, rng))
    before = copy.deepcopy(state)
    for observation in [ENGINE.public_observation(state)] + [ENGINE.observation(state, s) for s in range(4)]:
        for key, value in observation.items():
            if isinstance(value, list):
                value.append("x")
        observation["trick"]["plays"].append("x")
        observation["trick"]["top"]["cards"].append("x")
    assert state == before
    assert ENGINE.result(state) is None


def test_a_bool_is_no_seat_and_a_tampered_shuffle_is_refused_through_step():
    """Issue 9: ``step`` refuses ``True`` for seat 1 (Python's ``True == 1``) and a shuffle that is
    not exactly a permutation of the deck (rulebook 2), though ``apply`` (trusted) would not check."""
    state = new_match(ENGINE, 4, {"deals": 1})
    state = ENGINE.step(state, CHANCE, {"type": "roles", "roles": ["ouvrier", "roi", "bouffon", "héritier"]})
    order = list(DECK[1])
    for bad in (order[:-1], order[:-1] + [order[0]], order + ["paladin#9"], order[:-1] + ["minotaure#3"]):
        with pytest.raises(IllegalAction):
            ENGINE.step(state, CHANCE, {"type": "shuffle", "order": bad})
    state = ENGINE.step(state, CHANCE, {"type": "shuffle", "order": order})
    assert ENGINE.to_act(state).seats == (1,)  # the roi leads (rulebook 4)
    action = ENGINE.legal_actions(state, 1)[0]
    with pytest.raises(IllegalAction):
        ENGINE.step(state, True, action)
    assert ENGINE.step(state, 1, action) != state
