"""Shared helpers of the Jester engine: the decision stack, player data and small rule helpers.

The state is plain JSON. Pending decisions live on ``state["stack"]`` (last = current). Each frame
has a ``kind``; every module declares, per kind, a :class:`Handler` in its ``HANDLERS`` table: the
rule cited when an action is refused, the legal actions, how an action applies and, optionally, a
``settle`` function that resolves the frame without a decision when nobody has a real choice
(returns True when it changed the stack). ``rules.py`` puts the tables of one rules version
together; the tables are read-only module constants.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from domain.engine import IllegalAction

from .data import EVENTS, FAME_MAX, GUILD_IDS, PLACES, THRESHOLD

CHANCE_KINDS = frozenset({"ch-setup", "ch-city", "ch-start"})
AUTO_KINDS = frozenset({"round-end-scoring", "next-round", "final-scoring"})


class Handler(NamedTuple):
    """What the engine does with a frame of one kind."""

    rule: str  # cited when an action is refused
    legal: Optional[Callable] = None  # (state, frame, seat) -> the legal actions, listed
    apply: Optional[Callable] = None  # (state, frame, actor, action): changes the (copied) state
    settle: Optional[Callable] = None  # (state, frame) -> True when it resolved something itself
    # action -> the listed form of an accepted variant (say, a pair given in the other order)
    canonical: Optional[Callable] = None


def top(state):
    return state["stack"][-1] if state["stack"] else None


def push(state, frame):
    state["stack"].append(frame)


def pop(state):
    return state["stack"].pop()


def settle(state, handlers):
    """Resolve every frame that needs no decision (``handlers``: the rules version's table)."""
    for _ in range(1000):
        frame = top(state)
        if frame is None:
            return
        fn = handlers[frame["kind"]].settle
        if fn is None or not fn(state, frame):
            return
    raise RuntimeError("jester: settle loop")


def frame_seats(frame):
    if "seats" in frame:
        return list(frame["seats"])
    if "seat" in frame:
        return [frame["seat"]]
    return []


def illegal(rule, detail):
    raise IllegalAction(rule, detail)


# -- players -------------------------------------------------------------------------------------
def pl(state, seat):
    return state["players"][seat]


def guild_count(state, seat, guild):
    return state["players"][seat]["guilds"][guild - 1]


def has_power(state, seat, guild):
    """A player uses a guild's power when he has at least its threshold of markers (house rule S4)."""
    return state["players"][seat]["guilds"][guild - 1] >= THRESHOLD[guild]


def vp_floor(state):
    """House rule P6, "The VP track never goes below 0. This includes chair III and the crown penalty":
    option ``vp_floor`` (1.4.0, default true); false, VP may go below 0 (the rulebook states no floor).
    A state of 1.0.0 to 1.3.0 has no such option and keeps the floor."""
    return state["opts"].get("vp_floor", True)


def influence_needs_markers(state):
    """ENGINE J-INFLUENCE: option ``influence_needs_markers`` (1.4.0, default true), the end-game influence
    bonus only for players with a marker on the board; false, 0 markers is a quantity too (the rulebook's
    letter). A state of 1.0.0 to 1.3.0 has no such option and needs the markers."""
    return state["opts"].get("influence_needs_markers", True)


def floored(state, vp):
    """``vp`` as the VP track holds it: at least 0 under house rule P6 (option ``vp_floor``)."""
    return max(0, vp) if vp_floor(state) else vp


def add_vp(state, seat, amount):
    p = state["players"][seat]
    p["vp"] = floored(state, p["vp"] + amount)  # house rule P6: never below 0 (option vp_floor)


def gain_fame(state, seat, amount):
    """Fame 0..13 (house rule 1.4); the first to reach 13 scores 5 VP, the later ones 3 VP."""
    p = state["players"][seat]
    before = p["fame"]
    p["fame"] = min(FAME_MAX, before + amount)
    if before < FAME_MAX <= p["fame"] and not p["f13"]:
        p["f13"] = True
        add_vp(state, seat, 5 if state["fame13"] == 0 else 3)
        state["fame13"] += 1


def lose_fame(state, seat, amount):
    p = state["players"][seat]
    if p["f13"] or p["fame"] >= FAME_MAX:
        return  # rulebook: whoever reached 13 no longer loses fame to red chairs
    p["fame"] = max(0, p["fame"] - amount)


def fame_loss_possible(state, seat):
    p = state["players"][seat]
    return 0 < p["fame"] < FAME_MAX and not p["f13"]


def hand_size(state, seat):
    return sum(state["players"][seat]["hand"])


def royalty_count(state, seat):
    return sum(1 for s in state["royalty"] if s == seat)


def markers_on_board(state, seat):
    """Guilds and royalty spaces (end-game item 6 and the last tie-break)."""
    return sum(state["players"][seat]["guilds"]) + royalty_count(state, seat)


def markers_total(state, seat):
    p = state["players"][seat]
    return (p["reserve"] + sum(p["guilds"]) + royalty_count(state, seat)
            + state["counselor"].count(seat) + sum(1 for m in p["spec"] if m) + p["boxed"])


def push_king(state, seat):
    """Put a marker on the King's space; the run of occupied royalty spaces shifts one step along
    King, Queen, Prince, Princess; a marker pushed off the Princess falls onto the Counselor."""
    roy = state["royalty"]
    carry = seat
    for i in range(4):
        if roy[i] is None:
            roy[i] = carry
            return
        roy[i], carry = carry, roy[i]
    state["counselor"].append(carry)


def remove_royalty(state, index):
    """Remove the marker at a royalty space and close the gap (rulebook, the no-money rescue)."""
    roy = state["royalty"]
    state["royalty"] = roy[:index] + roy[index + 1:] + [None]


def take_marker(state, seat, source):
    """Take one of ``seat``'s markers from ``"reserve"`` or a guild (1..6)."""
    p = state["players"][seat]
    if source == "reserve":
        p["reserve"] -= 1
    else:
        p["guilds"][source - 1] -= 1


def marker_sources(state, seat, reserve_first=False):
    """Where a marker may come from: the reserve, or (when ``reserve_first`` and the reserve is
    empty, or always otherwise) any guild holding one of his markers."""
    p = state["players"][seat]
    if reserve_first:
        if p["reserve"] > 0:
            return ["reserve"]
        return [g for g in GUILD_IDS if p["guilds"][g - 1] > 0]
    out = ["reserve"] if p["reserve"] > 0 else []
    return out + [g for g in GUILD_IDS if p["guilds"][g - 1] > 0]


def place_price(state, place):
    r = state["round"]
    if r < 1:
        return 1
    return 2 if place in EVENTS[state["events"][r - 1]] else 1


def card_options(state):
    return [p for i, p in enumerate(PLACES) if state["piles"][i] > 0]
