"""Steps 1 and 2 of a round: the shuffle, the spinner, the ready question, and tax collection.

Rulebook "1. Know What the People Want" and "2. Get Taxes"; house rules 4.5 digital tax collection
(live, timed) and its asynchronous mode. Since 1.1.0 a live collection opens with a ready step: "it's
important to decide which commodities you want to take ... The king or queen then asks everyone if
they're ready to play. Once everyone is ready, the king flips the hourglass" (rulebook step 2). The
ready step is itself bounded by a server timer so that nobody can stall a match; when it runs out,
the hourglass is turned all the same.
"""

from __future__ import annotations

import random

from domain.engine import IllegalAction, Timer

from . import data as D
from .state import Rules, TumultState, keys, layout_of, live, order, permutation_of, set_aside_count

TAX = "rulebook 2 Get Taxes"
DIGITAL = "house rule 4.5 digital tax collection"
READY = "rulebook 2 Get Taxes (ready before the hourglass)"
CLOSE_TAX = {"type": "close-tax"}
START_TAX = {"type": "start-tax"}


# -- the shuffle (hidden) and the spinner (public, listed) ----------------------------------------
def sample_shuffle(state: TumultState, rng: random.Random) -> dict:
    return {"type": "shuffle", "order": rng.sample(range(D.NUM_TILES), D.NUM_TILES)}


def validate_shuffle(state: TumultState, outcome: dict) -> None:
    if outcome["type"] != "shuffle":
        raise IllegalAction("chance", "a 'shuffle' outcome is expected")
    permutation_of(outcome, "order", list(range(D.NUM_TILES)), "the 39 tiles")


def apply_shuffle(rules: Rules, s: TumultState, outcome: dict) -> None:
    """The first ``k`` tiles of the order set aside unseen, the other 39 - k face down in the centre slots
    0..38-k: k = 12 in all, so 27 slots [PROPOSAL 4.5, the option set_aside "total", every version's
    default], or since 1.2.0 with "per-player" 3 a player [RULEBOOK l.313], so 33/30/27 slots with 2/3/4."""
    tiles = outcome["order"]
    k = set_aside_count(s)
    s["set_aside"] = tiles[:k]
    s["layout"] = tiles[k:]
    s["centre"] = []
    s["revealed"] = False
    if s["options"]["gamble"]:  # the gamble variant spins after the collection [PROPOSAL 4.5]
        begin_collection(rules, s)
    else:
        s["phase"] = "spin"


def spin_outcomes(state: TumultState) -> list:
    return [({"type": "spin", "value": v}, 1 / len(D.SPINNER)) for v in D.SPINNER]


def sample_spin(state: TumultState, rng: random.Random) -> dict:
    return {"type": "spin", "value": rng.choice(D.SPINNER)}


def apply_spin(rules: Rules, s: TumultState, outcome: dict) -> None:
    s["demand"] = outcome["value"]
    if s["revealed"]:  # gamble variant: spun after tax collection
        s["phase"] = "tumults"
    else:
        begin_collection(rules, s)


def begin_collection(rules: Rules, s: TumultState) -> None:
    """Since 1.1.0 a live collection waits for everyone to be ready; the asynchronous mode has no
    hourglass to turn (each turn is unhurried), so it starts at once, as in 1.0.0."""
    if rules.ready_step and live(s):
        s["phase"] = "ready"
        s["ready"] = [False] * s["n"]
        s["turn"] = None
    else:
        start_tax(s)


# -- the ready step (1.1.0, live mode) -----------------------------------------------------------
def ready_seats(rules: Rules, state: TumultState) -> list:
    return [seat for seat, ready in enumerate(state["ready"]) if not ready]


def legal_ready(rules: Rules, state: TumultState, seat: int) -> list:
    return [{"type": "ready"}]


def check_ready(rules: Rules, state: TumultState, seat: int, action: dict) -> None:
    if action["type"] != "ready" or set(action) != {"type"}:
        raise IllegalAction(READY, "the hourglass is not turned yet: say {'type': 'ready'} when you are")


def apply_ready(rules: Rules, s: TumultState, seat: int, action: dict) -> None:
    s["ready"][seat] = True
    if all(s["ready"]):  # "Once everyone is ready, the king flips the hourglass"
        start_tax(s)


def ready_timer(rules: Rules, state: TumultState) -> Timer:
    return Timer(f"ready-{state['round']}", state["options"]["ready_seconds"])


def apply_ready_timeout(rules: Rules, s: TumultState, step: dict) -> None:
    start_tax(s)  # the ready question is bounded: time is up, the hourglass turns


# -- tax collection ------------------------------------------------------------------------------
def start_tax(s: TumultState) -> None:
    n = s["n"]
    s["phase"] = "tax"
    s["collecting"] = [True] * n
    s["peeks"] = [0] * n
    s["hand"] = [None] * n
    s["turn"] = order(s)[0] if not live(s) else None  # async: the king (hourglass holder) first


def tax_seats(rules: Rules, state: TumultState) -> list:
    if live(state):
        return [seat for seat, collecting in enumerate(state["collecting"]) if collecting]
    return [state["turn"]]


def peekable(state: TumultState) -> list:
    held = set(h for h in state["hand"] if h is not None)
    return [i for i, t in enumerate(layout_of(state)) if t is not None and i not in held]


def legal_tax(rules: Rules, state: TumultState, seat: int) -> list:
    if state["hand"][seat] is not None:
        return [{"type": "keep"}, {"type": "return"}]
    actions = []
    if live(state) or state["peeks"][seat] < D.ASYNC_PEEKS:
        actions = [{"type": "peek", "tile": i} for i in peekable(state)]
    actions.append({"type": "done"})
    return actions


def check_tax(rules: Rules, state: TumultState, seat: int, action: dict) -> None:
    kind = action["type"]
    hand = state["hand"][seat]
    if kind == "peek":
        keys(action, {"type", "tile"}, TAX)
        i = action["tile"]
        if hand is not None:
            raise IllegalAction(TAX, "you may look at only one tile at a time: keep or return it first")
        if not live(state) and state["peeks"][seat] >= D.ASYNC_PEEKS:
            raise IllegalAction("house rule 4.5 asynchronous mode", "you have used your 8 peeks")
        if type(i) is not int or not 0 <= i < len(layout_of(state)) or layout_of(state)[i] is None:
            raise IllegalAction(TAX, "that is not a face-down tile in the centre")
        if i in state["hand"]:
            raise IllegalAction(DIGITAL, "another player holds that tile")
        return
    if kind in ("keep", "return"):
        keys(action, {"type"}, TAX)
        if hand is None:
            raise IllegalAction(TAX, "you hold no tile")
        return
    if kind == "done":
        keys(action, {"type"}, TAX)
        if hand is not None:
            raise IllegalAction(TAX, "keep or return the tile in your hand first")
        return
    raise IllegalAction(TAX, f"unknown tax-collection action {kind!r}")


def apply_tax(rules: Rules, s: TumultState, seat: int, action: dict) -> None:
    kind = action["type"]
    if kind == "peek":
        s["hand"][seat] = action["tile"]
        s["peeks"][seat] += 1
        return
    if kind == "keep":  # onto the castle board, face down, for good
        slot = s["hand"][seat]
        s["castle"][seat].append(layout_of(s)[slot])
        layout_of(s)[slot] = None
        s["hand"][seat] = None
    elif kind == "return":
        s["hand"][seat] = None
    else:  # done
        s["collecting"][seat] = False
    if not live(s) and s["peeks"][seat] >= D.ASYNC_PEEKS:
        s["collecting"][seat] = False
    if not any(s["collecting"]):  # everyone is done: no need to wait for the hourglass [ENGINE]
        close_tax(s)
        return
    if not live(s):  # async: the next seat still collecting, in rank order
        seats = order(s)
        i = seats.index(seat)
        for k in range(1, len(seats) + 1):
            following = seats[(i + k) % len(seats)]
            if s["collecting"][following]:
                s["turn"] = following
                break


def tax_timer(rules: Rules, state: TumultState) -> Timer:
    return Timer(f"tax-{state['round']}", state["options"]["tax_seconds"])


def apply_tax_timeout(rules: Rules, s: TumultState, step: dict) -> None:
    close_tax(s)


def close_tax(s: TumultState) -> None:
    """The hourglass has run out (or all are done): tiles still in hand go back face down [PROPOSAL
    4.5], then every tile in the centre and in the castles is revealed (rulebook step 2)."""
    s["hand"] = [None] * s["n"]
    s["collecting"] = [False] * s["n"]
    s["centre"] = sorted(t for t in layout_of(s) if t is not None)
    s["layout"] = None
    s["revealed"] = True
    s["turn"] = None
    s["phase"] = "spin" if s["demand"] is None else "tumults"

