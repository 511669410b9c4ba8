"""Each computer level of a game against the one below it, head to head, with 95 % intervals.

Shared by bench/bots_fools_crown.py, bench/bots_jester.py and bench/bots_tumult_royale.py. A pairing
plays two-seat matches through the domain's one playout loop (domain.playout), the two levels
swapping seats every match; a bot sees only its seat's observation and its legal actions. The win
share of the upper level counts a shared win as half, and its 95 % interval is Wilson's score
interval (statistics.NormalDist gives the quantile).
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path
from statistics import NormalDist
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.engine import Engine  # noqa: E402
from domain.games import get_engine  # noqa: E402
from domain.playout import new_match, play  # noqa: E402


def wilson(share: float, count: int, confidence: float = 0.95) -> tuple[float, float]:
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    centre = (share + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    return centre - half, centre + half


def play_pair(engine: Engine, upper: str, lower: str, seed: int, players: int = 2,
              options: Optional[dict] = None, times: Optional[list] = None) -> tuple[float, int]:
    """One match, ``upper`` at the even seats when the seed is even, at the odd ones otherwise;
    returns the upper level's share of the win and the number of player moves. With ``times``, the
    seconds each of the upper level's moves took (those with more than one legal action) go there."""
    bots = engine.bots()
    levels = [upper if (seat + seed) % 2 == 0 else lower for seat in range(players)]

    def policy(state, seat, legal, rng):
        observation = engine.observation(state, seat)
        if times is None or levels[seat] != upper or len(legal) < 2:
            return bots[levels[seat]](observation, legal, rng)
        start = time.perf_counter()
        action = bots[upper](observation, legal, rng)
        times.append(time.perf_counter() - start)
        return action

    outcome = play(engine, new_match(engine, players, options), random.Random(seed), policy)
    assert outcome.result is not None
    winners = outcome.result.winners
    return sum(1 for s in winners if levels[s] == upper) / len(winners), outcome.player_moves


def ladder(game: str, pairings: Sequence[tuple[str, str, int]], players: int = 2, first: int = 0) -> None:
    """Each pairing's matches ``first`` to ``first + matches - 1`` (each seeded by its index, so runs
    of consecutive ranges add up to one longer run: their totals are summed by hand)."""
    engine = get_engine(game)
    print(f"{engine.title} {engine.rules_version}, {players} seats, levels alternating seats, "
          f"matches {first} on")
    print(f"{'pairing':<18} {'matches':>7} {'upper wins':>10} {'95 % interval':>17} {'s/match':>8}"
          f" {'s/move median':>13} {'max':>5}")
    for upper, lower, matches in pairings:
        if matches <= 0:
            continue
        start = time.perf_counter()
        total = 0.0
        times: list[float] = []  # the upper level's moves with a choice
        for index in range(first, first + matches):
            share, _ = play_pair(engine, upper, lower, 1_000_003 * players + index, players, times=times)
            total += share
            done = index + 1 - first
            if done % 10 == 0:  # a running figure on stderr, for long searches
                print(f"  {upper} v {lower}: {total / done:.1%} after {done} ({total:g} won)", file=sys.stderr,
                      flush=True)
        elapsed = time.perf_counter() - start
        share = total / matches
        low, high = wilson(share, matches)
        times.sort()
        median, longest = (times[len(times) // 2], times[-1]) if times else (0.0, 0.0)
        print(f"{upper + ' v ' + lower:<18} {matches:>7} {share:>10.1%}   [{low:6.1%}, {high:6.1%}]"
              f" {elapsed / matches:>8.2f} {median:>13.3f} {longest:>5.2f}", flush=True)


def main(game: str, default: Sequence[tuple[str, str]]) -> None:
    """``python bench/bots_<game>.py [MATCHES [MCTS_MATCHES [PLAYERS [FIRST]]]]``"""
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    search = int(sys.argv[2]) if len(sys.argv) > 2 else matches
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    ladder(game, [(u, level, search if u == "mcts" else matches) for u, level in default], players, first)
