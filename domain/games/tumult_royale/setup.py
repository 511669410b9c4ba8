"""Setting up: the kingdom's region tiles, the deal of the nobility ranks, the first statues.

Rulebook "Setup" and "Placing the First Statue"; house rules 4.5 region tiles. Each phase here is a
set of functions the phase table (phases.py) names: ``sample``/``validate``/``outcomes``/``apply``
for chance, ``seats``/``legal``/``check``/``apply`` for players.
"""

from __future__ import annotations

import itertools
import random
from math import factorial
from typing import Mapping

from domain.engine import IllegalAction

from . import data as D
from .state import Rules, TumultState, field_types, new_round, permutation_of, ranks_of

FIRST_STATUE = "rulebook Placing the First Statue"


def initial_state(rules: Rules, n: int, options: Mapping) -> TumultState:
    start = D.START_SUPPORTERS[n]
    return {
        "n": n,
        "options": dict(options),  # type: ignore[typeddict-item]
        "phase": "regions",
        "round": 0,
        "regions": None,
        "boxed": None,
        "face_up": [p not in D.FACE_DOWN[n] for p in range(2 * D.COLUMNS[n])],
        "board": [None] * D.num_fields(n),
        "ranks": None,
        "supporters": [start] * n,
        "pool": D.SUPPORTER_TOTAL - start * n,  # unbounded: may go below 0 [PROPOSAL 4.5]
        "statues_left": [D.STATUES] * n,
        "chronicle": [],
        "mercy": [False] * n,
        "demand": None,
        "turn": None,
        "layout": None,
        "set_aside": [],
        "centre": list(range(D.NUM_TILES)),
        "castle": [[] for _ in range(n)],
        "spent": [],
        "hand": [None] * n,
        "revealed": False,
        "collecting": [False] * n,
        "ready": [False] * n,
        "peeks": [0] * n,
        "passed": [False] * n,
        "placed_round": [0] * n,
        "greedy": [False] * n,
        "reveals_left": 0,
        "last_tumults": None,
        "winner25": None,
        "end": None,
    }


# -- the region tiles (hidden) ------------------------------------------------------------------
def sample_regions(state: TumultState, rng: random.Random) -> dict:
    return {"type": "regions", "order": rng.sample(range(1, 11), 10)}


def validate_regions(state: TumultState, outcome: dict) -> None:
    if outcome["type"] != "regions":
        raise IllegalAction("chance", "a 'regions' outcome is expected")
    permutation_of(outcome, "order", list(range(1, 11)), "the region tiles 1-10")


def apply_regions(rules: Rules, s: TumultState, outcome: dict) -> None:
    k = 2 * D.COLUMNS[s["n"]]
    s["regions"] = outcome["order"][:k]
    s["boxed"] = outcome["order"][k:]
    s["phase"] = "deal"


# -- the deal of the ranks (public, listed) -------------------------------------------------------
def deal_outcomes(state: TumultState) -> list:
    n = state["n"]
    p = 1 / factorial(n)
    return [({"type": "deal", "ranks": list(perm)}, p) for perm in itertools.permutations(range(1, n + 1))]


def sample_deal(state: TumultState, rng: random.Random) -> dict:
    return {"type": "deal", "ranks": rng.sample(range(1, state["n"] + 1), state["n"])}


def apply_deal(rules: Rules, s: TumultState, outcome: dict) -> None:
    s["ranks"] = list(outcome["ranks"])
    s["phase"] = "first-statues"
    s["turn"] = ranks_of(s).index(s["n"])  # the lowest rank starts


# -- the first statues --------------------------------------------------------------------------
def turn_seat(rules: Rules, state: TumultState) -> list:
    return [state["turn"]]


def legal_first_statue(rules: Rules, state: TumultState, seat: int) -> list:
    board = state["board"]
    return [{"type": "first-statue", "field": f} for f, t in enumerate(field_types(state))
            if t == "P" and board[f] is None]


def check_first_statue(rules: Rules, state: TumultState, seat: int, action: dict) -> None:
    if action["type"] != "first-statue" or set(action) != {"type", "field"}:
        raise IllegalAction(FIRST_STATUE, "place your first statue now: {'type': 'first-statue', 'field': f}")
    f = action["field"]
    if type(f) is not int or not 0 <= f < len(state["board"]):
        raise IllegalAction(FIRST_STATUE, "no such field")
    if field_types(state)[f] != "P":
        raise IllegalAction(FIRST_STATUE, "the first statue must go on a pasture")
    if state["board"][f] is not None:
        raise IllegalAction(FIRST_STATUE, "that pasture is occupied")


def apply_first_statue(rules: Rules, s: TumultState, seat: int, action: dict) -> None:
    s["board"][action["field"]] = seat
    s["statues_left"][seat] -= 1
    rank = ranks_of(s)[seat]
    if rank == 1:  # the king places last, then round 1 begins
        new_round(s)
    else:
        s["turn"] = ranks_of(s).index(rank - 1)
