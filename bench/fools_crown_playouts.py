"""Random playouts of the bare fools-crown engine through domain.playout: playouts and moves per
second, per player count, for the simultaneous and the seat-order commits, under each shipped rules
version (the trusted ``apply``, as replay uses it; ``--checked`` sends every step through ``step``).

    .venv/bin/python bench/fools_crown_playouts.py [N] [--checked]   (N playouts per line, default 1000)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.games import rules_versions  # noqa: E402
from domain.playout import new_match, play  # noqa: E402


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 1000
    checked = "--checked" in sys.argv
    for version, engine in sorted(rules_versions("fools-crown").items()):
        for players in range(engine.min_players, engine.max_players + 1):
            for order in ("simultaneous", "seat-order"):
                rng = random.Random(2026)
                steps = moves = 0
                start = time.perf_counter()
                for _ in range(count):
                    state = new_match(engine, players, {"commit_order": order})
                    outcome = play(engine, state, rng, checked=checked)
                    steps += outcome.steps
                    moves += outcome.player_moves
                elapsed = time.perf_counter() - start
                print(
                    f"fools-crown {version} {players}p {order}{' checked' if checked else ''}: "
                    f"{count} playouts in "
                    f"{elapsed:.2f}s = {count / elapsed:,.0f} playouts/s, {steps / elapsed:,.0f} moves/s "
                    f"({moves / elapsed:,.0f} player actions/s, {steps / count:.0f} moves per playout)"
                )


if __name__ == "__main__":
    main()
