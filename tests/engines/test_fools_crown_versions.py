"""Fool's Crown: the rules versions (1.5.0 current; 1.4.0, 1.3.0, 1.2.0, 1.1.0 and 1.0.1 kept for old matches) and
the engine contract of issue 9 (trusted apply, one checked step, strict JSON, no module-level state). Each
rules test cites the rulebook (rulebooks/fools-crown.txt, quoted) or the decision of docs/rules/fools-crown.md."""

from __future__ import annotations

import copy
import random
import sys

import pytest

from domain.engine import CHANCE, SYSTEM, Engine, IllegalAction, Phase
from domain.games import get_engine, rules_versions
from domain.games.fools_crown import ENGINE, ENGINES, FoolsCrownEngine
from domain.games.fools_crown.cards import ALL_CARDS
from domain.games.fools_crown.state import RULES_VERSIONS, Rules
from domain.playout import new_match, play
from tests.engines.test_fools_crown import HAND_A, HAND_B, _all_cards, board, capped_round_30_without_a_winner

OLD = ENGINES["1.0.1"]
V110 = ENGINES["1.1.0"]
V120 = ENGINES["1.2.0"]
V130 = ENGINES["1.3.0"]
V140 = ENGINES["1.4.0"]


def step(engine, state, actor, action):
    return engine.step(state, actor, action)


def round_ending_with_the_last_cards(engine):
    """A two-player round 1 whose cleanup refill takes exactly the last four cards of the deck (the rest
    is in the discard pile); seat 0 holds a Joker to gamble with next round. Nobody qualifies."""
    s = board([HAND_A, HAND_B], jokers=[["JOKER1"], []])
    last_four, rest = s["deck"][:4], s["deck"][4:]
    s["deck"], s["discard"] = last_four, rest
    s = step(engine, s, 0, {"type": "commit", "cards": ["KH", "8H"]})
    s = step(engine, s, 1, {"type": "commit", "cards": ["QS", "9S"]})
    s = step(engine, s, CHANCE, {"type": "roll", "seat": 0, "dice": [1, 1]})
    s = step(engine, s, CHANCE, {"type": "roll", "seat": 1, "dice": [1, 2]})
    return step(engine, s, SYSTEM, engine.auto_action(s)), last_four


# -- FC-DRAW: reshuffle as soon as the deck runs out (1.1.0) ------------------------------------------
def test_discard_pile_is_reshuffled_as_soon_as_the_deck_runs_out():
    """Rulebook: "The discard pile is reshuffled if the draw deck runs out." FC-DRAW (1.1.0): the refill
    that draws the last card is followed at once by the CHANCE reshuffle, so no round starts with an
    empty deck and a Joker gamble always shuffles the Joker into a real deck."""
    s, last_four = round_ending_with_the_last_cards(ENGINE)
    assert s["round"] == 2 and [len(h) for h in s["hands"]] == [5, 5]
    assert s["stage"] == "reshuffle" and s["deck"] == [] and ENGINE.to_act(s).kind == Phase.CHANCE
    pile = list(s["discard"])
    assert {"KH", "8H", "QS", "9S"} <= set(pile)  # this round's played cards are in it
    s = step(ENGINE, s, CHANCE, {"type": "shuffle", "order": list(reversed(pile))})
    assert s["stage"] == "commit" and len(s["deck"]) == len(pile) and s["discard"] == []
    assert ENGINE.public_observation(s)["deck"] == len(pile)
    # the gamble now shuffles the Joker into the whole reshuffled deck: it may or may not come back
    s = step(ENGINE, s, 0, {"type": "gamble", "cards": [s["hands"][0][0]]})
    assert s["stage"] == "gamble-shuffle"
    assert sorted(ENGINE.sample_chance(s, random.Random(1))["order"]) == sorted(s["deck"] + ["JOKER1"])
    assert len(s["deck"]) + 1 > 1
    assert sorted(_all_cards(s) + ["JOKER1"]) == sorted(ALL_CARDS)


def test_rules_1_0_1_keep_the_lazy_reshuffle_and_its_riskless_gamble():
    """FC-DRAW, rules 1.0.1 as shipped (kept so old matches replay): the reshuffle waited until a card
    had to be drawn, so round 2 started with an empty deck and the gamble shuffled the Joker alone."""
    s, _ = round_ending_with_the_last_cards(OLD)
    assert s["stage"] == "commit" and s["deck"] == [] and s["round"] == 2
    s = step(OLD, s, 0, {"type": "gamble", "cards": [s["hands"][0][0]]})
    assert OLD.sample_chance(s, random.Random(1)) == {"type": "shuffle", "order": ["JOKER1"]}
    s = step(OLD, s, CHANCE, {"type": "shuffle", "order": ["JOKER1"]})
    assert s["jokers"][0] == ["JOKER1"] and s["stage"] == "reshuffle"  # straight back, then the pile


@pytest.mark.parametrize("players", [2, 3, 4])
def test_under_1_1_0_the_deck_is_empty_only_while_the_reshuffle_is_due(players):
    """FC-DRAW (1.1.0), over whole random matches: at every step but the reshuffle the deck holds cards."""
    seen: list = []

    def on_step(before, actor, action, after):
        if after["stage"] not in ("shuffle", "reshuffle"):
            assert after["deck"], (after["stage"], after["round"])
        seen.append(after["stage"])

    for seed in range(40):
        play(ENGINE, new_match(ENGINE, players), random.Random(seed), on_step=on_step)
        if "reshuffle" in seen:
            break
    assert "reshuffle" in seen  # the case the rule is about did happen


# -- rules versions ----------------------------------------------------------------------------------
def test_the_shipped_rules_versions_are_registered():
    """docs/rules/fools-crown.md "Changes": 1.5.0 is current; 1.4.0, 1.3.0, 1.2.0, 1.1.0 and 1.0.1 are kept
    for their matches."""
    assert ENGINE.rules_version == "1.5.0" and V140.rules_version == "1.4.0" and V130.rules_version == "1.3.0"
    assert V120.rules_version == "1.2.0" and V110.rules_version == "1.1.0" and OLD.rules_version == "1.0.1"
    assert set(rules_versions("fools-crown")) == {"1.0.1", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0"} == set(
        RULES_VERSIONS)
    assert get_engine("fools-crown", "1.0.1") is OLD and get_engine("fools-crown", "1.1.0") is V110
    assert get_engine("fools-crown", "1.2.0") is V120 and get_engine("fools-crown", "1.3.0") is V130
    assert get_engine("fools-crown", "1.4.0") is V140
    assert get_engine("fools-crown") is ENGINE
    assert isinstance(OLD, FoolsCrownEngine) and isinstance(V110, FoolsCrownEngine)  # one class, version-gated
    with pytest.raises(ValueError):
        FoolsCrownEngine(rules_version="0.9")


# -- FC-REFILL: the refill starts left of the round's winner (1.2.0) ---------------------------------
HAND_C = ["JD", "5C", "10D", "3H", "4S"]
REFILL = ["2H", "3S", "4H", "5S", "6D", "7D"]  # the top of the deck, in the order it is drawn


def refilled_after_seat_1_wins(engine):
    """Three seats; seat 1 wins round 1 (Q+9 of spades with a Royal Alliance, 20, against 19 and 15),
    claims a Crown, and the round's end refills two cards a seat from the top of the deck."""
    s = board([HAND_A, HAND_B, HAND_C], deck_top=REFILL)
    for seat, cards in ((0, ["KH", "8H"]), (1, ["QS", "9S"]), (2, ["JD", "5C"])):
        s = step(engine, s, seat, {"type": "commit", "cards": cards})
    for seat in range(3):
        s = step(engine, s, CHANCE, {"type": "roll", "seat": seat, "dice": [6, 6]})
    s = step(engine, s, SYSTEM, engine.auto_action(s))
    assert s["winner"] == 1
    return step(engine, s, 1, {"type": "claim", "crown": "AS"})


def test_the_refill_starts_left_of_the_rounds_winner():
    """FC-REFILL (1.2.0; house rule 3.4 step 7 "everyone refills to 5" names no order, step 2 starts the
    commits left of the previous round's winner): seat 2, left of the winner, draws first, then 0, then 1."""
    s = refilled_after_seat_1_wins(ENGINE)
    assert s["stage"] == "commit" and s["round"] == 2
    assert set(REFILL[0:2]) <= set(s["hands"][2])
    assert set(REFILL[2:4]) <= set(s["hands"][0])
    assert set(REFILL[4:6]) <= set(s["hands"][1])


def test_rules_1_1_0_keep_the_refill_from_seat_0():
    """Rules 1.1.0 as shipped (kept so their matches replay): seat 0 refilled first whoever won, which gave
    seat 0 a four-seat edge (docs/rules/fools-crown.md, Balance)."""
    s = refilled_after_seat_1_wins(V110)
    assert set(REFILL[0:2]) <= set(s["hands"][0])
    assert set(REFILL[2:4]) <= set(s["hands"][1])
    assert set(REFILL[4:6]) <= set(s["hands"][2])


def test_after_a_round_without_a_winner_the_refill_starts_one_seat_further_each_round():
    """FC-REFILL: nobody won round ``r``: the refill starts at seat ``r mod players``."""
    from domain.games.fools_crown.state import Rules, refill_order

    rules = Rules.of("1.2.0")
    assert [refill_order(rules, 3, None, r)[0] for r in (1, 2, 3, 4)] == [1, 2, 0, 1]
    assert refill_order(rules, 4, 3, 7) == [0, 1, 2, 3]  # left of seat 3 is seat 0
    assert refill_order(Rules.of("1.1.0"), 4, 3, 7) == [0, 1, 2, 3]
    assert refill_order(Rules.of("1.1.0"), 4, 0, 7) == [0, 1, 2, 3]
    assert refill_order(rules, 4, 0, 7) == [1, 2, 3, 0]


@pytest.mark.parametrize("engine", [ENGINE, V140, V130, V120, V110, OLD], ids=lambda e: e.rules_version)
def test_both_versions_play_whole_matches_through_the_checked_step(engine):
    for seed, players in enumerate((2, 3, 4, 2, 3, 4)):
        options = {"commit_order": "seat-order" if seed % 2 else "simultaneous"}
        outcome = play(engine, new_match(engine, players, options), random.Random(seed), checked=True)
        assert outcome.result is not None and outcome.result.winners


# -- FC-ORDER: seat-order commits by default (1.3.0) --------------------------------------------------
@pytest.mark.parametrize("engine,default", [(ENGINE, "seat-order"), (V140, "seat-order"), (V130, "seat-order"),
                                            (V120, "simultaneous"), (V110, "simultaneous"), (OLD, "simultaneous")],
                         ids=lambda e: getattr(e, "rules_version", e))
def test_since_1_3_0_the_commits_go_in_seat_order_by_default(engine, default):
    """House rule 3.4 step 2 "Commit: in seat order starting left of the previous round's winner (round
    1: random)" is the default since 1.3.0; 1.2.0 and before kept FC-SEAL's simultaneous sealed commits
    as their default, so a match created under them without the option replays as it was played. Both
    values stay accepted under every version."""
    assert engine.default_options()["commit_order"] == default
    assert engine.check_options(2, {})["commit_order"] == default
    assert engine.describe_options()["commit_order"]["default"] == default
    assert set(engine.describe_options()["commit_order"]["enum"]) == {"simultaneous", "seat-order"}
    for order in ("simultaneous", "seat-order"):
        assert engine.check_options(3, {"commit_order": order})["commit_order"] == order
    s = engine.initial_state(3, {})
    s = step(engine, s, CHANCE, engine.sample_chance(s, random.Random(0)))
    # seat order draws round 1's first committer (a public CHANCE step); sealed commits open at once
    assert s["stage"] == ("first-player" if default == "seat-order" else "commit")


# -- FC-CAP: round 30 ends with its refill under the safety cap (1.4.0) ----------------------------------
def test_only_1_4_0_on_carries_out_the_refill_of_the_safety_caps_last_round():
    """The version gate of FC-CAP (``Rules.refill_at_cap``): 1.4.0 on; 1.0.1 to 1.3.0 keep ending before it."""
    assert {version: Rules.of(version).refill_at_cap for version in RULES_VERSIONS} == {
        "1.0.1": False, "1.1.0": False, "1.2.0": False, "1.3.0": False, "1.4.0": True, "1.5.0": True}
    assert ENGINE.rules.refill_at_cap and not V130.rules.refill_at_cap


@pytest.mark.parametrize("engine", [V130, V120, V110, OLD], ids=lambda e: e.rules_version)
def test_rules_1_3_0_and_before_keep_ending_the_capped_match_before_round_30s_refill(engine):
    """Rules 1.3.0 and before as shipped (kept so their matches replay): the safety cap ended the match
    as soon as round 30's played cards were discarded, so the Joker its refill would have revealed (the
    deck's second card, seat 0's under 1.4.0: test_fools_crown.py) never counted and the ranks were shared."""
    s = capped_round_30_without_a_winner(engine)
    assert s["stage"] == "over" and s["end"] == {"reason": "safety-cap", "winner": None, "rounds": 30}
    assert [len(h) for h in s["hands"]] == [3, 3] and s["jokers"] == [[], []]
    assert s["deck"][:2] == ["5C", "JOKER1"] and s["round"] == 30
    assert engine.result(s).ranks == (1, 1) and engine.result(s).detail["jokers"] == [0, 0]


def capped_round_30_refill_with_one_card_left(engine):
    """Round 30 under the cap, nobody qualifies, Crowns tied 2-2 and no Jokers held: the deck holds only
    5H, everything else (both Jokers with it) is in the discard pile."""
    s = board([HAND_A, HAND_B], crowns=[["AC", "AD"], ["AH", "AS"]], rnd=30)
    rest = s["deck"]
    s["deck"], s["discard"] = ["5H"], [c for c in rest if c != "5H"]
    s = step(engine, s, 0, {"type": "commit", "cards": ["KH", "8H"]})
    s = step(engine, s, 1, {"type": "commit", "cards": ["QS", "2C"]})
    for seat in (0, 1):
        s = step(engine, s, CHANCE, {"type": "roll", "seat": seat, "dice": [1, 1]})
    return step(engine, s, SYSTEM, engine.auto_action(s))


def test_a_capped_refill_that_needs_a_reshuffle_ends_the_match_after_it():
    """FC-CAP (1.4.0) with FC-DRAW: round 30's refill (house rule 3.4 step 7, "Reshuffle the discards into
    a new deck when the deck is empty") is carried out like any refill, reshuffle included; the match
    ends once its draws are done, still at round 30. Seat 0 refills first (no winner: seat 30 mod 2),
    draws 5H, the CHANCE reshuffle follows, then seat 0 draws and keeps JOKER2 and ranks first alone."""
    s = capped_round_30_refill_with_one_card_left(ENGINE)
    assert s["stage"] == "reshuffle" and ENGINE.to_act(s).kind == Phase.CHANCE
    assert s["round"] == 30 and s["end"] is None and ENGINE.result(s) is None
    assert s["last"]["round"] == 30 and [len(h) for h in s["hands"]] == [4, 3]
    view = ENGINE.public_observation(s)
    assert view["round"] == 30 and view["stage"] == "reshuffle" and view["end"] is None
    pile = list(s["discard"])
    order = ["JOKER2"] + [c for c in pile if c not in ("JOKER1", "JOKER2")] + ["JOKER1"]
    s = step(ENGINE, s, CHANCE, {"type": "shuffle", "order": order})
    assert s["stage"] == "over" and ENGINE.to_act(s).kind == Phase.OVER
    assert s["round"] == 30 and s["end"] == {"reason": "safety-cap", "winner": 0, "rounds": 30}
    assert s["jokers"] == [["JOKER2"], []] and [len(h) for h in s["hands"]] == [5, 5]
    assert s["deck"] == order[1 + 1 + 2:] and s["discard"] == []
    assert sorted(_all_cards(s)) == sorted(ALL_CARDS)
    assert ENGINE.result(s).ranks == (1, 2) and ENGINE.result(s).detail["jokers"] == [1, 0]

    old = capped_round_30_refill_with_one_card_left(V130)  # 1.3.0: over at once, no refill, no reshuffle
    assert old["stage"] == "over" and old["deck"] == ["5H"] and [len(h) for h in old["hands"]] == [3, 3]
    assert V130.result(old).ranks == (1, 1)


def _capped_matches(players, seeds, on_step=None):
    """Random matches (uniform legal moves, both commit orders) through the checked ``step`` under
    1.4.0; those that ended at the safety cap, with their final states."""
    capped = []
    for seed in seeds:
        options = {"commit_order": "seat-order" if seed % 2 else "simultaneous"}
        outcome = play(ENGINE, new_match(ENGINE, players, options), random.Random(seed), checked=True,
                       on_step=on_step)
        if outcome.result.detail["reason"] == "safety-cap":
            capped.append(outcome)
    return capped


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_capped_matches_end_after_round_30s_refill(players):
    """FC-CAP (1.4.0) over whole random matches: a match that reaches the safety cap ends at round 30
    (never a 31st), after round 30's refill: every hand holds five cards (or nothing is left to draw),
    no draw is pending, all 54 cards are accounted for, and the result ranks by Crowns then the Jokers
    held at the end, those of the refill included (house rule 3.4 "ties -> most Jokers")."""

    def on_step(before, actor, action, after):
        assert after["round"] <= 30
        if after["stage"] == "commit":  # no round is opened after the cap's cleanup
            assert after["last"] is None or after["last"]["round"] < after["round"]

    capped = _capped_matches(players, range(100), on_step)
    assert len(capped) >= 3  # the case the rule is about did happen
    for outcome in capped:
        s, result = outcome.state, outcome.result
        assert s["stage"] == "over" and s["round"] == 30 and s["last"]["round"] == 30
        assert s["end"]["rounds"] == 30 == result.detail["rounds"] and s["draws"] == []
        assert all(len(h) == 5 for h in s["hands"]) or not (s["deck"] or s["discard"])
        assert s["commits"] == [None] * players and sorted(_all_cards(s)) == sorted(ALL_CARDS)
        keys = [(len(s["crowns"][i]), len(s["jokers"][i])) for i in range(players)]
        assert result.detail["jokers"] == [k[1] for k in keys]
        assert result.ranks == tuple(1 + sum(k > keys[i] for k in keys) for i in range(players))
        first = [i for i in range(players) if result.ranks[i] == 1]
        assert s["end"]["winner"] == (first[0] if len(first) == 1 else None)


def test_random_capped_matches_whose_last_refill_needs_a_reshuffle_end_after_it():
    """FC-CAP (1.4.0) with FC-DRAW: in random capped matches where round 30's refill runs the deck out,
    the CHANCE reshuffle happens at round 30 and the match ends right after the refill's draws."""
    reshuffled = []

    def on_step(before, actor, action, after):
        if before["stage"] == "reshuffle" and before["last"] is not None and before["last"]["round"] == 30:
            assert before["round"] == 30 and before["end"] is None
            reshuffled.append(after)

    capped = _capped_matches(4, range(40), on_step)
    assert reshuffled, "no capped refill needed a reshuffle"
    for after in reshuffled:  # the reshuffle went on with the refill, and the refill ended the match
        assert after["stage"] == "over" and after["end"]["reason"] == "safety-cap" and after["round"] == 30
        assert all(len(h) == 5 for h in after["hands"])
    assert {id(o.state) for o in capped} >= {id(a) for a in reshuffled}


# -- the contract ------------------------------------------------------------------------------------
def test_apply_is_trusted_and_step_checks():
    """domain/engine.py: ``apply`` does not check again (replay); ``step`` is the one checked entry point."""
    s = board([HAND_A, HAND_B])
    with pytest.raises(IllegalAction):
        ENGINE.step(s, 0, {"type": "commit", "cards": ["8H", "7C"]})  # a Noble is held: Noble + Squire
    forged = ENGINE.apply(s, 0, {"type": "commit", "cards": ["8H", "7C"]})  # trusted: applied as given
    assert forged["commits"][0] == ["8H", "7C"]


def test_strict_json_a_true_is_never_a_seat_or_a_number():
    """domain/engine.py strict JSON equality: ``true`` never passes for ``1``, ``3.0`` never for ``3``."""
    s = board([HAND_A, HAND_B])
    with pytest.raises(IllegalAction):
        ENGINE.step(s, True, {"type": "commit", "cards": ["KH", "8H"]})
    s = step(ENGINE, step(ENGINE, s, 0, {"type": "commit", "cards": ["KH", "8H"]}), 1,
             {"type": "commit", "cards": ["QS", "9S"]})
    for dice in ([True, 3], [3.0, 3]):
        with pytest.raises(IllegalAction):
            ENGINE.step(s, CHANCE, {"type": "roll", "seat": 0, "dice": dice})
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "roll", "seat": False, "dice": [3, 3]})
    s = step(ENGINE, step(ENGINE, s, CHANCE, {"type": "roll", "seat": 0, "dice": [3, 3]}), CHANCE,
             {"type": "roll", "seat": 1, "dice": [1, 1]})
    resolution = ENGINE.auto_action(s)
    assert resolution["winner"] == 0
    with pytest.raises(IllegalAction):
        ENGINE.step(s, SYSTEM, dict(resolution, winner=False))
    with pytest.raises(IllegalAction):
        ENGINE.step(s, SYSTEM, dict(resolution, qualified=[False]))
    s = step(ENGINE, s, SYSTEM, resolution)
    assert s["stage"] == "claim"


def test_shuffles_are_validated_as_permutations_of_the_cards_shuffled():
    """validate_chance: a shuffle names exactly the cards shuffled, each once (no card added or lost)."""
    s = ENGINE.initial_state(2, {"commit_order": "simultaneous"})
    deck = ENGINE.sample_chance(s, random.Random(0))["order"]
    for order in (deck[:-1], deck + ["AS"], deck[:-1] + [deck[0]], [1] + deck[1:], "".join(deck)):
        with pytest.raises(IllegalAction):
            ENGINE.step(s, CHANCE, {"type": "shuffle", "order": order})
    with pytest.raises(IllegalAction):
        ENGINE.step(s, CHANCE, {"type": "shuffle", "order": deck, "seed": 1})
    assert ENGINE.step(s, CHANCE, {"type": "shuffle", "order": deck})["stage"] == "commit"


def test_num_players_and_checked_observation():
    s = new_match(ENGINE, 3)
    assert ENGINE.num_players(s) == 3
    for bad in (True, -1, 3, "0"):
        with pytest.raises(IllegalAction):
            ENGINE.observe(s, bad)


def test_no_module_level_state_changes_while_matches_are_played():
    """domain/engine.py: no engine keeps module-level mutable state; the read-only tables stay as they are."""
    modules = {
        name: module for name, module in sys.modules.items() if name.startswith("domain.games.fools_crown")
    }
    assert "domain.games.fools_crown.phases" in modules

    def plain(value):  # engine instances are compared by their attributes
        if isinstance(value, Engine):
            return ("engine", plain(vars(value)))
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, (list, set)):
            return [plain(item) for item in value]
        return copy.deepcopy(value)

    def tables():
        return {
            (name, key): plain(value)
            for name, module in modules.items()
            for key, value in vars(module).items()
            if not key.startswith("__") and isinstance(value, (dict, list, set, Engine))
        }

    before = tables()
    for seed in range(6):
        play(ENGINE, new_match(ENGINE, 2 + seed % 3), random.Random(seed), checked=True)
        play(OLD, new_match(OLD, 2 + seed % 3, {"commit_order": "seat-order"}), random.Random(seed))
    assert tables() == before
    assert not hasattr(modules["domain.games.fools_crown.engine"], "_OUTCOME_CACHE")


def test_in_the_sealed_mode_no_player_decides_between_the_reveal_and_the_resolution():
    """docs/rules/fools-crown.md FC-SEAL (corrected text): with simultaneous sealed commits the face-up
    cards are shown only once the last seat has committed, and then only chance (the qualification
    rolls) and the automatic resolution follow; so the face-up card informs no decision of the round."""
    s = board([HAND_A, HAND_B, ["QD", "2D", "6D", "4H", "3H"]])
    for seat, cards in ((2, ["QD", "2D"]), (0, ["KH", "8H"])):
        s = step(ENGINE, s, seat, {"type": "commit", "cards": cards})
        assert ENGINE.observation(s, 1)["commits"][seat] == [None, None]  # still sealed
    s = step(ENGINE, s, 1, {"type": "commit", "cards": ["QS", "9S"]})
    assert ENGINE.observation(s, 1)["commits"][0] == ["KH", None]  # revealed: nobody acts before resolution
    kinds = []
    rng = random.Random(0)
    while s["stage"] in ("roll", "resolve"):
        kind = ENGINE.to_act(s).kind
        kinds.append(kind)
        actor = CHANCE if kind == Phase.CHANCE else SYSTEM
        action = ENGINE.sample_chance(s, rng) if kind == Phase.CHANCE else ENGINE.auto_action(s)
        s = step(ENGINE, s, actor, action)
    assert kinds == [Phase.CHANCE] * 3 + [Phase.AUTO]
