"""Visiting the GUILDS (rulebook): place and/or move up to 2/3/4 markers with the 1st/2nd/3rd
guild card of the round; the same frame serves King's Favor 7 (up to three markers)."""

from __future__ import annotations

from .core import Handler, pl, pop, push
from .data import GUILD_IDS, PLACES


def begin_visit(state, seat):
    p = pl(state, seat)
    p["pawn"] = "guilds"
    push(state, {"kind": "guild", "seat": seat, "left": min(4, p["table"][PLACES.index("guilds")] + 1)})


def legal_guild(state, frame, seat):
    p = pl(state, seat)
    out = []
    if p["reserve"] > 0:
        out += [{"type": "guild-move", "from": "reserve", "to": g} for g in GUILD_IDS]
    for g in GUILD_IDS:
        if p["guilds"][g - 1] > 0:
            out += [{"type": "guild-move", "from": g, "to": h} for h in GUILD_IDS if h != g]
    return out + [{"type": "guild-done"}]


def apply_guild(state, frame, seat, action):
    if action["type"] == "guild-done":
        pop(state)
        return
    p = pl(state, seat)
    if action["from"] == "reserve":
        p["reserve"] -= 1
    else:
        p["guilds"][action["from"] - 1] -= 1
    p["guilds"][action["to"] - 1] += 1
    frame["left"] -= 1
    if frame["left"] == 0:
        pop(state)


def settle_guild(state, frame):
    p = pl(state, frame["seat"])
    if p["reserve"] == 0 and sum(p["guilds"]) == 0:
        pop(state)
        return True
    return False


HANDLERS = {
    "guild": Handler("jester Visiting the GUILDS", legal_guild, apply_guild, settle_guild),
}
