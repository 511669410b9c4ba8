"""The dice (rulebook; house rule 3.4 steps 4-5): one qualification roll of two dice per committed seat,
in seat order, and the tiebreak rolls of the tied highest qualifiers ("highest tiebreak roll wins, and
ties reroll"). Every roll is a public CHANCE step of 36 equally likely outcomes; face 1 is the Joker face
and counts 1."""

from __future__ import annotations

import random
from typing import Optional

from domain.engine import Actor

from .claim import enter_claim
from .state import FoolsCrownState, Rules

FACES = range(1, 7)


def roll_seat(state: FoolsCrownState) -> Optional[int]:
    """The seat whose roll is due: in ``roll`` the next committed seat without dice, in ``tiebreak`` the
    next tied seat without a tiebreak roll."""
    if state["stage"] == "roll":
        for i in range(state["players"]):
            if state["commits"][i] is not None and state["rolls"][i] is None:
                return i
    if state["stage"] == "tiebreak":
        tiebreak = state["tiebreak"]
        assert tiebreak is not None
        for index, seat in enumerate(tiebreak["seats"]):
            if tiebreak["rolls"][index] is None:
                return seat
    return None


def _outcomes(kind: str, seat: Optional[int]) -> list[tuple[dict, float]]:
    return [({"type": kind, "seat": seat, "dice": [a, b]}, 1 / 36) for a in FACES for b in FACES]


def roll_outcomes(state: FoolsCrownState) -> list[tuple[dict, float]]:
    return _outcomes("roll", roll_seat(state))


def tiebreak_outcomes(state: FoolsCrownState) -> list[tuple[dict, float]]:
    return _outcomes("tiebreak-roll", roll_seat(state))


def sample_roll(state: FoolsCrownState, rng: random.Random) -> dict:
    kind = "roll" if state["stage"] == "roll" else "tiebreak-roll"
    return {"type": kind, "seat": roll_seat(state), "dice": [rng.randint(1, 6), rng.randint(1, 6)]}


def apply_roll(rules: Rules, s: FoolsCrownState, actor: Actor, outcome: dict) -> None:
    s["rolls"][outcome["seat"]] = list(outcome["dice"])
    if roll_seat(s) is None:
        s["stage"] = "resolve"


def apply_tiebreak_roll(rules: Rules, s: FoolsCrownState, actor: Actor, outcome: dict) -> None:
    tiebreak = s["tiebreak"]
    assert tiebreak is not None
    tiebreak["rolls"][tiebreak["seats"].index(outcome["seat"])] = list(outcome["dice"])
    if roll_seat(s) is not None:
        return
    totals = [sum(r) for r in tiebreak["rolls"] if r is not None]
    best = max(totals)
    top = [seat for seat, total in zip(tiebreak["seats"], totals) if total == best]
    if len(top) == 1:
        s["tiebreak"] = {"seats": list(tiebreak["seats"]), "rolls": list(tiebreak["rolls"]), "winner": top[0]}
        enter_claim(rules, s, top[0])
    else:  # ties reroll, among the tied highest only
        s["tiebreak"] = {"seats": top, "rolls": [None] * len(top)}
