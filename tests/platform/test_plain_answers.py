"""A match view is answered as built, without its schema's dump (api/matches.py ``plain``, issue 16):
that is only sound if every view equals its MatchOut dump, for every game, viewer and moment. Here
random matches of all five games are played, and at every move each viewer's view is dumped."""

from __future__ import annotations

import json
import random

import pytest

from api import create_app, schemas
from application.ports import NoTaskQueue
from application.views import Viewer, lens_for, match_view
from infrastructure.composition import build
from infrastructure.settings import Settings
from tests.platform.client import ApiClient
from tests.platform.test_match_story import random_step, seat_players

GAMES = [("jest", 3, {}), ("jester", 2, {}), ("fools-crown", 3, {}), ("tumult-royale", 3, {}),
         ("le-bouffon", 3, {"deals": 1})]


def as_json(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game, seats, options", GAMES)
def test_every_view_of_a_match_equals_its_schema_dump(tmp_path, seed, game, seats, options):
    container = build(Settings(store="sqlite", sqlite_path=str(tmp_path / "plain.sqlite")), tasks=NoTaskQueue(),
                      rng=random.Random(seed))
    schema = schemas.MatchOut()
    try:
        app, rng = container.app, random.Random(seed)
        players = seat_players(app, seats)
        match_id = app.create_match(players[0], game, seats, options, {}, reveal_at_end=True)
        viewers = [Viewer.spectator(), Viewer.the_auditor()] + [Viewer.player(str(p.id)) for p in players]
        checked = 0
        for step in range(5000):
            match = app.read_match(match_id)
            if step == 0 or match.status == "finished" or step % 7 == 0:
                for viewer in viewers:
                    view = match_view(match, lens_for(match, viewer))
                    assert as_json(schema.dump(view)) == as_json(view), (game, viewer, match.version)
                    checked += 1
            if match.status == "finished":
                break
            if match.status == "open":
                for player in players:
                    app.join_match(match_id, player)
                app.start_match(match_id, players[0])
                continue
            random_step(app, match, players, rng)
        assert match.status == "finished" and checked > len(viewers)  # the result and the revealed state too
    finally:
        container.close()


def test_each_command_answers_the_match_as_its_save_left_it_and_that_saves_position(settings, rng):
    """Creating, joining, inviting, leaving, starting, resigning and cancelling answer the match as
    their save left it, with the log position of that save (api/matches.py ``saved_answer``, issue 16):
    the same view a read right after gives, the same position the log has reached (nothing else
    writes here), and their schemas' dumps. A command that saved nothing (an invitation sent again, a
    creation retried) states the log's position now."""
    container = build(settings, tasks=NoTaskQueue(), rng=rng)
    try:
        client = ApiClient(create_app(container))
        (_, ann), (bob_id, bob), (_, cy), (_, dee) = [client.register(name) for name in ("ann", "bob", "cy", "dee")]

        def answered(answer, status, key, seat=None):
            """The view answered (a join's: with the seat taken), checked."""
            assert answer.status == status, answer.text
            out = schemas.MatchOut() if seat is None else schemas.JoinedOut()
            assert as_json(out.dump(answer.body)) == answer.body
            view = answer.body if seat is None else answer.body["match"]
            assert seat is None or (answer.body["seat"] == seat and view["seats"][seat]["player_id"] is not None)
            assert int(answer.headers["Motley-Position"]) == container.app.log_position()
            read = client.get(f"/matches/{view['id']}", key=key)
            assert read.body == view
            # The writer's own tag, as its read gives it: the version, then its reader's mark.
            assert answer.headers["ETag"] == read.headers["ETag"]
            assert answer.headers["ETag"].startswith(f'"{view["version"]}-')
            return view

        created = client.post("/matches", {"game": "jest", "seats": 3, "unlisted": True}, key=ann)
        match = answered(created, 201, ann)
        path, code = f"/matches/{match['id']}", match["invitation_code"]
        assert created.headers["Location"] == path and match["status"] == "open"
        answered(client.post(f"{path}/seats", {}, key=ann), 201, ann, seat=0)
        first = answered(client.post(f"{path}/invitations", {"player_id": bob_id}, key=ann), 200, ann)
        again = answered(client.post(f"{path}/invitations", {"player_id": bob_id}, key=ann), 200, ann)
        assert again["version"] == first["version"]  # nothing saved: the match as read, the log's position now
        answered(client.post(f"{path}/seats", {}, key=bob), 201, bob, seat=1)
        answered(client.post(f"{path}/seats", {"invitation_code": code}, key=cy), 201, cy, seat=2)
        left = answered(client.post(f"{path}/leave", key=bob), 200, bob)
        assert left["seats"][1]["player_id"] is None
        answered(client.post(f"{path}/seats", {"invitation_code": code}, key=dee), 201, dee, seat=1)
        started = answered(client.post(f"{path}/start", key=ann), 200, ann)
        assert started["status"] == "active" and started["version"] > left["version"] + 2
        resigned = answered(client.post(f"{path}/resign", key=cy), 200, cy)
        assert resigned["resigned"] == [2]

        headers = {"Idempotency-Key": "one-match"}
        once = client.post("/matches", {"game": "jester", "seats": 2}, key=ann, headers=headers)
        other = answered(once, 201, ann)
        retried = client.post("/matches", {"game": "jester", "seats": 2}, key=ann, headers=headers)
        assert answered(retried, 201, ann) == other and retried.headers["Idempotent-Replayed"] == "true"
        cancelled = answered(client.post(f"/matches/{other['id']}/cancel", key=ann), 200, ann)
        assert cancelled["status"] == "cancelled"
    finally:
        container.close()
