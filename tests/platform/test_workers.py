"""End to end on PostgreSQL with a real Celery worker process consuming the real broker: automatic
steps (scoring), the match-list read model and computer opponents are the worker's work here; the
API process only appends moves and sends tasks."""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta, timezone

import pytest

from api import create_app
from application.ports import TASK_RESOLVE, Task
from domain.games import available_engines
from tests.platform.client import ApiClient, play_randomly

# Options that keep a whole match short enough for an end-to-end test.
FAST_OPTIONS = {
    "le-bouffon": {"deals": 2},
    "tumult-royale": {"tax_seconds": 1, "ready_seconds": 1},
}


@pytest.fixture
def client(worker_motley):
    return ApiClient(create_app(worker_motley))


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the worker did not do its work in time")


def test_the_worker_scores_a_jest_match_and_keeps_the_match_list(client, worker_motley, worker_env, seed):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy", "dan")]
    match_id = client.new_match("jest", 4, keys)
    final = play_randomly(client, match_id, keys, random.Random(f"{seed}-moves"), settle=lambda: time.sleep(0.05))
    assert final["status"] == "finished"
    scoring = [e for e in client.get(f"/matches/{match_id}/events").body["items"] if e["type"] == "StepResolved"]
    assert len(scoring) == 1 and scoring[0]["step"]["type"] == "final-scoring"
    # The worker, not this process, resolved it: this process's queue only sent tasks.
    _, log = worker_env
    assert "motley.resolve_automatic_step" in log.read_text()
    position = worker_motley.app.log_position()
    listed = client.get("/matches", query={"after": position, "player": final["seats"][0]["player_id"]}).body
    assert [(m["id"], m["status"]) for m in listed["items"]] == [(match_id, "finished")]
    assert listed["items"][0]["winners"] == final["result"]["winners"]


def test_the_scoring_task_delivered_twice_appends_once(client, worker_motley, worker_env, seed):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    play_randomly(client, match_id, keys, random.Random(f"{seed}-moves"), settle=lambda: time.sleep(0.05))
    def resolved() -> int:  # the worker logs "Task motley.resolve_automatic_step[id] succeeded in ..."
        _, log = worker_env
        return sum(1 for line in log.read_text().splitlines() if TASK_RESOLVE in line and " succeeded in " in line)

    before = resolved()
    for _ in range(3):  # duplicates through the broker, as at-least-once delivery may do
        worker_motley.tasks.enqueue(Task(TASK_RESOLVE, (match_id,)))
    # Wait until the worker has run all three, not for a time a loaded machine could outrun.
    wait_for(lambda: resolved() >= before + 3)
    types = [e["type"] for e in client.get(f"/matches/{match_id}/events").body["items"]]
    assert types.count("StepResolved") == 1 and types.count("Finished") == 1


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(available_engines()))
def test_a_whole_match_of_each_game_over_http_with_the_worker(client, worker_motley, game, seed):
    engine = available_engines()[game]
    seats = engine.min_players if engine.min_players >= 3 else 3
    seats = min(seats, engine.max_players)
    keys = [client.register(f"p{i}")[1] for i in range(seats)]
    match_id = client.new_match(game, seats, keys, options=FAST_OPTIONS.get(game))
    seen: dict = {}
    final = play_randomly(client, match_id, keys, random.Random(f"{seed}-moves"), settle=lambda: time.sleep(0.05),
                          timeout=240, seen=seen)
    assert final["status"] == "finished" and final["result"]["ranks"]
    events = client.get(f"/matches/{match_id}/events", key=keys[0]).body["items"]
    assert events[-1]["type"] == "Finished"
    rewound = client.get(f"/matches/{match_id}", key=keys[0], query={"version": len(events) // 2}).body
    assert rewound["version"] == len(events) // 2
    # Rewound, the match is as it was seen live at that version (whose turn, how many moves, status).
    for version in sorted(seen)[:: max(1, len(seen) // 10)]:
        old = client.get(f"/matches/{match_id}", key=keys[0], query={"version": version}).body
        live = seen[version]
        assert [old[f] for f in ("version", "status", "moves", "to_act")] == \
            [live[f] for f in ("version", "status", "moves", "to_act")], version
    position = worker_motley.app.log_position()
    listed = client.get("/matches", query={"after": position, "game": game, "status": "finished"}).body
    assert match_id in [m["id"] for m in listed["items"]]


@pytest.mark.slow
def test_computer_opponents_play_a_match_to_the_end(client, worker_motley, seed):
    engines = available_engines()
    if "fools-crown" not in engines:
        pytest.fail("Fool's Crown, the game with computer opponents, is missing")
    levels = sorted(engines["fools-crown"].bots())
    _, key = client.register("solo")
    created = client.post("/matches", {"game": "fools-crown", "seats": 4, "options": {},
                                       "computers": {"1": levels[0], "2": levels[-1], "3": levels[-1]}}, key=key)
    assert created.status == 201, created.text
    match_id = created.body["id"]
    assert client.post(f"/matches/{match_id}/seats", {}, key=key).body["seat"] == 0
    assert client.post(f"/matches/{match_id}/start", key=key).status == 200
    final = play_randomly(client, match_id, [key], random.Random(f"{seed}-moves"), settle=lambda: time.sleep(0.05),
                          timeout=240)
    assert final["status"] == "finished"
    moves = [e for e in client.get(f"/matches/{match_id}/events", key=key).body["items"] if e["type"] == "MoveMade"]
    assert {e["seat"] for e in moves} >= {1, 2, 3}


@pytest.mark.slow
def test_the_worker_closes_timed_tax_collections_of_a_whole_tumult_match(client, worker_motley, seed):
    """Nobody acts during tax collection: each time, the worker closes the phase at its deadline
    (a TimedOut event), and the match still runs to its end."""
    keys = [client.register(name)[1] for name in ("ann", "bob")]
    match_id = client.new_match("tumult-royale", 2, keys, options=FAST_OPTIONS["tumult-royale"])
    rng = random.Random(f"{seed}-moves")
    deadline = time.monotonic() + 240
    late_refused = False
    while time.monotonic() < deadline:
        view = client.get(f"/matches/{match_id}", key=keys[0]).body
        if view["status"] == "finished":
            break
        if view["timer"] is not None or view["to_act"]["kind"] != "players":
            if view["timer"] is not None and not late_refused:
                # Past the deadline (the server's clock), a peek is refused, whether or not closed yet.
                due = datetime.fromisoformat(view["timer"]["deadline"])
                wait_for(lambda due=due: datetime.now(timezone.utc) > due + timedelta(milliseconds=50), timeout=30)
                seat = view["to_act"]["seats"][0] if view["to_act"]["seats"] else 0
                late = client.post(f"/matches/{match_id}/moves", {"action": {"type": "peek", "tile": 0}},
                                   key=keys[seat])
                late_refused = late.status == 409
            time.sleep(0.05)
            continue
        seat = rng.choice(view["to_act"]["seats"])
        legal = client.get(f"/matches/{match_id}", key=keys[seat]).body["legal_actions"]
        if legal:
            client.post(f"/matches/{match_id}/moves", {"action": rng.choice(legal)}, key=keys[seat])
    else:
        raise AssertionError("the match did not finish")
    assert late_refused
    events = client.get(f"/matches/{match_id}/events").body["items"]
    timed_out = [e for e in events if e["type"] == "TimedOut"]
    started = [e for e in events if e["type"] == "TimerStarted"]
    assert timed_out and len(timed_out) == len(started)
    # Rules 1.1.0: the ready question before each tax collection is timed too (docs/rules/tumult-royale.md).
    assert all(e["phase"].startswith(("tax-", "ready-")) for e in timed_out)
    assert any(e["phase"].startswith("tax-") for e in timed_out)
    assert events[-1]["type"] == "Finished"


@pytest.mark.slow
def test_a_match_of_three_computers_runs_to_the_end_after_its_start(client, worker_motley):
    """Only the start is a human request: the worker plays every computer move to the end."""
    levels = sorted(available_engines()["fools-crown"].bots())
    _, key = client.register("organiser")
    created = client.post("/matches", {"game": "fools-crown", "seats": 3,
                                       "computers": {"0": levels[-1], "1": levels[0], "2": levels[-1]}}, key=key)
    assert created.status == 201 and created.body["seats"][0]["computer"] == levels[-1]
    match_id = created.body["id"]
    assert client.post(f"/matches/{match_id}/seats", {}, key=key).status == 409  # no seat left for a human
    assert client.post(f"/matches/{match_id}/start", key=key).status == 200
    final = wait_for(lambda: (lambda v: v if v["status"] == "finished" else None)(
        client.get(f"/matches/{match_id}").body), timeout=240)
    assert final["result"]["winners"]
    events = client.get(f"/matches/{match_id}/events").body["items"]
    assert {e["seat"] for e in events if e["type"] == "MoveMade"} == {0, 1, 2}
