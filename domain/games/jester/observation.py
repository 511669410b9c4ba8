"""What each seat and a spectator may see. Hidden: each hand of place cards (only its size is
public) and the crowns behind each screen; the face-down event cards, the removed favors and the
face-down leftover stamps."""

from __future__ import annotations

from domain.engine import copy_json

from .core import top
from .data import DISCIPLINES, EVENTS, PLACES
from .scoring import ranking

# Every observation is built afresh: it shares no list or dict with the state nor with any other
# observation, so a caller may change it freely (the engine contract).


def decision(state):
    frame = top(state)
    if frame is None:
        return None
    out = {k: (v[:] if type(v) is list else v) for k, v in frame.items()
           if k not in ("order", "idx", "left", "classes")}
    if frame["kind"] in ("favor", "convert"):
        if frame["idx"] < len(frame["order"]):
            out["seat"] = frame["order"][frame["idx"]]
    elif "left" in frame:
        out["left"] = frame["left"][:] if type(frame["left"]) is list else frame["left"]
    return out


def _players(players):
    """Public data of every player, one list per field, indexed by seat."""
    return {
        "money": [p["money"] for p in players],
        "vp": [p["vp"] for p in players],
        "fame": [p["fame"] for p in players],
        "hand_count": [sum(p["hand"]) for p in players],
        "table": [p["table"][:] for p in players],
        "reserve": [p["reserve"] for p in players],
        "guilds": [p["guilds"][:] for p in players],
        "classes": [{d: k for d, k in zip(DISCIPLINES, p["stamps"]) if k} for p in players],
        "specialized": [[d for d, m in zip(DISCIPLINES, p["spec"]) if m] for p in players],
        "objects": [[d for d, m in zip(DISCIPLINES, p["made"]) if m] for p in players],
        "order": [p["order"] for p in players],
        "pawn": [p["pawn"] for p in players],
        "round_classes": [p["round_stamps"][:] for p in players],
    }


def _build(state):
    r = state["round"]
    dear = EVENTS[state["events"][r - 1]] if r else ()
    obs = {
        "round": r, "decision": decision(state), "start": state["start"], "trigger": state["trigger"],
        "events": state["events"][:r] if r else [],
        "card_prices": [2 if p in dear else 1 for p in PLACES],
        "piles": state["piles"][:], "favors": state["favors"][:],
        "court": state["court"][:], "royalty": state["royalty"][:], "counselor": state["counselor"][:],
        "chairs": state["chairs"][:], "city": state["city"][:], "class_prices": state["prices"][:],
        "objects": state["objects"][:], "blocked": state["blocked"][:], "players": _players(state["players"]),
    }
    if state["favors_used"]:
        obs["favors_used"] = state["favors_used"][:]  # during task 2 only
    if any(state["prestige"]):
        obs["prestige"] = state["prestige"][:]  # during task 4 only
    if "round_turns" in state:
        # Since rules 1.5.0: the turns ended this round by all players (public: anyone counts them), which
        # the nine-turn cap reads (turn.end_turn). Older versions' observations stay as they were.
        obs["round_turns"] = state["round_turns"]
    if state["over"]:
        obs["final"] = copy_json(state["final"])  # the screens are removed: crowns are shown
        obs["ranking"] = ranking(state)  # the Winner's keys in order (VP, fame, markers on the board)
    if "vp_floor" in state["opts"]:
        # Since rules 1.4.0 the match's options, public in its view, are in the observation too: a computer
        # sees only its observation, and judged a match without the VP floor, or with red chairs, as if it
        # had the defaults (a probe). Older versions' observations stay as they were.
        obs["options"] = dict(state["opts"])
    return obs


def public(state):
    return _build(state)


def for_seat(state, seat):
    obs = public(state)
    p = state["players"][seat]
    obs["seat"] = seat
    obs["hand"] = p["hand"][:]
    obs["my_crowns"] = p["crowns"]
    return obs
