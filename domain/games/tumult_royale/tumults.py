"""Step 3 of a round, "Deal with Conflicts": one automatic step that resolves every tumult.

Rulebook step 3; house rules 4.5 "Tumult order" (bread, marble, tools, each against the units left in
the centre before any tile is returned).
"""

from __future__ import annotations

from domain.engine import copy_json

from . import data as D
from .placement import begin_placement
from .state import Rules, Tumults, TumultState, demand_of, ranks_of


def compute(rules: Rules, state: TumultState) -> Tumults:
    n = state["n"]
    demand = demand_of(state)
    left = [0, 0, 0]
    for tile in state["centre"]:
        c, v = D.TILES[tile]
        left[c] += v
    supporters = list(state["supporters"])
    mercy = state["round"] > 1  # "The effects of the mercy card don't apply in the first round"
    tumults = []
    for c, name in enumerate(D.COMMODITIES):
        if left[c] >= demand:
            continue
        took = [sum(D.TILES[t][1] for t in state["castle"][s] if D.TILES[t][0] == c) for s in range(n)]
        # "subtract 1 from the number of commodities I have robbed for each type of commodity"
        counted = [max(0, took[s] - (1 if mercy and state["mercy"][s] and took[s] else 0))
                   for s in range(n)]
        if rules.zero_take_not_greedy:
            # 1.1.0 [ENGINE, rulebook silent]: the greediest "just can't get enough of swiping"; a
            # take that counts 0 after mercy swiped nothing that counts, so it is never greediest.
            takers = [s for s in range(n) if counted[s] > 0]
        else:  # 1.0.0: anyone who took a unit, even one that mercy cancels
            takers = [s for s in range(n) if took[s] > 0]
        entry = {"commodity": name, "took": took, "counted": counted,
                 "greediest": None, "lost": 0, "returned": []}
        if takers:
            # ties -> the higher rank ("the more esteemed ... the more the people shake their heads")
            g = min(takers, key=lambda s: (-counted[s], ranks_of(state)[s]))
            mine = sorted((t for t in state["castle"][g] if D.TILES[t][0] == c),
                          key=lambda t: (D.TILES[t][1], t))
            lost = min(D.TUMULT_LOSS, supporters[g])  # nobody goes below 0 [ENGINE]
            supporters[g] -= lost
            # keeps only the lowest-value tile; the rest go face up to the centre
            entry.update(greediest=g, lost=lost, returned=sorted(mine[1:]))
        tumults.append(entry)
    return {
        "type": "tumults",
        "demand": demand,
        "left": {name: left[c] for c, name in enumerate(D.COMMODITIES)},
        "tumults": tumults,
    }


def apply(rules: Rules, s: TumultState, step: Tumults) -> None:
    for entry in step["tumults"]:
        g = entry["greediest"]
        if g is None:
            continue
        s["greedy"][g] = True
        s["supporters"][g] -= entry["lost"]
        s["pool"] += entry["lost"]
        back = set(entry["returned"])
        s["castle"][g] = [t for t in s["castle"][g] if t not in back]
        s["centre"] = sorted(s["centre"] + entry["returned"])
    s["last_tumults"] = copy_json(step)  # the state shares nothing with the event it applies
    begin_placement(s)
