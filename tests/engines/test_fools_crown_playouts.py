"""Fool's Crown: random playouts (contract, secrecy, conservation, termination) and the bot levels.

Runs 300 playouts per player count (2, 3, 4) through the shared harness (slow tier; the fast tier runs
a share of them with every check), with an observation check (nobody sees another's hand, a face-down or
sealed card, or the deck), a conservation invariant (the 52 cards + 2 Jokers are all somewhere, exactly
once; under rules 1.1.0 the deck is empty only while the reshuffle is due, FC-DRAW) and a redaction
check of the event list. The kept rules 1.0.1 get a share of playouts of their own.
"""

from __future__ import annotations

import json
import re

import pytest

from bench.fools_crown_matches import win_shares
from domain.engine import CHANCE, SYSTEM
from domain.games.fools_crown import ENGINE, ENGINES
from domain.games.fools_crown.cards import ALL_CARDS, JOKERS, face_up_first
from tests.engines.harness import random_playout

ALL = frozenset(ALL_CARDS)
SEALED = {"commit_order": "simultaneous"}  # FC-SEAL: an option since 1.3.0


def _locations(state) -> list:
    cards = list(state["deck"]) + list(state["discard"]) + list(state["centre"])
    for i in range(state["players"]):
        cards += state["hands"][i] + state["jokers"][i] + state["crowns"][i]
        if state["commits"][i] is not None:
            cards += state["commits"][i]
    if state["gamble"] is not None:  # the sacrificed Joker on its way into the deck
        cards.append(state["gamble"]["joker"])
    return cards


def conservation(state) -> None:
    """Conservation: deck + discard + hands + committed + Jokers held + Crowns (held or centre) are
    the 54 distinct cards; hands never exceed five and never hold a Joker."""
    cards = _locations(state)
    assert len(cards) == 54 and set(cards) == ALL, "cards not conserved"
    assert all(len(h) <= 5 for h in state["hands"])
    assert not any(j in h for h in state["hands"] for j in JOKERS), "a Joker is in a playable hand"
    if state["stage"] == "commit":
        assert all(len(h) >= 3 for h in state["hands"])


def deck_runs_out_into_a_reshuffle(state) -> None:
    """FC-DRAW (rules 1.1.0; rulebook "The discard pile is reshuffled if the draw deck runs out"): the
    deck is empty only before the first shuffle and while the reshuffle of the discard pile is due."""
    conservation(state)
    assert state["deck"] or state["stage"] in ("shuffle", "reshuffle"), "a round goes on with an empty deck"


def invariant(state) -> None:
    """Conservation, and the spectator's view shows no hidden card."""
    conservation(state)
    _assert_hidden(json.dumps(without_last_commits(ENGINE.public_observation(state))), _secrets(state, None),
                   "spectator")


def without_last_commits(observation: dict) -> dict:
    """The view but for the last round's commits, which its resolution showed everyone (the event list keeps
    them): since then those cards went to the discard pile and may be back in the deck or a hand. A summary
    holds cards only once its round was resolved."""
    last = dict(observation["last_round"] or {})
    if last.get("commits") is not None:
        assert last["strengths"] is not None and last["qualified"] is not None, last
        assert all(c is None or len(c) == 2 and None not in c for c in last["commits"]), last
    last.pop("commits", None)
    return {**observation, "last_round": last or None}


def _revealed(state) -> set:
    shown = set()
    for cards in state["exchanged"]:
        if cards:
            shown.update(cards)  # a Noble Exchange reveals the whole hand (rulebook)
    return shown


def _secrets(state, viewer, revealing: bool = False) -> set:
    """Cards ``viewer`` (seat or None) must not see: others' hands, the deck, others' face-down (and,
    while the commit phase is open, sealed face-up) cards."""
    secret = set(state["deck"])
    sealed = state["options"]["commit_order"] == "simultaneous" and not all(state["done"])
    for i in range(state["players"]):
        if i == viewer:
            continue
        secret.update(state["hands"][i])
        commit = state["commits"][i]
        if commit is not None and state["outcome"] is None and not revealing:
            secret.add(commit[1])
            if sealed:
                secret.add(commit[0])
    return secret - _revealed(state)


_QUOTED = re.compile(r'"([^"]*)"')


def _assert_hidden(text: str, secret: set, who) -> None:
    leaked = secret.intersection(_QUOTED.findall(text))
    assert not leaked, f"{sorted(leaked)} leaked to {who}"


def check_observation(state, seat, observation) -> None:
    assert observation["you"] == seat
    assert sorted(observation["hand"]) == sorted(state["hands"][seat])
    assert observation["hands"] == [len(h) for h in state["hands"]]
    _assert_hidden(json.dumps(without_last_commits(observation)), _secrets(state, seat), seat)


def check_redaction(playout) -> None:
    """Every logged action, as shown to anyone but its actor, names no card secret to that viewer."""
    for state, (actor, action) in zip(playout.states, playout.log):
        n = state["players"]
        revealing = actor == SYSTEM  # resolve-round is the reveal of the face-down cards
        for viewer in [None, *range(n)]:
            if viewer == actor:
                continue
            shown = ENGINE.redact(state, actor, action, viewer)
            if actor == CHANCE and action["type"] == "shuffle":
                assert shown is None, "a shuffle order was shown"
                continue
            secret = _secrets(state, viewer, revealing)
            if isinstance(actor, int) and action["type"] == "noble-exchange":
                secret -= set(state["hands"][actor])  # the exchange reveals the hand (rulebook)
            if action["type"] == "commit" and state["options"]["commit_order"] == "seat-order":
                up = face_up_first(*action["cards"])[0]
                secret.discard(up)  # house rule 3.4 step 2: the higher card is face up at once
                assert shown == {"type": "commit", "up": up}
            _assert_hidden(json.dumps(shown), secret, viewer)


def decisive_random(state, seat, legal, rng):
    """Random play that gambles a Joker only now and then (uniform play would gamble at almost every
    turn, there being 25 ways to), never passes up a challenge and challenges one of the holders with
    the fewest Crowns (so Crowns gather and matches end sooner); otherwise uniform."""
    challenges = [action for action in legal if action["type"] == "challenge"]
    if challenges:
        fewest = min(len(state["crowns"][action["target"]]) for action in challenges)
        return rng.choice([a for a in challenges if len(state["crowns"][a["target"]]) == fewest])
    kinds = sorted({action["type"] for action in legal})
    if "gamble" in kinds and len(kinds) > 1 and rng.random() > 0.15:
        kinds.remove("gamble")
    kind = rng.choice(kinds)
    return rng.choice([action for action in legal if action["type"] == kind])


def full_invariant_1_1(state) -> None:
    invariant(state)
    deck_runs_out_into_a_reshuffle(state)


def _playouts(engine, players, seeds, every=10) -> None:
    """Random matches of ``engine``: contract, conservation and an end for every match.

    One in ``every`` plays uniformly random actions (half of those with the commit order that is not the
    version's default: the sealed simultaneous commits of FC-SEAL under 1.3.0, house rule 3.4's seat
    order before) with every check (each seat's observation, the spectator's, purity at every step or every
    fifth, the redaction of the whole event list); the rest play `decisive_random` with the conservation
    invariant and a purity check every 50 steps (runtime budget)."""
    reasons = set()
    current = engine.rules_version == ENGINE.rules_version
    other = "simultaneous" if engine.default_options()["commit_order"] == "seat-order" else "seat-order"
    for seed in seeds:
        full = seed % every == 0
        playout = random_playout(
            engine,
            players,
            options={"commit_order": other} if seed % (2 * every) == every else None,
            seed=seed,
            check_observation=check_observation if full else None,
            invariant=(invariant if full else conservation) if not current else (
                full_invariant_1_1 if full else deck_runs_out_into_a_reshuffle),
            check_purity_every=(1 if seed % (5 * every) == 0 else 5) if full else 50,
            policy=None if full else decisive_random,
        )
        if full:
            check_redaction(playout)
        result = engine.result(playout.final)
        reasons.add(result.detail["reason"])
        if result.detail["reason"] == "four-crowns":
            assert sorted(result.scores, reverse=True)[0] == 4 and result.ranks.count(1) == 1
        else:
            assert result.detail["rounds"] == 30
    assert "four-crowns" in reasons


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_300_random_playouts(players):
    """300 random matches per player count under the current rules (see ``_playouts``)."""
    _playouts(ENGINE, players, range(300))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_100_random_playouts_under_rules_1_0_1(players):
    """The kept rules 1.0.1 (docs/rules/fools-crown.md, Changes) still pass every check of the harness."""
    _playouts(ENGINES["1.0.1"], players, range(100))


@pytest.mark.parametrize("engine", [ENGINE, ENGINES["1.0.1"]], ids=lambda engine: engine.rules_version)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_few_random_playouts(engine, players):
    """The fast tier's share of the above: 6 matches per count and version, half of them with every check
    (purity, aliasing and mutation of every observation, secrecy, redaction, replay through ``apply``)."""
    _playouts(engine, players, range(6), every=2)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_end_without_the_safety_cap(players):
    """House rule 3.4 "Optional safety cap": with safety_cap off, random matches still end on four Crowns."""
    for seed in range(25):
        playout = random_playout(
            ENGINE, players, options={"safety_cap": False}, seed=10_000 + seed, check_purity_every=100,
            invariant=conservation,
        )
        assert ENGINE.result(playout.final).detail["reason"] == "four-crowns"


@pytest.mark.slow
def test_bot_levels_strong_beats_basic_beats_random():
    """Computer opponents: strong > basic > random in win share, by a clear margin (deterministic seeds,
    chosen with the sealed commits of FC-SEAL, the default before rules 1.3.0, and kept with them: the
    bots play alike in either commit order, which changes only the order of the draws)."""
    shares = {}
    for pair in (("strong", "basic"), ("basic", "random"), ("strong", "random")):
        two = win_shares(ENGINE, pair, 300, 2, seed=1000, options=SEALED)
        four = win_shares(ENGINE, pair, 200, 4, seed=2000, options=SEALED)
        shares[pair] = {level: (two[level] + four[level]) / 2 for level in pair}
    assert shares[("strong", "basic")]["strong"] >= 0.55, shares
    assert shares[("basic", "random")]["basic"] >= 0.75, shares
    assert shares[("strong", "random")]["strong"] >= 0.75, shares


def _bots_pick_legal_actions(seeds) -> None:
    bots = ENGINE.bots()
    assert {"basic", "strong"} <= set(bots)
    # The searching level plays whole matches in tests/engines/test_bots_fools_crown.py; here it would
    # cost minutes (a few hundred playouts a move) for the same check.
    for name, bot in bots.items():
        if name == "mcts":
            continue

        def policy(state, seat, legal, rng, bot=bot, name=name):
            action = bot(ENGINE.observe(state, seat), legal, rng)
            assert action in legal, (name, action)
            return action

        for seed in seeds:
            random_playout(ENGINE, 2 + seed % 3, seed=seed, policy=policy, check_purity_every=25)


@pytest.mark.slow
def test_bots_see_only_the_observation_and_pick_legal_actions():
    """Every bot level returns one of the legal actions it is given, from the seat's observation only."""
    _bots_pick_legal_actions(range(20))


def test_bots_pick_legal_actions_in_a_few_matches():
    """The fast tier's share of the above (one match per player count and level)."""
    _bots_pick_legal_actions(range(3))
