"""What each seat and a spectator may see. Hidden: each hand of place cards (only its size is
public) and the crowns behind each screen; the face-down event cards, the removed favors and the
face-down leftover stamps."""

from __future__ import annotations

from .core import place_price, top
from .data import PLACES

PUBLIC_PLAYER_KEYS = ("money", "vp", "fame", "table", "reserve", "guilds", "spec", "boxed", "stamps",
                      "round_stamps", "made", "order", "pawn", "turns")


def decision(state):
    frame = top(state)
    if frame is None:
        return None
    out = {k: v for k, v in frame.items() if k not in ("order", "idx", "left")}
    if frame["kind"] in ("favor", "convert"):
        if frame["idx"] < len(frame["order"]):
            out["seat"] = frame["order"][frame["idx"]]
    elif "left" in frame:
        out["left"] = frame["left"]
    return out


def public(state, to_act):
    r = state["round"]
    players = []
    for p in state["players"]:
        q = {k: p[k] for k in PUBLIC_PLAYER_KEYS}
        q["hand_count"] = sum(p["hand"])
        players.append(q)
    obs = {
        "game": "jester", "round": r, "over": state["over"], "to_act": to_act,
        "decision": decision(state), "start": state["start"], "trigger": state["trigger"],
        "events": state["events"][:r] if r else [],
        "card_prices": [place_price(state, p) for p in PLACES] if r else None,
        "piles": state["piles"], "favors": state["favors"], "favors_used": state["favors_used"],
        "court": state["court"], "royalty": state["royalty"], "counselor": state["counselor"],
        "chairs": state["chairs"], "red_chairs": state["opts"]["red_chairs"],
        "city": state["city"], "class_prices": state["prices"], "objects": state["objects"],
        "face_down_stamps": sum(state["pool"]), "blocked": state["blocked"],
        "prestige": state["prestige"], "players": players,
    }
    if state["over"]:
        obs["final"] = state["final"]
        obs["crowns"] = [p["crowns"] for p in state["players"]]  # screens are removed at the end
    return obs


def for_seat(state, seat, to_act):
    obs = public(state, to_act)
    p = state["players"][seat]
    obs["seat"] = seat
    obs["hand"] = p["hand"]
    obs["my_crowns"] = p["crowns"]
    return obs
