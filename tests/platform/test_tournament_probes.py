"""Tournaments, standings and ratings probed through the HTTP API as an organiser and a bot developer
would: bodies that cannot be read, a forfeit racing the round keeper, what the OpenAPI document says.
Each test failed before its fix (docs/tournaments.md, README "Bad input ... changes nothing")."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from api import create_app
from application.history import History
from application.ports import NoTaskQueue
from application.views import Viewer
from infrastructure.composition import build
from infrastructure.settings import Settings
from tests.platform.client import ApiClient, entered_tournament


@pytest.fixture
def client(sqlite_motley):
    return ApiClient(create_app(sqlite_motley))


def test_a_body_that_is_not_json_is_a_400_even_where_the_view_reads_no_body_and_changes_nothing(client):
    """Registering, starting and withdrawing read no body: malformed JSON sent to them was ignored and
    the request acted (a player registered on "{"). It is a 400 malformed-json, as everywhere."""
    _, org = client.register("org")
    _, ann = client.register("ann")
    tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": 1, "table_size": 2},
                      key=org).body["id"]
    registered = client.post(f"/tournaments/{tid}/players", raw="{not json", key=ann)
    assert registered.status == 400 and registered.body["type"] == "urn:motley:problem:malformed-json"
    assert client.get(f"/tournaments/{tid}").body["players"] == []
    ann_id = client.get("/players/me", key=ann).body["id"]
    assert client.post(f"/tournaments/{tid}/players", key=ann).status == 201
    _, bob = client.register("bob")
    assert client.post(f"/tournaments/{tid}/players", key=bob).status == 201
    started = client.post(f"/tournaments/{tid}/start", raw="{", key=org)
    assert started.status == 400 and started.body["type"] == "urn:motley:problem:malformed-json"
    withdrawn = client.call("DELETE", f"/tournaments/{tid}/players/{ann_id}", raw="[1,", key=ann)
    assert withdrawn.status == 400
    view = client.get(f"/tournaments/{tid}").body
    assert view["status"] == "open" and len(view["players"]) == 2  # nothing changed
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200  # an empty body is no body


def test_registering_and_starting_refuse_fields_they_do_not_read(client):
    """The caller registers themself; an organiser posting {"player_id": ...} to register somebody else
    was answered 201 and registered the organiser. Fields these requests do not read are a 422."""
    _, org = client.register("org")
    ann, _ = client.register("ann")
    tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": 1, "table_size": 2},
                      key=org).body["id"]
    other = client.post(f"/tournaments/{tid}/players", {"player_id": ann}, key=org)
    assert other.status == 422 and "player_id" in other.body["errors"]["json"], other.text
    assert client.get(f"/tournaments/{tid}").body["players"] == []
    assert client.post(f"/tournaments/{tid}/start", {"rounds": 1}, key=org).status == 422
    assert client.get(f"/tournaments/{tid}").body["status"] == "open"
    assert client.post(f"/tournaments/{tid}/players", {}, key=org).status == 201  # {} or no body: yourself
    org_id = client.get("/players/me", key=org).body["id"]
    # A withdrawal names its player in the path: a body naming another was ignored, and withdrew the path's.
    refused = client.call("DELETE", f"/tournaments/{tid}/players/{org_id}", body={"player_id": ann}, key=org)
    assert refused.status == 422 and "player_id" in refused.body["errors"]["json"], refused.text
    assert len(client.get(f"/tournaments/{tid}").body["players"]) == 1
    assert client.call("DELETE", f"/tournaments/{tid}/players/{org_id}", key=org).status == 200


def test_the_winner_of_a_finished_match_is_not_forfeited_before_the_keeper_records_the_result(tmp_path):
    """The round keeper (a worker) records a finished match's result moments later, or once a stopped
    worker is back. Meanwhile the table had no result, and a forfeit after the deadline replaced the
    match's real result: the organiser could forfeit the winner. A forfeit is for absent players of an
    unfinished table (docs/tournaments.md): for a finished match it is a 409, and the result stands."""
    idle, client, org, tid, table, keys, now = _started(tmp_path, 2)
    try:  # no worker: the keeper runs when the test says so
        winner, loser = table["players"]
        assert client.post(f"/matches/{table['match_id']}/resign", key=keys[loser]).status == 200
        assert client.get(f"/matches/{table['match_id']}").body["result"]["ranks"] == [1, 2]
        now[0] += timedelta(seconds=61)  # past the round's deadline
        refused = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [winner]}, key=org)
        assert refused.status == 409 and "over" in refused.body["detail"], refused.text
        assert client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"] is None
        idle.keeper.run()
        view = client.get(f"/tournaments/{tid}").body
        assert view["status"] == "finished"
        assert view["rounds"][0]["tables"][0]["result"] == {"ranks": [1, 2], "how": "played"}
    finally:
        idle.close()


def _started(tmp_path, seats: int, rounds: int = 1):
    """An idle container (no worker: the keeper runs when the test says so) whose clock the test moves
    (``now[0]``), an organiser, and a started tournament of ``rounds`` rounds of one table of ``seats``
    Jester players with a 60 s round deadline: (container, client, org, tid, table, keys, now)."""
    now = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    idle = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "idle.sqlite")), tasks=NoTaskQueue(),
                 clock=lambda: now[0])
    client = ApiClient(create_app(idle))
    _, org = client.register("org")
    keys = dict(client.register(name) for name in ("ann", "bob", "cy")[:seats])
    tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": rounds, "table_size": seats,
                                       "round_deadline_seconds": 60}, key=org).body["id"]
    for key in keys.values():
        assert client.post(f"/tournaments/{tid}/players", key=key).status == 201
    (table,) = client.post(f"/tournaments/{tid}/start", key=org).body["rounds"][0]["tables"]
    return idle, client, org, tid, table, keys, now


def _forfeitable(tmp_path, seats: int):
    """``_started``, its clock past the round's deadline: (container, client, org, tid, table, keys)."""
    idle, client, org, tid, table, keys, now = _started(tmp_path, seats)
    now[0] += timedelta(seconds=61)  # past the round's deadline
    return idle, client, org, tid, table, keys


@contextlib.contextmanager
def exported_as_auditor(idle, match_id: str):
    """An auditor's client on ``idle``'s store, and its export of ``match_id``: (client, lines)."""
    import dataclasses

    from tests.platform.test_audit import AUDITOR, export

    auditor = build(dataclasses.replace(idle.settings, auditor_key=AUDITOR), tasks=NoTaskQueue())
    try:
        audit = ApiClient(create_app(auditor))
        yield audit, export(audit, match_id, AUDITOR)
    finally:
        auditor.close()


def test_a_forfeit_resigns_the_absent_players_at_the_tables_match(tmp_path):
    """A forfeited table's match stayed active, waiting for the absent player's move, for ever (and on
    his list of matches to move in). The forfeit resigns him there: with one player left it ends."""
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 2)
    try:
        present, absent = table["players"]
        assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [absent]}, key=org).status == 200
        match = client.get(f"/matches/{table['match_id']}").body
        assert match["status"] == "finished"
        assert match["result"]["ranks"] == [1, 2] and match["result"]["resigned"] == [1]
        idle.keeper.run()
        view = client.get(f"/tournaments/{tid}").body
        assert view["rounds"][0]["tables"][0]["result"] == {"ranks": [1, 2], "how": "forfeit"}
        assert view["status"] == "finished"
    finally:
        idle.close()


def test_a_forfeit_at_a_bigger_table_hands_the_absent_seat_to_a_computer(tmp_path):
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 3)
    try:
        absent = table["players"][2]
        assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [absent]}, key=org).status == 200
        match = client.get(f"/matches/{table['match_id']}").body
        assert match["status"] == "active" and match["resigned"] == [2]
        # Said as the organiser's forfeit, not the player's resignation (its player was never told; a walk).
        assert match["forfeited"] == [2] and client.get(f"/matches/{table['match_id']}",
                                                          query={"version": match["version"]}).body["forfeited"] == [2]
        assert client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"] == {
            "ranks": [1, 1, 3], "how": "forfeit"}
    finally:
        idle.close()


def test_a_forfeit_racing_the_tables_last_resignation_is_refused_and_the_played_result_stands(tmp_path):
    """The forfeit read the match (still playing), and saved the tournament apart: the table's last
    resignation, on another API process in between, finished the match, and the forfeit was recorded
    over it, scoring its winner nothing. Saved with the match, the forfeit reads it again and is a 409."""
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 2)
    try:
        winner, loser = table["players"]
        tournaments, raced = idle.tournaments, []
        read_match = tournaments._match_over

        def racing(read, match_id):
            over = read_match(read, match_id)
            if not raced:  # the other process: the loser resigns between the forfeit's read and its save
                raced.append(idle.app.resign_match(match_id, idle.app.get_player(loser)))
            return over

        tournaments._match_over = racing  # type: ignore[method-assign]
        refused = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [winner]}, key=org)
        assert raced and refused.status == 409 and "over" in refused.body["detail"], refused.text
        idle.keeper.run()
        view = client.get(f"/tournaments/{tid}").body
        assert view["rounds"][0]["tables"][0]["result"] == {"ranks": [1, 2], "how": "played"}
    finally:
        idle.close()


def test_a_forfeit_of_a_player_who_resigned_racing_the_tables_end_is_refused(tmp_path):
    """The forfeited player had resigned already: the forfeit added nothing to the match, so nothing
    guarded its save, and the last resignation ending the match in between was forfeited over (the
    played [1, 2, 2] became [1, 1, 3]). The forfeit is recorded in the match (``Forfeited``) every time."""
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 3)
    try:
        winner, loser, gone = table["players"]
        assert client.post(f"/matches/{table['match_id']}/resign", key=keys[gone]).status == 200
        tournaments, raced = idle.tournaments, []
        read_match = tournaments._match_over

        def racing(read, match_id):
            over = read_match(read, match_id)
            if not raced:  # the other process: the second-last player resigns, and the match is over
                raced.append(idle.app.resign_match(match_id, idle.app.get_player(loser)))
            return over

        tournaments._match_over = racing  # type: ignore[method-assign]
        refused = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [gone]}, key=org)
        assert raced and refused.status == 409 and "over" in refused.body["detail"], refused.text
        idle.keeper.run()
        result = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"]
        assert result == {"ranks": [1, 2, 2], "how": "played"}
    finally:
        idle.close()


@pytest.mark.parametrize("leaves", ["withdraws", "is disqualified"])
def test_a_player_leaving_racing_a_forfeit_of_his_table_resigns_its_match_in_the_same_save(tmp_path, leaves):
    """A racing probe (two API processes): bob left the tournament, its save landed, then the organiser's
    forfeit of ann (absent) landed before bob's resignation of their match, saved apart: the forfeit ranked
    bob last there, as one who left, and resigned ann, which ended the match with bob its winner; his
    resignation was then refused, unsaid. He resigns in the leaving's own save now: the forfeit finds the
    match over, and the table's result is the match's."""
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 2)
    try:
        ann, bob = table["players"]
        bob_key = next(key for player_id, key in keys.items() if player_id == bob)
        tournaments, raced = idle.tournaments, []
        save = tournaments._save
        organiser = idle.app.authenticate(org)

        def the_forfeit_lands_next(*args, **kwargs):
            save(*args, **kwargs)
            if not raced:  # the other process: the organiser forfeits ann, just after the leaving's save
                raced.append(True)
                with contextlib.suppress(Exception):  # refused (409) once the match is over
                    tournaments.forfeit(tid, organiser, [ann])

        tournaments._save = the_forfeit_lands_next  # type: ignore[method-assign]
        if leaves == "withdraws":
            left = client.call("DELETE", f"/tournaments/{tid}/players/{bob}", key=bob_key)
        else:
            left = client.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": bob}, key=org)
        assert raced and left.status in (200, 201, 204), left.text
        idle.keeper.run()
        match = client.get(f"/matches/{table['match_id']}").body
        assert match["status"] == "finished" and 1 in match["resigned"], match["resigned"]  # bob's seat, 1
        result = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"]
        assert result["ranks"] == match["result"]["ranks"] == [1, 2], (result, match["result"])
    finally:
        idle.close()


def test_a_player_who_resigned_his_table_is_not_present_at_a_forfeit_of_another(tmp_path):
    """An organiser's probe: at a table of three, bob resigned the match himself, then the organiser
    forfeited ann (absent): bob was counted as present and shared the table's first place ([3, 1, 1]),
    while the match ranked him below cy. He is not present: he ranks last, below the absent, as one who
    left the table (docs/tournaments.md)."""
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 3)
    try:
        ann, bob, cy = table["players"]
        assert client.post(f"/matches/{table['match_id']}/resign", key=keys[bob]).status == 200
        assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [ann]}, key=org).status == 200
        result = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"][0]["result"]
        assert result == {"ranks": [2, 3, 1], "how": "forfeit"}, result
    finally:
        idle.close()


def test_a_player_who_resigned_himself_before_his_forfeit_is_listed_as_resigned_not_forfeited(tmp_path):
    """Cy resigned the match himself, then the organiser forfeited him: his seat read "forfeited by the
    organiser (absent after the round's deadline)" (a review). He was not absent: he stays resigned."""
    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 3)
    try:
        gone, absent = table["players"][2], table["players"][1]
        assert client.post(f"/matches/{table['match_id']}/resign", key=keys[gone]).status == 200
        forfeit = {"player_ids": [gone, absent], "match_id": table["match_id"]}
        assert client.post(f"/tournaments/{tid}/forfeits", forfeit, key=org).status == 200
        match = client.get(f"/matches/{table['match_id']}").body
        assert match["forfeited"] == [1] and set(match["resigned"]) == {1, 2}, match
    finally:
        idle.close()


def test_a_forfeited_tables_match_travels_by_export_and_import(tmp_path):
    """The match's history says who was forfeited (``Forfeited``), and an import checks it."""
    import json

    from tests.platform.test_audit import post_history

    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 2)
    try:
        present, absent = table["players"]
        assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [absent]}, key=org).status == 200
        with exported_as_auditor(idle, table["match_id"]) as (audit, lines):
            assert [line["data"] for line in lines if line["event"] == "Forfeited"] == [{"seats": [1]}]
            status, view = post_history(audit, lines)
            assert status == 201 and view["result"]["ranks"] == [1, 2], view
            assert view["forfeited"] == [1] and audit.get(f"/matches/{table['match_id']}").body["forfeited"] == [1]
            bad = [dict(line, data={"seats": [5]}) if line["event"] == "Forfeited" else line for line in lines]
            status, refusal = post_history(audit, json.loads(json.dumps(bad)))
            assert status == 422 and "forfeit" in refusal["detail"], refusal
            # The forfeited players resign next, in the forfeit's save: a marker naming a seat that plays on
            # (or resigning another seat) was taken as sent.
            for changed in ({"Forfeited": {"seats": [0, 1]}}, {"Resigned": {"seat": 0}}):
                bad = [dict(line, data=changed[line["event"]]) if line["event"] in changed else line for line in lines]
                status, refusal = post_history(audit, json.loads(json.dumps(bad)))
                assert status == 422 and "resign next" in refusal["detail"], refusal
    finally:
        idle.close()


def test_creating_a_match_or_a_tournament_of_an_unknown_game_documents_its_404(client):
    """docs/problems.md: an unknown game is a 404. The OpenAPI document listed 404 only where the path
    holds an id, so the two writes whose body names the game did not document the answer they give."""
    _, org = client.register("org")
    assert client.post("/tournaments", {"game": "nope", "name": "x", "rounds": 1}, key=org).status == 404
    assert client.post("/matches", {"game": "nope", "seats": 3}, key=org).status == 404
    paths = client.get("/openapi.json").body["paths"]
    assert "404" in paths["/tournaments"]["post"]["responses"]
    assert "404" in paths["/matches"]["post"]["responses"]


def test_ids_in_a_body_are_read_as_the_ids_they_spell_in_any_case(client):
    """A UUID in upper case (as some languages print it) names the same player in a path; in a body it
    was compared as sent: disqualifying "ANN-ID" was a 409 "not registered", and the upper-case player
    filter of the match list listed nothing."""
    _, org = client.register("org")
    keys = dict(client.register(name) for name in ("ann", "bob", "cy", "dan"))
    tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": 2, "table_size": 3},
                      key=org).body["id"]
    for key in keys.values():
        assert client.post(f"/tournaments/{tid}/players", key=key).status == 201
    ann, bob, cy, dan = keys
    # An id in the withdrawal's path too: the player withdrawing himself was "not the organiser". (Before
    # the start: withdrawn during play they resign their table, whose end the round keeper records when
    # it runs, and a second withdrawal raced the tournament's end.)
    assert client.call("DELETE", f"/tournaments/{tid}/players/{bob.upper()}", key=keys[bob]).status == 200
    assert client.call("DELETE", f"/tournaments/{tid}/players/{{{cy}}}", key=org).status == 200
    registered = {p["player_id"]: p["status"] for p in client.get(f"/tournaments/{tid}").body["players"]}
    assert bob not in registered and cy not in registered  # withdrawn before the start: no longer registered
    assert client.call("DELETE", f"/tournaments/{tid}/players/not-a-player", key=org).status == 404
    started = client.post(f"/tournaments/{tid}/start", key=org)
    (table,) = started.body["rounds"][0]["tables"]
    assert sorted(table["players"]) == sorted([ann, dan])
    listed = client.get("/matches", query={"player": ann.upper(), "after": started.headers["Motley-Position"]}).body
    assert [row["id"] for row in listed["items"]] == [table["match_id"]]
    sanctioned = client.post(f"/tournaments/{tid}/sanctions",
                             {"kind": "disqualify", "player_id": ann.upper(), "reason": "r"}, key=org)
    assert sanctioned.status == 201, sanctioned.text
    assert [s["player_id"] for s in sanctioned.body["sanctions"]] == [ann]
    assert client.post(f"/tournaments/{tid}/sanctions",
                       {"kind": "disqualify", "player_id": "not-a-player"}, key=org).status == 409


def test_a_sanction_naming_the_other_kinds_id_or_a_list_filter_naming_no_player_id_is_a_422(client):
    """An organiser probe: a disqualification sent with a match_id too was a 201 that dropped the
    match_id without a word (which of the two counted?); ``/tournaments?player=ann`` was an empty list
    where ``/matches?player=ann`` is a 422."""
    _, org = client.register("org")
    keys = dict(client.register(name) for name in ("ann", "bob"))
    tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": 1, "table_size": 2},
                      key=org).body["id"]
    for key in keys.values():
        assert client.post(f"/tournaments/{tid}/players", key=key).status == 201
    ann, bob = keys
    started = client.post(f"/tournaments/{tid}/start", key=org)
    (table,) = started.body["rounds"][0]["tables"]
    before = client.get(f"/tournaments/{tid}").body
    for body in ({"kind": "disqualify", "player_id": ann, "match_id": table["match_id"]},
                 {"kind": "void", "match_id": table["match_id"], "player_id": ann}):
        refused = client.post(f"/tournaments/{tid}/sanctions", body, key=org)
        assert refused.status == 422 and refused.headers["Content-Type"] == "application/problem+json"
        assert "only" in refused.body["detail"], refused.body
    after = client.get(f"/tournaments/{tid}").body
    assert after["version"] == before["version"] and after["sanctions"] == []
    assert client.get(f"/matches/{table['match_id']}").body["status"] == "active"  # nothing voided

    for path in ("/tournaments", "/matches"):
        named = client.get(path, query={"player": "ann"})
        assert named.status == 422 and "no player id" in named.body["detail"], (path, named.text)
    listed = client.get("/tournaments", query={"player": bob.upper(),
                                               "after": started.headers["Motley-Position"]}).body["items"]
    assert [t["id"] for t in listed] == [tid]


def one_move(client, match_id, keys) -> str:
    """The seat to act makes the first of its legal moves (whichever of ``keys`` holds it); its key."""
    for key in keys:
        legal = client.get(f"/matches/{match_id}", key=key).body["legal_actions"]
        if legal:
            assert client.post(f"/matches/{match_id}/moves", {"action": legal[0]}, key=key).status == 201
            return key
    raise AssertionError("no seat to act")


def two_movers(client, match_id, keys) -> None:
    """Moves until two of the players have moved, ``keys[0]`` (the winner-to-be) among them: a match is
    rated only if a person who played it out moved (docs/tournaments.md, "Ratings")."""
    moved = set()
    for _ in range(40):
        moved.add(one_move(client, match_id, keys))
        if len(moved) >= 2 and keys[0] in moved:
            return
    raise AssertionError("a second player never came to act")


def test_a_void_report_lists_players_outside_the_tournament_whose_ratings_it_moved(client, sqlite_motley):
    """A void replays the game's ratings: X and Y, who played the tournament's winner after the voided
    table, move too, and the report left them out ("every player whose ... rating changed")."""
    _, org = client.register("org")
    (a_id, a), (b_id, b), (c_id, c) = (client.register(name) for name in ("ann", "bob", "cy"))
    tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": 1, "table_size": 3},
                      key=org).body["id"]
    for key in (a, b, c):
        assert client.post(f"/tournaments/{tid}/players", key=key).status == 201
    (table,) = client.post(f"/tournaments/{tid}/start", key=org).body["rounds"][0]["tables"]
    keys = {a_id: a, b_id: b, c_id: c}
    sqlite_motley.tasks.drain()
    two_movers(client, table["match_id"], [a, b, c])  # ann, who plays it out, moves
    for player in table["players"]:
        if player != a_id:
            assert client.post(f"/matches/{table['match_id']}/resign", key=keys[player]).status == 200
    (x_id, x), (y_id, y) = (client.register(name) for name in ("xan", "yve"))
    later = client.new_match("jester", 3, [x, a, y])
    sqlite_motley.tasks.drain()
    two_movers(client, later, [x, a, y])
    for key in (a, y):
        assert client.post(f"/matches/{later}/resign", key=key).status == 200
    sqlite_motley.tasks.drain()
    voided = client.post(f"/tournaments/{tid}/sanctions", {"kind": "void", "match_id": table["match_id"]}, key=org)
    assert voided.status == 201, voided.text
    report = client.get(voided.headers["Location"]).body
    changed = {row["player_id"]: row for row in report["changed"]}
    assert {x_id, y_id} <= set(changed) and not changed[x_id]["in_tournament"]
    assert changed[x_id]["rating"]["before"] != changed[x_id]["rating"]["after"]
    board = {r["player_id"]: r for r in client.get("/leaderboards/jester", query={"limit": 500}).body["items"]}
    assert changed[y_id]["rating"]["after"]["mu"] == board[y_id]["mu"]
    assert changed[a_id]["in_tournament"] and {a_id, b_id, c_id} <= set(changed)
    # The match's own view says so too: it said rated, the ratings leaving it out. Its result stays.
    view = client.get(f"/matches/{table['match_id']}").body
    assert (view["status"], view["rated"], view["voided"]) == ("finished", False, "") and view["result"]["winners"]
    rows = client.get("/matches", query={"after": voided.headers["Motley-Position"], "status": "finished",
                                         "player": a_id}).body["items"]
    assert [row["terms"]["rated"] for row in rows if row["id"] == table["match_id"]] == [False]
    history = History(sqlite_motley.app)
    text = "".join(history.export(table["match_id"], Viewer.the_auditor()))
    assert '"event":"ResultVoided"' in text
    copy = history.import_history(text)  # the event travels: the copy is voided too
    assert copy.voided == "" and copy.result == sqlite_motley.app.get_match(table["match_id"]).result
    again = client.post(f"/tournaments/{tid}/sanctions", {"kind": "void", "match_id": table["match_id"]}, key=org)
    assert again.status == 409 and client.get(f"/matches/{table['match_id']}").body["version"] == view["version"]
    # `motley rebuild league` writes the same report: it read the voided match as never rated, so the void
    # changed nobody's rating (a probe)
    sqlite_motley.league.rebuild()
    assert client.get(voided.headers["Location"]).body["changed"] == report["changed"]


def test_standings_read_after_a_wait_give_the_status_of_the_same_moment(tmp_path):
    """GET /tournaments/{id}/standings?after=P read the tournament before waiting for P and the rows
    after: the last table's result arriving during the wait gave rows that counted it under the status
    "active" (a client polling until "finished" saw final numbers labelled as live)."""
    idle = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "idle.sqlite")), tasks=NoTaskQueue())
    try:  # no worker: the round keeper and the league projection run when the test says so
        client = ApiClient(create_app(idle))
        _, org = client.register("org")
        keys = dict(client.register(name) for name in ("ann", "bob"))
        tid = client.post("/tournaments", {"game": "jester", "name": "t", "rounds": 1, "table_size": 2},
                          key=org).body["id"]
        for key in keys.values():
            client.post(f"/tournaments/{tid}/players", key=key)
        (table,) = client.post(f"/tournaments/{tid}/start", key=org).body["rounds"][0]["tables"]
        resigned = client.post(f"/matches/{table['match_id']}/resign", key=keys[table["players"][1]])
        position = resigned.headers["Motley-Position"]
        answers: list = []
        waiting = threading.Thread(target=lambda: answers.append(
            client.get(f"/tournaments/{tid}/standings", query={"after": position})))
        waiting.start()
        time.sleep(0.5)  # the read is waiting for the league to reach the resignation
        idle.keeper.run()  # the result, and the tournament's end
        idle.league.run()
        waiting.join(10)
        (standings,) = answers
        assert standings.status == 200, standings.text
        assert [row["played"] for row in standings.body["items"]] == [1, 1]
        assert standings.body["status"] == "finished"
    finally:
        idle.close()


def test_a_match_voided_while_it_is_played_stops_and_its_history_says_why(tmp_path):
    """A table's match voided during play stayed playable: its players were asked to move (the stream
    said it was their turn), its clocks ran, for a result the tournament no longer counts. It stops now,
    called off in the same save as the void, and its history says so (``Voided``), through an import too."""
    import json

    from tests.platform.test_audit import post_history

    idle, client, org, tid, table, keys = _forfeitable(tmp_path, 2)
    try:
        match_id = table["match_id"]
        view = client.get(f"/matches/{match_id}", key=keys[table["players"][0]]).body
        assert view["status"] == "active"
        voided = client.post(f"/tournaments/{tid}/sanctions",
                             {"kind": "void", "match_id": match_id, "reason": "collusion"}, key=org)
        assert voided.status == 201, voided.text
        stopped = client.get(f"/matches/{match_id}").body
        assert stopped["status"] == "cancelled" and stopped["version"] == view["version"] + 1
        assert stopped["voided"] == "collusion" and view["voided"] is None  # the view says why
        # And that it counts for no rating (docs/tournaments.md: a void no longer counts): it said rated.
        assert view["rated"] is True and stopped["rated"] is False
        for player in table["players"]:
            seen = client.get(f"/matches/{match_id}", key=keys[player]).body
            legal = seen.get("legal_actions") or [{}]
            refused = client.post(f"/matches/{match_id}/moves", {"action": legal[0]}, key=keys[player])
            assert refused.status == 409 and "voided it (collusion)" in refused.body["detail"], refused.text
        assert client.get(f"/matches/{match_id}").body["version"] == stopped["version"]  # nothing changed
        # The players' stream says it was called off.
        from tests.platform.test_my_stream import sse
        kinds = [kind for _, kind, _ in sse(client, keys[table["players"][0]], last_event_id=0, seconds=0.3)]
        # (Then the tournament's end, if the void settled its last round: after the table's, docs/tournaments.md.)
        assert kinds[kinds.index("cancelled"):] in (["cancelled"], ["cancelled", "tournament-finished"]), kinds
        # Voiding it again is refused (the table is void already); the tournament goes on.
        again = client.post(f"/tournaments/{tid}/sanctions", {"kind": "void", "match_id": match_id}, key=org)
        assert again.status == 409
        with exported_as_auditor(idle, match_id) as (audit, lines):
            assert [line["data"] for line in lines if line["event"] == "Voided"] == [{"reason": "collusion"}]
            status, copy = post_history(audit, lines)
            assert status == 201 and copy["status"] == "cancelled", copy
            bad = [dict(line, data={"reason": 5}) if line["event"] == "Voided" else line for line in lines]
            status, refusal = post_history(audit, json.loads(json.dumps(bad)))
            assert status == 422 and "reason" in refusal["detail"], refusal
    finally:
        idle.close()


def test_a_forfeit_naming_an_earlier_rounds_table_is_told_so_not_the_new_rounds_deadline(tmp_path):
    """An organiser's probe: a forfeit sent again for round 1's table, once round 2 was paired, was refused
    with "round 2 runs until ...", as if waiting would let it through; the table is no longer in play."""
    idle, client, org, tid, table, keys, now = _started(tmp_path, 2, rounds=2)
    try:
        now[0] += timedelta(seconds=61)
        body = {"player_ids": [table["players"][1]], "match_id": table["match_id"]}
        assert client.post(f"/tournaments/{tid}/forfeits", body, key=org).status == 200
        before = client.get(f"/tournaments/{tid}").body
        assert len(before["rounds"]) == 2
        again = client.post(f"/tournaments/{tid}/forfeits", body, key=org)
        assert again.status == 409 and again.body["type"].endswith(":conflict"), again.text
        assert "round 1's table 1, not a table of round 2" in again.body["detail"], again.body
        assert "runs until" not in again.body["detail"]
        now[0] += timedelta(seconds=61)  # past round 2's deadline too: still that table, not this round's
        late = client.post(f"/tournaments/{tid}/forfeits", body, key=org)
        assert late.status == 409 and "round 1's table 1" in late.body["detail"], late.text
        stranger = client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [table["players"][1]],
                                                                 "match_id": str(uuid.uuid4())}, key=org)
        assert stranger.status == 409 and "not one of this tournament's tables" in stranger.body["detail"]
        assert client.get(f"/tournaments/{tid}").body["version"] == before["version"]
    finally:
        idle.close()


def test_an_organiser_calls_off_a_tournament_before_its_start_and_its_players_are_told(client):
    """An organiser's probe: a tournament made by mistake, or a club night that did not happen, stayed
    listed as open for good (DELETE, PATCH: 405; no status but open, active, finished). Its organiser calls
    it off now, before the start only; nobody else may, and its registered players' streams say so."""
    from tests.platform.test_my_stream import sse

    _, org = client.register("org")
    _, ann = client.register("ann")
    _, bob = client.register("bob")
    tid = client.post("/tournaments", {"game": "jester", "name": "mistake", "rounds": 1, "table_size": 2},
                      key=org).body["id"]
    for key in (ann, bob):
        assert client.post(f"/tournaments/{tid}/players", key=key).status == 201
    version = client.get(f"/tournaments/{tid}").body["version"]
    for key, status in ((ann, 403), (None, 401)):  # a player, a caller without a key: refused, nothing changed
        refused = client.post(f"/tournaments/{tid}/cancel", key=key)
        assert refused.status == status and refused.headers["Content-Type"] == "application/problem+json"
    assert client.post(f"/tournaments/{tid}/cancel", {"reason": "x"}, key=org).status == 422
    assert client.get(f"/tournaments/{tid}").body["version"] == version
    called_off = client.post(f"/tournaments/{tid}/cancel", key=org)
    assert called_off.status == 200 and called_off.body["status"] == "cancelled", called_off.text
    # It takes no registration and never starts; calling it off again is a 409 that says why.
    _, cy = client.register("cy")
    for path, key in (("players", cy), ("start", org), ("cancel", org)):
        refused = client.post(f"/tournaments/{tid}/{path}", key=key)
        assert refused.status == 409 and "cancelled" in refused.body["detail"], (path, refused.text)
    # The list shows it so once it has read the call (after=), and filters on it; the OpenAPI document
    # declares the header a client reads for it (an OpenAPI probe: it was sent, not declared).
    after = called_off.headers["Motley-Position"]
    declared = client.get("/openapi.json").body["paths"]["/tournaments/{tournament_id}/cancel"]["post"]
    assert "Motley-Position" in declared["responses"]["200"]["headers"]
    listed = client.get(f"/tournaments?after={after}").body["items"]
    assert [t["status"] for t in listed if t["id"] == tid] == ["cancelled"]
    assert [t["id"] for t in client.get(f"/tournaments?status=cancelled&after={after}").body["items"]] == [tid]
    assert tid not in [t["id"] for t in client.get(f"/tournaments?status=open&after={after}").body["items"]]
    # Nothing was played, so nobody is ranked (every entrant read rank 1 before: an organiser's probe).
    table = client.get(f"/tournaments/{tid}/standings?after={after}").body
    assert table["status"] == "cancelled" and [(row["name"], row["rank"]) for row in table["items"]] == [
        ("ann", None), ("bob", None)], table
    items = [data for _, kind, data in sse(client, ann, last_event_id=0, seconds=0.3) if kind == "tournament-cancelled"]
    assert [(item["tournament_id"], item["tournament"]["status"]) for item in items] == [(tid, "cancelled")]
    # A started tournament is its players': it is not called off.
    other = client.post("/tournaments", {"game": "jester", "name": "on", "rounds": 1, "table_size": 2},
                        key=org).body["id"]
    for key in (ann, bob):
        client.post(f"/tournaments/{other}/players", key=key)
    assert client.post(f"/tournaments/{other}/start", key=org).status == 200
    refused = client.post(f"/tournaments/{other}/cancel", key=org)
    assert refused.status == 409 and "active" in refused.body["detail"], refused.text


def test_a_tournament_write_on_a_stale_read_is_a_412_and_changes_nothing(client):
    """If-Match on a tournament's writes (RFC 9110 §13.1.1): a version number was read as a match's and
    then ignored, so a start, a withdrawal or a disqualification decided on a stale view was saved, and
    the ETag the tournament read had just sent ("tournament-5") was a 422 naming a match read (an
    organiser's probe). A stale tag is now a 412 that changes nothing; the read's own tag holds."""
    organiser, tid, keys = entered_tournament(client, ["ann", "bob"], game="jester", name="t", rounds=2,
                                              table_size=2)
    (ann, ann_key), (bob, _) = keys.items()
    read = client.get(f"/tournaments/{tid}")
    stale = read.headers["ETag"]
    assert stale == f'"tournament-{read.body["version"]}"'
    _, cy = client.register("cy")
    assert client.post(f"/tournaments/{tid}/players", key=cy, headers={"If-Match": stale}).status == 201
    now = client.get(f"/tournaments/{tid}")
    for tag in (stale, f'"{read.body["version"]}"', f'W/{now.headers["ETag"]}'):  # a weak tag never holds
        refused = client.post(f"/tournaments/{tid}/start", key=organiser, headers={"If-Match": tag})
        assert refused.status == 412, (tag, refused.text)
        assert refused.body["current_version"] == now.body["version"]
    withdrawn = client.call("DELETE", f"/tournaments/{tid}/players/{bob}", key=organiser, headers={"If-Match": stale})
    assert withdrawn.status == 412
    assert client.get(f"/tournaments/{tid}").body == now.body  # nothing changed
    # A stranger's stale write is refused for what it is, as a match's: a 403, not a 412.
    assert client.post(f"/tournaments/{tid}/start", key=ann_key, headers={"If-Match": stale}).status == 403
    assert client.post(f"/tournaments/{tid}/start", key=organiser,
                       headers={"If-Match": '"board-5"'}).status == 422  # no tournament's tag
    # An event list page's tag ("12.0.12e") states its version; an "e" with no page window is no tag at all
    # (schemathesis sent "60680332e": a 500, the version read as a number).
    assert client.post(f"/tournaments/{tid}/start", key=organiser,
                       headers={"If-Match": '0.0, 60680332e", "9.0.9e"'}).status == 422
    assert client.post(f"/tournaments/{tid}/start", key=organiser,
                       headers={"If-Match": '"99.0.99e"'}).status == 412
    started = client.post(f"/tournaments/{tid}/start", key=organiser,
                          headers={"If-Match": f'{stale}, {now.headers["ETag"]}'})  # any of a list may hold
    assert started.status == 200 and started.body["status"] == "active", started.text
    # Two organiser's tabs: one withdraws bob, the other, on the read before it, disqualifies ann.
    before = client.get(f"/tournaments/{tid}").headers["ETag"]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{bob}", key=organiser,
                       headers={"If-Match": before}).status == 200
    after = client.get(f"/tournaments/{tid}").body
    disqualified = client.post(f"/tournaments/{tid}/sanctions", {"kind": "disqualify", "player_id": ann},
                               key=organiser, headers={"If-Match": before})
    # Bob's withdrawal resigned his table, whose end the round keeper records meanwhile: the tournament may
    # move on by itself, so the 412 names its version then, and the disqualification is what was not saved.
    assert disqualified.status == 412 and disqualified.body["current_version"] >= after["version"]
    now = client.get(f"/tournaments/{tid}").body
    assert now["sanctions"] == [] and {p["player_id"]: p["status"] for p in now["players"]}[ann] != "disqualified"
