"""Jester: 300 random playouts per player count through the contract harness, with conservation
invariants (cards, markers, stamps, objects, nobles), hidden-information checks on every observation
and on the redacted event list, and every match ending after three rounds."""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from domain.engine import CHANCE, competition_ranks
from domain.games.jester import ENGINE, ENGINES
from domain.games.jester.core import markers_total
from domain.games.jester.data import DISCIPLINES, PLACES
from tests.engines.harness import random_playout

PUBLIC_KEYS = {"money", "vp", "fame", "hand_count", "table", "reserve", "guilds", "classes",
               "specialized", "objects", "order", "pawn", "round_classes"}


def invariant(state):
    n = state["n"]
    players = state["players"]
    # place cards: 10 of each place, in piles, hands or on the table (rulebook Components)
    for i in range(4):
        total = state["piles"][i] + sum(p["hand"][i] + p["table"][i] for p in players)
        assert total == 10, (PLACES[i], total)
        assert state["piles"][i] >= 0
    for s, p in enumerate(players):
        assert min(p["hand"]) >= 0 and min(p["table"]) >= 0 and max(p["table"]) <= 3
        assert markers_total(state, s) == 12, (s, p)  # 12 influence markers, some maybe boxed (P5)
        assert p["reserve"] >= 0 and min(p["guilds"]) >= 0
        assert p["money"] >= 0 and p["crowns"] >= 0 and p["vp"] >= 0
        assert 0 <= p["fame"] <= 13
        assert p["f13"] == (p["fame"] == 13) or p["f13"]
        assert len(set(p["round_stamps"])) == len(p["round_stamps"])  # one class per discipline
    removed = 1 if n == 2 else 0
    for i, d in enumerate(DISCIPLINES):
        stamps = state["city"][i] + state["pool"][i] + removed + sum(p["stamps"][i] for p in players)
        stamps += 1 if state["court"] else 0
        assert stamps == 4 if state["court"] else stamps == 3, (d, stamps)
        objects = state["objects"][i] + sum((p["order"] == d) + p["made"][i] for p in players)
        assert objects == 4, (d, objects)
    if state["court"]:
        assert sorted(state["court"]) == sorted(DISCIPLINES)
    roy = state["royalty"]
    assert all(roy[i - 1] is not None for i in range(1, 4) if roy[i] is not None)  # contiguous
    assert 0 <= sum(1 for c in state["chairs"] if c is not None) <= 10  # 10 nobles
    if state["stack"] and state["stack"][-1]["kind"] == "play":
        assert sum(players[state["stack"][-1]["seat"]]["hand"]) >= 1  # no turn ends with no card


def check_observation(state, seat, obs):
    assert obs["seat"] == seat
    assert obs["hand"] == state["players"][seat]["hand"]
    assert obs["my_crowns"] == state["players"][seat]["crowns"]
    assert set(obs["players"]) == PUBLIC_KEYS, set(obs["players"]) ^ PUBLIC_KEYS  # no hands, no crowns
    assert obs["players"]["hand_count"] == [sum(p["hand"]) for p in state["players"]]
    assert obs["events"] == state["events"][: state["round"]]  # the face-down events stay hidden
    assert "pool" not in obs and "stack" not in obs
    if not state["over"]:
        assert "crowns" not in obs


def check_redaction(playout, n):
    """The event list: shuffles hidden from all; since 1.2.0 every player action shown as played
    (where a card came from is public: docs/rules/jester.md, Hidden information); under 1.0.0 and
    1.1.0 the others saw a ``buy``, ``take-card`` or ``keep`` as ``"place": "hidden"``."""
    old = ENGINES["1.1.0"]
    for before, (actor, action) in zip(playout.states, playout.log):
        for viewer in list(range(n)) + [None]:
            shown = ENGINE.redact(before, actor, action, viewer)
            if actor == CHANCE:
                if action["type"] == "shuffle":  # face-down events, removed favors, stamps
                    assert shown is None
                continue
            assert shown == action and shown is not action
            shown_before = old.redact(before, actor, action, viewer)
            if viewer != actor and action["type"] in ("buy", "take-card", "keep"):
                assert shown_before["place"] == "hidden", (action, shown_before)
            else:
                assert shown_before == action
            json.dumps(shown)


def by_type(state, seat, legal, rng):
    """Random, but uniform over the kinds of action first (so "done", "no-buy", "defend"... are
    as likely as any one of the many moves); and, to keep 3000 playouts within the time budget,
    shorter rounds (mostly buying, and mostly playing and buying the place already most played)
    and mostly a genre, chair or favor that needs no further decision; some bias towards guild 1 so
    that the Master Buffoon's two classes are played too."""
    types = sorted({a["type"] for a in legal})
    kind = rng.choice(types)
    if "buy" in types and rng.random() < 0.8:
        kind = "buy"
    elif "guild-done" in types and rng.random() < 0.3:
        kind = "guild-done"
    options = [a for a in legal if a["type"] == kind]
    if kind in ("play", "buy") and rng.random() < 0.9:
        table = state["players"][seat]["table"]
        best = max(table[PLACES.index(a["place"])] for a in options)
        options = [a for a in options if table[PLACES.index(a["place"])] == best]
    elif kind in ("guild-move", "setup-guild") and rng.random() < 0.3:
        # the Master Buffoon needs 4 markers: help some players reach it
        options = [a for a in options if a.get("to") == 1 or a.get("guilds") == [1, 1]] or options
    elif kind in ("genre", "court-a", "favor") and rng.random() < 0.7:
        quick = [a for a in options if QUICK.get(kind, lambda a: True)(a)]  # no follow-up decision
        options = quick or options
    return rng.choice(options)


QUICK = {"genre": lambda a: a["genre"] in ("comedy", "circus"),
         "court-a": lambda a: a["chair"] in (4, 6, 8, 10),
         "favor": lambda a: a["favor"] not in (1, 7)}


ACTION_TYPES = {
    "shuffle", "start", "setup-guild", "play", "buy", "no-buy", "rescue", "city-class", "city-shop",
    "city-skip", "pawn", "specialize", "no-specialize", "order", "no-order", "genre", "tragedy",
    "tragedy-skip", "take-card", "court-a", "court-b", "chair-guild", "defend", "suffer", "swap", "no-swap",
    "guild-move", "guild-done", "keep", "keep-done", "favor", "convert", "round-end-scoring", "next-round",
    "final-scoring"}


def run_playouts(n, seeds, version=None):
    """The playouts of ``seeds`` (under rules ``version``, default the current one); returns the
    kinds of action seen. Raises on any failure."""
    engine = ENGINES.get(version, ENGINE)
    seen = set()
    for seed in seeds:
        full = seed % 200 == 0
        playout = random_playout(
            engine, n, {"red_chairs": seed % 3 == 0}, seed=seed * 7 + n,
            policy=None if seed % 50 == 3 else by_type,
            check_observation=check_observation if full or seed % 20 == 0 else None,
            invariant=invariant if full or seed % 10 == 0 else None,
            check_purity_every=1 if full else 499,
        )
        final = playout.final
        assert final["over"] and final["round"] == 3
        result = engine.result(final)
        assert result.scores == tuple(p["vp"] for p in final["players"])
        # The view's Winner keys (VP, fame, markers on the board) rank the seats as the result does.
        keys = list(zip(*(k["values"] for k in engine.public_observation(final)["ranking"])))
        assert competition_ranks(keys) == result.ranks
        if full or seed % 25 == 0:
            check_redaction(playout, n)
        seen.update(action["type"] for _, action in playout.log)
    return seen


def two_workers():
    """A pool of 2 processes when the machine has 2 cores and may fork, else None (serial run)."""
    if (os.cpu_count() or 1) < 2:
        return None
    try:
        pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
        pool.submit(int, 0).result(timeout=60)
        return pool
    except Exception:  # no fork, no semaphores, a daemonic parent...: run serially
        return None


@pytest.mark.parametrize("version", [None, "1.1.0", "1.0.0"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_few_random_playouts(n, version):
    """The fast tier: a few playouts per player count and rules version (under the current rules
    one with every check at every step): contract, purity, aliasing and replay through the
    harness, conservation, three rounds; the current rules and every older shipped version, whose
    matches in progress go on under their own rules (docs/rules/jester.md, changelog)."""
    seen = run_playouts(n, [10, 25] if version else [0, 10, 25], version)
    assert {"play", "buy", "final-scoring"} <= seen


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_300_random_playouts(n):
    """300 playouts per player count: contract, conservation, hidden information, three rounds;
    every kind of action (but the rare favor consolation) occurs. The seeds are split between two
    processes when two cores are available (same playouts, half the wall time)."""
    seeds = list(range(300))
    pool = two_workers()
    if pool is None:
        seen = run_playouts(n, seeds)
    else:
        with pool:
            seen = set().union(*pool.map(run_playouts, [n, n], [seeds[0::2], seeds[1::2]]))
    assert ACTION_TYPES <= seen, ACTION_TYPES - seen
