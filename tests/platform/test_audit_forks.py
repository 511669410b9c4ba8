"""Forks and imports that an auditor cannot be fooled by, and that keep a live match's secrets
(issue 11, found by probing the service): a fork's copied history is checked against its parent, a
fork of a match the public has not seen is private, nothing is forked where the game was over, and an
import is saved once, whatever its length."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from api import create_app
from api.cli import verify_file
from application import snapshots
from infrastructure.composition import build
from tests.platform.client import ApiClient, play_randomly
from tests.platform.test_audit import AUDITOR, export, finished_match, post_history

STEPS = ("ChanceDrawn", "MoveMade", "StepResolved", "TimedOut")


@pytest.fixture
def audit(settings, rng):
    container = build(dataclasses.replace(settings, auditor_key=AUDITOR), rng=rng)
    yield container, ApiClient(create_app(container))
    container.close()


def listed(client, game: str, status: str) -> int:
    """How many matches of ``game`` in ``status`` the match list holds, once it has caught up."""
    return len(client.get("/matches", query={"game": game, "status": status, "limit": 200}).body["items"])


def test_a_forged_parent_does_not_exempt_a_history_from_the_chance_check(audit):
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id, AUDITOR)
    shuffle = next(line for line in lines if line["event"] == "ChanceDrawn")
    order = shuffle["data"]["outcome"]["order"] if isinstance(shuffle["data"]["outcome"], dict) else None
    tampered = json.loads(json.dumps(lines))
    outcome = tampered[shuffle["version"] - 1]["data"]["outcome"]
    cards = outcome["order"] if order is not None else outcome
    cards[0], cards[1] = cards[1], cards[0]  # still a legal shuffle, not the one the seed gives
    status, problem = post_history(client, tampered)
    assert status == 422 and problem["line"] == shuffle["version"], problem

    # The same forgery claiming to be a fork whose chance came from a parent's seed: the parent must be
    # on this server and the copied steps its own.
    for parent in ({"match_id": "00000000-0000-0000-0000-000000000000", "version": 99, "prefix_end": 100000},
                   {"match_id": match_id, "version": 3, "prefix_end": 100000},
                   {"match_id": match_id, "version": len(lines) - 1, "prefix_end": len(lines) - 1},
                   "x", {"match_id": match_id}):
        forged = json.loads(json.dumps(tampered))
        forged[0]["data"]["parent"] = parent
        status, problem = post_history(client, forged)
        assert status == 422, (parent, problem)
    container.tasks.drain()
    assert listed(client, "jest", "finished") == 1  # the match alone: nothing was imported


def test_a_fork_travels_by_import_and_its_copied_prefix_is_checked(audit):
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    fork = client.post(f"/matches/{match_id}/forks", {"version": 12}, key=keys[0])
    assert fork.status == 201, fork.text
    fork_id = fork.body["id"]
    for key in keys:
        assert client.post(f"/matches/{fork_id}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{fork_id}/start", key=keys[0]).status == 200
    play_randomly(client, fork_id, keys, random.Random(3), settle=container.tasks.drain)
    lines = export(client, fork_id, AUDITOR)
    assert lines[-1]["event"] == "Finished"

    status, view = post_history(client, lines)
    assert status == 201, view
    assert view["result"] == lines[-1]["data"]["result"] and view["lineage"]["imported"]
    assert client.get(f"/matches/{view['id']}/verify").body["verified"]

    # A step of the copied prefix that is not the parent's (a legal move all the same) is refused.
    prefix_end = lines[0]["data"]["parent"]["prefix_end"]
    moves = [line for line in lines[:prefix_end] if line["event"] == "MoveMade"]
    forged = json.loads(json.dumps(lines))
    offer = forged[moves[0]["version"] - 1]["data"]["action"]
    offer["up"], offer["down"] = offer["down"], offer["up"]
    status, problem = post_history(client, forged)
    assert status == 422 and problem["line"] == moves[0]["version"], problem


def test_motley_verify_checks_a_forks_export_against_its_parents(audit, tmp_path, capsys):
    """`motley verify` ran the importer with no parent at hand: every fork's export was "not verified"
    (its parent "is not on this server") where GET /verify says verified. The parent's export is given."""
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    fork_id = client.post(f"/matches/{match_id}/forks", {"version": 12}, key=keys[0]).body["id"]
    for key in keys:
        assert client.post(f"/matches/{fork_id}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{fork_id}/start", key=keys[0]).status == 200
    play_randomly(client, fork_id, keys, random.Random(3), settle=container.tasks.drain)

    def saved(name, lines):
        path = tmp_path / name
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        return str(path)

    parent, fork = saved("parent.jsonl", export(client, match_id)), saved("fork.jsonl", export(client, fork_id))
    assert verify_file(fork, [parent]) == 0 and json.loads(capsys.readouterr().out)["verified"] is True
    assert verify_file(fork) == 1 and "--parent" in json.loads(capsys.readouterr().out)["reason"]
    other, _ = finished_match(container, client, game="jest", players=3, seed=2)
    assert verify_file(fork, [saved("other.jsonl", export(client, other))]) == 1  # not its parent
    assert "not at hand" in json.loads(capsys.readouterr().out)["reason"]
    # A parent that no fork needs is said to play no part (it was dropped without a word: a command-line
    # probe), one too many up a lineage too; a byte-order mark is no line.
    assert verify_file(parent, [fork]) == 1
    assert "the history is no fork" in json.loads(capsys.readouterr().out)["reason"]
    assert verify_file(fork, [parent, fork]) == 1
    assert "--parent number 1 is no fork" in json.loads(capsys.readouterr().out)["reason"]
    marked = tmp_path / "marked.jsonl"
    marked.write_text("\ufeff" + (tmp_path / "parent.jsonl").read_text(), encoding="utf-8")
    assert verify_file(str(marked)) == 0 and json.loads(capsys.readouterr().out)["verified"] is True
    # A fork of the fork, given only its parent (the fork): it is the grandparent's export that is
    # missing, which the reason said was the parent's, already given.
    grandchild = client.post(f"/matches/{fork_id}/forks", {"version": 14}, key=keys[0]).body["id"]
    for key in keys:
        assert client.post(f"/matches/{grandchild}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{grandchild}/start", key=keys[0]).status == 200
    play_randomly(client, grandchild, keys, random.Random(4), settle=container.tasks.drain)
    third = saved("grandchild.jsonl", export(client, grandchild))
    assert verify_file(third, [fork]) == 1
    assert "parent of --parent number 1" in json.loads(capsys.readouterr().out)["reason"]
    assert verify_file(third, [fork, parent]) == 0 and json.loads(capsys.readouterr().out)["verified"] is True
    # A parent's export that does not hold up is named: its "line 6: ..." read as the fork's own line.
    forged = export(client, match_id)
    moved = next(line for line in forged if line["event"] == "MoveMade")
    moved["data"]["action"] = {"type": "nonsense"}
    tampered = saved("tampered.jsonl", forged)
    assert verify_file(fork, [tampered]) == 1
    said = json.loads(capsys.readouterr().out)
    assert said["reason"].startswith(f"--parent {tampered}: line {moved['version']}:"), said
    assert said["file"] == tampered and said["line"] == moved["version"]


def test_an_auditors_fork_of_a_live_match_is_private_and_never_revealed(audit):
    container, client = audit
    keys = [client.register(f"p{i}")[1] for i in range(3)]
    live = client.new_match("jest", 3, keys)
    answer = client.post(f"/matches/{live}/forks", {"version": 6}, key=AUDITOR)
    assert answer.status == 201, answer.text
    fork = answer.body
    assert fork["unlisted"] and fork["invitation_code"]
    listing = client.get("/matches", query={"open": "true", "after": answer.headers["Motley-Position"], "limit": 200})
    assert listing.status == 200, listing.text
    listed = listing.body["items"]
    assert fork["id"] not in {row["id"] for row in listed}

    strangers = [client.register(f"s{i}")[1] for i in range(3)]
    refused = client.post(f"/matches/{fork['id']}/seats", {}, key=strangers[0])
    assert refused.status == 403 and refused.body["rule"] == "invitation", refused.text
    for key in strangers:
        assert client.post(f"/matches/{fork['id']}/seats", {"invitation_code": fork["invitation_code"]},
                           key=key).status == 201
    assert "invitation_code" not in client.get(f"/matches/{fork['id']}", key=strangers[0]).body
    assert client.post(f"/matches/{fork['id']}/start", key=strangers[0]).status == 200
    play_randomly(client, fork["id"], strangers, random.Random(4), settle=container.tasks.drain)
    # The fork is over while its parent plays on: the parent's deal it copied stays hidden from the public.
    assert client.get(f"/matches/{live}").body["status"] == "active"
    ended = client.get(f"/matches/{fork['id']}").body
    assert ended["status"] == "finished" and "state" not in ended and ended["chance"]["seed"] is None
    public = export(client, fork["id"])
    full = export(client, fork["id"], AUDITOR)
    shuffles = [(p["data"], f["data"]) for p, f in zip(public, full) if f["event"] == "ChanceDrawn"]
    assert shuffles and all(seen != whole for seen, whole in shuffles)


def test_the_auditor_calls_off_a_fork_it_made_and_nothing_else(audit):
    """An auditor's fork is created by "auditor", and the auditor's credential names no player: nobody
    could cancel it (403 to the auditor), and one nobody joined stayed open for ever."""
    _, client = audit
    keys = [client.register(f"p{i}")[1] for i in range(3)]
    live = client.new_match("jest", 3, keys)
    fork = client.post(f"/matches/{live}/forks", {"version": 6}, key=AUDITOR).body
    assert client.post(f"/matches/{fork['id']}/cancel", key=keys[0]).status == 403  # not its creator
    called_off = client.post(f"/matches/{fork['id']}/cancel", key=AUDITOR)
    assert called_off.status == 200 and called_off.body["status"] == "cancelled", called_off.text
    open_one = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body["id"]
    assert client.post(f"/matches/{open_one}/cancel", key=AUDITOR).status == 403  # a player's match: its own
    assert client.get(f"/matches/{open_one}").body["status"] == "open"


def test_a_fork_where_the_game_was_over_is_refused(audit):
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id, AUDITOR)
    last_step = max(line["version"] for line in lines if line["event"] in STEPS)
    for version in (last_step, lines[-1]["version"]):
        answer = client.post(f"/matches/{match_id}/forks", {"version": version}, key=keys[0])
        assert answer.status == 422 and "nothing is left to play" in answer.body["detail"], answer.text
    assert client.get(f"/matches/{match_id}").body["lineage"]["forks"] == []
    # Before the last move (after it only the final scoring is left: refused too, test_audit_import_guards).
    last_move = max(line["version"] for line in lines if line["event"] == "MoveMade")
    assert client.post(f"/matches/{match_id}/forks", {"version": last_move - 1}, key=keys[0]).status == 201


def test_an_import_that_ends_on_a_snapshot_version_is_saved_once(audit):
    container, client = audit
    creator, joiner = client.register("creator")[1], client.register("joiner")[1]
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=creator).body["id"]
    version = client.get(f"/matches/{match_id}").body["version"]
    for step in range(snapshots.INTERVAL - 1 - version):  # join and leave up to the version before it
        path = "seats" if step % 2 == 0 else "leave"
        body = {} if path == "seats" else None
        assert client.post(f"/matches/{match_id}/{path}", body, key=joiner).status < 300
    assert client.post(f"/matches/{match_id}/cancel", key=creator).status < 300
    lines = export(client, match_id, AUDITOR)
    assert lines[-1]["event"] == "Cancelled" and lines[-1]["version"] == snapshots.INTERVAL

    copies = set()
    for _ in range(2):  # each import answers 201 and saves one copy: a retry is never a 500
        status, view = post_history(client, lines)
        assert status == 201 and view["status"] == "cancelled", view
        assert view["version"] == snapshots.INTERVAL
        container.tasks.drain()
        assert client.get(f"/matches/{view['id']}").body["version"] == snapshots.INTERVAL
        copies.add(view["id"])
    assert len(copies) == 2
    assert listed(client, "jest", "cancelled") == 1  # the match: a copy is read by its id, never listed


def test_malformed_created_data_is_refused_at_its_line(audit):
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id, AUDITOR)
    for field, value in (("bots", {"7": "x"}), ("bots", {"1": "no-such-level"}), ("bots", {"01": "random"}),
                         ("bots", {"\u0661": "random"}), ("bots", ["random"]), ("parent", "x"), ("parent", [1])):
        forged = json.loads(json.dumps(lines))
        forged[0]["data"][field] = value
        status, problem = post_history(client, forged)
        assert status == 422 and problem["line"] == 1, (field, value, problem)
    seated = next(line for line in lines if line["event"] == "SeatTaken")
    for field, value in (("name", "ann\u0000"), ("name", "bell\u0007"), ("name", ""), ("name", "x" * 41)):
        forged = json.loads(json.dumps(lines))
        forged[seated["version"] - 1]["data"][field] = value
        status, problem = post_history(client, forged)
        assert status == 422 and problem["line"] == seated["version"], (field, value, problem)
    forged = json.loads(json.dumps(lines))
    forged[0]["data"]["created_by"] = 5
    assert post_history(client, forged)[0] == 422
    container.tasks.drain()
    assert listed(client, "jest", "finished") == 1  # the match alone: nothing was imported


def test_a_rematch_of_a_fork_is_a_fresh_deal_rated_as_the_match_the_fork_began_from(audit):
    """A ratings probe: the rematch copied the fork's "rated": false (a fork replays another match's
    position), so it and every later rematch stayed unrated for ever, though each is a fresh deal. It is
    rated as the match the forks began from was: rated there, rated here; created unrated, unrated."""
    container, client = audit
    for rated in (True, False):
        keys = [client.register(f"r{i}")[1] for i in range(3)]
        body = {"game": "jest", "seats": 3, "reveal_at_end": True, "rated": rated}
        match_id = client.post("/matches", body, key=keys[0]).body["id"]
        for key in keys:
            assert client.post(f"/matches/{match_id}/seats", {}, key=key).status == 201
        assert client.post(f"/matches/{match_id}/start", key=keys[0]).status == 200
        play_randomly(client, match_id, keys, random.Random(5), settle=container.tasks.drain)
        fork_id = client.post(f"/matches/{match_id}/forks", {"version": 12}, key=keys[0]).body["id"]
        for key in keys:
            assert client.post(f"/matches/{fork_id}/seats", {}, key=key).status == 201
        assert client.post(f"/matches/{fork_id}/start", key=keys[0]).status == 200
        play_randomly(client, fork_id, keys, random.Random(6), settle=container.tasks.drain)
        assert client.get(f"/matches/{fork_id}").body["rated"] is False  # the fork itself: a replay
        again = client.post(f"/matches/{fork_id}/rematch", key=keys[0])
        assert again.status == 201, again.text
        assert client.get(f"/matches/{again.body['id']}").body["rated"] is rated


def test_a_fork_of_a_history_that_proves_no_chance_is_not_verified(audit, tmp_path, capsys):
    """A versions probe: a fork of an imported copy of a match recorded before provable chance (no
    commitment) said verified, committed here, though the deal it copied could never be proven; so did
    ``motley verify`` given that parent. Its copied outcomes hold only as far as its parent proves them."""
    from tests.conftest import ROOT

    container, client = audit
    recorded = (ROOT / "tests" / "fixtures" / "histories" / "jest" / "1.2.0" / "3p-3000.jsonl").read_text()
    imported = client.http.post("/matches/import", data=recorded, headers={
        "Content-Type": "application/x-ndjson", "Authorization": f"Bearer {AUDITOR}"})
    assert imported.status_code == 201, imported.get_data(as_text=True)
    parent_id = imported.json["id"]
    said = client.get(f"/matches/{parent_id}/verify", key=AUDITOR).body
    assert said["verified"] is False and "no chance commitment" in said["reason"]
    lines = export(client, parent_id, AUDITOR)
    drawn = [line["version"] for line in lines if line["event"] == "ChanceDrawn"]
    fork = client.post(f"/matches/{parent_id}/forks", {"version": drawn[0] + 1}, key=AUDITOR).body
    fork_id = fork["id"]
    keys = [client.register(f"f{i}")[1] for i in range(3)]
    for key in keys:  # the auditor's fork is private: its seats are taken with its invitation code
        assert client.post(f"/matches/{fork_id}/seats", {"invitation_code": fork["invitation_code"]},
                           key=key).status == 201
    assert client.post(f"/matches/{fork_id}/start", key=keys[0]).status == 200
    play_randomly(client, fork_id, keys, random.Random(5), settle=container.tasks.drain)
    verdict = client.get(f"/matches/{fork_id}/verify", key=AUDITOR).body
    assert verdict["verified"] is False and verdict["inherited_from_parent"] >= 1, verdict
    assert "copied from its parent are not proven there: this match made no chance commitment" in verdict["reason"]
    assert verdict["committed_here"] is False  # its parent's outcomes came with an imported file
    # Offline too, given that parent.
    parent_file, fork_file = tmp_path / "parent.jsonl", tmp_path / "fork.jsonl"
    parent_file.write_text("".join(json.dumps(line) + "\n" for line in lines))
    fork_file.write_text("".join(json.dumps(line) + "\n" for line in export(client, fork_id, AUDITOR)))
    assert verify_file(str(fork_file), [str(parent_file)]) == 1
    assert "not proven there" in json.loads(capsys.readouterr().out)["reason"]
