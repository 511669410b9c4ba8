"""A match view is answered as built, without its schema's dump (api/matches.py ``plain``, issue 16):
that is only sound if every view equals its MatchOut dump, for every game, viewer and moment. Here
random matches of all five games are played, and at every move each viewer's view is dumped."""

from __future__ import annotations

import json
import random

import pytest

from api import schemas
from application.ports import NoTaskQueue
from application.views import Viewer, lens_for, match_view
from infrastructure.composition import build
from infrastructure.settings import Settings
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
