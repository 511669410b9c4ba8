"""Step 4 of a round, "Put Up Statues": fields, costs, payments, turns in rank order.

Rulebook step 4; house rules 4.5 costs and placement (one field per turn, a pass is final).
"""

from __future__ import annotations

import itertools

from domain.engine import IllegalAction

from . import data as D
from .state import Rules, TumultState, field_types, game_over, keys, order

PLACE = "rulebook 4 Set Up Statues"


def candidate_fields(state: TumultState, seat: int):
    """(field, type, cost multiplier) of every field ``seat`` may build on, commodities aside."""
    types = field_types(state)
    board = state["board"]
    nb = D.neighbours(state["n"])
    left = state["statues_left"][seat]
    for f, t in enumerate(types):
        if t is None or board[f] is not None or left < D.COSTS[t][1]:
            continue
        if any(board[g] == seat for g in nb[f]):
            yield f, t, 1
        elif t in "PF" and any(types[g] in ("V", "C", "M") for g in nb[f]):
            yield f, t, 2  # a distant pasture or forest, at double cost


def counts(castle: list) -> list:
    """Per commodity, how many tiles of each value (index 1-3) a castle holds."""
    out = [[0, 0, 0, 0] for _ in range(3)]
    for tile in castle:
        c, v = D.TILES[tile]
        out[c][v] += 1
    return out


def payments(state: TumultState, seat: int, t: str, mult: int) -> list:
    held = counts(state["castle"][seat])
    cost = D.COSTS[t][0]
    per = []
    for c in range(3):
        need = cost[c] * mult
        cc = held[c]
        options = D.pay_options(min(cc[1], need), min(cc[2], need), min(cc[3], need), need)
        if not options:
            return []
        per.append(options)
    return [{"bread": list(b), "marble": list(m), "tools": list(o)} for b, m, o in itertools.product(*per)]


def can_place(state: TumultState, seat: int) -> bool:
    units = [cc[1] + 2 * cc[2] + 3 * cc[3] for cc in counts(state["castle"][seat])]
    # the cheapest costs: every field type needs at least one of these three
    if not ((units[0] >= 1 and units[1] >= 1)  # pasture / forest / mountain
            or (units[0] >= 2 and units[2] >= 2)  # village
            or (units[1] >= 2 and units[2] >= 3)):  # palace
        return False
    for _field, t, mult in candidate_fields(state, seat):
        cost = D.COSTS[t][0]
        if units[0] >= cost[0] * mult and units[1] >= cost[1] * mult and units[2] >= cost[2] * mult:
            return True
    return False


def begin_placement(s: TumultState) -> None:
    s["phase"] = "placement"
    s["passed"] = [False] * s["n"]
    advance(s, None)


def advance(s: TumultState, current) -> None:
    """The next seat in rank order that has not passed; a seat that cannot pay for any field passes
    ("you will have to pass" [ENGINE]); when all have passed, the round ends."""
    seats = order(s)
    n = len(seats)
    start = 0 if current is None else seats.index(current) + 1
    for k in range(n):
        seat = seats[(start + k) % n]
        if s["passed"][seat]:
            continue
        if not can_place(s, seat):
            s["passed"][seat] = True
            continue
        s["turn"] = seat
        return
    s["turn"] = None
    s["phase"] = "round-end"


def turn_seat(rules: Rules, state: TumultState) -> list:
    return [state["turn"]]


def legal(rules: Rules, state: TumultState, seat: int) -> list:
    actions = []
    for f, t, mult in candidate_fields(state, seat):
        for pay in payments(state, seat, t, mult):
            actions.append({"type": "place", "field": f, "pay": pay})
    actions.append({"type": "pass"})
    return actions


def check(rules: Rules, state: TumultState, seat: int, action: dict) -> None:
    kind = action["type"]
    if kind == "pass":
        keys(action, {"type"}, PLACE)
        return
    if kind != "place":
        raise IllegalAction(PLACE, "place a statue or pass")
    keys(action, {"type", "field", "pay"}, PLACE)
    f, pay = action["field"], action["pay"]
    if type(f) is not int or not 0 <= f < len(state["board"]):
        raise IllegalAction(PLACE, "no such field")
    if type(pay) is not dict or set(pay) != set(D.COMMODITIES):
        raise IllegalAction(PLACE, "pay must list the tile values paid for bread, marble and tools")
    for values in pay.values():
        if type(values) is not list or not all(type(v) is int and 1 <= v <= 3 for v in values):
            raise IllegalAction(PLACE, "each payment is a list of tile values 1 to 3")
    types = field_types(state)
    t = types[f]
    if t is None:
        raise IllegalAction("rulebook The Royal Chronicle", "that field lies on a face-down region tile")
    if state["board"][f] is not None:
        raise IllegalAction(PLACE, "that field is already occupied")
    cost, size = D.COSTS[t]
    if state["statues_left"][seat] < size:
        raise IllegalAction(PLACE, f"a {D.FIELD_NAMES[t]} needs {size} statues at once")
    nb = D.neighbours(state["n"])
    if any(state["board"][g] == seat for g in nb[f]):
        mult = 1
    elif t in "PF":
        if not any(types[g] in ("V", "C", "M") for g in nb[f]):
            raise IllegalAction(PLACE + " (distant pasture/forest)",
                                "a distant pasture or forest must touch a village, palace or mountain")
        mult = 2
    else:
        raise IllegalAction(PLACE + " (adjacency)",
                            "the field must be orthogonally next to one of your statues")
    held = counts(state["castle"][seat])
    for c, name in enumerate(D.COMMODITIES):
        need = cost[c] * mult
        paid = sorted(pay[name])
        have = held[c]
        if any(paid.count(v) > have[v] for v in (1, 2, 3)):
            raise IllegalAction(PLACE + " (payment)", f"you do not hold those {name} tiles")
        if sum(paid) < need:
            raise IllegalAction(PLACE + " (payment)", f"this field needs {need} {name}")
        if paid and sum(paid) - paid[0] >= need:  # "only use the exact number of commodity tiles needed"
            raise IllegalAction(PLACE + " (no excess tiles)",
                                f"you may only use the {name} tiles needed for the payment")


def apply(rules: Rules, s: TumultState, seat: int, action: dict) -> None:
    if action["type"] == "pass":  # a pass is final [PROPOSAL 4.5]
        s["passed"][seat] = True
        advance(s, seat)
        return
    f = action["field"]
    t = field_types(s)[f]
    cost, size = D.COSTS[t]
    mult = 1 if any(s["board"][g] == seat for g in D.neighbours(s["n"])[f]) else 2
    castle = s["castle"][seat]
    paid_total = 0
    for c, name in enumerate(D.COMMODITIES):
        for v in action["pay"][name]:
            tile = min(x for x in castle if D.TILES[x] == (c, v))
            castle.remove(tile)
            s["spent"].append(tile)
            paid_total += v
    over = paid_total - sum(cost) * mult  # +1 supporter per unit overpaid (rulebook)
    s["supporters"][seat] += over
    s["pool"] -= over
    s["board"][f] = seat
    s["statues_left"][seat] -= size
    s["placed_round"][seat] += size
    if s["statues_left"][seat] == 0:  # the 25th statue ends the game at once
        game_over(s, "25th statue", seat)
        return
    advance(s, seat)
