"""Resolving a round (rulebook; house rule 3.4 steps 3-5), the AUTO step ``resolve-round``: Battle
Strength of every commit, who qualified, and the round winner (or the tied seats, or nobody)."""

from __future__ import annotations

from domain.engine import Actor

from .cards import NOBLE, SUIT, VALUE
from .claim import enter_claim
from .round_end import cleanup
from .state import QUALIFY, FoolsCrownState, Resolution, Rules


def commit_strength(cards: list[str], crowns: list[str], jokers: int) -> dict:
    """Battle Strength of a commit (rulebook "Add your two cards together, plus any bonuses"; house
    rule 3.4 step 3): card values, Royal Alliance +1 (Noble and Squire of one suit), Crown Alliance +1
    (a Royal Alliance in the suit of a Crown held), +1 per Joker held."""
    a, b = cards
    base = VALUE[a] + VALUE[b]
    royal = crown = 0
    if NOBLE[a] != NOBLE[b] and SUIT[a] == SUIT[b]:
        royal = 1
        if ("A" + SUIT[a]) in crowns:
            crown = 1
    return {
        "cards": base,
        "royal_alliance": royal,
        "crown_alliance": crown,
        "jokers": jokers,
        "total": base + royal + crown + jokers,
    }


def resolution(state: FoolsCrownState) -> Resolution:
    """Rulebook: "A total of 6–12 qualifies ... Among qualifiers, the highest Battle Strength is the
    round winner. If the highest strengths tie, use the Roll Tiebreaker"; no qualifier, no winner."""
    n = state["players"]
    strengths: list = [None] * n
    bonuses: list = [None] * n
    for i in range(n):
        cards = state["commits"][i]
        if cards is not None:
            detail = commit_strength(cards, state["crowns"][i], len(state["jokers"][i]))
            bonuses[i] = detail
            strengths[i] = detail["total"]
    rolls = state["rolls"]
    qualified = [i for i in range(n) if rolls[i] is not None and sum(rolls[i]) >= QUALIFY]  # type: ignore[arg-type]
    winner = None
    tied: list[int] = []
    if qualified:
        best = max(strengths[i] for i in qualified)
        top = [i for i in qualified if strengths[i] == best]
        if len(top) == 1:
            winner = top[0]
        else:
            tied = top
    return {
        "type": "resolve-round",
        "round": state["round"],
        "commits": [list(c) if c is not None else None for c in state["commits"]],
        "strengths": strengths,
        "bonuses": bonuses,
        "rolls": [list(r) if r is not None else None for r in rolls],
        "qualified": qualified,
        "winner": winner,
        "tied": tied,
    }


def apply(rules: Rules, s: FoolsCrownState, actor: Actor, step: dict) -> None:
    """The checked step equals ``resolution(state)`` (``check_system``), so it is the round's outcome."""
    outcome = resolution(s)
    s["outcome"] = outcome
    if outcome["winner"] is not None:
        enter_claim(rules, s, outcome["winner"])
    elif outcome["tied"]:
        s["stage"] = "tiebreak"
        s["tiebreak"] = {"seats": list(outcome["tied"]), "rolls": [None] * len(outcome["tied"])}
    else:
        cleanup(rules, s)
