"""What each seat and a spectator may see. Hidden: each hand of place cards (only its size is
public) and the crowns behind each screen; the face-down event cards, the removed favors and the
face-down leftover stamps."""

from __future__ import annotations

from .core import top
from .data import DISCIPLINES, EVENTS, PLACES

# The public part of the last state observed, reused for the other seats of the same state (states
# are immutable values: ``apply`` always returns a new one).
_CACHE: list = [None, None]


def decision(state):
    frame = top(state)
    if frame is None:
        return None
    out = {k: v for k, v in frame.items() if k not in ("order", "idx", "left", "classes")}
    if frame["kind"] in ("favor", "convert"):
        if frame["idx"] < len(frame["order"]):
            out["seat"] = frame["order"][frame["idx"]]
    elif "left" in frame:
        out["left"] = frame["left"]
    return out


def _players(players):
    """Public data of every player, one list per field, indexed by seat."""
    cols = {"money": [], "vp": [], "fame": [], "hand_count": [], "table": [], "reserve": [], "guilds": [],
            "classes": [], "specialized": [], "objects": [], "order": [], "pawn": [], "round_classes": []}
    for p in players:
        cols["money"].append(p["money"])
        cols["vp"].append(p["vp"])
        cols["fame"].append(p["fame"])
        cols["hand_count"].append(sum(p["hand"]))
        cols["table"].append(p["table"])
        cols["reserve"].append(p["reserve"])
        cols["guilds"].append(p["guilds"])
        cols["classes"].append({d: k for d, k in zip(DISCIPLINES, p["stamps"]) if k})
        cols["specialized"].append([d for d, m in zip(DISCIPLINES, p["spec"]) if m])
        cols["objects"].append([d for d, m in zip(DISCIPLINES, p["made"]) if m])
        cols["order"].append(p["order"])
        cols["pawn"].append(p["pawn"])
        cols["round_classes"].append(p["round_stamps"])
    return cols


def _build(state):
    r = state["round"]
    dear = EVENTS[state["events"][r - 1]] if r else ()
    obs = {
        "round": r, "decision": decision(state), "start": state["start"], "trigger": state["trigger"],
        "events": state["events"][:r] if r else [],
        "card_prices": [2 if p in dear else 1 for p in PLACES],
        "piles": state["piles"], "favors": state["favors"],
        "court": state["court"], "royalty": state["royalty"], "counselor": state["counselor"],
        "chairs": state["chairs"], "city": state["city"], "class_prices": state["prices"],
        "objects": state["objects"], "blocked": state["blocked"], "players": _players(state["players"]),
    }
    if state["favors_used"]:
        obs["favors_used"] = state["favors_used"]  # during task 2 only
    if any(state["prestige"]):
        obs["prestige"] = state["prestige"]  # during task 4 only
    if state["over"]:
        obs["final"] = state["final"]  # the screens are removed: crowns are shown
    return obs


def public(state):
    if _CACHE[0] is state:
        return dict(_CACHE[1])
    obs = _build(state)
    _CACHE[0], _CACHE[1] = state, obs
    return dict(obs)


def for_seat(state, seat):
    obs = public(state)
    p = state["players"][seat]
    obs["seat"] = seat
    obs["hand"] = p["hand"]
    obs["my_crowns"] = p["crowns"]
    return obs
