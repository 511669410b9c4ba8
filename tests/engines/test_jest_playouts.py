"""Jest: 500 random playouts per player count through the contract harness, with secrecy,
redaction and card-conservation checks (house rules §2.5: 17 cards, 3p 2 trophies, 4p 1 trophy)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.engine import CHANCE, SYSTEM
from domain.games.jest import CARDS, ENGINE, in_card_order
from tests.engines.harness import random_playout

E = ENGINE
CARD_SET = frozenset(CARDS)
PLAYOUTS = 500
FULL_CHECKS = 100  # this many playouts per player count check purity at every step


def _codes(value, found=None):
    """Every card code appearing anywhere (keys or values) in a JSON value."""
    if found is None:
        found = []
    if isinstance(value, str):
        if value in CARD_SET:
            found.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _codes(key, found)
            _codes(item, found)
    elif isinstance(value, list):
        for item in value:
            _codes(item, found)
    return found


def _visible(state, seat):
    """The cards ``seat`` (None: a spectator) may see in ``state``."""
    if state["phase"] == "over":
        return set(CARDS)
    allowed = set(state["trophies"])
    allowed |= {card for cards in state.get("taken_up", []) for card in cards}  # public: seen taken face up
    if state["phase"] != "offer":  # face-up cards are public once every offer is in
        allowed |= {offer["up"] for offer in state["offers"] if offer is not None and offer["up"]}
    if seat is not None:
        allowed |= set(state["hands"][seat]) | set(state["jests"][seat])
        own = state["offers"][seat]
        if own is not None:
            allowed |= {card for card in own.values() if card}
    return allowed


def check_observation(state, seat, observation):
    leaked = set(_codes(observation)) - _visible(state, seat)
    assert not leaked, f"seat {seat} sees {leaked} in phase {state['phase']}"
    assert observation["seat"] == seat
    assert sorted(observation["hand"]) == sorted(state["hands"][seat])
    assert sorted(observation["jest"]) == sorted(state["jests"][seat])
    assert observation["jest_counts"] == [len(jest) for jest in state["jests"]]
    assert observation["deck_count"] == len(state["deck"])
    if state["phase"] == "offer":
        for other, offer in enumerate(observation["offers"]):
            if other != seat:
                assert offer == {"offered": state["offers"][other] is not None}
    public = E.public_observation(state)
    leaked = set(_codes(public)) - _visible(state, None)
    assert not leaked, f"spectators see {leaked}"
    if state["phase"] == "over":
        # Rules 1.2.0: each final Jest in card order, not the order taken (test_jest_final_order.py).
        assert public["jests"] == [in_card_order(jest) for jest in state["jests"]]
        assert public["scores"] == state["scores"]
        assert observation["jests"] == public["jests"] and observation["jest"] == state["jests"][seat]


def invariant(state):
    """Conservation: hands + offers + Jests + deck + trophies hold the 17 cards exactly once."""
    cards = list(state["trophies"]) + list(state["deck"])
    for seat in range(state["n"]):
        cards += state["hands"][seat] + state["jests"][seat]
        offer = state["offers"][seat]
        if offer is not None:
            cards += [card for card in (offer["up"], offer["down"]) if card is not None]
    if state["round"] == 0:
        assert cards == []
    else:
        counts = Counter(cards)
        assert len(cards) == 17 and set(counts) == CARD_SET, counts


def check_redaction(playout, n):
    for before, (actor, action) in zip(playout.states, playout.log):
        for viewer in [None, *range(n)]:
            if viewer == actor:
                continue
            shown = E.redact(before, actor, action, viewer)
            if actor == CHANCE:
                assert shown is None
                continue
            leaked = set(_codes(shown)) - set(before["trophies"])
            assert not leaked, f"{actor} {action} shows {leaked} to {viewer}"
            if action["type"] == "offer":
                assert shown == {"type": "offer"}


def check_shape(playout, n):
    final = playout.final
    trophies, rounds, jest_size = {3: (2, 4, 5), 4: (1, 3, 4)}[n]
    offers = [action for actor, action in playout.log if action["type"] == "offer"]
    takes = [action for actor, action in playout.log if action["type"] == "take"]
    shuffles = [action for actor, action in playout.log if actor == CHANCE]
    assert len(offers) == len(takes) == n * rounds and len(shuffles) == rounds
    assert [len(s["order"]) for s in shuffles] == [17] + [2 * n] * (rounds - 1)
    actor, last = playout.log[-1]
    assert actor == SYSTEM and last["type"] == "final-scoring"
    assert len(last["trophies"]) == trophies
    won = Counter(seat for seat in last["trophies"].values() if seat is not None)
    assert [len(final["jests"][s]) for s in range(n)] == [jest_size + won[s] for s in range(n)]
    result = E.result(final)
    assert list(result.scores) == last["scores"] == final["scores"]
    assert sorted(result.ranks) == list(range(1, n + 1))  # R7 breaks every tie


def _playouts(n, count, full_checks):
    for seed in range(count):
        full = seed < full_checks
        playout = random_playout(
            E,
            n,
            seed=seed,
            check_observation=check_observation,
            invariant=invariant,
            check_purity_every=1 if full else 50,
        )
        check_shape(playout, n)
        check_redaction(playout, n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4])
def test_random_playouts(n):
    _playouts(n, PLAYOUTS, FULL_CHECKS)


@pytest.mark.parametrize("n", [3, 4])
def test_a_few_random_playouts(n):
    """The fast tier's share of the above: every check, every step, on 30 playouts per count."""
    _playouts(n, 30, 30)
