"""A computer opponent's search is bounded in time too (application/service.py, COMPUTER_SECONDS):
whatever its iteration budget, it moves once its time is spent (issue 14: a move within the second a
player would wait). The search reads the application's ``search_clock``; here a clock that jumps a
second at each reading, so the budget is spent at the search's first look at it."""

from __future__ import annotations

from application.ports import NoTaskQueue
from infrastructure.composition import build


def test_a_searching_computer_moves_when_its_time_is_spent(settings):
    container = build(settings, tasks=NoTaskQueue())
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
