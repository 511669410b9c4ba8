"""Random playouts of the bare Tumult Royale engine per player count, in live and async tax mode,
under the current rules and under 1.0.0 (no ready step), driven by the domain's one playout loop
(domain.playout.play, trusted apply). In live mode a running timer (the ready step or the hourglass)
runs out with probability 0.05 before each player action. A second figure replays the recorded steps
of the same playouts through the trusted ``apply`` (what replay of stored events does).

    python bench/tumult_royale_playouts.py [N]   (N playouts per player count and mode, default 1000)
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.games import get_engine  # noqa: E402
from domain.playout import new_match, play  # noqa: E402

TIMEOUT_PROBABILITY = 0.05
MODES = (("live", {"tax_mode": "live"}), ("async", {"tax_mode": "async"}))


def run(version: str, count: int) -> None:
    engine = get_engine("tumult-royale", version)
    rng = random.Random(2026)
    for num_players in range(engine.min_players, engine.max_players + 1):
        for label, options in MODES:
            log: list = []

            def record(before, actor, action, after, log=log):
                log.append((actor, action))

            steps = moves = 0
            starts = []
            begin = time.perf_counter()
            for _ in range(count):
                start = new_match(engine, num_players, options)
                starts.append((start, len(log)))
                outcome = play(engine, start, rng, timeout_probability=TIMEOUT_PROBABILITY, on_step=record)
                assert outcome.result is not None
                steps += outcome.steps
                moves += outcome.player_moves
            elapsed = time.perf_counter() - begin
            ends = [at for _, at in starts[1:]] + [len(log)]
            begin = time.perf_counter()
            for (state, at), end in zip(starts, ends):
                for actor, action in log[at:end]:
                    state = engine.apply(state, actor, action)
            replay = time.perf_counter() - begin
            print(
                f"tumult-royale {version} {num_players}p {label}: {count} playouts in {elapsed:.2f}s = "
                f"{count / elapsed:,.0f} playouts/s, {steps / elapsed:,.0f} steps/s "
                f"({moves / elapsed:,.0f} player actions/s, {steps / count:.0f} steps per playout); "
                f"replay {steps / replay:,.0f} steps/s"
            )


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for version in ("1.1.0", "1.0.0"):
        run(version, n)
