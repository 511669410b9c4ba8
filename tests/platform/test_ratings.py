"""Ratings, leaderboards and player statistics: openskill Plackett-Luce applied once per finished
rated match in the log's order, kept with tracking (each event once), equal to a rebuild."""

from __future__ import annotations

import random
import threading
import time

import pytest
from openskill.models import PlackettLuce

from api import create_app
from application.league import KINDS, changed_at, leaderboard, player_league, rating_history
from application.ports import NoTaskQueue
from domain.engine import Phase
from infrastructure.composition import build
from tests.platform.client import ApiClient


def play(app, match_id, rng):
    """Random legal moves through the service, automatic steps resolved here (no workers)."""
    while True:
        match = app.get_match(match_id)
        turn = match.to_act()
        if turn.kind == Phase.OVER:
            return match
        if turn.kind == Phase.AUTO:
            app.resolve_automatic_step(match_id)
            continue
        seat = turn.seats[0]
        app.submit_move(match_id, app.get_player(match.players[seat]),
                        rng.choice(match.engine.legal_actions(match.state, seat)))


def new_match(app, people, rated=True):
    match_id = app.create_match(people[0], "jest", len(people), {}, {}, rated=rated)
    for person in people:
        app.join_match(match_id, person)
    app.start_match(match_id, people[0])
    return match_id


@pytest.fixture
def quiet(settings):
    container = build(settings, tasks=NoTaskQueue())
    yield container
    container.close()


def test_ratings_follow_openskill_in_log_order_and_unrated_matches_count_only_as_statistics(quiet):
    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy", "dan")]
    rng = random.Random(7)
    played = []
    for i, table in enumerate([people[:3], people[1:], people[:3], [people[0], people[1], people[3]]]):
        match = play(app, new_match(app, table, rated=i != 2), rng)
        played.append((match, i != 2))
    quiet.league.run()
    model = PlackettLuce()
    expected: dict = {}
    for match, rated in played:
        if not rated:
            continue
        ids = [str(p) for p in match.players]
        teams = [[expected.get(p) or model.rating()] for p in ids]
        for p, team in zip(ids, model.rate(teams, ranks=match.result["ranks"])):
            expected[p] = team[0]
    board, total = leaderboard(quiet.league_view, "jest", 10, 0)
    assert total == 4
    assert {r["player_id"]: (r["mu"], r["sigma"]) for r in board} == {
        p: (r.mu, r.sigma) for p, r in expected.items()}  # the same floats: same order, same model
    assert [r["ordinal"] for r in board] == sorted((r["ordinal"] for r in board), reverse=True)
    ann = str(people[0].id)
    ratings, statistics = player_league(quiet.league_view, ann)
    assert ratings[0]["played"] == 2 and statistics[0]["played"] == 3  # the unrated match: statistics only
    wins = sum(1 for m, _ in played if ann in m.players and m.result["ranks"][m.players.index(ann)] == 1)
    assert statistics[0]["wins"] == wins
    rating, history = rating_history(quiet.league_view, "jest", ann)
    assert [h["match_id"] for h in history] == [str(m.id) for m, rated in played if rated and ann in m.players]
    assert history[-1]["mu"] == rating["mu"]


def test_racing_consumers_apply_each_event_once_and_equal_a_rebuild(quiet):
    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy")]
    rng = random.Random(3)
    for _ in range(3):
        play(app, new_match(app, people), rng)
    last = app.log_position()
    applied = []
    barrier = threading.Barrier(3)

    def consume():
        barrier.wait()
        applied.append(quiet.league.run())

    threads = [threading.Thread(target=consume) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(applied) == last and quiet.league_view.position(quiet.league.name) == last
    live = quiet.league_view.dump(KINDS)
    assert quiet.league.rebuild() == last
    assert quiet.league_view.dump(KINDS) == live
    assert {d.data["played"] for d in live if d.kind == "rating"} == {3}


def test_a_batch_of_finished_matches_is_rated_from_one_read_of_the_stored_rows(quiet, monkeypatch):
    """The league and the round keeper read the rows a batch needs (ratings, statistics, voids, the
    tables' tournaments) in one query, not one a row: in a busy process each query waits for the GIL,
    and the leaderboard's lag grew with the rows (issue 16, P3)."""
    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy")]
    rng = random.Random(5)
    for _ in range(2):
        play(app, new_match(app, people), rng)
    quiet.keeper.run()
    quiet.league.run()  # the players' rows exist: the next batch reads them back
    for _ in range(3):
        play(app, new_match(app, people), rng)
    view, reads = quiet.league_view, []
    monkeypatch.setattr(view, "get", lambda *key: reads.append(("get", key)) or type(view).get(view, *key))
    monkeypatch.setattr(view, "get_many", lambda keys: reads.append(("get_many", len(keys))) or
                        type(view).get_many(view, keys))
    quiet.keeper.run()
    quiet.league.run()
    # One read for the keeper (three finished matches), one for the league: 3 voids, 3 x (stats, rating).
    assert reads == [("get_many", 3), ("get_many", 3 + 3 * 3 * 2)]
    assert {d.data["played"] for d in view.dump(KINDS) if d.kind == "rating"} == {5}


def test_the_api_serves_the_leaderboard_profile_and_history(motley):
    client = ApiClient(create_app(motley))
    keys = [client.register(n)[1] for n in ("ann", "bob", "cy")]
    app = motley.app
    people = [app.authenticate(k) for k in keys]
    play(app, new_match(app, people), random.Random(1))
    unrated = client.post("/matches", {"game": "jest", "seats": 3, "rated": "no"}, key=keys[0])
    assert unrated.status == 422  # a boolean, strictly
    position = app.log_position()
    read = client.get("/leaderboards/jest", query={"after": position})
    board, tag = read.body, read.headers["ETag"]
    assert board["total"] == 3 and [r["place"] for r in board["items"]] == [1, 2, 3]
    # Cheap polling: 304 while the ratings have not moved (the board's place in the log), 200 once they have.
    assert client.get("/leaderboards/jest", headers={"If-None-Match": tag}).status == 304
    me = str(people[0].id)
    profile = client.get(f"/players/{me}", query={"after": position}).body
    assert profile["ratings"][0]["game"] == "jest" and profile["recent_matches"]
    assert len(client.get(f"/players/{me}/ratings/jest").body["history"]) == 1
    assert client.get(f"/players/{me}/ratings/nope").status == 404
    beyond = client.get("/leaderboards/jest", query={"after": position + 10_000})
    assert beyond.status == 422  # no write ever answered with that position
    # A player picking a match from the lobby sees whether it counts for ratings.
    assert client.post("/matches", {"game": "jest", "seats": 3, "rated": False}, key=keys[0]).body["rated"] is False
    assert client.get(f"/matches/{play(app, new_match(app, people), random.Random(2)).id}").body["rated"] is True
    # Called off before its end, a match counts for nothing, and says so (it said rated: a statistics probe).
    lobby = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body
    assert lobby["rated"] is True
    called_off = client.post(f"/matches/{lobby['id']}/cancel", key=keys[0])
    assert called_off.status == 200 and called_off.body["status"] == "cancelled" and called_off.body["rated"] is False
    listed = client.get("/matches", query={"status": "cancelled", "after": called_off.headers["Motley-Position"]})
    assert [row["terms"]["rated"] for row in listed.body["items"] if row["id"] == lobby["id"]] == [False]
    moved = client.get("/leaderboards/jest", query={"after": app.log_position()}, headers={"If-None-Match": tag})
    assert moved.status == 200 and moved.headers["ETag"] != tag  # a match more: the ratings moved
    # Paged by offset, a list that moved between two pages read a player twice and another never (a
    # statistics probe): a page read with If-Match, the tag of the page before, is a 412 once it moved.
    stale = client.get("/leaderboards/jest", query={"offset": 2, "limit": 2}, headers={"If-Match": tag})
    assert stale.status == 412 and moved.headers["ETag"] in stale.body["detail"], stale.text
    same = client.get("/leaderboards/jest", query={"offset": 2, "limit": 2},
                      headers={"If-Match": moved.headers["ETag"]})
    assert same.status == 200 and same.headers["ETag"] == moved.headers["ETag"]
    for path in ("/matches", f"/players/{me}", f"/players/{me}/ratings/jest", "/tournaments"):
        page = client.get(path, query={"after": app.log_position()})
        assert client.get(path, headers={"If-Match": page.headers["ETag"]}).status == 200, path
        assert client.get(path, headers={"If-Match": '"list-1"'}).status == 412, path
    assert client.get("/leaderboards/jest", headers={"If-Match": "board"}).status == 422  # no tag of any read


def test_motley_rebuild_gives_back_the_same_rows(quiet, settings, monkeypatch, capsys):
    from infrastructure.rebuild import rebuild

    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy")]
    play(app, new_match(app, people), random.Random(2))
    quiet.handlers.project()
    # Events after the last that changed the league (a player, an open match): the leaderboard's tag
    # (changed_at) stays where the match finished, live and after a rebuild alike; a rebuild's big
    # batches put it at the log's end, and every poller read the pages again (an operator probe).
    app.create_match(app.authenticate(app.register_player("dee")[1]), "jest", 3, {}, {})
    quiet.handlers.project()
    tag = changed_at(quiet.league_view)
    assert 0 < tag < app.log_position()
    matches = quiet.match_list.query(limit=50).rows
    league = quiet.league_view.dump(KINDS)
    assert rebuild(quiet, "matches") == rebuild(quiet, "league") == app.log_position()
    assert quiet.match_list.query(limit=50).rows == matches and quiet.league_view.dump(KINDS) == league
    assert changed_at(quiet.league_view) == tag
    if settings.store == "sqlite":  # the command itself, on the same file
        from api.cli import main

        monkeypatch.setenv("MOTLEY_SQLITE_PATH", settings.sqlite_path)
        main(["rebuild", "league"])
        said = capsys.readouterr().out
        assert f"league rebuilt from {app.log_position()} events, at position {app.log_position()}" in said
        assert quiet.league_view.dump(KINDS) == league
        # A worker beside it projected every event after the reset: the command's own count is 0, and it
        # said "rebuilt from 0 events" of a whole read model. Its position says the model is whole.
        import infrastructure.rebuild

        monkeypatch.setattr(infrastructure.rebuild, "rebuild", lambda container, name: 0)
        main(["rebuild", "matches"])
        said = capsys.readouterr().out
        assert f"matches rebuilt: at position {app.log_position()} of the event log (0 events projected" in said
        assert "worker" in said
        # Fewer events than the position: PostgreSQL's log ids have gaps (rolled-back inserts). No worker
        # needs to be running for that; the command named one that was not.
        monkeypatch.setattr(infrastructure.rebuild, "rebuild", lambda container, name: app.log_position() - 3)
        main(["rebuild", "matches"])
        said = capsys.readouterr().out
        assert f"({app.log_position() - 3} events projected by this command)" in said and "worker" not in said
        # A worker wrote first and the command stopped short of the log's end: it said "rebuilt: at
        # position 4526" with the log past 6,000, as if whole (an operator probe). It says who carries on.
        monkeypatch.setattr(infrastructure.rebuild, "position", lambda container, name: app.log_position() - 5)
        main(["rebuild", "league"])
        said = capsys.readouterr().out
        assert (f"rebuilt up to position {app.log_position() - 5} of the event log, which is at "
                f"{app.log_position()}") in said and "carries on" in said


def first_move(app, match_id, player) -> None:
    """``player`` makes the first of its legal moves (a Jest offer: every seat offers at once)."""
    match = app.get_match(match_id)
    seat = match.seat_of(str(player.id))
    app.submit_move(match_id, player, match.engine.legal_actions(match.state, seat)[0])


def test_players_with_the_same_rating_share_their_place_on_every_page(quiet):
    """Two tables where two players resign: each winner beat two newcomers, so the winners' ratings are
    equal, and so are the four losers'. The board places ties as standings rank them (1, 1, 3), even
    where a tie runs across a page's edge."""
    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy", "dee", "eve", "fay")]
    for table in (people[:3], people[3:]):
        match_id = new_match(app, table)
        for mover in table[:2]:  # a match fewer than two people moved in is not rated
            first_move(app, match_id, mover)
        for loser in table[1:]:
            app.resign_match(match_id, loser)
        assert app.get_match(match_id).status == "finished"
    quiet.league.run()
    whole, total = leaderboard(quiet.league_view, "jest", 10, 0)
    assert total == 6 and [row["place"] for row in whole] == [1, 1, 3, 3, 3, 3]
    assert {row["player_id"] for row in whole[:2]} == {str(people[0].id), str(people[3].id)}
    paged = [row["place"] for offset in range(0, 6, 2) for row in leaderboard(quiet.league_view, "jest", 2, offset)[0]]
    assert paged == [1, 1, 3, 3, 3, 3]
    assert [row["place"] for row in leaderboard(quiet.league_view, "jest", 3, 3)[0]] == [3, 3, 3]


def test_a_rating_history_entry_is_dated_when_its_match_finished_not_at_a_later_rematch(quiet):
    """The entry's `at` was the match's last change: a rematch linked afterwards (an event on the finished
    match) moved it, so live and rebuilt histories disagreed and a rebuilt one fell out of time order."""
    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy")]
    match_id = new_match(app, people)
    for mover in people[:2]:  # a match fewer than two people moved in is not rated
        first_move(app, match_id, mover)
    for loser in people[1:]:
        app.resign_match(match_id, loser)
    finished = next(e for e in app.events.get(match_id) if type(e).__name__ == "Finished")
    time.sleep(0.01)
    app.rematch(match_id, people[0])
    assert app.get_match(match_id).modified_on > finished.timestamp
    quiet.league.run()
    _, history = rating_history(quiet.league_view, "jest", str(people[0].id))
    assert [entry["at"] for entry in history] == [finished.timestamp.isoformat()]


def test_a_win_whose_winner_never_moved_is_not_rated(quiet):
    """Docs/tournaments.md, "Ratings": a match needs a move of a person who played it out. Two second
    accounts each made their first move, then resigned: their owner, who never moved, won rated (a probe:
    two such wins topped a leaderboard)."""
    app = quiet.app
    owner, alt1, alt2 = (app.authenticate(app.register_player(n)[1]) for n in ("owner", "alt1", "alt2"))
    match_id = new_match(app, [owner, alt1, alt2])
    for alt in (alt1, alt2):
        first_move(app, match_id, alt)
        app.resign_match(match_id, alt)
    match = app.get_match(match_id)
    assert match.status == "finished" and match.result["winners"] == [match.seat_of(str(owner.id))]
    assert match.people_moved and not match.counts_for_ratings
    quiet.league.run()
    assert leaderboard(quiet.league_view, "jest", 10, 0)[0] == []
    assert [(s["played"], s["wins"]) for s in player_league(quiet.league_view, str(owner.id))[1]] == [(1, 1)]


def test_a_fork_its_automatic_steps_finished_counts_in_nobodys_statistics(quiet, monkeypatch):
    """A fork at the last move of a finished match is finished by its automatic steps alone: whoever sat
    in the parent's winning seat was credited a win in the statistics without a move (a probe). Such a fork
    is refused since 2026-12-06; those made before are stored, and made here as they were then."""
    from application import history
    from application.history import History
    from application.views import Viewer

    monkeypatch.setattr(history, "over_but_automatic_steps", lambda engine, state: False)

    app = quiet.app
    people = [app.authenticate(app.register_player(n)[1]) for n in ("ann", "bob", "cy")]
    parent = play(app, new_match(app, people), random.Random(3))
    last_move = max(number for number, event in enumerate(app.events.get(parent.id), start=1)
                    if type(event).__name__ == "MoveMade")
    strangers = [app.authenticate(app.register_player(n)[1]) for n in ("dan", "eve", "fay")]
    fork_id = History(app).fork(parent.id, Viewer.the_auditor(), last_move, {}, str(strangers[0].id)).id
    for stranger in strangers:
        app.join_match(fork_id, stranger)
    app.start_match(fork_id, strangers[0])
    while app.get_match(fork_id).to_act().kind == Phase.AUTO:
        app.resolve_automatic_step(fork_id)
    fork = app.get_match(fork_id)
    assert fork.status == "finished" and fork.result["winners"] and fork.people_moves == 0
    quiet.league.run()
    assert all(player_league(quiet.league_view, str(s.id))[1] == [] for s in strangers)
    assert sum(s["wins"] for p in people for s in player_league(quiet.league_view, str(p.id))[1]) >= 1
