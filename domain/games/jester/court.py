"""Visiting the COURT (rulebook; house rules 1.4 chair colours, P2, P4): Play A (nobles on chairs,
the ten chair effects, crowns spent by each victim of a red chair) and Play B (royalty push,
stamp swap by majority or the Grand Duke)."""

from __future__ import annotations

from .core import (
    Handler,
    add_vp,
    fame_loss_possible,
    hand_size,
    has_power,
    lose_fame,
    marker_sources,
    pl,
    pop,
    push,
    push_king,
    royalty_count,
    take_marker,
    vp_floor,
)
from .data import DISCIPLINES, GRAND_DUKE, GUILD_IDS, PLACES, RED_CHAIRS


def begin_visit(state, seat):
    pl(state, seat)["pawn"] = "court"
    push(state, {"kind": "court", "seat": seat})


def red_allowed(state, seat):
    """Red chairs only from round 2; with the Red Chairs variant from the player's 2nd turn."""
    if state["round"] >= 2:
        return True
    return state["opts"]["red_chairs"] and pl(state, seat)["turns"] >= 1


def chair_options(state, seat):
    red = red_allowed(state, seat)
    return [c for c in range(1, 11) if state["chairs"][c - 1] is None and (red or c not in RED_CHAIRS)]


def legal_court(state, frame, seat):
    out = [{"type": "court-a", "chair": c} for c in chair_options(state, seat)]
    out += [{"type": "court-b", "from": s} for s in marker_sources(state, seat, reserve_first=True)]
    return out


def settle_court(state, frame):
    if not legal_court(state, frame, frame["seat"]):
        pop(state)  # neither play is possible: the visit has no effect (engine decision)
        return True
    return False


def penalty(state, chair, victim):
    """What a red chair would take from ``victim``: (discard, guild marker, 2 VP, $2, 1 fame)."""
    p = pl(state, victim)
    return (chair in (1, 9) and hand_size(state, victim) >= 2,
            chair in (1, 7) and sum(p["guilds"]) > 0,
            chair == 3 and (p["vp"] > 0 or not vp_floor(state)),  # P6: 0 VP loses nothing (option)
            chair == 5 and p["money"] > 0,
            chair in (7, 9) and fame_loss_possible(state, victim))


def apply_court(state, frame, seat, action):
    p = pl(state, seat)
    pop(state)
    if action["type"] == "court-b":
        take_marker(state, seat, action["from"])
        push_king(state, seat)
        add_vp(state, seat, 1)
        if may_swap(state, seat):
            push(state, {"kind": "swap", "seat": seat})
        return
    c = action["chair"]
    state["chairs"][c - 1] = seat
    p["money"] += 2
    if c in RED_CHAIRS:
        n = state["n"]
        victims = [(seat + k) % n for k in range(1, n) if any(penalty(state, c, (seat + k) % n))]
        if victims:
            push(state, {"kind": "victims", "chair": c, "active": seat, "seats": sorted(victims)})
    elif c == 2:
        push(state, {"kind": "take-card", "seat": seat, "left": 1})
        if p["reserve"] > 0:
            push(state, {"kind": "chair-guild", "seat": seat})
    elif c == 4:
        p["money"] += 2 * sum(1 for m in p["made"] if m)
    elif c == 6:
        p["crowns"] += 1
        add_vp(state, seat, 1)
    elif c == 8:
        p["money"] += p["fame"] // 2
    else:  # 10
        p["crowns"] += 1
        p["money"] += 1


def legal_chair_guild(state, frame, seat):
    return [{"type": "chair-guild", "guild": g} for g in GUILD_IDS]


def apply_chair_guild(state, frame, seat, action):
    p = pl(state, seat)
    p["reserve"] -= 1
    p["guilds"][action["guild"] - 1] += 1
    pop(state)


def legal_victim(state, frame, seat):
    """Every victim is asked, even with no crown and a single way to suffer: resolving him at once
    would tell the others that no crown is behind his screen (crowns are hidden; house rule P4)."""
    if seat not in frame["seats"]:
        return []
    p = pl(state, seat)
    discard, guild, _, _, _ = penalty(state, frame["chair"], seat)
    out: list[dict] = [{"type": "defend"}] if p["crowns"] > 0 else []
    discards = [pl_ for i, pl_ in enumerate(PLACES) if p["hand"][i] > 0] if discard else [None]
    guilds = [g for g in GUILD_IDS if p["guilds"][g - 1] > 0] if guild else [None]
    out += [{"type": "suffer", "discard": d, "guild": g} for d in discards for g in guilds]
    return out


def apply_victim(state, frame, seat, action):
    p = pl(state, seat)
    if action["type"] == "defend":
        p["crowns"] -= 1  # the crown returns to the supply; the victim is unharmed
    else:
        _, _, vp, money, fame = penalty(state, frame["chair"], seat)
        if action["discard"] is not None:
            i = PLACES.index(action["discard"])
            p["hand"][i] -= 1
            state["piles"][i] += 1
        if action["guild"] is not None:
            p["guilds"][action["guild"] - 1] -= 1
            p["reserve"] += 1
        if vp:
            add_vp(state, seat, -2)
        if money:
            p["money"] -= min(2, p["money"])
        if fame:
            lose_fame(state, seat, 1)
    frame["seats"].remove(seat)
    if not frame["seats"]:
        pop(state)


def settle_victims_1_0(state, frame):
    """Rules 1.0.0: a victim with a single possible answer (no crown, one way to suffer) suffered at
    once, which told the others his screen held no crown (1.1.0 asks every victim)."""
    for seat in list(frame["seats"]):
        options = legal_victim(state, frame, seat)
        if len(options) == 1:
            apply_victim(state, frame, seat, options[0])
            return True
    return False


def may_swap(state, seat):
    """Play B: the active player may swap with the royalty majority, after the fame tie-break;
    if still tied, when among the tied (house rule P2); or with the Grand Duke and 1 marker."""
    if has_power(state, seat, GRAND_DUKE) and royalty_count(state, seat) >= 1:
        return True
    counts = [royalty_count(state, q) for q in range(state["n"])]
    top = max(counts)
    if counts[seat] < top or top == 0:
        return False
    best = max(pl(state, q)["fame"] for q in range(state["n"]) if counts[q] == top)
    return pl(state, seat)["fame"] == best


SWAP_PAIRS = [[DISCIPLINES[i], DISCIPLINES[j]] for i in range(7) for j in range(i + 1, 7)]


def legal_swap(state, frame, seat):
    return [{"type": "swap", "disciplines": list(pair)} for pair in SWAP_PAIRS] + [{"type": "no-swap"}]


def swap_either_order(action):
    """Rules 1.2.0 - Court Play B: "swap the positions of any two stamps among the seven": a swap
    names two stamps, in no order, so ``[d2, d1]`` is the listed ``[d1, d2]`` (discipline order)."""
    pair = action.get("disciplines")
    if action.get("type") == "swap" and type(pair) is list and len(pair) == 2 \
            and all(type(d) is str and d in DISCIPLINES for d in pair):
        return {**action, "disciplines": sorted(pair, key=DISCIPLINES.index)}
    return action


def apply_swap(state, frame, seat, action):
    if action["type"] == "swap":
        a, b = action["disciplines"]
        court = state["court"]
        i, j = court.index(a), court.index(b)
        court[i], court[j] = court[j], court[i]
    pop(state)


HANDLERS = {
    "court": Handler("jester Visiting the COURT", legal_court, apply_court, settle_court),
    "chair-guild": Handler("jester Chair Effects II", legal_chair_guild, apply_chair_guild),
    "victims": Handler("jester Chair Effects (house rule P4)", legal_victim, apply_victim),
    "swap": Handler("jester Court Play B (house rule P2)", legal_swap, apply_swap),
}
