"""The turn clock of a match with a time limit per turn (issue 13), on a clock the test sets: a new turn
gets the whole limit, a match that ends stops its clock (nothing asks for its timeout again), and an
absent player takes its seat back from the computer (both stores)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from api import create_app
from application.ports import TASK_TIMEOUT
from domain.games.jest.engine import card_key
from infrastructure.composition import build
from tests.doubles import RecordingTaskQueue
from tests.platform.client import ApiClient

LIMIT = 8.0


class Clock:
    def __init__(self):
        self.now = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def __call__(self):
        return self.now


@pytest.fixture
def timed(settings, rng):
    """A container on the test's clock whose tasks are recorded, not run (the test runs the timeouts)."""
    clock, queue = Clock(), RecordingTaskQueue()
    container = build(settings, tasks=queue, clock=clock, rng=rng)
    yield container, clock, queue
    container.close()


def jest_match(client, keys, on_timeout):
    limit = {"seconds": LIMIT, "on_timeout": on_timeout}
    made = client.post("/matches", {"game": "jest", "seats": 3, "turn_limit": limit}, key=keys[0])
    assert made.status == 201, made.text
    match_id = made.body["id"]
    for key in keys:
        assert client.post(f"/matches/{match_id}/seats", {}, key=key).status == 201
    assert client.post(f"/matches/{match_id}/start", key=keys[0]).status == 200
    return match_id


def offer(client, match_id, key, high_up: bool):
    hand = client.get(f"/matches/{match_id}", key=key).body["observation"]["hand"]
    low, high = sorted(hand, key=card_key)
    up, down = (high, low) if high_up else (low, high)
    answer = client.post(f"/matches/{match_id}/moves", {"action": {"type": "offer", "up": up, "down": down}}, key=key)
    assert answer.status == 201, answer.text
    return answer.body


def test_the_last_to_offer_who_takes_first_gets_the_whole_limit_for_the_take(timed):
    """Jest R2: the highest face-up card takes first. Its player offered last, 5 s into the offers'
    8 s: the take is a new turn, with 8 s of its own, not the 3 s the offers had left."""
    container, clock, _ = timed
    client = ApiClient(create_app(container))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = jest_match(client, keys, "claim")
    hands = container.app.get_match(match_id).state["hands"]
    taker = max(range(3), key=lambda seat: max(card_key(card) for card in hands[seat]))
    others = [seat for seat in range(3) if seat != taker]
    started = clock.now
    for seat in others:
        clock.now += timedelta(seconds=2)
        view = offer(client, match_id, keys[seat], high_up=False)
        # Done with the offers: the others keep the offers' deadline.
        assert view["turn_clock"]["deadline"] == (started + timedelta(seconds=LIMIT)).isoformat()
    clock.now += timedelta(seconds=1)
    view = offer(client, match_id, keys[taker], high_up=True)
    assert view["legal_actions"] and view["legal_actions"][0]["type"] == "take"
    assert view["turn_clock"]["seats"] == [taker]
    assert view["turn_clock"]["deadline"] == (clock.now + timedelta(seconds=LIMIT)).isoformat()


def test_a_match_ended_by_resignation_stops_its_clock_and_its_timeout_is_not_asked_again(timed):
    container, clock, queue = timed
    client = ApiClient(create_app(container))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    match_id = jest_match(client, keys, "computer")
    phase = container.app.get_match(match_id).turn_clock["phase"]
    assert client.post(f"/matches/{match_id}/resign", key=keys[2]).status == 200
    ended = client.post(f"/matches/{match_id}/resign", key=keys[1])
    assert ended.status == 200 and ended.body["status"] == "finished" and ended.body["turn_clock"] is None
    assert client.get(f"/matches/{match_id}").body["turn_clock"] is None
    # The timeout task the start asked for arrives after the deadline: it closes nothing and asks again
    # for nothing (it used to re-queue itself for the passed deadline, for ever).
    clock.now += timedelta(seconds=LIMIT + 1)
    queue.dropped.clear()
    version = container.app.get_match(match_id).version
    assert container.app.close_timed_phase(match_id, phase) is False
    assert [task for task in queue.dropped if task.name == TASK_TIMEOUT] == []
    assert container.app.get_match(match_id).version == version


def test_an_absent_player_takes_its_seat_back_from_the_computer(timed):
    container, clock, _ = timed
    client = ApiClient(create_app(container))
    keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
    _, outsider = client.register("dan")
    match_id = jest_match(client, keys, "computer")
    assert client.post(f"/matches/{match_id}/return", key=keys[2]).status == 409  # not absent
    for seat in (0, 1):
        offer(client, match_id, keys[seat], high_up=False)
    phase = container.app.get_match(match_id).turn_clock["phase"]
    clock.now += timedelta(seconds=LIMIT + 1)
    assert container.app.close_timed_phase(match_id, phase) is True
    away = client.get(f"/matches/{match_id}", key=keys[2]).body
    assert away["absent"] == [2] and away["turn_clock"] is None and away["legal_actions"]  # the computer's turn now

    back = client.post(f"/matches/{match_id}/return", key=keys[2])
    assert back.status == 200, back.text
    assert back.body["absent"] == [] and back.body["turn_clock"]["seats"] == [2]
    assert back.body["turn_clock"]["deadline"] == (clock.now + timedelta(seconds=LIMIT)).isoformat()
    assert container.app.get_match(match_id).stands_in(2) is False  # the computer leaves the seat to its player
    again = client.post(f"/matches/{match_id}/return", key=keys[2])
    assert again.status == 409 and again.body["type"].endswith("conflict") and again.body["rule"] == "absence"
    version = container.app.get_match(match_id).version
    assert client.post(f"/matches/{match_id}/return", key=outsider).status == 403
    assert client.post(f"/matches/{match_id}/return").status == 401
    assert container.app.get_match(match_id).version == version  # refusals change nothing
    offer(client, match_id, keys[2], high_up=False)  # the player's own move lands
