"""Following a match (the stream's application side), on an injected clock: no real time passes."""

from __future__ import annotations

from application.following import HEARTBEAT_SECONDS, follow, follow_events
from application.history import History
from application.views import Viewer


def test_follow_yields_each_new_version_heartbeats_in_quiet_and_ends_at_its_time(sqlite_motley):
    app = sqlite_motley.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob", "cy")]
    match_id = app.create_match(players[0], "jest", 3, {}, {})
    now = [0.0]

    def sleep(seconds):  # time passes only when the follower waits; at t=5 someone takes a seat
        now[0] += seconds
        if now[0] == 5.0:
            app.join_match(match_id, players[1])

    updates = list(follow(app, match_id, Viewer.spectator(), 0, seconds=30.0, poll=5.0,
                          monotonic=lambda: now[0], sleep=sleep))
    versions = [u[0] for u in updates if u is not None]
    assert versions == [1, 2]  # the match as it was, then after the seat was taken
    assert all(view["version"] == version for version, view in (u for u in updates if u is not None))
    # Quiet from t=5: one heartbeat once more than HEARTBEAT_SECONDS pass (t=20), then the end at t=30.
    assert updates.count(None) == 1 and updates[-1] is None and HEARTBEAT_SECONDS == 10.0
    assert now[0] == 30.0  # it ended when its time was up


def test_follow_ends_when_the_match_is_finished_or_starts_past_the_version_seen(sqlite_motley):
    app = sqlite_motley.app
    creator = app.authenticate(app.register_player("ann")[1])
    match_id = app.create_match(creator, "jest", 3, {}, {})
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds

    seen_all = list(follow(app, match_id, Viewer.spectator(), 1, seconds=3.0, poll=1.0,
                           monotonic=lambda: now[0], sleep=sleep))
    assert seen_all == []  # version 1 was seen already: nothing new, no heartbeat within 3 s


def test_follow_events_yields_every_event_once_in_order_and_ends_at_its_time(sqlite_motley):
    app = sqlite_motley.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob", "cy")]
    match_id = app.create_match(players[0], "jest", 3, {}, {})
    now = [0.0]

    def sleep(seconds):  # two seats are taken while the follower waits
        now[0] += seconds
        if now[0] in (2.0, 4.0):
            app.join_match(match_id, players[int(now[0]) // 2 - 1])

    items = list(follow_events(History(app), match_id, Viewer.spectator(), 0, seconds=20.0, poll=1.0,
                               monotonic=lambda: now[0], sleep=sleep))
    events = [item for item in items if item is not None]
    assert [(e["version"], e["type"]) for e in events] == [(1, "Created"), (2, "SeatTaken"), (3, "SeatTaken")]
    assert items.count(None) == 1 and now[0] == 20.0  # quiet from t=4: one heartbeat, then the end
    resumed = list(follow_events(History(app), match_id, Viewer.spectator(), 2, seconds=1.0, poll=1.0,
                                 monotonic=lambda: now[0], sleep=sleep))
    assert [e["version"] for e in resumed if e is not None] == [3]  # after Last-Event-ID 2: nothing repeated
