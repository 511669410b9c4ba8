"""Independent audit of the Le Bouffon engine: hand-worked cases for rule statements that
tests/engines/test_le_bouffon.py does not already pin down.

"rulebook N" is point N of "Comment jouer?" in ../shared/rules/rulebooks/le-bouffon.txt; "house rule
5.x" is the Le Bouffon section of ../shared/rules/house-rules.md. States are built through the public
API wherever practical: ``initial_state``, the public roles draw, a chosen shuffle that deals the wanted
hands (house rule 5.4 deal: one card at a time in role order from the roi), then ``apply``.
"""

from __future__ import annotations

import random

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, Phase, RuleViolation
from domain.games.le_bouffon import ENGINE
from domain.games.le_bouffon.cards import DECK, ROLES_BY_COUNT, STRENGTH, decks_for, sort_cards
from domain.playout import next_step


def c(kind: str, copy: int = 1) -> str:
    return f"{kind}#{copy}"


def cards(kind: str, count: int, first: int = 1) -> list[str]:
    return [c(kind, copy) for copy in range(first, first + count)]


def hand_sizes(n: int) -> list[int]:
    """Hand sizes in role order (house rule 5.4 deal: the higher roles take the extra cards)."""
    total = len(DECK[decks_for(n)])
    return [total // n + (1 if place < total % n else 0) for place in range(n)]


def shuffle_for(state, wanted: dict, fill_first=()) -> dict:
    """A shuffle outcome that gives each seat its ``wanted`` cards, filled up with the remaining
    cards of the deck weakest first (the seats of ``fill_first`` first, then in role order), dealt
    one at a time from the roi."""
    n = state["n"]
    order_seats = state["order"]
    used = [card for chosen in wanted.values() for card in chosen]
    assert len(used) == len(set(used))
    rest = [card for card in sort_cards(DECK[decks_for(n)]) if card not in used]
    full = {}
    for seat in list(fill_first) + [seat for seat in order_seats if seat not in fill_first]:
        hand = list(wanted.get(seat, []))
        need = hand_sizes(n)[order_seats.index(seat)] - len(hand)
        assert need >= 0
        hand += rest[:need]
        rest = rest[need:]
        full[seat] = hand
    assert not rest
    order = []
    for index in range(len(DECK[decks_for(n)])):
        seat = order_seats[index % n]
        order.append(full[seat][index // n])
    return {"type": "shuffle", "order": order}


def start(roles: list[str], wanted_by_role: dict, deals: int = 5):
    """Deal 1 through the public API: the roles draw, then a shuffle dealing the wanted cards."""
    n = len(roles)
    state = ENGINE.initial_state(n, {"deals": deals})
    state = ENGINE.step(state, CHANCE, {"type": "roles", "roles": list(roles)})
    wanted = {roles.index(role): chosen for role, chosen in wanted_by_role.items()}
    return ENGINE.step(state, CHANCE, shuffle_for(state, wanted))


def seat_of(state, role: str) -> int:
    return state["roles"].index(role)


def turn(state):
    return ENGINE.to_act(state).seats


def act(state, seat, kind, *played):
    action = {"type": kind} if kind == "pass" else {"type": kind, "cards": list(played)}
    ENGINE.check_action(state, seat, action)
    return ENGINE.step(state, seat, action)


def illegal(state, seat, action, rule_part):
    with pytest.raises(IllegalAction) as info:
        ENGINE.check_action(state, seat, action)
    assert rule_part in info.value.rule, info.value.rule
    with pytest.raises(IllegalAction):
        ENGINE.step(state, seat, action)
    assert action not in ENGINE.legal_actions(state, seat)


def plays_of(state, seat):
    return [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "play"]


def play_state(hands, roles):
    """A mid-deal state with small hands (for going-out cases, where full deals are impractical):
    the engine's own initial state with the play phase set up as the shuffle would."""
    n = len(hands)
    state = ENGINE.initial_state(n, {"deals": 2})
    state = ENGINE.step(state, CHANCE, {"type": "roles", "roles": list(roles)})
    state = dict(state, hands=[sort_cards(hand) for hand in hands], phase="play")
    state["trick"] = {"leader": state["order"][0], "turn": state["order"][0], "acted": [], "top": None,
                      "plays": [], "last": None}
    return state


def finish_deal_by_bot(state, rng):
    """Play on with the basic bot until the deal is scored (public API only)."""
    bot = ENGINE.bots()["basic"]

    def by_bot(state, seat, legal, rng):
        return bot(ENGINE.observe(state, seat), legal, rng)

    while state["phase"] not in ("shuffle", "over"):
        state = ENGINE.step(state, *next_step(ENGINE, state, rng, by_bot))
    return state


# -- roles and order of play --------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_house_rule_5_4_roles_by_count_and_cyclic_order_of_play(n):
    """House rule 5.4 roles by player count (4p = rulebook 4); rulebook 4: the roi leads and play
    follows the hierarchy whatever the seats; the order is cyclic (house rule 5.4)."""
    expected = {3: ["roi", "noble", "bouffon"], 4: ["roi", "héritier", "ouvrier", "bouffon"],
                5: ["roi", "héritier", "noble", "ouvrier", "bouffon"],
                6: ["roi", "héritier", "noble", "marchand", "ouvrier", "bouffon"]}[n]
    assert ROLES_BY_COUNT[n] == expected
    roles = expected[2:] + expected[:2]  # roles not in seat order
    state = start(roles, {})
    seen = []
    for _ in range(n):
        seat = turn(state)[0]
        seen.append(state["roles"][seat])
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.step(state, seat, {"type": "pass"} if {"type": "pass"} in legal else legal[0])
    assert seen == expected
    # everyone passed on the roi's lead: the roi laid last and leads again (rulebook 8)
    assert turn(state) == (seat_of(state, "roi"),) and state["trick"]["top"] is None


def test_house_rule_5_4_deal_one_card_at_a_time_from_the_roi_six_players():
    """Rulebook 2: two decks for 6 players; house rule 5.4 deal: card i goes to the (i mod n)-th role."""
    roles = ["bouffon", "noble", "roi", "ouvrier", "marchand", "héritier"]
    state = ENGINE.initial_state(6, {})
    state = ENGINE.step(state, CHANCE, {"type": "roles", "roles": roles})
    order = list(DECK[2])
    random.Random(4).shuffle(order)
    dealt = ENGINE.step(state, CHANCE, {"type": "shuffle", "order": order})
    for index, card in enumerate(order):
        role = ROLES_BY_COUNT[6][index % 6]
        assert card in dealt["hands"][roles.index(role)]
    assert [len(hand) for hand in dealt["hands"]] == [18] * 6
    assert dealt["phase"] == "play" and turn(dealt) == (roles.index("roi"),)


# -- rulebook 5 and 6: sets, following ----------------------------------------------------------


def test_rulebook_5_soldats_must_share_a_number_and_quadruples_lead():
    """Rulebook 5: singles to quadruples of the same value; a soldat 3 with a soldat 4 is no set."""
    state = start(ROLES_BY_COUNT[4], {"roi": cards("soldat-5", 4) + [c("soldat-3"), c("soldat-4")]})
    illegal(state, 0, {"type": "play", "cards": [c("soldat-3"), c("soldat-4")]}, "rulebook 5")
    assert {"type": "play", "cards": cards("soldat-5", 4)} in ENGINE.legal_actions(state, 0)
    after = act(state, 0, "play", *cards("soldat-5", 4))
    assert after["trick"]["top"] == {"seat": 0, "cards": cards("soldat-5", 4), "count": 4, "strength": 5, "kind": "set"}


def test_rulebook_6_quadruple_followed_only_by_a_stronger_quadruple():
    """Rulebook 6: the next player matches the count (a quadruple) with a higher value; a stronger
    triple or pair does not go, nor a weaker quadruple."""
    state = start(ROLES_BY_COUNT[4], {
        "roi": cards("soldat-6", 4),
        "héritier": cards("archer", 4) + cards("soldat-2", 4) + cards("guerrier", 3)})
    state = act(state, 0, "play", *cards("soldat-6", 4))
    illegal(state, 1, {"type": "play", "cards": cards("guerrier", 3)}, "rulebook 6")
    illegal(state, 1, {"type": "play", "cards": cards("archer", 2)}, "rulebook 6")
    illegal(state, 1, {"type": "play", "cards": cards("soldat-2", 4)}, "rulebook 6")
    assert plays_of(state, 1) == [{"type": "play", "cards": cards("archer", 4)}]
    assert {"type": "pass"} in ENGINE.legal_actions(state, 1)  # rulebook 9: passing is always allowed
    after = act(state, 1, "play", *cards("archer", 4))
    assert after["trick"]["top"]["count"] == 4 and after["trick"]["top"]["strength"] == 9


def test_rulebook_6_follower_may_pass_even_when_he_could_play():
    """Rulebook 9: a player may pass by choice ("stratégiquement"); his pass is final for the trick
    (rulebook 5: once per round of the table)."""
    state = start(ROLES_BY_COUNT[4], {"roi": [c("soldat-2")], "héritier": [c("assassin")], "ouvrier": [c("archer")]})
    state = act(state, 0, "play", c("soldat-2"))
    state = act(state, 1, "pass")
    state = act(state, 2, "play", c("archer"))
    assert turn(state) == (3,)
    state = act(state, 3, "pass")
    # back to the roi, who already played: the trick ends and the héritier never gets a second turn
    assert state["trick"]["leader"] == 2 and state["trick"]["top"] is None and turn(state) == (2,)
    assert c("assassin") in state["hands"][1]


# -- house rule 5.2 / 5.4: paladin and minotaure exceptions ---------------------------------------


def test_paladin_exception_needs_cards_weaker_than_paladin():
    """House rule 5.4: k paladins go on k+1 cards *weaker than paladin*; one paladin does not beat a
    pair of paladins (equal strength, rulebook 6); a pair of minotaures or one minotaure does."""
    state = start(ROLES_BY_COUNT[4], {"roi": cards("paladin", 2), "héritier": [c("paladin", 3)],
                                       "ouvrier": [c("minotaure")]})
    state = act(state, 0, "play", *cards("paladin", 2))
    illegal(state, 1, {"type": "play", "cards": [c("paladin", 3)]}, "rulebook 6")
    assert plays_of(state, 1) == []
    state = act(state, 1, "pass")
    assert plays_of(state, 2) == [{"type": "play", "cards": [c("minotaure")]}]
    after = act(state, 2, "play", c("minotaure"))
    assert after["trick"]["top"]["kind"] == "minotaure" and after["trick"]["top"]["count"] == 2


def test_paladin_exception_not_on_a_minotaure_top():
    """House rule 5.4: a top of 1 minotaure laid on a pair counts as 2 cards of minotaure strength:
    one paladin (k=1 on 2 cards) may not go on it, nor a pair of paladins."""
    state = start(ROLES_BY_COUNT[4], {"roi": cards("soldat-4", 2), "héritier": [c("minotaure")],
                                       "ouvrier": cards("paladin", 3)})
    state = act(state, 0, "play", *cards("soldat-4", 2))
    state = act(state, 1, "play", c("minotaure"))
    illegal(state, 2, {"type": "play", "cards": [c("paladin")]}, "rulebook 6")
    illegal(state, 2, {"type": "play", "cards": cards("paladin", 2)}, "rulebook 6")
    assert plays_of(state, 2) == []


def test_single_minotaure_on_a_single_is_an_ordinary_set():
    """House rule 5.4: 1 minotaure beats any single card by the ordinary rule; the top is a plain
    single of strength 14, which nothing but the laugh answers."""
    state = start(ROLES_BY_COUNT[4], {"roi": [c("paladin")], "héritier": [c("minotaure")],
                                       "bouffon": [c("minotaure", 2)]})
    state = act(state, 0, "play", c("paladin"))
    state = act(state, 1, "play", c("minotaure"))
    assert state["trick"]["top"] == {"seat": 1, "cards": [c("minotaure")], "count": 1, "strength": 14, "kind": "set"}
    state = act(state, 2, "pass")
    illegal(state, 3, {"type": "play", "cards": [c("minotaure", 2)]}, "rulebook 6")
    assert {"type": "laugh", "cards": [c("minotaure", 2)]} in ENGINE.legal_actions(state, 3)


FIVE = ROLES_BY_COUNT[5]  # seats 0 roi, 1 héritier, 2 noble, 3 ouvrier, 4 bouffon


def test_two_paladins_on_a_triple_fall_to_one_or_three_minotaures_only():
    """House rule 5.4 (two decks): 2 paladins on a triple make a top of 3 cards of paladin strength,
    beaten only by 1 minotaure or by 3 minotaures (k+1), not by 2 minotaures or 3 paladins."""
    state = start(FIVE, {"roi": cards("magicien", 3), "héritier": cards("paladin", 2),
                         "noble": cards("minotaure", 3) + cards("paladin", 3, 3)})
    # (two decks: paladins #1-#8, minotaures #1-#4)
    state = act(state, 0, "play", *cards("magicien", 3))
    state = act(state, 1, "play", *cards("paladin", 2))
    assert state["trick"]["top"]["kind"] == "paladin" and state["trick"]["top"]["count"] == 3
    illegal(state, 2, {"type": "play", "cards": cards("minotaure", 2)}, "rulebook 6")
    illegal(state, 2, {"type": "play", "cards": cards("paladin", 3, 3)}, "rulebook 6")
    illegal(state, 2, {"type": "play", "cards": cards("paladin", 2, 3)}, "rulebook 6")
    sizes = sorted(len(a["cards"]) for a in plays_of(state, 2))
    assert sizes == [1, 1, 1, 3]  # any one of the three minotaures, or all three
    three = act(state, 2, "play", *cards("minotaure", 3))
    assert three["trick"]["top"]["strength"] == 14 and three["trick"]["top"]["count"] == 3


def test_real_minotaure_pair_is_beaten_by_nothing_but_the_laugh():
    """House rule 5.4 (two decks): nothing beats minotaures except more minotaures on a *minotaure
    top* of the same size; a real pair of minotaures is unbeatable: not by one minotaure, not by
    paladins; the bouffon's laugh needs the same two minotaures (rulebook 10), one is not enough."""
    state = start(FIVE, {"roi": cards("minotaure", 2), "héritier": [c("minotaure", 3)],
                         "bouffon": [c("minotaure", 4)] + cards("paladin", 4)})
    state = act(state, 0, "play", *cards("minotaure", 2))
    illegal(state, 1, {"type": "play", "cards": [c("minotaure", 3)]}, "rulebook 6")
    state = act(act(act(state, 1, "pass"), 2, "pass"), 3, "pass")
    assert plays_of(state, 4) == []
    illegal(state, 4, {"type": "laugh", "cards": [c("minotaure", 4)]}, "rulebook 10")


def test_minotaure_top_on_a_triple_is_beaten_by_exactly_three_minotaures():
    """House rule 5.4 (two decks): 1 minotaure laid on a triple counts as 3 cards; "more minotaures
    in a same-size set" means 3 minotaures, not 2 and not 1."""
    state = start(FIVE, {"roi": cards("soldat-8", 3), "héritier": [c("minotaure")],
                         "noble": cards("minotaure", 3, 2)})
    state = act(state, 0, "play", *cards("soldat-8", 3))
    state = act(state, 1, "play", c("minotaure"))
    assert state["trick"]["top"]["kind"] == "minotaure" and state["trick"]["top"]["count"] == 3
    illegal(state, 2, {"type": "play", "cards": [c("minotaure", 2)]}, "rulebook 6")
    illegal(state, 2, {"type": "play", "cards": cards("minotaure", 2, 2)}, "rulebook 6")
    assert plays_of(state, 2) == [{"type": "play", "cards": cards("minotaure", 3, 2)}]


def test_minotaure_exception_on_a_paladin_quadruple():
    """House rule 5.2 [FOUND]: one minotaure beats a quadruple, here of paladins (weaker than
    minotaure); three paladins do not (equal strength)."""
    state = start(FIVE, {"roi": cards("paladin", 4), "héritier": cards("paladin", 3, 5) + [c("minotaure")]})
    state = act(state, 0, "play", *cards("paladin", 4))
    illegal(state, 1, {"type": "play", "cards": cards("paladin", 3, 5)}, "rulebook 6")
    assert plays_of(state, 1) == [{"type": "play", "cards": [c("minotaure")]}]


# -- rulebook 10: le rire du bouffon -------------------------------------------------------------


def test_rulebook_10_laugh_belongs_to_the_role_not_a_seat_three_players():
    """Rulebook 10: the bouffon (here seat 0 of 3) lays the same triple as the roi's: the trick ends
    at once, the noble never plays, the bouffon leads. The laughed cards leave his hand."""
    roles = ["bouffon", "roi", "noble"]  # order of play: roi 1, noble 2, bouffon 0
    state = start(roles, {"roi": cards("soldat-7", 3), "bouffon": cards("soldat-7", 1, 4) + [c("archer")]})
    state = act(state, 1, "play", *cards("soldat-7", 3))
    state = act(state, 2, "pass")
    laugh = {"type": "laugh", "cards": [c("soldat-7", 4)]}
    illegal(state, 0, laugh, "rulebook 10")  # one card on a triple is not "the same cards"
    state = start(roles, {"roi": cards("soldat-7", 2) + [c("soldat-8")],
                          "noble": [c("archer"), c("archer", 2)],
                          "bouffon": cards("soldat-7", 2, 3)})
    state = act(state, 1, "play", *cards("soldat-7", 2))
    state = act(state, 2, "pass")
    before = [list(hand) for hand in state["hands"]]
    state = act(state, 0, "laugh", *cards("soldat-7", 2, 3))
    assert state["trick"]["leader"] == 0 and turn(state) == (0,) and state["trick"]["top"] is None
    assert state["hands"][0] == [card for card in before[0] if card not in cards("soldat-7", 2, 3)]
    assert state["hands"][1] == before[1] and state["hands"][2] == before[2]


def test_rulebook_10_laugh_right_after_the_lead_skips_everyone_six_players():
    """Rulebook 10 (its example, with 6 players): the ouvrier leads an archer, the bouffon after him
    lays an archer too: the trick ends at once, roi, héritier, noble and marchand do not play this
    round, and the bouffon leads the next one."""
    six = ROLES_BY_COUNT[6]  # seats 0 roi ... 5 bouffon
    state = start(six, {"roi": [c("soldat-1")], "ouvrier": [c("guerrier"), c("archer")],
                        "bouffon": [c("archer", 2)]})
    state = act(state, 0, "play", c("soldat-1"))
    for seat in (1, 2, 3):
        state = act(state, seat, "pass")
    state = act(state, 4, "play", c("guerrier"))
    state = act(state, 5, "pass")
    assert turn(state) == (4,) and state["trick"]["leader"] == 4  # rulebook 8: the ouvrier laid last
    state = act(state, 4, "play", c("archer"))
    assert turn(state) == (5,)
    before = [list(hand) for hand in state["hands"]]
    state = act(state, 5, "laugh", c("archer", 2))
    assert turn(state) == (5,) and state["trick"]["leader"] == 5 and state["trick"]["plays"] == []
    assert state["hands"][:5] == before[:5]
    for seat in range(5):
        assert ENGINE.legal_actions(state, seat) == []


def test_laugh_is_an_option_not_a_duty_and_only_on_his_turn():
    """House rule 5.4: the laugh only on the bouffon's turn; he may instead play higher or pass."""
    state = start(ROLES_BY_COUNT[4], {"roi": [c("archer")], "ouvrier": [c("soldat-1")],
                                       "bouffon": [c("archer", 2), c("assassin")]})
    state = act(state, 0, "play", c("archer"))
    illegal(state, 3, {"type": "laugh", "cards": [c("archer", 2)]}, "turn order")  # héritier's turn
    state = act(act(state, 1, "pass"), 2, "pass")
    legal = ENGINE.legal_actions(state, 3)
    assert {"type": "laugh", "cards": [c("archer", 2)]} in legal and {"type": "pass"} in legal
    assert {"type": "play", "cards": [c("assassin")]} in legal
    played = act(state, 3, "play", c("assassin"))  # an ordinary play
    # everyone has had his turn: the trick ends and the bouffon, last to lay, leads
    assert turn(played) == (3,) and played["trick"]["top"] is None


# -- leads when the last player to lay cards is out (house rule 5.4) -----------------------------


FOUR = ["roi", "héritier", "ouvrier", "bouffon"]


def test_leader_goes_out_on_his_lead_and_all_pass_next_active_leads():
    """House rule 5.4 leads: the roi lays his last card, all pass; the roi is out, so the next
    active player in role order (the héritier) leads."""
    state = play_state([[c("assassin")], cards("soldat-1", 3), cards("soldat-2", 3), cards("soldat-3", 3)], FOUR)
    state = act(state, 0, "play", c("assassin"))
    assert state["finished"] == [0]
    state = act(act(act(state, 1, "pass"), 2, "pass"), 3, "pass")
    assert turn(state) == (1,) and state["trick"]["leader"] == 1 and state["trick"]["top"] is None


def test_trick_ends_when_play_comes_back_round_even_if_the_leader_is_out():
    """Rulebook 5 and 8: the roi goes out on his lead; héritier and ouvrier lay, the bouffon passes;
    the roi is skipped (house rule 5.4) and the héritier, who already played, may not play again:
    the trick ends and the ouvrier, last to lay cards, leads."""
    state = play_state([[c("soldat-2")], [c("soldat-3"), c("paladin")], [c("soldat-4")] + cards("soldat-1", 2),
                        cards("soldat-1", 2, 3)], FOUR)
    state = act(state, 0, "play", c("soldat-2"))
    state = act(state, 1, "play", c("soldat-3"))
    state = act(state, 2, "play", c("soldat-4"))
    state = act(state, 3, "pass")
    assert turn(state) == (2,) and state["trick"]["leader"] == 2
    assert ENGINE.legal_actions(state, 1) == []


# -- going out and the end of a deal ----------------------------------------------------------------


def test_finishing_on_a_paladin_exception_is_allowed_and_deal_ends_mid_trick():
    """House rule 5.4 end of a deal: finishing on any card (here 1 paladin on a pair) is allowed;
    as soon as one player holds cards the deal ends, even mid-trick; he is last (bouffon, 0 points).
    His cards stay hidden from the others and from spectators."""
    state = play_state([cards("soldat-2", 2), [c("paladin")], [c("archer")], [c("assassin"), c("guerrier")]], FOUR)
    state = act(state, 0, "play", *cards("soldat-2", 2))  # the roi goes out first
    state = act(state, 1, "play", c("paladin"))  # the héritier goes out second
    assert state["phase"] == "play" and turn(state) == (2,)
    state = act(state, 2, "pass")
    state = act(state, 3, "pass")
    # the héritier was last to lay but is out: next active after him is the ouvrier
    assert turn(state) == (2,)
    state = act(state, 2, "play", c("archer"))  # the ouvrier goes out third: the deal ends at once
    assert ENGINE.to_act(state).kind == Phase.AUTO and state["finished"] == [0, 1, 2, 3]
    auto = ENGINE.auto_action(state)
    assert auto["points"] == [3, 2, 1, 0] and auto["roles"] == {"roi": 0, "héritier": 1, "ouvrier": 2, "bouffon": 3}
    for viewer in (0, 1, 2):
        assert "assassin" not in repr(ENGINE.observation(state, viewer))
    assert "assassin" not in repr(ENGINE.public_observation(state))
    assert ENGINE.public_observation(state)["hand_counts"] == [0, 0, 0, 2]


@pytest.mark.parametrize("n", [3, 5])
def test_rulebook_1_next_roles_follow_the_finishing_order(n):
    """Rulebook 1: roles of the next deal follow the finishing order: first out = roi, then the
    hierarchy of house rule 5.4, last = bouffon; points = players - place (house rule 5.4 match)."""
    roles = list(reversed(ROLES_BY_COUNT[n]))  # seat 0 is the bouffon
    hands = [[c(f"soldat-{seat + 1}", 1)] for seat in range(n)]
    state = play_state(hands, roles)
    order = state["order"]
    assert order == list(reversed(range(n)))
    finish = []
    while state["phase"] == "play":
        seat = turn(state)[0]
        legal = plays_of(state, seat)
        if legal:
            state = ENGINE.step(state, seat, legal[0])
            if not state["hands"][seat]:
                finish.append(seat)
        else:
            state = act(state, seat, "pass")
    auto = ENGINE.auto_action(state)
    full = auto["order"]
    assert full[:len(finish)] == finish and sorted(full) == list(range(n))
    assert auto["roles"] == {role: full[place] for place, role in enumerate(ROLES_BY_COUNT[n])}
    assert [auto["points"][seat] for seat in full] == list(range(n - 1, -1, -1))
    nxt = ENGINE.step(state, SYSTEM, auto)
    assert [nxt["roles"][seat] for seat in full] == ROLES_BY_COUNT[n]
    assert nxt["phase"] == "shuffle" and nxt["deal"] == 2


# -- rulebook 3: the exchange, through a whole first deal -------------------------------------------


def _second_deal(n: int, seed: int = 5):
    """Deal 1 played out by the basic bot through the public API; returns the state awaiting deal 2's
    shuffle."""
    rng = random.Random(seed)
    state = ENGINE.initial_state(n, {"deals": 2})
    state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, rng))
    state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, rng))
    assert state["phase"] == "play"  # no exchange in the first deal (house rule 5.4)
    state = finish_deal_by_bot(state, rng)
    assert state["phase"] == "shuffle" and state["deal"] == 2
    return state


def test_rulebook_3_five_players_exchange_noble_keeps_his_cards_strongest_with_ties():
    """Rulebook 3 with 5 players: roi <-> bouffon (2 cards), héritier <-> ouvrier (1 card), the noble
    exchanges nothing. "His two strongest": with one minotaure and several paladins the bouffon gives
    the minotaure and one paladin; the ouvrier with two assassins as best gives one assassin. The
    exchange waits for both givers (sealed), then the roi leads (rulebook 4)."""
    state = _second_deal(5)
    roi, her, noble, ouv, bouf = (seat_of(state, role) for role in FIVE)
    wanted = {bouf: [c("minotaure")] + cards("paladin", 3), ouv: cards("assassin", 2),
              roi: cards("soldat-1", 2), her: [c("soldat-1", 3)], noble: [c("minotaure", 2)]}
    # everything else the bouffon and ouvrier hold is weaker: they get the weakest fillers
    state = ENGINE.step(state, CHANCE, shuffle_for(state, wanted, fill_first=(bouf, ouv)))
    before = [list(hand) for hand in state["hands"]]
    assert max(STRENGTH[card] for card in before[ouv]) == 12
    assert state["phase"] == "exchange" and turn(state) == tuple(sorted((roi, her)))
    assert ENGINE.legal_actions(state, noble) == [] and ENGINE.legal_actions(state, bouf) == []
    illegal(state, roi, {"type": "give", "cards": [c("soldat-1")]}, "rulebook 3")
    illegal(state, her, {"type": "give", "cards": cards("soldat-1", 2)}, "own cards")
    state = act(state, her, "give", c("soldat-1", 3))
    assert state["phase"] == "exchange" and turn(state) == (roi,)
    # sealed: nobody but the héritier sees his chosen card yet, not even the ouvrier
    assert "gift" not in ENGINE.observation(state, ouv) and "gift" not in ENGINE.observation(state, roi)
    assert ENGINE.observation(state, her)["gift"] == [c("soldat-1", 3)]
    state = act(state, roi, "give", *cards("soldat-1", 2))
    assert state["phase"] == "play" and turn(state) == (roi,)
    hands = state["hands"]
    assert hands[noble] == before[noble]
    assert c("minotaure") in hands[roi] and len(set(hands[roi]) & set(cards("paladin", 3))) == 1
    assert len(set(hands[bouf]) & set(cards("paladin", 3))) == 2 and set(cards("soldat-1", 2)) <= set(hands[bouf])
    assert len(set(hands[her]) & set(cards("assassin", 2))) == 1 and c("soldat-1", 3) in hands[ouv]
    assert [len(hand) for hand in hands] == [len(hand) for hand in before]
    # the exchange is each party's own business: the noble's observation has none
    assert "exchange" not in ENGINE.observation(state, noble)
    assert ENGINE.observation(state, roi)["exchange"]["received"] == ENGINE.observation(state, bouf)["exchange"]["gave"]


def test_rulebook_3_roi_may_give_any_two_cards_even_his_best():
    """Rulebook 3: the roi gives two cards of his choice (house rule 5.4 is silent on which); the
    gift is worked out on the hands before the exchange, so the bouffon keeps it."""
    state = _second_deal(3, seed=8)
    roi, noble, bouf = (seat_of(state, role) for role in ROLES_BY_COUNT[3])
    state = ENGINE.step(state, CHANCE, shuffle_for(state, {roi: cards("minotaure", 2) + [c("paladin")]}))
    assert turn(state) == (roi,)  # 3 players: only the roi gives (no héritier)
    legal = ENGINE.legal_actions(state, roi)
    assert len(legal) == 18 * 17 // 2 and {"type": "give", "cards": cards("minotaure", 2)} in legal
    done = act(state, roi, "give", *cards("minotaure", 2))
    assert set(cards("minotaure", 2)) <= set(done["hands"][bouf])


# -- the match --------------------------------------------------------------------------------------


def test_house_rule_5_4_match_of_five_deals_by_default():
    """House rule 5.4 match: 5 deals by default; each deal gives n-1 ... 0 points by finishing place;
    roles of each later deal follow the previous finishing order (rulebook 1); an exchange happens in
    every deal but the first (house rule 5.4); the roi leads each deal (rulebook 4); highest total wins."""
    rng = random.Random(2)
    state = ENGINE.initial_state(3, {})
    assert state["deals"] == 5
    previous_order = None
    deals_seen = 0
    while ENGINE.to_act(state).kind != Phase.OVER:
        assert state["phase"] in ("roles", "shuffle")
        if state["phase"] == "roles":
            state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, rng))
        if previous_order is not None:
            assert [state["roles"][seat] for seat in previous_order] == ROLES_BY_COUNT[3]
        state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, rng))
        deals_seen += 1
        assert state["phase"] == ("play" if deals_seen == 1 else "exchange")
        if state["phase"] == "exchange":
            seat = turn(state)[0]
            state = ENGINE.step(state, seat, ENGINE.legal_actions(state, seat)[0])
        assert turn(state) == (seat_of(state, "roi"),)
        before_scores = list(state["scores"])
        state = finish_deal_by_bot(state, rng) if state["phase"] != "over" else state
        entry = state["history"][-1]
        assert sorted(entry["points"]) == [0, 1, 2]
        assert [entry["points"][seat] for seat in entry["order"]] == [2, 1, 0]
        assert state["scores"] == [a + b for a, b in zip(before_scores, entry["points"])]
        previous_order = entry["order"]
    assert deals_seen == 5
    result = ENGINE.result(state)
    best = max(state["scores"])
    assert all(state["scores"][seat] == best for seat in result.winners) and len(result.winners) == 1


# -- malformed input and hidden information ---------------------------------------------------------


def test_malformed_input_in_every_phase_raises_illegal_action_with_a_rule():
    """Contract: illegal or malformed actions raise IllegalAction naming the rule, never KeyError or
    TypeError, in every phase, for seats, CHANCE and SYSTEM alike."""
    junk = [None, 3, "pass", [], {}, {"type": None}, {"type": "play", "cards": None},
            {"type": "play", "cards": [None]}, {"type": "give", "cards": {"a": 1}}, {"type": "laugh"},
            {"type": "roles", "roles": None}, {"type": "roles", "roles": [[1], 2, 3]},
            {"type": "shuffle", "order": None}, {"type": "shuffle", "order": [1] * 54},
            {"type": "score-deal"}, {"type": "pass", "cards": []}, {"type": "play", "cards": ["nope#1"]}]
    rng = random.Random(9)
    state = ENGINE.initial_state(4, {"deals": 2})
    phases = set()
    while True:
        phases.add(state["phase"])
        for actor in (0, 1, 2, 3, 4, -1, "1", None, CHANCE, SYSTEM):
            for action in junk:
                if actor not in (CHANCE, SYSTEM):
                    with pytest.raises(IllegalAction) as info:
                        ENGINE.check_action(state, actor, action)
                    assert info.value.rule and info.value.detail
                with pytest.raises(IllegalAction) as info:
                    ENGINE.step(state, actor, action)
                assert isinstance(info.value, RuleViolation) and info.value.rule
        chosen = next_step(ENGINE, state, rng)
        if chosen is None:
            break
        state = ENGINE.step(state, *chosen)
    assert phases == {"roles", "shuffle", "exchange", "play", "score", "over"}
    with pytest.raises(IllegalAction):
        ENGINE.sample_chance(state, rng)
    with pytest.raises(IllegalAction):
        ENGINE.auto_action(state)


def test_observation_hides_other_hands_and_gifts_during_the_exchange():
    """Observations never reveal hidden information: in the exchange phase a seat sees its own hand
    and gift only; spectators see counts and who still has to give."""
    state = _second_deal(4, seed=3)
    state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, random.Random(1)))
    roi, her, ouv, bouf = (seat_of(state, role) for role in FOUR)
    gift = ENGINE.legal_actions(state, roi)[0]
    state = ENGINE.step(state, roi, gift)
    public = ENGINE.public_observation(state)
    assert public["waiting"] == [her] and "hand" not in public and "gift" not in public
    for seat in range(4):
        obs = ENGINE.observation(state, seat)
        others = {card for other, hand in enumerate(state["hands"]) if other != seat for card in hand}
        named = set(obs["hand"]) | set(obs.get("gift", []))
        assert not named & others
        assert ("gift" in obs) == (seat == roi)


# -- an independent reference of the play phase, driven by random deals --------------------------


def _reference_legal(hand, top, is_bouffon):
    """Every legal play/pass/laugh as (type, frozenset of cards), written from the rule texts:
    rulebook 5-7 and 9-10, house rules 5.2 and 5.4 (sets, exceptions, leads, laugh)."""
    by_strength = {}
    for card in hand:
        by_strength.setdefault(STRENGTH[card], []).append(card)
    from itertools import combinations

    sets = [(strength, combo) for strength, group in by_strength.items()
            for size in range(1, min(4, len(group)) + 1) for combo in combinations(group, size)]
    if top is None:  # rulebook 7: anything; house rule 5.4: the leader must lay
        return {("play", frozenset(combo)) for _, combo in sets}
    legal = {("pass", frozenset())}  # rulebook 9
    for strength, combo in sets:
        size = len(combo)
        ordinary = size == top["count"] and strength > top["strength"]  # rulebook 6
        paladins = strength == 13 and top["strength"] < 13 and size + 1 == top["count"]  # k on k+1
        one_minotaure = strength == 14 and size == 1 and top["strength"] < 14 and top["count"] >= 2
        minotaures_on_minotaure = top["kind"] == "minotaure" and strength == 14 and size == top["count"]
        if ordinary or paladins or one_minotaure or minotaures_on_minotaure:
            legal.add(("play", frozenset(combo)))
        if is_bouffon and strength == top["strength"] and size == len(top["cards"]):  # rulebook 10
            legal.add(("laugh", frozenset(combo)))
    return legal


def _compare_with_reference_model(games):
    """Rulebook 4-10 and house rule 5.4, re-implemented literally (the trick ends when play comes
    back round to its leader's place; the last to lay leads, or the next holder in role order;
    the laugh ends the trick; the deal ends when one player holds cards) and compared with the
    engine over ``games`` random deals of 3 to 6 players: (states compared, laughs, exceptions)."""
    rng = random.Random(17)
    compared = laughs = exceptions = 0
    for game in range(games):
        n = 3 + game % 4
        state = ENGINE.initial_state(n, {"deals": 1})
        state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, rng))
        state = ENGINE.step(state, CHANCE, ENGINE.sample_chance(state, rng))
        order = [state["roles"].index(role) for role in ROLES_BY_COUNT[n]]
        bouffon = state["roles"].index("bouffon")
        hands = [set(hand) for hand in state["hands"]]
        leader = turn_seat = order[0]
        top, last, finished = None, None, []

        def next_after(seat, order=order, n=n):
            return order[(order.index(seat) + 1) % n]

        while state["phase"] == "play":
            assert turn(state) == (turn_seat,)
            legal = ENGINE.legal_actions(state, turn_seat)
            got = {(a["type"], frozenset(a.get("cards", []))) for a in legal}
            assert got == _reference_legal(hands[turn_seat], top, turn_seat == bouffon)
            assert len(got) == len(legal)
            compared += 1
            plays = [a for a in legal if a["type"] != "pass"]
            action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
            state = ENGINE.step(state, turn_seat, action)
            seat, ends = turn_seat, False
            if action["type"] != "pass":
                laid = action["cards"]
                hands[seat] -= set(laid)
                last = seat
                strength, size = STRENGTH[laid[0]], len(laid)
                if action["type"] == "laugh":
                    ends = True
                    laughs += 1
                elif top is None or size == top["count"]:
                    top = {"count": size, "strength": strength, "kind": "set", "cards": laid}
                elif strength == 13:
                    exceptions += 1
                    top = {"count": top["count"], "strength": 13, "kind": "paladin", "cards": laid}
                else:
                    exceptions += 1
                    top = {"count": top["count"], "strength": 14, "kind": "minotaure", "cards": laid}
                if not hands[seat]:
                    finished.append(seat)
                    holders = [s for s in order if hands[s]]
                    if len(holders) == 1:
                        finished += holders
                        break
            candidate = next_after(seat)
            while not ends:
                if candidate == leader:  # back round to the leader's place: the trick is over
                    ends = True
                elif hands[candidate]:
                    turn_seat = candidate
                    break
                else:
                    candidate = next_after(candidate)
            if ends:
                new_leader = last
                while not hands[new_leader]:
                    new_leader = next_after(new_leader)
                leader = turn_seat = new_leader
                top = None
            assert state["trick"]["leader"] == leader
            assert (state["trick"]["top"] is None) == (top is None)
            if top is not None:
                engine_top = state["trick"]["top"]
                assert (engine_top["count"], engine_top["strength"], engine_top["kind"]) == (
                    top["count"], top["strength"], top["kind"])
        assert state["phase"] == "score" and state["finished"] == finished
        assert [set(hand) for hand in state["hands"]] == hands
    return compared, laughs, exceptions


@pytest.mark.slow
def test_reference_model_of_turns_tricks_and_legal_plays():
    """The reference model over 200 random deals (see ``_compare_with_reference_model``)."""
    compared, laughs, exceptions = _compare_with_reference_model(200)
    assert compared > 15000 and laughs > 20 and exceptions > 20, (compared, laughs, exceptions)


def test_reference_model_over_a_few_deals():
    """The fast tier's share of the reference-model comparison: 24 deals, 6 of each player count."""
    compared, laughs, exceptions = _compare_with_reference_model(24)
    assert compared > 1500 and laughs > 0 and exceptions > 0, (compared, laughs, exceptions)
