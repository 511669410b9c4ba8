"""Jester rules 1.5.0: the round's turn limit (docs/rules/jester.md, "Changes in 1.5.0" and A turn, step 1).

Rulebook How to Play (../shared/rules/rulebooks/jester.txt): "During a round, each player takes a minimum of three
and a maximum of nine turns." House rule P5's take-back (every pile empty, or [ENGINE] no marker left to box: the
player takes back into his hand the card he just played) keeps a card off the table, so before 1.5.0 a round could
be stalled forever (the jesterrules probe's finding 1: two players each holding one city card, $0, all 12 markers
boxed, each playing city, visiting the shop and taking the card back). 1.5.0 counts the turns ended this round
(``round_turns``) and ends a round nobody triggered once every player has taken nine turns, the favors then chosen
from the starting player [ENGINE, listed with P5]. Without a take-back a player's 9th card is a 3rd card of some
place (4 places x 2), so the cap ends only rounds in which every player took a card back.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from domain.engine import CHANCE, SYSTEM, Phase
from domain.games import get_engine
from domain.games.jester import ENGINE as E
from domain.games.jester import ENGINES
from domain.games.jester.bots import determinize
from domain.games.jester.data import MAX_TURNS
from tests.engines.harness import random_playout
from tests.engines.test_jester import P, kind, setup_outcome

V1_4 = ENGINES["1.4.0"]
HISTORIES = Path(__file__).resolve().parent.parent / "fixtures" / "histories" / "jester"
RULEBOOK_LINE = "During a round, each player takes a minimum of three and a maximum of nine turns."


def started(engine, n=2, start=0):
    """Setup under ``engine`` with fixed chance outcomes (tests.engines.test_jester.setup_outcome), the start at
    ``start``, each player's 2 starting markers in guild 1: the first turn of round 1 is due."""
    s = engine.initial_state(n, engine.check_options(n, {}))
    s = engine.step(s, CHANCE, setup_outcome(s))
    s = engine.step(s, CHANCE, {"type": "start", "seat": start})
    for k in range(n):
        s = engine.step(s, (start + k) % n, {"type": "setup-guild", "guilds": [1, 1]})
    return s


def stalled(engine, n=2, start=0):
    """The probe's forged state (/tmp/probes/jesterrules/stall.py): every player holds one city card, has $0
    and has boxed all 12 markers (nothing left to sell for the rescue), the piles are not empty."""
    s = copy.deepcopy(started(engine, n, start))
    for p in s["players"]:
        p.update(hand=[1, 0, 0, 0], money=0, reserve=0, guilds=[0] * 6, boxed=12, table=[0, 0, 0, 0],
                 spec=[False] * 7)
    s["royalty"], s["counselor"], s["piles"] = [None] * 4, [], [8, 10, 10, 10]
    return s


def city_and_take_back(engine, s):
    """One turn of the stall: play the city card, send the pawn to the craftsman's shop (J-SHOP); nothing is
    affordable, the hand is empty and no marker is left to box, so P5 takes the card back and the turn ends."""
    seat = engine.to_act(s).seats[0]
    assert kind(s) == "play" and s["stack"][-1]["seat"] == seat
    s = engine.step(s, seat, {"type": "play", "place": "city"})
    s = engine.step(s, seat, {"type": "city-shop"})
    assert P(s, seat)["hand"] == [1, 0, 0, 0] and P(s, seat)["table"] == [0, 0, 0, 0]  # taken back
    return s


def test_the_rulebook_states_the_limit():
    rulebook = Path("/work/shared/rules/rulebooks/jester.txt")
    if rulebook.exists():
        assert RULEBOOK_LINE in rulebook.read_text()
    assert MAX_TURNS == 9


def test_1_5_0_ends_a_stalled_round_after_nine_turns_each():
    """Rulebook How to Play: "During a round, each player takes a minimum of three and a maximum of nine turns."
    2 players, seat 0 starts; both stall (city, shop, take-back). Seat 0's 9th turn ends the 17th turn of the
    round: seat 1 has had eight, so the round goes on. Seat 1's 9th (the 18th, the player before the starting
    player) ends it: nobody triggered, so ``trigger`` is the starting player and the favors start from him."""
    s = stalled(E)
    assert s["round_turns"] == 0  # setup and the starting markers end no turn
    for done in range(1, 2 * MAX_TURNS):
        s = city_and_take_back(E, s)
        assert s["round_turns"] == done and s["trigger"] is None and kind(s) == "play", done
        assert s["stack"][-1]["seat"] == done % 2
    assert [p["turns"] for p in s["players"]] == [9, 8]
    s = city_and_take_back(E, s)  # seat 1's 9th turn
    assert [p["turns"] for p in s["players"]] == [9, 9] and s["round_turns"] == 18
    assert s["round"] == 1 and s["trigger"] == 0  # the starting player
    # End of the Round task 1 (nothing kept: no Merchants), then task 2 from seat 0
    assert kind(s) == "favor" and s["stack"][-1]["order"] == [0, 1] and E.to_act(s).seats == (0,)
    assert E.observe(s, 1)["round_turns"] == 18 and E.observe(s, None)["trigger"] == 0
    # the rest of the round end, first legal choices; round 2 begins with a new count
    while kind(s) != "play":
        turn = E.to_act(s)
        if turn.kind == Phase.CHANCE:
            s = E.step(s, CHANCE, E.sample_chance(s, random.Random(0)))
        elif turn.kind == Phase.AUTO:
            s = E.step(s, SYSTEM, E.auto_action(s))
        else:
            s = E.step(s, turn.seats[0], E.legal_actions(s, turn.seats[0])[0])
    assert s["round"] == 2 and s["start"] == 1 and s["trigger"] is None and s["round_turns"] == 0


def test_1_4_0_does_not_end_the_stalled_round():
    """The same forged state under 1.4.0: no count, no cap. The round stalls (the probe: 100 turns each, still
    round 1)."""
    s = stalled(V1_4)
    assert "round_turns" not in s
    for _ in range(2 * 30):
        s = city_and_take_back(V1_4, s)
    assert [p["turns"] for p in s["players"]] == [30, 30]
    assert s["round"] == 1 and s["trigger"] is None and kind(s) == "play" and "round_turns" not in s
    assert "round_turns" not in V1_4.observe(s, 0) and "round_turns" not in V1_4.observe(s, None)


@pytest.mark.parametrize("n", [3, 4])
def test_the_cap_with_more_players_and_another_start(n):
    """n players, the start at the last seat: the round ends when the player before him ends his 9th turn,
    the 9n-th of the round, every player having taken nine."""
    start = n - 1
    s = stalled(E, n, start)
    for _ in range(MAX_TURNS * n - 1):
        s = city_and_take_back(E, s)
    assert kind(s) == "play" and s["stack"][-1]["seat"] == start - 1 and s["trigger"] is None
    s = city_and_take_back(E, s)
    assert [p["turns"] for p in s["players"]] == [9] * n and s["trigger"] == start
    assert kind(s) == "favor" and s["stack"][-1]["order"] == [(start + k) % n for k in range(n)]


def test_a_player_who_triggers_in_the_last_lap_chooses_the_first_favor():
    """Rulebook, End of the Round 2: "The player who triggered the end of the round chooses and applies,
    immediately, one of the five King's Favors". Seat 0 (the starting player) stalls to his 9th turn; seat 1
    then plays his 9th card, a 3rd city card (before he takes it back, P5): he triggered, and the round ends
    after his turn as it would without the cap, the favors from him, not from the starting player."""
    s = stalled(E)
    s["round_turns"] = 16  # eight turns each ended
    for p in s["players"]:
        p["turns"] = 8
    P(s, 1)["table"] = [2, 2, 2, 2]  # seat 1 has played eight cards, two of each place
    s = city_and_take_back(E, s)  # seat 0's 9th turn: nobody has triggered yet, the cap waits
    assert s["round_turns"] == 17 and s["trigger"] is None and kind(s) == "play"
    s = E.step(s, 1, {"type": "play", "place": "city"})
    assert P(s, 1)["table"][0] == 3 and s["trigger"] == 1  # the 3rd card of one place triggers
    s = E.step(s, 1, {"type": "city-shop"})
    assert P(s, 1)["hand"] == [1, 0, 0, 0]  # taken back all the same
    assert s["round_turns"] == 18 and s["trigger"] == 1
    # End of the Round task 1 done (no Merchants): his eight table cards went back to the piles
    assert P(s, 1)["table"] == [0, 0, 0, 0] and s["piles"] == [10, 12, 12, 12]
    assert kind(s) == "favor" and s["stack"][-1]["order"] == [1, 0] and E.to_act(s).seats == (1,)


def _round_turns_follow_the_turns(playout, n):
    """Every state: ``round_turns`` is the turns ended since the round began, nobody has ended more than nine,
    and each observation shows the count."""
    base, seen_round = 0, 0
    for state in playout.states:
        if "round_turns" not in state:
            continue
        total = sum(p["turns"] for p in state["players"])
        if state["round"] != seen_round:  # the round just began
            assert state["round_turns"] == 0
            seen_round, base = state["round"], total
        assert state["round_turns"] == total - base
        assert state["round_turns"] <= MAX_TURNS * n
        for seat in (*range(n), None):
            assert E.observe(state, seat)["round_turns"] == state["round_turns"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_count_and_defaults_play_as_1_4_0(n):
    """Random matches with the same draws and moves: the count follows the turns, is 0 as each round begins;
    and 1.5.0 makes 1.4.0's states but for ``round_turns`` (no take-back kept every player off a 3rd card for
    nine turns in these matches, so the cap never ended a round)."""
    for seed in range(3):
        options = {"red_chairs": seed % 2 == 1}
        old = random_playout(V1_4, n, options, seed=seed, check_purity_every=200)
        new = random_playout(E, n, options, seed=seed, check_purity_every=200)
        _round_turns_follow_the_turns(new, n)
        assert old.log == new.log
        assert [{k: v for k, v in state.items() if k != "round_turns"} for state in new.states] == old.states
        assert all("round_turns" not in state for state in old.states)
        assert V1_4.result(old.final) == E.result(new.final)


def test_the_1_5_0_fixtures_write_1_4_0s_events():
    """tests/fixtures/histories/jester/1.5.0 (record.py, the same seeds and option sets as 1.4.0): the same events
    as 1.4.0's files but for the match's name and version (the cap never ended one of these rounds)."""
    compared = 0
    for path in sorted((HISTORIES / "1.5.0").glob("*.jsonl")):
        new = [json.loads(line) for line in path.read_text().splitlines()]
        old = [json.loads(line) for line in (HISTORIES / "1.4.0" / path.name).read_text().splitlines()]
        assert all(e["rules_version"] == "1.5.0" for e in new)
        assert [(e["version"], e["event"], e["data"]) for e in new] == [(e["version"], e["event"], e["data"])
                                                                         for e in old]
        compared += 1
    assert compared == 18


def test_the_computers_sample_the_count_from_the_observation():
    """bots.determinize copies the public count, so a sampled state ends its round where the match will."""
    s = stalled(E)
    for _ in range(2 * MAX_TURNS - 1):
        s = city_and_take_back(E, s)
    sample = determinize(E.observe(s, 1), 1, random.Random(3))
    assert sample["round_turns"] == 17
    after = E.apply(E.apply(sample, 1, {"type": "play", "place": "city"}), 1, {"type": "city-shop"})
    assert after["trigger"] == 0 and kind(after) == "favor"
    old = stalled(V1_4)
    assert "round_turns" not in determinize(V1_4.observe(old, 0), 0, random.Random(3))


def test_only_1_5_0_counts():
    assert get_engine("jester") is E and E.rules_version == "1.5.0"
    assert E.initial_state(3, {})["round_turns"] == 0
    for version, engine in ENGINES.items():
        assert "round_turns" not in engine.initial_state(3, engine.check_options(3, {})), version
