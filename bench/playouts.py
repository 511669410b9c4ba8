"""Random playouts of a bare rule engine (no harness checks), timed: the figure every game's bench
script prints.

    python bench/playouts.py GAME [N]      e.g.  python bench/playouts.py jester 500

Uniformly random legal actions, chance sampled. Where a phase is timed, the server's timer is
simulated: before each player action, with probability 0.05, the timer runs out (the engine's
timeout action). Moves counts every applied step (player actions, chance and automatic steps).
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Iterable, Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.engine import CHANCE, SYSTEM, Engine, Phase  # noqa: E402
from domain.games import get_engine  # noqa: E402

TIMEOUT_PROBABILITY = 0.05


def play(engine: Engine, num_players: int, options: dict, rng: random.Random) -> tuple[int, int]:
    """One random playout; returns (steps applied, player actions)."""
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


def report(game: str, count: int, variants: Optional[Iterable[tuple[str, dict]]] = None) -> None:
    """Print playouts and moves per second for each player count (and each named option set)."""
    engine = get_engine(game)
    rng = random.Random(2026)
    for num_players in range(engine.min_players, engine.max_players + 1):
        for label, options in variants or [("", {})]:
            moves = player_moves = 0
            start = time.perf_counter()
            for _ in range(count):
                m, p = play(engine, num_players, options, rng)
                moves += m
                player_moves += p
            elapsed = time.perf_counter() - start
            print(
                f"{game} {num_players}p{' ' + label if label else ''}: {count} playouts in {elapsed:.2f}s = "
                f"{count / elapsed:,.0f} playouts/s, {moves / elapsed:,.0f} moves/s "
                f"({player_moves / elapsed:,.0f} player actions/s, {moves / count:.0f} moves per playout)"
            )


def count_argument(default: int = 1000, position: int = 1) -> int:
    return int(sys.argv[position]) if len(sys.argv) > position else default


if __name__ == "__main__":
    report(sys.argv[1], count_argument(position=2))
