"""Benchmark: random playouts of the bare Le Bouffon engine (no harness checks).

Usage: /work/venv/bin/python bench/le_bouffon_playouts.py [N] [DEALS]
N playouts per player count (default 1000) of DEALS-deal matches (default: the engine's default
match, 5 deals). Random legal actions, chance sampled. Prints playouts per second and moves per
second (every applied step: player actions, chance and automatic steps; player actions alone in
brackets) for 3 to 6 players.
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.engine import CHANCE, SYSTEM, Phase  # noqa: E402
from domain.games.le_bouffon import ENGINE  # noqa: E402


def play(num_players: int, deals: int, rng: random.Random) -> tuple[int, int]:
    engine = ENGINE
    state = engine.initial_state(num_players, engine.check_options(num_players, {"deals": deals}))
    moves = player_moves = 0
    while True:
        turn = engine.to_act(state)
        if turn.kind == Phase.OVER:
            break
        if turn.kind == Phase.CHANCE:
            state = engine.apply(state, CHANCE, engine.sample_chance(state, rng))
        elif turn.kind == Phase.AUTO:
            state = engine.apply(state, SYSTEM, engine.auto_action(state))
        else:
            seat = rng.choice(turn.seats)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            player_moves += 1
        moves += 1
    assert engine.result(state) is not None
    return moves, player_moves


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else ENGINE.default_options()["deals"]
    rng = random.Random(2026)
    for num_players in range(ENGINE.min_players, ENGINE.max_players + 1):
        moves = player_moves = 0
        start = time.perf_counter()
        for _ in range(count):
            m, p = play(num_players, deals, rng)
            moves += m
            player_moves += p
        elapsed = time.perf_counter() - start
        print(
            f"le-bouffon {num_players}p, {deals} deal(s): {count} playouts in {elapsed:.2f}s = "
            f"{count / elapsed:,.0f} playouts/s, {moves / elapsed:,.0f} moves/s "
            f"({player_moves / elapsed:,.0f} player actions/s, {moves / count:.0f} moves per playout)"
        )


if __name__ == "__main__":
    main()
