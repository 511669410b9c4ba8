"""Fool's Crown rules 1.5.0: the option ``challenge_sat_out`` (FC-CHALLENGE made switchable) and the match's
options in the observation, against house rule 3.4 step 6 ([PROPOSAL], house-rules.md), which says both "The
challenged player must have taken part in this round (committed)" and "A player who sat out or failed
qualification cannot defend", and asks that house rules be "flagged in the UI and kept configurable".

* O1: by default (false, as 1.0.1 to 1.4.0 play) a Crown holder who sat out for a Noble Exchange cannot be
  challenged; with the option he can, and the challenge takes the Crown chosen; a failed qualifier can be
  challenged either way;
* O2: the older versions refuse the option and play as before; the option and FC-CHALLENGE say what they do;
* O3: random matches with the option on keep to the contract and replay from their options;
* O4: the observation names the match's options (every version; the game's schema describes the key), and
  the computers read them there.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions
from domain.games.fools_crown import ENGINE, ENGINES
from domain.games.fools_crown import bots as fc
from domain.games.fools_crown.bots import determinize
from domain.games.fools_crown.cards import NOBLE
from domain.playout import new_match
from tests.engines.harness import options_kept_through_replay, random_playout
from tests.engines.test_fools_crown import HAND_A, HAND_B, act, auto, board, commit, illegal, roll
from tests.engines.test_fools_crown_playouts import check_observation, full_invariant_1_1

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "api" / "game_schemas" / "fools-crown.json").read_text())
ON = {"challenge_sat_out": True}
EXCHANGER = ["JC", "QC", "KC", "JD", "QD"]  # no Squire: a Noble Exchange, and the seat sits out (rulebook)
CHALLENGE_RULE = "house rule 3.4 step 6"


def with_option(state, on: bool):
    """``state`` as a match created with ``challenge_sat_out`` ``on`` has it (the option is kept in the state)."""
    return dict(state, options=dict(state["options"], challenge_sat_out=on))


def three_seats_won_by_seat_0(on: bool, seat_2_dice=(3, 3)):
    """The centre is empty; seat 0 (AC) commits K♥ 8♥ and wins, seat 1 (A♦ A♥) sits out for a Noble
    Exchange, seat 2 (A♠) commits Q♠ 2♣ and rolls ``seat_2_dice``: the claim step, seat 0 to act."""
    s = with_option(board([HAND_A, EXCHANGER, HAND_B], crowns=[["AC"], ["AD", "AH"], ["AS"]]), on)
    s = commit(s, 0, "KH", "8H")
    s = act(s, 1, {"type": "noble-exchange", "cards": ["JC", "QC"]})
    s = commit(s, 2, "QS", "2C")
    s = auto(roll(roll(s, 0, [3, 3]), 2, list(seat_2_dice)))
    assert s["winner"] == 0 and s["stage"] == "claim"
    return s


def challenged(state, seat=0) -> set:
    return {a["target"] for a in ENGINE.legal_actions(state, seat) if a["type"] == "challenge"}


# -- O1: who may be challenged ------------------------------------------------------------------------
def test_by_default_a_holder_who_sat_out_cannot_be_challenged():
    """House rule 3.4 step 6, "The challenged player must have taken part in this round (committed)"
    (FC-CHALLENGE, the default ``challenge_sat_out`` false): seat 1 sat out for a Noble Exchange, so the
    round winner's challenges name seat 2 only, and one of seat 1 is refused citing the house rule."""
    s = three_seats_won_by_seat_0(on=False)
    assert challenged(s) == {2}
    error = illegal(s, 0, {"type": "challenge", "target": 1, "crown": "AD"})
    assert error.rule == CHALLENGE_RULE and "committed" in error.detail


def test_with_the_option_a_holder_who_sat_out_can_be_challenged_for_the_crown_chosen():
    """House rule 3.4 step 6, "A player who sat out or failed qualification cannot defend", read with
    ``challenge_sat_out`` true (FC-CHALLENGE): seat 1, who sat out, is challengeable beside seat 2, every
    Crown he holds is offered, and the challenge takes the one chosen (A♥, not A♦)."""
    s = three_seats_won_by_seat_0(on=True)
    assert challenged(s) == {1, 2}
    offered = {a["crown"] for a in ENGINE.legal_actions(s, 0) if a.get("target") == 1}
    assert offered == {"AD", "AH"}
    s = act(s, 0, {"type": "challenge", "target": 1, "crown": "AH"})
    assert s["crowns"] == [["AC", "AH"], ["AD"], ["AS"]]
    assert {k: s["last"][k] for k in ("round", "winner", "claimed")} == {
        "round": 1, "winner": 0, "claimed": {"crown": "AH", "from": 1}}
    assert s["round"] == 2 and s["stage"] == "commit"


def two_seats_where_only_the_exchanger_holds_crowns(on: bool):
    """Seat 0 (A♣ A♦) commits and qualifies, seat 1 (A♥ A♠) sits out for a Noble Exchange; the centre is
    empty, so the only Crowns to challenge for are those of the seat that sat out."""
    s = with_option(board([["KH", "8H", "7C", "3D", "2S"], EXCHANGER], crowns=[["AC", "AD"], ["AH", "AS"]],
                          centre=[]), on)
    s = commit(s, 0, "KH", "8H")
    s = act(s, 1, {"type": "noble-exchange", "cards": ["JC", "QC"]})
    return auto(roll(s, 0, [3, 4]))


def test_the_claim_step_is_skipped_only_when_the_holder_who_sat_out_cannot_be_challenged():
    """House rule 3.4 step 6 with nobody else to take from: by default the step is skipped (nobody can be
    challenged, FC-CHALLENGE); with ``challenge_sat_out`` the winner may challenge seat 1 or pass."""
    off = two_seats_where_only_the_exchanger_holds_crowns(on=False)
    assert off["round"] == 2 and off["stage"] == "commit" and off["crowns"] == [["AC", "AD"], ["AH", "AS"]]
    on = two_seats_where_only_the_exchanger_holds_crowns(on=True)
    assert on["stage"] == "claim" and on["winner"] == 0
    assert sorted((a["type"], a.get("crown")) for a in ENGINE.legal_actions(on, 0)) == [
        ("challenge", "AH"), ("challenge", "AS"), ("pass", None)]
    passed = act(on, 0, {"type": "pass"})
    assert passed["round"] == 2 and passed["crowns"] == [["AC", "AD"], ["AH", "AS"]]


ARRANGED = Path(__file__).resolve().parents[1] / "fixtures" / "histories" / "fools-crown" / "1.5.0" / \
    "2p-challenge-sat-out.jsonl"


@pytest.mark.parametrize("version", ["1.4.0", "1.5.0"])
def test_a_challenge_of_a_holder_who_sat_out_is_refused_without_the_option_and_says_why(version):
    """The arranged 1.5.0 match (seat 1 sits out round 5 holding the last Crown; seat 0 challenges him for
    it) replayed without the option: the round winner's challenge is refused, and the refusal says his claim
    step was skipped as nobody could be challenged; it said only "for the round winner", which he was."""
    lines = [json.loads(line) for line in ARRANGED.read_text().splitlines()]
    engine = ENGINES.get(version, ENGINE)
    options = {key: value for key, value in lines[0]["data"]["options"].items() if key != "challenge_sat_out"}
    state = engine.initial_state(2, engine.check_options(2, options))
    steps = [(line["data"]["seat"], line["data"]["action"]) if line["event"] == "MoveMade" else
             (CHANCE, line["data"]["outcome"]) if line["event"] == "ChanceDrawn" else (SYSTEM, line["data"]["step"])
             for line in lines if line["event"] in ("MoveMade", "ChanceDrawn", "StepResolved")]
    *played, (seat, last) = steps
    for actor, action in played:
        state = engine.step(state, actor, action)
    assert last == {"type": "challenge", "target": 1, "crown": "AC"} and seat == 0
    with pytest.raises(IllegalAction) as info:
        engine.check_action(state, 0, last)
    refusal = info.value
    assert refusal.rule == CHALLENGE_RULE
    assert "round 5's claim step is over, or was skipped" in str(refusal)
    assert "must have committed cards this round" in str(refusal)


@pytest.mark.parametrize("on", [False, True])
def test_a_failed_qualifier_can_be_challenged_either_way(on):
    """House rule 3.4 step 6: a player who "failed qualification cannot defend", and he committed, so he is
    challengeable whatever ``challenge_sat_out`` says: seat 2 rolls 1 + 1 and fails."""
    s = three_seats_won_by_seat_0(on, seat_2_dice=(1, 1))
    assert s["outcome"]["qualified"] == [0]
    assert 2 in challenged(s) and (1 in challenged(s)) == on
    s = act(s, 0, {"type": "challenge", "target": 2, "crown": "AS"})
    assert s["crowns"][0] == ["AC", "AS"] and s["crowns"][2] == []


# -- O2: the versions, the option's description and the catalogue -----------------------------------
@pytest.mark.parametrize("version", sorted(ENGINES))
def test_older_versions_refuse_the_option_and_keep_their_fc_challenge(version):
    """Rules 1.0.1 to 1.4.0 play FC-CHALLENGE's strict reading with no option (docs/rules/fools-crown.md,
    Changes 1.5.0): they refuse ``challenge_sat_out`` (either value) as an unknown option, their states keep
    no such key, and their catalogue lists FC-CHALLENGE unswitched."""
    engine = ENGINES[version]
    for value in (True, False):
        with pytest.raises(InvalidOptions):
            engine.check_options(2, {"challenge_sat_out": value})
    assert "challenge_sat_out" not in engine.default_options()
    assert "challenge_sat_out" not in engine.describe_options()
    assert "challenge_sat_out" not in engine.initial_state(2, {})["options"]
    entry = next(r for r in engine.house_rules if r.id == "FC-CHALLENGE")
    assert entry.option is None and entry.text.startswith("Only a Crown holder who committed this round")


def test_the_option_says_what_it_switches():
    """GET /games/fools-crown serves ``describe_options`` as options_schema: a boolean, false by default,
    whose description cites the house rule and both of its readings."""
    described = ENGINE.describe_options()["challenge_sat_out"]
    assert described["type"] == "boolean" and described["default"] is False
    text = described["description"]
    assert "3.4 step 6" in text and "FC-CHALLENGE" in text and "Noble Exchange" in text
    assert "false (default)" in text and "true:" in text and "failed qualifier" in text
    assert ENGINE.check_options(2, ON)["challenge_sat_out"] is True
    with pytest.raises(InvalidOptions):
        ENGINE.check_options(2, {"challenge_sat_out": "yes"})


def test_fc_challenge_is_switched_by_the_option_since_1_5_0():
    """house-rules.md: house rules are "flagged in the UI and kept configurable": 1.5.0's FC-CHALLENGE names
    the option that switches it and says what each value does."""
    entry = next(r for r in ENGINE.house_rules if r.id == "FC-CHALLENGE")
    assert entry.option == "challenge_sat_out"
    assert "By default (challenge_sat_out false)" in entry.text and "With challenge_sat_out true" in entry.text
    assert "committed this round" in entry.text and "sat out for a Noble Exchange cannot" in entry.text


# -- O3: random matches with the option on --------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_with_the_option_on(players):
    """The contract under ``challenge_sat_out`` (tests/engines/harness.py: purity, aliasing, secrecy of every
    observation, the replay through ``apply``): every challenge names a seat that committed or sat out."""
    for seed in range(2):
        playout = random_playout(ENGINE, players, options=ON, seed=500 + seed, check_observation=check_observation,
                                 invariant=full_invariant_1_1, check_purity_every=10)
        for state, (actor, action) in zip(playout.states, playout.log):
            if isinstance(actor, int) and action["type"] == "challenge":
                target = action["target"]
                assert state["commits"][target] is not None or state["exchanged"][target] is not None
        assert ENGINE.result(playout.final) is not None


@pytest.mark.parametrize("players", [2, 3])
def test_the_option_is_kept_through_a_match_and_its_replay(players):
    """The option is in the state from the start to the end, and a replay from the stored options rebuilds
    the same match (the Created event holds them)."""
    final = options_kept_through_replay(ENGINE, players, ON, seed=7,
                                        kept=lambda s: s["options"]["challenge_sat_out"] is True)
    assert final["stage"] == "over"


# -- O4: the observation names the options, and the computers read them ---------------------------------
@pytest.mark.parametrize("version", sorted([*ENGINES, ENGINE.rules_version]))
def test_the_observation_names_the_matchs_options(version):
    """Every version's observation (seat and public) gains ``options``, a copy of the state's (docs/
    architecture.md: an older version's observation may gain a key that states what is public anyway)."""
    engine = ENGINES.get(version, ENGINE)
    options = {"safety_cap": False, "commit_order": "simultaneous"}
    if version == ENGINE.rules_version:
        options.update(ON)
    s = new_match(engine, 3, options)
    assert s["options"] == engine.check_options(3, options)
    for seen in (engine.public_observation(s), engine.observation(s, 1)):
        assert seen["options"] == s["options"]
        assert seen["options"] is not s["options"]  # a copy: the observation shares nothing with the state


@pytest.mark.parametrize("on", [False, True])
def test_the_search_samples_keep_the_matchs_options(on):
    """``determinize`` takes the options from the observation (it guessed the cap from ``max_rounds`` and the
    order from ``leader``, and could not guess ``challenge_sat_out``): the samples play by the match's own."""
    s = three_seats_won_by_seat_0(on)
    for seat in (0, 1):
        observation = ENGINE.observation(s, seat)
        for seed in range(3):
            sampled = determinize(observation, seat, random.Random(seed))
            assert sampled["options"] == s["options"]
            assert ENGINE.observation(sampled, seat) == observation
    assert challenged(determinize(ENGINE.observation(s, 0), 0, random.Random(0))) == ({1, 2} if on else {2})


def test_the_strong_bot_challenges_a_holder_who_sat_out_when_the_option_allows():
    """``strong`` chooses among the engine's legal actions: with only seat 1's Crowns to take (he sat out),
    it challenges him under ``challenge_sat_out`` rather than pass."""
    s = two_seats_where_only_the_exchanger_holds_crowns(on=True)
    legal = ENGINE.legal_actions(s, 0)
    for name in ("basic", "strong"):
        move = ENGINE.bots()[name](ENGINE.observation(s, 0), legal, random.Random(0))
        assert move["type"] == "challenge" and move["target"] == 1, name


def _exchange_or_commit(hand, seat, can_gamble, crowns, jokers, centre):
    """A fast-playout policy: seat 1 sits out for a Noble Exchange of its two lowest Nobles; seat 0 commits as
    ``strong`` would."""
    if seat == 1:
        nobles = [c for c in hand if NOBLE[c]]
        return {"type": "noble-exchange", "cards": nobles[:2]}
    return fc._strong_commit(hand, crowns[seat], 2, False)


@pytest.mark.parametrize("on", [False, True])
def test_the_fast_playouts_challenge_a_holder_who_sat_out_only_with_the_option(on):
    """The fast copy of the rules (``bots._simulate``) challenges as the engine does (``claim.challengeable``):
    seat 0 commits and seat 1, holding every Crown it can lose, sits out; over many one-round playouts seat 0
    takes a Crown from him only under ``challenge_sat_out``."""
    s = with_option(board([HAND_A, EXCHANGER], crowns=[["AC", "AD"], ["AH", "AS"]], centre=[]), on)
    taken = 0
    for seed in range(20):
        _, crowns, _ = fc._simulate(s, random.Random(seed), ENGINE.rules, stop=s["round"] + 1,
                                    policies=[_exchange_or_commit] * 2)
        taken += len(crowns[1]) < 2
    assert (taken > 0) == on


@pytest.mark.parametrize("version", ["1.4.0", "1.5.0"])
def test_the_games_schema_describes_the_options_key(version):
    """api/game_schemas/fools-crown.json (GET /games/fools-crown/schema) lists ``options`` for a seat and a
    spectator, optional (a client may meet an observation made before the key), and the observations of
    the current version and an older one validate against it."""
    engine = ENGINES.get(version, ENGINE)
    s = new_match(engine, 2, ON if version == ENGINE.rules_version else {})
    for part, seen in (("observation", engine.observation(s, 0)), ("public_observation", engine.public_observation(s))):
        schema = SCHEMA[part]
        described = schema["properties"]["options"]
        assert "options" not in schema["required"] and described["description"]
        assert set(described["properties"]) == set(ENGINE.default_options())
        assert not list(Draft7Validator(schema).iter_errors(seen)), (version, part)
