"""The typed state of a Tumult Royale match, the rules versions, and the helpers every phase shares.

The state stays a plain JSON dict (states compare with ``==`` and replay rebuilds them exactly); the
``TypedDict`` below says what each key holds. Rules: docs/rules/tumult-royale.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, TypedDict

from domain.engine import IllegalAction

from . import data as D


class Options(TypedDict, total=False):
    gamble: bool  # the variant "Taxing Royalty Who Love to Gamble" (house rules 4.5)
    tax_seconds: float  # the hourglass (house rules 4.5 digital tax collection)
    tax_mode: str  # "live" or "async"
    ready_seconds: float  # 1.1.0: the bound of the ready question before the hourglass
    set_aside: str  # 1.2.0: "total" (12 in all, house rules 4.5) or "per-player" (3 each, rulebook l.313)


class Tumults(TypedDict):
    type: str
    demand: int
    left: dict
    tumults: list  # one entry per commodity in tumult (see tumults.py)


class TumultState(TypedDict):
    n: int
    options: Options
    phase: str  # a key of the phase tables in phases.py, or "over"
    round: int
    regions: Optional[list]  # position -> region tile number (1-10)
    boxed: Optional[list]  # the region tiles not used
    face_up: list  # position -> bool
    board: list  # field -> owning seat or None
    ranks: Optional[list]  # seat -> nobility rank (1 = king)
    supporters: list
    pool: int  # unbounded: may go below 0 (house rules 4.5)
    statues_left: list  # statues still on each castle board
    chronicle: list  # [king, statues] per filled space
    mercy: list  # seat -> bool, for the coming round
    demand: Optional[int]
    turn: Optional[int]  # the one seat to act, in turn-based phases
    layout: Optional[list]  # during tax collection: centre slot -> tile id, None once kept (set_aside_count's rest)
    set_aside: list  # the tiles set aside unseen this round (set_aside_count of them)
    centre: list  # face-up tiles in the centre (after the reveal)
    castle: list  # seat -> tile ids kept this round
    spent: list
    hand: list  # seat -> slot held (peeked), or None
    revealed: bool
    collecting: list  # seat -> still collecting taxes
    ready: list  # seat -> ready for the hourglass (1.1.0 ready step)
    peeks: list
    passed: list
    placed_round: list
    greedy: list
    reveals_left: int
    last_tumults: Optional[Tumults]
    winner25: Optional[int]
    end: Optional[str]


@dataclass(frozen=True)
class Rules:
    """What differs between the shipped rules versions (each flag cites its change)."""

    version: str
    # 1.1.0, rulebook step 2 "Get Taxes": "The king or queen then asks everyone if they're ready to
    # play. Once everyone is ready, the king flips the hourglass". 1.0.0 turned it at the spin.
    ready_step: bool
    # 1.1.0, rulebook step 3 "The Greediest Player": a counted take of 0 (after mercy) is no take, so
    # it is never greediest. 1.0.0 made anyone who took a unit a candidate.
    zero_take_not_greedy: bool
    # 1.2.0, rulebook "Getting Ready for the Next Round" (l.313): "each player will once again remove three
    # tiles and set them aside": the option ``set_aside``, "per-player" playing it, "total" (the default)
    # house rules 4.5's 12 in all. 1.0.0 and 1.1.0 have no such option and play 12 in all.
    set_aside_option: bool


RULES = {
    "1.0.0": Rules("1.0.0", ready_step=False, zero_take_not_greedy=False, set_aside_option=False),
    "1.1.0": Rules("1.1.0", ready_step=True, zero_take_not_greedy=True, set_aside_option=False),
    "1.2.0": Rules("1.2.0", ready_step=True, zero_take_not_greedy=True, set_aside_option=True),
}
CURRENT = "1.2.0"


def copy_state(state: TumultState) -> TumultState:
    """A copy deep enough for a transition to change: every list one level down, the nested lists
    (castles, chronicle) two levels. ``last_tumults`` and ``options`` are never changed in place."""
    s = dict(state)
    for key, value in s.items():
        if type(value) is list:
            s[key] = value[:]
    s["castle"] = [c[:] for c in state["castle"]]
    s["chronicle"] = [c[:] for c in state["chronicle"]]
    return s  # type: ignore[return-value]


# The keys that are None only before the setup has filled them: the phases that read them come after.
def ranks_of(state: TumultState) -> list:
    ranks = state["ranks"]
    assert ranks is not None, "the nobility ranks are dealt at setup"
    return ranks


def regions_of(state: TumultState) -> list:
    regions = state["regions"]
    assert regions is not None, "the region tiles are laid at setup"
    return regions


def layout_of(state: TumultState) -> list:
    layout = state["layout"]
    assert layout is not None, "the centre layout exists during tax collection"
    return layout


def demand_of(state: TumultState) -> int:
    demand = state["demand"]
    assert demand is not None, "the demand is drawn before taxes and tumults"
    return demand


def set_aside_count(state: TumultState) -> int:
    """Tiles the round's shuffle sets aside unseen (the option ``set_aside``, rules 1.2.0): 12 in all
    [PROPOSAL 4.5], or 3 a player [RULEBOOK l.313]. A match of 1.0.0 or 1.1.0 has no such option: 12."""
    return D.set_aside(state["n"], state["options"].get("set_aside", "total"))


def live(state: TumultState) -> bool:
    return state["options"]["tax_mode"] == "live"


def order(state: TumultState) -> list:
    """Seats in rank order, king first."""
    ranks = ranks_of(state)
    return sorted(range(state["n"]), key=lambda s: ranks[s])


def field_types(state: TumultState) -> tuple:
    return D.field_types(state["n"], tuple(regions_of(state)), tuple(state["face_up"]))


def placed(state: TumultState) -> list:
    """Statues placed per seat: those off the castle board, the chronicle's included (DERIVED)."""
    return [D.STATUES - left for left in state["statues_left"]]


def new_round(s: TumultState) -> None:
    """Every round starts with all 39 tiles back in the centre, then the shuffle (rulebook)."""
    n = s["n"]
    s["round"] += 1
    s["phase"] = "shuffle"
    s["turn"] = None
    s["demand"] = None
    s["layout"] = None
    s["centre"] = list(range(D.NUM_TILES))
    s["set_aside"] = []
    s["castle"] = [[] for _ in range(n)]
    s["spent"] = []
    s["hand"] = [None] * n
    s["revealed"] = False
    s["collecting"] = [False] * n
    s["ready"] = [False] * n
    s["peeks"] = [0] * n
    s["passed"] = [False] * n
    s["placed_round"] = [0] * n
    s["greedy"] = [False] * n
    s["reveals_left"] = 0
    s["last_tumults"] = None


def game_over(s: TumultState, reason: str, winner25: Optional[int]) -> None:
    s["phase"] = "over"
    s["turn"] = None
    s["end"] = reason
    s["winner25"] = winner25


def keys(action: dict, expected: set, rule: str) -> None:
    if set(action) != expected:
        raise IllegalAction(rule, f"this action must have exactly the keys {sorted(expected)}")


def permutation_of(outcome: dict, key: str, items: list, what: str) -> None:
    """A chance outcome ``{"type": ..., key: [a permutation of items]}`` with no other key."""
    value = outcome.get(key)
    if set(outcome) != {"type", key} or type(value) is not list or not all(type(x) is int for x in value) \
            or sorted(value) != items:
        raise IllegalAction("chance", f"{key} must be a permutation of {what}")
