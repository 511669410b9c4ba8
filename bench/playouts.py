"""Random playouts of a bare rule engine (no harness checks), timed: the figure every game's bench
script prints, played by the domain's one playout loop (domain.playout.play, trusted ``apply``).

    python bench/playouts.py GAME [N]      e.g.  python bench/playouts.py jester 500

Uniformly random legal actions, chance sampled. Where a phase is timed, the server's timer is
simulated: before each player action, with probability 0.05, the timer runs out (the engine's
timeout action). Moves counts every applied step (player actions, chance and automatic steps).
A second line replays recorded matches through the trusted ``apply`` (what replay of stored events
uses) and through the checked ``step`` (what a new move costs): the share of the time that checking
once saves (issue 9).
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Iterable, Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.engine import Engine  # noqa: E402
from domain.games import get_engine  # noqa: E402
from domain.playout import new_match  # noqa: E402
from domain.playout import play as play_out

TIMEOUT_PROBABILITY = 0.05
REPLAYED = 100  # matches recorded per line for the replay figures


def play(
    engine: Engine, num_players: int, options: dict, rng: random.Random, record: Optional[list] = None
) -> tuple[int, int]:
    """One random playout; returns (steps applied, player actions). ``record`` collects the steps."""
    on_step = None
    if record is not None:
        on_step = lambda before, actor, action, after: record.append((actor, action))  # noqa: E731
    outcome = play_out(engine, new_match(engine, num_players, options), rng,
                       timeout_probability=TIMEOUT_PROBABILITY, on_step=on_step)
    assert outcome.result is not None
    return outcome.steps, outcome.player_moves


def replay_rates(engine: Engine, num_players: int, options: dict, matches: list) -> tuple[float, float]:
    """Events per second replaying ``matches`` through ``apply`` and through ``step``."""
    total = sum(len(steps) for steps in matches)
    rates = []
    for transition in (engine.apply, engine.step):
        start = time.perf_counter()
        for steps in matches:
            state = new_match(engine, num_players, options)
            for actor, action in steps:
                state = transition(state, actor, action)
            assert engine.result(state) is not None
        rates.append(total / (time.perf_counter() - start))
    return rates[0], rates[1]


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
            line = f"{game} {num_players}p{' ' + label if label else ''}"
            print(
                f"{line}: {count} playouts in {elapsed:.2f}s = "
                f"{count / elapsed:,.0f} playouts/s, {moves / elapsed:,.0f} moves/s "
                f"({player_moves / elapsed:,.0f} player actions/s, {moves / count:.0f} moves per playout)"
            )
            matches = []
            for _ in range(min(count, REPLAYED)):
                matches.append([])
                play(engine, num_players, options, rng, matches[-1])
            trusted, checked = replay_rates(engine, num_players, options, matches)
            print(
                f"{line} replay of {len(matches)} matches: trusted apply {trusted:,.0f} events/s, "
                f"checked step {checked:,.0f} events/s (checking is {100 * (1 - checked / trusted):.0f}% "
                f"of the checked time)"
            )


def count_argument(default: int = 1000, position: int = 1) -> int:
    return int(sys.argv[position]) if len(sys.argv) > position else default


if __name__ == "__main__":
    report(sys.argv[1], count_argument(position=2))
