"""Audit and rewind probed as an auditor, a player and a spectator would use them (docs/architecture.md
"Audit"): what a fork changes in its parent's view and who learns of a private one, the auditor's
credential on player routes, an import's bytes. Each test failed before its fix."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta

from api import cli
from tests.platform.client import play_randomly
from tests.platform.test_audit import (  # noqa: F401
    AUDITOR,
    audit,
    export,
    finished_match,
    history_from_elsewhere,
    post_history,
)


def test_a_fork_changes_the_parents_etag_so_polling_sees_it(audit):  # noqa: F811 - the fixture
    """RFC 9110 §8.8.1: a strong validator changes with the representation. A fork adds to the parent's
    lineage but not its version: If-None-Match with the ETag read before was a 304 of a changed view."""
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    before = client.get(f"/matches/{match_id}")
    tag = before.headers["ETag"]
    assert client.get(f"/matches/{match_id}", headers={"If-None-Match": tag}).status == 304
    assert client.post(f"/matches/{match_id}/forks", {"version": 10}, key=keys[0]).status == 201
    after = client.get(f"/matches/{match_id}", headers={"If-None-Match": tag})
    assert after.status == 200 and len(after.body["lineage"]["forks"]) == 1
    assert after.headers["ETag"] == f'"{before.body["version"]}.1"' != tag
    again = client.get(f"/matches/{match_id}", headers={"If-None-Match": after.headers["ETag"]})
    assert again.status == 304 and again.headers["ETag"] == after.headers["ETag"]
    assert client.get(f"/matches/{match_id}", headers={"If-None-Match": f'W/{after.headers["ETag"]}'}).status == 304


def test_the_auditors_private_fork_of_a_live_match_is_listed_to_the_auditor_only(audit):  # noqa: F811
    """docs/architecture.md: a fork of a match the public has not seen is private. It was listed in the
    parent's lineage to everyone: the players learnt that the auditor was looking into their match."""
    container, client = audit
    keys = [client.register(f"p{i}")[1] for i in range(3)]
    live = client.new_match("jest", 3, keys)
    client.post(f"/matches/{live}/start", key=keys[0])
    forked = client.post(f"/matches/{live}/forks", {"version": 3}, key=AUDITOR)
    assert forked.status == 201 and forked.body["unlisted"], forked.text
    for key in (None, keys[0], keys[1]):
        seen = client.get(f"/matches/{live}", key=key)
        assert seen.body["lineage"]["forks"] == []
        assert re.fullmatch(rf'"{seen.body["version"]}(-[0-9a-f]{{12}})?"', seen.headers["ETag"])  # no fork count
    audited = client.get(f"/matches/{live}", key=AUDITOR).body["lineage"]["forks"]
    assert audited == [{"match_id": forked.body["id"], "version": 3}]


def test_the_auditors_credential_on_a_player_route_is_a_403_and_no_failed_guess(audit):  # noqa: F811
    """The auditor's credential is valid but names no player. Told "the API key is not valid" (401) on
    player routes, it was counted as a guess: 30 of them locked the auditor out of the audit routes."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    for _ in range(35):
        answer = client.get("/players/me", key=AUDITOR)
        assert answer.status == 403 and "player" in answer.body["detail"], answer.text
    assert client.post("/matches", {"game": "jest", "seats": 3}, key=AUDITOR).status == 403
    assert export(client, match_id, AUDITOR)  # not locked out
    assert client.get("/players/me", key="not-a-key").status == 401


def test_an_import_that_is_not_utf8_is_refused_not_mended(audit):  # noqa: F811 - the fixture
    """A byte that is not UTF-8 was replaced with U+FFFD and the copy saved with a name the file did not
    hold; the 400 written for it never came (werkzeug decodes leniently)."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    text = "".join(json.dumps(line) + "\n" for line in export(client, match_id, AUDITOR))
    raw = text.encode().replace(b'"name": "p0"', b'"name": "p0\xff"', 1)
    assert raw != text.encode(), "the export names seat 0's player p0"
    response = client.http.post("/matches/import", data=raw, headers={
        "Content-Type": "application/x-ndjson", "Authorization": f"Bearer {AUDITOR}"})
    assert response.status_code == 400 and "UTF-8" in response.get_json()["detail"]
    assert post_history(client, text)[0] == 201  # the file as exported imports


def test_an_import_refuses_a_created_event_or_a_line_that_says_something_else(audit):  # noqa: F811
    """Fields the importer did not read were taken without a word: a Created event naming another game
    or rules version than its line, a field the service never writes, a line of another match."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id, AUDITOR)

    def changed(number, **data):
        copy = json.loads(json.dumps(lines))
        copy[number - 1]["data"].update(data)
        return copy

    other_match = json.loads(json.dumps(lines))
    other_match[4]["match"] = "00000000-0000-4000-8000-000000000000"
    for tampered, said in ((changed(1, game="jester"), "game"), (changed(1, rules_version="0.9"), "rules_version"),
                           (changed(1, extra=1), "unknown Created field"), (other_match, "same match")):
        status, body = post_history(client, tampered)
        assert status == 422 and said in body["detail"], body
    assert post_history(client, lines)[0] == 201


def test_an_import_whose_first_line_holds_no_seed_is_stored_as_the_service_stores_chance(audit):  # noqa: F811
    """The seed only in the Finished line: the copy was saved with its chance as sent (no seed key), the
    import answered 500 "nothing was changed", and every read of the copy failed for good. The copy now
    holds its chance as the service does (the seed from wherever the history held it), and a chance of
    another shape, or a line field the export never writes, is refused on its line."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id, AUDITOR)
    seed = lines[0]["data"]["chance"].pop("seed")
    assert seed and lines[-1]["event"] == "Finished" and lines[-1]["data"]["seed"] == seed
    status, body = post_history(client, lines)
    assert status == 201, body
    for key in (AUDITOR, None):
        read = client.get(f"/matches/{body['id']}", key=key)
        assert read.status == 200 and read.body["chance"]["seed"] == seed, read.text
    assert client.get(f"/matches/{body['id']}", query={"version": 3}).status == 200

    def tampered(change):
        copy = json.loads(json.dumps(lines))
        change(copy)
        return copy

    for change, line, said in (
            (lambda c: c[0]["data"]["chance"].update(scheme="dice/0"), 1, "scheme"),
            (lambda c: c[0]["data"]["chance"].update(salt="x"), 1, "scheme"),
            (lambda c: c[4].update(extra=1), 5, "unknown line field"),
            (lambda c: next(line for line in c if line["event"] == "MoveMade")["data"].update(
                moved_at="2099-01-01T00:00:00+00:00"), None, "later than now"),
            # A later move dated an hour before an earlier one: the import did not check that time goes on.
            (lambda c: [line for line in c if line["event"] == "MoveMade"][1]["data"].update(
                moved_at="2000-01-01T00:00:00+00:00"), None, "before the previous move's")):
        status, refused = post_history(client, tampered(change))
        assert status == 422 and said in refused["detail"], refused
        assert line is None or f"line {line}" in refused["detail"], refused


def test_an_import_refuses_a_timed_phase_moved_in_time(audit):  # noqa: F811 - the fixture
    """Tumult Royale's sealed tax phases are timed: live, a move after the deadline is a 409 time-is-up.
    The import took deadlines moved to 2000 (every tax move then after its phase had closed), or set to
    the phase's start. Each is now refused on its line."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="tumult-royale", players=2, options={"tax_seconds": 60})
    lines = export(client, match_id, AUDITOR)
    timers = [line["version"] for line in lines if line["event"] == "TimerStarted"]
    assert timers and post_history(client, lines)[0] == 201

    def tampered(change):
        copy = json.loads(json.dumps(lines))
        for line in copy:
            if line["event"] == "TimerStarted":
                change(line)
        return copy

    def at_start(line):
        deadline = datetime.fromisoformat(line["data"]["deadline"])
        line["data"]["deadline"] = (deadline - timedelta(seconds=60)).isoformat()

    for history, said in ((tampered(lambda line: line["data"].update(deadline="2000-01-01T00:00:00+00:00")),
                           "timed phase"),
                          (tampered(at_start), "timed phase")):
        status, refused = post_history(client, history)
        assert status == 422 and said in refused["detail"], refused


def test_an_import_may_not_reveal_a_match_of_this_server_created_not_to_reveal(audit):  # noqa: F811
    """A match created ``reveal_at_end: false`` keeps its hands hidden from seats and spectators for
    good. Its export imported with the flag turned true made a copy in which a spectator with no key read
    the whole state and the seed. Refused now; the history as exported is imported as before."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3, reveal=False)
    lines = export(client, match_id, AUDITOR)
    assert lines[0]["data"]["reveal_at_end"] is False
    flipped = json.loads(json.dumps(lines))
    flipped[0]["data"]["reveal_at_end"] = True
    status, refused = post_history(client, flipped)
    assert status == 422 and refused["line"] == 1 and "reveal_at_end" in refused["detail"], refused
    status, copy = post_history(client, lines)
    assert status == 201, copy
    spectator = client.get(f"/matches/{copy['id']}").body
    assert spectator["viewer"]["sees_all"] is False and spectator["chance"]["seed"] is None


def test_a_match_still_played_here_cannot_be_ended_by_an_import_of_its_history(audit):  # noqa: F811
    """The auditor's export of a match still being played, with resignations and an end written onto it,
    imported as a finished copy that showed anyone with its id the live match's deck, hands and seed.
    Refused while the match is played."""
    container, client = audit
    keys = [client.register(f"live{i}")[1] for i in range(3)]
    match_id = client.new_match("jest", 3, keys)
    lines = export(client, match_id, AUDITOR)
    seed = client.get(f"/matches/{match_id}", key=AUDITOR).body["chance"]["seed"]  # the auditor sees it
    result = {"scores": [0, 0, 0], "ranks": [1, 2, 2], "winners": [0], "detail": None, "resigned": [1, 2],
              "absent": []}
    ended = json.loads(json.dumps(lines))
    for event, data in (("Resigned", {"seat": 1}), ("Resigned", {"seat": 2}), ("Finished", {"result": result,
                                                                                           "seed": seed})):
        ended.append({**ended[-1], "version": ended[-1]["version"] + 1, "event": event, "data": data})
    status, refused = post_history(client, ended)
    assert status == 422 and "still being played" in refused["detail"], refused
    # Once it has ended here, the same history (the end it really had) imports.
    for key in keys[1:]:
        client.post(f"/matches/{match_id}/resign", key=key)
    status, copy = post_history(client, export(client, match_id, AUDITOR))
    assert status == 201 and client.get(f"/matches/{copy['id']}").body["status"] == "finished", copy


def test_an_import_refuses_what_an_export_never_writes_in_an_events_data(audit, tmp_path):  # noqa: F811
    """A key more in a line's ``data`` (14 MB of it, in a probe) was taken and dropped: the history saved
    was not the one sent. So was an ``at`` that is no time, a name the API would have trimmed or composed,
    and a viewer's redacted event; a Finished line's result of null was taken. Each is refused on its line now."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id, AUDITOR)
    first = {kind: next(n for n, line in enumerate(lines) if line["event"] == kind)
             for kind in ("SeatTaken", "Started", "MoveMade", "ChanceDrawn", "Finished")}

    def changed(number, **fields):
        copy = json.loads(json.dumps(lines))
        copy[number].update({k: v for k, v in fields.items() if k != "data"})
        copy[number]["data"].update(fields.get("data", {}))
        return copy

    cases = [(changed(n, data={"note": "x" * 1000}), f"unknown {kind} field 'note'") for kind, n in first.items()]
    cases += [(changed(first["MoveMade"], at="not a time"), "'at'"), (changed(2, at={"x": 1}), "'at'"),
              (changed(2, at="2026-12-05T10:00:00"), "'at'"),
              (changed(first["SeatTaken"], data={"name": "  p0  "}), "trimmed and in NFC"),
              (changed(first["SeatTaken"], data={"name": "Jose\u0301"}), "trimmed and in NFC"),
              (changed(first["MoveMade"], data={"hidden": True}), "redacted"),
              # a result of null matched an earlier form that did not apply (None), and verified (a review)
              (changed(first["Finished"], data={"result": None}), "recorded result")]
    position = client.get("/matches").headers.get("Motley-Position")
    for tampered, said in cases:
        status, body = post_history(client, tampered)
        assert status == 422 and said in body["detail"], (said, body)
    assert client.get("/matches").headers.get("Motley-Position") == position  # nothing was saved
    assert post_history(client, changed(first["MoveMade"], data={"hidden": False}))[0] == 201
    # (A player from elsewhere: one of this server is named as it is here.)
    elsewhere = history_from_elsewhere(tmp_path)
    seat_taken = next(line for line in elsewhere if line["event"] == "SeatTaken")
    seat_taken["data"].update(name="Jos\u00e9", player_id="elsewhere-0")
    assert post_history(client, elsewhere)[0] == 201


def test_an_import_naming_a_match_here_holds_its_game_rules_and_commitment(audit):  # noqa: F811 - the fixture
    """A history naming a match of this server was held to it on its reveal and its end only: relabelled
    with another match's id, or with its chance commitment dropped, it imported."""
    container, client = audit
    jest_id, _ = finished_match(container, client, game="jest", players=3)
    jester_id, _ = finished_match(container, client, game="jester", players=2, seed=4)
    lines = export(client, jest_id, AUDITOR)
    other = [{**line, "match": jester_id} for line in lines]
    status, body = post_history(client, other)
    assert status == 422 and body["line"] == 1 and "is jester rules" in body["detail"], body
    dropped = json.loads(json.dumps(lines))
    dropped[0]["data"]["chance"] = None
    dropped[-1]["data"]["seed"] = None
    status, body = post_history(client, dropped)
    assert status == 422 and "chance commitment" in body["detail"], body
    assert post_history(client, lines)[0] == 201
    # From elsewhere (an id this server does not hold), a history without a commitment still imports (its
    # secrets the auditor's alone: test_audit_import_guards).
    elsewhere = [{**line, "match": "00000000-0000-4000-8000-000000000001"} for line in dropped]
    assert post_history(client, elsewhere)[0] == 201


def test_the_auditors_fork_imports_and_verifies_offline(audit, tmp_path):  # noqa: F811 - the fixture
    """The auditor's forks are created by "auditor", not a player: their export was refused by the
    import and by `motley verify --parent` (created_by must be a player id), while GET /verify held."""
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    fork = client.post(f"/matches/{match_id}/forks", {"version": 12}, key=AUDITOR)
    assert fork.status == 201 and fork.body["created_by"] == "auditor", fork.text
    for key in keys:
        assert client.post(f"/matches/{fork.body['id']}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{fork.body['id']}/start", key=keys[0]).status == 200
    play_randomly(client, fork.body["id"], keys, random.Random(6), settle=container.tasks.drain)
    assert client.get(f"/matches/{fork.body['id']}/verify", key=AUDITOR).body["verified"]
    lines = export(client, fork.body["id"], AUDITOR)
    assert lines[0]["data"]["created_by"] == "auditor"
    status, copy = post_history(client, lines)
    assert status == 201, copy
    files = {}
    for name, rows in (("fork", lines), ("parent", export(client, match_id, AUDITOR))):
        files[name] = tmp_path / f"{name}.jsonl"
        files[name].write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert cli.verify_file(str(files["fork"]), [str(files["parent"])]) == 0


def test_a_fork_answers_with_its_readers_own_etag(audit):  # noqa: F811 - the fixture
    """A fork's (and an import's) answer sent the bare version as its ETag, the tag of a reader without
    a key: that reader's If-None-Match with it was a 304 of a view it had never read (a review)."""
    container, client = audit
    keys = [client.register(f"p{i}")[1] for i in range(3)]
    live = client.new_match("jest", 3, keys)
    forked = client.post(f"/matches/{live}/forks", {"version": 2}, key=AUDITOR)
    assert forked.status == 201, forked.text
    assert forked.headers["ETag"] == client.get(f"/matches/{forked.body['id']}", key=AUDITOR).headers["ETag"]
    assert forked.headers["ETag"].endswith('-auditor"')
    spectator = client.get(f"/matches/{forked.body['id']}", headers={"If-None-Match": forked.headers["ETag"]})
    assert spectator.status == 200


def test_a_copy_of_a_private_fork_of_a_live_match_cannot_be_imported_to_reveal_it(audit):  # noqa: F811
    """The auditor's fork of a live match is private and never revealed: it copies the parent's hidden
    deal. Its export, given a new id and ``reveal_at_end`` true, imported as a finished copy in which a
    spectator with no key read the live parent's deal (an auditor's probe). Refused now; the copy as
    exported (never revealed) imports."""
    container, client = audit
    keys = [client.register(f"live{i}")[1] for i in range(3)]
    live = client.new_match("jest", 3, keys)
    client.post(f"/matches/{live}/start", key=keys[0])
    fork = client.post(f"/matches/{live}/forks", {"version": 4}, key=AUDITOR).body
    assert fork["unlisted"] and fork["invitation_code"]
    for key in keys:
        joined = client.post(f"/matches/{fork['id']}/seats", {"invitation_code": fork["invitation_code"]}, key=key)
        assert joined.status == 201, joined.text
    assert client.post(f"/matches/{fork['id']}/start", key=keys[0]).status == 200
    play_randomly(client, fork["id"], keys, random.Random(3), settle=container.tasks.drain)
    lines = export(client, fork["id"], AUDITOR)
    assert lines[0]["data"]["reveal_at_end"] is False and lines[-1]["event"] == "Finished"
    renamed = [{**line, "match": "00000000-0000-4000-8000-00000000f0c1"} for line in json.loads(json.dumps(lines))]
    revealed = json.loads(json.dumps(renamed))
    revealed[0]["data"]["reveal_at_end"] = True
    status, refused = post_history(client, revealed)
    assert status == 422 and refused["line"] == 1 and "hidden cards" in refused["detail"], refused
    # The parent's id spelt otherwise (upper case, urn:uuid:, braces, bare hex) found the parent but not
    # the guard, which let the copy in (a review of the guard): a fork records the id as written here.
    for spelling in (live.upper(), f"urn:uuid:{live}", "{" + live + "}", live.replace("-", "")):
        respelt = json.loads(json.dumps(revealed))
        respelt[0]["data"]["parent"]["match_id"] = spelling
        status, refused = post_history(client, respelt)
        assert status == 422 and refused["line"] == 1 and "as the service writes it" in refused["detail"], refused
    assert client.get(f"/matches/{live}").body["status"] == "active"
    status, copy = post_history(client, renamed)
    assert status == 201, copy
    spectator = client.get(f"/matches/{copy['id']}/events").body
    assert spectator["viewer"]["sees_all"] is False


def test_an_imported_option_sent_as_a_float_is_stored_as_the_engine_checked_it(audit):  # noqa: F811
    """A probe: {"deals": 2.0} passed the check (2 == 2.0) and was stored as sent, so the copy's view and
    export, and its forks' match-list rows, said 2.0 where POST /matches stores 2."""
    container, client = audit
    match_id, _ = finished_match(container, client, options={"deals": 2})
    lines = export(client, match_id, AUDITOR)
    assert lines[0]["data"]["options"]["deals"] == 2
    text = "".join(json.dumps(line) + "\n" for line in lines).replace('"deals": 2,', '"deals": 2.0,', 1)
    assert '"deals": 2.0' in text
    status, body = post_history(client, text)
    assert status == 201, body
    read = client.get(f"/matches/{body['id']}", key=AUDITOR)
    assert read.status == 200 and '"deals": 2.0' not in read.text and '"deals":2.0' not in read.text
    assert read.body["options"]["deals"] == 2 and type(read.body["options"]["deals"]) is int, read.body["options"]
    again = "".join(json.dumps(line) + "\n" for line in export(client, body["id"], AUDITOR))
    assert '"deals": 2.0' not in again and '"deals": 2' in again
