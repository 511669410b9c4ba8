"""Le Bouffon's computer opponents say no more with their cards than a player at a table would: copies of
a kind are interchangeable (docs/rules/le-bouffon.md 1), so the copy a bot lays, gives or laughs with must
not depend on which other copies it holds (each level chose the lowest copy numbers: a bot laying
soldat-2#3 told every seat and spectator that it held neither #1 nor #2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.engine import CHANCE
from domain.games.le_bouffon import ENGINE
from domain.games.le_bouffon.bots import BOTS
from domain.games.le_bouffon.cards import DECK

ROLES = ["roi", "héritier", "ouvrier", "bouffon"]


def answering(bot_cards: list[str], rng: random.Random) -> dict:
    """Four players; the roi (seat 0) has led soldat-1#1 and the héritier (seat 1), holding ``bot_cards``
    and nothing else weak enough to answer with, is to act."""
    state = ENGINE.step(ENGINE.initial_state(4, {"deals": 1}), CHANCE, {"type": "roles", "roles": ROLES})
    low = [card for card in DECK[1] if card.startswith(("soldat-1#", "soldat-2#"))
           and card not in bot_cards and card != "soldat-1#1"]
    high = [card for card in DECK[1] if not card.startswith(("soldat-1#", "soldat-2#"))]
    rng.shuffle(high)
    hands = {0: ["soldat-1#1"], 1: list(bot_cards), 2: [], 3: []}
    for card in low:  # the other weak cards go to the other seats
        next(hands[seat] for seat in (3, 0, 2) if len(hands[seat]) < (14, 14, 13, 13)[seat]).append(card)
    for seat, size in enumerate((14, 14, 13, 13)):
        while len(hands[seat]) < size:
            hands[seat].append(high.pop())
        rng.shuffle(hands[seat])
    state = ENGINE.step(state, CHANCE, {"type": "shuffle", "order": [hands[i % 4][i // 4] for i in range(54)]})
    return ENGINE.step(state, 0, {"type": "play", "cards": ["soldat-1#1"]})


@pytest.mark.parametrize("level, tries", [("basic", 40), ("mcts", 12)])
def test_the_copy_a_bot_lays_says_nothing_of_its_other_copies(level, tries):
    laid = Counter()
    for seed in range(tries):
        state = answering(["soldat-2#1", "soldat-2#3"], random.Random(seed))
        action = BOTS[level](ENGINE.observe(state, 1), ENGINE.legal_actions(state, 1), random.Random(seed))
        assert ENGINE.legal_actions(state, 1).count(action) == 1
        laid[tuple(action.get("cards", []))] += 1
    # Both copies come (each with probability 1/2 when a soldat-2 is laid); the lowest always came.
    assert laid[("soldat-2#1",)] > 0 and laid[("soldat-2#3",)] > 0, laid


def test_a_bounded_search_stays_copy_blind():
    bounded = BOTS["mcts"].with_budget(seconds=5.0, clock=lambda: 0.0)
    laid = Counter()
    for seed in range(12):
        state = answering(["soldat-2#1", "soldat-2#3"], random.Random(seed))
        laid[tuple(bounded(ENGINE.observe(state, 1), ENGINE.legal_actions(state, 1), random.Random(seed))
                   .get("cards", []))] += 1
    assert laid[("soldat-2#1",)] > 0 and laid[("soldat-2#3",)] > 0, laid
