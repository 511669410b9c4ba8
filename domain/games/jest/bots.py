"""Computer opponents for Jest (rules: docs/rules/jest.md). A bot sees only its observation and
the legal actions, like a player.

* ``random``: any legal action.
* ``basic``: greedy on the Jest value (house rule R6): it takes the visible card that raises its own
  Jest's score most (a face-down card is valued at the average unseen card), and offers its
  better card face down, keeping it out of the others' reach.
* ``mcts``: the shared flat search (:class:`domain.search.FlatSearch`) over states sampled from the
  observation by :func:`determinize`: every legal action tried on the same samples, played on to the
  end by basic at every seat (:func:`_rollout`), scored by :func:`_rewards`; basic's move unless
  the samples show a better one. (The shared tree search, ``SearchBot``, did not beat basic: 33.4 % of 1000 three-player
  matches at 250 passes, 34.8 % at 100, the fair share being 33.3 %.)
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from domain.search import FlatSearch, SearchGame

from .engine import _TROPHIES, ENGINE
from .scoring import CARDS, score_jest


def random_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    return rng.choice(list(legal))


def _taken_up(observation: dict) -> list[list[str]]:
    """The face-up cards each seat is known to hold in its Jest (the observation's ``taken_up``; an
    observation without it knows none)."""
    known = observation.get("taken_up")
    return [list(cards) for cards in known] if known else [[] for _ in observation["offers"]]


def _unseen(observation: dict) -> list[str]:
    """Cards this seat has not seen anywhere in its observation (hidden hands, face-down offers,
    the others' Jests but for the face-up cards they took, the deck)."""
    seen = set(observation.get("hand", [])) | set(observation.get("jest", []))
    seen.update(card for cards in _taken_up(observation) for card in cards)
    seen.update(trophy["card"] for trophy in observation["trophies"])
    for offer in observation["offers"]:
        if isinstance(offer, dict):
            for value in (offer.get("up"), offer.get("down")):
                if isinstance(value, str):
                    seen.add(value)
    return [card for card in CARDS if card not in seen]


def basic_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    legal = list(legal)
    if legal[0]["type"] == "offer":
        # The card worth more to a taker goes down (the up card sets the taking order, R1).
        return max(legal, key=lambda action: score_jest([action["down"]]) - score_jest([action["up"]]))
    jest = observation.get("jest", [])
    base = score_jest(jest)
    unseen = _unseen(observation)
    own = observation["seat"]

    def gain(action: dict) -> float:
        offer = observation["offers"][action["from"]]
        if action["card"] == "up" or action["from"] == own:
            card = offer[action["card"]]
            return score_jest(jest + [card]) - base
        if not unseen:
            return 0.0
        return sum(score_jest(jest + [card]) - base for card in unseen) / len(unseen)

    best = max(gain(action) for action in legal)
    return rng.choice([action for action in legal if gain(action) == best])


def determinize(observation: dict, seat: int, rng: random.Random) -> dict:
    """A full Jest state showing ``seat`` exactly ``observation``: the unseen cards dealt at random
    to the others' hands, face-down offers, Jests and the deck. The face-up cards a seat took
    (``taken_up``, public) stay in that seat's Jest; only the rest of it is dealt."""
    n = len(observation["offers"])
    pool = _unseen(observation)
    rng.shuffle(pool)

    def draw(count: int) -> list[str]:
        taken = pool[:count]
        del pool[:count]
        return taken

    phase = observation["phase"]
    hands: list[list[str]] = [[] for _ in range(n)]
    offers: list = [None] * n
    for s, offer in enumerate(observation["offers"]):
        if s == seat:
            hands[s] = list(observation["hand"])
            offers[s] = None if offer is None else dict(offer)
        elif phase == "offer":
            cards = draw(2)
            if offer["offered"]:
                rng.shuffle(cards)
                offers[s] = {"up": cards[0], "down": cards[1]}
            else:
                hands[s] = cards
        elif offer is not None:
            offers[s] = {"up": offer["up"], "down": draw(1)[0] if offer["down"] else None}
    taken_up = _taken_up(observation)
    jests = [
        list(observation["jest"]) if s == seat
        else taken_up[s] + draw(observation["jest_counts"][s] - len(taken_up[s]))
        for s in range(n)
    ]
    deck = draw(observation["deck_count"])
    trophies = [trophy["card"] for trophy in observation["trophies"]]
    assert not pool and len(trophies) == _TROPHIES[n], "the observation does not add up to 17 cards"
    return {
        "n": n,
        "rounds": observation["rounds"],
        "round": observation["round"],
        "phase": phase,
        "trophies": trophies,
        "deck": deck,
        "hands": hands,
        "offers": offers,
        "jests": jests,
        "taken": list(observation["taken"]),
        "taken_up": [list(cards) for cards in taken_up],
        "taker": observation["taker"],
        "winners": None,
        "scores": None,
        # The match's options as the observation states them (rules 1.1.0 on; 1.0.0 plays the defaults).
        **({"options": dict(observation["options"])} if "options" in observation else {}),
    }


def _rollout(state: dict, seat: int, legal: list, rng: random.Random) -> dict:
    """The playouts: every seat plays basic on its own observation of the sampled state. Not on the
    whole sample: a taker who saw the face-down cards would make hiding the better card worthless,
    and the search then misjudged every offer (34.5 % of 200 matches against basic with such
    playouts, 54.0 % with these)."""
    return basic_bot(ENGINE.observation(state, seat), legal, rng)


def _rewards(state: dict) -> list[float]:
    """A seat's reward at the end: its share of the win (R7, ties broken as the engine breaks them)
    weighs 0.7, its lead on score over the best other (squashed into [0, 1]) 0.3, so that among
    moves that win or lose alike the one that wins by more, or loses by less, is preferred."""
    result = ENGINE.result(state)
    assert result is not None
    scores, ranks = result.scores, result.ranks
    firsts = sum(1 for rank in ranks if rank == 1)
    n = len(scores)
    return [0.7 * (1.0 / firsts if ranks[s] == 1 else 0.0)
            + 0.3 * (0.5 + 0.5 * math.tanh((scores[s] - max(scores[t] for t in range(n) if t != s)) / 4))
            for s in range(n)]


SEARCH = SearchGame(engine=ENGINE, determinize=determinize, rollout=_rollout, evaluate=_rewards)
#: Playouts a move, under 1 s on this machine (bench/bots.py prints the time a move takes).
PLAYOUTS = 240
mcts_bot = FlatSearch(SEARCH, basic_bot, playouts=PLAYOUTS)

BOTS = {"random": random_bot, "basic": basic_bot, "mcts": mcts_bot}
