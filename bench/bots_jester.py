"""Jester computer levels, each against the one below (the matches of bench/bot_ladder.py).

Usage: .venv/bin/python bench/bots_jester.py [MATCHES [MCTS_MATCHES [PLAYERS [WORKERS]]]]

The pairings basic v random (MATCHES, default 1000) and mcts v basic (MCTS_MATCHES, default MATCHES)
at PLAYERS seats (default 2), the levels alternating seats (bot_ladder.play_pair: the upper level at
the even seats when the match's seed is even, at the odd ones otherwise, so at 3 seats it holds two
seats in half the matches and one in the others: its fair share is 50 % at any count). The seeds are
bot_ladder's, 1_000_003 * PLAYERS + index, so a run with WORKERS processes (default 1) plays the same
matches as one without. Prints the win share of the upper level (a shared win counts as half) with
its 95 % Wilson interval, a running figure on stderr every 10 matches, and the time the upper level
took per move with a choice (median, 99th percentile, max; the moves with one legal action left out).
"""

from __future__ import annotations

import sys
import time
from multiprocessing import Pool
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import play_pair, wilson  # noqa: E402

from domain.games import get_engine  # noqa: E402

PAIRINGS = [("basic", "random"), ("mcts", "basic")]


def match(job: tuple[str, str, int, int]) -> tuple[float, list[float]]:
    """One match as bot_ladder.play_pair plays it; the upper level's win share and move times."""
    upper, lower, seed, players = job
    times: list[float] = []
    share, _ = play_pair(get_engine("jester"), upper, lower, seed, players, times=times)
    return share, times


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    search = int(sys.argv[2]) if len(sys.argv) > 2 else matches
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    engine = get_engine("jester")
    print(f"{engine.title} {engine.rules_version}, {players} seats, levels alternating seats, {workers} process(es)")
    print(f"{'pairing':<16} {'matches':>7} {'upper wins':>10} {'95 % interval':>17} {'s/match':>8}"
          f" {'s/move median':>13} {'p99':>5} {'max':>5}")
    with Pool(workers) as pool:
        for upper, lower in PAIRINGS:
            count = search if upper == "mcts" else matches
            if count <= 0:
                continue
            start = time.perf_counter()
            total, times = 0.0, []
            jobs = [(upper, lower, 1_000_003 * players + index, players) for index in range(count)]
            for index, (share, moves) in enumerate(pool.imap(match, jobs)):
                total += share
                times += moves
                if (index + 1) % 10 == 0:  # a running figure on stderr, for long searches
                    print(f"  {upper} v {lower}: {total / (index + 1):.1%} after {index + 1}", file=sys.stderr,
                          flush=True)
            elapsed = time.perf_counter() - start
            share = total / count
            low, high = wilson(share, count)
            times.sort()
            print(f"{upper + ' v ' + lower:<16} {count:>7} {share:>10.1%}   [{low:6.1%}, {high:6.1%}]"
                  f" {elapsed * workers / count:>8.2f} {median(times):>13.3f}"
                  f" {times[int(0.99 * (len(times) - 1))]:>5.2f} {times[-1]:>5.2f}", flush=True)


if __name__ == "__main__":
    main()
