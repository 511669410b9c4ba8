"""Tumult Royale: hand-worked rule cases and random playouts.

Rule citations: "rulebook <step/section>" = ../shared/rules/rulebooks/tumult-royale.txt (from the second
component list on); "HR 4.x" = ../shared/rules/house-rules.md section 4; "engine" = decisions in
docs/rules/tumult-royale.md.
"""

from __future__ import annotations

import copy
import functools
import json
import random

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, InvalidOptions, Phase, Timer
from domain.games import get_engine
from domain.games.tumult_royale import data as D
from domain.games.tumult_royale.state import field_types

E = get_engine("tumult-royale")
E10 = get_engine("tumult-royale", "1.0.0")  # before the ready step and the zero-take fix


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def tiles(codes: str, used=None) -> list:
    """Distinct tile ids for codes like "B2 M3 T1" (B bread, M marble, T tools)."""
    used = set() if used is None else used
    out = []
    for code in codes.split():
        c, v = "BMT".index(code[0]), int(code[1])
        tid = next(t for t, tv in enumerate(D.TILES) if tv == (c, v) and t not in used)
        used.add(tid)
        out.append(tid)
    return out


def started(n=2, ranks=None, options=None, firsts=None, spin=3):
    """A match in round 1 right at tax collection (regions 1..10 in order, identity shuffle)."""
    s = E.initial_state(n, E.check_options(n, options or {}))
    s = E.step(s, CHANCE, {"type": "regions", "order": list(range(1, 11))})
    s = E.step(s, CHANCE, {"type": "deal", "ranks": ranks or list(range(1, n + 1))})
    i = 0
    while s["phase"] == "first-statues":
        seat = s["turn"]
        field = firsts[seat] if firsts else E.legal_actions(s, seat)[0]["field"]
        s = E.step(s, seat, {"type": "first-statue", "field": field})
        i += 1
    s = E.step(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
    if not s["options"]["gamble"]:
        s = E.step(s, CHANCE, {"type": "spin", "value": spin})
    return all_ready(s)


def all_ready(s):
    """1.1.0 ready step (rulebook 2 Get Taxes): every seat says it is ready, the hourglass turns."""
    while s["phase"] == "ready":
        s = E.step(s, E.to_act(s).seats[0], {"type": "ready"})
    return s


def at_placement(n=2, castles=None, board=None, ranks=None, round_=2, all_face_up=False):
    """A hand-built state in the placement phase (step 4)."""
    s = started(n, ranks=ranks)
    s = copy.deepcopy(s)
    s["round"] = round_
    s["layout"] = None
    s["revealed"] = True
    s["hand"] = [None] * n
    s["collecting"] = [False] * n
    s["castle"] = [list(c) for c in (castles or [[] for _ in range(n)])]
    kept = {t for c in s["castle"] for t in c}
    s["centre"] = [t for t in range(39) if t not in kept]
    s["set_aside"] = []
    if board is not None:
        s["board"] = list(board)
        for seat in range(n):
            s["statues_left"][seat] = 25 - sum(
                D.COSTS[D.field_types(n, tuple(s["regions"]), (True,) * len(s["face_up"]))[f]][1]
                for f, o in enumerate(board)
                if o == seat
            )
    if all_face_up:
        s["face_up"] = [True] * len(s["face_up"])
    s["phase"] = "placement"
    s["passed"] = [False] * n
    s["turn"] = s["ranks"].index(1)
    return s


def empty_board(n=2):
    return [None] * D.num_fields(n)


# 2 players, regions 1..10 in order: T1 T2 on top (face down), T3 T4 below (face up). Width 6.
#   row 3: P M P F P M   fields 18..23
#   row 4: F V F C P V   fields 24..29
#   row 5: C M P P F M   fields 30..35


# ---------------------------------------------------------------------------------------------
# options and setup
# ---------------------------------------------------------------------------------------------
def test_options_defaults_and_validation():
    """Options gamble / tax_seconds / tax_mode (brief); 2-4 players (rulebook components)."""
    assert E10.check_options(3, {}) == {"gamble": False, "tax_seconds": 20, "tax_mode": "live"}
    assert E.check_options(3, {}) == {"gamble": False, "tax_seconds": 20, "tax_mode": "live", "ready_seconds": 30,
                                      "set_aside": "total"}
    assert E.check_options(2, {"ready_seconds": 5})["ready_seconds"] == 5
    for bad in ({"ready_seconds": 0}, {"ready_seconds": False}, {"ready_seconds": "5"}):
        with pytest.raises(InvalidOptions):
            E.check_options(2, bad)
    with pytest.raises(InvalidOptions):  # 1.0.0 had no ready step to bound
        E10.check_options(2, {"ready_seconds": 5})
    assert E.check_options(2, {"tax_seconds": 12.5})["tax_seconds"] == 12.5
    # A whole number sent as 20.0 is kept as its default is, 20 (an options probe: views showed 20.0 and 20),
    # and a wrong type is told apart from a value out of range, in the other games' words.
    kept = E.check_options(2, {"tax_seconds": 20.0, "ready_seconds": 5.0})
    assert (kept["tax_seconds"], kept["ready_seconds"]) == (20, 5) and type(kept["tax_seconds"]) is int
    for bad, said in (({"tax_seconds": True}, "option 'tax_seconds' must be of type number"),
                      ({"tax_seconds": 601}, "option 'tax_seconds' must be between 1 and 600")):
        with pytest.raises(InvalidOptions) as refused:
            E.check_options(2, bad)
        assert said in str(refused.value)
    assert E.check_options(4, {"tax_mode": "async", "gamble": True})["tax_mode"] == "async"
    for bad in ({"tax_mode": "slow"}, {"tax_seconds": True}, {"tax_seconds": 0}, {"gamble": 1}, {"x": 1}):
        with pytest.raises(InvalidOptions):
            E.check_options(2, bad)
    for count in (1, 5):
        with pytest.raises(InvalidOptions):
            E.check_options(count, {})


@pytest.mark.parametrize("n,each", [(2, 30), (3, 20), (4, 15)])
def test_setup_supporters_regions_and_ranks(n, each):
    """Rulebook setup: 30/20/15 supporters; HR 4.5: 4/6/8 region tiles, top row / outer columns face
    down; ranks dealt at random (a public CHANCE step over all permutations)."""
    s = E.initial_state(n, E.check_options(n, {}))
    assert s["supporters"] == [each] * n and s["pool"] + each * n == 105
    assert E.to_act(s).kind == Phase.CHANCE and E.chance_outcomes(s) is None
    s = E.step(s, CHANCE, {"type": "regions", "order": list(range(10, 0, -1))})
    assert len(s["regions"]) == 2 * D.COLUMNS[n]
    assert [p for p, up in enumerate(s["face_up"]) if not up] == list(D.FACE_DOWN[n])
    outcomes = E.chance_outcomes(s)
    assert len(outcomes) == [1, 1, 2, 6, 24][n] and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert E.chance_is_public(s, outcomes[0][0])
    with pytest.raises(IllegalAction):
        E.step(s, CHANCE, {"type": "deal", "ranks": [1] * n})
    obs = E.observation(s, 0)
    assert all(obs["regions"][p] is None for p in D.FACE_DOWN[n])
    assert "?" * 3 in "".join(obs["fields"])


def test_first_statues_lowest_rank_first_on_pastures():
    """Rulebook "Placing the First Statue": lowest rank first, the king last, pastures only."""
    s = E.initial_state(3, E.check_options(3, {}))
    s = E.step(s, CHANCE, {"type": "regions", "order": list(range(1, 11))})
    s = E.step(s, CHANCE, {"type": "deal", "ranks": [2, 3, 1]})
    assert E.to_act(s).seats == (1,)  # rank 3
    types = field_types(s)
    legal = E.legal_actions(s, 1)
    assert legal and all(types[a["field"]] == "P" for a in legal)
    mountain = types.index("M")
    with pytest.raises(IllegalAction):
        E.check_action(s, 1, {"type": "first-statue", "field": mountain})
    hidden = types.index(None)
    with pytest.raises(IllegalAction):
        E.check_action(s, 1, {"type": "first-statue", "field": hidden})
    s = E.step(s, 1, legal[0])
    assert E.to_act(s).seats == (0,)  # rank 2
    with pytest.raises(IllegalAction):  # occupied
        E.check_action(s, 0, legal[0])
    s = E.step(s, 0, E.legal_actions(s, 0)[0])
    assert E.to_act(s).seats == (2,)  # the king places last
    s = E.step(s, 2, E.legal_actions(s, 2)[0])
    assert s["phase"] == "shuffle" and s["round"] == 1
    assert [25 - x for x in s["statues_left"]] == [1, 1, 1]


def test_shuffle_sets_aside_twelve_and_spinner():
    """HR 4.5: 12 unseen tiles set aside, 27 face down in the centre; spinner 2-5 public (HR 4.4)."""
    s = E.initial_state(4, E.check_options(4, {}))
    s = E.step(s, CHANCE, {"type": "regions", "order": list(range(1, 11))})
    s = E.step(s, CHANCE, {"type": "deal", "ranks": [1, 2, 3, 4]})
    while s["phase"] == "first-statues":
        s = E.step(s, s["turn"], E.legal_actions(s, s["turn"])[0])
    with pytest.raises(IllegalAction):
        E.step(s, CHANCE, {"type": "shuffle", "order": list(range(38)) + [0]})
    s = E.step(s, CHANCE, {"type": "shuffle", "order": list(range(38, -1, -1))})
    assert len(s["set_aside"]) == 12 and len(s["layout"]) == 27
    assert not E.chance_is_public(s, {"type": "shuffle", "order": list(range(39))})
    outcomes = E.chance_outcomes(s)
    assert sorted(o["value"] for o, _ in outcomes) == [2, 3, 4, 5]
    assert all(abs(p - 0.25) < 1e-12 for _, p in outcomes)
    assert E.chance_is_public(s, outcomes[0][0])
    assert E10.step(s, CHANCE, {"type": "spin", "value": 5})["phase"] == "tax"  # 1.0.0: no ready step
    s = E.step(s, CHANCE, {"type": "spin", "value": 5})
    assert s["demand"] == 5 and s["phase"] == "ready"  # 1.1.0: the ready step comes first


# ---------------------------------------------------------------------------------------------
# tax collection
# ---------------------------------------------------------------------------------------------
def test_live_tax_simultaneous_timer_peek_keep_return():
    """Rulebook step 2 and HR 4.5 digital tax collection: one tile in hand at a time, its value only
    for the peeker, a held tile unavailable to others, kept tiles safe and seen by others as a count."""
    s = started(3)
    assert E.to_act(s).seats == (0, 1, 2)
    assert E.timer(s) == Timer("tax-1", 20)
    assert E.timeout_action(s) == {"type": "close-tax"}
    assert E.cooldown(s, 0, {"type": "peek", "tile": 4}) == 0.6
    assert E.cooldown(s, 0, {"type": "done"}) == 0.0
    s = E.step(s, 0, {"type": "peek", "tile": 4})
    tid = s["layout"][4]
    c, v = D.TILES[tid]
    assert E.observation(s, 0)["hand"] == {"slot": 4, "commodity": D.COMMODITIES[c], "value": v}
    assert E.observation(s, 1)["hand"] is None and E.observation(s, 1)["slots"][4] == "h"
    assert "hand" not in E.public_observation(s)
    # one tile at a time; the held tile is not available to another seat
    assert {a["type"] for a in E.legal_actions(s, 0)} == {"keep", "return"}
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "peek", "tile": 5})
    with pytest.raises(IllegalAction):
        E.check_action(s, 1, {"type": "peek", "tile": 4})
    assert {"type": "peek", "tile": 4} not in E.legal_actions(s, 1)
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "done"})  # keep or return first
    # the redacted event carries the slot, never the value
    assert E.redact(s, 0, {"type": "peek", "tile": 4}, 1) == {"type": "peek", "tile": 4}
    s = E.step(s, 0, {"type": "keep"})
    assert s["castle"][0] == [tid] and s["layout"][4] is None
    assert E.observation(s, 0)["castles"][0] == [D.COMMODITIES[c][0].upper() + str(v)]
    assert E.observation(s, 1)["castles"][0] == 1  # only the count before the reveal
    with pytest.raises(IllegalAction):  # a kept tile cannot go back / be peeked again
        E.check_action(s, 1, {"type": "peek", "tile": 4})
    s = E.step(s, 1, {"type": "peek", "tile": 7})
    s = E.step(s, 1, {"type": "return"})
    assert s["hand"][1] is None and s["layout"][7] == 12 + 7  # back face down in its slot
    # timeout: tiles in hand go back, everything is revealed
    s = E.step(s, 2, {"type": "peek", "tile": 9})
    closed = E.step(s, SYSTEM, {"type": "close-tax"})
    assert closed["phase"] == "tumults" and closed["hand"] == [None] * 3
    assert s["layout"][9] in closed["centre"] and tid not in closed["centre"]
    assert E.observation(closed, 1)["castles"][0] == [D.COMMODITIES[c][0].upper() + str(v)]
    with pytest.raises(IllegalAction):
        E.step(s, SYSTEM, {"type": "close-tax", "x": 1})


def test_live_tax_ends_when_every_seat_is_done():
    """Engine (documented): when every seat has said done the phase ends without the timer."""
    s = started(2)
    s = E.step(s, 0, {"type": "peek", "tile": 0})
    s = E.step(s, 0, {"type": "keep"})
    s = E.step(s, 0, {"type": "done"})
    assert E.to_act(s).seats == (1,) and E.legal_actions(s, 0) == []
    s = E.step(s, 1, {"type": "done"})
    assert s["phase"] == "tumults" and E.timer(s) is None and s["revealed"]


def test_async_tax_alternates_and_limits_peeks():
    """HR 4.5 asynchronous mode: players alternate single peeks (king first), 8 peeks each per round."""
    s = started(2, ranks=[2, 1], options={"tax_mode": "async"})
    assert E.timer(s) is None
    assert E.to_act(s).seats == (1,)  # the king
    s = E.step(s, 1, {"type": "peek", "tile": 3})
    assert E.to_act(s).seats == (1,)  # decide first
    s = E.step(s, 1, {"type": "return"})
    assert E.to_act(s).seats == (0,)
    s = E.step(s, 0, {"type": "done"})
    for _ in range(7):
        assert E.to_act(s).seats == (1,)
        s = E.step(s, 1, {"type": "peek", "tile": E.legal_actions(s, 1)[0]["tile"]})
        s = E.step(s, 1, {"type": "keep"})
    assert s["phase"] == "tumults" and len(s["castle"][1]) == 7 and s["peeks"][1] == 8


def test_gamble_variant_spins_after_tax():
    """HR 4.5 variant "Taxing Royalty Who Love to Gamble": the spinner is spun after tax collection."""
    s = started(2, options={"gamble": True})
    assert s["phase"] == "tax" and s["demand"] is None
    s = E.step(s, 0, {"type": "done"})
    s = E.step(s, 1, {"type": "done"})
    assert s["phase"] == "spin" and E.to_act(s).kind == Phase.CHANCE
    s = E.step(s, CHANCE, {"type": "spin", "value": 2})
    assert s["phase"] == "tumults" and s["demand"] == 2


# ---------------------------------------------------------------------------------------------
# tumults
# ---------------------------------------------------------------------------------------------
def tumult_state(castles, centre_codes, demand, mercy, ranks, round_=2):
    n = len(castles)
    s = started(n, ranks=ranks)
    s = copy.deepcopy(s)
    used = set()
    s["castle"] = [tiles(c, used) for c in castles]
    s["centre"] = sorted(tiles(centre_codes, used))
    s["set_aside"] = [t for t in range(39) if t not in used]
    s["layout"] = None
    s["revealed"] = True
    s["demand"] = demand
    s["mercy"] = list(mercy)
    s["round"] = round_
    s["phase"] = "tumults"
    return s


def test_tumult_rulebook_example_duchess_and_prince():
    """Rulebook step 3 example: demand 4. Bread: 2 left -> tumult; the duchess (rank 2, mercy) took 5
    = 4 counted, the prince (rank 3) 4: tie -> the higher rank (duchess) is greediest, loses 3 and
    keeps only her lowest bread tile. Marble: 4 left -> no tumult. Tools: 3 left -> tumult; duchess
    4 - 1 = 3, prince 4 -> the prince is greediest."""
    king, duchess, prince = 0, 1, 2
    s = tumult_state(
        castles=["", "B1 B2 B2 T1 T3", "B1 B3 T2 T2"],
        centre_codes="B2 M1 M3 T1 T2",
        demand=4,
        mercy=[False, True, False],
        ranks=[1, 2, 3],
    )
    step = E.auto_action(s)
    assert step["left"] == {"bread": 2, "marble": 4, "tools": 3}
    assert [t["commodity"] for t in step["tumults"]] == ["bread", "tools"]
    bread, tools = step["tumults"]
    assert bread["took"] == [0, 5, 4] and bread["counted"] == [0, 4, 4] and bread["greediest"] == duchess
    assert tools["counted"] == [0, 3, 4] and tools["greediest"] == prince
    after = E.step(s, SYSTEM, step)
    assert after["supporters"] == [20, 20 - 3, 20 - 3]  # duchess and prince lose 3 each
    assert after["pool"] == s["pool"] + 6
    # the duchess hands back her two higher bread tiles ("the two bread tiles with red arrows")
    assert len(bread["returned"]) == 2 and len(tools["returned"]) == 1
    assert sorted(D.TILES[t] for t in after["castle"][duchess]) == [(0, 1), (2, 1), (2, 3)]  # kept B1
    assert sorted(D.TILES[t] for t in after["castle"][prince]) == [(0, 1), (0, 3), (2, 2)]  # kept one T2
    assert after["greedy"] == [False, True, True]
    assert after["phase"] == "round-end"  # nobody holds marble: nobody can place, all pass
    # the returned tiles lie face up in the centre
    assert sorted(D.TILES[t] for t in after["centre"] if D.TILES[t][0] == 0) == [(0, 2), (0, 2), (0, 2)]
    with pytest.raises(IllegalAction):
        E.step(s, SYSTEM, dict(step, tumults=[]))


def test_tumult_ties_higher_rank_and_single_tile_kept():
    """Rulebook step 3: equal counts -> the higher-ranking player is greediest; a greediest player
    with a single tile of that commodity keeps it even if it shows 3."""
    s = tumult_state(["B3", "B1 B2"], "B1 M3 M3 T3 T3", demand=3, mercy=[False, False], ranks=[2, 1])
    step = E.auto_action(s)
    assert step["tumults"][0]["greediest"] == 1 and step["tumults"][0]["returned"] == tiles("B2", set(tiles("B3 B1")))
    s2 = tumult_state(["B3", "B1 B2"], "B1 M3 M3 T3 T3", demand=3, mercy=[False, False], ranks=[1, 2])
    step2 = E.auto_action(s2)
    assert step2["tumults"][0]["greediest"] == 0 and step2["tumults"][0]["returned"] == []


def test_no_mercy_in_round_one_and_no_taker_no_greediest():
    """Rulebook: the mercy card does not apply in the first round. Engine: a tumult in a commodity
    nobody took has no greediest player. Loss is capped at the supporters held."""
    s = tumult_state(["B2", "B2"], "B1 M3 M3 T3 T3", demand=3, mercy=[True, False], ranks=[2, 1], round_=1)
    step = E.auto_action(s)
    assert step["tumults"][0]["counted"] == [2, 2] and step["tumults"][0]["greediest"] == 1
    s = tumult_state(["B2", "B2"], "B1 M3 M3 T3 T3", demand=3, mercy=[True, False], ranks=[2, 1], round_=2)
    assert E.auto_action(s)["tumults"][0]["greediest"] == 1  # 1 vs 2 counted
    s = tumult_state(["", ""], "B1 M1 T1", demand=2, mercy=[False, False], ranks=[1, 2])
    step = E.auto_action(s)
    assert [t["greediest"] for t in step["tumults"]] == [None, None, None]
    s = tumult_state(["M3", ""], "M1 B3 T3", demand=2, mercy=[False, False], ranks=[1, 2])
    s["supporters"] = [2, 58]
    after = E.step(s, SYSTEM, E.auto_action(s))
    assert after["supporters"][0] == 0 and after["pool"] == s["pool"] + 2


# ---------------------------------------------------------------------------------------------
# placement (step 4)
# ---------------------------------------------------------------------------------------------
def place(field, b=(), m=(), t=()):
    return {"type": "place", "field": field, "pay": {"bread": list(b), "marble": list(m), "tools": list(t)}}


def test_costs_adjacency_and_double_cost():
    """Rulebook step 4 / HR 4.5 costs: mountain 1B 1M 2T next to an own statue; a village 2B 2T
    (proposal) only orthogonally adjacent; a distant pasture costs double and must touch a V/C/M."""
    board = empty_board()
    board[18] = 0  # pasture r3c0
    s = at_placement(castles=[tiles("B1 B1 M1 M1 T1 T1 T2"), []], board=board)
    legal = E.legal_actions(s, 0)
    fields = {a["field"] for a in legal if a["type"] == "place"}
    assert 19 in fields  # mountain, adjacent
    assert 25 not in fields  # village diagonal to 18
    assert 20 in fields  # pasture, distant, touches the mountain 19: double cost 2B 2M
    assert place(19, [1], [1], [1, 1]) in legal and place(19, [1], [1], [2]) in legal
    assert place(20, [1, 1], [1, 1]) in legal and place(20, [1], [1]) not in legal
    with pytest.raises(IllegalAction, match="adjacency"):
        E.check_action(s, 0, place(25, [1, 1], [], [1, 1]))
    with pytest.raises(IllegalAction, match="payment"):
        E.check_action(s, 0, place(20, [1], [1]))
    with pytest.raises(IllegalAction, match="payment"):
        E.check_action(s, 0, place(19, [1], [1], [1]))  # 2 tools needed
    after = E.step(s, 0, place(19, [1], [1], [2]))
    assert after["board"][19] == 0 and after["statues_left"][0] == 23
    assert after["supporters"][0] == 30  # exact payment: no supporters
    assert sorted(D.TILES[t] for t in after["castle"][0]) == [(0, 1), (1, 1), (2, 1), (2, 1)]


def test_forest_village_palace_costs():
    """HR 4.5 cost table: forest 1B 1M 1T (derived), village 2B 2T for 2 statues, palace 2M 3T for 3."""
    board = empty_board()
    board[18] = 0
    board[33] = 0  # pasture r5c3, next to the palace 27 (r4c3) and 34 (forest)
    s = at_placement(castles=[tiles("B2 B3 M2 T3 T1 T2"), []], board=board)
    legal = E.legal_actions(s, 0)
    assert place(24, [2], [2], [1]) in legal  # forest next to 18
    assert place(27, [], [2], [3]) in legal  # palace next to 33
    after = E.step(s, 0, place(27, [], [2], [3]))
    assert after["statues_left"][0] == 25 - 2 - 3 and after["board"][27] == 0
    # village 29 (r4c5): next to nobody of seat 0 -> build the pasture 28 first? use a fresh board
    board = empty_board()
    board[28] = 0  # pasture r4c4 next to the village 29
    s = at_placement(castles=[tiles("B1 B1 T2 M3"), []], board=board)
    assert place(29, [1, 1], [], [2]) in E.legal_actions(s, 0)
    after = E.step(s, 0, place(29, [1, 1], [], [2]))
    assert after["statues_left"][0] == 22 and after["placed_round"][0] == 2


def test_palace_needs_three_statues_left():
    """HR 4.5: a village or palace takes all its statues at once; the player must still have them."""
    board = empty_board()
    board[33] = 0
    s = at_placement(castles=[tiles("M2 T3"), []], board=board)
    s["statues_left"][0] = 2
    assert place(27, [], [2], [3]) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="3 statues"):
        E.check_action(s, 0, place(27, [], [2], [3]))


def test_overpayment_gives_supporters_rulebook_examples():
    """Rulebook step 4: a 3-marble tile and a 2-bread tile for a pasture give 3 supporters; mountain
    example: paying 1B 1M 2T with tiles B2 M1 T3 ("B") gives 2 supporters."""
    board = empty_board()
    board[18] = 0
    s = at_placement(castles=[tiles("M3 B2 M1 T3 B1"), []], board=board)
    after = E.step(s, 0, place(24, [2], [3], [3]))  # forest 1B 1M 1T next to 18
    assert after["supporters"][0] == 30 + (2 - 1) + (3 - 1) + (3 - 1)
    board2 = empty_board()
    board2[19] = 0  # mountain r3c1, next to the pasture 20 and 18
    s = at_placement(castles=[tiles("M3 B2"), []], board=board2)
    after = E.step(s, 0, place(20, [2], [3]))
    assert after["supporters"][0] == 33 and after["pool"] == s["pool"] - 3
    s = at_placement(castles=[tiles("B2 M1 T3 B1 T1 T1"), []], board=board)
    after = E.step(s, 0, place(19, [2], [1], [3]))
    assert after["supporters"][0] == 32


def test_no_excess_tiles_and_no_split():
    """Rulebook step 4: only the tiles needed (no 1 marble + 2 bread tiles for a pasture); several
    tiles of one type may cover a cost; a tile paid for one field is gone (no split)."""
    board = empty_board()
    board[19] = 0
    s = at_placement(castles=[tiles("B1 B1 M1 M2"), []], board=board)
    with pytest.raises(IllegalAction, match="no excess"):
        E.check_action(s, 0, place(18, [1, 1], [1]))
    with pytest.raises(IllegalAction, match="do not hold"):
        E.check_action(s, 0, place(18, [3], [1]))
    after = E.step(s, 0, place(18, [1], [2]))  # overpays 1 marble -> 1 supporter
    assert after["supporters"][0] == 31
    # the M2 is spent whole: the remaining B1 M1 still pay one more pasture (20), nothing more
    assert sorted(D.TILES[t] for t in after["castle"][0]) == [(0, 1), (1, 1)]


def test_distant_forest_must_touch_village_palace_or_mountain():
    """Rulebook step 4: a distant pasture/forest (double cost) is not allowed unless it touches a
    village, palace or mountain. Field 5 (a forest of T2, all tiles face up) touches only pastures."""
    board = empty_board()
    board[30] = 0
    s = at_placement(castles=[tiles("B3 B3 M3 M3 T3 T3"), []], board=board, all_face_up=True)
    fields = {a.get("field") for a in E.legal_actions(s, 0)}
    assert 5 not in fields
    with pytest.raises(IllegalAction, match="distant"):
        E.check_action(s, 0, place(5, [3], [3], [3]))
    assert 26 in fields  # forest touching the village 25 / palace 27
    assert place(26, [3], [3], [3]) in E.legal_actions(s, 0)  # 2/2/2 paid with 3s


def test_face_down_fields_are_unusable():
    """Rulebook royal chronicle: fields of face-down region tiles cannot be used until revealed."""
    board = empty_board()
    board[18] = 0
    s = at_placement(castles=[tiles("B3 M3 T3"), []], board=board)
    with pytest.raises(IllegalAction, match="face-down"):
        E.check_action(s, 0, place(12, [3], [3], [3]))


def test_placement_rounds_pass_final_and_auto_pass():
    """HR 4.5 placement: one field per turn in rank order, repeating; a pass is final; a seat that
    cannot pay anything is passed for it (engine)."""
    board = empty_board()
    board[18] = 0
    board[35] = 1
    s = at_placement(castles=[tiles("B1 M1 B1 M1"), tiles("B1 M1 T1 T1")], board=board, ranks=[1, 2])
    assert s["turn"] == 0
    s = E.step(s, 0, {"type": "pass"})
    assert s["passed"][0] and s["turn"] == 1
    s = E.step(s, 1, place(34, [1], [1], [1]))  # forest r5c4 next to 35
    # seat 1 now holds T1 only: cannot pay anything -> passed automatically, phase over
    assert s["phase"] == "round-end" and s["passed"] == [True, True]


def test_round_end_expiry_consolation_ranks_giveback_mercy():
    """Rulebook steps 4-7: unused tiles expire without supporters; +2 to a player who placed nothing
    unless he was greediest; new ranks by supporters (ties: previous rank); the king gives back 5 and
    fills chronicle space r; mercy to the fewest statues."""
    s = at_placement(n=3, castles=[tiles("B3"), [], []], ranks=[1, 2, 3])
    s["phase"] = "round-end"
    s["turn"] = None
    s["round"] = 2
    s["greedy"] = [False, True, False]
    s["placed_round"] = [0, 0, 1]
    s["statues_left"] = [24, 24, 23]
    s["supporters"] = [20, 22, 20]
    step = E.auto_action(s)
    assert step["consolation"] == [0]
    assert step["expired"] == tiles("B3")
    # supporters 22, 22, 20 -> seat 0 (king before) stays king on the tie, seat 1 duke
    assert step["ranks"] == [1, 2, 3] and step["king"] == 0 and step["give_back"] == 5
    assert step["statues"] == 1 and step["space"] == 2
    after = E.step(s, SYSTEM, step)
    assert after["supporters"] == [17, 22, 20] and after["castle"] == [[], [], []]
    assert tiles("B3")[0] in after["centre"]
    assert after["chronicle"] == [[0, 1]]
    # placed 2, 1, 2 -> seat 1 alone gets mercy
    assert after["mercy"] == [False, True, False]
    assert after["phase"] == "shuffle" and after["round"] == 3


def test_rank_redistribution_rulebook_example():
    """Rulebook step 5 example: Purple king 21, Blue duke 25, Yellow prince 23, Gray earl 21 ->
    Blue king, Yellow duke, Purple prince (tie with Gray won by the previous higher rank), Gray earl."""
    purple, blue, yellow, gray = 0, 1, 2, 3
    s = at_placement(n=4, ranks=[1, 2, 3, 4])
    s["phase"] = "round-end"
    s["placed_round"] = [1, 1, 1, 1]
    s["supporters"] = [21, 25, 23, 21]
    step = E.auto_action(s)
    assert step["ranks"] == [3, 1, 2, 4] and step["king"] == blue
    assert E.step(s, SYSTEM, step)["supporters"][blue] == 20  # the king's give-back
    s["supporters"] = [25, 25, 23, 21]  # Blue = Purple: Purple stays king
    assert E.auto_action(s)["ranks"] == [1, 2, 3, 4]


def test_mercy_all_equal_nobody_and_ties_all():
    """Rulebook step 7: the fewest statues get mercy, all tied ones; if everybody is equal, nobody."""
    s = at_placement(n=3, ranks=[1, 2, 3])
    s["phase"] = "round-end"
    s["placed_round"] = [1, 1, 1]
    s["statues_left"] = [23, 24, 24]  # 2, 1, 1 placed; the king's chronicle statue makes it 3, 1, 1
    step = E.auto_action(s)
    assert step["mercy"] == [False, True, True]
    s["statues_left"] = [24, 23, 23]  # with the king's chronicle statue all have 2
    assert E.auto_action(s)["mercy"] == [False, False, False]


def test_chronicle_reveals_at_spaces_three_and_five():
    """Rulebook royal chronicle: space 3 -> the king reveals 1 face-down tile (2-3p) or 2 (4p) of his
    choice; space 5 -> all the rest."""
    for n, first in ((2, 1), (3, 1), (4, 2)):
        s = at_placement(n=n, ranks=list(range(1, n + 1)))
        s["phase"] = "round-end"
        s["round"] = 3
        s["placed_round"] = [1] * n
        s = E.step(s, SYSTEM, E.auto_action(s))
        assert s["phase"] == "reveal" and s["reveals_left"] == first
        king = s["ranks"].index(1)
        assert E.to_act(s).seats == (king,)
        legal = E.legal_actions(s, king)
        assert {a["region"] for a in legal} == set(D.FACE_DOWN[n])
        with pytest.raises(IllegalAction):
            E.check_action(s, king, {"type": "reveal", "region": s["face_up"].index(True)})
        for _ in range(first):
            s = E.step(s, king, E.legal_actions(s, king)[-1])
        assert s["phase"] == "shuffle" and s["face_up"].count(False) == len(D.FACE_DOWN[n]) - first
        s = at_placement(n=n, ranks=list(range(1, n + 1)))
        s["phase"] = "round-end"
        s["round"] = 5
        s["placed_round"] = [1] * n
        s["face_up"][D.FACE_DOWN[n][0]] = True
        step = E.auto_action(s)
        assert step["reveal"] == list(D.FACE_DOWN[n][1:])
        assert all(E.step(s, SYSTEM, step)["face_up"])


def test_double_spaces_and_end_check_rulebook_example():
    """Rulebook "Ending the Game": from space 6 the king places 2 statues; in round 7 Blue (king)
    places 2 and has 21, Purple 15, Yellow 19: 21 - 15 = 6 > 5 -> over, Blue wins. A difference equal
    to the threshold continues."""
    blue, purple, yellow = 0, 1, 2
    s = at_placement(n=3, ranks=[1, 2, 3])
    s["phase"] = "round-end"
    s["round"] = 7
    s["placed_round"] = [1, 1, 1]
    s["statues_left"] = [25 - 19, 25 - 15, 25 - 19]
    step = E.auto_action(s)
    assert step["statues"] == 2 and step["difference"] == 6 and step["threshold"] == 5 and step["game_over"]
    over = E.step(s, SYSTEM, step)
    assert E.to_act(over).kind == Phase.OVER
    result = E.result(over)
    assert result.winners == (blue,) and result.scores == (21, 15, 19) and result.ranks == (1, 3, 2)
    s["statues_left"] = [25 - 19, 25 - 16, 25 - 19]  # difference 5: not bigger -> continue
    step = E.auto_action(s)
    assert not step["game_over"] and step["difference"] == 5
    assert E.step(s, SYSTEM, step)["phase"] == "shuffle"


def test_thresholds_and_tenth_round():
    """HR 4.5: thresholds 6, 5, 4, 3, 0 under spaces 6-10; space 10 ends the game whatever the
    difference; ties by rank (rulebook)."""
    assert D.THRESHOLDS == {6: 6, 7: 5, 8: 4, 9: 3, 10: 0}
    s = at_placement(n=2, ranks=[2, 1])
    s["phase"] = "round-end"
    s["round"] = 10
    s["placed_round"] = [1, 1]
    s["statues_left"] = [10, 12]  # seat 1 (king) places 2 -> 15 each
    step = E.auto_action(s)
    assert step["game_over"] and step["reason"] == "tenth round" and step["difference"] == 0
    result = E.result(E.step(s, SYSTEM, step))
    assert result.scores == (15, 15) and result.winners == (1,)  # the tie goes to the king
    s["round"] = 6
    s["statues_left"] = [20, 12]  # 5 vs 15 -> difference 10 > 6
    assert E.auto_action(s)["reason"] == "chronicle threshold"


def test_twenty_fifth_statue_on_a_field():
    """Rulebook "Ending the Game": the 25th statue ends the game immediately; that player wins."""
    board = empty_board()
    board[35] = 1  # mountain r5c5
    s = at_placement(castles=[tiles("B3 M3"), tiles("B1 M1 T1")], board=board, ranks=[2, 1])
    s["statues_left"] = [10, 1]
    s["turn"] = 1
    s = E.step(s, 1, place(34, [1], [1], [1]))  # forest r5c4
    assert s["phase"] == "over" and E.result(s).winners == (1,)
    assert E.result(s).detail["reason"] == "25th statue"
    assert E.legal_actions(s, 0) == [] and E.legal_actions(s, 1) == []


def test_twenty_fifth_statue_in_the_chronicle():
    """Rulebook: the king's chronicle statue can be his 25th: the game ends and he wins."""
    s = at_placement(n=2, ranks=[1, 2])
    s["phase"] = "round-end"
    s["round"] = 4
    s["placed_round"] = [1, 1]
    s["statues_left"] = [1, 5]
    step = E.auto_action(s)
    assert step["game_over"] and step["reason"] == "25th statue" and step["statues"] == 1
    assert E.result(E.step(s, SYSTEM, step)).winners == (0,)


# ---------------------------------------------------------------------------------------------
# malformed actions
# ---------------------------------------------------------------------------------------------
def test_malformed_actions_are_illegal_not_crashes():
    """Contract: anything not legal raises IllegalAction (wrong seat, phase, keys, types)."""
    s = started(2)
    bad = [
        None,
        [],
        {},
        {"type": 3},
        {"type": "peek"},
        {"type": "peek", "tile": "3"},
        {"type": "peek", "tile": 99},
        {"type": "peek", "tile": True},
        {"type": "peek", "tile": 1, "value": 2},
        {"type": "keep"},
        {"type": "place", "field": 1, "pay": {}},
        {"type": "first-statue", "field": 0},
    ]
    for action in bad:
        with pytest.raises(IllegalAction):
            E.check_action(s, 0, action)
    with pytest.raises(IllegalAction):
        E.check_action(s, 5, {"type": "done"})
    with pytest.raises(IllegalAction):
        E.check_action(s, True, {"type": "done"})
    board = empty_board()
    board[18] = 0
    p = at_placement(castles=[tiles("B1 M1"), []], board=board)
    for action in (
        {"type": "place", "field": 20},
        {"type": "place", "field": 19, "pay": {"bread": [1], "marble": [1]}},
        {"type": "place", "field": 19, "pay": {"bread": [1], "marble": [1], "tools": ["1"]}},
        {"type": "place", "field": 19, "pay": {"bread": 1, "marble": [1], "tools": []}},
        {"type": "place", "field": 1.0, "pay": {"bread": [1], "marble": [1], "tools": []}},
        {"type": "pass", "x": 1},
        {"type": "done"},
    ):
        with pytest.raises(IllegalAction):
            E.check_action(p, 0, action)
    with pytest.raises(IllegalAction):
        E.check_action(p, 1, {"type": "pass"})
    with pytest.raises(IllegalAction):
        E.step(p, SYSTEM, {"type": "close-tax"})


def test_malformed_chance_and_auto_steps_are_illegal():
    """Contract: chance outcomes are validated (a permutation of the right items, a value 2-5), and
    an automatic step must equal the engine's own computation."""
    s = E.initial_state(2, E.check_options(2, {}))
    for bad in (
        {"type": "regions", "order": ["a"] * 10},
        {"type": "regions", "order": list(range(10))},
        {"type": "regions"},
        {"type": "deal", "ranks": [1, 2]},
        {"type": "spin", "value": 3},
    ):
        with pytest.raises(IllegalAction):
            E.step(s, CHANCE, bad)
    s = started(2)
    s = E.step(s, 0, {"type": "done"})
    s2 = E.step(s, 1, {"type": "done"})
    with pytest.raises(IllegalAction):
        E.step(s2, SYSTEM, {"type": "tumults"})
    with pytest.raises(IllegalAction):
        E.step(s2, CHANCE, {"type": "spin", "value": 3})
    with pytest.raises(IllegalAction):
        E.step(s2, 0, {"type": "done"})


def test_fuzzed_actions_raise_illegal_action_only():
    """Contract: random malformed actions, seats and system/chance steps on states from real matches
    raise IllegalAction (never KeyError/TypeError); whatever check_action accepts, apply applies."""
    from tests.engines.harness import random_playout

    junk = [None, True, -1, 0, 1, 5, 26, 27, 99, "1", 1.0, [], {}, [1], {"bread": [1]}]
    kinds = ["peek", "keep", "return", "done", "place", "pass", "reveal", "first-statue", "close-tax", "x",
             "ready", "start-tax"]
    rng = random.Random(7)
    accepted = 0
    for seed in range(6):
        n = 2 + seed % 3
        playout = random_playout(E, n, {"tax_mode": "async" if seed % 2 else "live"}, seed=seed, check_purity_every=50)
        for state in playout.states[::3]:
            for _ in range(12):
                action = {"type": rng.choice(kinds)}
                for key in rng.sample(["tile", "field", "pay", "region", "value"], rng.randint(0, 2)):
                    action[key] = rng.choice(junk)
                seat = rng.choice([0, 1, 2, 3, -1, None, "0"])
                try:
                    E.check_action(state, seat, action)
                except IllegalAction:
                    pass
                else:
                    E.step(state, seat, action)
                    accepted += 1
                for actor in (SYSTEM, CHANCE):
                    if actor == SYSTEM and E.timer(state) is not None and action == E.timeout_action(state):
                        continue  # the legal timeout (close-tax, or start-tax closing the ready step)
                    with pytest.raises(IllegalAction):
                        E.step(state, actor, action)
    assert accepted > 0


# ---------------------------------------------------------------------------------------------
# random playouts
# ---------------------------------------------------------------------------------------------
from tests.engines.harness import random_playout  # noqa: E402


@functools.lru_cache(maxsize=4096)
def _statues_on_board(n, regions, face_up, board) -> list:
    types = D.field_types(n, regions, (True,) * len(face_up))
    on_board = [0] * n
    for f, owner in enumerate(board):
        if owner is not None:
            assert face_up[D.region_of(n, f)], "statue on a face-down tile"
            on_board[owner] += D.COSTS[types[f]][1]
    return on_board


def invariant(state) -> None:
    """Conservation: 25 statues per player (castle + fields + chronicle); the 39 commodity tiles
    (set aside + centre + castles + spent); supporters with the pool (HR 4.5: the pool is unbounded,
    so only the sum with the pool, 105, is conserved; nobody goes below 0)."""
    n = state["n"]
    if state["regions"] is not None:
        on_board = _statues_on_board(n, tuple(state["regions"]), tuple(state["face_up"]), tuple(state["board"]))
        in_chronicle = [0] * n
        for seat, count in state["chronicle"]:
            in_chronicle[seat] += count
        for seat in range(n):
            assert state["statues_left"][seat] + on_board[seat] + in_chronicle[seat] == 25
            assert state["statues_left"][seat] >= 0
    layout = [t for t in (state["layout"] or []) if t is not None]
    everything = state["set_aside"] + layout + state["centre"] + state["spent"]
    for castle in state["castle"]:
        everything += castle
    assert sorted(everything) == list(range(39)), "commodity tiles not conserved"
    assert sum(state["supporters"]) + state["pool"] == 105
    assert min(state["supporters"]) >= 0
    held = [h for h in state["hand"] if h is not None]
    assert len(set(held)) == len(held) and all(state["layout"][h] is not None for h in held)


def check_observation(state, seat, obs) -> None:
    """No seat sees another's peeked tile, another's kept tiles before the reveal, the set-aside
    tiles, the face-down centre tiles or a face-down region tile."""
    assert obs["seat"] == seat
    if state["layout"] is not None:
        mine = state["hand"][seat]
        if mine is None:
            assert obs["hand"] is None
        else:
            assert obs["hand"]["slot"] == mine
        for other in range(state["n"]):
            if other != seat and not state["revealed"]:
                assert obs["castles"][other] == len(state["castle"][other])
    if state["regions"] is not None:
        for p, up in enumerate(state["face_up"]):
            if not up:
                assert obs["regions"][p] is None
    assert "layout" not in obs and "boxed" not in obs and isinstance(obs.get("set_aside", 0), int)


def scramble(state, viewer, rng):
    """The same state with everything ``viewer`` may not know permuted at random."""
    s = copy.deepcopy(state)
    places = [("set_aside", i) for i in range(len(s["set_aside"]))]
    if s["layout"] is not None:
        own = s["hand"][viewer] if viewer is not None else None
        places += [("layout", i) for i, t in enumerate(s["layout"]) if t is not None and i != own]
        if not s["revealed"]:
            for seat in range(s["n"]):
                if seat != viewer:
                    places += [("castle", seat, i) for i in range(len(s["castle"][seat]))]

    def get(place):
        return s[place[0]][place[1]] if len(place) == 2 else s["castle"][place[1]][place[2]]

    def put(place, value):
        if len(place) == 2:
            s[place[0]][place[1]] = value
        else:
            s["castle"][place[1]][place[2]] = value

    values = [get(p) for p in places]
    rng.shuffle(values)
    for p, v in zip(places, values):
        put(p, v)
    if s["regions"] is not None:
        hidden = [p for p, up in enumerate(s["face_up"]) if not up]
        pool = [s["regions"][p] for p in hidden] + s["boxed"]
        rng.shuffle(pool)
        for p in hidden:
            s["regions"][p] = pool.pop()
        s["boxed"] = pool
    return s


def secrecy_check(playout, rng) -> None:
    """Observations do not change when hidden information changes (stronger than key checks)."""
    n = playout.states[0]["n"]
    for state in playout.states[:: 3]:
        for viewer in list(range(n)) + [None]:
            other = scramble(state, viewer, rng)
            if viewer is None:
                assert E.public_observation(other) == E.public_observation(state)
            else:
                assert E.observation(other, viewer) == E.observation(state, viewer)


def redaction_check(playout) -> None:
    n = playout.states[0]["n"]
    for state, (actor, action) in zip(playout.states, playout.log):
        for viewer in list(range(n)) + [None]:
            if viewer == actor:
                continue
            shown = E.redact(state, actor, action, viewer)
            if actor == CHANCE:
                if action["type"] in ("shuffle", "regions"):
                    assert shown is None
                else:
                    assert shown == action
            elif action["type"] == "peek":
                assert shown == {"type": "peek", "tile": action["tile"]}
            else:
                assert shown == action and "value" not in json.dumps(shown)


def make_policy(greedy_seat, hoard=False):
    """Random legal actions, biased so that tiles are kept and statues placed (one greedier seat).
    A hoarder keeps every tile it peeks and never stops collecting, to provoke tumults."""

    def policy(state, seat, legal, rng):
        kinds = {a["type"] for a in legal}
        if "keep" in kinds:
            return legal[0] if (hoard and seat == greedy_seat) or rng.random() < 0.85 else legal[1]
        if "done" in kinds:
            stop = (0.0 if hoard else 0.08) if seat == greedy_seat else 0.6
            if rng.random() < stop:
                return legal[-1]
        if "place" in kinds and rng.random() < 0.95:
            return rng.choice(legal[:-1])
        return rng.choice(legal)

    return policy


def settings(seed, n):
    """A mix: 10% uniform random play, 5% with a hoarder, 20% asynchronous tax mode, a third with
    the gamble variant; in live mode the server timer fires at a random step (early in 65%)."""
    k = seed % 20
    options = {"tax_mode": "async" if k in (1, 4, 11, 14) else "live", "gamble": seed % 3 == 0, "tax_seconds": 20}
    policy = None if k in (0, 10) else make_policy(seed % n, hoard=k == 7)
    timeout = {0: 0.15, 10: 0.15, 7: 0.012, 17: 0.08}.get(k, 0.45)
    return options, policy, timeout


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts(n):
    """300 playouts per player count, live and async tax, gamble on and off: conservation at every
    step, no secret in any observation, every match ends with a result; uniform random play on a
    tenth of them; full purity, redaction and secrecy checks on 4% of them."""
    reasons = set()
    mercy_seen = tumult_seen = placements = 0
    rng = random.Random(n)
    for seed in range(300):
        full = seed % 50 < 2
        options, policy, timeout = settings(seed, n)
        playout = random_playout(
            E,
            n,
            options,
            seed=seed,
            invariant=invariant,
            check_observation=check_observation,
            check_purity_every=1 if full else 50,
            policy=policy,
            timeout_probability=timeout,
        )
        result = E.result(playout.final)
        reasons.add(result.detail["reason"])
        assert sorted(result.ranks) == list(range(1, n + 1))  # ties are broken by rank
        if full:
            secrecy_check(playout, rng)
            redaction_check(playout)
        for state, (actor, action) in zip(playout.states, playout.log):
            if actor == SYSTEM and action["type"] == "tumults" and action["tumults"]:
                tumult_seen += 1
            if actor != SYSTEM and actor != CHANCE and action["type"] == "place":
                placements += 1
        mercy_seen += any(playout.final["mercy"])
    assert {"tenth round", "chronicle threshold"} <= reasons
    assert tumult_seen > 5 and placements > 300 and mercy_seen > 30
