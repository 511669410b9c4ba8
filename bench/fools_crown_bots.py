"""Benchmark: Fool's Crown computer opponents against each other.

Usage: .venv/bin/python bench/fools_crown_bots.py [N] [RULES_VERSION]   (N matches per pairing and
table, default 1000; the current rules by default)
For each pairing (strong vs basic, basic vs random, strong vs random) plays N two-player matches and N
mixed four-player matches (the two levels alternate around the table: A B A B, then B A B A in the
next match) through domain.playout and prints each level's win share (a shared win counts
fractionally; 50 % is parity).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fools_crown_matches import win_shares  # noqa: E402

from domain.games import get_engine  # noqa: E402


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    engine = get_engine("fools-crown", sys.argv[2] if len(sys.argv) > 2 else None)
    print(f"Fool's Crown {engine.rules_version} bots, {count} matches per pairing and table")
    for pair in (("strong", "basic"), ("basic", "random"), ("strong", "random")):
        for players in (2, 4):
            start = time.perf_counter()
            shares = win_shares(engine, pair, count, players, seed=50_000 * players)
            elapsed = time.perf_counter() - start
            a, b = pair
            print(
                f"{a:>6} vs {b:<6} {players}p: {a} {shares[a]:6.1%}  {b} {shares[b]:6.1%}"
                f"   ({elapsed:5.1f} s)"
            )


if __name__ == "__main__":
    main()
