"""Computer opponents of Jest and Le Bouffon, the shared search (domain/search.py) and the
simulator (issue 14): every level plays legal moves only, finishes matches, and sees only its
observation; the determinisations show the seat exactly what it saw; the simulator rotates the
seats and counts right."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import signal
import subprocess
import sys
import time

import pytest

from application.simulation import SimulationError, plan, rate, run, summarize
from domain.games import get_engine
from domain.games.jest import bots as jest_bots
from domain.games.le_bouffon import bots as bouffon_bots
from domain.playout import new_match, next_step, play
from domain.search import FlatSearch, SearchBot

GAMES = {"jest": jest_bots, "le-bouffon": bouffon_bots}
OPTIONS = {"jest": {}, "le-bouffon": {"deals": 2}}
COUNTS = {"jest": (3, 4), "le-bouffon": (3, 4, 5, 6)}
SMALL = 24  # a search budget that keeps the tests quick; the levels' own budget is measured in bench/bots.py


def searched(bot):
    """The bot itself, or the one a wrapper plays (domain/equivalent.py: it draws among equivalent actions)."""
    return getattr(bot, "bot", bot)


def _levels(game: str) -> dict:
    """Every level of the game, the search on a small budget."""
    levels = dict(get_engine(game).bots())
    for name, bot in levels.items():
        if isinstance(searched(bot), (SearchBot, FlatSearch)):
            levels[name] = bot.with_budget(iterations=SMALL)
    return levels


def _decision_states(game: str, num_players: int, seed: int, every: int = 1):
    """(state, seat) at every ``every``-th player decision of a random match."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = new_match(engine, num_players, OPTIONS[game])
    decisions = 0
    while True:
        turn = engine.to_act(state)
        if turn.kind == "over":
            return
        if turn.kind == "players":
            for seat in turn.seats:
                if decisions % every == 0:
                    yield state, seat
                decisions += 1
        actor, action = next_step(engine, state, rng)
        state = engine.step(state, actor, action)


def test_every_game_here_has_three_levels():
    for game in GAMES:
        assert {"random", "basic", "mcts"} <= set(get_engine(game).bots())
        assert isinstance(searched(get_engine(game).bots()["mcts"]), (SearchBot, FlatSearch))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_level_plays_legal_moves_only_and_finishes_matches(game):
    engine = get_engine(game)
    levels = _levels(game)
    names = sorted(levels)
    chosen: dict[str, int] = {name: 0 for name in names}
    for num_players in COUNTS[game]:
        lineup = [names[seat % len(names)] for seat in range(num_players)]

        def policy(state, seat, legal, rng, lineup=lineup):
            action = levels[lineup[seat]](engine.observe(state, seat), legal, rng)
            assert action in legal, (lineup[seat], action)
            chosen[lineup[seat]] += 1
            return action

        # checked=True: every chosen move also goes through the engine's checked ``step``.
        outcome = play(engine, new_match(engine, num_players, OPTIONS[game]), random.Random(num_players),
                       policy, checked=True)
        assert outcome.result is not None and sorted(outcome.result.ranks)[0] == 1
    assert all(count > 0 for count in chosen.values()), chosen


@pytest.mark.parametrize("game", list(GAMES))
def test_a_determinisation_shows_the_seat_exactly_what_it_saw(game):
    """Sampled states agree with the observation (so the search plays the same position) and
    really vary the hidden cards."""
    engine = get_engine(game)
    module = GAMES[game]
    rng = random.Random(3)
    varied = checked = 0
    for num_players in COUNTS[game]:
        for state, seat in _decision_states(game, num_players, seed=num_players, every=3):
            observation = engine.observe(state, seat)
            sample = module.determinize(observation, seat, rng)
            assert engine.observe(sample, seat) == observation
            assert engine.legal_actions(sample, seat) == engine.legal_actions(state, seat)
            varied += sample != state
            checked += 1
    assert checked > 20 and varied > checked // 2


def _swap_hidden_jest(state: dict, seat: int) -> dict | None:
    """The state with two other seats' hidden cards exchanged (their Jests), or None if there are
    not two hidden cards that differ."""
    others = [s for s in range(state["n"]) if s != seat and state["jests"][s]]
    if len(others) < 2:
        return None
    a, b = others[:2]
    swapped = {**state, "jests": [list(jest) for jest in state["jests"]]}
    swapped["jests"][a][0], swapped["jests"][b][0] = state["jests"][b][0], state["jests"][a][0]
    return swapped


def _swap_hidden_bouffon(state: dict, seat: int) -> dict | None:
    """Two other seats' hands exchange one card of different strength."""
    others = [s for s in range(state["n"]) if s != seat and state["hands"][s]]
    if len(others) < 2:
        return None
    a, b = others[:2]
    hands = [list(hand) for hand in state["hands"]]
    hands[a][0], hands[b][-1] = state["hands"][b][-1], state["hands"][a][0]
    return {**state, "hands": [sorted(hand, key=bouffon_bots.SORT_KEY.__getitem__) for hand in hands]}


SWAPS = {"jest": _swap_hidden_jest, "le-bouffon": _swap_hidden_bouffon}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_bot_sees_only_its_observation(game):
    """Two states the seat cannot tell apart (equal observations, different hidden cards: one
    sampled by the game's determinize, one with hidden cards swapped between two other seats) make
    every level choose the same action with the same seeded rng."""
    engine = get_engine(game)
    levels = _levels(game)
    module = GAMES[game]
    compared = 0
    for num_players in COUNTS[game][:2]:
        for state, seat in _decision_states(game, num_players, seed=10 + num_players, every=4):
            observation = engine.observe(state, seat)
            twins = [module.determinize(engine.observe(state, seat), seat, random.Random(compared))]
            swapped = SWAPS[game](state, seat)
            if swapped is not None:
                twins.append(swapped)
            for twin in twins:
                if twin == state:
                    continue
                assert engine.observe(twin, seat) == observation
                legal = engine.legal_actions(state, seat)
                assert engine.legal_actions(twin, seat) == legal
                for name, bot in levels.items():
                    first = bot(engine.observe(state, seat), legal, random.Random(99))
                    second = bot(engine.observe(twin, seat), engine.legal_actions(twin, seat), random.Random(99))
                    assert first == second, (name, first, second)
                compared += 1
    assert compared >= 10


# -- the simulator ---------------------------------------------------------------------------------
def test_a_simulation_plan_refuses_what_it_cannot_run():
    with pytest.raises(SimulationError, match="no computer level"):
        plan("jest", 3, ["random", "genius", "basic"], 10)
    with pytest.raises(SimulationError, match="levels for 3 players"):
        plan("jest", 3, ["random", "basic"], 10)
    with pytest.raises(SimulationError, match="at least one"):
        plan("jest", 3, ["random"], 0)
    assert plan("jest", 3, ["basic"], 5).lineup == ("basic", "basic", "basic")


def test_the_simulator_rotates_seats_and_counts_in_parallel_processes():
    simulation = plan("jest", 3, ["mcts", "basic", "random"], 12, iterations=SMALL)
    records = list(run(simulation, workers=2, chunk=2))
    assert sorted(r.index for r in records) == list(range(12))
    for seat in range(3):  # every level sat in every seat equally often
        assert sorted(r.levels[seat] for r in records) == sorted(["mcts", "basic", "random"] * 4)
    report = summarize(simulation, records)
    assert sum(r.wins for r in report.by_seat) == sum(r.wins for r in report.by_level.values()) == 12
    assert {level: r.trials for level, r in report.by_level.items()} == {"basic": 12, "mcts": 12, "random": 12}
    assert report.lengths["min"] == report.lengths["max"] == 24  # Jest, 3 players: 4 rounds of 2 moves each
    assert all(0 <= r.first_mover < 3 for r in records) and report.first_mover.trials == 12
    # The same plan plays the same matches, in one process or two.
    again = {r.index: r for r in run(simulation, workers=1)}
    assert all(again[r.index] == r for r in records)


def test_wilson_intervals():
    r = rate(60, 100)
    assert abs(r.low - 0.5020) < 1e-3 and abs(r.high - 0.6906) < 1e-3
    assert rate(0, 10).low == 0.0 and rate(10, 10).high == 1.0


def test_motley_simulate_prints_the_figures_and_draws_them(tmp_path):
    target = tmp_path / "jest.png"
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "simulate", "jest", "--players", "3", "--seats", "basic,random,random",
         "--matches", "12", "--workers", "2", "--plot", str(target)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "win rate by seat position" in done.stdout and "seat 3:" in done.stdout
    assert "basic:" in done.stdout and "score spread" in done.stdout
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    refused = subprocess.run(
        [sys.executable, "-m", "api.cli", "simulate", "jest", "--players", "3", "--seats", "random,oracle,basic"],
        capture_output=True, text=True, timeout=120,
    )
    assert refused.returncode == 2 and "no computer level oracle" in refused.stderr


def test_the_simulators_iterations_reach_a_games_own_search_too():
    """`motley simulate --iterations K` sets the budget of any level that has one: the shared tree
    search's and Jester's own flat search (domain/games/jester/bots.py FlatSearch) alike."""
    from application.simulation import _bot
    from domain.games import get_engine

    assert _bot(get_engine("jester"), "mcts", 5).playouts == 5
    assert _bot(get_engine("jest"), "mcts", 5).playouts == 5  # the shared flat search
    assert _bot(get_engine("le-bouffon"), "mcts", 5).iterations == 5


def test_a_bot_drawing_among_equivalent_actions_copies_as_any_bot():
    """copy.deepcopy (a test's snapshot of module tables, a pickled task) of a wrapped bot recursed without
    end: its attribute lookup asked the bot it had not yet been given."""
    wrapped = get_engine("le-bouffon").bots()["basic"]
    clone = copy.deepcopy(wrapped)
    assert clone is not wrapped and clone == wrapped and searched(clone) is wrapped.bot
    assert pickle.loads(pickle.dumps(wrapped)).move is wrapped.move


def test_motley_simulate_stops_soon_on_ctrl_c_in_one_line():
    """A command-line probe: Ctrl-C went on for minutes (every chunk queued was played first) and printed a
    traceback from each worker process; then, on a loaded CI, still for the chunks being played (a minute)."""
    # 2,000 playouts a move make a match last some 15 s here: a run that waits for the chunks being played
    # (four matches each) is still running long after the 30 s below.
    started = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "simulate", "jest", "--players", "3", "--seats", "mcts,random,random",
         "--matches", "400", "--workers", "2", "--iterations", "2000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    # The workers are playing: both started (on a loaded CI, 6 s after the start it was still importing,
    # and the Ctrl-C came before simulate could catch it), then a moment more.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and started.poll() is None and len(subprocess.run(
            ["pgrep", "-P", str(started.pid)], capture_output=True, text=True).stdout.split()) < 2:
        time.sleep(0.2)
    time.sleep(2)
    os.killpg(started.pid, signal.SIGINT)  # as a terminal sends it: to the whole process group
    try:
        _, err = started.communicate(timeout=30)  # the workers are ended, not waited for
    except subprocess.TimeoutExpired:
        os.killpg(started.pid, signal.SIGKILL)
        raise AssertionError("still running 30 s after Ctrl-C") from None
    assert started.returncode == 130, err
    assert "motley simulate: interrupted after" in err and "Traceback" not in err, err


def test_motley_simulate_ends_its_workers_when_it_is_terminated_alone():
    """A command-line probe: `kill` (SIGTERM) of the simulator's own process left its two workers playing
    for minutes; a terminal's Ctrl-C reaches the whole group, a supervisor's stop only the process."""
    started = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "simulate", "jest", "--players", "3", "--seats", "mcts,random,random",
         "--matches", "400", "--workers", "2", "--iterations", "2000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    workers: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and started.poll() is None and len(workers) < 2:
        workers = subprocess.run(["pgrep", "-P", str(started.pid)], capture_output=True, text=True).stdout.split()
        time.sleep(0.2)
    assert len(workers) == 2, workers
    time.sleep(2)
    started.terminate()  # the process alone, not its group
    try:
        _, err = started.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(started.pid, signal.SIGKILL)
        raise AssertionError("still running 30 s after SIGTERM") from None
    assert started.returncode == 128 + signal.SIGTERM, err
    assert "motley simulate: interrupted after" in err and "Traceback" not in err, err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(map(alive, workers)):
        time.sleep(0.2)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # not left playing after the test either
        os.kill(int(pid), signal.SIGKILL)
    assert not left, left


def alive(pid: str) -> bool:
    """Whether a process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_motley_simulate_json_with_a_plot_is_json_alone_on_stdout(tmp_path):
    """A command-line probe: `--json --plot` printed "plot written to ..." after the JSON, so `jq` failed."""
    target = tmp_path / "jest.png"
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "simulate", "jest", "--players", "3", "--seats", "random, basic ,random",
         "--matches", "3", "--workers", "1", "--json", "--plot", str(target)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # the seats' spaces are not part of the levels' names
    assert report["matches"] == 3 and sorted(report["by_level"]) == ["basic", "random"], report
    assert f"plot written to {target}" in done.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
