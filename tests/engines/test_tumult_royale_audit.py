"""Tumult Royale: an independent rules audit (hand-worked cases, built through the public API).

Citations: "rulebook <section>" = ../shared/rules/rulebooks/tumult-royale.txt from the second
component list on; "HR 4.x" = ../shared/rules/house-rules.md section 4; "engine" = decisions stated
in docs/rules/tumult-royale.md. States are built with initial_state / apply and chosen chance outcomes
(regions 1..10 in order, a chosen deal, a chosen shuffle, a chosen spin) wherever practical.

2 players, regions 1..10 in order: tiles T1 T2 (top row) face down, T3 T4 (bottom row) face up. Width 6:
   row 3: 18P 19M 20P 21F 22P 23M
   row 4: 24F 25V 26F 27C 28P 29V
   row 5: 30C 31M 32P 33P 34F 35M
Tile ids: B1 0-4, B2 5-9, B3 10-12, M1 13-17, M2 18-22, M3 23-25, T1 26-30, T2 31-35, T3 36-38.
"""

from __future__ import annotations

import copy

import pytest

from domain.engine import CHANCE, SYSTEM, IllegalAction, Phase
from domain.games import get_engine
from domain.games.tumult_royale import data as D
from tests.engines.test_tumult_royale import all_ready, tiles

E = get_engine("tumult-royale")


# ---------------------------------------------------------------------------------------------
# helpers: everything through the public API
# ---------------------------------------------------------------------------------------------
def ids(codes: str, used: set) -> list:
    return tiles(codes, used)


def codes(tile_ids) -> list:
    return sorted("BMT"[D.TILES[t][0]] + str(D.TILES[t][1]) for t in tile_ids)


def setup(n=2, ranks=None, firsts=None, options=None):
    """Regions 1..10 in order, the chosen deal, first statues (dict seat -> field) -> shuffle phase."""
    s = E.initial_state(n, E.check_options(n, options or {}))
    s = E.step(s, CHANCE, {"type": "regions", "order": list(range(1, 11))})
    s = E.step(s, CHANCE, {"type": "deal", "ranks": list(ranks or range(1, n + 1))})
    while s["phase"] == "first-statues":
        seat = s["turn"]
        field = (firsts or {}).get(seat, E.legal_actions(s, seat)[0]["field"])
        s = E.step(s, seat, {"type": "first-statue", "field": field})
    assert s["phase"] == "shuffle"
    return s


def tax(s, keeps, aside="", spin=3):
    """From the shuffle phase: a chosen shuffle (``aside`` codes set aside, filled up to 12 with the
    lowest-value remaining tiles of each commodity in turn, so the centre keeps plenty of every
    commodity; each seat's ``keeps`` codes lie in the first centre slots), the spin, each seat peeks
    and keeps its tiles, everyone says done -> the tumults phase."""
    used = set()
    kept = [ids(k, used) for k in keeps]
    side = ids(aside, used)
    rest = [t for t in range(39) if t not in used]
    c = 0
    while len(side) < 12:
        pick = next((t for t in rest if D.TILES[t][0] == c % 3), None)
        c += 1
        if pick is not None:
            rest.remove(pick)
            side.append(pick)
    layout = [t for k in kept for t in k] + rest
    s = E.step(s, CHANCE, {"type": "shuffle", "order": side + layout})
    if not s["options"]["gamble"]:
        s = E.step(s, CHANCE, {"type": "spin", "value": spin})
    s = all_ready(s)
    slot = 0
    for seat, k in enumerate(kept):
        for _ in k:
            s = E.step(s, seat, {"type": "peek", "tile": slot})
            s = E.step(s, seat, {"type": "keep"})
            slot += 1
    for seat in range(s["n"]):
        if s["phase"] == "tax" and seat in E.to_act(s).seats:
            s = E.step(s, seat, {"type": "done"})
    return s


def auto(s):
    return E.step(s, SYSTEM, E.auto_action(s))


def pass_all(s):
    while s["phase"] == "placement":
        s = E.step(s, s["turn"], {"type": "pass"})
    return s


def place(field, b=(), m=(), t=()):
    return {"type": "place", "field": field, "pay": {"bread": list(b), "marble": list(m), "tools": list(t)}}


def end_round(s):
    """Pass every remaining placement, run the round end, reveal the first face-down tiles if asked."""
    s = pass_all(s)
    s = auto(s)
    while s["phase"] == "reveal":
        s = E.step(s, s["turn"], E.legal_actions(s, s["turn"])[0])
    return s


def rule_of(excinfo) -> str:
    return excinfo.value.rule


# ---------------------------------------------------------------------------------------------
# step 3: tumults
# ---------------------------------------------------------------------------------------------
def test_rb3_tumult_only_when_fewer_units_than_the_demand():
    """Rulebook step 3 ("the people demand at least 4"; "we still have 4 marble ... no need to worry"):
    a commodity is in tumult only when the units left in the centre are fewer than the spin."""
    aside = "B1 B1 B1 B1 B1 B2 B2 B2 B2 B2 B3 B3"  # every bread but one B3 set aside
    s = tax(setup(2), ["", ""], aside=aside, spin=3)
    step = E.auto_action(s)
    assert step["left"]["bread"] == 3 and step["tumults"] == []
    s = tax(setup(2), ["", ""], aside=aside, spin=4)
    step = E.auto_action(s)
    assert step["left"]["bread"] == 3 and [t["commodity"] for t in step["tumults"]] == ["bread"]
    # nobody took bread: no greediest (engine), nobody loses anything
    assert step["tumults"][0]["greediest"] is None
    assert auto(s)["supporters"] == [30, 30]


def test_rb3_greediest_loses_three_keeps_lowest_tile_rest_face_up():
    """Rulebook step 3: the greediest loses 3 supporters (to the supply) and keeps only the lowest-value
    tile of that commodity; the others go face up to the centre, visible to everybody."""
    aside = "B1 B1 B1 B1 B2 B2 B2 B2 B2 B3 B3 B3"  # the centre holds no bread but what is taken
    s = tax(setup(2, ranks=[2, 1]), ["B1 M2 T3", ""], aside=aside, spin=2)
    step = E.auto_action(s)
    assert step["left"]["bread"] == 0
    (bread,) = [t for t in step["tumults"] if t["commodity"] == "bread"]
    assert bread["greediest"] == 0 and bread["returned"] == []  # a single tile is kept, whatever it shows
    s = tax(setup(2, ranks=[2, 1]), ["B3 B1 M2", "B2"], aside="B1 B1 B1 B2 B2 B2 B2 B3 B3", spin=2)
    pool = s["pool"]
    after = auto(s)
    (bread,) = after["last_tumults"]["tumults"]
    assert bread["took"] == [4, 2] and bread["greediest"] == 0 and bread["lost"] == 3
    assert after["supporters"] == [27, 30] and after["pool"] == pool + 3
    obs = E.observation(after, 1)
    assert obs["castles"][0] == ["B1", "M2"]  # the B3 went back
    assert "B3" in obs["centre"] and E.public_observation(after)["centre"] == obs["centre"]
    assert after["greedy"] == [True, False]


def test_rb3_three_tumults_in_one_round():
    """Rulebook step 3: "Each commodity type can cause a tumult, allowing for up to three tumults";
    checked in the order bread, marble, tools (HR 4.5), each against the units left before returns."""
    s = setup(3)
    s = tax(s, ["B3 B3 B3", "M3 M3 M3", "T3 T3 T3"], spin=5)
    step = E.auto_action(s)
    left = step["left"]
    assert [t["commodity"] for t in step["tumults"]] == [
        c for c in D.COMMODITIES if left[c] < 5
    ]


def test_rb3_tumult_tie_goes_to_the_higher_rank_not_the_seat_order():
    """Rulebook step 3: equal counts -> the higher-ranking player is the greediest (ranks, not seats)."""
    aside = "B1 B1 B1 B1 B1 B2 B2 B2 B3 B3 B3 M1"
    s = tax(setup(3, ranks=[3, 1, 2]), ["B2", "B2", ""], aside=aside, spin=5)
    step = E.auto_action(s)
    (bread,) = [t for t in step["tumults"] if t["commodity"] == "bread"]
    assert bread["took"] == [2, 2, 0] and bread["greediest"] == 1  # seat 1 is the king


def test_rb3_mercy_from_round_two_and_its_one_unit_per_commodity():
    """Rulebook steps 3 and 7 through two real rounds: after round 1 (nobody builds) the king has his
    chronicle statue, so the other player alone has the fewest statues and gets mercy; in round 2 his
    takes count one unit less per commodity, and a tie is then won (lost) by the higher rank."""
    s = setup(2, ranks=[1, 2])
    s = tax(s, ["", ""])
    s = end_round(auto(s))
    assert s["round"] == 2 and s["mercy"] == [False, True]
    assert E.public_observation(s)["mercy"] == [False, True]
    aside = "B1 B1 B1 B1 B2 B2 B2 B3 B3 M1 M1 M1"
    # seat 1 takes 4 bread (counted 3), seat 0 (the king) takes 3: tie -> the king is the greediest
    t = tax(s, ["B3", "B2 B2"], aside=aside, spin=5)
    (bread,) = [x for x in E.auto_action(t)["tumults"] if x["commodity"] == "bread"]
    assert bread["took"] == [3, 4] and bread["counted"] == [3, 3] and bread["greediest"] == 0
    # seat 1 takes 5 (counted 4) against 3: seat 1 is the greediest
    t = tax(s, ["B3", "B2 B2 B1"], aside=aside, spin=5)
    (bread,) = [x for x in E.auto_action(t)["tumults"] if x["commodity"] == "bread"]
    assert bread["counted"] == [3, 4] and bread["greediest"] == 1


def test_rb4_consolation_not_for_the_greediest():
    """Rulebook step 4: a player who placed no statue this round gets 2 supporters at the end of the
    phase, except a player declared the greediest for a commodity this round."""
    aside = "B1 B1 B1 B1 B2 B2 B2 B2 B2 B3 B3 M1"
    s = tax(setup(2, ranks=[2, 1]), ["B3 B1", ""], aside=aside, spin=2)
    s = auto(s)
    assert s["greedy"] == [True, False]
    step = E.auto_action(pass_all(s))
    assert step["consolation"] == [1]
    after = E.step(pass_all(s), SYSTEM, step)
    # seat 0: 30 - 3 = 27; seat 1: 30 + 2 = 32 -> seat 1 stays king and gives back 5
    assert after["supporters"] == [27, 27] and after["ranks"] == [2, 1]


# ---------------------------------------------------------------------------------------------
# step 4: placement
# ---------------------------------------------------------------------------------------------
def test_rb4_placement_in_rank_order_king_first_repeating():
    """Rulebook step 4: "I start as the king. The players take turns ... based on their ranks"; after
    everyone placed or passed, another placement round begins (HR 4.5: one field per turn)."""
    # 3 players: pastures 28-37, 30-31 and 35-44 are orthogonal pairs
    s = setup(3, ranks=[3, 1, 2], firsts={0: 28, 1: 30, 2: 35})
    s = auto(tax(s, ["B1 M1 B2 M2", "B1 M1 B2 M2", "B1 M1 B3 M3"]))
    assert s["phase"] == "placement" and s["turn"] == 1  # the king
    order = []
    while s["phase"] == "placement" and len(order) < 6:
        seat = s["turn"]
        order.append(seat)
        legal = [a for a in E.legal_actions(s, seat) if a["type"] == "place"]
        # the cheapest payment: B1 M1 on the adjacent pasture, then B2 M2 on a distant pasture
        s = E.step(s, seat, min(legal, key=lambda a: (sum(map(sum, a["pay"].values())), a["field"])))
    assert order == [1, 2, 0, 1, 2, 0]


def test_rb4_orthogonal_adjacency_across_tile_border_and_diagonal_distant():
    """Rulebook step 4: a field must be horizontally or vertically next to an own statue; fields touch
    across region-tile borders (HR 4.5). A diagonal pasture/forest is only a distant one (double cost,
    touching a village/palace/mountain); a diagonal mountain, village or palace is not allowed."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B3 B3 M3 M3 T3 T3 T1", ""]))
    assert s["turn"] == 0
    legal = E.legal_actions(s, 0)
    fields = {a["field"] for a in legal if a["type"] == "place"}
    assert {27, 29, 22, 34} <= fields  # orthogonal neighbours of 28 (palace, village, pasture, forest)
    assert 23 not in fields  # mountain diagonal to 28
    with pytest.raises(IllegalAction, match="adjacency"):
        E.check_action(s, 0, place(23, [3], [3], [3]))
    assert place(21, [3], [3], [3]) in legal  # forest diagonal to 28: distant, 2/2/2
    assert place(21, [3], [3], [1]) not in legal
    with pytest.raises(IllegalAction, match="payment"):
        E.check_action(s, 0, place(21, [3], [3], [1]))  # single cost for a distant forest
    # the palace at 27 is orthogonally next: 2 marble + 3 tools, 3 statues at once
    after = E.step(s, 0, place(27, [], [3], [3]))
    assert after["statues_left"][0] == 25 - 1 - 3 and after["supporters"][0] == 30 + 1
    # now 21 (forest above the palace 27, across the T3/T4 border) is orthogonally next: single cost
    assert after["turn"] == 0  # seat 1 holds nothing: passed automatically
    assert place(21, [3], [3], [1]) in E.legal_actions(after, 0)


def test_rb4_distant_field_double_cost_and_overpayment():
    """Rulebook step 4: a non-adjacent pasture costs double; overpaying it still gives 1 supporter per
    unit over the doubled cost ("just like with regular statue placement")."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B3 M3", ""]))
    # pasture 33 (r5c3) is diagonal to 28 and touches the palace 27: distant, costs 2 bread 2 marble
    assert place(33, [3], [3]) in E.legal_actions(s, 0)
    pool = s["pool"]
    after = E.step(s, 0, place(33, [3], [3]))
    assert after["supporters"][0] == 32 and after["pool"] == pool - 2
    assert after["board"][33] == 0 and after["placed_round"][0] == 1


def test_rb4_distant_village_or_palace_or_far_field_is_illegal():
    """Rulebook step 4: only pastures and forests may be built away from own statues."""
    s = setup(2, ranks=[1, 2], firsts={0: 18, 1: 32})
    s = auto(tax(s, ["B3 B3 M3 M3 T3 T3", ""]))
    for field in (27, 29, 35):  # palace, village, mountain far from 18
        with pytest.raises(IllegalAction) as exc:
            E.check_action(s, 0, place(field, [3, 3], [3], [3, 3]))
        assert "rulebook 4" in rule_of(exc)
    assert all(a.get("field") not in (27, 29, 35) for a in E.legal_actions(s, 0))


def test_rb4_occupied_field_and_village_statue_count():
    """Rulebook step 4: statues go on empty fields only; a village takes 2 statues at once (HR 4.5)."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 22})
    s = auto(tax(s, ["B1 B1 T2", ""]))
    with pytest.raises(IllegalAction, match="occupied"):
        E.check_action(s, 0, place(22, [1], [1]))
    after = E.step(s, 0, place(29, [1, 1], [], [2]))  # village next to 28
    assert after["statues_left"][0] == 22 and E.public_observation(after)["statues_placed"] == [3, 1]
    assert E.public_observation(after)["owners"].split("/")[4][5] == "0"


def test_rb4_tiles_of_a_commodity_the_field_does_not_need_cannot_be_paid():
    """Rulebook step 4 "Don't use excess commodity tiles": a pasture (1 bread 1 marble) cannot be paid
    with an extra tools tile to earn supporters."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B1 M1 T1", ""]))
    with pytest.raises(IllegalAction, match="no excess"):
        E.check_action(s, 0, place(22, [1], [1], [1]))
    assert place(22, [1], [1], [1]) not in E.legal_actions(s, 0)


def test_rb4_unused_tiles_expire_without_supporters():
    """Rulebook step 4: tiles that cannot be used expire back to the centre; returning them earns no
    supporters (the +2 consolation is separate)."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B1 M1 T3 T3", "M3"]))
    s = E.step(s, 0, place(22, [1], [1]))
    s = pass_all(s)
    step = E.auto_action(s)
    assert codes(step["expired"]) == ["M3", "T3", "T3"]
    after = E.step(s, SYSTEM, step)
    # seat 0 placed (no consolation): 30; seat 1 placed nothing: 30 + 2 -> the new king, gives back 5
    assert after["supporters"] == [30, 27] and after["ranks"] == [2, 1]
    assert all(c == [] for c in after["castle"])


def test_rb4_auto_pass_when_nothing_can_be_paid():
    """Rulebook step 4: "If you don't have the required commodities ... you will have to pass"."""
    s = setup(2, ranks=[1, 2], firsts={0: 18, 1: 22})
    s = auto(tax(s, ["T3 T3", "B1 M1"]))
    assert s["passed"][0] and s["turn"] == 1


# ---------------------------------------------------------------------------------------------
# steps 5-7 and the chronicle
# ---------------------------------------------------------------------------------------------
def round_end_state(n=3, ranks=None, supporters=None, placed=None, round_=2):
    s = setup(n, ranks=ranks)
    s = pass_all(auto(tax(s, [""] * n)))
    assert s["phase"] == "round-end"
    s = copy.deepcopy(s)
    s["round"] = round_
    if supporters is not None:
        s["supporters"] = list(supporters)
    if placed is not None:
        s["statues_left"] = [25 - p for p in placed]
    return s


def test_rb5_all_tied_keep_their_previous_ranks():
    """Rulebook step 5: ties are won by the previously higher rank (a three-way tie keeps the order)."""
    s = round_end_state(3, ranks=[2, 3, 1], supporters=[18, 18, 18])
    step = E.auto_action(s)
    assert step["ranks"] == [2, 3, 1] and step["king"] == 2


def test_rb5_ranks_follow_supporters_after_the_consolation():
    """Rulebook steps 4-5: the +2 at the end of placement counts for the new ranks."""
    s = round_end_state(2, ranks=[1, 2], supporters=[21, 20])
    step = E.auto_action(s)  # both placed nothing: 23 vs 22
    assert step["consolation"] == [0, 1] and step["king"] == 0
    s["placed_round"] = [1, 0]
    step = E.auto_action(s)  # 21 vs 22
    assert step["king"] == 1 and step["ranks"] == [2, 1]


def test_rb6_give_back_is_capped_and_the_king_fills_the_chronicle():
    """Rulebook step 6 / HR 4.5: the king gives back 5 supporters (all he has if fewer) and puts his
    next statue in the chronicle space of this round."""
    s = round_end_state(2, ranks=[1, 2], supporters=[1, 0])
    s["placed_round"] = [1, 1]
    step = E.auto_action(s)
    assert step["king"] == 0 and step["give_back"] == 1 and step["space"] == 2 and step["statues"] == 1
    after = E.step(s, SYSTEM, step)
    assert after["supporters"] == [0, 0] and after["chronicle"] == [[0, 1]]
    assert E.public_observation(after)["statues_placed"][0] == 2


@pytest.mark.parametrize("space,threshold", [(6, 6), (8, 4), (9, 3)])
def test_hr45_thresholds_on_the_double_spaces(space, threshold):
    """Rulebook "Ending the Game" / HR 4.5 thresholds 6, 5, 4, 3, 0: the game ends only when the
    difference (after the king's 2 statues) is bigger than the number under the space."""
    s = round_end_state(2, ranks=[1, 2], placed=[10, 12 - threshold], round_=space)
    s["placed_round"] = [1, 1]
    step = E.auto_action(s)  # the king places 2: 12 vs 12 - threshold
    assert step["statues"] == 2 and step["difference"] == threshold and step["threshold"] == threshold
    assert not step["game_over"]
    s["statues_left"][1] += 1
    step = E.auto_action(s)
    assert step["game_over"] and step["reason"] == "chronicle threshold"
    result = E.result(E.step(s, SYSTEM, step))
    assert result.winners == (0,) and result.scores == (12, 11 - threshold)


def test_rb_end_tie_on_statues_goes_to_the_higher_rank():
    """Rulebook "Ending the Game": the most statues wins; on a tie the higher-ranking player wins."""
    s = round_end_state(3, ranks=[3, 2, 1], placed=[20, 20, 14], supporters=[30, 10, 10], round_=7)
    s["placed_round"] = [1, 1, 1]
    step = E.auto_action(s)
    # seat 0 becomes king (30 - 5 = 25) and places 2: 22, 20, 14 -> 8 > 5, seat 0 wins
    assert step["king"] == 0 and step["game_over"]
    s["supporters"] = [10, 30, 10]
    step = E.auto_action(s)  # seat 1 king: 20, 22, 14
    result = E.result(E.step(s, SYSTEM, step))
    assert result.winners == (1,)
    s["statues_left"] = [25 - 22, 25 - 20, 25 - 14]  # seat 1 king places 2: 22, 22, 14
    result = E.result(E.step(s, SYSTEM, E.auto_action(s)))
    assert result.scores == (22, 22, 14) and result.winners == (1,)  # the new king outranks seat 0


def test_rb_end_twenty_fifth_statue_on_a_village():
    """Rulebook "Ending the Game": whoever puts down his 25th statue wins at once; a village takes its
    2 statues at once, so with 1 statue left it cannot be built (HR 4.5)."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B1 B1 T2 B1 M1", ""]))
    s = copy.deepcopy(s)
    s["statues_left"][0] = 1
    with pytest.raises(IllegalAction, match="2 statues"):
        E.check_action(s, 0, place(29, [1, 1], [], [2]))
    s["statues_left"][0] = 2
    over = E.step(s, 0, place(29, [1, 1], [], [2]))
    assert E.to_act(over).kind == Phase.OVER
    result = E.result(over)
    assert result.winners == (0,) and result.detail["reason"] == "25th statue" and result.scores[0] == 25


def test_rb7_mercy_counts_every_statue_placed_including_the_chronicle():
    """Rulebook step 7: the fewest statues placed in the whole game get mercy (all tied ones); the
    count is the castle board's number track, so the king's chronicle statue counts (derived)."""
    s = round_end_state(3, ranks=[1, 2, 3], placed=[3, 4, 3])
    s["placed_round"] = [1, 1, 1]
    step = E.auto_action(s)
    assert step["king"] == 0 and step["mercy"] == [False, False, True]  # 4, 4, 3


def test_rb_chronicle_space_three_reveal_is_the_kings_choice():
    """Rulebook royal chronicle: on space 3 the king reveals a face-down tile of his choice; only he
    acts, and only a face-down tile may be named; its fields become usable."""
    s = round_end_state(2, ranks=[2, 1], round_=3)
    s = auto(s)
    assert s["phase"] == "reveal" and E.to_act(s).seats == (1,)
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "reveal", "region": 0})
    for bad in (2, -1, 9, True, "0", None):
        with pytest.raises(IllegalAction) as exc:
            E.check_action(s, 1, {"type": "reveal", "region": bad})
        assert "Chronicle" in rule_of(exc)
    assert E.public_observation(s)["regions"] == [None, None, 3, 4]
    s = E.step(s, 1, {"type": "reveal", "region": 1})
    assert E.public_observation(s)["regions"] == [None, 2, 3, 4]
    assert s["phase"] == "shuffle"


# ---------------------------------------------------------------------------------------------
# tax collection, observations and malformed actions
# ---------------------------------------------------------------------------------------------
def test_rb2_hidden_information_during_and_after_tax():
    """Rulebook step 2 / HR 4.5: a peeked tile's value only for the peeker, kept tiles seen by others
    as a count until the reveal, set-aside tiles never shown; after the reveal every castle and the
    centre are face up."""
    s = setup(3)
    s = E.step(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
    s = all_ready(E.step(s, CHANCE, {"type": "spin", "value": 2}))
    s = E.step(s, 0, {"type": "peek", "tile": 0})  # tile 12, B3
    s = E.step(s, 0, {"type": "keep"})
    s = E.step(s, 1, {"type": "peek", "tile": 26})  # tile 38, T3
    for viewer in (0, 2, None):
        obs = E.observation(s, viewer) if viewer is not None else E.public_observation(s)
        assert obs.get("hand") is None
        text = repr(obs)
        assert "T3" not in text and "'value'" not in text
        if viewer != 0:
            assert obs["castles"][0] == 1 and "B3" not in text
    assert E.observation(s, 1)["hand"] == {"slot": 26, "commodity": "tools", "value": 3}
    assert E.observation(s, 0)["castles"][0] == ["B3"]
    s = E.step(s, SYSTEM, E.timeout_action(s))
    obs = E.public_observation(s)
    assert obs["castles"][0] == ["B3"] and len(obs["centre"]) == 26
    # the 12 set-aside tiles (ids 0-11: all B1 and B2, one B3) stay unseen: the centre holds no B1/B2
    assert not any(c in ("B1", "B2") for c in obs["centre"])
    assert "set_aside" not in obs


def test_rb2_kept_tile_cannot_go_back_and_hand_must_be_empty_to_peek():
    """Rulebook step 2: a tile placed on the castle board cannot be put back; one tile at a time."""
    s = setup(2)
    s = E.step(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
    s = all_ready(E.step(s, CHANCE, {"type": "spin", "value": 3}))
    s = E.step(s, 0, {"type": "peek", "tile": 3})
    s = E.step(s, 0, {"type": "keep"})
    with pytest.raises(IllegalAction) as exc:
        E.check_action(s, 0, {"type": "return"})
    assert "Get Taxes" in rule_of(exc)
    with pytest.raises(IllegalAction):
        E.check_action(s, 0, {"type": "peek", "tile": 3})


def test_gamble_variant_demand_unknown_during_tax():
    """HR 4.5 variant: the royals tax without knowing the people's demand (spun after the hourglass)."""
    s = setup(2, options={"gamble": True})
    s = E.step(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
    assert s["phase"] == "ready" and E.public_observation(s)["demand"] is None  # 1.1.0 ready step
    s = all_ready(s)
    assert s["phase"] == "tax" and E.public_observation(s)["demand"] is None
    assert E.chance_outcomes(s) is None


def test_async_mode_king_first_in_rank_order():
    """HR 4.5 asynchronous mode: single peeks in turn, the king (hourglass holder) first, rank order."""
    s = setup(3, ranks=[2, 3, 1], options={"tax_mode": "async"})
    s = E.step(s, CHANCE, {"type": "shuffle", "order": list(range(39))})
    s = E.step(s, CHANCE, {"type": "spin", "value": 3})
    seen = []
    for slot in range(3):
        seat = E.to_act(s).seats[0]
        seen.append(seat)
        s = E.step(s, seat, {"type": "peek", "tile": slot})
        s = E.step(s, seat, {"type": "return"})
    assert seen == [2, 0, 1]


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place", "field": 22, "pay": {"bread": [0], "marble": [1], "tools": []}},
        {"type": "place", "field": 22, "pay": {"bread": [4], "marble": [1], "tools": []}},
        {"type": "place", "field": 22, "pay": {"bread": [-1], "marble": [1], "tools": []}},
        {"type": "place", "field": 22, "pay": {"bread": [1], "marble": [1], "tools": [], "gold": []}},
        {"type": "place", "field": 22, "pay": [[1], [1], []]},
        {"type": "place", "field": 22, "pay": {"bread": [1], "marble": [True], "tools": []}},
        {"type": "place", "field": -1, "pay": {"bread": [1], "marble": [1], "tools": []}},
        {"type": "place", "field": 36, "pay": {"bread": [1], "marble": [1], "tools": []}},
        {"type": "place", "field": None, "pay": {"bread": [1], "marble": [1], "tools": []}},
        {"type": "place", "field": 22, "pay": {"bread": [1], "marble": [1], "tools": None}},
        {"type": "place", "field": 22, "pay": {"bread": [1, 1], "marble": [1], "tools": []}},
        {"type": "peek", "tile": 0},
        {"type": "reveal", "region": 0},
        {"type": "first-statue", "field": 22},
        {"type": "pass", "field": 22},
        {"type": "PASS"},
        {"type": ["pass"]},
        {"type": "place", "field": 22, "pay": {"bread": [1], "marble": [1], "tools": []}, "x": 0},
    ],
)
def test_malformed_placement_actions_name_a_rule(action):
    """Contract: malformed or illegal actions raise IllegalAction naming a rule (never KeyError,
    TypeError or IndexError), both in check_action and in apply."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B1 M1", ""]))
    for call in (lambda: E.check_action(s, 0, action), lambda: E.step(s, 0, action)):
        with pytest.raises(IllegalAction) as exc:
            call()
        assert rule_of(exc) and exc.value.detail


def test_apply_rejects_a_wrong_actor_or_phase():
    """Contract: a seat out of turn, a chance outcome or an automatic step at the wrong time raise
    IllegalAction."""
    s = setup(2, ranks=[1, 2], firsts={0: 28, 1: 18})
    s = auto(tax(s, ["B1 M1", "B1 M1"]))
    for actor, action in (
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
        ("0", {"type": "pass"}),
        (CHANCE, {"type": "spin", "value": 3}),
        (SYSTEM, {"type": "round-end"}),
        (SYSTEM, {"type": "close-tax"}),
        (None, {"type": "pass"}),
    ):
        with pytest.raises(IllegalAction):
            E.step(s, actor, action)


# ---------------------------------------------------------------------------------------------
# whole games through the API
# ---------------------------------------------------------------------------------------------
def test_rb_four_players_setup_and_first_statue_order():
    """Rulebook setup: 15 supporters each with 4 players, all four nobility cards; the first statues go
    down from the lowest rank (4) to the king (1), each on an empty pasture."""
    s = E.initial_state(4, E.check_options(4, {}))
    assert s["supporters"] == [15] * 4
    s = E.step(s, CHANCE, {"type": "regions", "order": list(range(1, 11))})
    s = E.step(s, CHANCE, {"type": "deal", "ranks": [2, 4, 1, 3]})
    order = []
    while s["phase"] == "first-statues":
        seat = E.to_act(s).seats[0]
        order.append(seat)
        s = E.step(s, seat, E.legal_actions(s, seat)[-1])
    assert order == [1, 3, 0, 2]
    assert E.public_observation(s)["statues_placed"] == [1, 1, 1, 1]
    assert E.public_observation(s)["regions"] == [None, 2, 3, None, None, 6, 7, None]


def test_rb_ten_rounds_without_building_chronicle_ranks_mercy_and_end():
    """Rulebook steps 4-7 and the royal chronicle over a whole game in which nobody builds: every round
    each player gets +2 (no statue placed, not greedy), the most supporters become king (ties: the
    previous rank) and give back 5, spaces 1-5 take 1 statue and 6-10 take 2, the fewest statues get
    mercy (nobody if all equal), all region tiles are face up after space 5, and space 10 ends the game
    (the most statues win, ties to the higher rank)."""
    s = setup(2, ranks=[1, 2])
    supporters = [30, 30]
    ranks = [1, 2]
    for r in range(1, 11):
        assert s["round"] == r
        s = pass_all(auto(tax(s, ["", ""])))
        step = E.auto_action(s)
        supporters = [x + 2 for x in supporters]
        king = min(range(2), key=lambda seat: (-supporters[seat], ranks[seat]))
        ranks = [1 if seat == king else 2 for seat in range(2)]
        supporters[king] -= 5
        assert step["consolation"] == [0, 1] and step["king"] == king and step["ranks"] == ranks
        assert step["statues"] == (1 if r <= 5 else 2) and step["space"] == r
        s = E.step(s, SYSTEM, step)
        assert s["supporters"] == supporters
        placed = E.public_observation(s)["statues_placed"]
        assert placed == [1 + sum(c for k, c in s["chronicle"] if k == seat) for seat in range(2)]
        if r == 10:
            assert step["game_over"] and step["reason"] == "tenth round"
            break
        assert not step["game_over"]
        low = min(placed)
        assert s["mercy"] == ([False, False] if placed[0] == placed[1] else [p == low for p in placed])
        if r == 3:
            assert s["phase"] == "reveal" and E.to_act(s).seats == (king,)
            s = E.step(s, king, {"type": "reveal", "region": 0})
            assert s["face_up"] == [True, False, True, True]
        if r >= 5:
            assert all(s["face_up"])
        assert s["phase"] == "shuffle"
    assert [c for _, c in s["chronicle"]] == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]
    result = E.result(s)
    placed = list(result.scores)
    best = max(placed)
    expected = min((seat for seat in range(2) if placed[seat] == best), key=lambda seat: ranks[seat])
    assert result.winners == (expected,) and result.detail["reason"] == "tenth round"
