"""Fool's Crown computer opponents (domain/games/fools_crown/bots.py; docs/rules/fools-crown.md,
"Computer opponents"): every level plays legal moves only and finishes matches, the determinizer
rebuilds a state that shows the seat exactly its observation, and a bot given the same observation
and legal actions chooses the same whatever the hidden cards are. The search's own pieces: its
``strong`` without legal-action lists plays exactly as ``strong``, its fast playouts keep the engine's
odds, its samples commit the others' hidden cards as ``strong`` would, and its budget and time cap."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from domain.engine import CHANCE, SYSTEM, Phase
from domain.games import get_engine
from domain.games.fools_crown import bots as fc
from domain.games.fools_crown.bots import determinize, search_bot
from domain.games.fools_crown.cards import face_up_first
from domain.playout import new_match, play

ENGINE = get_engine("fools-crown")
LEVELS = ("random", "basic", "strong", "mcts")
#: A small budget keeps whole matches quick in a test; the shipped budget is used on single moves.
QUICK = {"mcts": lambda bot: bot.with_budget(iterations=200)}
#: The sealed simultaneous commits (FC-SEAL), an option since rules 1.3.0; no options: house rule 3.4
#: step 2's seat order.
SEALED = {"commit_order": "simultaneous"}


def bot(level):
    chosen = ENGINE.bots()[level]
    return QUICK[level](chosen) if level in QUICK else chosen


def decisions(seed: int, players: int, options=None, limit: int = 400, level: str = "random"):
    """(state, seat) of the player decisions of one match of ``level`` play (random by default)."""
    found = []
    chosen = ENGINE.bots()[level]

    def policy(state, seat, legal, rng):
        if len(found) < limit:
            found.append((state, seat))
        return chosen(ENGINE.observation(state, seat), legal, rng)

    play(ENGINE, new_match(ENGINE, players, options), random.Random(seed), policy)
    return found


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_level_plays_legal_moves_and_finishes(level, players):
    chosen = bot(level)
    seen = []
    # The search plays the first and the last seat (every seat of two), random the others: a search at
    # every seat took 45-90 s of the suite and checks nothing more (each seat's observation is its own).
    playing = {0, players - 1} if level == "mcts" else set(range(players))

    def policy(state, seat, legal, rng):
        action = chosen(ENGINE.observation(state, seat), legal, rng) if seat in playing else rng.choice(legal)
        assert action in legal
        seen.append(action["type"])
        return action

    # checked: every move goes through engine.step, which refuses an illegal one
    outcome = play(ENGINE, new_match(ENGINE, players), random.Random(players), policy, checked=True)
    assert outcome.result is not None and outcome.player_moves == len(seen) > 0


def test_the_shipped_search_answers_with_a_legal_move():
    state, seat = next((s, t) for s, t in decisions(3, 4) if len(ENGINE.legal_actions(s, t)) > 5)
    legal = ENGINE.legal_actions(state, seat)
    assert ENGINE.bots()["mcts"](ENGINE.observation(state, seat), legal, random.Random(0)) in legal


@pytest.mark.parametrize("players,options", [(2, SEALED), (3, {}), (4, SEALED)])
def test_the_determinisation_shows_the_seat_its_observation(players, options):
    for state, seat in decisions(players, players, options):
        observation = ENGINE.observation(state, seat)
        sampled = determinize(observation, seat, random.Random(1))
        assert ENGINE.observation(sampled, seat) == observation
        assert ENGINE.legal_actions(sampled, seat) == ENGINE.legal_actions(state, seat)
        # the same 48 playable cards and 2 Jokers, nowhere twice
        cards = sampled["deck"] + sampled["discard"] + sum(sampled["hands"], []) + sum(sampled["jokers"], [])
        cards += [c for commit in sampled["commits"] if commit for c in commit]
        assert len(cards) == len(set(cards)) == 50


def _hidden(state):
    return (state["deck"], state["discard"], [h for h in state["hands"]], state["commits"])


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_never_reads_the_hidden_cards(level):
    """Two states that show the seat the same observation but hide different cards: the bot chooses
    the same in both (its rng seeded alike), and the determinizer samples the same from both."""
    chosen = bot(level)
    compared = 0
    for state, seat in (decisions(11, 3) + decisions(12, 3))[:60:3]:
        observation = ENGINE.observation(state, seat)
        other = determinize(observation, seat, random.Random(99))  # other hidden cards, same view
        assert ENGINE.observation(other, seat) == observation
        assert _hidden(other) != _hidden(state)
        legal = ENGINE.legal_actions(state, seat)
        assert chosen(observation, legal, random.Random(5)) == chosen(
            ENGINE.observation(other, seat), ENGINE.legal_actions(other, seat), random.Random(5))
        assert determinize(observation, seat, random.Random(3)) == determinize(
            ENGINE.observation(other, seat), seat, random.Random(3))
        compared += 1
    assert compared >= 10


def test_the_search_keeps_the_rules_version():
    old = get_engine("fools-crown", "1.0.1")
    assert old.bots()["mcts"].engine.rules_version == "1.0.1"
    assert search_bot(ENGINE).engine is ENGINE
    assert search_bot(ENGINE).with_budget(iterations=10).engine is ENGINE


@pytest.mark.parametrize("players,options", [(2, SEALED), (3, {}), (4, SEALED)])
def test_the_playouts_strong_plays_exactly_as_strong(players, options):
    """The playouts' ``strong`` (no legal actions listed, the hot path) chooses what ``strong_bot``
    chooses from the observation, at every decision of matches where some seats play at random (so
    gambles, dumps, Noble Exchanges and hands without a Squire all come up)."""
    kinds = set()
    for seed in range(40):
        def policy(state, seat, legal, rng):
            expected = fc.strong_bot(ENGINE.observation(state, seat), legal, random.Random(7))
            assert fc._strong_on_state(ENGINE, state, seat, random.Random(7)) == expected
            kinds.add(expected["type"])
            return rng.choice(legal) if seat == 0 else expected

        play(ENGINE, new_match(ENGINE, players, options), random.Random(seed), policy)
    assert {"commit", "gamble", "claim"} <= kinds


def test_the_playouts_strong_handles_a_hand_without_a_squire():
    hand = ["JC", "JD", "QH", "KS", "KH"]
    for jokers in (0, 1):
        state, seat = next((s, t) for s, t in decisions(5, 2) if s["stage"] == "commit" and not s["done"][t])
        state = dict(state, hands=[list(h) for h in state["hands"]], jokers=[list(j) for j in state["jokers"]])
        state["hands"][seat] = list(hand)
        state["jokers"][seat] = ["JOKER1"] if jokers else []
        state["deck"] = [c for c in state["deck"] if c not in hand and c != "JOKER1"]
        legal = ENGINE.legal_actions(state, seat)
        expected = fc.strong_bot(ENGINE.observation(state, seat), legal, random.Random(1))
        assert expected["type"] == ("gamble" if jokers else "noble-exchange")
        assert fc._strong_on_state(ENGINE, state, seat, random.Random(1)) == expected


@pytest.mark.parametrize("players", [2, 4])
def test_the_fast_playouts_keep_the_engines_odds(players):
    """From the same sampled states, the fast playouts (the engine's rules without its bookkeeping)
    and playouts on the engine itself, both played as ``strong``, give the seat the same win share
    (within three standard errors of ~1200 playouts each: a win share's error is at most
    sqrt(0.25 / 1200) = 0.014 a side, 0.02 for the difference)."""
    fast = slow = 0.0
    found = [(s, t) for s, t in decisions(players + 20, players) if s["stage"] == "commit"][:20]
    for index, (state, seat) in enumerate(found):
        observation = ENGINE.observation(state, seat)
        for k in range(60):
            rng = random.Random(index * 100 + k)
            sampled = determinize(observation, seat, rng)
            after = ENGINE.apply(sampled, seat, rng.choice(ENGINE.legal_actions(sampled, seat)))
            fast += fc._fast_playout(ENGINE, after, seat, random.Random(k))
            slow += engine_playout(after, seat, random.Random(k))
    count = 60 * len(found)
    assert abs(fast - slow) / count < 0.06, (fast / count, slow / count)


@pytest.mark.parametrize("options,first", [({}, [2, 0, 1]), (SEALED, [0, 1, 2])])
def test_the_fast_playouts_commit_in_the_matchs_order(options, first):
    """The fast copy of the rules commits as the match does: with seat-order commits (house rule 3.4
    step 2, the default since 1.3.0) from the round's leader on, here seat 2; with sealed ones (FC-SEAL,
    any order is theirs) from seat 0."""
    state = next(s for s, _ in decisions(31, 3, options) if s["stage"] == "commit" and not any(s["done"]))
    state = dict(state, leader=2 if state["leader"] is not None else None)
    seen = []

    def policy(hand, seat, can_gamble, crowns, jokers, centre):
        seen.append(seat)
        return fc._strong_commit(hand, crowns[seat], 3, can_gamble)

    fc._simulate(state, random.Random(0), ENGINE.rules, stop=state["round"] + 1, policies=[policy] * 3)
    assert [seat for k, seat in enumerate(seen) if k == 0 or seat != seen[k - 1]][:3] == first


def engine_playout(state, seat, rng):
    """The seat's share of the win when every seat plays on as ``strong``, on the engine."""
    outcome = play(ENGINE, state, rng, lambda s, t, legal, r: fc.strong_bot(ENGINE.observation(s, t), legal, r))
    winners = outcome.result.winners
    return 1 / len(winners) if seat in winners else 0.0


@pytest.mark.parametrize("players,options", [(2, SEALED), (3, {})])
def test_the_samples_commit_the_hidden_cards_as_strong_would(players, options):
    """``_modelled``: the sampled state shows the seat its observation, and every commit the seat
    cannot see is the one ``strong`` makes from the sampled hand it came from (in matches of
    ``strong`` play, whose face-up cards ``strong`` can have shown)."""
    hidden = modelled = 0
    found = [d for seed in range(3) for d in decisions(players + 40 + seed, players, options, level="strong")]
    for state, seat in found:
        observation = ENGINE.observation(state, seat)
        sampled = fc._modelled(observation, seat, random.Random(2))
        assert ENGINE.observation(sampled, seat) == observation
        for other, shown in enumerate(observation["commits"]):
            if other == seat or shown is None or shown[1] is not None:
                continue
            hand = fc.sort_cards(sampled["commits"][other] + sampled["hands"][other])
            view = {"you": other, "hand": hand, "crowns": sampled["crowns"]}
            commits = [{"type": "commit", "cards": pair} for pair in fc.commit_options(hand)]
            hidden += 1
            if commits and face_up_first(*fc.strong_bot(view, commits, random.Random(0))["cards"]) == \
                    sampled["commits"][other]:
                modelled += 1
    # all but the samples that found no such hand in a few tries (then the cards are uniform)
    assert hidden >= 10 and modelled >= 0.8 * hidden, (modelled, hidden)


def test_a_tiny_budget_plays_as_strong():
    """With too few playouts to compare two moves, the search plays ``strong``'s move."""
    tiny = search_bot(ENGINE).with_budget(iterations=1)
    for state, seat in decisions(8, 2)[:40]:
        observation, legal = ENGINE.observation(state, seat), ENGINE.legal_actions(state, seat)
        assert tiny(observation, legal, random.Random(3)) == fc.strong_bot(observation, legal, random.Random(3))


def test_the_time_cap_stops_the_search():
    """Given a clock (the worker passes one), the search stops once its seconds are spent and still
    answers with a legal move; without one it plays its whole budget."""
    state, seat = next((s, t) for s, t in decisions(3, 2) if len(ENGINE.legal_actions(s, t)) > 5)
    observation, legal = ENGINE.observation(state, seat), ENGINE.legal_actions(state, seat)
    readings = []

    def jumping_clock():
        readings.append(None)
        return float(len(readings))  # a second later at every reading

    capped = search_bot(ENGINE).with_budget(seconds=0.8, clock=jumping_clock)
    assert capped(observation, legal, random.Random(0)) in legal
    assert len(readings) == 2  # the start, then the first look after one sample


def test_the_time_cap_counts_the_drawing_of_samples_too(monkeypatch):
    """A stage drew all its samples (750 with two players and four moves: 1.3 s of CPU) before it first
    read the clock, so a move of the worker's 0.8 s search took 1.85 s. Each sample is now drawn as it
    is used, and the clock read after it."""
    state, seat = next((s, t) for s, t in decisions(3, 2) if len(ENGINE.legal_actions(s, t)) > 3)
    observation, legal = ENGINE.observation(state, seat), ENGINE.legal_actions(state, seat)
    drawn = []
    modelled = fc._modelled

    def counted(*args):
        drawn.append(None)
        return modelled(*args)

    monkeypatch.setattr(fc, "_modelled", counted)
    readings = []

    def clock():  # the time a drawing takes: a tenth of a second each
        readings.append(None)
        return len(drawn) / 10

    capped = search_bot(ENGINE).with_budget(seconds=0.8, clock=clock)
    assert capped(observation, legal, random.Random(0)) in legal
    assert len(drawn) <= 9  # 0.8 s of drawing, and not one sample more


def _holding(hand: list[str]) -> tuple[dict, int]:
    """A two-player match at its first commit, the seat to commit holding exactly ``hand`` (cards swapped
    with the deck, the discard pile or the other hand) and no Joker (so only commits are offered)."""
    rng = random.Random(1)
    state = ENGINE.initial_state(2, {})
    while ENGINE.to_act(state).kind != Phase.PLAYERS:
        turn = ENGINE.to_act(state)
        state = (ENGINE.apply(state, CHANCE, ENGINE.sample_chance(state, rng)) if turn.kind == Phase.CHANCE
                 else ENGINE.apply(state, SYSTEM, ENGINE.auto_action(state)))
    seat = ENGINE.to_act(state).seats[0]
    state = copy.deepcopy(state)
    mine = state["hands"][seat]
    for wanted, given in zip([c for c in hand if c not in mine], [c for c in mine if c not in hand]):
        zone = next(z for z in [state["deck"], state["discard"], *state["hands"]] if wanted in z)
        zone[zone.index(wanted)] = given
        mine[mine.index(given)] = wanted
    state["jokers"][seat] = []
    return state, seat


@pytest.mark.parametrize("level", ["strong", "mcts"])
def test_the_noble_a_bot_shows_says_nothing_of_its_other_nobles(level):
    """J, Q and K are all worth 10 and ally by suit (docs/rules/fools-crown.md 1, 3): committing J♥ or
    K♥ with 5♥ is one move. ``strong`` and the search laid the lowest rank, so a K♥ face up told every
    seat the bot held neither J♥ nor Q♥; the Noble is now drawn among those of the suit it holds."""
    state, seat = _holding(["JH", "KH", "5H", "2C", "3D"])
    bot = ENGINE.bots()[level]
    bot = bot.with_budget(iterations=60) if level == "mcts" else bot
    shown = Counter()
    for seed in range(16):
        action = bot(ENGINE.observe(state, seat), ENGINE.legal_actions(state, seat), random.Random(seed))
        assert action in ENGINE.legal_actions(state, seat)
        shown.update(card for card in action["cards"] if card in ("JH", "KH"))
    assert shown["JH"] > 0 and shown["KH"] > 0, shown
