"""End of the round, tasks 1-5 (rulebook; house rules task 4 and task 5, S3)."""

from __future__ import annotations

from .core import Handler, add_vp, floored, has_power, pl, pop, push, royalty_count
from .data import CHAIRS, COUNSELOR_POINTS, GUILD_IDS, HERALDS, MERCHANTS, PLACES, PRESTIGE


def begin_round_end(state):
    n = state["n"]
    start, trigger = state["start"], state["trigger"]
    # bottom -> top: task 5 (or the end of the game), task 4, task 3, task 2, task 1
    push(state, {"kind": "final-scoring"} if state["round"] >= 3 else {"kind": "next-round"})
    push(state, {"kind": "convert", "order": [(start + k) % n for k in range(n)], "idx": 0})
    push(state, {"kind": "round-end-scoring"})
    push(state, {"kind": "favor", "order": [(trigger + k) % n for k in range(n)], "idx": 0})
    left = [2 if has_power(state, s, MERCHANTS) and sum(pl(state, s)["table"]) > 0 else 0
            for s in range(n)]
    push(state, {"kind": "keep", "left": left, "seats": [s for s in range(n) if left[s] > 0]})


# -- task 1: return place cards (Merchants keep two) ----------------------------------------------
def legal_keep(state, frame, seat):
    if seat not in frame["seats"]:
        return []
    table = pl(state, seat)["table"]
    return [{"type": "keep", "place": p} for i, p in enumerate(PLACES) if table[i] > 0] \
        + [{"type": "keep-done"}]


def apply_keep(state, frame, seat, action):
    p = pl(state, seat)
    if action["type"] == "keep":
        i = PLACES.index(action["place"])
        p["table"][i] -= 1
        p["hand"][i] += 1
        frame["left"][seat] -= 1
    else:
        frame["left"][seat] = 0
    if frame["left"][seat] == 0 or sum(p["table"]) == 0:
        frame["left"][seat] = 0
        frame["seats"].remove(seat)


def settle_keep(state, frame):
    if frame["seats"]:
        return False
    for p in state["players"]:
        for i in range(4):
            state["piles"][i] += p["table"][i]
            p["table"][i] = 0
    pop(state)
    return True


# -- task 2: King's Favors --------------------------------------------------------------------------
def favor_effective(state, seat, f):
    p = pl(state, seat)
    if f == 1:
        return sum(state["piles"]) > 0
    if f == 5:
        return p["fame"] >= 3
    if f == 6:
        return nobles_at_court(state) >= 2
    if f == 7:
        return p["reserve"] > 0 or sum(p["guilds"]) > 0
    return True


def nobles_at_court(state):
    return sum(1 for c in state["chairs"] if c is not None)


def available_favors(state):
    return [f for f in state["favors"] if f not in state["favors_used"]]


def legal_favor(state, frame, seat):
    if seat != frame["order"][frame["idx"]]:
        return []
    avail = available_favors(state)
    last = frame["idx"] == len(frame["order"]) - 1
    if last and not any(favor_effective(state, seat, f) for f in avail):
        # rulebook note: only the LAST player to choose receives 1 VP and $1 instead; an earlier
        # chooser takes one of the available favors even if it has no effect for him
        return [{"type": "favor-consolation"}]
    return [{"type": "favor", "favor": f} for f in avail]


def legal_favor_1_0(state, frame, seat):
    """Rules 1.0.0: the consolation for ANY chooser with no available favor that has an effect for
    him (1.1.0 kept it for the last chooser, as the rulebook note says)."""
    if seat != frame["order"][frame["idx"]]:
        return []
    avail = available_favors(state)
    if not any(favor_effective(state, seat, f) for f in avail):
        return [{"type": "favor-consolation"}]
    return [{"type": "favor", "favor": f} for f in avail]


def apply_favor(state, frame, seat, action):
    frame["idx"] += 1
    p = pl(state, seat)
    if action["type"] == "favor-consolation":
        add_vp(state, seat, 1)  # rulebook note: the last chooser, no favor applies -> 1 VP and $1
        p["money"] += 1
        return
    f = action["favor"]
    state["favors_used"].append(f)
    if f == 1:
        push(state, {"kind": "take-card", "seat": seat, "left": 2})
    elif f == 2:
        add_vp(state, seat, 1)
        p["money"] += 2
        p["crowns"] += 1
    elif f == 3:
        p["crowns"] += 2
    elif f == 4:
        p["money"] += 5
    elif f == 5:
        fame = p["fame"]
        add_vp(state, seat, 4 if fame >= 8 else 3 if fame >= 3 else 0)
    elif f == 6:
        add_vp(state, seat, nobles_at_court(state) // 2)
    else:
        push(state, {"kind": "guild", "seat": seat, "left": 3})


def settle_favor(state, frame):
    if frame["idx"] < len(frame["order"]):
        return False
    state["favors_used"] = []  # the favors are turned face up again
    pop(state)
    return True


# -- tasks 3 and 4 (AUTO): victory points for theater, guilds and court; royal prestige ----------
def round_scores(state):
    n = state["n"]
    theater = [pl(state, s)["fame"] // 2 for s in range(n)]
    guilds = [0] * n
    for g in GUILD_IDS:
        counts = [pl(state, s)["guilds"][g - 1] for s in range(n)]
        top = max(counts)
        if top == 0:
            continue
        leaders = [s for s in range(n) if counts[s] == top]
        if len(leaders) == 1:
            guilds[leaders[0]] += 2
        elif len(leaders) == 2:
            for s in leaders:
                guilds[s] += 1
    court = [royalty_count(state, s) for s in range(n)]
    k = len(state["counselor"])
    for s in state["counselor"]:
        court[s] += COUNSELOR_POINTS // k  # house rule 1.4: floor(6 / markers on the Counselor)
    return theater, guilds, court


def auto_round_scoring(state):
    theater, guilds, court = round_scores(state)
    vp = [floored(state, pl(state, s)["vp"] + theater[s] + guilds[s] + court[s]) for s in range(state["n"])]
    return {"type": "round-end-scoring", "round": state["round"], "theater": theater, "guilds": guilds,
            "court": court, "vp": vp, "prestige": [prestige_of(state, s) for s in range(state["n"])]}


def apply_round_scoring(state, frame, actor, action):
    for s in range(state["n"]):
        pl(state, s)["vp"] = action["vp"][s]
    for s in state["counselor"]:
        pl(state, s)["reserve"] += 1  # only the Counselor's markers return to their players
    state["counselor"] = []
    state["prestige"] = list(action["prestige"])  # task 4: royal prestige, converted next
    pop(state)


# -- task 4: royal prestige (house rule) -------------------------------------------------------------
def prestige_of(state, seat):
    return sum(PRESTIGE[state["court"].index(d)] for d in pl(state, seat)["round_stamps"])


def crown_rate(state, seat):
    return 1 if has_power(state, seat, HERALDS) else 2


def legal_convert(state, frame, seat):
    if frame["idx"] >= len(frame["order"]) or seat != frame["order"][frame["idx"]]:
        return []
    left = state["prestige"][seat]
    out = [{"type": "convert", "into": "vp", "amount": k} for k in range(1, left + 1)]
    out += [{"type": "convert", "into": "money", "amount": k} for k in range(1, left + 1)]
    out += [{"type": "convert", "into": "crowns", "amount": k}
            for k in range(1, left // crown_rate(state, seat) + 1)]
    return out


def apply_convert(state, frame, seat, action):
    k = action["amount"]
    p = pl(state, seat)
    if action["into"] == "vp":
        add_vp(state, seat, k)
        state["prestige"][seat] -= k
    elif action["into"] == "money":
        p["money"] += k
        state["prestige"][seat] -= k
    else:
        p["crowns"] += k
        state["prestige"][seat] -= k * crown_rate(state, seat)


def settle_convert(state, frame):
    changed = False
    while frame["idx"] < len(frame["order"]) and state["prestige"][frame["order"][frame["idx"]]] == 0:
        frame["idx"] += 1
        changed = True
    if frame["idx"] >= len(frame["order"]):
        pop(state)
        return True
    return changed


# -- task 5: prepare the next round (house rule, AUTO) -----------------------------------------------
def auto_next_round(state):
    full = all(c is not None for c in state["chairs"])
    r = state["round"] + 1
    return {"type": "next-round", "round": r, "event": state["events"][r - 1],
            "start": (state["start"] + 1) % state["n"], "hall_emptied": full,
            "stamps_returned": sum(state["city"])}


def apply_next_round(state, frame, actor, action):
    for p in state["players"]:
        p["pawn"] = None
        p["round_stamps"] = []
    if action["hall_emptied"]:
        state["chairs"] = [None] * CHAIRS
    for i in range(7):
        state["pool"][i] += state["city"][i]
    state["city"] = [0] * 7
    state["round"] = action["round"]
    state["start"] = action["start"]
    state["trigger"] = None
    state["favors_used"] = []
    state["prestige"] = [0] * state["n"]
    if "round_turns" in state:
        state["round_turns"] = 0  # 1.5.0: a new round's nine-turn cap (turn.end_turn)
    pop(state)
    push(state, {"kind": "play", "seat": state["start"]})
    push(state, {"kind": "ch-city"})


HANDLERS = {
    "keep": Handler("jester End of the Round task 1", legal_keep, apply_keep, settle_keep),
    "favor": Handler("jester King's Favors", legal_favor, apply_favor, settle_favor),
    "round-end-scoring": Handler("jester End of the Round tasks 3-4", apply=apply_round_scoring),
    "convert": Handler("house rule task 4", legal_convert, apply_convert, settle_convert),
    "next-round": Handler("house rule task 5", apply=apply_next_round),
}
