"""Timed, sealed phases (Tumult Royale's tax collection): the server keeps the clock. A timer starts
with the phase; a move after the deadline is refused; a worker task closes the phase, once."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from api import create_app
from application import errors
from application.ports import TASK_TIMEOUT
from infrastructure.composition import build
from tests.doubles import RecordingTaskQueue
from tests.platform.client import ApiClient
from tests.platform.test_match_story import seat_players, timed_match


class Clock:
    def __init__(self):
        self.now = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def __call__(self):
        return self.now


def play_until_timer(app, match_id, players, rng, clock, prefix="tax-"):
    """Random legal moves until a timed phase named ``prefix``<round> runs (since Tumult Royale 1.1.0
    the ready step, itself timed, comes before the hourglass: its only move is "ready")."""
    for _ in range(500):
        match = app.get_match(match_id)
        if match.timer is not None and match.timer["phase"].startswith(prefix):
            return match
        turn = match.to_act()
        seat = rng.choice(turn.seats)
        clock.now += timedelta(seconds=1)  # clear of any cooldown
        app.submit_move(match_id, players[seat], rng.choice(match.engine.legal_actions(match.state, seat)))
    raise AssertionError("no timed phase began")


def test_the_server_enforces_the_deadline_and_closes_the_phase_once(settings):
    clock = Clock()
    queue = RecordingTaskQueue()
    container = build(settings, tasks=queue, clock=clock)
    try:
        app = container.app
        players = []
        for name in ("ann", "bob"):
            players.append(app.authenticate(app.register_player(name)[1]))
        match_id = app.create_match(players[0], "tumult-royale", 2, {"tax_seconds": 20}, {})
        for player in players:
            app.join_match(match_id, player)
        app.start_match(match_id, players[0])
        match = play_until_timer(app, match_id, players, random.Random(1), clock)
        phase, deadline = match.timer["phase"], match.timer["deadline"]
        assert deadline == clock.now + timedelta(seconds=20)
        scheduled = [t for t in queue.dropped if t.name == TASK_TIMEOUT and t.args[1] == phase]
        assert scheduled and scheduled[-1].eta == deadline  # the worker is asked to close it then
        seat = match.to_act().seats[0]
        peek = next(a for a in match.engine.legal_actions(match.state, seat) if a["type"] == "peek")
        assert app.close_timed_phase(match_id, phase) is False  # too early: nothing appended
        assert app.get_match(match_id).version == match.version
        clock.now = deadline + timedelta(milliseconds=1)
        with pytest.raises(errors.TimeIsUp):
            app.submit_move(match_id, players[seat], peek)
        assert app.get_match(match_id).version == match.version
        assert app.close_timed_phase(match_id, phase) is True
        assert app.close_timed_phase(match_id, phase) is False  # delivered twice, closed once
        types = [type(e).__name__ for e, _ in app.history(match_id)]
        assert types.count("TimedOut") == 1
        assert app.get_match(match_id).timer is None or app.get_match(match_id).timer["phase"] != phase
    finally:
        container.close()


def tumult_in_its_tax(app, clock, seed: int, seconds: int = 60):
    """Ann and Bob's Tumult Royale match, started and played at random into its first timed tax phase:
    (its players, its id, the match then)."""
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = app.create_match(players[0], "tumult-royale", 2, {"tax_seconds": seconds}, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    return players, match_id, play_until_timer(app, match_id, players, random.Random(seed), clock)


def test_a_timed_phase_sends_its_close_once_not_after_every_move(settings):
    """The close of a timed phase was sent after every save while it ran, each held by the worker until
    the same deadline: a soak's worker held 13,732 closes for 90 that closed anything. It is sent when
    the clock starts (or moves); the moves in the phase send none."""
    clock = Clock()
    queue = RecordingTaskQueue()
    container = build(settings, tasks=queue, clock=clock)
    try:
        app = container.app
        players, match_id, match = tumult_in_its_tax(app, clock, 3)
        phase, started = match.timer["phase"], match.version
        moves = 0
        rng = random.Random(4)
        while moves < 6:
            match = app.get_match(match_id)
            if match.timer is None or match.timer["phase"] != phase:
                break
            seats = [seat for seat in range(2) if match.engine.legal_actions(match.state, seat)]
            if not seats:
                break
            seat = rng.choice(seats)
            clock.now += timedelta(seconds=1)  # clear of the cooldown, well within the 60 s
            app.submit_move(match_id, players[seat], rng.choice(match.engine.legal_actions(match.state, seat)))
            moves += 1
        assert moves >= 2 and app.get_match(match_id).version > started
        closes = [t for t in queue.dropped if t.name == TASK_TIMEOUT and t.args[1] == phase]
        assert len(closes) == 1 and closes[0].eta == match.timer["deadline"], closes
    finally:
        container.close()


def test_a_cooldown_between_peeks_is_a_429(sqlite_motley):
    client = ApiClient(create_app(sqlite_motley))
    keys = [client.register(name)[1] for name in ("ann", "bob")]
    match_id = client.new_match("tumult-royale", 2, keys, options={"tax_seconds": 30})
    rng = random.Random(3)
    for _ in range(300):
        sqlite_motley.tasks.drain()
        view = client.get(f"/matches/{match_id}", key=keys[0]).body
        if view["timer"] and view["timer"]["phase"].startswith("tax-"):
            break
        for seat in view["to_act"]["seats"]:
            legal = client.get(f"/matches/{match_id}", key=keys[seat]).body["legal_actions"]
            client.post(f"/matches/{match_id}/moves", {"action": rng.choice(legal)}, key=keys[seat])
    else:
        pytest.fail("no timed phase began")
    seat = view["to_act"]["seats"][0]
    def peeks():
        return [a for a in client.get(f"/matches/{match_id}", key=keys[seat]).body["legal_actions"]
                if a["type"] == "peek"]
    first, second = peeks()[:2]
    assert client.post(f"/matches/{match_id}/moves", {"action": first}, key=keys[seat]).status == 201
    # A second peek while holding the tile is illegal (rulebook: one tile in hand at a time): a 422 at
    # once, not a 429 whose retry would only meet the 422.
    held = client.post(f"/matches/{match_id}/moves", {"action": second}, key=keys[seat])
    assert held.status == 422 and held.body["type"].endswith("illegal-move"), held.text
    assert client.post(f"/matches/{match_id}/moves", {"action": {"type": "return"}}, key=keys[seat]).status == 201
    again = client.post(f"/matches/{match_id}/moves", {"action": peeks()[0]}, key=keys[seat])
    assert again.status == 429 and again.body["type"].endswith("too-soon")
    assert again.body["title"] == "Too soon for the game"  # not a rate limit's "Too many requests" (a probe)
    # The exact wait, under the 600 ms between a seat's peeks (house rule 4.5); the header rounds it up.
    assert 0 < again.body["retry_after"] <= 0.6 and again.headers["Retry-After"] == "1"


def test_a_cooldown_with_under_a_millisecond_left_says_a_wait_above_zero(settings):
    """A peek 0.2 ms too soon was refused with ``retry_after: 0.0`` (the wait rounded to the ms): a
    client told to wait 0 s that retries at once is refused again. Rounded up, it says 0.001."""
    clock = Clock()
    container = build(settings, tasks=RecordingTaskQueue(), clock=clock)
    try:
        app = container.app
        players, match_id, match = tumult_in_its_tax(app, clock, 2)
        seat = match.to_act().seats[0]
        peek = next(a for a in match.engine.legal_actions(match.state, seat) if a["type"] == "peek")
        app.submit_move(match_id, players[seat], peek)
        app.submit_move(match_id, players[seat], {"type": "return"})
        match = app.get_match(match_id)
        peek = next(a for a in match.engine.legal_actions(match.state, seat) if a["type"] == "peek")
        left = match.cooldown_left(seat, peek, clock.now)
        clock.now += timedelta(seconds=left) - timedelta(microseconds=200)
        with pytest.raises(errors.TooSoon) as refused:
            app.submit_move(match_id, players[seat], peek)
        assert refused.value.extra["retry_after"] == 0.001
    finally:
        container.close()


def test_the_ready_step_is_timed_and_its_timeout_turns_the_hourglass(settings):
    """Tumult Royale 1.1.0, rulebook 2 Get Taxes: the king asks whether everyone is ready before the
    hourglass turns; the server bounds that question too. Nobody answers: at its deadline the worker's
    timeout starts the tax collection, whose own timer then runs."""
    clock = Clock()
    queue = RecordingTaskQueue()
    container = build(settings, tasks=queue, clock=clock)
    try:
        app = container.app
        players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
        options = {"tax_seconds": 20, "ready_seconds": 9}
        match_id = app.create_match(players[0], "tumult-royale", 2, options, {})
        for player in players:
            app.join_match(match_id, player)
        app.start_match(match_id, players[0])
        match = play_until_timer(app, match_id, players, random.Random(2), clock, prefix="ready-")
        phase, deadline = match.timer["phase"], match.timer["deadline"]
        assert phase == "ready-1" and deadline == clock.now + timedelta(seconds=9)
        assert [a["type"] for a in match.engine.legal_actions(match.state, 0)] == ["ready"]
        assert any(t.name == TASK_TIMEOUT and t.args[1] == phase and t.eta == deadline for t in queue.dropped)
        assert app.close_timed_phase(match_id, phase) is False  # not yet
        clock.now = deadline + timedelta(milliseconds=1)
        assert app.close_timed_phase(match_id, phase) is True
        match = app.get_match(match_id)
        assert match.state["phase"] == "tax" and match.timer["phase"] == "tax-1"
        assert match.timer["deadline"] == clock.now + timedelta(seconds=20)
        assert app.close_timed_phase(match_id, phase) is False  # delivered twice, closed once
    finally:
        container.close()


def test_a_computer_move_past_the_deadline_is_no_fault(settings, caplog):
    """A computer's task that arrives after its timed phase closed (its search waited in the computers'
    queue) finds the move refused: it gives up quietly, as for a stale version, and the timeout closes
    the phase (house rule 4.5). It was logged as a failed task, with a traceback."""
    clock = Clock()
    queue = RecordingTaskQueue()
    container = build(settings, tasks=queue, clock=clock)
    try:
        app = container.app
        ann = app.authenticate(app.register_player("ann")[1])
        match_id = app.create_match(ann, "tumult-royale", 2, {"tax_seconds": 20}, {1: "random"})
        app.join_match(match_id, ann)
        app.start_match(match_id, ann)
        rng = random.Random(3)
        match = app.get_match(match_id)
        for _ in range(500):
            match = app.get_match(match_id)
            if match.timer is not None and match.timer["phase"].startswith("tax-") and 1 in match.to_act().seats:
                break
            clock.now += timedelta(seconds=1)
            turn = match.to_act()
            if 0 in turn.seats:
                app.submit_move(match_id, ann, rng.choice(match.engine.legal_actions(match.state, 0)))
            elif 1 in turn.seats:
                app.play_computer_move(match_id, 1)
            else:
                app.resolve_automatic_step(match_id)
        assert match.timer is not None and 1 in match.to_act().seats, "no tax phase for the computer"
        clock.now = match.timer["deadline"] + timedelta(milliseconds=1)
        with caplog.at_level("ERROR"):
            assert app.play_computer_move(match_id, 1) is False
        assert app.get_match(match_id).version == match.version  # nothing appended
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
    finally:
        container.close()


def test_a_move_that_comes_late_for_a_closed_phase_is_told_time_is_up_not_illegal(settings):
    """The worker closes a timed phase within a millisecond of its deadline, so a late "ready" met the
    next phase and was refused as an illegal move under its rules ("unknown tax-collection action
    'ready'"), which a bot takes for its own bug. docs/problems.md: time-is-up is the answer to a move
    whose timed phase is over. After LATE_MOVE_SECONDS, or once the seat acted again, the refusal is the
    match's as it is."""
    clock = Clock()
    container = build(settings, tasks=RecordingTaskQueue(), clock=clock)
    try:
        app, client = container.app, ApiClient(create_app(container))
        keys = [client.register(name)[1] for name in ("ann", "bob")]
        players = [app.authenticate(key) for key in keys]
        match_id = app.create_match(players[0], "tumult-royale", 2, {"tax_seconds": 20, "ready_seconds": 9}, {})
        for player in players:
            app.join_match(match_id, player)
        app.start_match(match_id, players[0])
        match = play_until_timer(app, match_id, players, random.Random(2), clock, prefix="ready-")
        deadline = match.timer["deadline"]
        clock.now = deadline + timedelta(milliseconds=1)
        assert app.close_timed_phase(match_id, "ready-1") is True
        version = app.get_match(match_id).version
        clock.now = deadline + timedelta(milliseconds=400)
        with pytest.raises(errors.TimeIsUp) as late:
            app.submit_move(match_id, players[0], {"type": "ready"})
        assert "ready-1" in late.value.detail and late.value.rule == "time limit"
        answer = client.post(f"/matches/{match_id}/moves", {"action": {"type": "ready"}}, key=keys[1])
        assert answer.status == 409 and answer.body["type"] == "urn:motley:problem:time-is-up", answer.text
        assert app.get_match(match_id).version == version  # nothing changed
        clock.now = deadline + timedelta(seconds=11)  # long after: an illegal move of the phase it is now
        with pytest.raises(errors.IllegalMove):
            app.submit_move(match_id, players[0], {"type": "ready"})
    finally:
        container.close()


def test_a_move_that_comes_late_for_a_turn_clock_is_told_time_is_up(clocked):
    """A turn clock ran out and the computer played the seat: the player's late move was a 409
    not-your-turn that did not say its time had run out."""
    container, clock = clocked
    app = container.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = timed_match(app, players, "jester", 30, "computer")
    match = app.get_match(match_id)
    seat = match.to_act().seats[0]
    action = match.engine.legal_actions(match.state, seat)[0]
    clock.now += timedelta(seconds=31)
    app.close_timed_phase(match_id, match.turn_clock["phase"])
    app.play_computer_move(match_id, seat)
    assert app.get_match(match_id).to_act().seats != (seat,)  # the computer moved for it
    with pytest.raises(errors.TimeIsUp) as late:
        app.submit_move(match_id, players[seat], action)
    assert f"seat {seat}" in late.value.detail


def test_a_seat_still_to_act_after_its_turn_clock_ran_out_gets_the_plain_answers(clocked):
    """A match to be claimed waits for the late seat, still to act in the same turn: its legal moves are
    taken, so its illegal ones are illegal (they were answered time-is-up, and a bot waited for a turn
    it had)."""
    container, clock = clocked
    app = container.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = timed_match(app, players, "jester", 30, "claim")
    match = app.get_match(match_id)
    seat = match.to_act().seats[0]
    clock.now += timedelta(seconds=31)
    app.close_timed_phase(match_id, match.turn_clock["phase"])
    assert app.get_match(match_id).absent == (seat,) and app.get_match(match_id).to_act().seats == (seat,)
    with pytest.raises(errors.IllegalMove):
        app.submit_move(match_id, players[seat], {"type": "no-such-move"})
    legal = match.engine.legal_actions(match.state, seat)[0]
    app.submit_move(match_id, players[seat], legal)  # and its legal move is taken: it is back
    assert app.get_match(match_id).absent == ()


def test_a_move_meant_for_a_turn_the_computer_played_on_is_too_late_even_if_the_seat_acts_again(clocked):
    """Jest (R3, every seat offers at once), nobody offers in time: the computer offers for each seat,
    and the first taker is to act again (R4) before the computer takes for it. Its offer, sent for the
    turn that ran out, is too late (time-is-up), not an illegal take (it was a 422, depending on how
    fast the computer played)."""
    container, clock = clocked
    app = container.app
    players = seat_players(app, 3)
    match_id = timed_match(app, players, "jest", 30, "computer")
    match = app.get_match(match_id)
    offers = {seat: match.engine.legal_actions(match.state, seat)[0] for seat in range(3)}
    clock.now += timedelta(seconds=31)
    app.close_timed_phase(match_id, match.turn_clock["phase"])
    assert app.get_match(match_id).absent == (0, 1, 2)
    for seat in range(3):
        app.play_computer_move(match_id, seat)
    match = app.get_match(match_id)
    (taker,) = match.to_act().seats
    assert match.state is not None and offers[taker] not in match.engine.legal_actions(match.state, taker)
    with pytest.raises(errors.TimeIsUp):
        app.submit_move(match_id, players[taker], offers[taker])


def test_a_late_move_is_time_is_up_after_another_seats_turn_ran_out_too(clocked):
    """docs/problems.md: a seat whose turn closed without its move gets time-is-up for a move arriving
    within 10 s. Only the last close was remembered: seat 2's offer ran out, then seat 0's take did,
    and seat 2's offer, 2.5 s after its own clock closed, was a plain not-your-turn (a docs walk-through)."""
    container, clock = clocked
    app = container.app
    players = seat_players(app, 3)
    match_id = timed_match(app, players, "jest", 2, "computer")
    match = app.get_match(match_id)
    late_offer = match.engine.legal_actions(match.state, 2)[0]
    for seat in (0, 1):
        app.submit_move(match_id, players[seat], match.engine.legal_actions(match.state, seat)[0])
    clock.now += timedelta(seconds=2.1)  # seat 2 never offers: its turn runs out
    assert app.close_timed_phase(match_id, app.get_match(match_id).turn_clock["phase"])
    assert app.get_match(match_id).absent == (2,)
    for _ in range(10):  # the computer plays seat 2 on, until a person's turn runs out too
        match = app.get_match(match_id)
        if match.closed is not None and 2 not in match.closed["seats"]:
            break
        turn = match.to_act()
        if all(seat in match.absent for seat in turn.seats):
            for seat in turn.seats:
                app.play_computer_move(match_id, seat)
        else:
            clock.now += timedelta(seconds=2.1)
            assert app.close_timed_phase(match_id, match.turn_clock["phase"])
    match = app.get_match(match_id)
    assert match.closed is not None and 2 not in match.closed["seats"], match.closed  # another seat's close
    with pytest.raises(errors.TimeIsUp) as late:
        app.submit_move(match_id, players[2], late_offer)
    assert "seat 2" in late.value.detail



def test_a_retried_move_is_answered_at_the_end_of_its_save_turn_clock_and_all(clocked):
    """README: a retried move with the same Idempotency-Key is answered as the first was. With a turn
    limit the move's save also starts (or narrows) the turn clock, and a retry was answered a version
    short: the previous turn's clock, still waiting for the seat that had just moved (a probe, every
    game). A clock that a timeout restarts right after the save is the next command's, not the move's."""
    container, clock = clocked
    app = container.app
    players = [app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob")]
    match_id = app.create_match_once(players[0], "tumult-royale", 2, {"tax_seconds": 600}, {}, True, True, None,
                                     turn_limit={"seconds": 30, "on_timeout": "computer"}).match.id
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    rng, clocks_started = random.Random(5), 0

    def move_twice(seat, action, key):
        first = app.submit_move(match_id, players[seat], action, None, key)
        again = app.submit_move(match_id, players[seat], action, None, key)
        assert again.replayed and again.version == first.version, (first.version, again.version)
        return first

    for number in range(300):
        match = app.get_match(match_id)
        if match.timer is not None and match.timer["phase"].startswith("tax-"):
            break
        seat = rng.choice(match.to_act().seats)
        clock.now += timedelta(seconds=1)
        before = match.turn_clock
        move_twice(seat, rng.choice(match.engine.legal_actions(match.state, seat)), f"move-{number}")
        clocks_started += app.get_match(match_id).turn_clock != before
    assert clocks_started  # saves that started or narrowed the clock were among those retried
    match = app.get_match(match_id)
    assert match.timer["phase"].startswith("tax-") and match.to_act().seats == (0, 1)
    for seat in (0, 1):  # both peek, and both are to act again: at its deadline the clock restarts
        # The second peek lands 2 s past the deadline (a turn clock refuses no move; it makes seats absent),
        # and the timeout comes at that same instant: not told apart from the peek's own save by its times.
        clock.now = clock.now + timedelta(seconds=1) if seat == 0 else (
            app.get_match(match_id).turn_clock["deadline"] + timedelta(seconds=2))
        match = app.get_match(match_id)
        peek = next(a for a in match.engine.legal_actions(match.state, seat) if a["type"] == "peek")
        last = move_twice(seat, peek, f"peek-{seat}")
    assert app.close_timed_phase(match_id, app.get_match(match_id).turn_clock["phase"]) is True
    restarted = [type(event).__name__ for event, _ in app.history(match_id, after=last.version)]
    assert restarted == ["TurnClockStarted"]  # nobody was late: the next command, a clock of its own
    again = app.submit_move(match_id, players[1], peek, None, "peek-1")
    assert again.replayed and again.version == last.version
