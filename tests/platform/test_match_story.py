"""One story, told on each event store: players register, a Jest match is created, joined, started
and played to its end; chance and the final scoring are events; replay and rewind work."""

from __future__ import annotations

import copy
import random
import threading
from types import SimpleNamespace

import pytest

from api import create_app
from application import errors
from application.ports import NoTaskQueue
from infrastructure.composition import build
from tests.platform.client import ApiClient


def random_step(app, match, players, rng, expected_version=None) -> None:
    """One step of a random playthrough of ``match``, active, as just read: its automatic step, or a
    random legal move of a random seat to act (none for a seat without a player here); a cooldown's or
    a deadline's refusal is passed over (the next step picks again)."""
    turn = match.to_act()
    if turn.kind != "players":
        app.resolve_automatic_step(match.id)
        return
    seat = rng.choice(turn.seats)
    if players[seat] is None:
        return
    try:
        app.submit_move(match.id, players[seat], rng.choice(match.engine.legal_actions(match.state, seat)),
                        expected_version=expected_version)
    except (errors.TooSoon, errors.TimeIsUp):  # Tumult Royale's peeks cool down (house rule 4.5)
        pass


def seat_players(app, count):
    players = []
    for index in range(count):
        _, key = app.register_player(f"player{index}")
        players.append(app.authenticate(key))
    return players


def started_match(app, players, game, options):
    """A match of ``game`` created by the first of ``players``, every one of them seated, started."""
    match_id = app.create_match(players[0], game, len(players), options, {})
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    return match_id


def timed_match(app, players, game, seconds, on_timeout):
    """A match of ``game`` with a time limit per turn (``seconds``, ``on_timeout``: "computer" or
    "claim"), created by the first of ``players``, every one of them seated, started; its id."""
    match_id = app.create_match_once(players[0], game, len(players), {}, {}, True, True, None,
                                     turn_limit={"seconds": seconds, "on_timeout": on_timeout}).match.id
    for player in players:
        app.join_match(match_id, player)
    app.start_match(match_id, players[0])
    return match_id


def new_jest_match(app, players):
    return started_match(app, players, "jest", {})


def play_one_random_move(app, match_id, players, rng):
    match = app.get_match(match_id)
    turn = match.to_act()
    seat = rng.choice(turn.seats)
    action = rng.choice(match.engine.legal_actions(match.state, seat))
    return app.submit_move(match_id, players[seat], action)


@pytest.mark.slow
def test_replay_equals_the_live_state_after_every_move_over_many_matches(settings, seed):
    """A second application, with no cache, rebuilds each match from the stored events after every
    move: the state it gets equals the live one."""
    live = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    reader = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    reader.app.repository.cache = None  # always replay from the store
    try:
        app = live.app
        rng = random.Random(f"{seed}-moves")
        for number in range(12):
            players = seat_players(app, 3 + number % 2)
            match_id = new_jest_match(app, players)
            while True:
                mine = app.get_match(match_id)
                rebuilt = reader.app.repository.get(mine.id)
                assert rebuilt.state == mine.state and rebuilt.version == mine.version
                assert rebuilt.__dict__.keys() == mine.__dict__.keys()
                if mine.to_act().kind != "players":
                    break
                play_one_random_move(app, match_id, players, rng)
            assert app.resolve_automatic_step(match_id)
            assert reader.app.repository.get(match_id).result == app.get_match(match_id).result
    finally:
        live.close()
        reader.close()


def test_a_whole_jest_match_is_a_stream_of_events(settings, seed):
    """Every move, chance outcome and automatic step is an event; the worker step appends the
    final scoring once; any earlier version can be read again."""
    live = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = live.app
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        rng = random.Random(f"{seed}-moves")
        recorded = {}  # version -> (state, status, moves) as the live match had them
        while True:
            live_match = app.get_match(match_id)
            recorded[live_match.version] = (copy.deepcopy(live_match.state), live_match.status, live_match.moves)
            if live_match.to_act().kind != "players":
                break
            play_one_random_move(app, match_id, players, rng)
        match = app.get_match(match_id)
        assert match.to_act().kind == "auto" and match.awaiting_resolution
        assert app.resolve_automatic_step(match_id) is True
        assert app.resolve_automatic_step(match_id) is False  # delivered twice, appended once
        match = app.get_match(match_id)
        assert match.status == "finished" and match.result["winners"]
        types = [type(e).__name__ for e, _ in app.history(match_id)]
        assert types[:5] == ["Created", "SeatTaken", "SeatTaken", "SeatTaken", "Started"]
        assert types.count("StepResolved") == 1 and types[-1] == "Finished"
        assert types.count("ChanceDrawn") == 4  # one shuffle per round of a 3-player game
        assert "ResolutionDue" in types
        # Rewind: the match at every earlier version is the replay of its first events, and holds
        # exactly the state, status and move count it had live at that version.
        recorded[match.version] = (copy.deepcopy(match.state), match.status, match.moves)
        assert len(recorded) > 10
        for version in (5, 6, match.version // 2, match.version):
            old = app.get_match(match_id, version=version)
            assert old.version == version
        for version, (state, status, moves) in recorded.items():
            old = app.get_match(match_id, version=version)
            assert (old.version, old.state, old.status, old.moves) == (version, state, status, moves), version
        with pytest.raises(errors.NotFound):
            app.get_match(match_id, version=match.version + 1)
    finally:
        live.close()


def test_a_refused_move_appends_nothing(settings, seed):
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        players = seat_players(app, 3)
        outsider = seat_players(app, 1)[0]
        match_id = new_jest_match(app, players)
        version = app.get_match(match_id).version
        hand = app.get_match(match_id).state["hands"][0]
        with pytest.raises(errors.IllegalMove) as illegal:
            app.submit_move(match_id, players[0], {"type": "offer", "up": "XX", "down": hand[0]})
        assert illegal.value.rule
        with pytest.raises(errors.Forbidden):
            app.submit_move(match_id, outsider, {"type": "offer", "up": hand[0], "down": hand[1]})
        with pytest.raises(errors.StaleVersion):
            app.submit_move(match_id, players[0], {"type": "offer", "up": hand[0], "down": hand[1]},
                            expected_version=version - 1)
        with pytest.raises(errors.IllegalMove):
            app.submit_move(match_id, players[0], {"type": "take", "from": 1, "card": "up"})
        assert app.get_match(match_id).version == version
        receipt = app.submit_move(match_id, players[0], {"type": "offer", "up": hand[0], "down": hand[1]},
                                  expected_version=version)
        assert receipt.version == version + 1
        with pytest.raises(errors.NotYourTurn):  # seat 0 has offered: only the others act now
            app.submit_move(match_id, players[0], {"type": "offer", "up": hand[1], "down": hand[0]})
        assert app.get_match(match_id).version == version + 1
    finally:
        container.close()


def test_a_retried_request_is_applied_once(settings, seed):
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        hand = app.get_match(match_id).state["hands"][1]
        offer = {"type": "offer", "up": hand[1], "down": hand[0]}
        first = app.submit_move(match_id, players[1], offer, request_key="k-1")
        again = app.submit_move(match_id, players[1], offer, request_key="k-1")
        assert again.replayed and again.version == first.version
        assert app.get_match(match_id).version == first.version
        with pytest.raises(errors.Conflict):
            app.submit_move(match_id, players[1], {"type": "offer", "up": hand[0], "down": hand[1]},
                            request_key="k-1")
    finally:
        container.close()


def test_sealed_offers_racing_on_one_match_all_land(settings, seed):
    """Moves racing on one match are serialised: the three offers of a round, sent at once from
    three threads, all land, each checked against the state it lands on."""
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        hands = app.get_match(match_id).state["hands"]
        start = app.get_match(match_id).version
        barrier = threading.Barrier(3)
        failures = []

        def offer(seat):
            barrier.wait()
            try:
                offer = {"type": "offer", "up": hands[seat][0], "down": hands[seat][1]}
                app.submit_move(match_id, players[seat], offer)
            except Exception as error:  # collected and asserted below
                failures.append(error)

        threads = [threading.Thread(target=offer, args=(seat,)) for seat in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        match = app.get_match(match_id)
        assert match.version == start + 3 and match.state["phase"] == "take"
    finally:
        container.close()


def test_racing_takes_one_wins_the_other_gets_409(settings, seed):
    """Two requests for the one taker's turn: the first lands; the second, no longer legal on the
    state it would land on, is refused as a conflict and appends nothing."""
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        players = seat_players(app, 3)
        match_id = new_jest_match(app, players)
        for seat, hand in enumerate(app.get_match(match_id).state["hands"]):
            app.submit_move(match_id, players[seat], {"type": "offer", "up": hand[0], "down": hand[1]})
        match = app.get_match(match_id)
        taker = match.state["taker"]
        legal = match.engine.legal_actions(match.state, taker)
        version = match.version
        outcomes = []
        barrier = threading.Barrier(2)

        def take(action):
            barrier.wait()
            try:
                outcomes.append(app.submit_move(match_id, players[taker], action, expected_version=version))
            except errors.Conflict as error:
                outcomes.append(error)

        threads = [threading.Thread(target=take, args=(legal[i],)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        landed = [o for o in outcomes if not isinstance(o, Exception)]
        refused = [o for o in outcomes if isinstance(o, errors.Conflict)]
        assert len(landed) == 1 and len(refused) == 1
        assert app.get_match(match_id).moves == 4
    finally:
        container.close()


@pytest.fixture
def two_processes(settings, seed):
    """Two API processes on one store (two containers) and a started 3-seat Jest match of ann, bob and
    cy, created through the first one's API."""
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    other = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed + 1))  # a second API process
    try:
        client = ApiClient(create_app(container))
        keys = [client.register(name)[1] for name in ("ann", "bob", "cy")]
        players = [container.app.authenticate(key) for key in keys]
        match_id = client.new_match("jest", 3, keys)
        yield SimpleNamespace(app=container.app, other=other.app, client=client, keys=keys, players=players,
                              match_id=match_id)
    finally:
        other.close()
        container.close()


def land_first(monkeypatch, app, race):
    """Make ``race`` (a command through another process) land once, just before ``app``'s next save, so
    that save loses the race; returns the list that holds what ``race`` answered once it ran."""
    landed = []
    save = app._save_match

    def save_after_the_race(match):
        if not landed:
            landed.append(race())
        return save(match)

    monkeypatch.setattr(app, "_save_match", save_after_the_race)
    return landed


def overtaking_pair(app, match_id, seat):
    """(mine, theirs): two legal moves of ``seat`` such that ``mine`` is refused once ``theirs`` landed."""
    legal = app.get_match(match_id).engine.legal_actions(app.get_match(match_id).state, seat)
    for theirs in legal:
        trial = app.get_match(match_id)
        trial.make_move(seat, theirs, app.clock(), None)
        trial.settle(random.Random(0), app.clock())
        for mine in legal:
            turn = trial.to_act()
            if seat not in turn.seats or mine not in trial.engine.legal_actions(trial.state, seat):
                yield mine, theirs


def test_a_move_overtaken_by_one_that_landed_first_is_a_409_move_overtaken(two_processes, monkeypatch):
    """No expected version is stated: the move is checked against the state it would really land on.
    Another process's take lands between this request's check and its save; the save loses the race,
    the request is run again on the new state, where it is no longer legal: 409 ``move-overtaken``,
    and nothing of it is appended."""
    run = two_processes
    app, match_id, players = run.app, run.match_id, run.players
    for seat, hand in enumerate(app.get_match(match_id).state["hands"]):
        app.submit_move(match_id, players[seat], {"type": "offer", "up": hand[0], "down": hand[1]})
    taker = app.get_match(match_id).state["taker"]
    mine, theirs = next(overtaking_pair(app, match_id, taker))
    landed = land_first(monkeypatch, app, lambda: run.other.submit_move(match_id, players[taker], theirs))
    answer = run.client.post(f"/matches/{match_id}/moves", {"action": mine}, key=run.keys[taker])
    assert answer.status == 409 and answer.body["type"].endswith("move-overtaken"), answer.text
    assert "another move landed first" in answer.body["detail"]
    after = app.get_match(match_id)
    assert after.version == landed[0].version and after.moves == 4  # three offers and their take
    made = [e for e, _ in app.history(match_id) if type(e).__name__ == "MoveMade"]
    assert made[-1].action == theirs


def test_players_authenticate_only_with_their_own_key(settings, seed):
    container = build(settings, tasks=NoTaskQueue(), rng=random.Random(seed))
    try:
        app = container.app
        player_id, key = app.register_player("ann")
        assert app.authenticate(key).id == player_id
        for wrong in (None, "", "nonsense", key[:-2] + "xx", f"{player_id.hex}.", "zz." + key.split(".")[1]):
            with pytest.raises(errors.Unauthenticated):
                app.authenticate(wrong)
        stored = [e for e, in [(e,) for e in app.events.get(player_id)]]
        assert key.split(".")[1] not in repr(stored)  # only the hash is stored
    finally:
        container.close()


def test_a_faulty_computer_opponent_falls_back_to_a_legal_move(sqlite_motley, monkeypatch):
    from domain.games import get_engine

    engine = get_engine("fools-crown")
    level = sorted(engine.bots())[0]
    monkeypatch.setattr(type(engine), "bots", lambda self: {level: lambda obs, legal, rng: {"type": "cheat"}})
    app = sqlite_motley.app
    sqlite_motley.tasks.close()  # drive the computer by hand
    app.tasks = NoTaskQueue()
    human = seat_players(app, 1)[0]
    # sealed simultaneous commits (FC-SEAL): seat 1 acts at once; by default (rules 1.3.0, house rule 3.4
    # step 2) a random seat commits first
    match_id = app.create_match(human, "fools-crown", 2, {"commit_order": "simultaneous"}, {1: level})
    app.join_match(match_id, human)
    app.start_match(match_id, human)
    match = app.get_match(match_id)
    assert 1 in match.to_act().seats
    assert app.play_computer_move(match_id, 1) is True
    moved = [e for e, _ in app.history(match_id) if type(e).__name__ == "MoveMade"]
    assert moved and moved[-1].seat == 1 and moved[-1].action["type"] != "cheat"


def test_a_move_overtaken_by_its_own_seats_resignation_is_refused_and_adds_nothing(two_processes, monkeypatch):
    """A racing probe: a seat's move and its resignation sent at once. The resignation landed while the
    move was being saved; the move was run again on the match read afresh, where it was not checked
    against the resignation, and landed as the computer's move with the player's own request key: the
    resigned player chose it. It is the resignation's 409 now, as when the two come one after the other."""
    run = two_processes
    app, match_id = run.app, run.match_id
    hand = app.get_match(match_id).state["hands"][0]
    # ann's resignation, through the other process, lands first, once
    landed = land_first(monkeypatch, app, lambda: run.other.resign_match(match_id, run.players[0]) or True)
    answer = run.client.post(f"/matches/{match_id}/moves", {"action": {"type": "offer", "up": hand[0],
                                                                         "down": hand[1]}}, key=run.keys[0])
    assert answer.status == 409 and answer.body.get("rule") == "resignation", answer.text
    made = [e for e, _ in app.history(match_id) if type(e).__name__ == "MoveMade"]
    assert landed and not [e for e in made if e.seat == 0 and e.request_key is not None], made
