"""Jest: an independent rules audit (rulebooks/jest.txt + house rules §2 R1–R7, docs/rules/jest.md).

Every case is worked by hand from the rule texts; states are built through the engine's public API
(``initial_state`` / ``apply`` with chosen shuffles and actions) wherever practical. Only the final
scoring cases build the AUTO-phase state directly (layout as in the engine's module docstring).
"""

from __future__ import annotations

import random

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, Phase, RuleViolation
from domain.games.jest import CARDS, ENGINE, award_trophies, score_jest
from domain.playout import next_step
from tests.engines.test_jest import deal

E = ENGINE


# -- helpers -----------------------------------------------------------------------------------
def first_deal(n, trophies, hands, deck=None):
    """A match after the first shuffle: ``trophies`` face up, ``hands`` per seat, then ``deck`` (top first)."""
    state = deal(n, trophies, hands, deck)
    assert sorted(state["trophies"] + [c for h in state["hands"] for c in h] + state["deck"]) == sorted(CARDS)
    return state


def offer(state, seat, up):
    hand = state["hands"][seat]
    down = hand[1] if hand[0] == up else hand[0]
    action = {"type": "offer", "up": up, "down": down}
    assert action in E.legal_actions(state, seat)
    E.check_action(state, seat, action)
    return E.step(state, seat, action)


def offer_all(state, ups):
    for seat, up in enumerate(ups):
        state = offer(state, seat, up)
    return state


def take(state, seat, source, which):
    action = {"type": "take", "from": source, "card": which}
    assert E.to_act(state) == E.to_act(state).players(seat)
    assert action in E.legal_actions(state, seat)
    E.check_action(state, seat, action)
    return E.step(state, seat, action)


def redeal(state, order):
    assert E.to_act(state).kind == Phase.CHANCE
    return E.step(state, CHANCE, {"type": "shuffle", "order": list(order)})


def sources(state, seat):
    return sorted({(a["from"], a["card"]) for a in E.legal_actions(state, seat)})


def scoring_state(n, jests, trophies):
    """The final AUTO phase with the given Jests and trophies."""
    rounds = {3: 4, 4: 3}[n]
    return {
        "n": n,
        "rounds": rounds,
        "round": rounds,
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


def finish(state):
    auto = E.auto_action(state)
    return auto, E.step(state, SYSTEM, auto)


def codes_in(value):
    """Every card code appearing anywhere in a JSON value."""
    found = set()
    if isinstance(value, str):
        if value in CARDS:
            found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= codes_in(key) | codes_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= codes_in(item)
    return found


# -- a whole 3-player match, worked by hand -------------------------------------------------------
def test_whole_3p_match_by_hand_rulebook_deal_offer_taking_end_and_scoring():
    """Rulebook THE CARDS & THE DEAL, THE OFFER, TAKING CARDS, ENDING THE GAME, AWARDING TROPHY CARDS,
    SCORING, WINNING; house rules §2.5 (3p: 2 trophies, 6 + 3 + 3 + 3 cards, 4 rounds), R1–R7."""
    deck = ["AS", "4D", "3H", "AC", "2C", "3S", "4H", "2D", "AD"]
    state = first_deal(3, ["3C", "4S"], [["4C", "AH"], ["2S", "3D"], ["JK", "2H"]], deck)
    assert state["trophies"] == ["3C", "4S"] and state["deck"] == deck and state["round"] == 1
    public = E.public_observation(state)
    assert [t["card"] for t in public["trophies"]] == ["3C", "4S"]  # trophies dealt face up
    assert [t["trophy"] for t in public["trophies"]] == ["Highest ♥", "Lowest ♣"]
    assert public["deck_count"] == 9 and codes_in(public) == {"3C", "4S"}

    # Round 1. R1: 4♣ is the highest face-up card.
    state = offer_all(state, ["4C", "2S", "2H"])
    assert state["taker"] == 0
    state = take(state, 0, 2, "down")  # the face-down Joker
    assert state["taker"] == 2  # rulebook: the player who had a card taken goes next
    assert sources(state, 2) == [(0, "down"), (0, "up"), (1, "down"), (1, "up")]
    state = take(state, 2, 1, "up")
    assert state["taker"] == 1
    assert sources(state, 1) == [(0, "down"), (0, "up")]  # rulebook: the third player has one offer left
    state = take(state, 1, 0, "down")
    assert state["jests"] == [["JK"], ["AH"], ["2S"]]
    # Round refill: leftovers 4♣ 3♦ 2♥ plus the next three deck cards, reshuffled.
    assert sorted(E.sample_chance(state, random.Random(0))["order"]) == sorted(["4C", "3D", "2H", "AS", "4D", "3H"])
    state = redeal(state, ["AS", "4C", "3D", "3H", "4D", "2H"])
    assert state["hands"] == [["AS", "4C"], ["3D", "3H"], ["4D", "2H"]]
    assert state["round"] == 2 and state["deck"] == deck[3:] and state["jests"] == [["JK"], ["AH"], ["2S"]]

    # Round 2. R1: 3♥ (3) beats 2♥ (2) and A♠ (1): value first, suit only for equal values.
    state = offer_all(state, ["AS", "3H", "2H"])
    assert state["taker"] == 1
    state = take(state, 1, 0, "down")
    state = take(state, 0, 2, "up")
    state = take(state, 2, 1, "down")
    assert state["jests"] == [["JK", "2H"], ["AH", "4C"], ["2S", "3D"]]
    state = redeal(state, ["3S", "AS", "AC", "4D", "2C", "3H"])
    assert state["deck"] == deck[6:]

    # Round 3. R1: 4♦.
    state = offer_all(state, ["AS", "4D", "3H"])
    assert state["taker"] == 1
    state = take(state, 1, 2, "down")
    state = take(state, 2, 0, "up")
    assert sources(state, 0) == [(1, "down"), (1, "up")]
    state = take(state, 0, 1, "down")
    assert state["jests"] == [["JK", "2H", "AC"], ["AH", "4C", "2C"], ["2S", "3D", "AS"]]
    state = redeal(state, ["4H", "3S", "2D", "4D", "AD", "3H"])
    assert state["deck"] == [] and state["round"] == 4

    # Round 4, the last: afterwards the one card left in each offer joins its owner's Jest.
    state = offer_all(state, ["3S", "2D", "AD"])
    assert state["taker"] == 0
    state = take(state, 0, 2, "down")
    state = take(state, 2, 1, "down")
    state = take(state, 1, 0, "up")
    assert E.to_act(state).kind == Phase.AUTO
    assert state["jests"] == [
        ["JK", "2H", "AC", "3H", "4H"],
        ["AH", "4C", "2C", "3S", "2D"],
        ["2S", "3D", "AS", "4D", "AD"],
    ]
    # Before trophies: seat 0 Joker + 3 Hearts: -2-3-4, A♣ alone 5 -> -4; seat 1: 0+4+2+3-2 = 7;
    # seat 2: 2 + A♠ not alone 1 - 3 - 4 - A♦ not alone 1 = -5.
    assert [score_jest(jest) for jest in state["jests"]] == [-4, 7, -5]
    auto, end = finish(state)
    # Highest ♥: 4♥ (seat 0); Lowest ♣: A♣ = 1 (seat 0). One player may win both.
    assert auto["trophies"] == {"3C": 0, "4S": 0}
    # Seat 0 with 3♣ and 4♠: Hearts -9, A♣ no longer alone (1) + 3♣ 3, 4♠ 4 -> -1.
    assert auto["scores"] == [-1, 7, -5]
    result = E.result(end)
    assert result.winners == (1,) and result.ranks == (2, 1, 3)
    assert end["trophies"] == [] and sorted(end["jests"][0][-2:]) == ["3C", "4S"]


def test_4p_round_refill_adds_four_deck_cards_house_rule_2_5():
    """§2.5 [DERIVED]: 4 players: 1 trophy, deal 8 then +4 per round (rulebook: "three more" is for 3p)."""
    deck = ["AD", "2D", "3D", "4D", "AH", "2H", "3H", "4H"]
    state = first_deal(4, ["JK"], [["AS", "2S"], ["3S", "4S"], ["AC", "2C"], ["3C", "4C"]], deck)
    assert state["trophies"] == ["JK"] and state["deck"] == deck
    state = offer_all(state, ["AS", "3S", "AC", "4C"])
    assert state["taker"] == 3  # R1: 4♣
    state = take(state, 3, 1, "up")
    state = take(state, 1, 3, "down")  # seat 3 already took
    # R2 fallback: waiting seats 0 (A♠ up) and 2 (A♣ up): A♠ > A♣ by suit.
    assert state["taker"] == 0
    state = take(state, 0, 2, "up")
    assert state["taker"] == 2 and sources(state, 2) == [(0, "down"), (0, "up")]
    state = take(state, 2, 0, "down")
    assert state["jests"] == [["AC"], ["3C"], ["2S"], ["3S"]]
    outcome = E.sample_chance(state, random.Random(2))
    assert sorted(outcome["order"]) == sorted(["AS", "4S", "2C", "4C"] + deck[:4])
    with pytest.raises(IllegalAction):  # only three new cards: not the 4p refill
        redeal(state, ["AS", "4S", "2C", "4C", "AD", "2D", "3D"])
    state = redeal(state, outcome["order"])
    assert state["deck"] == deck[4:] and state["round"] == 2


# -- taking cards (rulebook TAKING CARDS, R1–R3) ----------------------------------------------------
def test_rulebook_taking_cards_third_player_has_one_offer_left():
    """Rulebook TAKING CARDS: A takes from B, B from C; the third player must take from A's offer,
    face up or face down, and may not take from his own or from an incomplete offer (R3)."""
    state = first_deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    state = offer_all(state, ["4S", "2C", "3D"])
    state = take(state, 0, 1, "up")
    state = take(state, 1, 2, "down")
    assert state["taker"] == 2
    assert sources(state, 2) == [(0, "down"), (0, "up")]
    for bad in ({"from": 2, "card": "up"}, {"from": 1, "card": "down"}, {"from": 1, "card": "up"}):
        with pytest.raises(IllegalAction) as error:
            E.check_action(state, 2, dict(bad, type="take"))
        assert error.value.rule == "jest R3"
    state = take(state, 2, 0, "down")
    assert state["jests"] == [["2C"], ["AD"], ["AS"]]


def test_r1_first_taker_suit_breaks_equal_values_all_suits():
    """R1 / rulebook: equal face-up values are broken by suit ♠ > ♣ > ♦ > ♥."""
    state = first_deal(4, ["JK"], [["3H", "AS"], ["3D", "AC"], ["3C", "AD"], ["3S", "AH"]])
    state = offer_all(state, ["3H", "3D", "3C", "3S"])
    assert state["taker"] == 3
    state = first_deal(4, ["JK"], [["3H", "AS"], ["3D", "AC"], ["3C", "AD"], ["2S", "AH"]])
    state = offer_all(state, ["3H", "3D", "3C", "2S"])
    assert state["taker"] == 2  # 3♣ beats 3♦ 3♥, and every 3 beats 2♠


def test_r1_ace_up_is_worth_one_and_beats_the_joker():
    """Rulebook TAKING CARDS: a face-up Joker is worth zero, Aces are worth 1 (not 5)."""
    state = first_deal(3, ["4D", "4H"], [["AH", "4S"], ["JK", "4C"], ["2H", "3S"]])
    state = offer_all(state, ["AH", "JK", "2H"])
    assert state["taker"] == 2  # 2♥ beats A♥ (1) beats Joker (0)


def test_take_moves_the_card_to_the_takers_jest_face_down_and_is_seen_only_by_him():
    """Rulebook TAKING CARDS: the card taken goes face down to the taker's collection; players may
    look at their own collection and own face-down offer card, never at the opponents'."""
    state = first_deal(3, ["4D", "4H"], [["4S", "JK"], ["2C", "AC"], ["3D", "AD"]])
    state = offer_all(state, ["4S", "2C", "3D"])
    state = take(state, 0, 1, "down")  # the face-down A♣
    assert state["jests"][0] == ["AC"] and state["offers"][1] == {"up": "2C", "down": None}
    assert E.observation(state, 0)["jest"] == ["AC"]
    for viewer in (1, 2, None):
        view = E.observation(state, viewer) if viewer is not None else E.public_observation(state)
        if viewer != 1:
            assert "AC" not in codes_in(view)
        assert "JK" not in codes_in(view)
        if viewer != 2:
            assert "AD" not in codes_in(view)
        assert view["jest_counts"] == [1, 0, 0]
        assert view["offers"][0] == ({"up": "4S", "down": True})
    assert E.observation(state, 1)["offers"][1] == {"up": "2C", "down": None}
    assert E.observation(state, 0)["offers"][0] == {"up": "4S", "down": "JK"}  # own face-down card
    assert E.observation(state, 2)["offers"][2] == {"up": "3D", "down": "AD"}
    assert "AD" not in codes_in(E.observation(state, 0)) and "AD" not in codes_in(E.public_observation(state))


def test_hands_and_deck_are_hidden_and_later_rounds_stay_sealed():
    """Rulebook THE DEAL: dealt cards are seen only by their owner; the remaining pack is face down.
    THE OFFER in round 2 is sealed again until everyone has offered."""
    state = first_deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    for seat in range(3):
        view = E.observation(state, seat)
        assert codes_in(view) == {"JK", "4D"} | set(state["hands"][seat])
        assert view["hand"] == state["hands"][seat]
    assert codes_in(E.public_observation(state)) == {"JK", "4D"}
    state = offer_all(state, ["4S", "2C", "3D"])
    state = take(state, 0, 1, "up")
    state = take(state, 1, 2, "up")
    state = take(state, 2, 0, "down")
    # Between rounds: the leftover face-up cards are public, the face-down leftover is not.
    assert state["offers"] == [{"up": "4S", "down": None}, {"up": None, "down": "AC"}, {"up": None, "down": "AD"}]
    public = E.public_observation(state)
    assert codes_in(public) == {"JK", "4D", "4S", "2C", "3D"}  # 2C and 3D: face-up cards taken (taken_up)
    state = redeal(state, ["AC", "4S", "AD", "2S", "3S", "3C"])
    state = offer(state, 0, "4S")
    for viewer in (1, 2, None):
        view = E.observation(state, viewer) if viewer is not None else E.public_observation(state)
        assert view["offers"][0] == {"offered": True}
        assert "4S" not in codes_in(view) and "AC" not in codes_in(view)


# -- illegal and malformed actions ------------------------------------------------------------------
def test_wrong_seat_or_phase_raises_illegal_action_naming_a_rule():
    """Illegal actions raise IllegalAction with a rule citation, never KeyError/TypeError."""
    state = first_deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    with pytest.raises(IllegalAction) as error:  # a take during the offer phase
        E.check_action(state, 0, {"type": "take", "from": 1, "card": "up"})
    assert error.value.rule == "jest THE OFFER"
    # An action of no type of this game is a format error, as docs/clients.md says (a bot developer's probe:
    # it was refused by THE OFFER, the rule of the phase, where Le Bouffon said "action format").
    for nothing in ({"type": "nope"}, {}, {"type": 5}):
        with pytest.raises(IllegalAction) as error:
            E.check_action(state, 0, nothing)
        assert error.value.rule == "action format", nothing
    for actor in (3, -1, "0", None, 1.5, [0]):
        with pytest.raises(IllegalAction):
            E.step(state, actor, {"type": "offer", "up": "4S", "down": "AS"})
    state = offer_all(state, ["4S", "2C", "3D"])
    with pytest.raises(IllegalAction) as error:  # not seat 1's turn (R1: seat 0 takes first)
        E.check_action(state, 1, {"type": "take", "from": 0, "card": "up"})
    assert error.value.rule == "jest R1/R2"
    with pytest.raises(IllegalAction):  # an offer during the take phase
        E.step(state, 0, {"type": "offer", "up": "4S", "down": "AS"})
    with pytest.raises(IllegalAction):  # no shuffle is due
        E.step(state, CHANCE, E.sample_chance(E.initial_state(3, {}), random.Random(0)))
    with pytest.raises(IllegalAction):  # no automatic step is due
        E.step(state, SYSTEM, {"type": "final-scoring", "trophies": {}, "scores": [0, 0, 0]})
    with pytest.raises(IllegalAction):
        E.auto_action(state)


def test_junk_actions_in_every_phase_raise_only_illegal_action():
    junk = [
        None, 0, "x", [], {}, {"type": None}, {"type": ["take"]}, {"type": {}}, {"type": "offer", "up": None,
        "down": None}, {"type": "offer", "up": [], "down": {}}, {"type": "take", "from": None, "card": None},
        {"type": "take", "from": [1], "card": {}}, {"type": "take", "from": 1.0, "card": "up"},
        {"type": "take", "from": 1, "card": "UP"}, {"type": "shuffle", "order": None},
        {"type": "shuffle", "order": [[1]]}, {"type": "shuffle", "order": {"a": 1}},
        {"type": "final-scoring"}, {"type": "final-scoring", "trophies": [], "scores": None},
    ]
    rng = random.Random(7)
    state = E.initial_state(3, {})
    seen = set()
    while True:
        seen.add(state["phase"])
        for actor in (0, 1, 2, 3, CHANCE, SYSTEM, None):
            for action in junk:
                with pytest.raises(RuleViolation) as error:
                    E.step(state, actor, action)
                assert isinstance(error.value, IllegalAction) and error.value.rule
                if actor not in (CHANCE, SYSTEM):
                    with pytest.raises(IllegalAction):
                        E.check_action(state, actor, action)
        chosen = next_step(E, state, rng)
        if chosen is None:
            break
        state = E.step(state, *chosen)
    assert seen == {"deal", "offer", "take", "scoring", "over"}


# -- trophies (R4) ------------------------------------------------------------------------------------
def test_r4_trophies_decided_before_any_trophy_joins_majority():
    """R4: decided simultaneously on the Jests before any trophy is added. 3♠ (Majority 2s) and 2♥
    (the Joker trophy, itself a 2): the Joker holder's 2♦ ties seat 0's 2♣; ♣ > ♦ gives seat 0 the
    majority although the 2♥ trophy would have given the Joker holder two 2s."""
    jests = [["2C", "3C"], ["JK", "2D"], ["4S"]]
    auto, _ = finish(scoring_state(3, jests, ["3S", "2H"]))
    assert auto["trophies"] == {"3S": 0, "2H": 1}


def test_r4_trophies_decided_before_any_trophy_joins_lowest_heart():
    """R4: 2♣ (Lowest ♥) with the A♥ Joker trophy: the A♥ trophy does not count for Lowest ♥."""
    jests = [["3H", "4S"], ["JK", "4C"], ["2H", "3C"]]
    auto, end = finish(scoring_state(3, jests, ["2C", "AH"]))
    assert auto["trophies"] == {"2C": 2, "AH": 1}
    # R5: A♥ joins the Joker holder: one Heart with the Joker -> Joker 0, lone A♥ -5; 2♥ with no Joker: 0.
    assert auto["scores"] == [4, 4 - 5, 3 + 2]


def test_r4_best_jest_no_joke_tie_break_highest_card_then_suit():
    """R4: Best Jest No Joke ties -> highest face value card, then its suit; the Joker holder is out."""
    jests = [["4H", "3S"], ["3C"], ["JK", "AS", "4C"]]  # 3, 3, 18 (Joker holder)
    auto, _ = finish(scoring_state(3, jests, ["4D", "2H"]))
    assert auto["trophies"] == {"4D": 0, "2H": 2}  # 4♥ beats 3♣ although ♥ is the lowest suit
    jests = [["3C"], ["3S"], ["JK"], ["AD", "AH"]]  # 3, 3, 4 (Joker holder), -5
    auto, _ = finish(scoring_state(4, jests, ["4D"]))
    assert auto["trophies"] == {"4D": 1}  # equal highest value 3: ♠ > ♣


def test_r4_best_jest_uses_jest_scores_not_card_counts_or_values():
    """R4: Best Jest compares Jest scores (R6), with Aces alone 5 and the Joker's Heart rule."""
    jests = [["AS"], ["4S", "JK", "AH"], ["3S", "2S"]]  # 5, 4+0-5 = -1, 5
    assert [score_jest(jest) for jest in jests] == [5, -1, 5]
    auto, _ = finish(scoring_state(3, jests, ["4D", "2D"]))
    # Seat 1 holds the Joker; 5 = 5 and 3♠ beats A♠ (Ace 1). Nobody has a Diamond: Highest ♦ unclaimed.
    assert auto["trophies"] == {"4D": 2, "2D": None}


def test_r4_highest_lowest_with_a_single_card_and_ace():
    """R4: with one card of the suit, its holder is both highest and lowest; Ace = 1 makes it lowest."""
    jests = {0: ["AC", "3D"], 1: ["2S"], 2: ["3S", "4D"]}
    assert award_trophies(jests, ["AS", "4S"]) == {"AS": 0, "4S": 0}  # Highest and Lowest ♣: A♣
    assert award_trophies(jests, ["4C", "2D"]) == {"4C": 1, "2D": 2}  # Lowest ♠ 2♠, Highest ♦ 4♦
    jests = {0: ["AC", "2C"], 1: ["4C"], 2: ["3C"]}
    assert award_trophies(jests, ["AS", "4S"]) == {"AS": 1, "4S": 0}


def test_r4_majority_counts_cards_before_suit():
    """R4 [FOUND]: most cards of the value first; the suit only breaks a tie on the count."""
    jests = {0: ["4S"], 1: ["4D", "4H"], 2: ["4C"]}
    assert award_trophies(jests, ["AD"]) == {"AD": 1}  # two 4s beat the lone 4♠
    jests = {0: ["4H", "3S"], 1: ["4D", "3H"], 2: ["3C", "3D"]}
    assert award_trophies(jests, ["AD", "2S"]) == {"AD": 1, "2S": 2}


# -- trophies join the Jest (R5) and scoring (R6) -------------------------------------------------
def test_r5_a_joker_trophy_changes_the_heart_rule_for_its_winner():
    """R5: the Joker as Best Jest trophy joins the winner's Jest: his Hearts now count against him."""
    jests = [["4S", "4C", "AH"], ["3S"], ["2D"]]  # 4+4+2+0 = 10, 3, -2
    auto, end = finish(scoring_state(3, jests, ["JK", "4H"]))
    assert auto["trophies"] == {"JK": 0, "4H": None}  # nobody held the Joker: the 4♥ trophy is unclaimed
    assert auto["scores"] == [4 + 4 + 2 - 5, 3, -2]  # A♥ alone with the Joker: -5; Joker 0
    assert end["trophies"] == ["4H"] and "JK" in end["jests"][0]


def test_r5_joker_trophy_without_hearts_is_worth_four():
    jests = [["4S", "3S"], ["2S"], ["2D"]]
    auto, _ = finish(scoring_state(3, jests, ["JK", "2H"]))
    assert auto["scores"] == [7 + 4, 2, -2]


def test_r5_heart_trophy_completing_all_four_hearts_makes_them_positive():
    """R5/R6: with the Joker, the fourth Heart (a trophy) turns -1-2-3 into +1+2+3+4."""
    jests = [["JK", "2H", "3H", "4H"], ["3S"], ["2D"]]  # before: -9
    auto, _ = finish(scoring_state(3, jests, ["AH", "4D"]))
    assert auto["trophies"] == {"AH": 0, "4D": 1}
    assert auto["scores"] == [10, 3 - 4, -2]


@pytest.mark.parametrize(
    "cards,expected,why",
    [
        (["AS"], 5, "rulebook SCORING: an Ace alone in its suit is worth 5"),
        (["AC", "AS", "AD", "AH"], 5 + 5 + 2 - 5 + 0, "each Ace alone in its own suit: 5; black pair +2"),
        (["AC", "4C"], 1 + 4, "an Ace with another card of its suit is worth 1"),
        (["AH"], 0, "Hearts are worth zero without the Joker, even an Ace alone"),
        (["AH", "JK", "2S"], -5 + 0 + 2, "Joker with one Heart: Joker 0, the Heart negative"),
        (["JK", "2H", "3H", "4H", "AS"], -9 + 5, "Joker with three Hearts: all three negative"),
        (["JK", "AD"], 4 - 5, "Joker with no Hearts: 4; Diamonds reduce"),
        (["AS", "AC", "2S", "2C"], 1 + 1 + 2 + 2 + 2 + 2, "two black pairs; the Aces are not alone"),
        (["4S", "4C", "4H", "4D"], 4 + 4 + 2 + 0 - 4, "only a Spade and a Club of a rank make a pair"),
        (["JK", "AH", "2H", "3H", "4H", "4S", "4C"], 10 + 10, "all four Hearts positive with the Joker"),
    ],
)
def test_r6_scoring_cases(cards, expected, why):
    assert score_jest(cards) == expected, why


# -- winner (R7) ------------------------------------------------------------------------------------
def test_r7_equal_scores_equal_top_value_suit_decides():
    """R7: highest score; tie -> highest face value card of the final Jest, then its suit."""
    jests = [["4C", "2D"], ["4S", "AH", "2S", "4D"], ["2C"]]
    # seat 0: 4 - 2 = 2; seat 1: 4 + 0 + 2 - 4 = 2; seat 2: 2.
    assert [score_jest(j) for j in jests] == [2, 2, 2]
    state = scoring_state(3, jests, ["2H", "3H"])  # Joker trophies: nobody holds the Joker
    auto, end = finish(state)
    assert auto["trophies"] == {"2H": None, "3H": None} and auto["scores"] == [2, 2, 2]
    assert E.result(end).ranks == (2, 1, 3)  # 4♠ > 4♣ > 2♣
    assert E.result(end).winners == (1,)
    view = E.public_observation(end)
    assert view["winners"] == [1] and view["ranks"] == [2, 1, 3] and view["scores"] == [2, 2, 2]


def test_r7_tie_break_counts_won_trophies_in_the_final_jest():
    """R7 (docs): the tie-break looks at the final Jest, trophies included."""
    # 4p, one trophy. Before: seat 0 3+2-5 = 0; seat 1 (Joker holder) 0-3+3 = 0; seat 2 0; seat 3 -2.
    jests = [["3C", "2S", "AD"], ["JK", "3H", "3S"], ["2H"], ["2D"]]
    auto, end = finish(scoring_state(4, jests, ["4D"]))
    # Best Jest No Joke: seats 0 and 2 tie at 0, 3♣ beats 2♥ -> seat 0; then 3+2-1-4 = 0 (A♦ not alone).
    assert auto["trophies"] == {"4D": 0} and auto["scores"] == [0, 0, 0, -2]
    # Tie at 0: seat 0's 4♦ (a trophy) beats seat 1's 3♠, which beats 2♥.
    assert E.result(end).ranks == (1, 2, 3, 4)


# -- R2 fallback clauses (unreachable in a real match, see docs; pinned on a hand-built state) ------
def _take_state(offers, taken, taker):
    return {
        "n": 4, "rounds": 3, "round": 1, "phase": "take", "trophies": ["JK"], "deck": [],
        "hands": [[] for _ in range(4)], "offers": offers, "jests": [[] for _ in range(4)],
        "taken": taken, "taker": taker, "winners": None, "scores": None,
    }


def test_r2_fallback_no_face_up_ranks_lowest_then_clockwise_from_last_taker():
    """R2 [PROPOSAL]: an offer with no face-up card ranks lowest; remaining ties go clockwise
    (increasing seat numbers, wrapping) from the last taker."""
    offers = [{"up": None, "down": "AS"}, {"up": "4S", "down": "4C"}, {"up": None, "down": "AD"},
              {"up": "2C", "down": None}]
    state = _take_state(offers, [False, True, False, False], 3)
    after = E.step(state, 3, {"type": "take", "from": 1, "card": "up"})
    assert after["taker"] == 0  # seats 0 and 2 tie (no face-up card): seat 0 is next clockwise from 3
    offers[2] = {"up": "AH", "down": "AD"}
    state = _take_state(offers, [False, True, False, False], 3)
    after = E.step(state, 3, {"type": "take", "from": 1, "card": "up"})
    assert after["taker"] == 2  # any face-up card (A♥) beats an offer with none


def test_sample_chance_outside_a_deal_raises_illegal_action():
    """Only a deal phase has a chance outcome; asking for one elsewhere is refused, not a TypeError."""
    state = scoring_state(3, [["2S"], ["3S"], ["4S"]], ["JK", "AH"])
    for phase_state in (state, finish(state)[1]):
        with pytest.raises(IllegalAction):
            E.sample_chance(phase_state, random.Random(0))


def test_actor_that_is_no_seat_is_refused_as_such():
    state = first_deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    for actor in (3, -1, "0", None, True):
        with pytest.raises(IllegalAction) as error:
            E.check_action(state, actor, {"type": "offer", "up": "4S", "down": "AS"})
        assert error.value.rule == "turn order"
    state = offer(state, 0, "4S")
    with pytest.raises(IllegalAction) as error:
        E.check_action(state, 0, {"type": "offer", "up": "4S", "down": "AS"})
    assert error.value.rule == "jest THE OFFER"  # a real seat that has already offered


def test_legal_actions_only_for_real_seats():
    state = first_deal(3, ["JK", "4D"], [["4S", "AS"], ["2C", "AC"], ["3D", "AD"]])
    assert E.legal_actions(state, True) == [] and E.legal_actions(state, 3) == []
    state = offer_all(state, ["4S", "2C", "3D"])
    state = take(state, 0, 1, "up")
    assert state["taker"] == 1 and E.legal_actions(state, True) == [] and E.legal_actions(state, "1") == []


# -- the trophy printed on each card (house rules §2.4 [FOUND]) ---------------------------------------
_TABLE_JESTS = {
    0: ["AS", "3C", "2D", "4H", "JK"],  # score 5 + 3 - 2 - 4 (one Heart with the Joker) + 0 = 2
    1: ["2S", "4C", "3D", "AH", "2H"],  # 2 + 4 - 3 + 0 + 0 = 3
    2: ["3S", "4S", "AC", "2C", "AD"],  # 3 + 4 + 1 + 2 - 5 = 5
}


@pytest.mark.parametrize(
    "trophy,label,winner",
    [
        ("AS", "Highest ♣", 1),  # 4♣
        ("2S", "Majority 3s", 2),  # one 3 each: 3♠ is the highest suit
        ("3S", "Majority 2s", 1),  # 2♠ 2♥
        ("4S", "Lowest ♣", 2),  # A♣ = 1
        ("AC", "Highest ♠", 2),  # 4♠
        ("2C", "Lowest ♥", 1),  # A♥ = 1
        ("3C", "Highest ♥", 0),  # 4♥
        ("4C", "Lowest ♠", 0),  # A♠ = 1
        ("AD", "Majority 4s", 2),  # one 4 each: 4♠
        ("2D", "Highest ♦", 1),  # 3♦
        ("3D", "Lowest ♦", 2),  # A♦ = 1
        ("4D", "Best Jest No Joke", 2),  # 5 (seat 0 holds the Joker anyway)
        ("AH", "Joker", 0),
        ("2H", "Joker", 0),
        ("3H", "Joker", 0),
        ("4H", "Joker", 0),
        ("JK", "Best Jest", 2),
    ],
)
def test_trophy_table_section_2_4(trophy, label, winner):
    """§2.4 [FOUND]: every card's trophy, with Ace = 1 (R4) and suit ♠ > ♣ > ♦ > ♥ for majority ties."""
    from domain.games.jest import trophy_label

    assert [score_jest(_TABLE_JESTS[s]) for s in range(3)] == [2, 3, 5]
    assert trophy_label(trophy) == label
    assert award_trophies(_TABLE_JESTS, [trophy]) == {trophy: winner}


def test_trophy_labels_reach_the_observation():
    state = first_deal(3, ["AD", "JK"], [["4S", "AS"], ["2C", "AC"], ["3D", "2D"]])
    assert E.public_observation(state)["trophies"] == [
        {"card": "AD", "trophy": "Majority 4s"},
        {"card": "JK", "trophy": "Best Jest"},
    ]
