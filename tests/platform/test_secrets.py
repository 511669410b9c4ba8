"""No response, to anyone, ever contains a card the caller may not see.

Random Jest matches are played through the API. Beside them the test keeps, from the authoritative
state, the cards each seat has legitimately seen so far (its hands, its offers, its Jest, the trophies,
face-up offer cards once every offer is in); every response body a caller receives, match reads and
event lists alike, is searched for any other card code.
"""

from __future__ import annotations

import random
import re

import pytest

from api import create_app
from domain.games.jest.scoring import CARDS
from tests.platform.client import ApiClient

CODE = re.compile(r'"(' + "|".join(CARDS) + r')"')
SPECTATOR = None


def seen_now(state, seat):
    """Cards ``seat`` (None: a spectator) may see in this state."""
    cards = set(state["trophies"])
    if state["phase"] != "offer":
        cards |= {o["up"] for o in state["offers"] if o and o["up"]}
    if state["phase"] == "over":
        cards |= {c for jest in state["jests"] for c in jest}
    if seat is not None:
        cards |= set(state["hands"][seat]) | set(state["jests"][seat])
        offer = state["offers"][seat]
        if offer:
            cards |= {offer["up"], offer["down"]} - {None}
    return cards


@pytest.mark.parametrize("players", [3, 4])
def test_no_response_shows_a_card_the_caller_may_not_see(sqlite_motley, players):
    client = ApiClient(create_app(sqlite_motley))
    app = sqlite_motley.app
    rng = random.Random(players)
    checked = 0
    for match_number in range(25):
        keys = [client.register(f"p{i}")[1] for i in range(players)]
        match_id = client.new_match("jest", players, keys)
        known = {seat: set() for seat in [*range(players), SPECTATOR]}
        key_seat = {key: seat for seat, key in enumerate(keys)}
        client.log.clear()

        def check_answers():
            # Everything answered so far must show only cards known to its caller by now.
            nonlocal checked
            for key, text in client.log:
                seat = key_seat.get(key, SPECTATOR)
                leaked = set(CODE.findall(text)) - known[seat]
                assert not leaked, f"seat {seat} was shown {leaked} (match {match_number})"
                checked += 1
            client.log.clear()

        while True:
            match = app.get_match(match_id)
            for seat in known:
                known[seat] |= seen_now(match.state, seat)
            check_answers()
            if match.status == "finished":
                break
            turn = match.to_act()
            if turn.kind != "players":
                sqlite_motley.tasks.drain()
                continue
            seat = rng.choice(turn.seats)
            view = client.get(f"/matches/{match_id}", key=keys[seat]).body
            client.get(f"/matches/{match_id}")  # a spectator's view
            if rng.random() < 0.3:
                client.get(f"/matches/{match_id}/events", key=keys[rng.randrange(players)])
                client.get(f"/matches/{match_id}/events")
                client.get(f"/matches/{match_id}", key=keys[seat], query={"version": rng.randint(1, view["version"])})
            check_answers()  # reads before the move, against what was known before it
            answer = client.post(f"/matches/{match_id}/moves", {"action": rng.choice(view["legal_actions"])},
                                 key=keys[seat])
            assert answer.status == 201, answer.text
    assert checked > 1000


def test_the_search_would_catch_a_leak():
    state = {"trophies": ["AS"], "phase": "offer", "offers": [None, {"up": "2C", "down": "3C"}, None],
             "jests": [[], [], []], "hands": [["4H", "JK"], [], ["2D", "3D"]]}
    known = seen_now(state, 0)
    assert known == {"AS", "4H", "JK"}
    body = '{"observation": {"offers": [null, {"up": "2C"}]}}'
    assert set(CODE.findall(body)) - known == {"2C"}
