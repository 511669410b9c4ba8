"""Issue 13's lifecycle events travel by export, import and verify (issue 11's audit), on both stores: a
match with a seat left before the start, a turn limit whose clock runs out for one seat (which the
computer then plays until its player comes back, POST /return) and a resignation is exported by the
auditor, imported (every line replayed and checked) and verified; a tampered lifecycle line is refused
with its number."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import timedelta

import pytest

from api import cli, create_app
from application.service import utcnow
from infrastructure.composition import build
from tests.platform.client import ApiClient, play_randomly
from tests.platform.test_audit import AUDITOR, export, post_history


class Clock:
    """The service's injectable clock, moved on by hand: a turn runs out without sleeping."""

    def __init__(self) -> None:
        self.ahead = timedelta(0)

    def __call__(self):
        return utcnow() + self.ahead


@pytest.fixture
def audit(settings, rng):
    clock = Clock()
    container = build(dataclasses.replace(settings, auditor_key=AUDITOR), clock=clock, rng=rng)
    yield container, ApiClient(create_app(container)), clock
    container.close()


def lifecycle_match(container, client, clock) -> str:
    ann, bob, cy, dan = (client.register(name)[1] for name in ("ann", "bob", "cy", "dan"))
    body = {"game": "jest", "seats": 3, "turn_limit": {"seconds": 3600, "on_timeout": "computer"}}
    match_id = client.post("/matches", body, key=ann).body["id"]
    path = f"/matches/{match_id}"
    for key in (ann, bob, dan):
        assert client.post(f"{path}/seats", {}, key=key).status == 201
    assert client.post(f"{path}/leave", key=dan).status == 200  # SeatLeft before the start
    assert client.post(f"{path}/seats", {}, key=cy).body["seat"] == 2
    assert client.post(f"{path}/start", key=ann).status == 200
    for seat, key in ((0, ann), (1, bob)):  # Cy never offers: its turn runs out
        hand = client.get(path, key=key).body["observation"]["hand"]
        move = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}}
        assert client.post(f"{path}/moves", move, key=key).status == 201
    phase = client.get(path).body["turn_clock"]["phase"]
    clock.ahead = timedelta(hours=2)
    assert container.app.close_timed_phase(match_id, phase)  # SeatsTimedOut [2]
    container.tasks.drain()
    assert client.get(path).body["absent"] == [2]
    assert client.post(f"{path}/return", key=cy).body["absent"] == []  # SeatReturned: Cy plays its seat again
    assert client.post(f"{path}/resign", key=bob).status == 200
    final = play_randomly(client, match_id, [ann, None, cy], random.Random(5), settle=container.tasks.drain)
    container.tasks.drain()
    assert final["status"] == "finished" and final["result"]["resigned"] == [1]
    return match_id


def test_verify_says_whether_the_history_it_checked_holds_the_matchs_end(audit, tmp_path, capsys):
    """``motley verify`` of an auditor's export cut short (``head -n 12``, or its Finished line dropped)
    answered "verified": true with nothing to show it was not the whole match."""
    container, client, clock = audit
    match_id = lifecycle_match(container, client, clock)
    lines = export(client, match_id, AUDITOR)
    whole = client.get(f"/matches/{match_id}/verify").body
    assert whole["verified"] is True and whole["ended"] is True and whole["last_version"] == len(lines)
    for kept in (lines[:12], [line for line in lines if line["event"] != "Finished"]):
        cut = tmp_path / "cut.jsonl"
        cut.write_text("".join(json.dumps(line) + "\n" for line in kept))
        capsys.readouterr()
        cli.verify_file(str(cut))
        verdict = json.loads(capsys.readouterr().out)
        assert verdict["ended"] is False and verdict["last_version"] == kept[-1]["version"], verdict


def test_a_whole_life_travels_by_export_import_and_verify(audit, tmp_path, capsys):
    container, client, clock = audit
    match_id = lifecycle_match(container, client, clock)
    lines = export(client, match_id, AUDITOR)
    kinds = {line["event"] for line in lines}
    assert {"TurnLimitSet", "SeatLeft", "TurnClockStarted", "SeatsTimedOut", "SeatReturned", "Resigned",
            "Finished"} <= kinds
    assert client.get(f"/matches/{match_id}/verify").body["verified"] is True

    status, view = post_history(client, lines)
    assert status == 201, view
    assert view["status"] == "finished" and view["version"] == len(lines) and view["resigned"] == [1]
    imported = view["id"]
    assert [line["event"] for line in export(client, imported, AUDITOR)] == [line["event"] for line in lines]
    verdict = client.get(f"/matches/{imported}/verify").body
    assert verdict["verified"] is True and verdict["chance_outcomes_checked"] >= 1
    exported = tmp_path / "match.jsonl"
    exported.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert cli.verify_file(str(exported)) == 0
    redacted = json.loads(json.dumps(lines))  # as a seat's export of a match not revealed shows a shuffle
    shuffle = next(line for line in redacted if line["event"] == "ChanceDrawn")
    shuffle["data"].update(outcome=None, hidden=True)
    hidden = tmp_path / "redacted.jsonl"
    hidden.write_text("".join(json.dumps(line) + "\n" for line in redacted))
    capsys.readouterr()
    assert cli.verify_file(str(hidden)) == 1 and "redacted" in json.loads(capsys.readouterr().out)["reason"]

    def tampered(version, change):
        copy = json.loads(json.dumps(lines))
        change(copy[version - 1]["data"])
        return copy

    def version_of(kind):
        return next(line["version"] for line in lines if line["event"] == kind)

    cases = [
        (tampered(version_of("SeatsTimedOut"), lambda d: d.update(seats=[0])), version_of("SeatsTimedOut")),
        (tampered(version_of("Resigned"), lambda d: d.update(seat=7)), version_of("Resigned")),
        (tampered(version_of("TurnClockStarted"), lambda d: d.update(seats=[0])), version_of("TurnClockStarted")),
        (tampered(version_of("TurnLimitSet"), lambda d: d.update(on_timeout="never")), version_of("TurnLimitSet")),
    ]
    for history, line_number in cases:
        status, problem = post_history(client, history)
        assert status == 422 and problem["line"] == line_number, problem
        assert f"line {line_number}" in problem["detail"]
        exported.write_text("".join(json.dumps(line) + "\n" for line in history))
        assert cli.verify_file(str(exported)) == 1

    # Times edited by hand, each refused where it contradicts what came before it (the import took them:
    # a turn limit of a week, or deadlines moved to 2099, made a seat that ran out in time look late).
    def everywhere(kind, change):
        copy = json.loads(json.dumps(lines))
        for line in copy:
            if line["event"] == kind:
                change(line["data"])
        return copy

    moves = [line["version"] for line in lines if line["event"] == "MoveMade"]
    for history, said in (
            (tampered(version_of("TurnLimitSet"), lambda d: d.update(seconds=7 * 86400)), "turn clock's start"),
            (everywhere("TurnClockStarted", lambda d: d.update(deadline="2099-01-01T00:00:00+00:00")),
             "before its turn clock's start"),
            (tampered(moves[1], lambda d: d.update(moved_at="2020-01-01T00:00:00+00:00")), "before the previous"),
            (tampered(moves[-1], lambda d: d.update(moved_at="2026-01-01T00:00:00")), "UTC offset")):
        status, problem = post_history(client, history)
        assert status == 422 and said in problem["detail"], (said, problem)


def test_an_unlisted_invited_claimed_match_travels_by_import(audit):
    container, client, clock = audit
    (ann_id, ann), (bob_id, bob), (cy_id, cy) = (client.register(name) for name in ("ann", "bob", "cy"))
    body = {"game": "jest", "seats": 3, "unlisted": True, "require_version": True,
            "turn_limit": {"seconds": 3600, "on_timeout": "claim"}}
    made = client.post("/matches", body, key=ann).body
    path = f"/matches/{made['id']}"
    assert client.post(f"{path}/invitations", {"player_id": cy_id}, key=ann).status in (200, 201)
    for key, join in ((ann, {}), (bob, {"invitation_code": made["invitation_code"]}), (cy, {})):
        assert client.post(f"{path}/seats", join, key=key).status == 201
    client.post(f"{path}/start", key=ann)
    for key in (ann, bob):  # Cy never offers
        view = client.get(path, key=key).body
        hand = view["observation"]["hand"]
        move = {"action": {"type": "offer", "up": hand[0], "down": hand[1]}, "expected_version": view["version"]}
        assert client.post(f"{path}/moves", move, key=key).status == 201
    clock.ahead = timedelta(hours=2)
    assert container.app.close_timed_phase(made["id"], client.get(path).body["turn_clock"]["phase"])
    claimed = client.post(f"{path}/claim", key=bob).body
    assert claimed["status"] == "finished" and claimed["result"]["ranks"] == [1, 1, 3]
    lines = export(client, made["id"], AUDITOR)
    assert {"Unlisted", "Invited", "VersionsRequired", "SeatsTimedOut", "Claimed"} <= {line["event"] for line in lines}

    status, view = post_history(client, lines)
    assert status == 201, view
    assert view["unlisted"] and view["versions_required"] and view["result"] == claimed["result"]
    assert client.get(f"/matches/{view['id']}/verify").body["verified"] is True
    claim = next(line["version"] for line in lines if line["event"] == "Claimed")
    for history, line_number in (
        ([*lines[:claim - 1], {**lines[claim - 1], "data": {"seat": 2}}, *lines[claim:]], claim),  # the absent one
        ([*lines[:claim], {**lines[claim], "data": {**lines[claim]["data"], "result": {"ranks": [1, 1, 1]}}}],
         claim + 1),  # a claim's result ranks the absent seat last
    ):
        status, problem = post_history(client, history)
        assert status == 422 and problem["line"] == line_number, problem


def test_an_import_refuses_a_claim_against_a_seat_whose_turn_clock_had_not_run_out(audit):
    """An auditor's probe: the clock of a seat that then timed out, its deadline moved on to 2099 (or an
    hour from now), was imported, and the copy ranked last a seat whose time had not run out. A history
    ending at the claim has no later move whose time contradicts it; a clock runs out only once its
    deadline has come, which the import now checks against its own clock."""
    container, client, clock = audit
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    body = {"game": "jest", "seats": 3, "turn_limit": {"seconds": 3600, "on_timeout": "claim"}}
    path = f"/matches/{client.post('/matches', body, key=keys[0]).body['id']}"
    for key in keys:
        assert client.post(f"{path}/seats", {}, key=key).status == 201
    client.post(f"{path}/start", key=keys[0])
    for key in keys:  # every offer in: the first taker's turn clock starts after the last move
        hand = client.get(path, key=key).body["observation"]["hand"]
        assert client.post(f"{path}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                           key=key).status == 201
    view = client.get(path).body
    (late,) = view["turn_clock"]["seats"]
    clock.ahead = timedelta(hours=2)
    assert container.app.close_timed_phase(view["id"], view["turn_clock"]["phase"])
    claimer = keys[(late + 1) % 3]
    assert client.post(f"{path}/claim", key=claimer).body["status"] == "finished"
    lines = export(client, view["id"], AUDITOR)
    assert post_history(client, lines)[0] == 201  # as it was
    timed_out = next(line["version"] for line in lines if line["event"] == "SeatsTimedOut")
    phase = lines[timed_out - 1]["data"]["phase"]
    for deadline in ("2099-01-01T00:00:00+00:00", (clock() + timedelta(hours=1)).isoformat()):
        moved_on = json.loads(json.dumps(lines))
        for line in moved_on:
            if line["event"] == "TurnClockStarted" and line["data"]["phase"] == phase:
                line["data"]["deadline"] = deadline
        status, problem = post_history(client, moved_on)
        assert status == 422 and problem["line"] == timed_out and "has not come yet" in problem["detail"], problem


def test_an_imported_copy_is_a_record_neither_listed_nor_rematched_and_its_lines_are_checked(audit):
    """An imported copy appeared in the match list and in its players' recent matches (it counts in
    nobody's statistics); its rematch link, copied from the original, answered a rematch of the copy with
    the original's; and the import took what the API refuses: a rematch link that is no match id, a
    blank or reordering name, a reveal_at_end that is a string."""
    container, client, _ = audit
    (ann_id, ann), (_, bob), (_, cy) = (client.register(name) for name in ("ann", "bob", "cy"))
    match_id = client.new_match("jest", 3, [ann, bob, cy])
    for key in (bob, cy):
        assert client.post(f"/matches/{match_id}/resign", key=key).status == 200
    assert client.post(f"/matches/{match_id}/rematch", key=ann).status == 201
    lines = export(client, match_id, AUDITOR)
    assert lines[-1]["event"] == "RematchLinked"
    status, view = post_history(client, lines)
    assert status == 201, view
    # Its view links no rematch: it named the original's, which links back only to the original (a
    # probe's page offered "Rematch: join" on the copy, seating its player at the original's rematch).
    original = client.get(f"/matches/{match_id}").body
    assert original["rematch"]["next"] is not None and view["rematch"] == {"of": None, "next": None}
    assert client.get(f"/matches/{view['id']}").body["rematch"] == {"of": None, "next": None}
    container.tasks.drain()
    position = container.app.log_position()
    listed = client.get("/matches", query={"status": "finished", "after": position}).body["items"]
    assert [row["id"] for row in listed] == [match_id]
    recent = client.get(f"/players/{ann_id}", query={"after": position}).body["recent_matches"]
    assert view["id"] not in [row["id"] for row in recent] and match_id in [row["id"] for row in recent]
    refused = client.post(f"/matches/{view['id']}/rematch", key=ann)
    assert refused.status == 409 and "imported" in refused.body["detail"], refused.text

    def changed(event, change):
        copy = json.loads(json.dumps(lines))
        line = next(line for line in copy if line["event"] == event)
        change(line["data"])
        return copy, line["version"]

    for history, line_number in (
        changed("RematchLinked", lambda d: d.update(match_id="not a uuid at all")),
        changed("SeatTaken", lambda d: d.update(name="   ")),
        changed("SeatTaken", lambda d: d.update(name="\u202eevil")),
        changed("SeatTaken", lambda d: d.update(name="ann\u200b")),  # looks like "ann": POST /players refuses it
        changed("SeatTaken", lambda d: d.update(player_id=" ")),
        changed("Created", lambda d: d.update(created_by="not-a-uuid")),
        changed("Created", lambda d: d.update(reveal_at_end="no")),
    ):
        status, problem = post_history(client, history)
        assert status == 422 and problem["line"] == line_number, problem
