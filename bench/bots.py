"""Each computer level against the one below (issue 14): one seat of the higher level, the other
seats of the lower one, the seats rotating, in the engine alone (application/simulation.py, parallel
processes). Prints the higher level's win share with its 95 % Wilson interval beside the fair share
(1 / players); "beats" means the whole interval lies above the fair share. Then the time the listed
search level (its own budget) takes per move over the decisions of a few matches.

    .venv/bin/python bench/bots.py [--games jest,le-bouffon] [--matches 1000] [--iterations N]
                                   [--workers 2] [--players 3]

``--iterations`` lowers the search budget for the pairings only (a thousand matches at the full
budget take hours on two shared cores); the timing always uses the level's own budget.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from application.simulation import plan, run, summarize  # noqa: E402
from domain.games import get_engine  # noqa: E402
from domain.playout import new_match, next_step  # noqa: E402

LADDER = ("random", "basic", "mcts")


def move_times(game: str, players: int, options: dict, moves: int = 30, seed: int = 0) -> list[float]:
    """Seconds the listed mcts level takes on ``moves`` decisions spread over random matches."""
    engine = get_engine(game)
    bot = engine.bots()["mcts"]
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < moves:
        state = new_match(engine, players, options)
        while engine.to_act(state).kind != "over" and len(times) < moves:
            turn = engine.to_act(state)
            if turn.kind == "players":
                seat = turn.seats[0]
                legal = engine.legal_actions(state, seat)
                if len(legal) > 1 and rng.random() < 0.3:
                    started = time.perf_counter()
                    bot(engine.observe(state, seat), legal, rng)
                    times.append(time.perf_counter() - started)
            actor, action = next_step(engine, state, rng)
            state = engine.apply(state, actor, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="jest,le-bouffon")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--options", default="{}", help='per game, e.g. \'{"le-bouffon": {"deals": 1}}\'')
    parser.add_argument("--pairings", default="basic/random,mcts/basic")
    parser.add_argument("--timing-moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1, help="the matches of a seed are the same every run")
    args = parser.parse_args()
    options = json.loads(args.options)
    rows = []
    print(f"{'game':<11} {'players':>7} {'pairing':<16} {'matches':>7} {'share':>7} {'95% interval':>17} "
          f"{'fair':>6}  verdict   seconds")
    for game in args.games.split(","):
        for pairing in args.pairings.split(","):
            high, low = pairing.split("/")
            simulation = plan(game, args.players, [high] + [low] * (args.players - 1), args.matches,
                              options.get(game, {}), seed=args.seed, iterations=args.iterations)
            started = time.perf_counter()
            report = summarize(simulation, list(run(simulation, workers=args.workers)))
            seconds = time.perf_counter() - started
            r = report.by_level[high]
            verdict = "beats" if r.low > report.fair_share else "NOT beyond"
            row = (f"{game:<11} {args.players:>7} {high + ' vs ' + low:<16} {r.trials:>7} {r.share:>7.1%} "
                   f"[{r.low:6.1%}, {r.high:6.1%}] {report.fair_share:>6.1%}  {verdict:<9} {seconds:.0f}")
            rows.append(row)
            print(row, flush=True)
        if args.timing_moves:
            times = move_times(game, args.players, options.get(game, {}), args.timing_moves)
            print(f"{game}: mcts at its own budget, {len(times)} moves: median {statistics.median(times):.2f} s, "
                  f"max {max(times):.2f} s", flush=True)


if __name__ == "__main__":
    main()
