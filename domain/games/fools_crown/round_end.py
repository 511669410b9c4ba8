"""The end of a round (rulebook "Played cards are discarded and hands refill to five playable cards";
house rule 3.4 step 7) and the safety cap (house rule 3.4 "Optional safety cap: after 30 rounds")."""

from __future__ import annotations

from .deck import run_draws
from .state import HAND_SIZE, FoolsCrownState, RoundSummary, Rules, at_cap, end_at_cap, refill_order


def summary(s: FoolsCrownState) -> RoundSummary:
    """The previous round in brief, for the observation (the full resolution is in the event list): its
    winner and claim, and what its resolution showed everyone (every commit in full, the qualification
    dice, the strengths, who qualified). With the claim the round's table was cleared and a client kept
    only "X won and claimed A♥" (a web-play probe); all of it was public from the resolution on."""
    out = s["outcome"]
    return {"round": s["round"], "winner": s["winner"], "claimed": s["claimed"],
            "commits": [None if c is None else list(c) for c in s["commits"]] if out is not None else None,
            "rolls": [None if r is None else list(r) for r in s["rolls"]] if out is not None else None,
            "strengths": None if out is None else list(out["strengths"]),
            "qualified": None if out is None else list(out["qualified"])}


def cleanup(rules: Rules, s: FoolsCrownState) -> None:
    """Committed cards to the discard pile, then the next round: with seat-order commits the lead passes
    left of the round winner (no winner: left of the leader, FC-ORDER), and every hand refills to five,
    clockwise from the seat left of the round's winner (FC-REFILL, since 1.2.0; before, from seat 0).

    At the safety cap (round 30, with the cap) no next round starts: since 1.4.0 (FC-CAP) round 30's
    refill is still carried out, in the same order, and the match ends once its draws are done
    (``deck.after_draws``: ``last`` is then this round's summary, which it is only after this cleanup);
    1.0.1 to 1.3.0 ended the match here, before the refill."""
    n = s["players"]
    order = refill_order(rules, n, s["winner"], s["round"])
    s["last"] = summary(s)
    for c in s["commits"]:
        if c is not None:
            s["discard"].extend(c)
    s["commits"] = [None] * n
    capped = at_cap(s)
    if capped and not rules.refill_at_cap:
        end_at_cap(s)
        return
    if not capped:
        if s["leader"] is not None:
            s["leader"] = ((s["winner"] if s["winner"] is not None else s["leader"]) + 1) % n
        s["round"] += 1
        s["done"] = [False] * n
        s["exchanged"] = [None] * n
        s["exchange_discards"] = [None] * n
        s["gambled"] = [0] * n
        s["rolls"] = [None] * n
        s["outcome"] = None
        s["tiebreak"] = None
        s["winner"] = None
        s["claimed"] = None
    s["draws"] = [[i, HAND_SIZE - len(s["hands"][i])] for i in order if len(s["hands"][i]) < HAND_SIZE]
    run_draws(rules, s)
