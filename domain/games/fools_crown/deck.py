"""The draw deck: the initial shuffle and deal, draws (Jokers kept and replaced), the gamble's shuffle of
the sacrificed Joker into the live deck, and the reshuffle of the discard pile.

Every draw of the game is followed by the commit phase (the deal, a gamble, a Noble Exchange, the refill
of cleanup), so once the pending draws are done, play goes (back) to the commits: ``after_draws``; but
the refill of the safety cap's last round ends the match (FC-CAP, since 1.4.0).
"""

from __future__ import annotations

import random
from collections import Counter

from domain.engine import Actor, IllegalAction

from .cards import DRAW_DECK, JOKER_SET
from .state import GAME, HAND_SIZE, FoolsCrownState, Rules, at_cap, end_at_cap, seat_order

SHUFFLES = ("shuffle", "gamble-shuffle", "reshuffle")


def shuffle_pool(state: FoolsCrownState) -> list[str]:
    """The cards a shuffle of this stage orders: the whole draw deck at the start; the live deck and
    the sacrificed Joker for a gamble (rulebook "The Joker is shuffled into the live draw deck before
    replacements are drawn"); the discard pile for a reshuffle."""
    stage = state["stage"]
    if stage == "shuffle":
        return list(DRAW_DECK)
    if stage == "gamble-shuffle":
        gamble = state["gamble"]
        assert gamble is not None
        return state["deck"] + [gamble["joker"]]
    if stage == "reshuffle":
        return list(state["discard"])
    return []


def sample_shuffle(state: FoolsCrownState, rng: random.Random) -> dict:
    order = shuffle_pool(state)
    rng.shuffle(order)
    return {"type": "shuffle", "order": order}


def validate_shuffle(state: FoolsCrownState, outcome: dict) -> None:
    """A shuffle is ``{"type": "shuffle", "order": [...]}``, a permutation of exactly the cards shuffled."""
    if set(outcome) != {"type", "order"} or outcome["type"] != "shuffle":
        raise IllegalAction(f"{GAME} chance", "a shuffle is {'type': 'shuffle', 'order': [...]}")
    order = outcome["order"]
    if type(order) is not list or not all(type(c) is str for c in order):
        raise IllegalAction(f"{GAME} chance", "the shuffle order is a list of card codes")
    if Counter(order) != Counter(shuffle_pool(state)):
        raise IllegalAction(f"{GAME} chance", "the shuffle order is not a permutation of the cards shuffled")


def apply_deal(rules: Rules, s: FoolsCrownState, actor: Actor, outcome: dict) -> None:
    """The initial shuffle, then five cards to each seat, one at a time in seat order (FC-DEAL)."""
    s["deck"] = list(outcome["order"])
    s["draws"] = [[i, 1] for _ in range(HAND_SIZE) for i in range(s["players"])]
    run_draws(rules, s)


def apply_gamble_shuffle(rules: Rules, s: FoolsCrownState, actor: Actor, outcome: dict) -> None:
    """The deck with the Joker shuffled in; the gambler draws back to five (rulebook)."""
    gamble = s["gamble"]
    assert gamble is not None
    s["deck"] = list(outcome["order"])
    s["gamble"] = None
    s["draws"] = [[gamble["seat"], gamble["count"]]]
    run_draws(rules, s)


def apply_reshuffle(rules: Rules, s: FoolsCrownState, actor: Actor, outcome: dict) -> None:
    """Rulebook "The discard pile is reshuffled if the draw deck runs out": the pile is the new deck;
    the draws it interrupted go on."""
    s["deck"] = s["deck"] + list(outcome["order"])
    s["discard"] = []
    run_draws(rules, s)


def run_draws(rules: Rules, s: FoolsCrownState) -> None:
    """Carry out the pending draws in order. A Joker drawn is revealed, kept and replaced (rulebook
    "Drawn Jokers are revealed and replaced"). When the deck runs out, the discard pile is reshuffled
    (a CHANCE step, stage ``reshuffle``): since 1.1.0 as soon as the last card is drawn (FC-DRAW), in
    1.0.1 only once another card had to be drawn."""
    draws = s["draws"]
    while draws:
        seat, count = draws[0]
        if count <= 0:
            draws.pop(0)
            continue
        if not s["deck"]:
            if s["discard"]:
                s["stage"] = "reshuffle"
                return
            draws.pop(0)  # nothing left anywhere to draw (cannot happen with 2-4 players)
            continue
        card = s["deck"].pop(0)
        if card in JOKER_SET:
            s["jokers"][seat].append(card)
        else:
            s["hands"][seat].append(card)
            draws[0][1] = count - 1
        if rules.reshuffle_at_once and not s["deck"] and s["discard"]:
            s["stage"] = "reshuffle"
            return
    after_draws(rules, s)


def after_draws(rules: Rules, s: FoolsCrownState) -> None:
    """Every draw is followed by the commit phase; with seat-order commits, round 1 first draws its
    first committer at random (house rule 3.4 step 2 "round 1: random"). Since 1.4.0 (FC-CAP) the
    refill of the safety cap's last round is followed by the end of the match instead: that round's
    cleanup has happened (``last`` is its summary; any other round's cleanup starts the next round)."""
    last = s["last"]
    if rules.refill_at_cap and at_cap(s) and last is not None and last["round"] == s["round"]:
        end_at_cap(s)
    elif seat_order(s) and s["leader"] is None:
        s["stage"] = "first-player"
    else:
        open_commits(s)


def open_commits(s: FoolsCrownState) -> None:
    """The commit phase goes on until every seat has committed or exchanged; then the committed seats
    roll (rulebook "Every active player rolls two dice"), or, if nobody committed, the round is resolved
    at once (without a winner)."""
    s["stage"] = "commit"
    if all(s["done"]):
        s["stage"] = "roll" if any(c is not None for c in s["commits"]) else "resolve"
