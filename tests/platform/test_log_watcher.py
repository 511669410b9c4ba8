"""One reader of the log's end wakes the streams whose match changed (application/log_watcher.py)."""

from __future__ import annotations

import threading
import time

from application.log_watcher import LogWatcher
from tests.platform.test_match_story import new_jest_match, seat_players


def test_a_sleeping_stream_wakes_when_its_match_changes_and_not_for_another(motley):
    app = motley.app
    players = seat_players(app, 3)
    watched, other = new_jest_match(app, players), new_jest_match(app, players)
    watcher = LogWatcher(app.recorder, interval=0.02)
    try:
        mine, theirs = watcher.sleeper(app.read_match(watched).id), watcher.sleeper(app.read_match(other).id)
        woke: dict[str, float] = {}

        def sleep(name, sleeper):
            started = time.monotonic()
            sleeper(30.0)
            woke[name] = time.monotonic() - started

        threads = [threading.Thread(target=sleep, args=("mine", mine)),
                   threading.Thread(target=sleep, args=("theirs", theirs))]
        for thread in threads:
            thread.start()
        time.sleep(0.2)
        match = app.read_match(watched)
        seat = match.to_act().seats[0]
        app.submit_move(watched, players[seat], match.engine.legal_actions(match.state, seat)[0])
        threads[0].join(timeout=10)
        assert "mine" in woke and woke["mine"] < 5, woke  # woken by the move, not by its 30 s
        assert "theirs" not in woke  # the other match did not change: still asleep
        # A change that lands between two sleeps is not lost: the next sleep returns at once.
        match = app.read_match(watched)
        seat = match.to_act().seats[0]
        app.submit_move(watched, players[seat], match.engine.legal_actions(match.state, seat)[0])
        time.sleep(0.3)
        started = time.monotonic()
        mine(30.0)
        assert time.monotonic() - started < 5
    finally:
        watcher.close()  # wakes every sleeper
    threads[1].join(timeout=10)
    assert "theirs" in woke and woke["theirs"] < 30
    assert watcher.reads > 0
