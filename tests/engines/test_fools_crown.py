"""Fool's Crown: hand-worked rule cases. Each test names the rule it checks: the rulebook text
(rulebooks/fools-crown.txt, quoted) or house rule 3.4 (house-rules.md section 3.4, step number), or an
engine decision documented in docs/rules/fools-crown.md (FC-...)."""

from __future__ import annotations

import json

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions, Phase
from domain.games.fools_crown import ENGINE
from domain.games.fools_crown.cards import ALL_CARDS, CROWNS, DRAW_DECK, JOKERS
from domain.games.fools_crown.engine import commit_strength

#: The sealed simultaneous commits (FC-SEAL), an option since rules 1.3.0 made house rule 3.4 step 2's
#: seat order the default: the cases that do not turn on the commit order use it, named explicitly.
SEALED = {"commit_order": "simultaneous"}


def board(hands, deck_top=(), jokers=None, crowns=None, centre=None, discard=(), rnd=1, cap=True, leader=None):
    """A match in the commit phase of round ``rnd`` with the given hands; the rest of the cards in the
    deck below ``deck_top`` (Jokers not held at the very bottom), so all 54 cards are accounted for.
    Without a ``leader`` the commits are sealed and simultaneous (FC-SEAL); with one they go in seat
    order from it (house rule 3.4 step 2)."""
    n = len(hands)
    options = {"safety_cap": cap, "commit_order": "simultaneous" if leader is None else "seat-order"}
    state = ENGINE.initial_state(n, options)
    jokers = jokers or [[] for _ in range(n)]
    crowns = crowns or [[] for _ in range(n)]
    held = [c for cs in crowns for c in cs]
    if centre is None:
        centre = [c for c in CROWNS if c not in held]
    used = set(deck_top) | set(discard) | {c for h in hands for c in h} | {j for js in jokers for j in js}
    rest = [c for c in DRAW_DECK if c not in used and c not in JOKERS] + [j for j in JOKERS if j not in used]
    state.update(
        hands=[list(h) for h in hands],
        deck=list(deck_top) + rest,
        discard=list(discard),
        jokers=[list(j) for j in jokers],
        crowns=[list(c) for c in crowns],
        centre=list(centre),
        stage="commit",
        round=rnd,
        leader=leader,
    )
    assert sorted(_all_cards(state)) == sorted(ALL_CARDS)
    return state


def _all_cards(state):
    cards = state["deck"] + state["discard"] + state["centre"]
    for i in range(state["players"]):
        cards = cards + state["hands"][i] + state["jokers"][i] + state["crowns"][i] + (state["commits"][i] or [])
    return cards


def act(state, seat, action):
    return ENGINE.step(state, seat, action)


def roll(state, seat, dice, kind="roll"):
    return ENGINE.step(state, CHANCE, {"type": kind, "seat": seat, "dice": list(dice)})


def auto(state):
    return ENGINE.step(state, SYSTEM, ENGINE.auto_action(state))


def commit(state, seat, a, b):
    return act(state, seat, {"type": "commit", "cards": [a, b]})


def illegal(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        ENGINE.check_action(state, seat, action)
    return info.value


HAND_A = ["KH", "8H", "7C", "3D", "2S"]
HAND_B = ["QS", "9S", "6C", "4D", "2C"]


# -- Battle Strength -------------------------------------------------------------------------------
def test_rulebook_example_18_royal_crown_joker_is_21():
    """Rulebook: "cards worth 18 + Royal Alliance 1 + Crown Alliance 1 + Joker 1 = 21 Strength"
    (house rule 3.4 step 3): King and 8 of Hearts, the Heart Crown held, one Joker."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []], crowns=[["AH"], []])
    s = commit(s, 0, "KH", "8H")
    s = commit(s, 1, "QS", "6C")
    s = roll(roll(s, 0, [3, 4]), 1, [5, 5])
    resolution = ENGINE.auto_action(s)
    assert resolution["type"] == "resolve-round"
    assert resolution["bonuses"][0] == {
        "cards": 18, "royal_alliance": 1, "crown_alliance": 1, "jokers": 1, "total": 21,
    }
    assert resolution["strengths"] == [21, 16]
    assert resolution["qualified"] == [0, 1] and resolution["winner"] == 0


def test_royal_alliance_is_noble_and_squire_of_one_suit():
    """House rule 3.4 step 3 Royal Alliance: +1 for a Noble and a Squire sharing a suit; never for two Squires."""
    assert commit_strength(["KH", "8H"], [], 0)["total"] == 19
    assert commit_strength(["KH", "8S"], [], 0)["total"] == 18
    assert commit_strength(["9H", "8H"], [], 0)["total"] == 17  # two Squires form no alliance
    assert commit_strength(["JD", "10D"], [], 0)["total"] == 21  # a Knight is a Squire


def test_crown_alliance_needs_royal_alliance_and_matching_crown():
    """House rule 3.4 step 3 Crown Alliance: +1 only with a Royal Alliance in the suit of a Crown held."""
    assert commit_strength(["KH", "8H"], ["AS"], 0)["total"] == 19  # Crown of another suit
    assert commit_strength(["KH", "8S"], ["AH", "AS"], 0)["total"] == 18  # no Royal Alliance
    assert commit_strength(["KS", "8S"], ["AH", "AS"], 0)["crown_alliance"] == 1


def test_each_joker_held_adds_one():
    """Rulebook: Jokers "give a lasting +1 Battle Strength each"."""
    assert commit_strength(["5C", "4D"], [], 2)["total"] == 11


def test_dice_never_add_to_strength():
    """Rulebook: "Dice only determine qualification—not Battle Strength"."""
    s = board([HAND_A, HAND_B])
    s = commit(commit(s, 0, "KH", "2S"), 1, "QS", "2C")
    s = roll(roll(s, 0, [6, 6]), 1, [3, 3])
    assert ENGINE.auto_action(s)["strengths"] == [12, 12]


# -- Commit ----------------------------------------------------------------------------------------
def test_noble_and_squire_required_when_a_noble_is_held():
    """Rulebook "select one Noble and one Squire"; two Squires only without a Noble (house rule 3.4 step 2)."""
    s = board([HAND_A, HAND_B])
    commits = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "commit"]
    assert len(commits) == 4  # the King with each of the four Squires
    assert all("KH" in a["cards"] for a in commits)
    error = illegal(s, 0, {"type": "commit", "cards": ["8H", "7C"]})
    assert "Noble" in error.detail


def test_two_squires_when_no_noble():
    """Rulebook: "If you have no Noble, you may use two Squires instead"."""
    s = board([["9H", "8H", "7C", "3D", "2S"], HAND_B])
    commits = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "commit"]
    assert len(commits) == 10
    s = commit(s, 0, "8H", "9H")
    assert s["commits"][0] == ["9H", "8H"]


def test_two_nobles_never_committed():
    """Rulebook: a commit is a Noble and a Squire (or two Squires)."""
    s = board([["KH", "QH", "7C", "3D", "2S"], HAND_B])
    illegal(s, 0, {"type": "commit", "cards": ["KH", "QH"]})


def test_higher_card_face_up_lower_face_down():
    """Rulebook "The higher card is displayed face up" (house rule 3.4 step 2); FC-UP: on equal value the
    Noble is face up, beside a Knight 10."""
    s = board([["8H", "KH", "7C", "3D", "2S"], ["JC", "10C", "6C", "4D", "2C"]])
    s = act(s, 0, {"type": "commit", "cards": ["8H", "KH"]})
    assert s["commits"][0] == ["KH", "8H"]
    s = act(s, 1, {"type": "commit", "cards": ["10C", "JC"]})
    assert s["commits"][1] == ["JC", "10C"]


def test_commits_are_sealed_until_all_have_committed_then_face_down_until_resolved():
    """House rule 3.4 step 2 and FC-SEAL: simultaneous sealed commits; the face-up card shows once all
    have committed; the face-down card at the round's resolution."""
    s = board([HAND_A, HAND_B])
    assert ENGINE.to_act(s).seats == (0, 1)
    s = commit(s, 0, "KH", "8H")
    assert ENGINE.observation(s, 1)["commits"][0] == [None, None]
    assert ENGINE.observation(s, 0)["commits"][0] == ["KH", "8H"]
    assert ENGINE.redact(s, 0, {"type": "commit", "cards": ["KH", "8H"]}, 1) == {"type": "commit"}
    s = commit(s, 1, "QS", "9S")
    assert ENGINE.observation(s, 1)["commits"][0] == ["KH", None]
    assert ENGINE.public_observation(s)["commits"] == [["KH", None], ["QS", None]]
    s = auto(roll(roll(s, 0, [3, 4]), 1, [5, 5]))
    assert ENGINE.public_observation(s)["commits"] == [["KH", "8H"], ["QS", "9S"]]


# -- Noble Exchange --------------------------------------------------------------------------------
def test_noble_exchange_without_squire_sits_out():
    """Rulebook: "If you have no Squire, you must perform a Noble Exchange: reveal your hand, discard two
    Nobles, draw two replacements, and sit out that round" (house rule 3.4 step 2: no commit, no roll)."""
    nobles = ["JC", "QC", "KC", "JD", "QD"]
    s = board([nobles, HAND_B], deck_top=["5H", "6H"])
    legal = ENGINE.legal_actions(s, 0)
    assert {a["type"] for a in legal} == {"noble-exchange"} and len(legal) == 10
    illegal(s, 0, {"type": "commit", "cards": ["JC", "QC"]})
    s = act(s, 0, {"type": "noble-exchange", "cards": ["QD", "JC"]})
    assert s["exchanged"][0] == sorted(nobles, key=ALL_CARDS.index)
    assert ENGINE.public_observation(s)["exchanged"][0] == s["exchanged"][0]  # revealed to all
    assert sorted(s["hands"][0]) == sorted(["QC", "KC", "JD", "5H", "6H"])
    assert s["discard"] == ["JC", "QD"]
    assert s["done"][0] and s["commits"][0] is None
    s = commit(s, 1, "QS", "9S")
    assert s["stage"] == "roll" and ENGINE.chance_outcomes(s)[0][0]["seat"] == 1  # only seat 1 rolls
    s = roll(s, 1, [1, 1])  # seat 1 fails: nobody qualifies
    resolution = ENGINE.auto_action(s)
    assert resolution["strengths"] == [None, 20] and resolution["winner"] is None


def test_noble_exchange_only_without_squire():
    """Rulebook: the Noble Exchange is for a hand with no Squire."""
    s = board([HAND_A, HAND_B])
    illegal(s, 0, {"type": "noble-exchange", "cards": ["KH", "8H"]})
    s = board([["JC", "QC", "KC", "JD", "QD"], HAND_B])
    illegal(s, 0, {"type": "noble-exchange", "cards": ["JC"]})


def test_noble_exchange_player_cannot_be_challenged():
    """House rule 3.4 step 6: the challenged player must have committed this round (FC-CHALLENGE, by default:
    the option challenge_sat_out, tests/engines/test_fools_crown_options.py, lets him be challenged)."""
    s = board(
        [HAND_A, ["JC", "QC", "KC", "JD", "QD"], HAND_B],
        crowns=[["AC"], ["AD", "AH"], ["AS"]],
    )
    s = commit(s, 0, "KH", "8H")
    s = act(s, 1, {"type": "noble-exchange", "cards": ["JC", "QC"]})
    s = commit(s, 2, "QS", "2C")
    s = auto(roll(roll(s, 0, [3, 3]), 2, [3, 3]))
    assert s["winner"] == 0 and s["stage"] == "claim"
    legal = ENGINE.legal_actions(s, 0)
    assert {a.get("target") for a in legal if a["type"] == "challenge"} == {2}
    error = illegal(s, 0, {"type": "challenge", "target": 1, "crown": "AD"})
    assert "3.4" in error.rule


# -- Joker gamble ----------------------------------------------------------------------------------
def test_gamble_joker_shuffled_in_first_and_can_come_straight_back():
    """Rulebook: sacrifice one Joker per round to exchange 1-3 cards; "The Joker is shuffled into the live
    draw deck before replacements are drawn, so it may immediately return"; drawn Jokers are kept and replaced."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []])
    s = act(s, 0, {"type": "gamble", "cards": ["2S", "3D"]})
    assert s["stage"] == "gamble-shuffle" and s["jokers"][0] == []
    assert sorted(s["discard"]) == ["2S", "3D"] and len(s["hands"][0]) == 3
    assert ENGINE.to_act(s).kind == Phase.CHANCE
    order = ["JOKER1"] + s["deck"]
    s = ENGINE.step(s, CHANCE, {"type": "shuffle", "order": order})
    assert s["jokers"][0] == ["JOKER1"]  # came straight back, kept
    assert len(s["hands"][0]) == 5 and s["hands"][0][3:] == order[1:3]  # and replaced
    assert s["stage"] == "commit" and not s["done"][0]  # still commits normally
    assert all(a["type"] != "gamble" for a in ENGINE.legal_actions(s, 0))
    error = illegal(s, 0, {"type": "gamble", "cards": ["KH"]})
    assert "once per round" in error.detail or "already" in error.detail


def test_gamble_needs_a_joker_and_one_to_three_cards():
    """Rulebook: "a player with a Joker may sacrifice one Joker per round to exchange 1–3 playable cards"."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []])
    illegal(s, 1, {"type": "gamble", "cards": ["QS"]})
    illegal(s, 0, {"type": "gamble", "cards": []})
    illegal(s, 0, {"type": "gamble", "cards": ["KH", "8H", "7C", "3D"]})
    assert len([a for a in ENGINE.legal_actions(s, 0) if a["type"] == "gamble"]) == 5 + 10 + 10


def test_gamble_shuffle_must_hold_the_joker():
    """Rulebook: the sacrificed Joker goes into the live deck: a shuffle without it is rejected."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []])
    s = act(s, 0, {"type": "gamble", "cards": ["2S"]})
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "shuffle", "order": list(s["deck"])})


def test_gambled_joker_loses_its_bonus():
    """Rulebook: the Joker is sacrificed, so its +1 is gone unless it is drawn back."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []])
    s = act(s, 0, {"type": "gamble", "cards": ["2S"]})
    deck = [c for c in s["deck"]] + ["JOKER1"]
    s = ENGINE.step(s, CHANCE, {"type": "shuffle", "order": deck})
    assert s["jokers"][0] == []
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "9S")
    assert ENGINE.auto_action(roll(roll(s, 0, [3, 3]), 1, [3, 3]))["strengths"][0] == 19


# -- Qualification and the round winner --------------------------------------------------------------
def test_qualification_6_to_12_joker_face_counts_one():
    """Rulebook: "A total of 6–12 qualifies; a total of 2–5 fails. The Joker face on a die counts as 1."
    (face 1 is the Joker face)."""
    s = board([HAND_A, HAND_B])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")  # 19 against 12
    failed = ENGINE.auto_action(roll(roll(s, 0, [1, 4]), 1, [1, 5]))
    assert failed["qualified"] == [1] and failed["winner"] == 1  # the stronger seat 0 rolled 5: failed
    both = ENGINE.auto_action(roll(roll(s, 0, [1, 5]), 1, [6, 6]))
    assert both["qualified"] == [0, 1] and both["winner"] == 0 and both["tied"] == []
    none = ENGINE.auto_action(roll(roll(s, 0, [2, 3]), 1, [1, 1]))
    assert none["qualified"] == [] and none["winner"] is None


def test_highest_strength_among_qualifiers_wins():
    """Rulebook: "Among qualifiers, the highest Battle Strength is the round winner"."""
    s = board([HAND_A, HAND_B, ["JC", "10C", "5S", "4S", "3S"]])
    s = commit(s, 0, "KH", "8H")  # 19
    s = commit(s, 1, "QS", "2C")  # 12
    s = commit(s, 2, "JC", "10C")  # 21, but fails
    s = roll(roll(roll(s, 0, [2, 4]), 1, [6, 6]), 2, [2, 2])
    resolution = ENGINE.auto_action(s)
    assert resolution["strengths"] == [19, 12, 21]
    assert resolution["qualified"] == [0, 1] and resolution["winner"] == 0


def test_no_qualifier_means_no_winner():
    """House rule 3.4 step 5: no qualifier, no winner; the round is cleaned up and the next begins."""
    s = board([HAND_A, HAND_B])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "9S")
    s = auto(roll(roll(s, 0, [1, 1]), 1, [2, 3]))
    assert s["stage"] == "commit" and s["round"] == 2
    assert s["centre"] == CROWNS and s["crowns"] == [[], []]
    assert [len(h) for h in s["hands"]] == [5, 5]
    assert sorted(s["discard"]) == sorted(["KH", "8H", "QS", "9S"])


def test_tiebreak_rolls_and_ties_reroll():
    """Rulebook: "If the highest strengths tie, use the Roll Tiebreaker button; highest tiebreak roll
    wins, and ties reroll" (house rule 3.4 step 5: 2d6 for the tied players only)."""
    s = board([HAND_A, ["KS", "8S", "6C", "4D", "2C"], ["QD", "2D", "6D", "4H", "3H"]])
    s = commit(s, 0, "KH", "8H")
    s = commit(s, 1, "KS", "8S")
    s = commit(s, 2, "QD", "2D")
    s = auto(roll(roll(roll(s, 0, [3, 3]), 1, [3, 3]), 2, [6, 6]))
    assert s["stage"] == "tiebreak" and s["tiebreak"]["seats"] == [0, 1]
    outcomes = ENGINE.chance_outcomes(s)
    assert len(outcomes) == 36 and outcomes[0][0]["type"] == "tiebreak-roll" and outcomes[0][0]["seat"] == 0
    s = roll(roll(s, 0, [2, 4], "tiebreak-roll"), 1, [3, 3], "tiebreak-roll")  # tie: reroll
    assert s["stage"] == "tiebreak" and s["tiebreak"]["rolls"] == [None, None]
    s = roll(roll(s, 0, [1, 2], "tiebreak-roll"), 1, [5, 1], "tiebreak-roll")
    assert s["stage"] == "claim" and s["winner"] == 1
    with pytest.raises(IllegalAction):  # seat 2 was not tied and never rolls
        roll(board([HAND_A, HAND_B]), 2, [1, 1], "tiebreak-roll")


# -- Claims and challenges -------------------------------------------------------------------------
def test_winner_claims_one_crown_of_choice():
    """Rulebook: "The round winner chooses one Crown from the center battlefield. You can claim at most
    one Crown per round."; only the winner acts."""
    s = board([HAND_A, HAND_B])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = auto(roll(roll(s, 0, [3, 3]), 1, [3, 3]))
    assert ENGINE.to_act(s).seats == (0,)
    assert ENGINE.legal_actions(s, 1) == []
    illegal(s, 1, {"type": "claim", "crown": "AS"})
    assert sorted(a["crown"] for a in ENGINE.legal_actions(s, 0)) == sorted(CROWNS)
    illegal(s, 0, {"type": "pass"})  # a Crown in the centre must be claimed
    illegal(s, 0, {"type": "challenge", "target": 1, "crown": "AS"})
    s = act(s, 0, {"type": "claim", "crown": "AS"})
    assert s["crowns"][0] == ["AS"] and "AS" not in s["centre"]
    assert s["stage"] == "commit" and s["round"] == 2  # one Crown, then the next round


def test_challenge_once_centre_is_empty():
    """House rule 3.4 step 6: with the centre empty the round winner may challenge a Crown holder who
    committed this round and take one Crown of his choice from him."""
    s = board([HAND_A, HAND_B, ["QD", "2D", "6D", "4H", "3H"]], crowns=[["AC"], ["AD", "AH"], ["AS"]])
    assert s["centre"] == []
    s = commit(s, 0, "KH", "8H")
    s = commit(s, 1, "QS", "2C")
    s = commit(s, 2, "QD", "2D")
    s = auto(roll(roll(roll(s, 0, [3, 3]), 1, [1, 1]), 2, [2, 2]))  # others failed: still challengeable
    legal = ENGINE.legal_actions(s, 0)
    assert {"type": "pass"} in legal
    assert sorted((a["target"], a["crown"]) for a in legal if a["type"] == "challenge") == [
        (1, "AD"), (1, "AH"), (2, "AS"),
    ]
    illegal(s, 0, {"type": "challenge", "target": 0, "crown": "AC"})
    illegal(s, 0, {"type": "challenge", "target": 1, "crown": "AS"})
    s = act(s, 0, {"type": "challenge", "target": 1, "crown": "AH"})
    assert s["crowns"] == [["AC", "AH"], ["AD"], ["AS"]]
    assert s["round"] == 2


def test_round_winner_may_decline_a_challenge():
    """House rule 3.4 step 6: the winner "may challenge" (so may pass)."""
    s = board([HAND_A, HAND_B], crowns=[["AC"], ["AD", "AH", "AS"]])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = act(auto(roll(roll(s, 0, [3, 3]), 1, [3, 3])), 0, {"type": "pass"})
    assert s["crowns"] == [["AC"], ["AD", "AH", "AS"]] and s["round"] == 2


def test_only_round_winner_challenges():
    """Rulebook: the round winner is "the only player who can initiate a challenge"; a qualifier who lost
    cannot act."""
    s = board([HAND_A, HAND_B], crowns=[["AC"], ["AD", "AH", "AS"]])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = auto(roll(roll(s, 0, [3, 3]), 1, [3, 3]))
    assert ENGINE.legal_actions(s, 1) == []
    illegal(s, 1, {"type": "challenge", "target": 0, "crown": "AC"})


def test_four_crowns_win_at_once():
    """Rulebook: "The first player to hold all four Crowns wins the game!" (immediately)."""
    s = board([HAND_A, HAND_B], crowns=[["AC", "AD", "AH"], []])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = act(auto(roll(roll(s, 0, [3, 3]), 1, [3, 3])), 0, {"type": "claim", "crown": "AS"})
    assert ENGINE.to_act(s).kind == Phase.OVER
    result = ENGINE.result(s)
    assert result.scores == (4, 0) and result.ranks == (1, 2) and result.winners == (0,)
    assert result.detail["reason"] == "four-crowns"
    assert ENGINE.legal_actions(s, 0) == [] and ENGINE.legal_actions(s, 1) == []


def test_four_crowns_by_challenge():
    """House rule 3.4 step 6 and Victory: a challenge that completes the four Crowns wins."""
    s = board([HAND_A, HAND_B], crowns=[["AC", "AD", "AH"], ["AS"]])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = act(auto(roll(roll(s, 0, [3, 3]), 1, [3, 3])), 0, {"type": "challenge", "target": 1, "crown": "AS"})
    assert ENGINE.result(s).winners == (0,)


# -- Safety cap ------------------------------------------------------------------------------------
def test_safety_cap_after_30_rounds_most_crowns_then_jokers_then_shared():
    """House rule 3.4 Victory, optional safety cap (option safety_cap, default on: FC-CAP): after 30
    rounds the most Crowns wins; ties -> most Jokers -> shared."""
    assert ENGINE.default_options()["safety_cap"] is True
    s = board(
        [HAND_A, HAND_B, ["QD", "2D", "6D", "4H", "3H"]],
        crowns=[["AC", "AD"], ["AH", "AS"], []], jokers=[[], ["JOKER1"], []], rnd=30,
    )
    s = commit(commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C"), 2, "QD", "2D")
    s = auto(roll(roll(roll(s, 0, [1, 1]), 1, [1, 1]), 2, [1, 1]))
    result = ENGINE.result(s)
    assert result.detail["reason"] == "safety-cap" and result.detail["rounds"] == 30
    assert result.scores == (2, 2, 0) and result.ranks == (2, 1, 3)
    assert ENGINE.public_observation(s)["end"]["winner"] == 1  # the view names the seat ranked first

    s = board([HAND_A, HAND_B], crowns=[["AC", "AD"], ["AH", "AS"]], rnd=30)
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = auto(roll(roll(s, 0, [1, 1]), 1, [1, 1]))
    assert ENGINE.result(s).ranks == (1, 1)  # shared
    assert ENGINE.public_observation(s)["end"]["winner"] is None

    s = board([HAND_A, HAND_B], rnd=30, cap=False)
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = auto(roll(roll(s, 0, [1, 1]), 1, [1, 1]))
    assert ENGINE.result(s) is None and s["round"] == 31


def test_at_the_safety_cap_the_views_winner_is_the_matchs_not_the_last_rounds():
    """Round 30 won by seat 2, who claims a Crown and still ranks last (Crowns tied at one each, then
    Jokers): the view's `winner` said 2, the seat that lost, beside `end.winner` null. Once the match
    is over `winner` is the match's (as after four Crowns); the last round's stays in `last_round`."""
    s = board([["KH", "9C", "2C", "3C", "4C"], ["QS", "9D", "3D", "4D", "5D"], ["JD", "2H", "6D", "7D", "8D"]],
              crowns=[["AC"], ["AD"], []], jokers=[["JOKER1"], ["JOKER2"], []], centre=["AH", "AS"], rnd=30)
    s = commit(commit(commit(s, 0, "KH", "9C"), 1, "QS", "9D"), 2, "JD", "2H")
    s = auto(roll(roll(roll(s, 0, [1, 1]), 1, [1, 1]), 2, [6, 6]))
    s = act(s, 2, {"type": "claim", "crown": "AH"})
    assert ENGINE.result(s).ranks == (1, 1, 3) and ENGINE.result(s).winners == (0, 1)
    view = ENGINE.public_observation(s)
    assert view["stage"] == "over" and view["end"]["winner"] is None and view["winner"] is None
    assert view["last_round"]["winner"] == 2  # the round's winner, where a client finds it


#: Round 30 of a capped two-seat match, both seats on two Crowns and no Joker, the deck's second card a
#: Joker: whoever draws it at round 30's refill ranks first alone (docs/rules/fools-crown.md, FC-CAP).
CAP_DECK = ["5C", "JOKER1", "9H", "10C"]


def capped_round_30_without_a_winner(engine=ENGINE):
    """The last round under the safety cap, played out with nobody qualifying (so it has no winner and
    the refill starts at seat 30 mod 2 = 0, FC-REFILL); each seat committed two of its five cards."""
    s = board([HAND_A, HAND_B], crowns=[["AC", "AD"], ["AH", "AS"]], rnd=30, deck_top=CAP_DECK)
    for seat, cards in ((0, ["KH", "8H"]), (1, ["QS", "2C"])):
        s = engine.step(s, seat, {"type": "commit", "cards": cards})
    for seat in (0, 1):
        s = engine.step(s, CHANCE, {"type": "roll", "seat": seat, "dice": [1, 1]})
    return engine.step(s, SYSTEM, engine.auto_action(s))


def test_the_safety_caps_last_round_ends_with_its_refill_and_a_joker_it_reveals_counts():
    """House rule 3.4 step 7 puts the refill inside the round ("Cleanup: played cards to the discard;
    everyone refills to 5 (Jokers revealed, kept, replaced)"), and the optional safety cap ends the match
    "after 30 rounds, the most Crowns wins; ties -> most Jokers -> shared". So round 30 ends with its
    refill and the Joker drawn there breaks the tie of Crowns (FC-CAP, rules 1.4.0): seat 0 refills first,
    draws 5C, reveals and keeps JOKER1, draws 9H, and ranks first alone; seat 1 then draws 10C and one
    more. Rules 1.3.0 and before ended the match before that refill, with the ranks shared."""
    s = capped_round_30_without_a_winner()
    assert s["stage"] == "over" and ENGINE.to_act(s).kind == Phase.OVER
    assert s["round"] == 30 and s["end"] == {"reason": "safety-cap", "winner": 0, "rounds": 30}
    assert s["jokers"] == [["JOKER1"], []] and [len(h) for h in s["hands"]] == [5, 5]
    assert {"5C", "9H"} <= set(s["hands"][0]) and "10C" in s["hands"][1]
    assert s["draws"] == [] and s["commits"] == [None, None]
    assert sorted(_all_cards(s)) == sorted(ALL_CARDS)
    result = ENGINE.result(s)
    assert result.ranks == (1, 2) and result.winners == (0,) and result.scores == (2, 2)
    assert result.detail["jokers"] == [1, 0] and result.detail["rounds"] == 30
    view = ENGINE.public_observation(s)
    assert view["round"] == 30 and view["end"]["winner"] == 0 and view["winner"] == 0
    assert view["jokers"] == [1, 0] and view["hands"] == [5, 5] and view["last_round"]["round"] == 30


# -- Cleanup, draws, reshuffles --------------------------------------------------------------------
def test_reshuffle_discards_when_the_deck_runs_out():
    """Rulebook: "Played cards are discarded and hands refill to five playable cards. The discard pile is
    reshuffled if the draw deck runs out." (a CHANCE step, a permutation of the discard pile)."""
    s = board([HAND_A, HAND_B])
    rest = s["deck"]
    s["deck"], s["discard"] = ["5H"], [c for c in rest if c != "5H"]
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = auto(roll(roll(s, 0, [1, 1]), 1, [1, 1]))
    assert s["stage"] == "reshuffle" and s["deck"] == []
    assert ENGINE.to_act(s).kind == Phase.CHANCE
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "shuffle", "order": s["discard"][1:]})
    order = list(reversed(s["discard"]))
    s = ENGINE.step(s, CHANCE, {"type": "shuffle", "order": order})
    assert s["stage"] == "commit" and [len(h) for h in s["hands"]] == [5, 5]
    assert sorted(_all_cards(s)) == sorted(ALL_CARDS)


def test_initial_deal_jokers_revealed_and_replaced():
    """Rulebook: "Jokers are displayed separately when drawn ... a replacement card is drawn to keep five
    playable cards" (house rule 3.4: also when dealt)."""
    s = ENGINE.initial_state(2, SEALED)
    assert ENGINE.to_act(s).kind == Phase.CHANCE and ENGINE.chance_outcomes(s) is None
    order = ["JOKER1"] + [c for c in DRAW_DECK if c != "JOKER1"]
    s = ENGINE.step(s, CHANCE, {"type": "shuffle", "order": order})
    assert s["jokers"] == [["JOKER1"], []]
    assert [len(h) for h in s["hands"]] == [5, 5] and s["centre"] == CROWNS
    assert len(s["deck"]) == 50 - 11 and s["stage"] == "commit"
    assert ENGINE.observation(s, 1)["jokers"] == [1, 0]


# -- Contract details ------------------------------------------------------------------------------
def test_dice_are_public_chance_with_36_outcomes():
    """Every die is CHANCE: 36 equally likely outcomes of two dice, public; shuffles are hidden."""
    s = commit(commit(board([HAND_A, HAND_B]), 0, "KH", "8H"), 1, "QS", "2C")
    outcomes = ENGINE.chance_outcomes(s)
    assert len(outcomes) == 36 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert ENGINE.chance_is_public(s, outcomes[0][0])
    assert ENGINE.redact(s, CHANCE, outcomes[5][0], 1) == outcomes[5][0]
    assert ENGINE.redact(s, CHANCE, {"type": "shuffle", "order": ["2C"]}, 0) is None
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "roll", "seat": 0, "dice": [0, 7]})
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "roll", "seat": 1, "dice": [1, 2]})  # seat 0 rolls first


def test_resolution_must_match_the_rules():
    """The resolve-round automatic step carries the computed result; a tampered one is refused."""
    s = commit(commit(board([HAND_A, HAND_B]), 0, "KH", "8H"), 1, "QS", "2C")
    s = roll(roll(s, 0, [3, 3]), 1, [3, 3])
    assert ENGINE.to_act(s).kind == Phase.AUTO
    forged = dict(ENGINE.auto_action(s), winner=1)
    with pytest.raises(IllegalAction):
        ENGINE.step(s, SYSTEM, forged)


def test_gamble_redacted_to_a_count():
    """FC-DISCARD: the discard pile is face down, so a gamble shows others only how many cards went."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []])
    action = {"type": "gamble", "cards": ["2S", "3D"]}
    assert ENGINE.redact(s, 0, action, 1) == {"type": "gamble", "count": 2}
    assert ENGINE.redact(s, 0, action, None) == {"type": "gamble", "count": 2}
    assert ENGINE.redact(s, 0, action, 0) == action


@pytest.mark.parametrize(
    "seat, action",
    [
        (1, {"type": "claim", "crown": "AS"}),
        (0, {"type": "commit"}),
        (0, {"type": "commit", "cards": ["KH", "8H"], "extra": 1}),
        (0, {"type": "commit", "cards": "KH 8H"}),
        (0, {"type": "commit", "cards": ["KH", 8]}),
        (0, {"type": "commit", "cards": ["KH", "KH"]}),
        (0, {"type": "commit", "cards": ["KH", "9S"]}),
        (0, {"type": "commit", "cards": ["KH", "8H", "7C"]}),
        (0, {"type": "fold"}),
        (0, {"cards": ["KH", "8H"]}),
        (0, ["commit"]),
        (5, {"type": "commit", "cards": ["KH", "8H"]}),
        ("x", {"type": "commit", "cards": ["KH", "8H"]}),
    ],
)
def test_malformed_or_illegal_actions_are_refused(seat, action):
    """Contract: anything not legal raises IllegalAction (never KeyError/TypeError)."""
    s = board([HAND_A, HAND_B])
    error = illegal(s, seat, action)
    assert error.rule and error.detail
    with pytest.raises(IllegalAction):
        ENGINE.step(s, seat, action)


def test_challenge_malformed_target_refused():
    """Contract: a challenge names a seat number and a Crown that seat holds."""
    s = board([HAND_A, HAND_B], crowns=[["AC"], ["AD", "AH", "AS"]])
    s = commit(commit(s, 0, "KH", "8H"), 1, "QS", "2C")
    s = auto(roll(roll(s, 0, [3, 3]), 1, [3, 3]))
    for action in (
        {"type": "challenge", "target": "1", "crown": "AD"},
        {"type": "challenge", "target": True, "crown": "AD"},
        {"type": "challenge", "target": 7, "crown": "AD"},
        {"type": "challenge", "target": 1, "crown": None},
        {"type": "challenge", "target": 1},
    ):
        illegal(s, 0, action)


def test_options_and_player_counts():
    """2 to 4 players (house rule 3.4); safety_cap is a bool; commit_order is seat-order by default (house
    rule 3.4 step 2, rules 1.3.0) or simultaneous (FC-SEAL); challenge_sat_out (rules 1.5.0, FC-CHALLENGE) is a
    bool, false by default."""
    assert ENGINE.check_options(2, {}) == {"safety_cap": True, "commit_order": "seat-order", "challenge_sat_out": False}
    assert ENGINE.check_options(4, {"safety_cap": False})["safety_cap"] is False
    assert ENGINE.check_options(3, {"commit_order": "seat-order"})["commit_order"] == "seat-order"
    assert ENGINE.check_options(3, SEALED)["commit_order"] == "simultaneous"
    for players, options in (
        (1, {}), (5, {}), (2, {"safety_cap": 1}), (3, {"cap": True}), (2, {"commit_order": "clockwise"}),
        (2, {"challenge_sat_out": 1}),
    ):
        with pytest.raises(InvalidOptions):
            ENGINE.check_options(players, options)


# -- Seat-order commits (commit_order = "seat-order", the default since rules 1.3.0) -----------------
def test_seat_order_round_one_leader_is_random():
    """House rule 3.4 step 2 "round 1: random": a public CHANCE step picks the first committer."""
    s = ENGINE.initial_state(3, {"commit_order": "seat-order"})
    s = ENGINE.step(s, CHANCE, {"type": "shuffle", "order": list(DRAW_DECK)})
    assert s["stage"] == "first-player"
    outcomes = ENGINE.chance_outcomes(s)
    assert [o["seat"] for o, _ in outcomes] == [0, 1, 2] and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert ENGINE.chance_is_public(s, outcomes[0][0])
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "first-player", "seat": 3})
    s = ENGINE.step(s, CHANCE, {"type": "first-player", "seat": 2})
    assert s["stage"] == "commit" and ENGINE.to_act(s).seats == (2,)


def test_seat_order_commits_left_of_previous_winner_face_up_shown_at_once():
    """House rule 3.4 step 2: commits in seat order starting left of the previous round's winner; the
    higher card face up (seen by the later seats), the lower face down until the reveal."""
    s = board([HAND_A, HAND_B, ["QD", "2D", "6D", "4H", "3H"]], leader=1)
    assert ENGINE.to_act(s).seats == (1,)
    assert ENGINE.legal_actions(s, 0) == [] and ENGINE.legal_actions(s, 2) == []
    illegal(s, 0, {"type": "commit", "cards": ["KH", "8H"]})
    action = {"type": "commit", "cards": ["QS", "2C"]}
    assert ENGINE.redact(s, 1, action, 0) == {"type": "commit", "up": "QS"}
    s = act(s, 1, action)
    assert ENGINE.observation(s, 2)["commits"][1] == ["QS", None]
    assert ENGINE.to_act(s).seats == (2,)
    s = commit(s, 2, "QD", "2D")
    assert ENGINE.to_act(s).seats == (0,)
    s = commit(s, 0, "KH", "8H")
    s = auto(roll(roll(roll(s, 0, [3, 3]), 1, [3, 3]), 2, [3, 3]))
    s = act(s, 0, {"type": "claim", "crown": "AH"})
    assert s["leader"] == 1 and ENGINE.to_act(s).seats == (1,)  # left of the winner, seat 0


def test_seat_order_without_winner_passes_the_lead_on():
    """FC-ORDER: after a round without a winner the lead passes to the left of the previous leader."""
    s = board([HAND_A, HAND_B], leader=1)
    s = commit(commit(s, 1, "QS", "2C"), 0, "KH", "8H")
    s = auto(roll(roll(s, 0, [1, 1]), 1, [1, 1]))
    assert s["round"] == 2 and s["leader"] == 0 and ENGINE.to_act(s).seats == (0,)


# -- Seat-order commits as the default (rules 1.3.0; house rule 3.4 step 2) ----------------------------
HAND_C = ["JD", "5C", "10D", "3H", "4S"]


def dealt_by_default(hands, deck_top=()):
    """A match created with no options at all (so, since rules 1.3.0, with house rule 3.4 step 2's seat
    order), its initial shuffle dealing ``hands`` (one card at a time in seat order, FC-DEAL) and then
    ``deck_top``; the Jokers at the very bottom."""
    n = len(hands)
    s = ENGINE.initial_state(n, {})
    assert s["options"]["commit_order"] == "seat-order"
    top = [hands[seat][k] for k in range(5) for seat in range(n)] + list(deck_top)
    rest = [c for c in DRAW_DECK if c not in top and c not in JOKERS] + list(JOKERS)
    return ENGINE.step(s, CHANCE, {"type": "shuffle", "order": top + rest})


def test_by_default_round_one_draws_its_first_committer_by_a_public_chance_step():
    """House rule 3.4 step 2 "(round 1: random)", the default since rules 1.3.0: after the deal a CHANCE
    step, each seat 1/3 and shown to everyone, names round 1's first committer; nobody commits before it."""
    s = dealt_by_default([HAND_A, HAND_B, HAND_C])
    assert s["stage"] == "first-player" and s["leader"] is None
    assert ENGINE.to_act(s).kind == Phase.CHANCE
    assert ENGINE.legal_actions(s, 0) == []
    outcomes = ENGINE.chance_outcomes(s)
    assert outcomes == [({"type": "first-player", "seat": seat}, 1 / 3) for seat in range(3)]
    pick = {"type": "first-player", "seat": 2}
    assert ENGINE.chance_is_public(s, pick)
    assert all(ENGINE.redact(s, CHANCE, pick, viewer) == pick for viewer in (None, 0, 1, 2))
    s = ENGINE.step(s, CHANCE, pick)
    assert s["stage"] == "commit" and s["leader"] == 2 and ENGINE.to_act(s).seats == (2,)
    assert ENGINE.public_observation(s)["leader"] == 2 and ENGINE.public_observation(s)["to_act"] == [2]


def test_by_default_an_out_of_turn_commit_is_refused_and_each_face_up_card_is_shown_at_once():
    """House rule 3.4 step 2: "in seat order ... each player places a Noble + a Squire ... The higher card
    is face up, the lower face down (this makes 'displayed face up' meaningful)". By default (since 1.3.0) only
    the seat whose turn it is may act (the engine's turn-order rule refuses the others); each commit's
    face-up card is shown to every seat and spectator as soon as it is made, so the later seats commit
    knowing it; the face-down card stays hidden from all but its owner until the round is resolved."""
    s = ENGINE.step(dealt_by_default([HAND_A, HAND_B, HAND_C]), CHANCE, {"type": "first-player", "seat": 2})
    for seat, cards in ((0, ["KH", "8H"]), (1, ["QS", "9S"])):
        refused = illegal(s, seat, {"type": "commit", "cards": cards})
        assert refused.rule == "fools-crown turn order" and "not this seat's turn" in str(refused)
        assert ENGINE.legal_actions(s, seat) == []
        with pytest.raises(IllegalAction):
            ENGINE.step(s, seat, {"type": "commit", "cards": cards})
    illegal(s, 0, {"type": "gamble", "cards": ["2S"]})  # nor anything else out of turn

    action = {"type": "commit", "cards": ["5C", "JD"]}  # the Noble (10) goes up, the 5 down
    assert [ENGINE.redact(s, 2, action, viewer) for viewer in (None, 0, 1)] == [{"type": "commit", "up": "JD"}] * 3
    s = act(s, 2, action)
    assert s["commits"][2] == ["JD", "5C"]
    views = {viewer: ENGINE.observation(s, viewer) for viewer in (0, 1)}
    views[None] = ENGINE.public_observation(s)
    for viewer, view in views.items():
        assert view["commits"] == [None, None, ["JD", None]], viewer  # shown at once, to all
        assert "5C" not in json.dumps(view), viewer  # the face-down card is hidden
    assert ENGINE.observation(s, 2)["commits"][2] == ["JD", "5C"]  # its owner sees both
    assert ENGINE.to_act(s).seats == (0,)  # next in seat order: left of seat 2
    illegal(s, 1, {"type": "commit", "cards": ["QS", "9S"]})

    s = commit(s, 0, "KH", "8H")
    assert ENGINE.observation(s, 1)["commits"] == [["KH", None], None, ["JD", None]]
    assert ENGINE.to_act(s).seats == (1,)
    s = commit(s, 1, "QS", "9S")
    assert s["stage"] == "roll"
    assert ENGINE.public_observation(s)["commits"] == [["KH", None], ["QS", None], ["JD", None]]
    for seat in range(3):
        s = roll(s, seat, [6, 6])
    assert ENGINE.public_observation(s)["commits"] == [["KH", None], ["QS", None], ["JD", None]]
    s = auto(s)  # the reveal: 19, 20, 15
    assert ENGINE.public_observation(s)["commits"] == [["KH", "8H"], ["QS", "9S"], ["JD", "5C"]]


def test_by_default_later_rounds_start_left_of_the_previous_rounds_winner():
    """House rule 3.4 step 2 "in seat order starting left of the previous round's winner": round 1 began
    with seat 2 and seat 1 won it (Q+9 of spades with a Royal Alliance, 20), so round 2 begins with seat 2
    (left of the winner; not seat 0, left of round 1's first committer), with no chance step, and goes
    on 2, 0, 1."""
    s = dealt_by_default([HAND_A, HAND_B, HAND_C], deck_top=["2H", "3S", "4H", "5S", "6D", "7D"])
    s = ENGINE.step(s, CHANCE, {"type": "first-player", "seat": 2})
    for seat, cards in ((2, ["JD", "5C"]), (0, ["KH", "8H"]), (1, ["QS", "9S"])):
        s = act(s, seat, {"type": "commit", "cards": cards})
    for seat in range(3):
        s = roll(s, seat, [6, 6])
    s = auto(s)
    assert s["winner"] == 1
    s = act(s, 1, {"type": "claim", "crown": "AS"})
    assert s["round"] == 2 and s["stage"] == "commit" and s["leader"] == 2
    assert ENGINE.to_act(s).seats == (2,) and ENGINE.public_observation(s)["to_act"] == [2]
    order = []
    while s["stage"] == "commit":
        (seat,) = ENGINE.to_act(s).seats
        order.append(seat)
        s = act(s, seat, next(a for a in ENGINE.legal_actions(s, seat) if a["type"] == "commit"))
    assert order == [2, 0, 1]
