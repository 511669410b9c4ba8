"""The edges of a match's life that a client trips on (issue 13's lifecycle, probed as users would):
a match to be claimed that nobody present is left to claim, what a claim's result says, a rematch's
kept seats, the second player asking for the rematch, bodies sent where none is read, the answers
to a start or a cancel too late, invitations that change nothing, and the player's own stream."""

from __future__ import annotations

from datetime import timedelta

import pytest

from api import create_app
from application.errors import Conflict
from application.inbox import feed
from domain.tournament import standings as tournament_standings
from tests.platform.client import ApiClient
from tests.platform.test_match_story import seat_players


def timed_jest(app, players, computers=None, on_timeout="claim"):
    """A Jest match of three seats (``computers``: seat -> level), 30 s a turn, started by its first
    player; when a turn runs out the match is to be claimed, or played by the computer."""
    match_id = app.create_match_once(players[0], "jest", 3, {}, computers or {}, True, True, None,
                                     turn_limit={"seconds": 30, "on_timeout": on_timeout}).match.id
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    return match_id


def run_out(app, clock, match_id):
    clock.now += timedelta(seconds=31)
    app.close_timed_phase(match_id, app.get_match(match_id).turn_clock["phase"])
    return app.get_match(match_id)


def at_the_taxes(app, turn_limit: dict):
    """Tumult Royale for two new players under ``turn_limit``, played by first legal actions to the live
    tax collection, where both may peek; the match id, the two players and ``kinds`` (a seat's legal
    actions by type, none when it is not to act)."""
    ann, bob = seat_players(app, 2)
    match_id = app.create_match_once(ann, "tumult-royale", 2, {"tax_seconds": 600, "ready_seconds": 600}, {},
                                     True, True, None, turn_limit=turn_limit).match.id
    for player in (ann, bob):
        app.join_match(match_id, player)
    app.start_match(match_id, ann)
    people = (ann, bob)

    def kinds(seat):
        match = app.get_match(match_id)
        if seat not in match.to_act().seats:
            return {}
        return {action["type"]: action for action in match.engine.legal_actions(match.state, seat)}

    for _ in range(200):
        if "peek" in kinds(0) and "peek" in kinds(1):
            break
        match = app.get_match(match_id)
        if match.to_act().kind == "auto":
            app.resolve_automatic_step(match_id)
        for seat in match.to_act().seats:
            legal = kinds(seat)
            if legal:
                app.submit_move(match_id, people[seat], next(iter(legal.values())))
    return match_id, people, kinds


def test_a_match_to_claim_with_nobody_present_left_ends_the_absent_seats_last(clocked):
    container, clock = clocked
    app = container.app
    # Every seat offers at once (Jest R3): nobody offers, so all three are absent together.
    trio = timed_jest(app, seat_players(app, 3))
    match = run_out(app, clock, trio)
    assert match.status == "finished", "nobody present is left to claim it: it would wait for ever"
    assert match.absent == (0, 1, 2) and match.result["absent"] == [0, 1, 2] and match.result["resigned"] == []
    # All absent, nobody won: tied at the bottom (they all ranked 1st, each counted a win).
    assert match.result["ranks"] == [3, 3, 3] and match.result["winners"] == []
    assert [type(e).__name__ for e in app.events.get(match.id)][-2:] == ["Abandoned", "Finished"]
    assert match.seed_revealed
    # Not rated: as a draw it raised every player's rating; and nobody moved in it, so it counts in no
    # statistics either (a match no person moved in farmed wins a request, docs/tournaments.md).
    container.league.run()
    client = ApiClient(create_app(container))
    profile = client.get(f"/players/{match.players[0]}").body
    assert match.people_moves == 0 and profile["statistics"] == []
    assert profile["ratings"] == []
    # And its view and its row in the list say so: they said rated while the league left it out.
    assert client.get(f"/matches/{match.id}").body["rated"] is False
    container.projection.run()
    row = client.get("/matches", query={"player": match.players[0], "status": "finished"}).body["items"][0]
    assert row["id"] == str(match.id) and row["terms"]["rated"] is False
    # One person and two computers: the person's time runs out, the computers (present) rank first.
    alone = seat_players(app, 1)
    with_computers = timed_jest(app, alone, {1: "random", 2: "random"})
    match = run_out(app, clock, with_computers)
    assert match.status == "finished" and match.result["ranks"] == [3, 1, 1] and match.result["winners"] == [1, 2]
    assert match.result["absent"] == [0]


def test_a_match_every_person_resigned_to_the_computers_is_not_rated(clocked):
    """Two people and two computers at Jest; both people resign: the computers win, and the people,
    tied last, were rated as a draw between them (both leaderboard scores rose for a game neither
    played). Nobody played it out: not rated, as a match abandoned by all."""
    container, _ = clocked
    app = container.app
    ann, bob = seat_players(app, 2)
    match_id = app.create_match_once(ann, "jest", 4, {}, {2: "random", 3: "random"}, True, True, None).match.id
    for player in (ann, bob):
        app.join_match(match_id, player)
    app.start_match(match_id, ann)
    assert app.get_match(match_id).counts_for_ratings  # rated while people play it
    for player in (ann, bob):
        app.resign_match(match_id, player)
    match = app.get_match(match_id)
    assert match.status == "finished" and match.result["winners"] == [2, 3] and match.result["resigned"] == [0, 1]
    assert not match.counts_for_ratings
    container.league.run()
    client = ApiClient(create_app(container))
    assert client.get(f"/matches/{match_id}").body["rated"] is False
    assert client.get(f"/players/{ann.id}").body["ratings"] == []


def test_a_match_left_to_the_computer_by_every_person_is_not_rated(clocked):
    """Two accounts take two seats of a Jest match with a turn limit ("computer") and never move: the
    computer plays both when their time runs out, and the match was rated (the result lists nobody
    absent in that mode), a rated win farmed without a move. Absent at the end counts as gone."""
    container, clock = clocked
    app = container.app
    ann, bob = seat_players(app, 2)
    match_id = timed_jest(app, (ann, bob), {2: "random"}, on_timeout="computer")
    for _ in range(500):
        match = app.get_match(match_id)
        if match.status == "finished":
            break
        turn = match.to_act()
        if turn.kind != "players":
            app.resolve_automatic_step(match_id)
        elif any(match.stands_in(seat) for seat in turn.seats):
            app.play_computer_move(match_id, next(seat for seat in turn.seats if match.stands_in(seat)))
        else:
            clock.now = match.turn_clock["deadline"] + timedelta(seconds=1)
            app.close_timed_phase(match_id, match.turn_clock["phase"])
    match = app.get_match(match_id)
    assert match.status == "finished" and match.absent == (0, 1) and match.moves > 0
    assert not match.counts_for_ratings
    container.league.run()
    client = ApiClient(create_app(container))
    assert client.get(f"/matches/{match_id}").body["rated"] is False
    assert client.get(f"/players/{ann.id}").body["ratings"] == []
    # The match list says who was away when it ended: its "won by" named a winner the computer played for.
    container.projection.run()
    rows = client.get("/matches", query={"status": "finished"}).body["items"]
    assert [row["absent"] for row in rows if row["id"] == str(match_id)] == [[0, 1]]


def test_a_match_resigned_before_any_move_is_not_rated(clocked):
    """A second account that resigns at once hands the first a win: eight such matches in a few seconds
    put a player at the top of the leaderboard. A match that ended before any move was played is not
    rated; one resigned after play is."""
    container, _ = clocked
    app = container.app
    ann, bob = seat_players(app, 2)

    def two_seats():
        match_id = app.create_match_once(ann, "fools-crown", 2, {}, {}, True, True, None).match.id
        for player in (ann, bob):
            app.join_match(match_id, player)
        app.start_match(match_id, ann)
        return match_id

    farmed = two_seats()
    app.resign_match(farmed, bob)
    match = app.get_match(farmed)
    assert match.status == "finished" and match.moves == 0 and match.result["winners"] == [0]
    assert not match.counts_for_ratings
    played = two_seats()
    for _ in range(50):  # play until a move of each has been made, then resign
        match = app.get_match(played)
        turn = match.to_act()
        if len(match.people_moved) == 2:
            break
        if turn.kind != "players":
            app.resolve_automatic_step(played)
            continue
        seat = turn.seats[-1] if match.people_moved == (0,) else turn.seats[0]  # each of them, at least once
        app.submit_move(played, (ann, bob)[seat], match.engine.legal_actions(match.state, seat)[0])
    app.resign_match(played, bob)
    assert app.get_match(played).counts_for_ratings
    container.league.run()
    client = ApiClient(create_app(container))
    assert client.get(f"/matches/{farmed}").body["rated"] is False
    assert [r["played"] for r in client.get(f"/players/{ann.id}").body["ratings"]] == [1]  # the played one only


def test_a_match_only_the_computer_moved_in_is_not_rated(clocked):
    """Three seats of Jest, where every seat offers at once: two accounts resign, the computer standing in
    makes a resigned seat's offer, and the match ended rated with one move, a place-1 rating for the
    third account, though no person had moved. The moves that count are the people's."""
    container, _ = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = app.create_match_once(ann, "jest", 3, {}, {}, True, True, None).match.id
    for player in (ann, bob, cy):
        app.join_match(match_id, player)
    app.start_match(match_id, ann)
    app.resign_match(match_id, bob)
    app.play_computer_move(match_id, 1)  # the computer stands in for bob: his offer
    app.resign_match(match_id, cy)
    match = app.get_match(match_id)
    assert match.status == "finished" and match.result["winners"] == [0], match.result
    assert match.moves >= 1 and not match.counts_for_ratings
    assert match.people_moves == 0


def test_a_claim_lists_the_absent_seats_as_absent_not_resigned(clocked):
    container, clock = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = timed_jest(app, [ann, bob, cy])
    for player in (ann, bob):  # cy does not offer
        match = app.get_match(match_id)
        seat = match.seat_of(str(player.id))
        app.submit_move(match_id, player, match.engine.legal_actions(match.state, seat)[0])
    assert run_out(app, clock, match_id).absent == (2,)
    app.claim_match(match_id, ann)
    result = app.get_match(match_id).result
    assert result["ranks"] == [1, 1, 3] and result["absent"] == [2] and result["resigned"] == []


def finished_pair(client):
    """A finished Jest match of Ann, Bob and Cy (Bob and Cy resigned: Ann won), and Dan, who was not
    there."""
    ann, bob, cy, dan = (client.register(name)[1] for name in ("ann", "bob", "cy", "dan"))
    match_id = client.new_match("jest", 3, [ann, bob, cy])
    client.post(f"/matches/{match_id}/resign", key=bob)
    client.post(f"/matches/{match_id}/resign", key=cy)
    assert client.get(f"/matches/{match_id}").body["status"] == "finished"
    return match_id, ann, bob, cy, dan


@pytest.fixture
def client(clocked):
    return ApiClient(create_app(clocked[0]))


def test_a_rematch_seats_its_second_asker_and_a_kept_seat_left_is_free(client):
    old, ann, bob, cy, dan = finished_pair(client)
    first = client.post(f"/matches/{old}/rematch", key=ann)
    assert first.status == 201 and first.body["your_seat"] == 0
    rematch = first.body["id"]
    second = client.post(f"/matches/{old}/rematch", key=bob)
    assert second.status == 200, "the rematch was made by Ann's call, not this one"
    assert second.body["id"] == rematch and second.body["your_seat"] == 1  # the seat kept for Bob
    # Dan may not take Cy's kept seat; the refusal says why, and names no fork.
    refused = client.post(f"/matches/{rematch}/seats", {}, key=dan)
    assert refused.status == 409 and "kept for a player of the earlier match" in refused.body["detail"]
    refused = client.post(f"/matches/{rematch}/seats", {"seat": 2}, key=dan)
    assert refused.status == 409 and "fork" not in refused.body["detail"]
    # Cy joins, then leaves: the seat is free for anyone, else the rematch could never start.
    assert client.post(f"/matches/{rematch}/seats", {}, key=cy).status == 201
    assert client.post(f"/matches/{rematch}/leave", key=cy).status == 200
    taken = client.post(f"/matches/{rematch}/seats", {}, key=dan)
    assert taken.status == 201 and taken.body["seat"] == 2
    assert client.post(f"/matches/{rematch}/start", key=ann).body["status"] == "active"


def test_a_body_where_none_is_read_is_refused_and_changes_nothing(client):
    ann, bob = client.register("ann")[1], client.register("bob")[1]
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    assert client.post(f"/matches/{match_id}/seats", {}, key=bob).status == 201
    version = client.get(f"/matches/{match_id}").body["version"]
    for verb in ("leave", "cancel", "start", "resign", "return", "claim", "rematch"):
        for body in ({"really": False}, [1]):
            refused = client.post(f"/matches/{match_id}/{verb}", body, key=bob if verb == "leave" else ann)
            assert refused.status == 422, (verb, body, refused.status)
            assert refused.headers["Content-Type"] == "application/problem+json"
    assert client.get(f"/matches/{match_id}").body["version"] == version
    assert client.post(f"/matches/{match_id}/leave", {}, key=bob).status == 200  # {} is no field at all
    assert client.post("/players/me/keys", {"for": "someone"}, key=ann).status == 422


def test_a_start_or_a_cancel_too_late_says_why_and_a_cancelled_match_waits_for_nothing(client):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.new_match("jest", 3, keys)
    started = client.post(f"/matches/{match_id}/start", key=keys[0])
    assert started.status == 409 and started.body["detail"] == "the match has already started"
    cancelled = client.post(f"/matches/{match_id}/cancel", key=keys[0])
    assert cancelled.status == 409 and "resigns" in cancelled.body["detail"]
    open_id = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body["id"]
    assert client.get(f"/matches/{open_id}").body["to_act"]["kind"] == "waiting"  # for its seats
    gone = client.post(f"/matches/{open_id}/cancel", key=keys[0]).body
    assert gone["to_act"] == {"kind": "over", "seats": []} and gone["created_by"] is not None
    verify = client.get(f"/matches/{open_id}/verify")
    assert verify.status == 409 and "cancelled" in verify.body["detail"]
    assert "verify it then" not in verify.body["detail"]


def test_an_invitation_that_changes_nothing_adds_no_event(client):
    ann, bob = client.register("ann")[1], client.register("bob")
    match_id = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann).body["id"]
    assert client.post(f"/matches/{match_id}/seats", {}, key=ann).status == 201
    version = client.get(f"/matches/{match_id}").body["version"]
    ann_id = client.get("/players/me", key=ann).body["id"]
    for invitee in (ann_id, ann_id.upper()):  # the creator, seated
        assert client.post(f"/matches/{match_id}/invitations", {"player_id": invitee}, key=ann).status == 200
    assert client.get(f"/matches/{match_id}").body["version"] == version
    assert client.post(f"/matches/{match_id}/invitations", {"player_id": bob[0]}, key=ann).status == 200
    assert client.post(f"/matches/{match_id}/invitations", {"player_id": bob[0]}, key=ann).status == 200
    assert client.get(f"/matches/{match_id}").body["version"] == version + 1  # one Invited, once


def test_the_players_stream_tells_of_a_cancelled_match_and_a_seat_kept_at_a_rematch(clocked, client):
    app = clocked[0].app
    old, ann, bob, cy, dan = finished_pair(client)
    bob_id = client.get("/players/me", key=bob).body["id"]
    start = app.log_position()
    open_id = client.post("/matches", {"game": "jest", "seats": 3}, key=dan).body["id"]
    client.post(f"/matches/{open_id}/seats", {}, key=bob)
    client.post(f"/matches/{open_id}/cancel", key=dan)
    rematch = client.post(f"/matches/{old}/rematch", key=ann).body["id"]
    items = [entry[1] for entry in feed(app, bob_id, start, 0.5, 0.01) if entry is not None]
    assert [(i["type"], i["match_id"]) for i in items] == [("cancelled", open_id), ("invitation", rematch)]
    assert items[1]["match"]["status"] == "open"


def test_the_players_stream_shows_each_match_as_of_the_items_position(clocked, client, monkeypatch):
    """The feed read each match as it is now but stamped its items with the position of the batch it
    read: a match that started after the feed read its join gave a ``your-turn`` with the join's id,
    before ``started``, and a client resuming from that id got ``started`` and the turn again. One
    notification a batch stands for a feed that reads each event as it lands, the match racing ahead."""
    import application.inbox as inbox

    monkeypatch.setattr(inbox, "BATCH", 1)
    app = clocked[0].app
    ann, bob, cy = (client.register(name)[1] for name in ("ann", "bob", "cy"))
    ann_id = client.get("/players/me", key=ann).body["id"]
    before = app.log_position()
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    for key in (ann, bob, cy):
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=ann)
    entries = [entry for entry in feed(app, ann_id, before, 0.5, 0.01) if entry is not None]
    assert [item["type"] for _, item in entries] == ["seats-filled", "started", "your-turn"]
    full, started, turn = (item["version"] for _, item in entries)
    assert full < started <= turn == app.read_match(match_id).version
    # Resumed from the position of the last item, nothing is sent again.
    assert [entry for entry in feed(app, ann_id, entries[-1][0], 0.3, 0.01) if entry is not None] == []
    # A match that does not concern the player costs no read of an earlier version: each one did, and a
    # stream resumed over a busy log of others' matches caught up twenty times slower.
    dan = client.register("dan")[1]
    others = client.post("/matches", {"game": "jest", "seats": 3}, key=dan).body["id"]
    for key in (dan, bob, cy):
        client.post(f"/matches/{others}/seats", {}, key=key)
    client.post(f"/matches/{others}/start", key=dan)
    read_at, reads = app.read_match_at, []
    monkeypatch.setattr(app, "read_match_at", lambda *args: reads.append(args) or read_at(*args))
    assert [entry for entry in feed(app, ann_id, entries[-1][0], 0.3, 0.01) if entry is not None] == []
    assert reads == []


def test_a_stale_if_match_refuses_every_write_on_a_match_not_only_moves(client):
    """RFC 9110 §13.1.1: a server evaluates If-Match before it performs the method. Only moves compared
    it: a seat taken, left, a start or a resignation with a stale If-Match was saved."""
    ann, bob, cy = (client.register(name)[1] for name in ("ann", "bob", "cy"))
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    seen = client.get(f"/matches/{match_id}").headers["ETag"]

    def events() -> int:
        return len(client.get(f"/matches/{match_id}/events", key=ann).body["items"])

    assert client.post(f"/matches/{match_id}/seats", {}, key=ann, headers={"If-Match": seen}).status == 201
    writes = [("seats", bob, {}), ("leave", ann, None), ("cancel", ann, None)]
    for write, key, body in writes:
        before = events()
        refused = client.post(f"/matches/{match_id}/{write}", body, key=key, headers={"If-Match": seen})
        assert refused.status == 412 and refused.body["type"].endswith("precondition-failed"), (write, refused.body)
        assert refused.body["current_version"] == client.get(f"/matches/{match_id}").body["version"]
        assert events() == before, write
    # RFC 9110 §13.2.1: a precondition is ignored where the answer without it would be no success. A
    # stranger with a stale If-Match was told 412 where it may not act at all (403); a start with seats
    # still empty is the 409 it would be anyway.
    stale = {"If-Match": seen}
    for write, key, status in (("leave", cy, 403), ("cancel", bob, 403), ("start", cy, 403), ("start", ann, 409)):
        for header in (stale, {"If-Match": f"W/{seen}"}):  # a weak tag never matches, but is no 403 either
            before = events()
            answer = client.post(f"/matches/{match_id}/{write}", key=key, headers=header)
            assert answer.status == status, (write, header)
            assert events() == before, write
    for key in (bob, cy):
        assert client.post(f"/matches/{match_id}/seats", {}, key=key, headers={"If-Match": "*"}).status == 201
    current = client.get(f"/matches/{match_id}").headers["ETag"]
    assert client.post(f"/matches/{match_id}/start", key=ann, headers={"If-Match": current}).status == 200
    assert client.post(f"/matches/{match_id}/resign", key=cy, headers={"If-Match": current}).status == 412
    assert client.post(f"/matches/{match_id}/resign", key=cy, headers={"If-Match": 'W/"1"'}).status == 412
    assert client.get(f"/matches/{match_id}").body["status"] == "active"
    operation = client.get("/openapi.json").body["paths"]["/matches/{match_id}/leave"]["post"]
    assert "412" in operation["responses"]
    assert any(p["name"] == "If-Match" for p in operation["parameters"])
    # A rematch reads no If-Match: its finished match gains only the rematch's link, and the second
    # player asking with the ETag of the result (or a retry of the first) is given the same rematch.
    old, ann, bob, _, _ = finished_pair(client)
    seen = client.get(f"/matches/{old}").headers["ETag"]
    first = client.post(f"/matches/{old}/rematch", key=ann, headers={"If-Match": seen})
    second = client.post(f"/matches/{old}/rematch", key=bob, headers={"If-Match": seen})
    assert (first.status, second.status) == (201, 200) and first.body["id"] == second.body["id"]


def test_verify_of_a_match_never_revealed_says_so(client):
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = client.post("/matches", {"game": "jest", "seats": 3, "reveal_at_end": False}, key=keys[0]).body["id"]
    for key in keys:
        client.post(f"/matches/{match_id}/seats", {}, key=key)
    client.post(f"/matches/{match_id}/start", key=keys[0])
    for key in keys[1:]:
        client.post(f"/matches/{match_id}/resign", key=key)
    assert client.get(f"/matches/{match_id}").body["status"] == "finished"
    refused = client.get(f"/matches/{match_id}/verify")
    assert refused.status == 409 and "never revealed" in refused.body["detail"]


def test_a_seat_that_resigned_stays_last_when_the_others_are_absent_too(clocked):
    container, clock = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = timed_jest(app, [ann, bob, cy])
    app.resign_match(match_id, ann)  # the computer plays her seat on
    match = run_out(app, clock, match_id)  # bob and cy never offer: nobody present is left
    assert match.status == "finished" and match.absent == (1, 2)
    # Nobody played on, so nobody won; the seat that resigned is below the absent ones.
    assert match.result["ranks"] == [3, 2, 2] and match.result["winners"] == []
    assert match.result["resigned"] == [0] and match.result["absent"] == [1, 2]


def test_a_match_abandoned_by_all_recorded_before_nobody_won_it_still_imports():
    """An export of a match abandoned by every player, recorded when its absent seats tied 1st, is the
    same history: the importer takes that earlier form of its result."""
    from application.history import abandoned_earlier_form
    from domain.match import resignation_result

    everyone = resignation_result(None, 3, [], [0, 1, 2])
    assert abandoned_earlier_form(everyone) == {**everyone, "ranks": [1, 1, 1], "winners": [0, 1, 2]}
    resigned_first = resignation_result(None, 3, [0], [1, 2])
    assert abandoned_earlier_form(resigned_first) == {**resigned_first, "ranks": [3, 1, 1], "winners": [1, 2]}
    assert abandoned_earlier_form(resignation_result(None, 3, [], [2])) is None  # two played on: as it was


def test_a_seat_idle_while_another_plays_on_in_a_simultaneous_phase_is_timed_out(clocked):
    """Tumult Royale's live tax collection is simultaneous: one player peeking on and on gave the idle
    one a fresh turn limit with every peek, and the idle one was never absent (nobody could claim, no
    computer took over). The mover is not late; the seat that did nothing is, at the clock's deadline."""
    container, clock = clocked
    app = container.app
    ann, bob = seat_players(app, 2)
    match_id, match = tax_collection(app, ann, bob)
    started = match.turn_clock
    assert started["seats"] == [0, 1]
    for _ in range(4):  # ann peeks and returns a tile every second; bob does nothing
        clock.now += timedelta(seconds=1)
        app.submit_move(match_id, ann, {"type": "peek", "tile": 0})
        app.submit_move(match_id, ann, {"type": "return"})
    match = app.get_match(match_id)
    assert match.turn_clock["deadline"] == started["deadline"], "a move of one seat gave the other more time"
    assert app.close_timed_phase(match_id, match.turn_clock["phase"])
    match = app.get_match(match_id)
    assert match.absent == (1,), "bob did nothing for the whole limit"
    assert match.turn_clock["seats"] == [0] and match.turn_clock["deadline"] > clock.now  # ann: her next turn
    # Both play on: at the deadline nobody is late, and their next turn gets the whole limit.
    cy, dan = seat_players(app, 2)
    match_id, match = tax_collection(app, cy, dan)
    for _ in range(4):
        clock.now += timedelta(seconds=1)
        for player, tile in ((cy, 0), (dan, 1)):
            app.submit_move(match_id, player, {"type": "peek", "tile": tile})
            app.submit_move(match_id, player, {"type": "return"})
    assert app.close_timed_phase(match_id, app.get_match(match_id).turn_clock["phase"])
    match = app.get_match(match_id)
    assert match.absent == () and match.turn_clock["seats"] == [0, 1]
    assert match.turn_clock["deadline"] == clock.now + timedelta(seconds=3)


def tax_collection(app, first, second):
    """A Tumult Royale match of ``first`` and ``second`` (3 s a turn, to be claimed) at its first live
    tax collection: (its id, the match)."""
    match_id = app.create_match_once(first, "tumult-royale", 2, {"tax_seconds": 60, "ready_seconds": 600}, {},
                                     True, True, None, turn_limit={"seconds": 3, "on_timeout": "claim"}).match.id
    for player in (first, second):
        app.join_match(match_id, player)
    app.start_match(match_id, first)
    players = {str(first.id): first, str(second.id): second}
    match = app.get_match(match_id)
    while match.state["phase"] != "tax":  # the first statues, then the ready step
        seat = match.to_act().seats[0]
        app.submit_move(match_id, players[match.players[seat]], match.engine.legal_actions(match.state, seat)[0])
        match = app.get_match(match_id)
    return match_id, match


def test_the_players_stream_beats_while_the_log_is_busy_with_other_players_matches():
    """``/players/me/stream`` (application/inbox.py ``feed``): the heartbeat's clock was reset by every
    match the log touched, the player's or not, and the beat skipped while the log moved, so a bot
    waiting on a busy server got no byte for a minute. A log that never stops moving with others'
    matches (and registrations), on a clock that moves 1 s a reading: a beat within the heartbeat's
    seconds and a few more."""
    from types import SimpleNamespace

    from application.following import HEARTBEAT_SECONDS
    from application.inbox import MATCH_TOPIC

    other = SimpleNamespace(seat_of=lambda player: None, invited=(), reserved={}, status="active")
    issued = [0]

    def busy(start, limit, inclusive_of_start):
        topics = (MATCH_TOPIC + "MoveMade", "domain.player:Player.Registered")
        batch = [SimpleNamespace(id=start + 1 + i, topic=topics[i % 2], originator_id=f"m{i % 3}",
                                 originator_version=1) for i in range(3)]
        issued[0] += 1
        return batch

    app = SimpleNamespace(recorder=SimpleNamespace(select_notifications=busy),
                          read_match=lambda match_id, at_least=None: other, log_position=lambda: 0)
    now = [0.0]

    def clock():
        now[0] += 1.0
        return now[0]

    beats = []
    for entry in feed(app, "idle", 0, 120.0, 0.05, monotonic=clock, sleep=lambda seconds: None):
        assert entry is None  # nothing concerns this player
        beats.append(now[0])
        if len(beats) == 3:
            break
    assert len(beats) == 3 and beats[0] <= HEARTBEAT_SECONDS + 5, beats
    assert all(later - earlier <= HEARTBEAT_SECONDS + 5 for earlier, later in zip(beats, beats[1:])), beats


def test_the_players_stream_says_when_its_turn_ran_out(clocked):
    """A turn limit that hands a late seat to the computer: the player's stream just stopped sending
    your-turns, and a bot that used it alone never learnt it should come back. An ``absent`` item now
    says so, once an absence; back and late again, once more."""
    container, clock = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = timed_jest(app, (ann, bob, cy), on_timeout="computer")
    start = app.log_position()
    for player in (ann, bob):  # cy does not offer
        match = app.get_match(match_id)
        app.submit_move(match_id, player, match.engine.legal_actions(match.state, match.seat_of(str(player.id)))[0])
    assert run_out(app, clock, match_id).absent == (2,)
    items = [entry[1] for entry in feed(app, str(cy.id), start, 0.5, 0.01) if entry is not None]
    absent = [i for i in items if i["type"] == "absent"]
    assert [(i["match_id"], i["match"]["absent"]) for i in absent] == [(str(match_id), [2])], items
    assert not [i for i in feed(app, str(ann.id), start, 0.5, 0.01) if i is not None and i[1]["type"] == "absent"]


def test_the_present_players_are_told_they_may_claim_when_another_seats_time_runs_out(clocked):
    """A match to be claimed, one seat late: the present seats are not to act, so their stream said
    nothing and their view offered nothing; a bot that used the stream alone (README: "no polling")
    waited for ever. A ``claimable`` item tells each present seat, and its view says ``can_claim``."""
    container, clock = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = timed_jest(app, [ann, bob, cy])
    start = app.log_position()
    for player in (ann, bob):  # cy does not offer
        match = app.get_match(match_id)
        app.submit_move(match_id, player, match.engine.legal_actions(match.state, match.seat_of(str(player.id)))[0])
    assert run_out(app, clock, match_id).absent == (2,)
    for present in (ann, bob):
        items = [entry[1] for entry in feed(app, str(present.id), start, 0.5, 0.01) if entry is not None]
        claimable = [i for i in items if i["type"] == "claimable"]
        assert [(i["match_id"], i["match"]["can_claim"]) for i in claimable] == [(str(match_id), True)], items
    items = [entry[1] for entry in feed(app, str(cy.id), start, 0.5, 0.01) if entry is not None]
    assert [i["type"] for i in items if i["type"] in ("claimable", "absent")] == ["absent"]
    client = ApiClient(create_app(container))
    _, spectator = client.register("sam")  # nobody's seat: nothing to claim
    assert client.get(f"/matches/{match_id}", key=spectator).body["can_claim"] is False
    app.claim_match(match_id, bob)
    assert app.get_match(match_id).status == "finished"


def test_a_turn_clock_renewed_for_a_seat_that_moved_under_it_travels_by_import(clocked):
    """Tumult Royale's live taxes: both players peek and keep, one is done, the other's clock is written
    again for it alone (the same clock), then runs out. That player moved under the clock, so it is not
    late: the service starts it a new clock. The import forgot its move at the clock's second line and
    refused the genuine history ("the seats still to act keep the running turn clock")."""
    from application.history import History
    from application.views import Viewer

    container, clock = clocked
    app = container.app
    match_id, people, kinds = at_the_taxes(app, {"seconds": 2, "on_timeout": "computer"})
    ann, bob = people
    for seat, kind in ((0, "peek"), (0, "keep"), (1, "peek"), (1, "keep"), (0, "done")):
        app.submit_move(match_id, people[seat], kinds(seat)[kind])
    match = app.get_match(match_id)
    assert match.turn_clock["seats"] == [1]
    clock.now = match.turn_clock["deadline"] + timedelta(seconds=1)
    assert app.close_timed_phase(match_id, match.turn_clock["phase"])
    renewed = app.get_match(match_id)
    assert renewed.absent == () and renewed.turn_clock["phase"] != match.turn_clock["phase"]  # a new clock
    app.resign_match(match_id, ann)  # the last seat standing wins: it ends
    assert app.get_match(match_id).status == "finished"
    history = History(app)
    text = "".join(history.export(match_id, Viewer.the_auditor()))
    copy = history.import_history(text)
    assert copy.status == "finished" and copy.result == app.get_match(match_id).result


def test_a_new_stream_connection_tells_a_restarted_bot_of_its_absence_and_of_a_claim_it_may_make(clocked):
    """A new connection sent a your-turn for each match waiting for the player, and nothing else: a bot
    started again after its time ran out (the computer playing its seat) waited for a your-turn never
    sent, and one whose opponent's time ran out never learnt it might claim (a bot developer's probe)."""
    container, clock = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)

    def late_cy(on_timeout: str):
        match_id = timed_jest(app, (ann, bob, cy), on_timeout=on_timeout)
        for player in (ann, bob):  # cy does not offer
            match = app.get_match(match_id)
            app.submit_move(match_id, player,
                            match.engine.legal_actions(match.state, match.seat_of(str(player.id)))[0])
        assert run_out(app, clock, match_id).absent == (2,)
        return str(match_id)

    def first_items(player, match_id) -> list:
        entries = feed(app, str(player.id), None, 0.0, 0.01, waiting=lambda position: [match_id])
        return [entry[1]["type"] for entry in entries if entry is not None and entry[1]]

    computer = late_cy("computer")  # the computer plays cy's seat: no your-turn comes until it returns
    assert first_items(cy, computer) == ["absent"] and first_items(ann, computer) == []
    claim = late_cy("claim")  # the match waits for cy's move or a claim
    assert first_items(cy, claim) == ["absent", "your-turn"]  # as the live stream tells it (it said your-turn)
    assert first_items(ann, claim) == first_items(bob, claim) == ["claimable"]
    app.claim_match(claim, bob)
    assert first_items(ann, claim) == []  # over: nothing to act on
    # Absent, then resigned: the computer's seat for good. It was told absent, and its return was taken.
    app.resign_match(computer, cy)
    assert first_items(cy, computer) == []
    with pytest.raises(Conflict, match="resigned"):
        app.come_back(computer, cy)


def test_a_new_stream_connection_tells_a_player_to_act_that_it_may_claim_too(clocked):
    """Tumult Royale's taxes: Ann peeks (still to act), Bob's time runs out. A new connection of Ann's
    sent her your-turn and not that she may claim, and no later timeout would tell her (a review)."""
    container, clock = clocked
    app = container.app
    match_id, (ann, bob), kinds = at_the_taxes(app, {"seconds": 30, "on_timeout": "claim"})
    app.submit_move(match_id, ann, kinds(0)["peek"])
    match = app.get_match(match_id)
    clock.now = match.turn_clock["deadline"] + timedelta(seconds=1)
    assert app.close_timed_phase(match_id, match.turn_clock["phase"])
    match = app.get_match(match_id)
    assert match.absent == (1,) and 0 in match.to_act().seats and match.may_claim(0)
    entries = feed(app, str(ann.id), None, 0.0, 0.01, waiting=lambda position: [str(match_id)])
    assert [entry[1]["type"] for entry in entries if entry is not None and entry[1]] == ["claimable", "your-turn"]


def play_out(app, clock, match_id, people, no_shows):
    """Plays the match to its end: the ``people`` (seat -> player) move their first legal action, the
    computer plays the seats of ``no_shows``, whose players never move (their first turn runs out)."""
    while (match := app.get_match(match_id)).status == "active":
        turn = match.to_act()
        late = [s for s in turn.seats if s in no_shows and s not in match.absent]
        if late:
            match = run_out(app, clock, match_id)
            continue
        if turn.kind != "players":
            app.resolve_automatic_step(match_id)
            continue
        seat = turn.seats[0]
        if seat in no_shows:
            assert app.play_computer_move(match_id, seat)
        else:
            app.submit_move(match_id, people[seat], match.engine.legal_actions(match.state, seat)[0])
    return match


@pytest.mark.parametrize("people_who_play", [2, 1])
def test_a_seat_the_computer_played_from_its_first_turn_ranks_last_in_the_league(clocked, people_who_play):
    """Cy never moves under ``on_timeout: computer``: the computer plays his seat from his first turn on.
    It was credited with the computer's play: an account that never moved topped a tournament's
    leaderboard with the computer's three wins (a probe). It now ranks last in the ratings and statistics,
    as if it had resigned at its first turn: left out instead, a player could dodge a loss by never
    moving. The match's own result still tells what the computer did."""
    container, clock = clocked
    app = container.app
    players = seat_players(app, 3)
    match_id = timed_jest(app, players, on_timeout="computer")
    no_shows = set(range(people_who_play, 3))
    match = play_out(app, clock, match_id, dict(enumerate(players)), no_shows)
    assert match.status == "finished" and set(match.absent) == no_shows and not match.result.get("absent")
    assert match.no_shows() == sorted(no_shows) and match.counts_for_ratings
    league = match.league_ranks()
    assert all(league[seat] == people_who_play + 1 for seat in no_shows)
    # Had the computer won for Cy, he would still rank last: the rule, on this match's own seats.
    match.result = {**match.result, "ranks": [3, 2, 1]}
    assert match.league_ranks() == ([2, 1, 3] if people_who_play == 2 else [1, 2, 2])
    # A seat that resigned ties with the no-shows at the bottom: re-ranked among the seats that played, it
    # rose to a win over the no-shows ranked above it (a review).
    match.result = {**match.result, "ranks": [2, 3, 1], "resigned": [1]}
    assert match.league_ranks() == ([1, 2, 2] if people_who_play == 2 else [1, 2, 2])
    match.result = {**match.result, "ranks": [3, 1, 1], "resigned": [0]}
    assert match.league_ranks() == ([2, 1, 2] if people_who_play == 2 else [3, 3, 3])  # nobody played on
    container.league.run()
    client = ApiClient(create_app(container))
    assert client.get(f"/matches/{match_id}").body["rated"] is True
    board = [row["player_id"] for row in client.get("/leaderboards/jest").body["items"]]
    assert set(board[-len(no_shows):]) == {str(players[seat].id) for seat in no_shows}  # at the bottom
    for seat in no_shows:
        stats = client.get(f"/players/{players[seat].id}").body["statistics"]
        assert [(s["played"], s["wins"], s["average_place"]) for s in stats] == [(1, 0, people_who_play + 1)]


def test_a_present_player_who_never_had_a_turn_is_no_no_show(clocked):
    """Bob and Cy resign before anyone moved: Ann never made a move and won, present. A seat that never
    moved is a no-show only if it was absent to the end; the resigned seats are ranked by the result."""
    container, _ = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = timed_jest(app, (ann, bob, cy), on_timeout="computer")
    app.resign_match(match_id, bob)
    app.resign_match(match_id, cy)
    match = app.get_match(match_id)
    assert match.status == "finished" and match.people_moved == () and match.no_shows() == []
    assert match.league_ranks() == match.result["ranks"]


def test_a_player_who_leaves_before_its_first_move_takes_its_rated_loss(clocked):
    """Ann offers, then Bob and Cy resign before any move of theirs: rated, Ann the winner. Asking for two
    people who moved (against second accounts resigning after their owner's first move) let any player
    leave before its first move, its hand seen, with no rated loss (a review): the loss stands. Bob's
    and Cy's offers made too, it is rated all the same."""
    container, _ = clocked
    app = container.app

    def three_seats(offering, resigning):
        players = seat_players(app, 3)
        match_id = app.create_match_once(players[0], "jest", 3, {}, {}, True, True, None).match.id
        for player in players:
            app.join_match(match_id, player)
        app.start_match(match_id, players[0])
        for seat in offering:  # Jest's offers are made at once: each seat offers its first legal one
            match = app.get_match(match_id)
            app.submit_move(match_id, players[seat], match.engine.legal_actions(match.state, seat)[0])
        for seat in resigning:
            app.resign_match(match_id, players[seat])
        match = app.get_match(match_id)
        assert match.status == "finished" and match.result["winners"] == [0], match.result
        return match

    left = three_seats(offering=[0], resigning=[1, 2])
    assert left.people_moved == (0,) and left.counts_for_ratings and left.result["ranks"] == [1, 2, 2]
    played = three_seats(offering=[0, 1], resigning=[2, 1])
    assert set(played.people_moved) == {0, 1} and played.counts_for_ratings


def test_the_live_stream_tells_a_resigned_seat_no_absence(clocked):
    """Bob's time ran out, then he resigned. When another seat's time ran out later, the live stream sent
    him an ``absent`` (his seat is still among the absent ones), which a bot answers with a return: a 409
    (a review). A resigned seat is the computer's for good: nothing is sent."""
    container, clock = clocked
    app = container.app
    ann, bob, cy = seat_players(app, 3)
    match_id = timed_jest(app, (ann, bob, cy), on_timeout="computer")
    for player in (ann, cy):  # Bob does not offer
        match = app.get_match(match_id)
        app.submit_move(match_id, player, match.engine.legal_actions(match.state, match.seat_of(str(player.id)))[0])
    assert run_out(app, clock, match_id).absent == (1,)
    app.resign_match(match_id, bob)
    start = app.log_position()
    for _ in range(50):  # on until a present seat's time runs out too
        match = app.get_match(match_id)
        if len(match.absent) > 1:
            break
        turn = match.to_act()
        if turn.kind != "players":
            app.resolve_automatic_step(match_id)
        elif turn.seats[0] == 1:
            assert app.play_computer_move(match_id, 1)
        else:
            run_out(app, clock, match_id)
    assert app.get_match(match_id).absent[1:], "another seat's time ran out"
    items = [entry[1]["type"] for entry in feed(app, str(bob.id), start, 0.5, 0.01) if entry is not None and entry[1]]
    assert "absent" not in items, items


def test_a_tournament_table_ranks_a_player_the_computer_played_for_from_his_first_turn_last(clocked):
    """A tournament bot's probe: a bot that never moved, its seat played by the computer from its first
    turn (``on_timeout: computer``), won a tournament on the computer's play. The organiser's forfeit could
    not score it: the computer finished the table long before the round's deadline. The table's result now
    ranks such a seat last, as the ratings do; the match's own result still tells what the computer did."""
    container, clock = clocked
    app = container.app
    org, *players = seat_players(app, 4)
    tournament, _ = container.tournaments.create(org, {
        "game": "jest", "name": "no-show", "rounds": 1, "table_size": 3, "format": "swiss",
        "turn_limit": {"seconds": 30, "on_timeout": "computer"}})
    for player in players:
        container.tournaments.register(tournament, player)
    container.tournaments.start(tournament, org)
    (table,) = container.tournaments.get(tournament).rounds[0]["tables"]
    seated = {seat: next(p for p in players if str(p.id) == player) for seat, player in enumerate(table["players"])}
    match = play_out(app, clock, table["match_id"], seated, {2})
    assert match.status == "finished" and match.no_shows() == [2]
    # Had the computer won for the no-show's seat (the match as read, its result so), he still ranks last.
    match.result = {**match.result, "ranks": [3, 2, 1]}
    container.tournaments.record_result(str(tournament), match)
    (recorded,) = container.tournaments.get(tournament).rounds[0]["tables"]
    assert recorded["result"]["ranks"] == [2, 1, 3]
    standings = {row["player_id"]: row for row in tournament_standings(container.tournaments.get(tournament))}
    assert [standings[player]["rank"] for player in table["players"]] == [2, 1, 3]
    assert standings[table["players"][2]]["points"] == 0


def test_a_seat_that_moved_once_then_left_its_seat_to_the_computer_ranks_last(clocked):
    """A cheater's probe: only a seat that never moved ranked last, so a bot made one move, let its clock
    run out, and the computer won it a tournament's table and a rated win. A seat the computer is playing
    when the match ends ranks last, whether it moved before or not; one whose player came back does not."""
    container, clock = clocked
    app = container.app
    players = seat_players(app, 3)
    match_id = timed_jest(app, players, on_timeout="computer")
    for seat, player in enumerate(players):  # every seat's first offer, Cy's too
        match = app.get_match(match_id)
        app.submit_move(match_id, player, match.engine.legal_actions(match.state, seat)[0])
    match = play_out(app, clock, match_id, dict(enumerate(players)), {2})
    assert match.status == "finished" and 2 in match.people_moved and 2 in match.absent
    assert match.no_shows() == [2]
    match.result = {**match.result, "ranks": [3, 2, 1]}  # had the computer won for Cy
    assert match.league_ranks() == [2, 1, 3]
    # Back before the end, Cy is credited with the result as usual.
    back = timed_jest(app, players, on_timeout="computer")
    for seat, player in enumerate(players):
        match = app.get_match(back)
        app.submit_move(back, player, match.engine.legal_actions(match.state, seat)[0])
    while 2 not in (match := app.get_match(back)).absent:
        turn = match.to_act()
        if 2 in turn.seats:
            run_out(app, clock, back)
        elif turn.kind != "players":
            app.resolve_automatic_step(back)
        else:
            app.submit_move(back, players[turn.seats[0]], match.engine.legal_actions(match.state, turn.seats[0])[0])
    app.come_back(back, players[2])
    match = play_out(app, clock, back, dict(enumerate(players)), set())
    assert match.status == "finished" and match.no_shows() == [] and match.league_ranks() == match.result["ranks"]
