"""Random playouts of the bare jester engine per player count, through the domain's one playout
loop (domain/playout.py): playouts and moves per second; then the replay of recorded matches,
through the trusted ``apply`` (what replay of stored events uses) and through the checked ``step``
(what a new move costs), to show what checking once saves.

    python bench/jester_playouts.py [N] [VERSION]   (N playouts per player count, default 1000;
                                                     VERSION a shipped rules version, default current)
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.games import get_engine  # noqa: E402
from domain.playout import new_match, play  # noqa: E402

REPLAYED = 100  # matches recorded per player count for the replay figures


def record(engine, n: int, rng: random.Random) -> list:
    """The steps of one random playout, as a match stores them."""
    steps: list = []
    play(engine, new_match(engine, n), rng,
         on_step=lambda before, actor, action, after: steps.append((actor, action)))
    return steps


def bench(count: int, version: str | None) -> None:
    engine = get_engine("jester", version)
    print(f"jester rules {engine.rules_version}")
    for n in range(engine.min_players, engine.max_players + 1):
        rng = random.Random(2026 + n)
        moves = player_moves = 0
        start = time.perf_counter()
        for _ in range(count):
            outcome = play(engine, new_match(engine, n), rng)
            assert outcome.result is not None
            moves += outcome.steps
            player_moves += outcome.player_moves
        elapsed = time.perf_counter() - start
        print(f"jester {n}p: {count} playouts in {elapsed:.2f}s = {count / elapsed:,.0f} playouts/s, "
              f"{moves / elapsed:,.0f} moves/s ({player_moves / elapsed:,.0f} player actions/s, "
              f"{moves / count:.0f} moves per playout)")

        matches = [record(engine, n, rng) for _ in range(min(count, REPLAYED))]
        total = sum(len(steps) for steps in matches)
        timings = {}
        for label, transition in (("apply", engine.apply), ("step", engine.step)):
            start = time.perf_counter()
            for steps in matches:
                state = new_match(engine, n)
                for actor, action in steps:
                    state = transition(state, actor, action)
                assert engine.result(state) is not None
            timings[label] = time.perf_counter() - start
        print(f"jester {n}p replay of {len(matches)} matches: trusted apply {total / timings['apply']:,.0f} "
              f"events/s, checked step {total / timings['step']:,.0f} events/s "
              f"(checking costs {100 * (1 - timings['apply'] / timings['step']):.0f}% of the checked time)")


if __name__ == "__main__":
    bench(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, sys.argv[2] if len(sys.argv) > 2 else None)
