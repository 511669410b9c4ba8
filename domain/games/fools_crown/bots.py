"""Computer opponents for Fool's Crown. Pure functions of (observation, legal actions, rng).

* ``basic`` plays by the rules' arithmetic: commits the highest card total, gambles a Joker only when
  its best commit is worth 14 or less (house rule 3.4's advice) or it would have to sit out, claims any
  Crown and always challenges someone when the centre is empty.
* ``strong`` counts every bonus (Royal and Crown Alliances), gambles and "dumps" a weak hand by
  thresholds tuned per player count (a hand that rarely wins plays its weakest pair and keeps the rest),
  claims the Crown whose suit its hand can ally with, and challenges the leader.
"""

from __future__ import annotations

import random
from typing import Sequence, cast

from domain.engine import copy_json

from .cards import JOKERS, NOBLE, PLAYING, SQUIRE, SUIT, VALUE, face_up_first, sort_cards
from .resolution import resolution
from .state import new_state


def _by_type(legal: Sequence[dict]) -> dict:
    kinds: dict = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    return kinds


def _card_sum(cards) -> int:
    return VALUE[cards[0]] + VALUE[cards[1]]


def _strength(cards, crowns) -> int:
    """Battle Strength of a commit without the Joker bonus (the same for every commit of a seat)."""
    a, b = cards
    total = VALUE[a] + VALUE[b]
    if NOBLE[a] != NOBLE[b] and SUIT[a] == SUIT[b]:
        total += 1
        if "A" + SUIT[a] in crowns:
            total += 1
    return total


def _gamble_discards(hand, keep, size_limit=3) -> list:
    """Up to three cards to exchange: those outside ``keep``, lowest value first."""
    rest = sorted((c for c in hand if c not in keep), key=lambda c: (VALUE[c], NOBLE[c]))
    return rest[:size_limit]


def _find(legal, kind, cards) -> dict | None:
    wanted = sorted(cards)
    for action in legal:
        if action["type"] == kind and sorted(action["cards"]) == wanted:
            return action
    return None


# -- basic --------------------------------------------------------------------------------------
def basic_bot(observation, legal: Sequence[dict], rng: random.Random) -> dict:
    kinds = _by_type(legal)
    hand = observation.get("hand", [])
    if "commit" in kinds or "noble-exchange" in kinds:
        commits = kinds.get("commit", [])
        best = max((_card_sum(a["cards"]) for a in commits), default=0)
        if "gamble" in kinds and best <= 14:
            if commits:
                top = [a for a in commits if _card_sum(a["cards"]) == best][0]["cards"]
            else:
                top = []
            discards = _gamble_discards(hand, top)
            action = _find(legal, "gamble", discards) if discards else None
            if action is not None:
                return action
        if commits:
            top = [a for a in commits if _card_sum(a["cards"]) == best]
            return rng.choice(top)
        return rng.choice(kinds["noble-exchange"])
    if "claim" in kinds:
        return rng.choice(kinds["claim"])
    if "challenge" in kinds:
        return rng.choice(kinds["challenge"])
    return legal[0]


# -- strong -------------------------------------------------------------------------------------
def _suit_potential(hand, suit) -> int:
    """How well the hand could ally in ``suit``: a Noble and a Squire of it count most."""
    nobles = sum(1 for c in hand if NOBLE[c] and SUIT[c] == suit)
    squires = sum(1 for c in hand if SQUIRE[c] and SUIT[c] == suit)
    return 3 * min(nobles, squires) + nobles + squires


#: Tuned by simulation against ``basic`` (bench/fools_crown_bots.py): the strength at or below which the
#: strong bot gambles a Joker, and below which it "dumps" its weakest legal commit to keep its good
#: cards for a later round, by player count.
GAMBLE_AT = {2: 16, 3: 15, 4: 13}
DUMP_BELOW = {2: 16, 3: 17, 4: 17}


def strong_bot(observation, legal: Sequence[dict], rng: random.Random) -> dict:
    kinds = _by_type(legal)
    me = observation.get("you")
    hand = observation.get("hand", [])
    crowns = observation["crowns"][me] if me is not None else []
    players = len(observation["crowns"])
    if "commit" in kinds or "noble-exchange" in kinds:
        commits = kinds.get("commit", [])

        def score(action):
            cards = action["cards"]
            rest = [c for c in hand if c not in cards]
            # at equal strength keep Nobles and allied pairs for later rounds
            future = sum(1 for c in rest if NOBLE[c]) + sum(_suit_potential(rest, s) for s in "CDHS") / 10
            return (_strength(cards, crowns), future)

        ranked = sorted(commits, key=score, reverse=True)
        best = score(ranked[0])[0] if ranked else 0
        if "gamble" in kinds and best <= GAMBLE_AT.get(players, 14):
            keep = ranked[0]["cards"] if ranked else [c for c in hand if NOBLE[c]][:2]
            discards = _gamble_discards(hand, keep)
            action = _find(legal, "gamble", discards) if discards else None
            if action is not None:
                return action
        if ranked:
            if best < DUMP_BELOW.get(players, 17):
                # a weak hand rarely wins: play the weakest pair, keep the rest for a later round
                return min(ranked, key=lambda a: (_strength(a["cards"], crowns), -score(a)[1]))
            return ranked[0]

        # Noble Exchange: keep the Nobles whose suits match held Crowns
        def keep_value(action):
            kept = [c for c in hand if c not in action["cards"]]
            return sum(1 for c in kept if "A" + SUIT[c] in crowns)

        return max(kinds["noble-exchange"], key=keep_value)
    if "claim" in kinds:
        return max(kinds["claim"], key=lambda a: (_suit_potential(hand, a["crown"][1]), rng.random()))
    if "challenge" in kinds:
        held = observation["crowns"]

        def threat(action):
            # block the leader: take from whoever holds the most Crowns, in a suit this hand can ally
            target = action["target"]
            return (len(held[target]), _suit_potential(hand, action["crown"][1]), rng.random())

        return max(kinds["challenge"], key=threat)
    return legal[0]




# -- random and mcts ----------------------------------------------------------------------------
def random_bot(observation, legal: Sequence[dict], rng: random.Random) -> dict:
    return rng.choice(list(legal))


def _seen_cards(observation) -> set:
    """Playable cards the observation shows: the own hand, face-up commits, revealed exchanges."""
    seen = set(observation.get("hand", []))
    for commit in observation["commits"]:
        if commit is not None:
            seen.update(c for c in commit if c is not None)
    for exchanged in observation["exchanged"]:
        if exchanged is not None:
            seen.update(exchanged)
    return seen


def determinize(observation, seat: int, rng: random.Random) -> dict:
    """A full Fool's Crown state that shows ``seat`` exactly ``observation``.

    The unseen playable cards (sorted canonically, then shuffled with ``rng``) fill the hidden
    commit cards, the others' hands, the face-down discard pile (FC-DISCARD) and the deck; the
    Jokers not held are in the deck (a sacrificed Joker is shuffled into it, rulebook), at random
    places. The Jokers are alike (FC-JOKER), so the held ones are dealt JOKER1 first in seat order.
    A Noble Exchange (rulebook "reveal your hand, discard two Nobles") showed that hand: two of its
    Nobles went to the discard pile (for the own seat, those no longer in hand), the rest are still
    in the hand. Reads nothing but the observation.
    """
    n = len(observation["hands"])
    pool = sort_cards(c for c in PLAYING if c not in _seen_cards(observation))
    rng.shuffle(pool)

    def draw(count: int) -> list:
        taken = pool[:count]
        del pool[:count]
        return taken

    held_jokers = list(observation["jokers"])
    joker_cards = list(JOKERS)
    jokers = []
    for count in held_jokers:
        jokers.append(joker_cards[:count])
        del joker_cards[:count]
    discard: list = []
    hands: list = []
    for i in range(n):
        exchanged = observation["exchanged"][i]
        if i == seat:
            hand = list(observation["hand"])
            if exchanged is not None:
                discard.extend(c for c in exchanged if c not in hand)
        elif exchanged is not None:
            kept = list(exchanged)
            rng.shuffle(kept)
            discard.extend(kept[:2])
            hand = kept[2:]
        else:
            hand = []
        hands.append(hand)
    commits: list = []
    for commit in observation["commits"]:
        if commit is None:
            commits.append(None)
        else:
            up, down = commit
            if up is None:
                up, down = face_up_first(*draw(2))
            elif down is None:
                down = draw(1)[0]
            commits.append([up, down])
    for i in range(n):
        if i != seat:
            hands[i].extend(draw(observation["hands"][i] - len(hands[i])))
    discard.extend(draw(observation["discard"] - len(discard)))
    deck = draw(observation["deck"] - len(joker_cards))
    for joker in joker_cards:
        deck.insert(rng.randrange(len(deck) + 1), joker)
    assert not pool, "the observation does not add up to the 48 playable cards"
    stage = observation["stage"]
    state = new_state(n, {"safety_cap": observation["max_rounds"] is not None,
                          "commit_order": "seat-order" if observation["leader"] is not None else "simultaneous"})
    state.update({
        "stage": stage,
        "round": observation["round"],
        "deck": deck,
        "discard": discard,
        "hands": hands,
        "jokers": jokers,
        "crowns": [list(c) for c in observation["crowns"]],
        "centre": list(observation["centre"]),
        "done": [c is not None or e is not None for c, e in zip(commits, observation["exchanged"])],
        "commits": commits,
        "exchanged": [None if e is None else list(e) for e in observation["exchanged"]],
        "gambled": list(observation["gambled"]),
        "rolls": [None if r is None else list(r) for r in observation["rolls"]],
        "tiebreak": copy_json(observation["tiebreak"]),
        "winner": observation["winner"],
        "last": copy_json(observation["last_round"]),
        "end": copy_json(observation["end"]),
        "leader": observation["leader"],
    })
    if observation["strengths"] is not None:  # resolved: the outcome follows from what is shown
        state["outcome"] = resolution(state)
    return cast(dict, state)  # the typed state, handed to playouts as the plain dict it is


def _seat(observation) -> int:
    return observation["you"]


#: How many rounds a playout looks ahead (the one under way included) before it is scored: a match
#: runs up to 30 rounds (house rule 3.4 safety cap), far too long to play out within a second.
HORIZON = 2


def _cutoff(state) -> bool:
    return state["stage"] == "over" or state["round"] >= state["horizon"]


def _evaluate(state) -> list:
    """Half by rank on (Crowns, Jokers), the match's own order (rulebook: all four Crowns win), half
    by the share of the four Crowns held."""
    n = state["players"]
    keys = [(len(state["crowns"][i]), len(state["jokers"][i])) for i in range(n)]
    ranks = [1 + sum(1 for k in keys if k > keys[i]) for i in range(n)]
    return [0.5 * (n - ranks[i]) / (n - 1) + 0.125 * keys[i][0] for i in range(n)]


def _horizon_state(observation, seat: int, rng: random.Random) -> dict:
    state = determinize(observation, seat, rng)
    # the playouts stop once the round after this one begins; the engine ignores the extra key
    state["horizon"] = observation["round"] + HORIZON
    return state


#: Playouts per move by player count, sized to answer within a second on this machine (a four-seat
#: round costs twice a two-seat one; bench/bots_fools_crown.py prints the time a move takes).
ITERATIONS = {2: 300, 3: 200, 4: 150}


class _ByPlayers:
    """The search with a budget set by the table's size (read from the observation)."""

    def __init__(self, bots: dict):
        self.bots = bots

    def __call__(self, observation, legal: Sequence[dict], rng: random.Random) -> dict:
        return self.bots[len(observation["hands"])](observation, legal, rng)


def search_bot(engine, determinizations: int = 6):
    """The shared determinised MCTS (domain/search.py) on ``engine``'s rules version, its playouts
    cut after :data:`HORIZON` rounds and scored by :func:`_evaluate`."""
    from domain.search import SearchBot, SearchGame

    def rollout(state, seat, legal, rng):
        # the playouts play as ``strong`` does: uniform playouts commit weak pairs and say little
        return strong_bot(engine.observation(state, seat), legal, rng)

    game = SearchGame(engine=engine, determinize=_horizon_state, seat=_seat, cutoff=_cutoff,
                      evaluate=_evaluate, rollout=rollout)
    return _ByPlayers({n: SearchBot(game, iterations=count, determinizations=determinizations)
                       for n, count in ITERATIONS.items()})


BOTS = {"random": random_bot, "basic": basic_bot, "strong": strong_bot}
