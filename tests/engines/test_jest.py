"""Jest: hand-worked rule cases (rulebooks/jest.txt, house rules §2 R1–R7, docs/rules/jest.md)."""

from __future__ import annotations

import random

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions, Phase
from domain.games import get_engine
from domain.games.jest import CARDS, ENGINE, award_trophies, score_jest
from domain.games.jest.scoring import jest_breakdown
from domain.playout import next_step

E = ENGINE


# -- helpers -----------------------------------------------------------------------------------
def deal(n, trophies, hands, rest=None):
    """A match after the first shuffle: given trophies and hands (seat order), the deck after them."""
    used = list(trophies) + [card for hand in hands for card in hand]
    if rest is None:
        rest = [card for card in CARDS if card not in used]
    order = list(trophies) + [card for hand in hands for card in hand] + list(rest)
    state = E.initial_state(n, {})
    return E.step(state, CHANCE, {"type": "shuffle", "order": order})


def offer_all(state, ups):
    """Every seat offers, ``ups[seat]`` face up (the other card of its hand face down)."""
    for seat, up in enumerate(ups):
        hand = state["hands"][seat]
        down = hand[1] if hand[0] == up else hand[0]
        action = {"type": "offer", "up": up, "down": down}
        E.check_action(state, seat, action)
        state = E.step(state, seat, action)
    return state


def take(state, seat, source, which):
    action = {"type": "take", "from": source, "card": which}
    assert E.to_act(state).seats == (seat,)
    E.check_action(state, seat, action)
    return E.step(state, seat, action)


def scoring_state(n, jests, trophies):
    """A state in the final AUTO phase with the given Jests and trophies (the engine's state layout)."""
    return {
        "n": n,
        "rounds": {3: 4, 4: 3}[n],
        "round": {3: 4, 4: 3}[n],
        "phase": "scoring",
        "trophies": list(trophies),
        "deck": [],
        "hands": [[] for _ in range(n)],
        "offers": [None] * n,
        "jests": [list(jest) for jest in jests],
        "taken": [True] * n,
        "taker": None,
        "winners": None,
        "scores": None,
    }


# -- identity and setup --------------------------------------------------------------------------
def test_registered_engine_and_metadata():
    assert get_engine("jest") is E
    assert E.name == "jest" and E.title == "Jest" and E.rules_version
    assert (E.min_players, E.max_players) == (3, 4)
    assert len(CARDS) == 17 and len(set(CARDS)) == 17 and "JK" in CARDS


def test_player_counts_house_rule_2_1():
    """House rules §2.1 [FOUND]: 3 or 4 players."""
    for bad in (2, 5):
        with pytest.raises(InvalidOptions):
            E.check_options(bad, {})
    with pytest.raises(InvalidOptions):
        E.check_options(3, {"bogus": 1})


@pytest.mark.parametrize("n,trophies,rounds,deck", [(3, 2, 4, 9), (4, 1, 3, 8)])
def test_first_shuffle_deals_trophies_and_hands_house_rule_2_5(n, trophies, rounds, deck):
    """§2.4/§2.5: 3p 2 trophies 4 rounds, 4p 1 trophy 3 rounds; two cards per hand (rulebook THE DEAL)."""
    state = E.initial_state(n, {})
    assert E.to_act(state).kind == Phase.CHANCE
    outcome = E.sample_chance(state, random.Random(5))
    assert sorted(outcome["order"]) == sorted(CARDS)
    state = E.step(state, CHANCE, outcome)
    assert state["trophies"] == outcome["order"][:trophies]
    assert state["rounds"] == rounds and state["round"] == 1
    assert all(len(hand) == 2 for hand in state["hands"])
    assert len(state["deck"]) == deck
    assert E.to_act(state).kind == Phase.PLAYERS and E.to_act(state).seats == tuple(range(n))


def test_shuffle_must_be_a_permutation_of_exactly_the_dealt_cards():
    state = E.initial_state(3, {})
    bad_orders = [
        {"type": "shuffle", "order": list(CARDS)[:-1]},
        {"type": "shuffle", "order": list(CARDS)[:-1] + ["AS"]},
        {"type": "shuffle", "order": list(CARDS) + ["5S"]},
        {"type": "shuffle"},
        {"type": "roll", "order": list(CARDS)},
        {"type": "shuffle", "order": "AS"},
    ]
    for bad in bad_orders:
        with pytest.raises(IllegalAction):
            E.step(state, CHANCE, bad)
    # A later round shuffles the leftovers plus n new deck cards, nothing else.
    state = deal(3, ["JK", "4D"], [["AS", "2S"], ["AC", "2C"], ["AD", "2D"]])
    state = offer_all(state, ["AS", "AC", "AD"])
    state = take(state, 0, 1, "up")
    state = take(state, 1, 0, "up")
    state = take(state, 2, 2, "up")
    assert E.to_act(state).kind == Phase.CHANCE
    outcome = E.sample_chance(state, random.Random(1))
    assert sorted(outcome["order"]) == sorted(["2S", "2C", "2D"] + state["deck"][:3])
    with pytest.raises(IllegalAction):
        E.step(state, CHANCE, {"type": "shuffle", "order": list(CARDS)})
    after = E.step(state, CHANCE, outcome)
    assert after["round"] == 2 and len(after["deck"]) == len(state["deck"]) - 3
    assert [after["hands"][s] for s in range(3)] == [outcome["order"][2 * s : 2 * s + 2] for s in range(3)]


# -- scoring (R6, rulebook SCORING) --------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,expected,why",
    [
        (["AS", "AC", "JK"], 16, "R6: Aces alone 5+5, black pair +2, Joker without Hearts +4"),
        (["AS", "AC"], 12, "R6 example: ♠A + ♣A alone in their suits = 5 + 5 + 2"),
        (["AH", "2H", "3H"], 0, "rulebook: Hearts are worth zero without the Joker"),
        (["4H", "3S"], 3, "Hearts 0 without the Joker"),
        (["JK"], 4, "rulebook: Joker and no Hearts = 4"),
        (["JK", "3H"], -3, "rulebook: Joker with 1-3 Hearts = 0, Hearts negative"),
        (["JK", "2H", "4H"], -6, "Joker with 2 Hearts: Hearts negative"),
        (["JK", "AH", "2H", "3H"], -6, "Joker with 3 Hearts (Ace not alone = 1): -1-2-3"),
        (["JK", "AH"], -5, "R6 order: Ace alone in ♥ counts 5, then the sign: -5"),
        (["JK", "AH", "2H", "3H", "4H"], 10, "rulebook: Joker with all 4 Hearts: Hearts positive, Joker 0"),
        (["2D", "4D"], -6, "rulebook: Diamonds reduce the value"),
        (["AD"], -5, "an Ace of Diamonds alone in its suit is -5"),
        (["AD", "3D"], -4, "Ace with another Diamond counts 1: -1-3"),
        (["AS", "2S"], 3, "rulebook: Ace with more cards of its suit is worth 1"),
        (["3S", "3C"], 8, "black pair: 3+3+2"),
        (["AS", "2S", "AC"], 10, "♠A not alone (1) + 2 + ♣A alone (5) + pair 2"),
        (["2S", "2C", "4S", "4C"], 16, "two black pairs: 2+2+4+4+2+2"),
        (["3S", "3D"], 0, "a Spade and a Diamond of one rank are no pair"),
        (["4S", "4C", "4D", "JK", "AH"], 1, "4+4+2-4, Joker 0 with one Heart, ♥A alone -5"),
        ([], 0, "an empty Jest is worth 0"),
    ],
)
def test_score_jest_rule_r6(cards, expected, why):
    assert score_jest(cards) == expected, why


def test_score_jest_does_not_depend_on_order():
    cards = ["JK", "AH", "2S", "2C", "AD", "4D"]
    assert len({score_jest(cards[i:] + cards[:i]) for i in range(len(cards))}) == 1


# -- trophies (R4) -------------------------------------------------------------------------------
def test_highest_and_lowest_use_face_values_ace_is_one_r4():
    """R4: Highest/Lowest use face values, Ace = 1 (an Ace is never the highest of its suit)."""
    jests = {"alice": ["AS", "3D"], "bob": ["2S", "AD"], "carol": ["4C"]}
    assert award_trophies(jests, ["AC"]) == {"AC": "bob"}  # A♣: Highest ♠ -> 2♠ beats A♠
    assert award_trophies(jests, ["4C"]) == {"4C": "alice"}  # 4♣: Lowest ♠ -> A♠ (1)
    assert award_trophies(jests, ["2D"]) == {"2D": "alice"}  # 2♦: Highest ♦ -> 3♦
    assert award_trophies(jests, ["3D"]) == {"3D": "bob"}  # 3♦: Lowest ♦ -> A♦
    assert award_trophies(jests, ["AS", "4S"]) == {"AS": "carol", "4S": "carol"}  # ♣ highest/lowest


def test_suit_trophy_unclaimed_when_nobody_has_the_suit_r4():
    """R4: a trophy whose condition nobody meets stays unclaimed."""
    jests = {0: ["AS", "2D"], 1: ["3S"], 2: ["4D", "JK"]}
    assert award_trophies(jests, ["AS"]) == {"AS": None}  # Highest ♣: nobody has a Club
    assert award_trophies(jests, ["2C", "3C"]) == {"2C": None, "3C": None}  # ♥ trophies
    assert award_trophies({0: ["2H"], 1: ["4H", "AH"]}, ["2C", "3C"]) == {"2C": 1, "3C": 1}


def test_majority_and_its_tie_break_r4():
    """R4 [FOUND]: most cards of the value; tie -> the tied player with the higher-suited card of it."""
    assert award_trophies({0: ["3D", "3H"], 1: ["3C"]}, ["2S"]) == {"2S": 0}  # 2 threes beat 1
    assert award_trophies({0: ["3D"], 1: ["3C"], 2: ["4S"]}, ["2S"]) == {"2S": 1}  # tie: ♣ > ♦
    assert award_trophies({0: ["2H", "2C"], 1: ["2D", "2S"]}, ["3S"]) == {"3S": 1}  # tie 2-2: ♠ wins
    assert award_trophies({0: ["4H"], 1: ["4D"]}, ["AD"]) == {"AD": 1}  # Majority 4s: ♦ > ♥
    assert award_trophies({0: ["4H", "AS"], 1: ["3C"]}, ["3S"]) == {"3S": None}  # nobody has a 2
    # Aces and the Joker are no "2", "3" or "4".
    assert award_trophies({0: ["AS", "AC", "JK"], 1: ["2H"]}, ["3S"]) == {"3S": 1}


def test_joker_trophy_r4():
    """R4: the Heart trophies go to whoever holds the Joker; unclaimed if the Joker is the other trophy."""
    jests = {"a": ["2S"], "b": ["JK", "4D"], "c": ["3C"]}
    assert award_trophies(jests, ["AH", "3H"]) == {"AH": "b", "3H": "b"}
    no_joker = {"a": ["2S"], "b": ["4D"], "c": ["3C"]}
    assert award_trophies(no_joker, ["JK", "2H"]) == {"JK": "c", "2H": None}


def test_best_jest_and_its_tie_break_r4():
    """R4 [FOUND]: Best Jest = highest Jest score; tie -> highest face value card, then its suit."""
    assert award_trophies({0: ["2S"], 1: ["4C", "AD", "2S"]}, ["JK"]) == {"JK": 0}  # 2 vs 1
    # Tie at 3: 4♥ (face value 4) beats 3♣, although ♥ is the lowest suit.
    assert award_trophies({0: ["3C"], 1: ["4H", "3S"]}, ["JK"]) == {"JK": 1}
    # Tie at 3 with equal highest face value: the suit decides, ♠ > ♣.
    assert award_trophies({0: ["3C"], 1: ["3S"]}, ["JK"]) == {"JK": 1}
    # The Ace counts 1 in the tie-break: A♠ alone = 5 and 3♣+2♣ = 5 tie; 3♣ (3) beats A♠ (1).
    assert award_trophies({0: ["AS"], 1: ["3C", "2C"]}, ["JK"]) == {"JK": 1}


def test_best_jest_no_joke_excludes_the_joker_holder_r4():
    """R4: "Best Jest No Joke" (4♦) excludes the Joker holder; nobody when the Joker is a trophy."""
    jests = {0: ["JK", "4S"], 1: ["2S"], 2: ["AD", "3C"]}
    assert award_trophies(jests, ["4D"]) == {"4D": 1}  # seat 0 (8 points) holds the Joker
    assert award_trophies({0: ["4S"], 1: ["2S"]}, ["4D", "JK"]) == {"4D": 0, "JK": 0}  # one wins both
    assert award_trophies({0: ["JK"]}, ["4D"]) == {"4D": None}


def test_award_trophies_takes_any_player_keys_and_all_trophies():
    jests = {("x", 1): ["2C"], "y": ["JK", "3S"]}
    result = award_trophies(jests, ["AS", "2H"])
    assert result == {"AS": ("x", 1), "2H": "y"}
    assert award_trophies({}, ["JK", "AS"]) == {"JK": None, "AS": None}


# -- final scoring (R4-R7) -------------------------------------------------------------------------
def test_final_scoring_auto_step_trophies_before_and_after_r4_r5():
    """R4: trophies decided on the Jests before any trophy; R5: then they join and score like cards.

    Seat 0 holds the Joker and no Heart (+4); the A♥ "Joker" trophy joins seat 0, so its Joker drops
    to 0 and the lone A♥ scores -5 (R5/R6). Best Jest No Joke (4♦) goes to seat 1 (seat 0 holds the
    Joker and is excluded) and costs it 4 points.
    """
    jests = [["JK", "2S", "4C", "3D", "AC"], ["4S", "3C", "2C", "2D", "3H"], ["AS", "3S", "4H", "2H", "AD"]]
    state = scoring_state(3, jests, ["AH", "4D"])
    assert E.to_act(state).kind == Phase.AUTO
    auto = E.auto_action(state)
    # Before trophies: Joker 4, 2♠, 4♣, -3♦, A♣ not alone in ♣ (1).
    assert score_jest(jests[0]) == 4 + 2 + 4 - 3 + 1
    assert auto["type"] == "final-scoring"
    assert auto["trophies"] == {"AH": 0, "4D": 1}
    expected = [score_jest(jests[0] + ["AH"]), score_jest(jests[1] + ["4D"]), score_jest(jests[2])]
    assert expected == [2 + 4 - 3 + 1 - 5, 4 + 3 + 2 - 2 + 0 - 4, 1 + 3 - 5 + 0]
    assert auto["scores"] == expected
    with pytest.raises(IllegalAction):
        E.step(state, SYSTEM, dict(auto, scores=[0, 0, 0]))
    end = E.step(state, SYSTEM, auto)
    assert E.to_act(end).kind == Phase.OVER
    assert end["jests"][0][-1] == "AH" and end["jests"][1][-1] == "4D"
    result = E.result(end)
    assert list(result.scores) == expected
    assert result.winners == (1,)
    public = E.public_observation(end)
    assert public["scores"] == expected and public["trophy_winners"] == {"AH": 0, "4D": 1}
    # Rules 1.2.0: each final Jest in card order (♠ ♣ ♦ ♥, A to 4, the Joker last), trophies sorted in
    # (tests/engines/test_jest_final_order.py); the state keeps the order taken.
    assert public["jests"] == [["2S", "AC", "4C", "3D", "AH", "JK"], ["4S", "2C", "3C", "2D", "4D", "3H"],
                               ["AS", "3S", "AD", "2H", "4H"]]
    assert sorted(map(sorted, public["jests"])) == sorted(map(sorted, end["jests"]))
    # What each part scored (R6): a player read only his total. Seat 0: the Joker 0 beside one Heart,
    # A♥ alone -5 (the trophy that cost it the Joker's 4), no black pair; seat 1 holds no Joker.
    assert public["breakdown"][0] == {"cards": [["2S", 2], ["AC", 1], ["4C", 4], ["3D", -3], ["AH", -5]],
                                      "joker": 0, "pairs": [], "total": expected[0]}
    assert public["breakdown"][1]["pairs"] == [] and public["breakdown"][1]["joker"] is None
    assert [b["total"] for b in public["breakdown"]] == expected


@pytest.mark.parametrize("cards", [["AS", "AC", "JK"], ["JK", "AH", "2H", "3H", "4H"], ["4S", "4C", "4D", "JK", "AH"],
                                   ["2S", "2C", "4S", "4C"], []])
def test_a_jests_breakdown_adds_up_to_its_score_r6(cards):
    breakdown = jest_breakdown(cards)
    parts = sum(points for _, points in breakdown["cards"]) + (breakdown["joker"] or 0) + 2 * len(breakdown["pairs"])
    assert breakdown["total"] == parts == score_jest(cards)
    assert [card for card, _ in breakdown["cards"]] == [card for card in cards if card != "JK"]
    if cards == ["2S", "2C", "4S", "4C"]:  # two black pairs, +2 each
        assert breakdown["pairs"] == [["2S", "2C"], ["4S", "4C"]]


def test_unclaimed_trophy_scores_for_nobody_r4():
    """R4: an unclaimed trophy stays aside; 4p has one trophy (§2.4)."""
    jests = [["2S", "3S", "4D", "AD"], ["AS", "4S", "2D", "3D"], ["AC", "2C", "3C", "4C"], ["AH", "2H", "3H", "4H"]]
    state = scoring_state(4, jests, ["JK"])
    assert E.auto_action(state)["trophies"] == {"JK": 2}  # Best Jest: 1+2+3+4 = 10
    state = scoring_state(3, [["2S", "3S"], ["4S", "2D"], ["AC", "4D"]], ["JK", "AH"])
    auto = E.auto_action(state)
    assert auto["trophies"] == {"JK": 0, "AH": None}
    end = E.step(state, SYSTEM, auto)
    assert end["trophies"] == ["AH"]  # the unclaimed trophy stays aside
    assert auto["scores"] == [5 + 4, 2, 5 - 4]


def test_winner_tie_break_r7():
    """R7: highest score; tie -> highest face value card (then its suit) in the final Jest."""
    jests = [["3C"], ["4H", "3S"], ["2C", "AH"]]  # 3, 3, 2
    state = scoring_state(3, jests, ["4D", "3D"])  # Best Jest No Joke -> seat 1, Lowest ♦ -> nobody
    auto = E.auto_action(state)
    assert auto["trophies"] == {"4D": 1, "3D": None}
    end = E.step(state, SYSTEM, auto)
    assert auto["scores"] == [3, 3 - 4, 2]
    assert E.result(end).ranks == (1, 3, 2)
    # A real tie on score: seat 1 wins it with its 4♥.
    state = scoring_state(3, [["3C"], ["4H", "3S"], ["2C"]], ["2H", "AH"])  # Joker trophies: unclaimed
    end = E.step(state, SYSTEM, E.auto_action(state))
    assert end["scores"] == [3, 3, 2]
    assert E.result(end).ranks == (2, 1, 3) and E.result(end).winners == (1,)


# -- offers (sealed) and taking order (R1-R3) -------------------------------------------------------
def test_offer_phase_is_simultaneous_and_sealed():
    """Offers are simultaneous and sealed: others see only THAT a seat offered, never its face-up card."""
    state = deal(3, ["JK", "4D"], [["AS", "2S"], ["AC", "2C"], ["AD", "2D"]])
    assert E.to_act(state).seats == (0, 1, 2)
    assert E.legal_actions(state, 1) == [
        {"type": "offer", "up": "AC", "down": "2C"},
        {"type": "offer", "up": "2C", "down": "AC"},
    ]
    state = E.step(state, 1, {"type": "offer", "up": "2C", "down": "AC"})
    assert E.to_act(state).seats == (0, 2)
    assert E.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        E.check_action(state, 1, {"type": "offer", "up": "2C", "down": "AC"})
    for viewer in (0, 2, None):
        view = E.observation(state, viewer) if viewer is not None else E.public_observation(state)
        assert view["offers"][1] == {"offered": True}
        assert view["offers"][0] == ({"offered": False} if viewer != 0 else None)
        assert "2C" not in repr(view) and "AC" not in repr(view)
        assert E.redact(state, 1, {"type": "offer", "up": "2C", "down": "AC"}, viewer) == {"type": "offer"}
    own = E.observation(state, 1)
    assert own["offers"][1] == {"up": "2C", "down": "AC"}
    assert E.redact(state, 1, {"type": "offer", "up": "2C", "down": "AC"}, 1)["up"] == "2C"
    state = E.step(state, 0, {"type": "offer", "up": "AS", "down": "2S"})
    state = E.step(state, 2, {"type": "offer", "up": "2D", "down": "AD"})
    view = E.observation(state, 0)
    assert view["offers"][1] == {"up": "2C", "down": True} and view["offers"][2] == {"up": "2D", "down": True}
    assert "AC" not in repr(view) and "AD" not in repr(view)


def test_r1_highest_face_up_card_takes_first_suit_breaks_ties():
    """R1: highest face-up card; equal values broken by suit ♠>♣>♦>♥."""
    state = deal(3, ["JK", "4D"], [["2H", "AS"], ["2D", "AC"], ["AD", "3S"]])
    state = offer_all(state, ["2H", "2D", "AD"])
    assert E.to_act(state).seats == (1,)  # 2♦ beats 2♥
    assert state["taker"] == 1


def test_r1_joker_face_up_is_worth_zero():
    """R1/rulebook: a face-up Joker is worth zero, below an Ace (1)."""
    state = deal(3, ["4D", "4H"], [["JK", "2S"], ["AH", "2C"], ["AD", "3S"]])
    state = offer_all(state, ["JK", "AH", "AD"])
    assert state["taker"] == 2  # A♦ > A♥ > Joker


def test_r2_chain_and_r3_own_offer_in_3p():
    """R2: the player taken from takes next; R3: only when no other complete offer remains, own offer.

    This is the case where the rulebook's "the third player will only have one option" is wrong:
    0 takes from 1, 1 takes from 0, so 2 must take from its own offer.
    """
    state = deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    state = offer_all(state, ["4S", "2C", "3D"])
    assert state["taker"] == 0
    assert {a["from"] for a in E.legal_actions(state, 0)} == {1, 2}  # R3: not its own offer
    with pytest.raises(IllegalAction) as error:
        E.check_action(state, 0, {"type": "take", "from": 0, "card": "up"})
    assert "R3" in error.value.rule
    state = take(state, 0, 1, "down")
    assert state["taker"] == 1  # R2
    assert {a["from"] for a in E.legal_actions(state, 1)} == {0, 2}
    state = take(state, 1, 0, "up")
    assert state["taker"] == 2  # the only one who has not taken
    assert E.legal_actions(state, 2) == [
        {"type": "take", "from": 2, "card": "up"},
        {"type": "take", "from": 2, "card": "down"},
    ]
    with pytest.raises(IllegalAction) as error:
        E.check_action(state, 2, {"type": "take", "from": 1, "card": "up"})  # 1's offer is incomplete
    assert "R3" in error.value.rule
    state = take(state, 2, 2, "down")
    assert state["jests"] == [["AC"], ["4S"], ["AD"]]
    assert E.to_act(state).kind == Phase.CHANCE  # next round's shuffle of leftovers + 3 deck cards


def test_r2_when_taken_from_player_already_took_highest_visible_card_goes_next():
    """R2: if the player taken from has already taken, the waiting player with the highest visible card goes."""
    state = deal(4, ["JK"], [["4S", "AS"], ["3S", "AC"], ["2D", "AD"], ["3H", "2H"]])
    state = offer_all(state, ["4S", "3S", "2D", "3H"])
    assert state["taker"] == 0
    state = take(state, 0, 1, "up")
    assert state["taker"] == 1
    state = take(state, 1, 0, "down")  # seat 0 already took
    assert state["taker"] == 3  # 3♥ beats 2♦ (value before suit)
    state = take(state, 3, 2, "up")
    assert state["taker"] == 2  # R2 chain again
    assert {a["from"] for a in E.legal_actions(state, 2)} == {3}
    state = take(state, 2, 3, "down")
    assert E.to_act(state).kind == Phase.CHANCE
    assert state["jests"] == [["3S"], ["AS"], ["2H"], ["2D"]]


def test_take_never_names_a_card_and_redaction_hides_nothing_secret():
    state = deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    state = offer_all(state, ["4S", "2C", "3D"])
    for action in E.legal_actions(state, 0):
        assert set(action) == {"type", "from", "card"} and action["card"] in ("up", "down")
        for viewer in (1, 2, None):
            shown = E.redact(state, 0, action, viewer)
            assert not {str(v) for v in shown.values()} & set(CARDS)
    assert E.redact(state, CHANCE, {"type": "shuffle", "order": list(CARDS)}, 0) is None


@pytest.mark.parametrize(
    "action",
    [
        None,
        "take",
        [],
        {},
        {"type": "take"},
        {"type": "take", "from": 1},
        {"type": "take", "from": 1, "card": "AC"},
        {"type": "take", "from": 1, "card": "up", "extra": 1},
        {"type": "take", "from": "1", "card": "up"},
        {"type": "take", "from": True, "card": "up"},
        {"type": "take", "from": 9, "card": "up"},
        {"type": "take", "from": -1, "card": "down"},
        {"type": "take", "from": 1, "card": ["up"]},
        {"type": "offer", "up": "4S", "down": "AS"},
        {"type": "pass"},
    ],
)
def test_malformed_take_actions_raise_illegal_action(action):
    state = deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    state = offer_all(state, ["4S", "2C", "3D"])
    with pytest.raises(IllegalAction):
        E.check_action(state, 0, action)
    with pytest.raises(IllegalAction):
        E.step(state, 0, action)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "offer", "up": "4S", "down": "4S"},
        {"type": "offer", "up": "4S", "down": "2C"},
        {"type": "offer", "up": "4S"},
        {"type": "offer", "up": "4S", "down": "AS", "x": 0},
        {"type": "offer", "up": 4, "down": "AS"},
        {"type": "offer", "up": ["4S"], "down": "AS"},
        {"type": "take", "from": 1, "card": "up"},
        {"up": "4S", "down": "AS"},
    ],
)
def test_malformed_offers_raise_illegal_action(action):
    state = deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    with pytest.raises(IllegalAction):
        E.check_action(state, 0, action)


def test_no_player_acts_in_chance_auto_or_over_phases():
    state = E.initial_state(3, {})
    with pytest.raises(IllegalAction):
        E.check_action(state, 0, {"type": "offer", "up": "AS", "down": "2S"})
    assert all(E.legal_actions(state, seat) == [] for seat in range(3))
    state = scoring_state(3, [["2S"], ["3S"], ["4S"]], ["JK", "AH"])
    with pytest.raises(IllegalAction):
        E.check_action(state, 0, {"type": "take", "from": 1, "card": "up"})
    with pytest.raises(IllegalAction):
        E.step(state, CHANCE, {"type": "shuffle", "order": list(CARDS)})


def test_last_offer_card_joins_the_jest_then_final_scoring_r5():
    """Rulebook ENDING THE GAME: the last offer card joins its owner's Jest, then the AUTO final scoring."""
    rng = random.Random(3)
    state = E.initial_state(4, {})
    while E.to_act(state).kind != Phase.AUTO:
        state = E.step(state, *next_step(E, state, rng))
    assert [len(jest) for jest in state["jests"]] == [4, 4, 4, 4]  # 3 takes + the last offer card
    assert state["offers"] == [None] * 4 and state["deck"] == [] and len(state["trophies"]) == 1
    auto = E.auto_action(state)
    assert set(auto) == {"type", "trophies", "scores"} and list(auto["trophies"]) == state["trophies"]


def test_strict_json_a_bool_never_passes_for_a_seat_through_step():
    """Issue 9 (docs/rules/jest.md "Checking once"): ``true`` is not the seat ``1`` (R3 names a seat's
    offer), neither as the actor nor in ``"from"``, nor is ``1.0``; a shuffle of other cards is refused."""
    state = deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    state = offer_all(state, ["4S", "2C", "3D"])
    assert E.to_act(state).seats == (0,)  # R1: the 4♠ is the highest face-up card
    for bad in ({"type": "take", "from": True, "card": "up"}, {"type": "take", "from": 1.0, "card": "up"}):
        with pytest.raises(IllegalAction):
            E.step(state, 0, bad)
    with pytest.raises(IllegalAction):
        E.step(state, False, {"type": "take", "from": 1, "card": "up"})
    after = E.step(state, 0, {"type": "take", "from": 1, "card": "up"})
    assert after["jests"][0] == ["2C"]
    start = E.initial_state(3, {})
    with pytest.raises(IllegalAction):
        E.step(start, CHANCE, {"type": "shuffle", "order": list(CARDS)[:-1] + [list(CARDS)[0]]})
