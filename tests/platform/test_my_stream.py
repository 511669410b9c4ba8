"""The caller's matches and its one stream across all of them (issue 13), through the HTTP API on both
stores: the matches waiting for its move, and a bot that plays three matches at once from its stream
alone (no reads of the matches), the stream resumable with Last-Event-ID."""

from __future__ import annotations

import json
import random

import pytest

from api import create_app
from tests.platform.client import ApiClient, entered_tournament


@pytest.fixture
def client(motley):
    return ApiClient(create_app(motley))


def sse(client, key, last_event_id=None, seconds=60.0, path="/players/me/stream"):
    """The stream's events as (id, event, data), read as they come (id None: an item that shares its
    log position with the next one); the player's stream, or another at ``path``."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    response = client.http.get(path, query_string={"seconds": seconds, "poll": 0.05},
                               headers=headers, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in text:
            frame, text = text.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in frame.splitlines() if not line.startswith(":"))
            if "event" in fields:  # (an id alone is where a new connection starts: see the test below)
                yield (int(fields["id"]) if "id" in fields else None), fields["event"], json.loads(fields["data"])
    response.close()


def test_a_bot_plays_three_matches_at_once_from_its_stream_alone(client, motley, seed):
    _, bot = client.register("bot")
    start = motley.app.log_position()
    matches = []
    for _ in range(3):
        made = client.post("/matches", {"game": "jest", "seats": 3, "computers": {"1": "random", "2": "random"}},
                           key=bot).body
        client.post(f"/matches/{made['id']}/seats", {}, key=bot)
        client.post(f"/matches/{made['id']}/start", key=bot)
        matches.append(made["id"])
    rng = random.Random(seed)
    started, finished, moved = set(), set(), {m: 0 for m in matches}
    positions = []
    for position, kind, data in sse(client, bot, last_event_id=start, seconds=240):
        if position is not None:
            positions.append(position)
        if kind == "started":
            started.add(data["match_id"])
        elif kind == "your-turn":
            view = data["match"]
            assert view["your_seat"] == 0 and view["legal_actions"] and data["version"] == view["version"]
            move = {"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]}
            answer = client.post(f"/matches/{data['match_id']}/moves", move, key=bot)
            assert answer.status in (201, 409), answer.text  # 409: a computer moved first; a new turn follows
            moved[data["match_id"]] += answer.status == 201
        elif kind == "finished":
            finished.add(data["match_id"])
            assert data["match"]["status"] == "finished" and data["match"]["result"]["ranks"]
            if finished == set(matches):
                break
    assert started == finished == set(matches) and all(moved.values()), (started, finished, moved)
    assert positions == sorted(positions)
    for match_id in matches:
        assert client.get(f"/matches/{match_id}").body["status"] == "finished"


def test_the_matches_waiting_for_me_and_a_stream_resumed_where_it_stopped(client, motley):
    names = ("ann", "bob", "cy")
    keys = [client.register(name)[1] for name in names]
    before = motley.app.log_position()
    first = client.new_match("jest", 3, keys)
    second = client.new_match("jest", 3, keys)
    seen = list(sse(client, keys[0], last_event_id=before, seconds=1.0))
    kinds = [(kind, data["match_id"]) for _, kind, data in seen]
    assert kinds == [("started", first), ("your-turn", first), ("started", second), ("your-turn", second)]
    # A start's `started` and `your-turn` are one log position: only the last of the two carries it, so a
    # client that broke off between them resumes from the position before and misses neither.
    assert seen[0][0] is None and seen[2][0] is None and before < seen[1][0] < seen[3][0]
    resumed = list(sse(client, keys[0], last_event_id=seen[1][0], seconds=1.0))
    assert [(kind, data["match_id"]) for _, kind, data in resumed] == kinds[2:]

    hand = client.get(f"/matches/{first}", key=keys[0]).body["observation"]["hand"]
    moved = client.post(f"/matches/{first}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                        key=keys[0])
    after = moved.headers["Motley-Position"]
    mine = client.get("/players/me/matches", key=keys[0], query={"to_move": "true", "after": after}).body
    assert [m["id"] for m in mine["items"]] == [second]
    everything = client.get("/players/me/matches", key=keys[0], query={"after": after}).body
    assert sorted(m["id"] for m in everything["items"]) == sorted([first, second])
    theirs = client.get("/players/me/matches", key=keys[1], query={"to_move": "true", "after": after}).body
    assert sorted(m["id"] for m in theirs["items"]) == sorted([first, second])
    assert client.get("/players/me/matches", query={"to_move": "true"}).status == 401
    fresh = list(sse(client, keys[0], seconds=0.5))  # a new connection: what waits for me now
    assert [(kind, data["match_id"]) for _, kind, data in fresh] == [("your-turn", second)]


def test_a_stream_opened_right_after_a_start_says_whose_turn_it_is(client, motley):
    """A new connection first sends a your-turn for each match already waiting: one started just before
    it opened too, though the match list it reads them from may not have caught up yet."""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    for _ in range(3):
        match_id = client.new_match("jest", 3, keys)
        fresh = list(sse(client, keys[0], seconds=0.3))
        assert ("your-turn", match_id) in [(kind, data["match_id"]) for _, kind, data in fresh]


def test_my_matches_counts_and_pages_them_all(client, motley, monkeypatch):
    """``total`` counts every active match, however many pages of the read model they take (here 2 rows
    a page), and ``limit``/``offset`` page through them; ``to_move`` filters all of them."""
    monkeypatch.setattr("api.me.ACTIVE_PAGE", 2)
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    matches = [client.new_match("jest", 3, keys) for _ in range(5)]
    hand = client.get(f"/matches/{matches[0]}", key=keys[0]).body["observation"]["hand"]
    moved = client.post(f"/matches/{matches[0]}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                        key=keys[0])
    after = moved.headers["Motley-Position"]
    every = client.get("/players/me/matches", key=keys[0], query={"after": after}).body
    assert every["total"] == 5 and sorted(m["id"] for m in every["items"]) == sorted(matches)
    pages = [client.get("/players/me/matches", key=keys[0], query={"limit": 2, "offset": offset}).body
             for offset in (0, 2, 4)]
    assert [len(page["items"]) for page in pages] == [2, 2, 1] and {page["total"] for page in pages} == {5}
    assert sorted(m["id"] for page in pages for m in page["items"]) == sorted(matches)
    waiting = client.get("/players/me/matches", key=keys[0], query={"to_move": "true", "after": after}).body
    assert waiting["total"] == 4 and sorted(m["id"] for m in waiting["items"]) == sorted(matches[1:])
    for wrong in ({"limit": 0}, {"limit": 201}, {"offset": -1}, {"limit": "x"}):
        assert client.get("/players/me/matches", key=keys[0], query=wrong).status == 422, wrong


def test_a_last_event_id_past_the_log_is_refused_before_the_stream_starts(client, motley):
    """No stream sent an id past the log's end: the stream took one and waited for the log to pass it,
    skipping every item in between (a your-turn included). A 422 at once, as for the match streams."""
    _, key = client.register("ann")
    beyond = motley.app.log_position() + 50
    answer = client.http.get("/players/me/stream", query_string={"seconds": 1},
                             headers={"Authorization": f"Bearer {key}", "Last-Event-ID": str(beyond)})
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert "Last-Event-ID" in answer.get_json()["detail"]
    current = client.http.get("/players/me/stream", query_string={"seconds": 0.2},
                              headers={"Authorization": f"Bearer {key}",
                                       "Last-Event-ID": str(motley.app.log_position())})
    assert current.status_code == 200
    current.close()


def test_my_matches_leave_none_out_when_one_is_played_while_they_are_read(client, motley, monkeypatch):
    """The pages were read by offset in the order of activity: a match moved between two page reads
    jumped to the page already read and was left out of the list and of ``total``."""
    monkeypatch.setattr("api.me.ACTIVE_PAGE", 2)
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    matches = [client.new_match("jest", 3, keys) for _ in range(5)]
    motley.tasks.drain()
    query, pages = motley.match_list.query, []

    def query_then_play(**kwargs):
        page = query(**kwargs)
        pages.append(page)
        if len(pages) == 1:  # after the first page: the oldest match is played, and listed as the newest
            hand = client.get(f"/matches/{matches[0]}", key=keys[1]).body["observation"]["hand"]
            client.post(f"/matches/{matches[0]}/moves", {"action": {"type": "offer", "up": hand[0], "down": hand[1]}},
                        key=keys[1])
            motley.tasks.drain()
        return page

    monkeypatch.setattr(motley.match_list, "query", query_then_play)
    every = client.get("/players/me/matches", key=keys[0]).body
    assert len(pages) >= 3 and every["total"] == 5 and sorted(m["id"] for m in every["items"]) == sorted(matches)


def test_a_new_stream_with_nothing_waiting_sends_its_position_to_resume_from(client, motley):
    """A stream sent no id until its first item: a client cut off before one had nothing to send as
    Last-Event-ID, and what came meanwhile (a start, a cancellation) was lost; a bot waiting for
    ``cancelled`` waited for ever. A new connection with nothing waiting sends its position alone."""
    ann, bob = (client.register(name)[1] for name in ("ann", "bob"))
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=ann).body["id"]
    client.post(f"/matches/{match_id}/seats", {}, key=bob)
    opened = client.http.get("/players/me/stream", query_string={"seconds": 0.3, "poll": 0.05},
                             headers={"Authorization": f"Bearer {bob}"})
    frames = [frame for frame in opened.get_data(as_text=True).split("\n\n") if frame.startswith("id: ")]
    assert len(frames) == 1 and "event:" not in frames[0], frames  # the position alone, no event
    position = int(frames[0].removeprefix("id: "))
    client.post(f"/matches/{match_id}/cancel", key=ann)  # while bob's stream is away
    resumed = list(sse(client, bob, last_event_id=position, seconds=0.5))
    assert [(kind, data["match_id"]) for _, kind, data in resumed] == [("cancelled", match_id)]


def tournament_items(client, key, since):
    """The tournament items of ``key``'s stream from log position ``since``, as (type, data)."""
    return [(kind, data) for _, kind, data in sse(client, key, last_event_id=since, seconds=1.0)
            if "tournament_id" in data]


def test_a_tournament_tells_its_players_of_a_bye_a_withdrawal_a_disqualification_and_its_end(client, motley):
    """A bot in a tournament learns from its stream alone what is not one of its matches: it sits a round
    out (a bye, and what it scores), it was withdrawn or disqualified (and why), the tournament ended
    (its final standing). Before, nothing on the stream told it, and it had to poll the tournament."""
    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy"), game="fools-crown", name="told", rounds=2,
                                        table_size=2)
    since = motley.app.log_position()
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    first = client.get(f"/tournaments/{tid}").body["rounds"][0]
    (table,), (sitting_out,) = first["tables"], first["byes"]
    leaver, cheat = table["players"]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{leaver}", key=keys[leaver]).status == 200
    motley.tasks.drain()  # his table resigned and recorded: round 2 pairs the two left
    (second,) = client.get(f"/tournaments/{tid}").body["rounds"][1]["tables"]
    assert sorted(second["players"]) == sorted([cheat, sitting_out])
    sanction = client.post(f"/tournaments/{tid}/sanctions",
                           {"kind": "disqualify", "player_id": cheat, "reason": "collusion"}, key=org)
    assert sanction.status == 201, sanction.text
    motley.tasks.drain()
    assert client.get(f"/tournaments/{tid}").body["status"] == "finished"

    told = {pid: tournament_items(client, key, since) for pid, key in keys.items()}
    assert [kind for kind, _ in told[sitting_out]] == ["bye", "tournament-finished"]
    bye, end = (data for _, data in told[sitting_out])
    assert bye["tournament_id"] == tid and bye["round"] == 1 and bye["points"] == 1
    assert bye["tournament"]["rounds"][0]["byes"] == [sitting_out] and len(bye["tournament"]["rounds"]) == 1
    assert end["standing"]["rank"] == 1 and end["tournament"]["status"] == "finished"
    assert [kind for kind, _ in told[leaver]] == ["withdrawn", "tournament-finished"]
    assert told[leaver][0][1]["by"] == leaver
    assert told[leaver][1][1]["standing"]["status"] == "withdrawn"
    assert [kind for kind, _ in told[cheat]] == ["disqualified", "tournament-finished"]
    assert told[cheat][0][1]["reason"] == "collusion"
    assert told[cheat][1][1]["standing"]["rank"] is None  # disqualified: listed last, without a rank
    # Each item carries the tournament as of its event, and its version.
    versions = [data["version"] for pid in keys for _, data in told[pid]]
    assert all(data["tournament"]["id"] == tid for pid in keys for _, data in told[pid]) and min(versions) > 1
    # ... the tournament as GET /tournaments/{id}?version= shows it then.
    for _, data in told[sitting_out] + told[cheat]:
        then = client.get(f"/tournaments/{tid}", query={"version": data["version"]})
        assert then.status == 200 and then.body == data["tournament"] and then.body["version"] == data["version"]
    last = client.get(f"/tournaments/{tid}").body["version"]
    assert client.get(f"/tournaments/{tid}", query={"version": last + 1}).status == 404
    for wrong in ("0", "x", "-1"):
        refused = client.get(f"/tournaments/{tid}", query={"version": wrong})
        assert refused.status == 422 and refused.headers["Content-Type"] == "application/problem+json"


def test_a_forfeit_tells_the_absent_players_their_table_is_settled(client, motley):
    import time

    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy"), game="jest", name="late", rounds=1,
                                        table_size=3, round_deadline_seconds=1)
    since = motley.app.log_position()
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    (table,) = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    ann, bob, cy = keys
    time.sleep(1.1)
    assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [cy]}, key=org).status == 200
    (forfeited, end) = tournament_items(client, keys[cy], since)
    assert forfeited[0] == "forfeited" and end[0] == "tournament-finished"
    assert (forfeited[1]["round"], forfeited[1]["table"], forfeited[1]["match_id"]) == (1, 1, table["match_id"])
    assert end[1]["standing"]["rank"] == 3
    assert [kind for kind, _ in tournament_items(client, keys[ann], since)] == ["tournament-finished"]


def test_a_withdrawal_is_told_after_its_tables_start_and_a_stream_resumed_from_it_loses_nothing(client, motley):
    """A withdrawal's event lands between its table's start and its end in the log: the table's items were
    told as of its last event, after the ``withdrawn``, and a client resuming from the withdrawal's id
    never had the table's ``started`` (a review)."""
    org, tid, keys = entered_tournament(client, ("ann", "bob", "cy"), game="fools-crown", name="t", rounds=2,
                                        table_size=2)
    since = motley.app.log_position()
    client.post(f"/tournaments/{tid}/start", key=org)
    (table,) = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    leaver = table["players"][0]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{leaver}", key=keys[leaver]).status == 200
    motley.tasks.drain()
    whole = list(sse(client, keys[leaver], last_event_id=since, seconds=1.0))
    kinds = [kind for _, kind, _ in whole]
    assert kinds.index("started") < kinds.index("withdrawn") < kinds.index("finished"), kinds
    positions = [position for position, _, _ in whole if position is not None]
    assert positions == sorted(positions)
    withdrawn_at = next(position for position, kind, _ in whole if kind == "withdrawn")
    resumed = [kind for _, kind, _ in sse(client, keys[leaver], last_event_id=withdrawn_at, seconds=1.0)]
    assert kinds[:kinds.index("withdrawn") + 1] + resumed == kinds


def test_a_forfeit_that_ends_the_tournament_tells_the_tables_finish_before_the_tournaments(client, motley):
    """The forfeit of the last table saved the tournament's events ahead of the match's: its players were
    told the tournament's end, then their table's, and a bot stopping at the end never had its result
    (a tournament bot's probe)."""
    import time

    org, tid, keys = entered_tournament(client, ("ann", "bob"), game="fools-crown", name="last", rounds=1,
                                        table_size=2, round_deadline_seconds=1)
    since = motley.app.log_position()
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    (table,) = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    present, absent = table["players"]
    time.sleep(1.1)
    assert client.post(f"/tournaments/{tid}/forfeits", {"player_ids": [absent]}, key=org).status == 200
    for player in (present, absent):
        kinds = [kind for _, kind, _ in sse(client, keys[player], last_event_id=since, seconds=1.0)]
        assert kinds.index("finished") < kinds.index("tournament-finished"), kinds


def test_a_sanction_after_the_end_tells_the_other_players_their_new_standing(client, motley):
    """A tournament that finished may still be sanctioned (docs/tournaments.md): a disqualification then
    left the others' tournament-finished items with ranks that no longer held, and nothing told them."""
    org, tid, keys = entered_tournament(client, ("ann", "bob"), game="fools-crown", name="after", rounds=1,
                                        table_size=2)
    assert client.post(f"/tournaments/{tid}/start", key=org).status == 200
    (table,) = client.get(f"/tournaments/{tid}").body["rounds"][0]["tables"]
    winner, leaver = table["players"]
    assert client.call("DELETE", f"/tournaments/{tid}/players/{leaver}", key=keys[leaver]).status == 200
    motley.tasks.drain()
    assert client.get(f"/tournaments/{tid}").body["status"] == "finished"
    since = motley.app.log_position()
    disqualified = client.post(f"/tournaments/{tid}/sanctions",
                               {"kind": "disqualify", "player_id": winner, "reason": "a ringer"}, key=org)
    assert disqualified.status == 201, disqualified.text
    voided = client.post(f"/tournaments/{tid}/sanctions",
                         {"kind": "void", "match_id": table["match_id"], "reason": "unfair"}, key=org)
    assert voided.status == 201, voided.text
    told = tournament_items(client, keys[leaver], since)
    assert [kind for kind, _ in told] == ["standings-changed", "standings-changed"]
    (_, first), (_, second) = told
    assert first["sanction"]["kind"] == "disqualify" and first["sanction"]["reason"] == "a ringer"
    assert first["standing"]["rank"] == 1 and first["standing"]["points"] == 0  # the only one ranked now
    assert second["sanction"]["kind"] == "void" and second["standing"]["played"] == 0
    # The disqualified player is told its own sanction, then the void (it stays listed, unranked).
    assert [kind for kind, _ in tournament_items(client, keys[winner], since)] == ["disqualified", "standings-changed"]


def test_every_seated_player_is_told_when_an_open_matchs_last_seat_is_taken(client, motley):
    """A bot developer's probe: the loop says to start a match "once the seats are filled", and the stream
    said nothing of it; a full match its creator followed by this stream alone was never started. (Once it
    started, ``started`` says more: a stream resumed past the start is told that alone.)"""
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    before = motley.app.log_position()
    match_id = client.post("/matches", {"game": "jest", "seats": 3}, key=keys[0]).body["id"]
    client.post(f"/matches/{match_id}/seats", {}, key=keys[0])
    client.post(f"/matches/{match_id}/seats", {}, key=keys[1])
    assert [kind for _, kind, _ in sse(client, keys[0], last_event_id=before, seconds=1)] == []  # not full yet
    client.post(f"/matches/{match_id}/seats", {}, key=keys[2])  # the last seat
    full = client.get(f"/matches/{match_id}", key=keys[0]).body["version"]
    for key in keys:
        told = [(kind, data["version"], data["match"]["status"])
                for _, kind, data in sse(client, key, last_event_id=before, seconds=1)]
        assert told == [("seats-filled", full, "open")], told
    assert client.post(f"/matches/{match_id}/start", key=keys[1]).status == 200
