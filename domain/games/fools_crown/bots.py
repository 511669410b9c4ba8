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
from typing import Sequence

from .cards import NOBLE, SQUIRE, SUIT, VALUE


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


BOTS = {"basic": basic_bot, "strong": strong_bot}
