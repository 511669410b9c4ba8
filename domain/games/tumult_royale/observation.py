"""What each seat and a spectator may see (docs/rules/tumult-royale.md, "Observations").

Every view is built of fresh lists and dicts: it shares nothing mutable with the state or with
another view (the engine contract), so a caller may change it freely.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Optional, Sequence

from domain.engine import copy_json

from . import data as D
from .state import TumultState

_CODES = tuple("BMT"[c] + str(v) for c, v in D.TILES)
_OWNER_CHARS = {None: ".", 0: "0", 1: "1", 2: "2", 3: "3"}


def codes(tiles) -> list:
    """Tiles as short codes, sorted: "B2" = a bread tile showing 2, "M" marble, "T" tools."""
    return list(_codes_cached(tuple(tiles))) if tiles else []


@lru_cache(maxsize=8192)
def _codes_cached(tiles: tuple) -> tuple:
    return tuple(_CODES[t] for t in sorted(tiles))


@lru_cache(maxsize=8192)
def _owner_rows(board: tuple, width: int) -> str:
    text = "".join([_OWNER_CHARS[o] for o in board])
    return "/".join(text[i: i + width] for i in range(0, len(text), width))


@lru_cache(maxsize=4096)
def _type_rows(n: int, regions: tuple, face_up: tuple) -> str:
    text = "".join("?" if t is None else t for t in D.field_types(n, regions, face_up))
    w = D.width(n)
    return "/".join(text[i: i + w] for i in range(0, len(text), w))


def view(state: TumultState, viewer: Optional[int], to_act: Sequence[int], result: Callable) -> dict:
    n = state["n"]
    phase = state["phase"]
    revealed = state["revealed"]
    obs: dict = {
        "seat": viewer,
        "phase": phase,
        "round": state["round"],
        "to_act": list(to_act),
        "demand": state["demand"],
        "ranks": list(state["ranks"]) if state["ranks"] else None,
        "supporters": list(state["supporters"]),
        "mercy": list(state["mercy"]),
        "statues_placed": [D.STATUES - x for x in state["statues_left"]],
        # the king of each filled chronicle space (spaces 1-5 hold 1 statue, 6-10 hold 2, but the
        # last one holds 1 when that was the king's 25th statue)
        "chronicle": [x[0] for x in state["chronicle"]],
        # The match's options, public in its view, are in the observation too: a computer reads only
        # its observation, and guessed the gamble variant from the phase (docs/architecture.md lets an
        # older version's observation gain a key of public information).
        "options": dict(state["options"]),
    }
    if state["regions"] is not None:
        # face-down region tiles show as None / "?" (their identity is secret to everyone)
        face_up = state["face_up"]
        obs["regions"] = [state["regions"][p] if face_up[p] else None for p in range(len(face_up))]
        # board rows joined by "/": one letter per field (P F M V C, "?" face down) ...
        obs["fields"] = _type_rows(n, tuple(state["regions"]), tuple(face_up))
        # ... and one character per field: "." empty, else the owner's seat digit
        obs["owners"] = _owner_rows(tuple(state["board"]), D.width(n))
    if phase in ("ready", "tax", "spin", "tumults", "placement", "round-end"):
        # kept tiles stay face down until the reveal: others see only how many a seat kept
        obs["castles"] = [codes(c) if (revealed or viewer == s) else len(c)
                          for s, c in enumerate(state["castle"])]
    if phase == "ready":
        obs["ready"] = list(state["ready"])  # who has answered the king's question
    layout = state["layout"]
    if layout is not None:
        marks = ["k" if t is None else "d" for t in layout]
        for h in state["hand"]:
            if h is not None:
                marks[h] = "h"
        obs["slots"] = "".join(marks)  # d face down, h held by a seat, k kept
        obs["holding"] = list(state["hand"])
        obs["collecting"] = list(state["collecting"])
        if state["options"]["tax_mode"] == "async":
            obs["peeks"] = list(state["peeks"])
        if viewer is not None:
            slot = state["hand"][viewer]
            if slot is not None:
                c, v = D.TILES[layout[slot]]
                obs["hand"] = {"slot": slot, "commodity": D.COMMODITIES[c], "value": v}
            else:
                obs["hand"] = None
    elif revealed:
        obs["centre"] = codes(state["centre"])
    if phase == "placement":
        obs["passed"] = list(state["passed"])
        obs["placed_this_round"] = list(state["placed_round"])
        obs["greedy"] = list(state["greedy"])
    if state["last_tumults"] is not None:
        obs["tumults"] = copy_json(state["last_tumults"]["tumults"])
    if phase == "reveal":
        obs["reveals_left"] = state["reveals_left"]
    if phase == "over":
        obs["result"] = result(state).to_json()
    return obs
