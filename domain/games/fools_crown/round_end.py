"""The end of a round (rulebook "Played cards are discarded and hands refill to five playable cards";
house rule 3.4 step 7) and the safety cap (house rule 3.4 "Optional safety cap: after 30 rounds")."""

from __future__ import annotations

from .deck import run_draws
from .state import CAP_ROUNDS, HAND_SIZE, FoolsCrownState, RoundSummary, Rules, refill_order


def summary(s: FoolsCrownState) -> RoundSummary:
    """The previous round in brief, for the observation (the full resolution is in the event list)."""
    return {"round": s["round"], "winner": s["winner"], "claimed": s["claimed"]}


def cleanup(rules: Rules, s: FoolsCrownState) -> None:
    """Committed cards to the discard pile; after round 30 (with the cap) the match ends; otherwise the
    next round: with seat-order commits the lead passes left of the round winner (no winner: left of the
    leader, FC-ORDER), and every hand refills to five, clockwise from the seat left of the round's winner
    (FC-REFILL, since 1.2.0; before, from seat 0)."""
    n = s["players"]
    order = refill_order(rules, n, s["winner"], s["round"])
    s["last"] = summary(s)
    for c in s["commits"]:
        if c is not None:
            s["discard"].extend(c)
    s["commits"] = [None] * n
    if s["options"]["safety_cap"] and s["round"] >= CAP_ROUNDS:
        s["stage"] = "over"
        # The match's winner, as ``result`` ranks it (most Crowns, then Jokers): a view read "no winner"
        # while the result ranked one seat first alone. A shared first rank names none.
        keys = [(len(s["crowns"][i]), len(s["jokers"][i])) for i in range(n)]
        first = [i for i in range(n) if keys[i] == max(keys)]
        s["end"] = {"reason": "safety-cap", "winner": first[0] if len(first) == 1 else None, "rounds": s["round"]}
        return
    if s["leader"] is not None:
        s["leader"] = ((s["winner"] if s["winner"] is not None else s["leader"]) + 1) % n
    s["round"] += 1
    s["done"] = [False] * n
    s["exchanged"] = [None] * n
    s["gambled"] = [0] * n
    s["rolls"] = [None] * n
    s["outcome"] = None
    s["tiebreak"] = None
    s["winner"] = None
    s["claimed"] = None
    s["draws"] = [[i, HAND_SIZE - len(s["hands"][i])] for i in order if len(s["hands"][i]) < HAND_SIZE]
    run_draws(rules, s)
