"""Benchmark: random playouts of the bare Fool's Crown engine (no harness checks).

Usage: /work/venv/bin/python bench/fools_crown_playouts.py [N]   (N playouts per player count, default 1000)
Prints, for 2, 3 and 4 players, playouts per second and moves per second (every applied step: player
actions, chance and automatic steps; player actions alone in brackets), with the default options
(safety cap on) and uniformly random legal actions.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.engine import CHANCE, SYSTEM, Phase  # noqa: E402
from domain.games.fools_crown import ENGINE  # noqa: E402


def playout(num_players: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    state = ENGINE.initial_state(num_players, ENGINE.check_options(num_players, {}))
    steps = moves = 0
    while True:
        turn = ENGINE.to_act(state)
        if turn.kind == Phase.OVER:
            return steps, moves
        if turn.kind == Phase.CHANCE:
            actor, action = CHANCE, ENGINE.sample_chance(state, rng)
        elif turn.kind == Phase.AUTO:
            actor, action = SYSTEM, ENGINE.auto_action(state)
        else:
            actor = rng.choice(turn.seats)
            action = rng.choice(ENGINE.legal_actions(state, actor))
            moves += 1
        state = ENGINE.apply(state, actor, action)
        steps += 1


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"Fool's Crown bare-engine random playouts, {count} per player count")
    for players in (2, 3, 4):
        start = time.perf_counter()
        steps = moves = 0
        for seed in range(count):
            s, m = playout(players, seed)
            steps += s
            moves += m
        elapsed = time.perf_counter() - start
        print(
            f"{players} players: {count / elapsed:8.1f} playouts/s  {steps / elapsed:9.0f} moves/s "
            f"({moves / elapsed:8.0f} player actions/s)  {steps / count:6.1f} moves per playout"
        )


if __name__ == "__main__":
    main()
