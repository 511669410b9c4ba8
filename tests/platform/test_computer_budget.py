"""A computer opponent's search is bounded in time too (application/service.py, COMPUTER_SECONDS):
whatever its iteration budget, it moves once its time is spent (issue 14: a move within the second a
player would wait). The search reads the application's ``search_clock``; here a clock that jumps a
second at each reading, so the budget is spent at the search's first look at it."""

from __future__ import annotations

from application.ports import NoTaskQueue
from infrastructure.composition import build


def test_a_searching_computer_moves_when_its_time_is_spent(settings, rng):
    container = build(settings, tasks=NoTaskQueue(), rng=rng)
    try:
        app = container.app
        ann = app.authenticate(app.register_player("ann")[1])
        match_id = app.create_match(ann, "jest", 3, {}, {1: "mcts", 2: "mcts"})
        app.join_match(match_id, ann)
        app.start_match(match_id, ann)
        readings = []

        def jumping_clock():
            readings.append(None)
            return float(len(readings))  # a second later at every reading

        app.search_clock = jumping_clock
        moved = 0
        for _ in range(50):
            match = app.get_match(match_id)
            turn = match.to_act()
            if match.status == "finished" or moved >= 4:
                break
            if turn.kind != "players":
                app.resolve_automatic_step(match_id)
                continue
            computers = [s for s in turn.seats if match.stands_in(s)]
            if not computers:
                seat = turn.seats[0]
                app.submit_move(match_id, ann, match.engine.legal_actions(match.state, seat)[0])
                continue
            before, readings[:] = match.version, []
            assert app.play_computer_move(match_id, computers[0])
            assert app.get_match(match_id).version > before  # it moved, through the checked path
            # Started, then stopped at its first look at the clock (after 8 of its 250 iterations);
            # a search with only one legal move does not search at all.
            assert len(readings) in (0, 2), readings
            moved += len(readings) == 2
        assert moved >= 1  # at least one move was searched and cut short
    finally:
        container.close()


def test_a_computer_never_trips_a_cooldown_and_waits_it_out_when_all_its_moves_cool(settings, seed):
    """Tumult Royale's peeks cool down 600 ms (house rule 4.5). On a clock that stands still, a
    computer in the live tax collection is asked to move again and again: it never makes a refused
    move (which used to fail its task and leave the match waiting for it for good); when every move
    it has cools down, it asks to be called again when the first one is allowed."""
    import random
    from datetime import datetime, timezone

    from application.ports import TASK_BOT
    from tests.doubles import RecordingTaskQueue

    now = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    queue = RecordingTaskQueue()
    container = build(settings, tasks=queue, clock=lambda: now[0], rng=random.Random(seed))
    try:
        app, rng = container.app, random.Random(seed)
        ann = app.authenticate(app.register_player("ann")[1])
        match_id = app.create_match(ann, "tumult-royale", 2, {}, {1: "random"})
        app.join_match(match_id, ann)
        app.start_match(match_id, ann)
        computer_moves = 0
        for _ in range(400):
            match = app.get_match(match_id)
            turn = match.to_act()
            if match.status != "active":
                break
            if match.timer is not None and match.timer["phase"].startswith("tax-") and 1 in turn.seats:
                break  # the live collection, the computer to act
            if turn.kind != "players":
                app.resolve_automatic_step(match_id)
                continue
            if 1 in turn.seats:
                assert app.play_computer_move(match_id, 1)
                continue
            app.submit_move(match_id, ann, rng.choice(match.engine.legal_actions(match.state, 0)))
        else:
            raise AssertionError("no live tax collection with the computer to act")
        queue.dropped.clear()
        for _ in range(30):  # the clock stands still: peeks cool down, whatever else it may do
            before = app.get_match(match_id)
            if 1 not in before.to_act().seats or before.status != "active":
                break
            if app.play_computer_move(match_id, 1):  # a move it was allowed, never a refused one
                computer_moves += 1
                continue
            retry = [t for t in queue.dropped if t.name == TASK_BOT and t.eta is not None]
            assert retry and retry[-1].eta > now[0], queue.dropped  # asked again when one is allowed
            assert app.get_match(match_id).version == before.version  # and nothing was written
            break
        assert computer_moves >= 1
    finally:
        container.close()


def test_a_computer_waits_out_a_peek_cooldown_rather_than_ending_its_tax_collection(settings):
    """Tumult Royale's live tax collection (house rule 4.5): a peek cools down 600 ms, "done" never
    does. A computer asked again within the cooldown used to be offered only "done", so it ended its
    collection after one tile. It now chooses among all its moves and waits for the one it chose:
    on a clock that moves 50 ms a call, the 'basic' computer keeps tiles as it would on the bare engine
    (until about 20 units, or a 1-in-20 whim to stop). Three matches on fixed seeds, so the count
    cannot miss by chance: with the old filter it keeps at most one tile a collection."""
    import random
    from datetime import datetime, timedelta, timezone

    kept = 0
    now = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    for match_seed in range(3):
        container = build(settings, tasks=NoTaskQueue(), clock=lambda: now[0], rng=random.Random(match_seed))
        try:
            app = container.app
            ann = app.authenticate(app.register_player("ann")[1])
            match_id = app.create_match(ann, "tumult-royale", 2, {"tax_seconds": 600}, {1: "basic"})
            app.join_match(match_id, ann)
            app.start_match(match_id, ann)
            for _ in range(200):  # on to the live collection, the computer to act
                match = app.get_match(match_id)
                turn = match.to_act()
                if match.state["phase"] == "tax" and 1 in turn.seats:
                    break
                if turn.kind != "players":
                    app.resolve_automatic_step(match_id)
                elif 1 in turn.seats:
                    app.play_computer_move(match_id, 1)
                else:
                    app.submit_move(match_id, ann, match.engine.legal_actions(match.state, 0)[0])
            else:
                raise AssertionError("no live tax collection with the computer to act")
            for _ in range(200):  # the computer alone, asked again every 50 ms
                match = app.get_match(match_id)
                if not match.state["collecting"][1]:
                    break
                app.play_computer_move(match_id, 1)
                now[0] += timedelta(milliseconds=50)
            else:
                raise AssertionError("the computer never ended its collection")
            kept += len(app.get_match(match_id).state["castle"][1])
        finally:
            container.close()
    assert kept > 3, kept


def offering_with_a_computer(app):
    """Ann and Bob at a started Jest match with a basic computer in seat 2: every seat offers at once.
    (ann, bob, match id)."""
    ann, bob = (app.authenticate(app.register_player(name)[1]) for name in ("ann", "bob"))
    match_id = app.create_match(ann, "jest", 3, {}, {2: "basic"})
    app.join_match(match_id, ann)
    app.join_match(match_id, bob)
    app.start_match(match_id, ann)
    return ann, bob, match_id


def test_a_computer_whose_opponents_move_during_its_search_keeps_its_choice(settings, rng, monkeypatch):
    """Jest's offers are made at once by every seat. A person offering while the computer searched made
    its save stale: the search was thrown away and begun again, and with each person moving during it the
    computer's move came a whole search later (1.6-2.4 s where docs/bots.md says 0.8). Its choice now
    stands while its seat is at the same decision; a seat that has moved on searches again."""
    container = build(settings, tasks=NoTaskQueue(), rng=rng)
    try:
        app = container.app
        ann, bob, match_id = offering_with_a_computer(app)
        match = app.get_match(match_id)
        assert list(match.to_act().seats) == [0, 1, 2]  # everyone offers at once
        engine, searches = match.engine, []
        basic = engine.bots()["basic"]

        def searching(observation, legal, rng):
            searches.append(observation)
            if len(searches) == 1:  # Ann and Bob offer while it thinks
                for person in (ann, bob):
                    seat = app.get_match(match_id).seat_of(str(person.id))
                    now = app.get_match(match_id)
                    app.submit_move(match_id, person, now.engine.legal_actions(now.state, seat)[0])
            return basic(observation, legal, rng)

        monkeypatch.setattr(engine, "bots", lambda: {"basic": searching})
        assert app.play_computer_move(match_id, 2)
        after = app.get_match(match_id)
        assert len(searches) == 1  # one search, whose offer was made
        moves = [e for e in app.events.get(after.id, gt=match.version) if type(e).__name__ == "MoveMade"]
        assert [e.seat for e in moves] == [0, 1, 2]

        # A duplicate task moved the seat during the search: the first choice is not played as well.
        second = app.create_match(ann, "jest", 3, {}, {2: "basic"})
        for person in (ann, bob):
            app.join_match(second, person)
        app.start_match(second, ann)
        searches.clear()

        def duplicated(observation, legal, rng):
            searches.append(observation)
            if len(searches) == 1:
                assert app.play_computer_move(second, 2)  # the duplicate, searching on its own
            return basic(observation, legal, rng)

        monkeypatch.setattr(engine, "bots", lambda: {"basic": duplicated})
        assert not app.play_computer_move(second, 2)
        moved = [e.seat for e in app.events.get(app.get_match(second).id) if type(e).__name__ == "MoveMade"]
        assert moved == [2] and len(searches) == 2
    finally:
        container.close()


def test_a_computers_task_sent_again_by_another_seats_move_stands_down(settings, rng, monkeypatch):
    """Every save in a phase where several seats act at once sent a task for each computer still to act:
    on Celery, which keeps every copy, the copies searched side by side (a probe counted 18 full searches
    thrown away for 19 moves), and the computers' queue backed up. A task carries the version before the
    save that sent it: a seat already at that decision then is the task of an earlier save, which plays it."""
    from application.ports import TASK_BOT
    from tests.doubles import RecordingTaskQueue

    tasks = RecordingTaskQueue()
    container = build(settings, tasks=tasks, rng=rng)
    try:
        app = container.app
        ann, bob, match_id = offering_with_a_computer(app)
        started = [t for t in tasks.dropped if t.name == TASK_BOT]
        tasks.dropped.clear()
        match = app.get_match(match_id)
        app.submit_move(match_id, ann, match.engine.legal_actions(match.state, 0)[0])
        copies = [t for t in tasks.dropped if t.name == TASK_BOT]
        assert [t.args[:2] for t in started] == [t.args[:2] for t in copies] == [(str(match_id), 2)]
        assert copies[0].args[2] == match.version  # the version before Ann's save

        searches = []
        basic = match.engine.bots()["basic"]
        monkeypatch.setattr(match.engine, "bots", lambda: {"basic": lambda *a: searches.append(1) or basic(*a)})
        assert not app.play_computer_move(*copies[0].args)  # the seat was at this offer before Ann's save
        assert searches == []
        assert app.play_computer_move(*started[0].args)  # the start's task plays it
        assert searches == [1]
        offered = [e.seat for e in app.events.get(match.id) if type(e).__name__ == "MoveMade"]
        assert offered == [0, 2]
    finally:
        container.close()


def test_a_step_of_the_game_between_a_choice_and_its_save_makes_a_new_decision(settings, rng):
    """Only other seats' moves and the clocks' bookkeeping may come between a computer's choice and its
    save: a step of the game (a deal, a timed phase's end, a resolution) is a new decision, even where the
    seat's legal actions look the same, and the choice is made again."""
    container = build(settings, tasks=NoTaskQueue(), rng=rng)
    try:
        app = container.app
        ann, bob, match_id = offering_with_a_computer(app)
        match = app.get_match(match_id)
        kinds = {e.originator_version: type(e).__name__ for e in app.events.get(match.id)}
        dealt = next(v for v, kind in kinds.items() if kind == "ChanceDrawn")
        legal = match.engine.legal_actions(match.state, 2)
        assert app._same_decision(match, 2, match.version, legal)  # nothing since: the same decision
        assert not app._same_decision(match, 2, dealt - 1, legal)  # the deal came between
        app.submit_move(match_id, ann, match.engine.legal_actions(match.state, 0)[0])
        assert app._same_decision(app.get_match(match_id), 2, match.version, legal)  # another seat's move
    finally:
        container.close()
