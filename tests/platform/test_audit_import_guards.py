"""The import and the fork probed by an audit tool's author (docs/architecture.md "Audit"): a history found
by its chance commitment whatever id is written on it, a retried import, the players a history names, a
fork with only automatic steps left. Each test failed before its fix."""

from __future__ import annotations

import json
import random
import uuid

from tests.platform.client import play_randomly
from tests.platform.test_audit import (  # noqa: F401
    AUDITOR,
    audit,
    export,
    finished_match,
    history_from_elsewhere,
    post_history,
)


def renamed(lines: list[dict]) -> list[dict]:
    """The history with another match id written on every line, as an audit tool that re-keys does."""
    other = str(uuid.uuid4())
    return [{**line, "match": other} for line in json.loads(json.dumps(lines))]


def ended_by_resignations(client, lines: list[dict], match_id: str) -> list[dict]:
    """A live match's export with its other players' resignations and an end written onto it."""
    seed = client.get(f"/matches/{match_id}", key=AUDITOR).body["chance"]["seed"]  # the auditor sees it
    result = {"scores": [0, 0, 0], "ranks": [1, 2, 2], "winners": [0], "detail": None, "resigned": [1, 2],
              "absent": []}
    ended = json.loads(json.dumps(lines))
    for event, data in (("Resigned", {"seat": 1}), ("Resigned", {"seat": 2}),
                        ("Finished", {"result": result, "seed": seed})):
        ended.append({**ended[-1], "version": ended[-1]["version"] + 1, "event": event, "data": data})
    return ended


def test_a_live_matchs_history_under_a_new_id_is_refused_by_its_commitment(audit):  # noqa: F811 - the fixture
    """An auditor's export of a live match, its end written on and every line's match id changed, was
    imported (201) as a finished copy that showed anyone without a key the live match's seed, and with it
    every hidden card and later deal. Under its own id it was refused; under any id now."""
    container, client = audit
    keys = [client.register(f"live{i}")[1] for i in range(3)]
    match_id = client.new_match("jest", 3, keys)
    ended = ended_by_resignations(client, export(client, match_id, AUDITOR), match_id)
    status, refused = post_history(client, renamed(ended))
    assert status == 422 and refused["line"] == 1, refused
    assert f"match {match_id} (whose chance commitment the history holds) is still being played" in refused["detail"]
    assert client.get(f"/matches/{match_id}").body["chance"]["seed"] is None  # nothing was revealed

    # Once the match has ended here, its real history imports under any id.
    for key in keys[1:]:
        assert client.post(f"/matches/{match_id}/resign", key=key).status == 200
    status, copy = post_history(client, renamed(export(client, match_id, AUDITOR)))
    assert status == 201 and copy["status"] == "finished", copy


def test_a_live_matchs_history_with_its_commitment_cut_out_shows_its_secrets_to_nobody(audit):  # noqa: F811
    """The same history with its commitment and seed cut out (a sizes probe) was found by nothing: it imported
    as a finished copy whose public events showed the live match's hidden shuffles, and a player written
    into another's seat saw that seat's hand. A copy whose chance nothing proves shows them to the auditor
    alone."""
    container, client = audit
    keys = [client.register(f"cut{i}")[1] for i in range(3)]
    match_id = client.new_match("jest", 3, keys)
    ids = [seat["player_id"] for seat in client.get(f"/matches/{match_id}").body["seats"]]
    cut = renamed(ended_by_resignations(client, export(client, match_id, AUDITOR), match_id))
    cut[0]["data"]["chance"] = None
    cut[-1]["data"]["seed"] = None
    for line in cut:  # seat 0's player written into seat 1, and the other way round
        if line["event"] == "SeatTaken" and line["data"].get("player_id") in ids[:2]:
            other = 1 - ids.index(line["data"]["player_id"])
            line["data"].update(player_id=ids[other], name=f"cut{other}")
    status, copy = post_history(client, cut)
    assert status == 201 and copy["status"] == "finished", copy
    assert copy["seats"][0]["player_id"] == ids[1]
    hidden = [event for event in client.get(f"/matches/{copy['id']}/events?limit=500").body["items"]
              if event["type"] == "ChanceDrawn"]
    assert hidden and all(event.get("hidden") for event in hidden), hidden[:1]
    live_hand = client.get(f"/matches/{match_id}", key=keys[0]).body["observation"]
    for key in (None, keys[1]):  # a spectator, and the player set in the live match's seat 0
        view = client.get(f"/matches/{copy['id']}", key=key).body
        assert view["viewer"]["sees_all"] is False and view["viewer"]["sees_own"] is False, view["viewer"]
        assert view["observation"] != live_hand
        assert view["chance"] is None
    assert client.get(f"/matches/{copy['id']}", key=AUDITOR).body["viewer"]["sees_all"] is True
    verdict = client.get(f"/matches/{copy['id']}/verify").body  # proves nothing, says so, shows nothing
    assert verdict["verified"] is False and "no chance commitment" in verdict["reason"], verdict


def test_a_copys_verdict_says_its_commitment_was_not_made_here(audit):  # noqa: F811 - the fixture
    """A copy's file brings its commitment and seed together: an importer could try seeds until the deal
    suited them, and /verify said only "verified": true (a sizes probe)."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    original = client.get(f"/matches/{match_id}/verify").body
    assert original["verified"] is True and original["committed_here"] is True, original
    status, copy = post_history(client, renamed(export(client, match_id, AUDITOR)))
    assert status == 201, copy
    verdict = client.get(f"/matches/{copy['id']}/verify").body
    assert verdict["verified"] is True and verdict["committed_here"] is False, verdict


def test_an_open_matchs_history_under_a_new_id_cannot_end_it(audit):  # noqa: F811 - the fixture
    """An open match has drawn its seed: its deal once started follows from it. A history of it ended
    elsewhere is refused while it is open."""
    container, client = audit
    keys = [client.register(f"open{i}")[1] for i in range(3)]
    body = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body
    lines = export(client, body["id"], AUDITOR)
    called_off = [*lines, {**lines[-1], "version": lines[-1]["version"] + 1, "event": "Cancelled", "data": {}}]
    status, refused = post_history(client, renamed(called_off))
    assert status == 422 and "is still open on this server" in refused["detail"], refused


def test_a_finished_line_replaced_by_a_cancellation_is_refused_saying_why(audit):  # noqa: F811 - the fixture
    """An auditor's probe: a played match's Finished line replaced by Cancelled was refused as "the match is
    active, no longer open for seating", a reason about seats for a history that never named one."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = renamed(export(client, match_id, AUDITOR))
    lines[-1] = {**lines[-1], "event": "Cancelled", "data": {}}
    status, refused = post_history(client, lines)
    assert status == 422 and refused["line"] == len(lines), refused
    assert "a started match is not cancelled, it ends by its Finished line" in refused["detail"], refused


def test_an_unrevealed_matchs_history_under_a_new_id_may_not_reveal_it(audit):  # noqa: F811 - the fixture
    """A match created ``reveal_at_end: false``: its history with the flag turned true was refused under
    its own id, and imported under a new one as a copy that showed a spectator every hand."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3, reveal=False)
    flipped = renamed(export(client, match_id, AUDITOR))
    flipped[0]["data"]["reveal_at_end"] = True
    status, refused = post_history(client, flipped)
    assert status == 422 and "reveal_at_end false" in refused["detail"], refused
    assert match_id in refused["detail"]


def test_a_retried_import_answers_the_first_copy(audit):  # noqa: F811 - the fixture
    """README: an Idempotency-Key makes a retried creation answer the first one, nothing created twice.
    The import read no key: a retry after a lost answer made a second copy nobody could tell apart."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    text = "".join(json.dumps(line) + "\n" for line in export(client, match_id, AUDITOR))
    headers = {"Content-Type": "application/x-ndjson", "Authorization": f"Bearer {AUDITOR}",
               "Idempotency-Key": "import-1"}
    first = client.http.post("/matches/import", data=text, headers=headers)
    again = client.http.post("/matches/import", data=text, headers=headers)
    assert first.status_code == again.status_code == 201, again.get_data(as_text=True)
    assert first.json["id"] == again.json["id"]
    assert "Idempotent-Replayed" not in first.headers and again.headers["Idempotent-Replayed"] == "true"
    # Another history under the same key is a conflict; without a key, each import is a new copy.
    other_id, _ = finished_match(container, client, game="jest", players=3, seed=2)
    other = "".join(json.dumps(line) + "\n" for line in export(client, other_id, AUDITOR))
    clash = client.http.post("/matches/import", data=other, headers=headers)
    assert clash.status_code == 409 and clash.mimetype == "application/problem+json", clash.get_data(as_text=True)
    unkeyed = {key: value for key, value in headers.items() if key != "Idempotency-Key"}
    assert client.http.post("/matches/import", data=text, headers=unkeyed).json["id"] != first.json["id"]
    # Another history of the same length, result, players and commitment, event for event otherwise (one
    # match recorded under two rules versions): it was answered with the first copy (a versions probe).
    from tests.conftest import ROOT

    recorded = ROOT / "tests" / "fixtures" / "histories" / "jester"
    keyed = {**headers, "Idempotency-Key": "import-2"}
    older = client.http.post("/matches/import", data=(recorded / "1.4.0" / "2p-2000.jsonl").read_text(), headers=keyed)
    assert older.status_code == 201 and older.json["rules_version"] == "1.4.0", older.get_data(as_text=True)
    newer = client.http.post("/matches/import", data=(recorded / "1.5.0" / "2p-2000.jsonl").read_text(), headers=keyed)
    assert newer.status_code == 409 and "different history" in newer.json["detail"], newer.get_data(as_text=True)


def test_an_import_checks_the_players_a_history_names(audit, tmp_path):  # noqa: F811 - the fixture
    """architecture.md: the import checks names, ids, flags. A player of this server written under another
    name made a copy no API could have made: it showed the player's id under the name "mallory"."""
    container, client = audit
    real_id, _ = client.register("ada")  # a player of this server, named in a history from elsewhere
    lines = history_from_elsewhere(tmp_path)
    taken = next(i for i, line in enumerate(lines) if line["event"] == "SeatTaken")

    def with_seat(**data) -> list[dict]:
        edited = json.loads(json.dumps(lines))
        edited[taken]["data"].update(data)
        return edited

    status, refused = post_history(client, with_seat(player_id=real_id, name="mallory"))
    assert status == 422 and refused["line"] == taken + 1 and "named 'ada'" in refused["detail"], refused
    # A player this server does not hold (a history from elsewhere) is taken as written.
    assert post_history(client, with_seat(player_id=str(uuid.uuid4()), name="mallory"))[0] == 201
    assert post_history(client, with_seat(player_id=real_id, name="ada"))[0] == 201
    # A player of this server named before today's rules refused its name (its registration is stored as
    # it was) is named so in its history, which restores here: a probe's auditor could not import it in
    # any form. A player this server lacks is still held to the rules.
    older_id, _ = container.app.register_player("ann  bob\ufe0f")
    assert post_history(client, with_seat(player_id=str(older_id), name="ann  bob\ufe0f"))[0] == 201
    status, refused = post_history(client, with_seat(player_id=str(uuid.uuid4()), name="ann  bob"))
    assert status == 422 and "'ann bob'" in refused["detail"], refused


def test_a_history_of_a_match_here_is_that_matchs_line_for_line(audit):  # noqa: F811 - the fixture
    """architecture.md: a history of a match of this server is held to that match. A probe's copies of a
    match of this server, each answered 201 and verified true: its seat numbers swapped (the other player
    credited with the win), an option no step read flipped, a ResultVoided or a RematchLinked the match
    never had appended, a ResolutionDue left out. The engine's checks pass what the engine never reads."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="fools-crown", players=2, seed=11)
    lines = export(client, match_id, AUDITOR)
    seats = [i for i, line in enumerate(lines) if line["event"] == "SeatTaken"]
    # The last: left out before a chance draw, the draw's event number (its chance stream's) moves too.
    due = max(i for i, line in enumerate(lines) if line["event"] == "ResolutionDue")

    def edited(change) -> list[dict]:
        copy = json.loads(json.dumps(lines))
        change(copy)
        return copy

    def swap_seats(copy):
        copy[seats[0]]["data"]["seat"], copy[seats[1]]["data"]["seat"] = 1, 0

    def flip_option(copy):
        copy[0]["data"]["options"]["safety_cap"] = not copy[0]["data"]["options"]["safety_cap"]

    def appended(event, data):
        return lambda copy: copy.append({**copy[-1], "version": len(copy) + 1, "event": event, "data": data})

    def drop_due(copy):
        del copy[due]
        for number, line in enumerate(copy, start=1):
            line["version"] = number

    cases = [(swap_seats, seats[0] + 1, "data.seat"), (flip_option, 1, "data.options"),
             (appended("ResultVoided", {"reason": "forged"}), len(lines) + 1, "not in its history"),
             (appended("RematchLinked", {"match_id": str(uuid.uuid4())}), len(lines) + 1, "not in its history"),
             (drop_due, due + 1, "recorded its event")]
    position = client.get("/matches").headers.get("Motley-Position")
    # A chance draw after the dropped line (a round with no winner refills at once) moves to another event
    # number, so the replay refuses it first, its outcome not the seed's: refused all the same.
    drawn_later = any(line["event"] == "ChanceDrawn" for line in lines[due + 1:])
    for change, line, said in cases:
        for history in (edited(change), renamed(edited(change))):  # found by its id, or by its commitment
            status, refused = post_history(client, history)
            if change is drop_due and drawn_later and "committed seed" in refused.get("detail", ""):
                assert status == 422 and line < refused["line"] < len(lines), refused
                continue
            assert status == 422 and refused["line"] == line and said in refused["detail"], (said, refused)
    assert client.get("/matches").headers.get("Motley-Position") == position  # nothing was saved
    status, copy = post_history(client, lines)
    assert status == 201, copy
    # A copy's export, whose lines were stored at the import and name the copy, is the match's history too.
    assert post_history(client, export(client, copy["id"], AUDITOR))[0] == 201


def test_a_fork_where_only_automatic_steps_are_left_is_refused(audit):  # noqa: F811 - the fixture
    """docs: a fork where the game was over is refused, nothing being left to play. After the last move
    only the final scoring is left: the fork was made (201) and finished by itself with the parent's result."""
    container, client = audit
    match_id, keys = finished_match(container, client, game="jest", players=3)
    lines = export(client, match_id)
    last_move = max(line["version"] for line in lines if line["event"] == "MoveMade")
    assert lines[-1]["event"] == "Finished" and lines[-1]["version"] > last_move + 1
    for version in range(last_move, lines[-1]["version"] + 1):
        refused = client.post(f"/matches/{match_id}/forks", {"version": version}, key=keys[0])
        assert refused.status == 422 and "nothing is left to play" in refused.body["detail"], (version, refused.text)
    assert client.post(f"/matches/{match_id}/forks", {"version": last_move - 1}, key=keys[0]).status == 201


def test_a_private_fork_says_why_its_seed_is_never_revealed(audit):  # noqa: F811 - the fixture
    """The auditor's fork of a live match, played out: its players asking to verify it were told "the match
    was created with reveal_at_end false", which nobody had set."""
    container, client = audit
    keys = [client.register(f"fk{i}")[1] for i in range(3)]
    live = client.new_match("jest", 3, keys)
    client.post(f"/matches/{live}/start", key=keys[0])
    fork = client.post(f"/matches/{live}/forks", {"version": 4}, key=AUDITOR).body
    for key in keys:
        joined = client.post(f"/matches/{fork['id']}/seats", {"invitation_code": fork["invitation_code"]}, key=key)
        assert joined.status == 201, joined.text
    assert client.post(f"/matches/{fork['id']}/start", key=keys[0]).status == 200
    play_randomly(client, fork["id"], keys, random.Random(5), settle=container.tasks.drain)
    refused = client.get(f"/matches/{fork['id']}/verify", key=keys[0])
    assert refused.status == 409 and "private fork" in refused.body["detail"], refused.text
    assert "reveal_at_end false" not in refused.body["detail"]


def test_every_verdict_names_the_last_version_and_whether_the_history_ended(audit):  # noqa: F811 - the fixture
    """README: a verdict names the last event it checked (last_version) and whether the history holds the
    end (ended). A history without a commitment got a verdict without them."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = renamed(export(client, match_id, AUDITOR))
    del lines[0]["data"]["chance"]
    for line in lines:
        line["data"].pop("seed", None)
    status, copy = post_history(client, lines)
    assert status == 201, copy
    verdict = client.get(f"/matches/{copy['id']}/verify").body
    assert verdict["verified"] is False and "no chance commitment" in verdict["reason"], verdict
    assert verdict["last_version"] == len(lines) and verdict["ended"] is True, verdict


def test_an_export_saved_with_a_byte_order_mark_imports(audit):  # noqa: F811 - the fixture
    """An export saved by a Windows editor starts with a UTF-8 byte order mark: refused as "line 1: not a
    JSON object", though CRLF line ends were taken."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    text = "\ufeff" + "".join(json.dumps(line) + "\r\n" for line in export(client, match_id, AUDITOR))
    status, copy = post_history(client, text)
    assert status == 201 and copy["status"] == "finished", copy


def test_a_resigned_seat_reads_that_it_sees_as_a_spectator_does(audit):  # noqa: F811 - the fixture
    """A player who resigned a match still played watches it as a spectator does (README), but its view said
    "kind": "seat" and nothing else: a client had to compare the resigned seats itself (a cheater probe)."""
    container, client = audit
    keys = [client.register(f"rs{i}")[1] for i in range(3)]
    match_id = client.new_match("jest", 3, keys)
    client.post(f"/matches/{match_id}/start", key=keys[0])
    assert client.get(f"/matches/{match_id}", key=keys[1]).body["viewer"]["sees_own"] is True
    assert client.post(f"/matches/{match_id}/resign", key=keys[1]).status == 200
    viewer = client.get(f"/matches/{match_id}", key=keys[1]).body["viewer"]
    assert viewer == {"kind": "seat", "seat": 1, "sees_all": False, "sees_own": False}, viewer
    assert client.get(f"/matches/{match_id}").body["viewer"]["sees_own"] is False  # a spectator
    assert client.get(f"/matches/{match_id}", key=AUDITOR).body["viewer"]["sees_own"] is False  # no seat


def test_a_line_that_names_a_key_twice_is_refused(audit):  # noqa: F811 - the fixture
    """A fuzzing probe: a line naming "data" twice was imported with the second, where a request body that
    names a key twice is a 400. Which one an audit tool reads is its parser's choice: the import refuses."""
    container, client = audit
    match_id, _ = finished_match(container, client, game="jest", players=3)
    lines = renamed(export(client, match_id, AUDITOR))
    rows = [json.dumps(line) for line in lines]
    rows[2] = rows[2][:-1] + ', "data": ' + json.dumps(lines[2]["data"]) + "}"
    status, refused = post_history(client, "\n".join(rows) + "\n")
    assert status == 422 and refused["line"] == 3, refused
    assert 'names "data" twice' in refused["detail"], refused
