"""Visiting the CITY (rulebook; house rules S1, P1): classes, specialization table, objects,
Master Buffoon (two classes) and Craftsmen (free order)."""

from __future__ import annotations

from .core import Handler, has_power, marker_sources, pl, pop, push, take_marker
from .data import BUFFOON, CRAFTSMEN, DISCIPLINES


def begin_visit(state, seat):
    p = pl(state, seat)
    if p["order"] is not None:  # visiting the city collects the object on order
        p["made"][DISCIPLINES.index(p["order"])] = True
        p["order"] = None
    push(state, {"kind": "city", "seat": seat, "stage": "class1", "classes": []})


def class_options(state, seat):
    p = pl(state, seat)
    taken = {q["pawn"] for i, q in enumerate(state["players"]) if i != seat}
    out = []
    for i, d in enumerate(DISCIPLINES):
        if state["city"][i] > 0 and "city:" + d not in taken and state["prices"][i] <= p["money"] \
                and d not in p["round_stamps"]:
            out.append(d)
    return out


def order_cost(state, seat):
    if has_power(state, seat, CRAFTSMEN):
        return 0
    return 1 + sum(1 for i, q in enumerate(state["players"]) if i != seat and q["order"] is not None)


def order_options(state, seat, classes):
    p = pl(state, seat)
    if p["order"] is not None or order_cost(state, seat) > p["money"]:
        return []
    return [d for d in classes if state["objects"][DISCIPLINES.index(d)] > 0
            and not p["made"][DISCIPLINES.index(d)]]


def legal_city(state, frame, seat):
    stage = frame["stage"]
    if stage == "class1":
        return [{"type": "city-shop"}] + [{"type": "city-class", "discipline": d}
                                          for d in class_options(state, seat)]
    if stage == "class2":
        return [{"type": "city-skip"}] + [{"type": "city-class", "discipline": d}
                                          for d in class_options(state, seat)]
    if stage == "pawn":
        return [{"type": "pawn", "discipline": d} for d in frame["classes"]]
    return [{"type": "order", "discipline": d} for d in order_options(state, seat, frame["classes"])] \
        + [{"type": "no-order"}]


def _next_stage(state, frame, seat):
    if frame["stage"] == "class1" and has_power(state, seat, BUFFOON):
        frame["stage"] = "class2"
    elif len(frame["classes"]) == 2:
        frame["stage"] = "pawn"
    else:
        frame["stage"] = "order"


def apply_city(state, frame, seat, action):
    kind = action["type"]
    p = pl(state, seat)
    if kind == "city-shop":
        p["pawn"] = "city:shop"
        pop(state)
    elif kind == "city-class":
        d = action["discipline"]
        i = DISCIPLINES.index(d)
        p["money"] -= state["prices"][i]
        state["city"][i] -= 1
        p["stamps"][i] += 1
        p["round_stamps"].append(d)
        if frame["stage"] == "class1":
            p["pawn"] = "city:" + d
        frame["classes"].append(d)
        _next_stage(state, frame, seat)
        # the moment to place a specialization marker is when the class is taken (house rule P1:
        # an existing marker advances by itself, its level being the number of stamps owned)
        if not p["spec"][i] and marker_sources(state, seat, reserve_first=True):
            push(state, {"kind": "specialize", "seat": seat, "discipline": d})
    elif kind == "city-skip":
        frame["stage"] = "order"
    elif kind == "pawn":
        p["pawn"] = "city:" + action["discipline"]
        frame["stage"] = "order"
    elif kind == "order":
        d = action["discipline"]
        p["money"] -= order_cost(state, seat)
        state["objects"][DISCIPLINES.index(d)] -= 1
        p["order"] = d
        pop(state)
    else:  # no-order
        pop(state)


def settle_city(state, frame):
    seat = frame["seat"]
    if frame["stage"] == "class2" and not class_options(state, seat):
        frame["stage"] = "order"
        return True
    if frame["stage"] == "order" and not order_options(state, seat, frame["classes"]):
        pop(state)
        return True
    return False


def legal_specialize(state, frame, seat):
    return [{"type": "specialize", "from": s} for s in marker_sources(state, seat, reserve_first=True)] \
        + [{"type": "no-specialize"}]


def apply_specialize(state, frame, seat, action):
    if action["type"] == "specialize":
        take_marker(state, seat, action["from"])
        pl(state, seat)["spec"][DISCIPLINES.index(frame["discipline"])] = True
    pop(state)


HANDLERS = {
    "city": Handler("jester Visiting the CITY", legal_city, apply_city, settle_city),
    "specialize": Handler("jester Visiting the CITY (house rule P1)", legal_specialize, apply_specialize),
}
