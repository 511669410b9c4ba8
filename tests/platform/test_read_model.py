"""The match list follows the event log with tracking: each notification is applied exactly once,
however many consumers race, and a consumer that lost the race writes nothing."""

from __future__ import annotations

import random
import threading

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from application.ports import TASK_RESOLVE, TASK_SWEEP, NoTaskQueue
from infrastructure.composition import build
from tests.doubles import RecordingTaskQueue
from tests.platform.test_match_story import new_jest_match, play_one_random_move, seat_players


def test_racing_consumers_apply_each_notification_once(settings, seed):
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        creator = app.authenticate(app.register_player("ann")[1])
        ids = [app.create_match(creator, "jest", 3 + i % 2, {}, {}) for i in range(12)]
        last = app.recorder.max_notification_id()
        applied = []
        barrier = threading.Barrier(3)

        def consume():
            barrier.wait()
            applied.append(container.projection.run())

        threads = [threading.Thread(target=consume) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(applied) == last  # every notification once, by whichever consumer got it
        assert container.match_list.position(app.name) == last
        page = container.match_list.query(limit=50)
        assert sorted(row.match_id for row in page.rows) == sorted(str(i) for i in ids)
        assert {row.open_seats for row in page.rows} == {3, 4}
        assert container.projection.run() == 0  # nothing new
    finally:
        container.close()


def test_a_consumer_that_lost_the_race_writes_nothing(settings, seed):
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        creator = app.authenticate(app.register_player("ann")[1])
        app.create_match(creator, "jest", 3, {}, {})
        # The player, the match and its chance commitment (domain/commitments.py).
        assert container.projection.run() == 3
        view = container.match_list
        with pytest.raises(IntegrityError):  # expected position 0, but it is 3 now
            view.write([], 0, Tracking(app.name, 4))
        assert view.position(app.name) == 3
    finally:
        container.close()


def test_rows_follow_the_match_through_its_life(sqlite_motley):
    app = sqlite_motley.app
    players = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy")]
    match_id = app.create_match(players[0], "jest", 3, {}, {})
    sqlite_motley.tasks.drain()
    (row,) = sqlite_motley.match_list.query().rows
    assert (row.status, row.open_seats, row.to_act["kind"]) == ("open", 3, "waiting")
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    sqlite_motley.tasks.drain()
    (row,) = sqlite_motley.match_list.query(status="active").rows
    assert row.to_act == {"kind": "players", "seats": [0, 1, 2]} and row.open_seats == 0
    assert [p["name"] for p in row.players] == ["ann", "bob", "cy"]
    assert row.updated_at >= row.created_at
    assert sqlite_motley.match_list.query(status="open").total == 0
    assert sqlite_motley.match_list.query(player_id=str(players[1].id)).total == 1
    assert sqlite_motley.match_list.query(game="le-bouffon").total == 0


def test_a_sweep_finds_work_whose_task_was_lost(settings, seed):
    """Tasks are sent after a save; if they are lost (a crash in between), a sweep sends them again."""
    lost = RecordingTaskQueue()
    container = build(settings, tasks=lost, rng=random.Random(seed))
    try:
        app = container.app
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        rng = random.Random(f"{seed}-moves")
        while app.get_match(match_id).to_act().kind == "players":
            play_one_random_move(app, match_id, players, rng)
        lost.dropped.clear()  # the resolve task "was lost"
        assert container.handlers.run(TASK_SWEEP) == 1
        assert [t.name for t in lost.dropped] == [TASK_RESOLVE]
        container.handlers.run(TASK_RESOLVE, *lost.dropped[0].args)
        assert app.get_match(match_id).status == "finished"
        lost.dropped.clear()
        container.projection.run()
        assert container.handlers.run(TASK_SWEEP) == 0  # nothing waits any more
    finally:
        container.close()


def test_a_run_that_reads_the_end_of_the_log_reads_it_once(settings, seed):
    """Issue 16: a projection run (the match list, the league, the round keeper) whose read found fewer
    notifications than a batch has read to the log's end; it does not read again to find nothing.
    A save after it sends a run of its own, which takes the new notifications in."""
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        creator = app.authenticate(app.register_player("ann")[1])
        app.create_match(creator, "jest", 3, {}, {})
        reads: list[int] = []
        select = app.recorder.select_notifications

        def counted(*args, **kwargs):
            found = select(*args, **kwargs)
            reads.append(len(found))
            return found

        app.recorder.select_notifications = counted  # type: ignore[method-assign]
        assert container.handlers.project() > 0
        followers = 1 + len(container.handlers.followers)
        assert len(reads) == followers and all(0 < n < 500 for n in reads)  # one read each, none empty
        second = app.create_match(creator, "jest", 4, {}, {})
        reads.clear()
        assert container.projection.run() == 2  # the new match's Created and its commitment, nothing older
        assert reads == [2]
        assert str(second) in {row.match_id for row in container.match_list.query(limit=10).rows}
    finally:
        container.close()
