"""A computer opponent that shows no more with its moves than a player at a table would.

Where a game's rules make several legal actions one move (Le Bouffon's copies of a card kind; Fool's
Crown's Nobles of one suit, all worth 10), a bot that picks among them by id (the first listed, the
lowest copy) tells every seat which of the others it does not hold: laying soldat-2#3 said "no #1 or
#2". :class:`EquivalentChoice` lets the bot choose the move, then draws the action among those the game
counts as the same.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Hashable, Optional, Sequence


class EquivalentChoice:
    """``bot``, its action drawn at random among the legal actions of the same ``move`` (None: an
    action with no equivalents). The search bounded in time (``with_budget``) is wrapped alike."""

    def __init__(self, bot: Any, move: Callable[[dict], Optional[Hashable]]):
        self.bot = bot
        self.move = move

    def __call__(self, observation: Any, legal: Sequence[dict], rng: random.Random) -> dict:
        action = self.bot(observation, legal, rng)
        chosen = self.move(action)
        if chosen is None:
            return action
        same = [other for other in legal if self.move(other) == chosen]
        return rng.choice(same) if len(same) > 1 else action

    def __eq__(self, other: object) -> bool:  # a copy is the same bot (module tables are compared so)
        return isinstance(other, EquivalentChoice) and (self.bot, self.move) == (other.bot, other.move)

    def __hash__(self) -> int:
        return hash(self.move)

    def __getattr__(self, name: str) -> Any:
        # Only what the bot has besides: a copy (copy.deepcopy, pickle) asks for its special names on an
        # instance without ``bot`` yet, and delegating those recursed without end.
        if name.startswith("__") or name in ("bot", "move"):
            raise AttributeError(name)
        inner = getattr(self.bot, name)
        if name == "with_budget":
            return lambda *args, **kwargs: EquivalentChoice(inner(*args, **kwargs), self.move)
        return inner
