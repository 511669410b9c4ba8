"""Visiting the THEATER (rulebook): performances, fame, genres and bonuses, Theater Directors;
also the shared frame that takes a place card from a pile (Musical, chair II, favor 1)."""

from __future__ import annotations

from .core import Handler, card_options, gain_fame, has_power, pl, pop, push, push_king
from .data import DIRECTORS, GENRES, GUILD_IDS, PLACES


def begin_visit(state, seat):
    others = [i for i, q in enumerate(state["players"]) if i != seat and q["pawn"] == "theater"]
    if others:  # collective performance
        for i in others:
            pl(state, i)["money"] += 1
        gain_fame(state, seat, 1)
    else:  # individual performance
        gain_fame(state, seat, 2)
    pl(state, seat)["pawn"] = "theater"
    push(state, {"kind": "genre", "seat": seat})


def legal_genre(state, frame, seat):
    return [{"type": "genre", "genre": g} for g in GENRES if g not in state["blocked"]]


def apply_genre(state, frame, seat, action):
    g = action["genre"]
    state["blocked"].append(g)
    k = 2 if has_power(state, seat, DIRECTORS) else 1  # Theater Directors double the bonus
    p = pl(state, seat)
    pop(state)
    if g == "comedy":
        p["crowns"] += k
    elif g == "circus":
        p["money"] += 2 * k
    elif g == "musical":
        push(state, {"kind": "take-card", "seat": seat, "left": k})
    else:
        push(state, {"kind": "tragedy", "seat": seat, "left": k, "king": False})


def legal_tragedy(state, frame, seat):
    p = pl(state, seat)
    out = []
    if p["reserve"] > 0:
        out += [{"type": "tragedy", "from": "reserve", "to": g} for g in GUILD_IDS]
        if not frame["king"]:
            out.append({"type": "tragedy", "from": "reserve", "to": "king"})
    for g in GUILD_IDS:
        if p["guilds"][g - 1] > 0:
            out += [{"type": "tragedy", "from": g, "to": h} for h in GUILD_IDS if h != g]
    return out + [{"type": "tragedy-skip"}]


def apply_tragedy(state, frame, seat, action):
    if action["type"] == "tragedy-skip":
        pop(state)
        return
    p = pl(state, seat)
    src, dst = action["from"], action["to"]
    if src == "reserve":
        p["reserve"] -= 1
    else:
        p["guilds"][src - 1] -= 1
    if dst == "king":
        push_king(state, seat)  # house rule P3: pushes, no VP, no swap
        frame["king"] = True
    else:
        p["guilds"][dst - 1] += 1
    frame["left"] -= 1
    if frame["left"] == 0:
        pop(state)


def settle_tragedy(state, frame):
    if len(legal_tragedy(state, frame, frame["seat"])) == 1:
        pop(state)
        return True
    return False


def legal_take_card(state, frame, seat):
    return [{"type": "take-card", "place": p} for p in card_options(state)]


def apply_take_card(state, frame, seat, action):
    i = PLACES.index(action["place"])
    state["piles"][i] -= 1
    pl(state, seat)["hand"][i] += 1
    frame["left"] -= 1
    if frame["left"] == 0:
        pop(state)


def settle_take_card(state, frame):
    if not card_options(state):
        pop(state)
        return True
    return False


HANDLERS = {
    "genre": Handler("jester Visiting the THEATER", legal_genre, apply_genre),
    "tragedy": Handler("jester Theater bonuses (Tragedy)", legal_tragedy, apply_tragedy, settle_tragedy),
    "take-card": Handler("jester place cards", legal_take_card, apply_take_card, settle_take_card),
}
