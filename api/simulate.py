"""`motley simulate <game> --players N --seats random,mcts,... --matches 1000 [--plot FILE.png]
[--workers K]`: the command-line face of application/simulation.py (progress bar, text, plot)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from typing import Optional

from application.simulation import Report, SimulationError, format_report, plan, run, summarize


def add_parser(commands) -> None:
    simulate = commands.add_parser("simulate", help="play computer opponents against each other in the engine alone")
    simulate.add_argument("game", help="a game name: jest, le-bouffon, fools-crown, jester, tumult-royale")
    simulate.add_argument("--players", type=int, required=True, help="seats at each table (the game's counts)")
    simulate.add_argument("--seats", required=True,
                          help="one computer level per seat, comma separated (one level fills every seat); "
                               "the levels rotate over the seats from match to match")
    simulate.add_argument("--matches", type=int, default=1000, help="matches to play (default 1000)")
    simulate.add_argument("--workers", type=int, default=2, help="parallel processes (default 2)")
    simulate.add_argument("--options", default="{}", help='the match options as JSON, e.g. \'{"deals": 1}\'')
    simulate.add_argument("--iterations", type=int, default=None,
                          help="the search budget of every search level (default: the level's own)")
    simulate.add_argument("--seed", type=int, default=0,
                          help="the draws' seed (default 0): the same seed plays the same matches")
    simulate.add_argument("--plot", default=None, metavar="FILE.png", help="draw the figures (matplotlib)")
    simulate.add_argument("--json", action="store_true", help="print the figures as JSON instead of text")


def simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from domain.engine import InvalidOptions
    from domain.games import UnknownGame, available_engines

    try:
        if args.workers < 1:
            raise SimulationError("--workers is at least 1")
        if args.iterations is not None and args.iterations < 1:
            raise SimulationError("--iterations is at least 1 (a search needs a budget)")
        try:
            options = json.loads(args.options)
        except json.JSONDecodeError as error:
            raise SimulationError(f"--options is not JSON: {error}") from None
        if not isinstance(options, dict):
            raise SimulationError("--options is a JSON object")
        if args.plot:  # said before the matches, not after them
            plot_problem(args.plot)
        # "basic, random" is two levels, as written: the space was part of the second's name.
        lineup = [level.strip() for level in args.seats.split(",") if level.strip()]
        simulation = plan(args.game, args.players, lineup, args.matches,
                          options, args.seed, args.iterations)
    except UnknownGame as error:
        print(f"motley simulate: no game named {error} (games: {', '.join(sorted(available_engines()))})",
              file=sys.stderr)
        return 2
    except (SimulationError, InvalidOptions) as error:
        print(f"motley simulate: {error}", file=sys.stderr)
        return 2
    records: list = []
    # Ended by its process alone (kill, a supervisor's stop), it ends its workers too: they played on for
    # minutes, holding both cores (a command-line probe). A terminal's Ctrl-C reaches the whole group.
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        records.extend(tqdm(run(simulation, workers=args.workers), total=simulation.matches, unit="match",
                            desc=f"{args.game} {args.players}p", file=sys.stderr))
    except (KeyboardInterrupt, Terminated) as stop:  # one line, not a traceback, and the shell's status for it
        print(f"motley simulate: interrupted after {len(records)} of {simulation.matches} matches", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)
    finally:
        signal.signal(signal.SIGTERM, previous)
    report = summarize(simulation, records)
    print(json.dumps(report.to_json(), indent=2) if args.json else format_report(report))
    if args.plot:
        try:
            plot(report, args.plot)
        except OSError as error:  # gone or full since it was checked: the figures above are not lost
            print(f"motley simulate: --plot: could not write {args.plot} ({error.strerror or error})", file=sys.stderr)
            return 1
        # Beside the figures, not among them: `--json --plot` printed it after the JSON, which no parser read.
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


class Terminated(BaseException):
    """SIGTERM, as KeyboardInterrupt is SIGINT: application/simulation.run ends the workers as it unwinds."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated()


def plot_problem(path: str) -> None:
    """Refuse a ``--plot`` file that cannot be written, before the matches are played: a missing folder,
    a folder, or a kind matplotlib does not write (a ".txt" was a traceback after every match, and a
    name without a kind wrote "<name>.png" beside the name it printed)."""
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = sorted(FigureCanvasBase.get_supported_filetypes())
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SimulationError(f"--plot: no folder {folder}")
    if os.path.isdir(path):
        raise SimulationError(f"--plot: {path} is a folder; name a file in it")
    # Whether the file can be made there, by making it (a folder the permissions, or the file system, forbid:
    # /proc/x.png was a traceback after every match).
    existed = os.path.exists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as error:
        raise SimulationError(f"--plot: cannot write {path} ({error.strerror or error})") from None
    if not existed:
        os.remove(path)
    kind = os.path.splitext(path)[1].lstrip(".").lower()
    if kind not in kinds:
        raise SimulationError(f"--plot: name a file ending in one of .{', .'.join(kinds)}")
    # A kind matplotlib lists may need what this machine lacks (.pgf runs LaTeX): a small figure tells.
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(1, 1))
    figure.text(0.5, 0.5, "1")  # text too: .pgf writes an empty figure without LaTeX, not one with a label
    try:
        figure.savefig(io.BytesIO(), format=kind)
    except Exception as error:  # noqa: BLE001 - whatever that kind's writer fails with
        raise SimulationError(f"--plot: this machine cannot write .{kind} ({str(error)[:120]})") from None
    finally:
        plt.close(figure)


def plot(report: Report, path: str, title: Optional[str] = None) -> None:
    """Win rate by seat and by level (with the intervals), match lengths and score spreads."""
    import matplotlib

    matplotlib.use("Agg")  # no display: a file only
    import matplotlib.pyplot as plt

    sim = report.simulation
    figure, axes = plt.subplots(2, 2, figsize=(11, 8))
    for axis, labels, rates, name in (
        (axes[0][0], [f"seat {s + 1}" for s in range(sim.players)], report.by_seat, "win rate by seat position"),
        (axes[0][1], list(report.by_level), list(report.by_level.values()), "win rate by level"),
    ):
        shares = [r.share for r in rates]
        errors = [[r.share - r.low for r in rates], [r.high - r.share for r in rates]]
        axis.bar(labels, shares, yerr=errors, capsize=4, color="#6a8caf")
        axis.axhline(report.fair_share, color="#b04a4a", linestyle="--", label="fair share")
        axis.set_title(f"{name} (95 % Wilson)")
        axis.set_ylim(0, 1)
        axis.legend()
    axes[1][0].hist([r.player_moves for r in report.records], bins=30, color="#8faf6a")
    axes[1][0].set_title("match length (player moves)")
    axes[1][1].hist([max(r.scores) - min(r.scores) for r in report.records], bins=30, color="#af8f6a")
    axes[1][1].set_title("score spread (best - worst)")
    figure.suptitle(title or f"{sim.game}, {sim.players} players, {len(report.records)} matches: "
                    f"{','.join(sim.lineup)} rotating")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
