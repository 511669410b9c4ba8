"""No response, to anyone, ever contains a card the caller may not see.

Random Jest matches are played through the API. Beside them the test keeps, from the authoritative
state, the cards each seat has legitimately seen so far (its hands, its offers, its Jest, the trophies,
face-up offer cards once every offer is in); every response body a caller receives, match reads and
event lists alike, is searched for any other card code.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from api import create_app
from domain.engine import CHANCE, SYSTEM
from domain.games import available_engines
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


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_no_response_shows_a_card_the_caller_may_not_see(sqlite_motley, players):
    client = ApiClient(create_app(sqlite_motley))
    app = sqlite_motley.app
    rng = random.Random(players)
    checked = 0
    # The same players sit all 25 matches: registering 100 players in a few seconds would meet the
    # registration rate limit (api/rates.py), which is not what this test is about.
    keys = [client.register(f"p{i}")[1] for i in range(players)]
    for match_number in range(25):
        match_id = client.new_match("jest", players, keys)
        known = {seat: set() for seat in [*range(players), SPECTATOR]}
        key_seat = {key: seat for seat, key in enumerate(keys)}
        client.log.clear()

        def check_answers(known=known, key_seat=key_seat, match_number=match_number):
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


# -- every game --------------------------------------------------------------------------------------
# Options that keep a whole match short (and Tumult Royale's timed taxes quick).
SHORT = {"le-bouffon": {"deals": 1}, "tumult-royale": {"tax_seconds": 1, "ready_seconds": 1}}
# The many-match search plays Tumult Royale's taxes untimed (house rule 4.5's "async" mode): the live,
# timed collection waits real seconds per round; the single-match search of each game covers it.
UNTIMED = {**SHORT, "tumult-royale": {"tax_mode": "async"}}
# Matches per player count: one for the two longest games (a Tumult Royale or Jester match is many
# times a Jest one; the single-match search plays each again) and for Le Bouffon (four player counts,
# a 6-seat deal some 170 steps), two for the others.
MATCHES_PER_COUNT = {"tumult-royale": 1, "jester": 1, "le-bouffon": 1}


def strings_in(value) -> set[str]:
    """Every string value (not key) in a JSON document."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def leaks(text: str, secret: set[str], known: set[str]) -> set[str]:
    """The strings of a response that were secret at some time and never shown to its caller."""
    return (strings_in(json.loads(text)) & secret) - known


def play_and_search(container, game: str, players: int, rng: random.Random, options=SHORT) -> int:
    """Play one random match of ``game`` through the API. Beside it, from the authoritative state,
    keep what each seat (and a spectator) was shown by the engine's own observation so far, and the
    strings that were ever hidden from the public; every answer a caller receives, match reads at any
    version and event lists alike, may hold a once-hidden string only if the engine showed it to that
    caller. Returns how many answers were searched."""
    client = ApiClient(create_app(container))
    app = container.app
    keys = [client.register(f"p{i}")[1] for i in range(players)]
    match_id = client.new_match(game, players, keys, options=options.get(game))
    key_seat = {key: seat for seat, key in enumerate(keys)}
    known: dict = {seat: set() for seat in [*range(players), SPECTATOR]}
    secret: set[str] = set()
    checked = 0
    walked = 0  # events whose redacted form for each viewer was added to what it knows
    client.log.clear()
    rounds = 3000
    while rounds > 0:
        rounds -= 1
        match = app.get_match(match_id)
        if match.status == "finished":  # the end may reveal everything: the search stops before it
            return checked
        engine, state = match.engine, match.state
        public = strings_in(engine.public_observation(state)) | strings_in(match.options)
        secret |= strings_in(state) - public
        known[SPECTATOR] |= public
        for seat in range(players):
            known[seat] |= strings_in(engine.observation(state, seat)) | public
        if match.version > walked:  # what the engine lets each viewer see of each new event
            for event, before in app.history(match_id, after=walked):
                if before is not None and before.state is not None:
                    kind = type(event).__name__
                    actor, shown = {"MoveMade": (getattr(event, "seat", None), getattr(event, "action", None)),
                                    "ChanceDrawn": (CHANCE, getattr(event, "outcome", None)),
                                    "StepResolved": (SYSTEM, getattr(event, "step", None)),
                                    "TimedOut": (SYSTEM, getattr(event, "step", None))}.get(kind, (None, None))
                    if actor is not None and shown is not None:
                        for viewer in known:
                            known[viewer] |= strings_in(engine.redact(before.state, actor, shown, viewer))
            walked = match.version
        for key, text in client.log:  # everything answered so far, against what was shown by now
            seat = key_seat.get(key, SPECTATOR)
            leaked = leaks(text, secret, known[seat])
            assert not leaked, f"{game}: seat {seat} was shown {sorted(leaked)[:5]} at version {match.version}"
            checked += 1
        client.log.clear()
        turn = match.to_act()
        if turn.kind != "players":
            container.tasks.drain(horizon=2.0)
            continue
        seat = rng.choice(turn.seats)
        view = client.get(f"/matches/{match_id}", key=keys[seat]).body
        client.get(f"/matches/{match_id}")  # a spectator's view
        if rng.random() < 0.2:
            client.get(f"/matches/{match_id}/events", key=keys[rng.randrange(players)])
            client.get(f"/matches/{match_id}/events")
            client.get(f"/matches/{match_id}", key=keys[seat], query={"version": rng.randint(1, view["version"])})
        if view["legal_actions"]:
            answer = client.post(f"/matches/{match_id}/moves", {"action": rng.choice(view["legal_actions"])},
                                 key=keys[seat])
            # 409/429: a timer or a cooldown; nothing changed. A 422 only if a timer moved the match on
            # between the read and the move (the move is judged on the state it would land on).
            moved_on = app.get_match(match_id).version > view["version"]
            assert answer.status in (201, 409, 429) or (answer.status == 422 and moved_on), answer.text
            if answer.status == 429:  # a cooldown still running: no round spent (a 4-seat Tumult Royale
                rounds += 1  # spent its 3,000 on 429s, 3,773 of them, and "did not finish")
            if answer.status == 201:
                client.log.pop()  # the mover's answer shows the state after its move: checked next round
                client.get(f"/matches/{match_id}", key=keys[seat])
    raise AssertionError(f"{game}: the match did not finish")


GAMES = sorted(available_engines())


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_no_answer_in_any_game_shows_what_the_engine_hid_from_the_caller(sqlite_motley, game, seed):
    engine = available_engines()[game]
    players = max(engine.min_players, min(3, engine.max_players))
    assert play_and_search(sqlite_motley, game, players, random.Random(seed)) > 20


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_many_matches_of_every_game_and_player_count_keep_their_secrets(sqlite_motley, game, seed):
    engine = available_engines()[game]
    rng = random.Random(seed)
    checked = 0
    for players in range(engine.min_players, engine.max_players + 1):
        for _ in range(MATCHES_PER_COUNT.get(game, 2)):
            checked += play_and_search(sqlite_motley, game, players, rng, options=UNTIMED)
    assert checked > 100


def test_the_search_in_every_game_would_catch_a_leak():
    secret = strings_in({"hands": [["AS", "2C"], ["3D"]], "phase": "offer"}) - strings_in({"phase": "offer"})
    assert secret == {"AS", "2C", "3D"}
    assert leaks('{"observation": {"hand": ["AS"]}, "type": "offer"}', secret, {"AS"}) == set()
    assert leaks('{"items": [{"action": {"card": "3D"}}]}', secret, {"AS"}) == {"3D"}
