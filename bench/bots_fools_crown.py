"""Fool's Crown computer levels, each against the one below (bench/bot_ladder.py), and the time a
searched move takes.

Usage: .venv/bin/python bench/bots_fools_crown.py [MATCHES [MCTS_MATCHES [PLAYERS [FIRST]]]]
       .venv/bin/python bench/bots_fools_crown.py time [MATCHES]
       .venv/bin/python bench/bots_fools_crown.py value [SAMPLES]

``time`` plays MATCHES (default 3) matches of mcts against strong at 2, 3 and 4 seats and prints the
median, 90th percentile and longest time of an mcts move (a move with a single legal action is not
searched and not counted). ``value`` recomputes the two-seat table ``VALUE2`` of
domain/games/fools_crown/bots.py (seat 0's win share at a round start, strong against strong,
SAMPLES simulated matches a cell, default 4000) and prints it.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_ladder import main  # noqa: E402


def move_times(matches: int) -> None:
    from domain.games import get_engine
    from domain.playout import new_match, play

    engine = get_engine("fools-crown")
    bots = engine.bots()
    for players in (2, 3, 4):
        times: list[float] = []

        def policy(state, seat, legal, rng, times=times):
            observation = engine.observation(state, seat)
            if seat % 2:
                return bots["strong"](observation, legal, rng)
            start = time.perf_counter()
            action = bots["mcts"](observation, legal, rng)
            if len(legal) > 1:
                times.append(time.perf_counter() - start)
            return action

        for index in range(matches):
            play(engine, new_match(engine, players), random.Random(index), policy)
        times.sort()
        print(f"{players} seats: {len(times)} mcts moves, median {times[len(times) // 2]:.3f} s, "
              f"90th percentile {times[int(0.9 * len(times))]:.3f} s, longest {times[-1]:.3f} s", flush=True)


def value_table(samples: int) -> None:
    from domain.games.fools_crown.bots import _simulate
    from domain.games.fools_crown.cards import CROWNS, JOKERS, PLAYING
    from domain.games.fools_crown.state import CURRENT_VERSION, Rules, new_state

    rules = Rules.of(CURRENT_VERSION)  # the shipped VALUE2 was computed under 1.1.0 (refill from seat 0)

    def win_share(c0, c1, j0, j1):
        rng = random.Random(f"{c0}{c1}{j0}{j1}")
        total = 0.0
        for _ in range(samples):
            crowns = list(CROWNS)
            rng.shuffle(crowns)
            cards = list(PLAYING)
            rng.shuffle(cards)
            discarded = rng.randrange(20)
            deck = cards[10 + discarded:]
            for joker in JOKERS[j0 + j1:]:
                deck.insert(rng.randrange(len(deck) + 1), joker)
            state = new_state(2, {"safety_cap": True, "commit_order": "simultaneous"})
            state.update({"stage": "commit", "deck": deck, "discard": cards[10:10 + discarded],
                          "hands": [cards[:5], cards[5:10]], "jokers": [JOKERS[:j0], JOKERS[j0:j0 + j1]],
                          "crowns": [crowns[:c0], crowns[c0:c0 + c1]], "centre": crowns[c0 + c1:]})
            ranks = _simulate(state, rng, rules)[0]
            total += (ranks[0] == 1) / sum(1 for r in ranks if r == 1)
        return total / samples

    cells = [(c0, c1, j0, j1) for c0 in range(4) for c1 in range(4) if c0 + c1 <= 4
             for j0 in range(3) for j1 in range(3) if j0 + j1 <= 2]
    raw = {cell: win_share(*cell) for cell in cells}
    print("VALUE2 = {")
    for c0, c1 in sorted({cell[:2] for cell in cells}):
        row = ", ".join(f"({j0}, {j1}): {round((raw[c0, c1, j0, j1] + 1 - raw[c1, c0, j1, j0]) / 2, 3)}"
                        for (a, b, j0, j1) in cells if (a, b) == (c0, c1))
        print(f"    ({c0}, {c1}): {{{row}}},")
    print("}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "time":
        move_times(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    elif len(sys.argv) > 1 and sys.argv[1] == "value":
        value_table(int(sys.argv[2]) if len(sys.argv) > 2 else 4000)
    else:
        main("fools-crown", [("basic", "random"), ("strong", "basic"), ("mcts", "strong")])
