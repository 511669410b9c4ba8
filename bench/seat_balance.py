"""Win share by seat position when every seat plays the same computer level (the first-seat
advantage), and the win share of the first mover (the seat whose turn, one seat's alone, comes first in
the match: where seats are dealt a turn order at random, seat 0 is not the first to play), with Wilson
95 % intervals; ties share the win.

Usage: .venv/bin/python bench/seat_balance.py GAME [LEVEL [MATCHES [OPTIONS_JSON]]]
(level ``basic`` and 400 matches per player count by default). Chance is drawn from a seeded rng,
so a run is repeatable.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_ladder import wilson  # noqa: E402

from domain.games import get_engine  # noqa: E402
from domain.playout import new_match, play  # noqa: E402


def main() -> None:
    game = sys.argv[1]
    level = sys.argv[2] if len(sys.argv) > 2 else "basic"
    matches = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    engine = get_engine(game)
    bot = engine.bots()[level]
    print(f"{engine.title} {engine.rules_version}, every seat {level}, {matches} matches a count, options {options}")
    for players in range(engine.min_players, engine.max_players + 1):
        wins = [0.0] * players
        first_wins = 0.0
        first: list[int] = []

        def policy(state, seat, legal, rng, first=first):
            if not first and len(engine.to_act(state).seats) == 1:
                first.append(seat)  # the match's first mover: its first turn that is one seat's alone
            return bot(engine.observation(state, seat), legal, rng)

        for index in range(matches):
            first.clear()
            outcome = play(engine, new_match(engine, players, options), random.Random(7_000 * players + index), policy)
            winners = outcome.result.winners
            for seat in winners:
                wins[seat] += 1 / len(winners)
            if first and first[0] in winners:
                first_wins += 1 / len(winners)
        cells = []
        for seat in range(players):
            share = wins[seat] / matches
            low, high = wilson(share, matches)
            cells.append(f"seat {seat} {share:5.1%} [{low:5.1%}, {high:5.1%}]")
        low, high = wilson(first_wins / matches, matches)
        cells.append(f"first mover {first_wins / matches:5.1%} [{low:5.1%}, {high:5.1%}]")
        print(f"{players}p (fair {1 / players:5.1%}): " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
