"""The simulator: computer opponents play whole matches in the bare engine, in parallel processes,
and the outcomes are summed up by seat position and by level (issue 14; `motley simulate`).

Nothing is stored: a simulated match never touches the event store or the worker. The seats rotate
(match ``i`` gives seat ``s`` the level ``lineup[(s + i) % n]``), so every level sits in every seat
equally often and the seat figures are free of the levels' strength when the lineup is mixed.
Win rates carry a 95 % Wilson score interval (scipy's ``binomtest(...).proportion_ci``).
"""

from __future__ import annotations

import random
import signal
import statistics
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import Pool
from typing import Any, Iterator, Optional, Sequence

from scipy.stats import binomtest

from domain.engine import Bot, Engine
from domain.games import get_engine
from domain.playout import new_match, play


class SimulationError(ValueError):
    """A lineup or count the simulator cannot run (an unknown level, a wrong number of seats)."""


@dataclass(frozen=True)
class Plan:
    game: str
    players: int
    lineup: tuple[str, ...]  # one level per seat, rotated from match to match
    matches: int
    options: dict = field(default_factory=dict)
    seed: int = 0
    iterations: Optional[int] = None  # a search budget for every search level (None: the listed one)

    def levels(self, index: int) -> list[str]:
        n = self.players
        return [self.lineup[(seat + index) % n] for seat in range(n)]


@dataclass(frozen=True)
class MatchRecord:
    index: int
    levels: tuple[str, ...]  # by seat
    ranks: tuple[int, ...]
    scores: tuple
    player_moves: int
    first_mover: int  # the seat of the match's first player move (Le Bouffon: the first roi, who leads)


def plan(game: str, players: int, lineup: Sequence[str], matches: int, options: Optional[dict] = None,
         seed: int = 0, iterations: Optional[int] = None) -> Plan:
    """A checked plan: the game, the player count and options are valid, every level exists, the
    lineup names one level per seat (a single level fills every seat)."""
    engine = get_engine(game)
    full = engine.check_options(players, options or {})
    known = engine.bots()
    levels = tuple(lineup) * players if len(lineup) == 1 else tuple(lineup)
    if len(levels) != players:
        raise SimulationError(f"--seats names {len(lineup)} levels for {players} players")
    unknown = sorted(set(levels) - set(known))
    if unknown:
        raise SimulationError(f"{game} has no computer level {', '.join(unknown)} (it has {', '.join(sorted(known))})")
    if matches < 1:
        raise SimulationError("at least one match")
    return Plan(game, players, levels, matches, full, seed, iterations)


def _bot(engine: Engine, level: str, iterations: Optional[int]) -> Bot:
    bot = engine.bots()[level]
    budgeted = getattr(bot, "with_budget", None)  # a search (domain/search.py's, or a game's own)
    if iterations is not None and budgeted is not None:
        return budgeted(iterations=iterations)
    return bot


def play_match(simulation: Plan, index: int) -> MatchRecord:
    """Match ``index`` of the plan, seeded by (seed, index): the same plan plays the same matches."""
    engine = get_engine(simulation.game)
    levels = simulation.levels(index)
    bots = {seat: _bot(engine, level, simulation.iterations) for seat, level in enumerate(levels)}

    def policy(state: Any, seat: int, legal: list, rng: random.Random) -> Any:
        return bots[seat](engine.observe(state, seat), legal, rng)

    movers: list[int] = []

    def on_step(before: Any, actor: Any, action: Any, after: Any) -> None:
        if not movers and type(actor) is int:
            movers.append(actor)

    rng = random.Random(f"{simulation.seed}:{index}")
    outcome = play(engine, new_match(engine, simulation.players, simulation.options), rng, policy, on_step=on_step)
    assert outcome.result is not None
    return MatchRecord(index, tuple(levels), tuple(outcome.result.ranks), tuple(outcome.result.scores),
                       outcome.player_moves, movers[0])


def _play_chunk(simulation: Plan, indices: Sequence[int]) -> list[MatchRecord]:
    return [play_match(simulation, index) for index in indices]


def run(simulation: Plan, workers: int = 2, chunk: int = 4) -> Iterator[MatchRecord]:
    """Every match of the plan, as each finishes (in any order), played by ``workers`` processes
    (1: in this process)."""
    indices = list(range(simulation.matches))
    chunks = [indices[i : i + chunk] for i in range(0, len(indices), chunk)]
    if workers <= 1:
        for part in chunks:
            yield from _play_chunk(simulation, part)
        return
    # Stopped (Ctrl-C, or the consumer gone), the workers are ended at once and the chunks not done are
    # dropped: an executor's exit waited for every chunk queued (200 matches went on for minutes after Ctrl-C),
    # and then, cancelling those, still for the chunks being played and the one queued behind each (on a loaded
    # CI a minute and more of tree-search matches); each worker printed its KeyboardInterrupt's traceback too
    # (a command-line probe).
    pool = Pool(workers, initializer=_leave_interrupts_to_the_parent)
    try:
        for records in pool.imap_unordered(partial(_play_chunk, simulation), chunks):
            yield from records
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
        pool.join()


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C (sent to the terminal's whole process group): the parent stops the run. It
    ends at the parent's SIGTERM (the pool's terminate), whatever handler the parent had for it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@dataclass(frozen=True)
class Rate:
    wins: int
    trials: int
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    def to_json(self) -> dict:
        return {"wins": self.wins, "trials": self.trials, "share": self.share, "low": self.low, "high": self.high}


def rate(wins: int, trials: int) -> Rate:
    """A win share with its 95 % Wilson score interval."""
    if trials == 0:
        return Rate(0, 0, 0.0, 1.0)
    interval = binomtest(wins, trials).proportion_ci(confidence_level=0.95, method="wilson")
    return Rate(wins, trials, float(interval.low), float(interval.high))


def _spread(values: Sequence[float]) -> dict:
    return {
        "mean": statistics.fmean(values),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


@dataclass(frozen=True)
class Report:
    """What the matches show. A win is rank 1 (tied winners each win)."""

    simulation: Plan
    by_seat: list[Rate]  # win rate of each seat position
    by_level: dict[str, Rate]  # win rate of a seat played by each level
    first_mover: Rate  # win rate of the seat that made the first player move
    fair_share: float  # 1 / players: the rate of a seat or level that is not favoured
    lengths: dict  # player moves per match
    spreads: dict  # best minus worst score per match
    mean_score: dict[str, float]  # by level
    records: list[MatchRecord]

    def to_json(self) -> dict:
        return {
            "game": self.simulation.game,
            "players": self.simulation.players,
            "lineup": list(self.simulation.lineup),
            "matches": len(self.records),
            "fair_share": self.fair_share,
            "by_seat": [r.to_json() for r in self.by_seat],
            "by_level": {level: r.to_json() for level, r in self.by_level.items()},
            "first_mover": self.first_mover.to_json(),
            "lengths": self.lengths,
            "spreads": self.spreads,
            "mean_score": self.mean_score,
        }


def summarize(simulation: Plan, records: Sequence[MatchRecord]) -> Report:
    n = simulation.players
    records = sorted(records, key=lambda record: record.index)
    seat_wins = [sum(1 for r in records if r.ranks[seat] == 1) for seat in range(n)]
    level_wins: dict[str, int] = {}
    level_seats: dict[str, int] = {}
    level_scores: dict[str, list[float]] = {}
    for record in records:
        for seat, level in enumerate(record.levels):
            level_seats[level] = level_seats.get(level, 0) + 1
            level_wins[level] = level_wins.get(level, 0) + (record.ranks[seat] == 1)
            level_scores.setdefault(level, []).append(float(record.scores[seat]))
    return Report(
        simulation=simulation,
        by_seat=[rate(wins, len(records)) for wins in seat_wins],
        by_level={level: rate(level_wins[level], level_seats[level]) for level in sorted(level_seats)},
        first_mover=rate(sum(1 for r in records if r.ranks[r.first_mover] == 1), len(records)),
        fair_share=1 / n,
        lengths=_spread([r.player_moves for r in records]),
        spreads=_spread([max(r.scores) - min(r.scores) for r in records]),
        mean_score={level: statistics.fmean(scores) for level, scores in sorted(level_scores.items())},
        records=list(records),
    )


def format_report(report: Report) -> str:
    """The report as text (the CLI prints it)."""
    sim = report.simulation
    lines = [f"{sim.game}, {sim.players} players, {len(report.records)} matches, seats rotating over "
             f"{','.join(sim.lineup)}; a fair share is {report.fair_share:.1%}", "", "win rate by seat position:"]
    for seat, r in enumerate(report.by_seat):
        lines.append(f"  seat {seat + 1}: {r.share:6.1%}  [{r.low:.1%}, {r.high:.1%}]  ({r.wins}/{r.trials})")
    first = report.first_mover
    lines.append(f"  the first to move: {first.share:6.1%}  [{first.low:.1%}, {first.high:.1%}]  "
                 f"({first.wins}/{first.trials})")
    lines.append("win rate by level (per seat it plays):")
    for level, r in report.by_level.items():
        lines.append(f"  {level:>8}: {r.share:6.1%}  [{r.low:.1%}, {r.high:.1%}]  ({r.wins}/{r.trials}), "
                     f"mean score {report.mean_score[level]:.2f}")
    for title, figures in (("match length (player moves)", report.lengths),
                           ("score spread (best - worst)", report.spreads)):
        lines.append(f"{title}: mean {figures['mean']:.1f}, sd {figures['stdev']:.1f}, min {figures['min']}, "
                     f"median {figures['median']}, max {figures['max']}")
    return "\n".join(lines)
