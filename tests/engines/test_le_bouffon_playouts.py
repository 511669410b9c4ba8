"""Random Le Bouffon playouts: 300 per player count (3 to 6), checked throughout by the harness.

Every playout checks that cards are conserved (hands + cards laid this deal = the deck, every id
once), that each seat observes exactly the public observation plus its own hand, gift and exchange,
and that the public observation names no card held in any hand; that every deal of the match ends
and is scored; and (for a part of them) that the event list hides the shuffle and shows the gifts of
the exchange only to giver and receiver.

The mix per player count, to stay within the test-time budget (the harness round-trips every
observation through JSON at every step, and a 6-player deal is ~150-190 steps):
* FULL_CHECKS playouts: uniform random actions, 3 deals (two exchanges, two role changes), the purity
  check at every step;
* up to MATCHES: uniform random actions, 2 deals (one exchange, one role change);
* the rest: single-deal matches under an "eager" random policy (it mostly lays cards, often the
  biggest set, and passes at random 5% of the time), which shortens deals by about a fifth.
"""

from __future__ import annotations

import json
import re

import pytest

from domain.engine import CHANCE
from domain.games.le_bouffon import ENGINE
from domain.games.le_bouffon.cards import DECK, EXCHANGES, decks_for
from tests.engines.harness import random_playout

PLAYOUTS = 300
FULL_CHECKS = 3  # per count: uniform random policy, 3 deals, the purity check at every step
MATCHES = 30  # per count: uniform random policy, matches of 2 or 3 deals (exchanges, new roles)

CARD = re.compile(r'"([a-z0-9-]+#[0-9]+)"')
_cache: dict = {"state": None}


def _cards_named(value) -> set:
    """Every card id, and every string that looks like one, anywhere in a JSON value."""
    return set(CARD.findall(json.dumps(value, ensure_ascii=False)))


def _others_cards(state, seat):
    return {card for other, hand in enumerate(state["hands"]) if other != seat for card in hand}


def _checked_public(state):
    """The public observation of ``state``, scanned once for any card held in a hand."""
    if _cache["state"] is not state:
        owners = {card: seat for seat, hand in enumerate(state["hands"]) for card in hand}
        public = ENGINE.public_observation(state)
        leaked = _cards_named(public) & set(owners)
        assert not leaked, f"the public observation shows cards in hands: {sorted(leaked)}"
        assert public["hand_counts"] == [len(hand) for hand in state["hands"]]
        _cache.update(state=state, public=public, owners=owners)
    return _cache["public"], _cache["owners"]


def check_observation(state, seat, observation):
    """A seat sees the public observation (which holds no card of any hand) plus its own hand, its
    pending gift and its own exchange of this deal, and nothing else."""
    public, owners = _checked_public(state)
    expected = dict(public, seat=seat, hand=state["hands"][seat])
    gift = state["gifts"][seat]
    if gift is not None:  # the cards it chose to give, still in its hand until the exchange
        assert set(gift) <= set(state["hands"][seat])
        expected["gift"] = gift
    exchange = state["exchanged"][seat]
    if exchange is not None:  # what it gave and received in this deal's exchange
        assert all(owners.get(card, seat) == seat for card in exchange["received"])
        expected["exchange"] = exchange
    assert observation == expected, f"seat {seat} observes more or other than its share"


def make_invariant(num_players):
    deck = set(DECK[decks_for(num_players)])  # card ids are unique: same size + same set = same cards
    per_deal = num_players * (num_players - 1) // 2

    def invariant(state):
        phase = state["phase"]
        hands = state["hands"]
        if phase in ("exchange", "play", "score"):
            held = [card for hand in hands for card in hand] + state["played"]
            assert len(held) == len(deck) and set(held) == deck, "cards are not conserved"
            finished = state["finished"]
            assert len(set(finished)) == len(finished)
            if phase != "score":
                assert all(not hands[seat] for seat in finished) and len(finished) < num_players - 1
                assert all(hands[seat] for seat in range(num_players) if seat not in finished)
            else:
                assert sorted(finished) == list(range(num_players))
        else:
            assert all(hand == [] for hand in hands) and state["played"] == []
        assert sum(state["scores"]) == per_deal * len(state["history"])

    return invariant


def check_redaction(engine, playout, num_players):
    for before, (actor, action) in zip(playout.states, playout.log):
        for viewer in [None, *range(num_players)]:
            shown = engine.redact(before, actor, action, viewer)
            if actor == CHANCE:
                if action["type"] == "shuffle":
                    assert shown is None
                else:
                    assert shown == action  # the first roles are public
            elif action["type"] == "give":
                receiver = before["roles"].index(EXCHANGES[before["roles"][actor]][0])
                if viewer in (actor, receiver):
                    assert shown == action
                else:
                    assert shown == {"type": "give", "count": len(action["cards"])}
                    assert not _cards_named(shown) & _others_cards(before, viewer if viewer is not None else -1)
            else:
                assert shown == action  # plays, passes, laughs and scores are public


def check_match(playout, num_players, deals):
    final = playout.final
    history = final["history"]
    assert len(history) == deals, "every deal ends and is scored"
    for entry in history:
        assert sorted(entry["order"]) == list(range(num_players))
        assert sorted(entry["points"]) == list(range(num_players))
    result = ENGINE.result(final)
    assert sorted(result.ranks) == list(range(1, num_players + 1))
    assert list(result.scores) == final["scores"]
    # The view traces the totals: each scored deal's points, as the result's detail has them, summing up.
    assert ENGINE.public_observation(final)["scored"] == result.detail["deals"] == history
    assert [sum(entry["points"][s] for entry in history) for s in range(num_players)] == final["scores"]
    seen = 0
    for state in playout.states:  # one entry more each time a deal is scored, never another change
        scored = ENGINE.public_observation(state)["scored"]
        assert scored == history[:len(scored)] and len(scored) in (seen, seen + 1)
        seen = len(scored)
    gives = [action for actor, action in playout.log if action["type"] == "give"]
    givers = len([role for role in EXCHANGES if role in final["roles"]])
    assert len(gives) == givers * (deals - 1), "one exchange per deal after the first"


def eager(state, seat, legal, rng):
    """A random policy that mostly lays cards, often the biggest set: shorter deals, same rules."""
    plays = [action for action in legal if action["type"] != "pass"]
    if not plays or rng.random() < 0.05:
        return rng.choice(legal)
    if rng.random() < 0.9:
        most = max(len(action["cards"]) for action in plays)
        plays = [action for action in plays if len(action["cards"]) == most]
    return rng.choice(plays)


def _playouts(num_players, count, full_checks, matches, part=0, parts=1):
    """Playouts of seeds ``part``, ``part + parts``, ... below ``count``: the long counts run in parts, so
    that the suite's two workers share them (a 6-player part alone took over two minutes)."""
    steps = 0
    laughs = exceptions = 0
    seeds = range(part, count, parts)
    for seed in seeds:
        full = seed < full_checks
        deals = 3 if full else 2 if seed < matches else 1
        playout = random_playout(
            ENGINE,
            num_players,
            {"deals": deals},
            seed=seed,
            check_observation=check_observation,
            invariant=make_invariant(num_players),
            check_purity_every=1 if full else 50,
            policy=None if seed < matches else eager,
        )
        check_match(playout, num_players, deals)
        if seed < matches or seed % 50 == 0:
            check_redaction(ENGINE, playout, num_players)
        steps += playout.steps
        laughs += sum(1 for _, action in playout.log if action["type"] == "laugh")
        exceptions += sum(
            1 for state, (_, action) in zip(playout.states, playout.log)
            if action["type"] == "play" and state["trick"]["top"] is not None
            and len(action["cards"]) != state["trick"]["top"]["count"]
        )
    assert steps > len(seeds) * 40
    # the random games do reach the special rules
    assert laughs > 0 and exceptions > 0


PARTS = {3: 1, 4: 1, 5: 2, 6: 3}


@pytest.mark.slow
@pytest.mark.parametrize("num_players, part", [(n, part) for n, parts in PARTS.items() for part in range(parts)])
def test_random_playouts(num_players, part):
    _playouts(num_players, PLAYOUTS, FULL_CHECKS, MATCHES, part, PARTS[num_players])


@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
def test_a_few_random_playouts(num_players):
    """The fast tier's share of the above: one 2-deal match and three eager single-deal ones per
    count (the harness's aliasing and mutation checks at every step, the state copy every 50)."""
    _playouts(num_players, 4, 0, 1)
