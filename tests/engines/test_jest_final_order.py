"""Jest rules 1.2.0: a finished match lists each final Jest in a fixed card order, not in the order taken.

Why (a rules-lawyer probe, jestlaw, finding 3): a match created with ``reveal_at_end: false`` promises that
seats and spectators never see what was hidden. But rules 1.0.0 and 1.1.0 list each finished Jest
(observation ``jests`` and ``breakdown``, ``Result.detail["jests"]``, which the public ``Finished`` event
records) in the order its cards were taken, and the takes are public (``{"type": "take", "from": 1, "card":
"down"}``): the n-th card of a Jest is its n-th take, so anyone reads which card each player offered face
down, each round, and who took it. Rules 1.2.0 lists each final Jest in the order of ``CARDS`` (♠ ♣ ♦ ♥, each
A 2 3 4, the Joker last), awarded trophies sorted in like any card (``trophy_winners`` names them). The
cards themselves stay public at the end: the rules score them (docs/rules/jest.md, "What each one sees").
A seat's own ``jest`` (only its own takes, seen only by it) stays in the order taken. 1.0.0 and 1.1.0 keep
the order taken, so their stored matches replay to their recorded results (tests/engines/test_rules_versions.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domain.engine import CHANCE, SYSTEM, Phase
from domain.games.jest import CARDS, ENGINE, ENGINES, in_card_order
from domain.playout import next_step
from tests.engines.test_jest import scoring_state

E = ENGINE
V1_1 = ENGINES["1.1.0"]
V1_0 = ENGINES["1.0.0"]
HISTORIES = Path(__file__).resolve().parent.parent / "fixtures" / "histories" / "jest"

# Trophies 3♣ (Highest ♥) and A♦ (Majority 4s); each Jest in the order its cards were taken.
TAKEN = [["4H", "JK", "AS", "3D", "2C"], ["4S", "2H", "AC", "4D", "3S"], ["2D", "4C", "AH", "2S", "3H"]]


def finish(engine, state):
    auto = engine.auto_action(state)
    end = engine.step(state, SYSTEM, auto)
    assert engine.to_act(end).kind == Phase.OVER
    return auto, end


def test_card_order_is_the_decks():
    """The fixed order: ``CARDS``, the deck's own (♠ ♣ ♦ ♥, each A 2 3 4, then the Joker)."""
    assert in_card_order(reversed(CARDS)) == list(CARDS)
    assert in_card_order(["JK", "4H", "AS", "3D", "2C", "3C"]) == ["AS", "2C", "3C", "3D", "4H", "JK"]


def test_a_finished_jest_is_listed_in_card_order_not_the_order_taken():
    """Hand-worked. Highest ♥ (3♣): seat 0's 4♥ is the highest Heart. Majority 4s (A♦): seat 1 holds two
    (4♠ 4♦). Each trophy joins its winner's Jest (R5), at the end of the state's list.

    Seat 0, A♠ 2♣ 3♣ 3♦ 4♥ Joker: A♠ alone in ♠ 5, 2♣ +2, 3♣ +3, 3♦ −3, 4♥ −4 beside the Joker (one Heart),
    the Joker 0: 3. Seat 1, 3♠ 4♠ A♣ A♦ 4♦ 2♥: 3 + 4 + 5 (A♣ alone) − 1 (A♦ beside 4♦) − 4 + 0 (no Joker) = 7.
    Seat 2, 2♠ 4♣ 2♦ A♥ 3♥: 2 + 4 − 2 + 0 + 0 = 4. Ranks: seat 1, seat 2, seat 0."""
    state = scoring_state(3, TAKEN, ["3C", "AD"])
    state["options"] = E.check_options(3, {})
    auto, end = finish(E, state)
    assert auto["trophies"] == {"3C": 0, "AD": 1} and auto["scores"] == [3, 7, 4]
    # The state keeps the order taken, trophies last.
    assert end["jests"] == [TAKEN[0] + ["3C"], TAKEN[1] + ["AD"], TAKEN[2]]
    listed = [["AS", "2C", "3C", "3D", "4H", "JK"], ["3S", "4S", "AC", "AD", "4D", "2H"],
              ["2S", "4C", "2D", "AH", "3H"]]
    result = E.result(end)
    assert result.detail["jests"] == listed and result.detail["trophies"] == {"3C": 0, "AD": 1}
    assert list(result.scores) == [3, 7, 4] and result.ranks == (3, 1, 2)
    for viewer in (None, 0, 1, 2):
        view = E.observe(end, viewer)
        assert view["jests"] == listed, viewer
        assert [[card for card, _ in b["cards"]] for b in view["breakdown"]] == [
            [card for card in jest if card != "JK"] for jest in listed]
        assert view["breakdown"][0]["cards"] == [["AS", 5], ["2C", 2], ["3C", 3], ["3D", -3], ["4H", -4]]
        assert [b["total"] for b in view["breakdown"]] == [3, 7, 4]
        if viewer is not None:
            assert view["jest"] == end["jests"][viewer]  # a seat's own Jest: its own takes, in order
    # Rules 1.1.0 (and 1.0.0), for their stored matches: the order taken, trophies last.
    for old in (V1_1, V1_0):
        old_state = scoring_state(3, TAKEN, ["3C", "AD"])
        if old is V1_1:
            old_state["options"] = old.check_options(3, {})
        old_auto, old_end = finish(old, old_state)
        assert old_auto == auto
        assert old.result(old_end).detail["jests"] == end["jests"]
        assert old.public_observation(old_end)["jests"] == end["jests"]
        assert old.public_observation(old_end)["breakdown"][0]["cards"][0] == ["4H", -4]
        assert old.result(old_end).scores == result.scores and old.result(old_end).ranks == result.ranks


def _round_one(engine):
    """Round 1 of a 3-player match, by hand: trophies 3♣ A♦; seat 0 holds 4♠ 2♥, seat 1 4♣ Joker, seat 2
    A♠ 3♦. Offers face up 4♠, Joker, 3♦: 4♠ takes first (R1). Every take is face down, from another seat:
    seat 0 takes 4♣ from seat 1, seat 1 (taken from, R2) A♠ from seat 2, seat 2 (taken from) 2♥ from seat 0."""
    rest = [card for card in CARDS if card not in ("3C", "AD", "4S", "2H", "4C", "JK", "AS", "3D")]
    order = ["3C", "AD", "4S", "2H", "4C", "JK", "AS", "3D"] + rest
    state = engine.step(engine.initial_state(3, {}), CHANCE, {"type": "shuffle", "order": order})
    for seat, (up, down) in enumerate((("4S", "2H"), ("JK", "4C"), ("3D", "AS"))):
        state = engine.step(state, seat, {"type": "offer", "up": up, "down": down})
    for seat, source in ((0, 1), (1, 2), (2, 0)):
        assert engine.to_act(state).seats == (seat,)
        state = engine.step(state, seat, {"type": "take", "from": source, "card": "down"})
    return state


@pytest.mark.parametrize("seed", range(6))
def test_played_match_public_lists_do_not_follow_the_takes(seed):
    """The probe's repro, played: three face-down takes in round 1 (4♣ from seat 1, A♠ from seat 2, 2♥ from
    seat 0: public as "from 1, face down" and so on), then the same random moves under 1.1.0 and 1.2.0.
    Under 1.1.0 each finished Jest starts with its round-1 take, so the public lists name the three hidden
    cards and whose offer each was; under 1.2.0 they are in card order for every viewer, the same lists
    whatever the order of the takes."""
    ends = {}
    for engine in (V1_1, E):
        state = _round_one(engine)
        rng = random.Random(seed)
        while (chosen := next_step(engine, state, rng)) is not None:
            state = engine.step(state, *chosen)
        ends[engine.rules_version] = state
    old, new = ends["1.1.0"], ends["1.2.0"]
    assert {k: v for k, v in old.items() if k != "options"} == {k: v for k, v in new.items() if k != "options"}
    assert [jest[0] for jest in new["jests"]] == ["4C", "AS", "2H"]  # the state: the order taken
    assert any(jest != in_card_order(jest) for jest in new["jests"])
    # 1.1.0: the public lists give the face-down takes away.
    old_public = V1_1.public_observation(old)
    assert [jest[0] for jest in old_public["jests"]] == ["4C", "AS", "2H"]
    assert [jest[0] for jest in V1_1.result(old).detail["jests"]] == ["4C", "AS", "2H"]
    # 1.2.0: card order, in every viewer's observation and the result detail; scores and ranks unchanged.
    listed = [in_card_order(jest) for jest in new["jests"]]
    assert E.result(new).detail["jests"] == listed
    assert (E.result(new).scores, E.result(new).ranks) == (V1_1.result(old).scores, V1_1.result(old).ranks)
    for viewer in (None, 0, 1, 2):
        view = E.observe(new, viewer)
        assert view["jests"] == listed, viewer
        assert [[card for card, _ in b["cards"]] for b in view["breakdown"]] == [
            [card for card in jest if card != "JK"] for jest in listed]
        if viewer is not None:
            assert view["jest"] == new["jests"][viewer]
    # The same cards taken in another order are listed alike: the list depends on the Jest's cards only.
    shuffled = json.loads(json.dumps(new))
    for jest in shuffled["jests"]:
        random.Random(seed).shuffle(jest)
    assert E.public_observation(shuffled)["jests"] == listed
    assert E.result(shuffled).detail["jests"] == listed


@pytest.mark.parametrize("path", sorted((HISTORIES / "1.1.0").glob("*.jsonl")), ids=lambda p: p.stem)
def test_recorded_1_1_0_matches_replay_under_1_2_0_to_the_same_result_in_card_order(path):
    """Play and scoring are unchanged: each recorded 1.1.0 match, replayed step by step under 1.2.0, ends
    with the recorded scores, ranks, winners and trophies, its Jests listed in card order."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    created, recorded = lines[0]["data"], lines[-1]["data"]["result"]
    state = E.initial_state(created["seats"], created["options"])
    actors = {"ChanceDrawn": lambda d: (CHANCE, d["outcome"]), "MoveMade": lambda d: (d["seat"], d["action"]),
              "StepResolved": lambda d: (SYSTEM, d["step"])}
    for line in lines:
        if line["event"] in actors:
            state = E.step(state, *actors[line["event"]](line["data"]))
    result = json.loads(json.dumps(E.result(state).to_json()))
    assert {k: v for k, v in result.items() if k != "detail"} == {k: v for k, v in recorded.items() if k != "detail"}
    assert result["detail"]["trophies"] == recorded["detail"]["trophies"]
    assert result["detail"]["jests"] == [in_card_order(jest) for jest in recorded["detail"]["jests"]]
