"""Bench: N random playouts of the bare Jester engine per player count (random legal actions,
chance sampled, no harness checks). Usage: python bench/jester_playouts.py [N]"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.engine import CHANCE, SYSTEM, Phase  # noqa: E402
from domain.games.jester import ENGINE  # noqa: E402


def playout(n, seed):
    rng = random.Random(seed)
    state = ENGINE.initial_state(n, ENGINE.check_options(n, {"red_chairs": seed % 2 == 1}))
    moves = 0
    while True:
        turn = ENGINE.to_act(state)
        if turn.kind == Phase.OVER:
            return moves
        if turn.kind == Phase.CHANCE:
            actor, action = CHANCE, ENGINE.sample_chance(state, rng)
        elif turn.kind == Phase.AUTO:
            actor, action = SYSTEM, ENGINE.auto_action(state)
        else:
            actor = rng.choice(turn.seats)
            action = rng.choice(ENGINE.legal_actions(state, actor))
        state = ENGINE.apply(state, actor, action)
        moves += 1


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for n in (2, 3, 4):
        start = time.perf_counter()
        moves = sum(playout(n, seed) for seed in range(count))
        elapsed = time.perf_counter() - start
        print(f"{n} players: {count} playouts in {elapsed:.2f}s: {count / elapsed:.1f} playouts/s, "
              f"{moves / elapsed:.0f} moves/s ({moves / count:.0f} moves per playout)")


if __name__ == "__main__":
    main()
