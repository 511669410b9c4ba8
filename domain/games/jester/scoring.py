"""End of the game (rulebook End of the Game and Winner): the six scoring items, the Crown Penalty,
the winner and tie-breaks."""

from __future__ import annotations

from domain.engine import competition_ranks

from .core import Handler, floored, influence_needs_markers, markers_on_board, pl, pop
from .data import SPEC_VP


def final_items(state):
    n = state["n"]
    sets, objects, spec, money, disc = [], [], [], [], []
    for s in range(n):
        p = pl(state, s)
        sets.append(3 * min(p["hand"]))                       # 1. each set of 4 place cards: 3 VP
        objects.append(2 * sum(1 for m in p["made"] if m))     # 2. each object made: 2 VP
        spec.append(sum(SPEC_VP[p["stamps"][i]] for i in range(7) if p["spec"][i]))  # 3. table
        money.append(p["money"] // 3)                          # 4. each $3: 1 VP
        marked = sum(1 for i in range(7) if p["spec"][i] and p["stamps"][i] > 0)
        disc.append(10 if marked == 7 else 7 if marked == 6 else 0)  # 5. (house rule P1)
    # 6. most influence markers on the board (guilds + royalty): 8 / 4; a tie for 1st splits 12, a tie
    # for 2nd scores nothing. ENGINE J-INFLUENCE (option influence_needs_markers, default true): only
    # players with a marker on the board are ranked; false, 0 is a quantity too (the rulebook's letter)
    board = [markers_on_board(state, s) for s in range(n)]
    influence = [0] * n
    ranked = [s for s in range(n) if board[s] > 0 or not influence_needs_markers(state)]
    values = sorted({board[s] for s in ranked}, reverse=True)
    if values:
        first = [s for s in ranked if board[s] == values[0]]
        if len(first) > 1:
            for s in first:
                influence[s] = 12 // len(first)
        else:
            influence[first[0]] = 8
            if len(values) > 1:
                second = [s for s in ranked if board[s] == values[1]]
                if len(second) == 1:
                    influence[second[0]] = 4
    return {"sets": sets, "objects": objects, "specialization": spec, "money": money,
            "disciplines": disc, "influence": influence}


def crown_penalty(state):
    """The fewest crowns lose 10 VP; ties go to the lowest fame among them; still tied, all lose."""
    n = state["n"]
    crowns = [pl(state, s)["crowns"] for s in range(n)]
    low = min(crowns)
    tied = [s for s in range(n) if crowns[s] == low]
    low_fame = min(pl(state, s)["fame"] for s in tied)
    return [-10 if s in tied and pl(state, s)["fame"] == low_fame else 0 for s in range(n)]


def auto_final(state):
    items = final_items(state)
    penalty = crown_penalty(state)
    n = state["n"]
    before = [floored(state, pl(state, s)["vp"] + sum(items[k][s] for k in items)) for s in range(n)]
    vp = [floored(state, before[s] + penalty[s]) for s in range(n)]  # house rule P6 (option vp_floor)
    return {"type": "final-scoring", **items, "crowns": [pl(state, s)["crowns"] for s in range(n)],
            "crown_penalty": penalty, "vp": vp}


def apply_final(state, frame, actor, action):
    for s in range(state["n"]):
        pl(state, s)["vp"] = action["vp"][s]
    state["over"] = True
    state["final"] = action
    pop(state)


#: The Winner's order (rulebook "Winner"): most VP; tied, most fame; still tied, most influence markers on
#: the board (guilds and royalty spaces); still tied, a shared place [PROPOSAL].
RANKED_BY = ("vp", "fame", "markers_on_board")


def ranking_key(state, seat):
    p = pl(state, seat)
    return (p["vp"], p["fame"], markers_on_board(state, seat))


def ranking(state):
    """The Winner's keys, named and in their order, one value per seat: what a finished match's view
    shows, so that a tie on VP says which key ranked it without a client redoing the rule (a web page
    counted the markers on the board itself)."""
    keys = [ranking_key(state, s) for s in range(state["n"])]
    return [{"key": name, "values": [key[i] for key in keys]} for i, name in enumerate(RANKED_BY)]


def ranks(state):
    return list(competition_ranks([ranking_key(state, s) for s in range(state["n"])]))


HANDLERS = {
    "final-scoring": Handler("jester End of the Game", apply=apply_final),
}
