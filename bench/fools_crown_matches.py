"""Matches of Fool's Crown computer opponents against each other, played by the domain's one playout
loop (domain.playout). Each bot sees only its seat's observation and its legal actions, as a human
would. Used by bench/fools_crown_bots.py and by tests/engines/test_fools_crown_playouts.py.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.engine import Bot, Engine, Result  # noqa: E402
from domain.playout import Policy, new_match, play, uniform  # noqa: E402


def bot_policy(engine: Engine, bot: Bot) -> Policy:
    """A playout policy that shows the bot only the seat's observation (never the state)."""

    def policy(state, seat: int, legal: list, rng: random.Random):
        return bot(engine.observe(state, seat), legal, rng)

    return policy


def policy_of(engine: Engine, level: str) -> Policy:
    """A bot level by name; "random" is uniform random legal play (the baseline)."""
    return uniform if level == "random" else bot_policy(engine, engine.bots()[level])


def play_match(engine: Engine, levels: Sequence[str], seed: int, options: Optional[dict] = None) -> Result:
    """One match with the bot ``levels[i]`` at seat i; chance drawn from ``random.Random(seed)``."""
    state = new_match(engine, len(levels), options)
    policies = {seat: policy_of(engine, level) for seat, level in enumerate(levels)}
    outcome = play(engine, state, random.Random(seed), policies=policies)
    assert outcome.result is not None
    return outcome.result


def win_shares(engine: Engine, levels: Sequence[str], matches: int, num_players: int, seed: int = 0,
               options: Optional[dict] = None) -> dict:
    """Win share of each bot level over ``matches`` matches of ``num_players`` seats, the levels
    seated alternately (level i of a two-level pairing sits at seats i, i+2 ... in even matches and is
    swapped in odd ones), with the match ``options`` (None: the defaults; for fools-crown e.g. the
    ``commit_order``). A shared win counts fractionally. Returns {level: share of matches won}."""
    wins = {level: 0.0 for level in levels}
    for index in range(matches):
        order = list(levels) if index % 2 == 0 else list(reversed(levels))
        seating = [order[i % len(order)] for i in range(num_players)]
        winners = play_match(engine, seating, seed + index, options).winners
        for seat in winners:
            wins[seating[seat]] += 1 / len(winners)
    return {level: wins[level] / matches for level in levels}
