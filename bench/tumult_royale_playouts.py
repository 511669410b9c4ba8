"""Benchmark: random playouts of the bare Tumult Royale engine (no harness checks).

Usage: /work/venv/bin/python bench/tumult_royale_playouts.py [N]   (N playouts per player count and
tax mode, default 1000)

Uniformly random legal actions, chance sampled. In live tax mode the server's timer is simulated:
before each player action, with probability 0.05, the timer runs out (the SYSTEM close-tax action).
Prints playouts per second and moves per second (every applied step: player actions, chance and
automatic steps; player actions alone in brackets) for 2, 3 and 4 players, live and async mode.
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.engine import CHANCE, SYSTEM, Phase  # noqa: E402
from domain.games.tumult_royale import ENGINE  # noqa: E402

TIMEOUT_PROBABILITY = 0.05


def play(num_players: int, options: dict, rng: random.Random) -> tuple[int, int]:
    engine = ENGINE
    state = engine.initial_state(num_players, engine.check_options(num_players, options))
    moves = player_moves = 0
    while True:
        turn = engine.to_act(state)
        if turn.kind == Phase.OVER:
            break
        if turn.kind == Phase.CHANCE:
            state = engine.apply(state, CHANCE, engine.sample_chance(state, rng))
        elif turn.kind == Phase.AUTO:
            state = engine.apply(state, SYSTEM, engine.auto_action(state))
        elif engine.timer(state) is not None and rng.random() < TIMEOUT_PROBABILITY:
            state = engine.apply(state, SYSTEM, engine.timeout_action(state))
        else:
            seat = rng.choice(turn.seats)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            player_moves += 1
        moves += 1
    assert engine.result(state) is not None
    return moves, player_moves


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(2026)
    for num_players in range(ENGINE.min_players, ENGINE.max_players + 1):
        for mode in ("live", "async"):
            moves = player_moves = 0
            start = time.perf_counter()
            for i in range(count):
                m, p = play(num_players, {"tax_mode": mode, "gamble": i % 2 == 1}, rng)
                moves += m
                player_moves += p
            elapsed = time.perf_counter() - start
            print(
                f"tumult-royale {num_players}p {mode:5}: {count} playouts in {elapsed:.2f}s = "
                f"{count / elapsed:,.0f} playouts/s, {moves / elapsed:,.0f} moves/s "
                f"({player_moves / elapsed:,.0f} player actions/s, {moves / count:.0f} moves per playout)"
            )


if __name__ == "__main__":
    main()
