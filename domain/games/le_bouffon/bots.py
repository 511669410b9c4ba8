"""Computer opponents for Le Bouffon. A bot sees only its observation and the legal actions."""

from __future__ import annotations

import random
from typing import Any, Sequence

from .cards import SORT_KEY, STRENGTH


def random_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    """Any legal action, uniformly."""
    return rng.choice(list(legal))


def _weight(action: dict) -> tuple:
    cards = action.get("cards", [])
    return (STRENGTH[cards[0]], -len(cards), [SORT_KEY[card] for card in cards])


def basic_bot(observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
    """Gives away its weakest cards; laughs whenever it can; otherwise lays its weakest legal set
    (the biggest one of that strength), keeping minotaures and paladins for the end; passes when
    nothing but a minotaure or paladin would go and more than 3 cards are left."""
    legal = list(legal)
    gives = [action for action in legal if action["type"] == "give"]
    if gives:
        return min(gives, key=lambda action: sorted(SORT_KEY[card] for card in action["cards"])[::-1])
    laughs = [action for action in legal if action["type"] == "laugh"]
    if laughs:
        return laughs[0]
    plays = [action for action in legal if action["type"] == "play"]
    if not plays:
        return {"type": "pass"}
    best = min(plays, key=_weight)
    hand = observation.get("hand", []) if isinstance(observation, dict) else []
    if {"type": "pass"} in legal and STRENGTH[best["cards"][0]] >= 13 and len(hand) > 3:
        return {"type": "pass"}
    return best


BOTS = {"random": random_bot, "basic": basic_bot}
